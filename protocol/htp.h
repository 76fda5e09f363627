#pragma once

// The Hnefatafl Text Protocol (HTP, HNEFATAFL.md 4.7): hnefatafl.org's engine
// protocol, spoken by its own engine `hnefatafl-text-protocol` and driven by
// its local referee and any HTP driver. One game at a time, line by line:
// `= text` on success, `? text` and an empty line on failure. Like the UCI
// and OTEP loops, the session only parses and prints; the Engine facade
// searches. docs/htp.md describes every command.

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "clock.h"
#include "engine.h"
#include "hosted_game.h"
#include "line_reader.h"

namespace branan {

// How long Branan thinks on `generate_move` in an untimed game (fischer
// games plan from their own clock). depth > 0 searches to that depth instead.
struct HtpOptions {
    int64_t movetime_ms = UNTIMED_MOVE_MS;
    int depth = 0;
};

// The rules string of an HTP game: the hnefatafl-org editions as the
// library (not the server) plays them, `first` moving first.
Result<std::string> htp_rules(int board_size, Side first);

class HtpSession {
  public:
    struct Reply {
        bool ok = true;
        std::string text; // after "= " or "? "; may hold several lines
    };

    HtpSession(Engine& engine, HtpOptions options);
    ~HtpSession();
    HtpSession(const HtpSession&) = delete;
    HtpSession& operator=(const HtpSession&) = delete;

    // One input line. No reply for blank lines and comments; quit() turns
    // true after `quit`.
    std::optional<Reply> handle(std::string_view line);
    bool quit() const { return quit_; }

    // `generate_move`: searches, plays the move and returns it as
    // `play ROLE FROM TO` (the referee's form), or an error.
    Result<std::string> generate_move();

    const Position& position() const { return game_.position(); }
    // ongoing, attacker_wins, defender_wins or draw.
    std::string final_status() const;

  private:
    Status start_game();
    Reply cmd_board_size(const std::vector<std::string_view>& w);
    Reply cmd_first_move(const std::vector<std::string_view>& w);
    Reply cmd_time_settings(const std::vector<std::string_view>& w);
    Reply cmd_play(const std::vector<std::string_view>& w);
    Reply cmd_play_undo();
    Reply cmd_generate_move();
    Reply cmd_play_from() const;
    Reply cmd_play_to(const std::vector<std::string_view>& w) const;
    Reply show_board() const;
    Reply show_board_open_tafl() const;
    // Charges the mover's clock for its move; false when it has run out
    // (the mover then loses and the move is not made).
    bool charge_clock(Side mover);
    Result<std::string> play_move(Side role, Square from, Square to);
    GameResult result() const;

    Engine& engine_;
    HtpOptions options_;
    int size_ = 11;
    Side first_ = ATTACKERS;
    bool timed_ = false;
    int64_t minutes_ = 0, add_seconds_ = 0;
    int64_t left_ms_[2] = {0, 0};
    Clock::time_point clock_since_;
    HostedGame game_;
    // A resignation or a time loss: the result, and the ply it came at.
    GameResult adjudged_;
    // The extra fields of the last generate_move reply.
    std::string last_details_;
    bool quit_ = false;
};

// Runs HTP over `reader`/`out`: `first_line` (already read, may be empty)
// first. Returns after `quit` or at the end of the input.
void run_htp(Engine& engine, const HtpOptions& options, const std::string& first_line,
             LineReader& reader, std::ostream& out);

// Whether a line is an HTP command (the command names of list_commands):
// how `--protocol auto` knows an HTP driver from its first line.
bool is_htp_command(std::string_view first_word);

} // namespace branan
