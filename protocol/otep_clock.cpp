#include "otep_clock.h"

#include <algorithm>

#include "text.h"

namespace branan {

namespace {

constexpr int64_t MAX_MS = int64_t(1) << 40; // about 35 years

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
        auto ms = parse_integer(f, 0, MAX_MS);
        if (!ms) return Error{"clock: bad time '" + printable(words[1 + s]) + "'"};
        c.ms[s] = *ms;
    }
    auto ot = parse_integer(words[3], 0, MAX_MS / 1000);
    auto pa = parse_integer(words[4], 0, INT64_MAX);
    auto pd = parse_integer(words[5], 0, INT64_MAX);
    if (!ot || !pa || !pd) return Error{"clock: bad overtime fields"};
    c.overtime_ms = *ot * 1000;
    c.periods[0] = int(std::min<int64_t>(*pa, 1000));
    c.periods[1] = int(std::min<int64_t>(*pd, 1000));
    c.known = true;
    return c;
}

int64_t plan_move_time(const OtepClock& c, Side us, const Engine& engine) {
    constexpr int64_t UNTIMED_MS = 5000;
    if (!c.known) return UNTIMED_MS;
    const int64_t left = c.ms[us];
    int64_t budget;
    if (c.in_overtime[us]) {
        // Inside a period: use a fair share of it, never all of it.
        budget = left * 2 / 5;
    } else if (c.periods[us] > 0 && c.overtime_ms > 0) {
        // Main time, then overtime periods that are only lost when
        // overrun: a share of the main time plus most of one period.
        budget = left / 30 + c.overtime_ms * 2 / 5;
        budget = std::min(budget, left + c.overtime_ms / 2);
    } else {
        budget = left / 30;
    }
    budget -= engine.move_overhead_ms();
    return std::max<int64_t>(budget, 20);
}

} // namespace branan
