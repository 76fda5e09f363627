#pragma once

// A side's time control as `tc=` gives it, and the clocks of one game as
// the referee keeps them (cutechess's TimeControl): what each side has
// left, what a move may take, and what a move made costs.

#include <cstdint>
#include <optional>
#include <string>

#include "types.h"

namespace branan::match {

// Time control of one side. moves > 0: `base_ms` for every `moves` moves
// (repeating); moves == 0: `base_ms` for the game. movetime_ms > 0: a fixed
// time per move instead (st=). inc_ms is added after each move.
struct TimeControl {
    int moves = 0;
    int64_t base_ms = 0;
    int64_t inc_ms = 0;
    int64_t movetime_ms = 0;
    int depth = 0;      // optional extra limits sent with go
    uint64_t nodes = 0; // (cutechess's depth= and nodes=)
    bool valid() const { return movetime_ms > 0 || base_ms > 0 || inc_ms > 0; }
    std::string to_string() const; // "40/10+0.1", "10+0.1", "st=0.5"
};
// "40/10+0.1", "10", "1:30+1", "st=0.5". Empty optional with `error` on failure.
std::optional<TimeControl> parse_time_control(const std::string& text, std::string& error);

struct TurnRequest;

// Both sides' clocks through one game.
class GameClock {
  public:
    GameClock(const TimeControl& attackers, const TimeControl& defenders);

    // What side `s` may take for its move now, in ms.
    int64_t allowed_ms(Side s) const;
    // The clocks of a request for side `s`'s move: a fixed movetime, or both
    // sides' time left and increments, and the moves to go.
    void fill(TurnRequest& request, Side s) const;
    // Side `s` moved after `elapsed_ms`: its clock runs down, gets the
    // increment, and a new period when one is done.
    void charge(Side s, int64_t elapsed_ms);
    // Time left (-1: a fixed time per move).
    int64_t left_ms(Side s) const { return left_[s]; }

  private:
    const TimeControl* tc_[2];
    int64_t left_[2];
    int moves_made_[2] = {0, 0};
};

} // namespace branan::match
