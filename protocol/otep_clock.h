#pragma once

// The OTEP host's clock, read and turned into the hosted game's clock:
// separate from the loop so that the plan can be checked without a host.
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

#include "hosted_game.h"

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

// The clock as the hosted game plans on it (plan_host_limits), our
// increment as learnt: no clock line (an untimed game) is 5 s a move.
HostClock host_clock(const OtepClock& clock, Side us, int64_t increment_ms);

} // namespace branan
