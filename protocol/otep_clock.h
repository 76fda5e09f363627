#pragma once

// The OTEP host's clock and how long the engine thinks on it: separate from
// the loop so that the plan can be checked without a host.

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

// How long to think on a move, in ms. Never plans past what is left: main
// time if any, else the current overtime period, less the engine's Move
// Overhead for the pipe and the host's reader.
int64_t plan_move_time(const OtepClock& clock, Side us, const Engine& engine);

} // namespace branan
