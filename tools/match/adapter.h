#pragma once

// The engine side of a match: how one engine is started and asked for moves.
// EngineAdapter is the interface the referee talks to; UciAdapter speaks our
// UCI-style protocol and OtepAdapter the OpenTafl engine protocol. A new
// protocol is one more subclass and one more name in make_adapter().
//
// The adapter trusts nothing: it returns the engine's move as text, and the
// referee (game.cpp) checks it against the rules.

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "process.h"
#include "time_control.h"
#include "types.h"

namespace branan::match {

struct EngineConfig {
    std::string name;
    std::string cmd;
    std::vector<std::string> args;
    std::string dir;
    std::string proto = "uci";
    std::vector<std::pair<std::string, std::string>> options;
    TimeControl tc;
    std::string stderr_path; // empty: /dev/null
    bool debug = false;      // echo the engine traffic to stderr
};

// What every game tells the engine before its first move.
struct GameSetup {
    std::string preset;        // a preset name, or empty
    std::string rules;         // the rules string (always set)
    std::string root_tfen;     // empty: the rules' start position
    std::string root_opentafl; // the root as an OpenTafl position record
    Side root_side = ATTACKERS;
};

// One turn: the moves since the root (plain "d1-c1" text, and the OpenTafl
// records for OTEP), the clocks, and the deadline after which the answer
// is late.
struct TurnRequest {
    std::vector<std::string> moves;
    std::vector<std::string> move_records;
    std::string position_opentafl; // the current board (OTEP)
    Side to_move = ATTACKERS;
    int64_t time_ms[2] = {-1, -1}; // remaining, per side; -1: no clock
    int64_t inc_ms[2] = {0, 0};
    int movestogo = 0;
    int64_t movetime_ms = 0;
    int depth = 0;
    uint64_t nodes = 0;
    Clock::time_point deadline;
};

struct TurnReply {
    enum class Status {
        MOVE,      // `move` holds the engine's move text
        TIMEOUT,   // no answer before the deadline
        CRASHED,   // the process ended or closed its output
        MALFORMED, // an answer that is not a move (`line` holds it)
        ABORTED,   // the match is stopping
    };
    Status status = Status::MOVE;
    std::string move;
    std::string line;            // the offending line, for MALFORMED
    std::optional<int> score_cp; // last score the engine reported, its side's view
    int score_depth = 0;         // the depth that score was searched to (0: not said)
    int64_t elapsed_ms = 0;
};

class EngineAdapter {
  public:
    virtual ~EngineAdapter() = default;
    // Starts the process and does the handshake. False with `error`. The
    // match's rules (`rules`: its preset or rules string; no root) are set
    // before the engine's options, which may depend on them (a net given as
    // EvalFile must fit the board), and an option the engine refuses stops
    // the start: a match must not go on with an option silently dropped.
    virtual bool start(const GameSetup& rules, std::string& error) = 0;
    // Prepares a new game; false (with `error`) when the engine does not answer.
    virtual bool new_game(const GameSetup& setup, std::string& error) = 0;
    virtual TurnReply play(const TurnRequest& request) = 0;
    // The engine's move was accepted (OTEP wants to hear it).
    virtual void move_accepted(const std::string& position_opentafl) { (void)position_opentafl; }
    // The game is over: winner as seen by the referee.
    virtual void game_over(Winner winner) { (void)winner; }
    // After a late answer: whether the engine still answers (else restart it).
    virtual bool recover(std::chrono::milliseconds grace) = 0;
    virtual void quit() = 0;
    virtual bool alive() = 0;
    virtual const EngineConfig& config() const = 0;
    // How the process ended, when it has ("exit code 1", "signal 11").
    virtual std::string exit_description() = 0;
};

// Checked by every wait of every adapter: set it to stop the match.
struct AbortFlag {
    std::atomic<bool> stop{false};
};

std::unique_ptr<EngineAdapter> make_adapter(const EngineConfig& config, const AbortFlag& abort,
                                            std::chrono::milliseconds handshake_timeout);

} // namespace branan::match
