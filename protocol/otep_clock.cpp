#include "otep_clock.h"

#include <algorithm>

#include "clock.h"
#include "text.h"

namespace branan {

namespace {

// OpenTafl's increments are whole seconds.
constexpr int64_t INCREMENT_UNIT_MS = 1000;
// An increment is read as the whole seconds below the gain plus this much:
// the host's delay only ever makes the gain smaller, and its 100 ms clock
// updates can make the earlier reading stale by that much.
constexpr int64_t INCREMENT_ROUNDING_MS = 400;

} // namespace

Result<OtepClock> parse_otep_clock(const std::vector<std::string_view>& words) {
    if (words.size() < 6) return Error{"clock: expected 5 fields"};
    OtepClock c;
    for (int s = 0; s < 2; ++s) {
        std::string_view f = words[1 + s];
        if (!f.empty() && f.back() == '*') {
            c.in_overtime[s] = true;
            f.remove_suffix(1);
        }
        auto ms = parse_integer(f, 0, MAX_TIME_MS);
        if (!ms) return Error{"clock: bad time '" + printable(words[1 + s]) + "'"};
        c.ms[s] = *ms;
    }
    auto ot = parse_integer(words[3], 0, MAX_TIME_MS / 1000);
    auto pa = parse_integer(words[4], 0, INT64_MAX);
    auto pd = parse_integer(words[5], 0, INT64_MAX);
    if (!ot || !pa || !pd) return Error{"clock: bad overtime fields"};
    c.overtime_ms = *ot * 1000;
    c.periods[0] = int(std::min<int64_t>(*pa, 1000));
    c.periods[1] = int(std::min<int64_t>(*pd, 1000));
    c.known = true;
    return c;
}

int64_t infer_increment_ms(int64_t before_ms, int64_t used_ms, int64_t after_ms) {
    const int64_t gain = after_ms - (before_ms - used_ms);
    if (gain + INCREMENT_ROUNDING_MS < INCREMENT_UNIT_MS) return 0;
    return (gain + INCREMENT_ROUNDING_MS) / INCREMENT_UNIT_MS * INCREMENT_UNIT_MS;
}

HostClock host_clock(const OtepClock& c, Side us, int64_t increment_ms) {
    HostClock clock;
    if (!c.known) {
        clock.untimed_ms = UNTIMED_MOVE_MS;
        return clock;
    }
    clock.timed = true;
    HostClock::Overtime ot;
    ot.period_ms = c.overtime_ms;
    for (Side s : {ATTACKERS, DEFENDERS}) {
        clock.left_ms[s] = c.ms[s];
        ot.periods[s] = c.periods[s];
        ot.in_period[s] = c.in_overtime[s];
    }
    clock.inc_ms[us] = increment_ms;
    clock.overtime = ot;
    return clock;
}

} // namespace branan
