#include "otep_clock.h"

#include <algorithm>

#include "clock.h"
#include "text.h"
#include "timeman.h"

namespace branan {

namespace {

// OpenTafl's increments are whole seconds.
constexpr int64_t INCREMENT_UNIT_MS = 1000;
// An increment is read as the whole seconds below the gain plus this much:
// the host's delay only ever makes the gain smaller, and its 100 ms clock
// updates can make the earlier reading stale by that much.
constexpr int64_t INCREMENT_ROUNDING_MS = 400;
// What is kept back of a period: a twentieth of it, at least this much.
constexpr int64_t PERIOD_MARGIN_DIVISOR = 20;
constexpr int64_t PERIOD_MARGIN_MIN_MS = 50;

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

int64_t period_margin_ms(int64_t period_ms) {
    return std::max(PERIOD_MARGIN_MIN_MS, period_ms / PERIOD_MARGIN_DIVISOR);
}

SearchLimits plan_move_limits(const OtepClock& c, Side us, int64_t increment_ms) {
    SearchLimits limits;
    if (!c.known) {
        limits.movetime_ms = UNTIMED_MOVE_MS;
        return limits;
    }
    const bool periods_follow = c.periods[us] > 0 && c.overtime_ms > 0;
    if (c.in_overtime[us] || (c.ms[us] == 0 && periods_follow)) {
        const int64_t left = c.in_overtime[us] ? c.ms[us] : c.overtime_ms + increment_ms;
        limits.movetime_ms = std::max<int64_t>(1, left - period_margin_ms(left));
        return limits;
    }
    // Main time: a share of it (as if MOVES_TO_GO_GUESS moves were left, as
    // the time manager guesses for a clock without movestogo, and of the
    // increment) for this move, and
    // when periods follow, a period too, since every move gets one once
    // the main time is spent. Aimed at (the time manager aims at half the
    // budget and stops early on a stable best move), with at most twice
    // that: an 11x11 depth can take five times the last, and a limit that
    // far off would spend the main time in a few moves.
    const int64_t share = c.ms[us] / MOVES_TO_GO_GUESS + increment_ms * 3 / 4;
    const int64_t period =
        periods_follow ? std::max<int64_t>(0, c.overtime_ms - period_margin_ms(c.overtime_ms)) : 0;
    limits.budget_ms =
        std::max<int64_t>(1, std::min(c.ms[us] * 3 / 4 + period, 2 * (share + period)));
    return limits;
}

} // namespace branan
