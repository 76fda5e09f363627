#pragma once

// One game of the hnefatafl.org bot: its position as followed from the
// server's lines (or rebuilt from resume_game_json), its clocks, its state.
// The bot (hnefatafl_org_client.cpp) holds one per game id.

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clock.h"
#include "hnefatafl_org_codec.h"
#include "hosted_game.h"

namespace branan::org {

enum class GameState : uint8_t { PENDING, RUNNING, OVER };

struct BotGame {
    using Clock = branan::Clock;

    int64_t id = 0;
    GameState state = GameState::PENDING;
    bool created = false; // by this run
    int size = 11;
    EditionPtr edition;
    // The game since its root: the start, or the board root_ply plies into
    // the game where the server's moves did not replay. Not started before
    // the game has a position.
    HostedGame game;
    int root_ply = 0;
    Side ours = ATTACKERS;
    std::string opponent;
    // Position known and the game's pushes coming to this connection (after
    // join_game or resume_game_json on it, HNEFATAFL.md 4.8.6).
    bool synced = false;
    bool resume_queued = false;
    TimeControl time;
    std::array<int64_t, 2> ms_left{}; // true at clock_at
    Clock::time_point clock_at;
    bool draw_offered = false;

    bool has_position() const { return game.started(); }
    const Position& position() const { return game.position(); }
    int plies() const { return root_ply + game.position().game_ply(); }
    // A side's clock now: the side to move's runs from clock_at.
    int64_t clock_now(Side s) const;
    bool our_turn() const;
    // "612.3 s left" or "untimed".
    std::string clock_text() const;

    // The game as `= join_game` starts it for `user`; an error when its
    // board cannot be played.
    Status start(const JoinGame& j, const std::string& user);
    // The game as the server keeps it. True when its moves end in a
    // resignation (of the side to move). `note`: why the history was
    // dropped, when the server's moves do not replay under Branan's rules.
    Result<bool> resume(const ResumedGame& r, const std::string& user, int64_t utc_now_ms,
                        std::string& note);
    // The opponent's move of a `game ID play ROLE FROM TO` line, legal here.
    Result<Move> opponent_move(Side role, std::string_view from, std::string_view to) const;
    void apply(Move m);
};

} // namespace branan::org
