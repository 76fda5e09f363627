#pragma once

// The OTEP host's clock and the time the engine plans on it: separate from
// the loop so that the plan can be checked without a host.
//
// OpenTafl's clock (GameClock): each side has main time, then a number of
// overtime periods of one length. Time spent comes off the main time first;
// once it is gone, each move gets a fresh period, and a move that overruns
// its period loses that period (the game when it was the last one). The
// increment (whole seconds) is added at the start of each turn, to the main
// time while there is some, else to the fresh period; it is never sent.

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine.h"

namespace branan {

// What the host last said about the clocks (`clock` line).
struct OtepClock {
    bool known = false;
    int64_t ms[2] = {0, 0}; // main time left, or what is left of the current period
    bool in_overtime[2] = {false, false};
    int64_t overtime_ms = 0; // length of one overtime period
    int periods[2] = {0, 0}; // overtime periods left
};

// `clock <attackers ms>[*] <defenders ms>[*] <overtime s> <attacker periods>
// <defender periods>`: the words of the line, "clock" first. A '*' marks a
// side inside an overtime period.
Result<OtepClock> parse_otep_clock(const std::vector<std::string_view>& words);

// The increment OpenTafl added between two of our turns, from our main time
// at the first (`before_ms`), the time we took on it and our main time at
// the second: a whole number of seconds, rounded down when the pipe's delay
// makes it doubtful, never more than the host gave.
int64_t infer_increment_ms(int64_t before_ms, int64_t used_ms, int64_t after_ms);

// The share of an overtime period kept back for the host's own delays
// (its JVM, its reader), on top of the engine's Move Overhead.
int64_t period_margin_ms(int64_t period_ms);

// The limits of one move of `us` on this clock; the search's time manager
// (search/timeman.h) then keeps back the engine's Move Overhead. The plan:
// - no clock line (an untimed game): 5 s a move;
// - inside an overtime period: what is left of it, less its margin, used
//   whole (time not used is lost);
// - main time: a budget aimed at a share of it (1/35, plus 3/4 of the
//   increment) and, when periods follow, one period less its margin, since
//   every move gets a period once the main time is spent; at most twice
//   that aim, and never more than 3/4 of the main time plus the period.
SearchLimits plan_move_limits(const OtepClock& clock, Side us, int64_t increment_ms);

} // namespace branan
