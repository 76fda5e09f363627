// Time management (search/timeman.h): the optimum and maximum of a search
// from its limits, and when the main thread stops after a depth. The
// figures are the engine's behaviour since the first search (clock) and
// the budget mode (budget).

#include <catch2/catch.hpp>

#include "timeman.h"

using namespace branan;

namespace {

constexpr int64_t OVERHEAD = 30;

TimeManager clock_of(Side us, int64_t time_ms, int64_t inc_ms = 0, int movestogo = 0,
                     int64_t overhead = OVERHEAD) {
    SearchLimits l;
    l.time_ms[us] = time_ms;
    l.inc_ms[us] = inc_ms;
    l.movestogo = movestogo;
    TimeManager t;
    t.init(l, us, overhead);
    return t;
}

} // namespace

TEST_CASE("timeman: a clock gives a share of the time left", "[search][timeman]") {
    // 59,970 ms after the overhead: 1/35 of it, at most 5 times that.
    TimeManager t = clock_of(ATTACKERS, 60000);
    CHECK(t.timed());
    CHECK(t.optimum_ms() == 1713);
    CHECK(t.maximum_ms() == 8565);
    // Three quarters of the increment on top.
    t = clock_of(ATTACKERS, 60000, 1000);
    CHECK(t.optimum_ms() == 2463);
    CHECK(t.maximum_ms() == 12315);
    // movestogo counts up to 40.
    t = clock_of(ATTACKERS, 60000, 0, 20);
    CHECK(t.optimum_ms() == 2998);
    CHECK(t.maximum_ms() == 14990);
    t = clock_of(ATTACKERS, 60000, 0, 100);
    CHECK(t.optimum_ms() == 1499);
    CHECK(t.maximum_ms() == 7495);
    // Never more than 3/4 of the clock.
    t = clock_of(ATTACKERS, 8000, 4000);
    CHECK(t.optimum_ms() == 3227);
    CHECK(t.maximum_ms() == 5977);
    // The last move before the control: 9/10 of the clock.
    t = clock_of(ATTACKERS, 60000, 0, 1);
    CHECK(t.optimum_ms() == 53973);
    CHECK(t.maximum_ms() == 53973);
    // A clock nearly gone still gives 1 ms.
    t = clock_of(ATTACKERS, 20);
    CHECK(t.optimum_ms() == 1);
    CHECK(t.maximum_ms() == 1);
}

TEST_CASE("timeman: the clock of the side to move counts", "[search][timeman]") {
    SearchLimits l;
    l.time_ms[ATTACKERS] = 60000;
    l.time_ms[DEFENDERS] = 6000;
    TimeManager t;
    t.init(l, DEFENDERS, OVERHEAD);
    CHECK(t.optimum_ms() == 170); // 5970 / 35
    t.init(l, ATTACKERS, OVERHEAD);
    CHECK(t.optimum_ms() == 1713);
    // No clock for the side to move: not timed.
    l.time_ms[DEFENDERS] = -1;
    t.init(l, DEFENDERS, OVERHEAD);
    CHECK_FALSE(t.timed());
    t.init(SearchLimits{}, ATTACKERS, OVERHEAD);
    CHECK_FALSE(t.timed());
}

TEST_CASE("timeman: movetime and budget", "[search][timeman]") {
    SearchLimits l;
    l.movetime_ms = 1000;
    l.time_ms[ATTACKERS] = 60000; // movetime wins
    TimeManager t;
    t.init(l, ATTACKERS, OVERHEAD);
    CHECK(t.timed());
    CHECK(t.optimum_ms() == 970);
    CHECK(t.maximum_ms() == 970);
    l.movetime_ms = 10;
    t.init(l, ATTACKERS, OVERHEAD);
    CHECK(t.maximum_ms() == 1);
    // A budget: the whole of it at most, half of it as the aim.
    SearchLimits b;
    b.budget_ms = 600;
    t.init(b, DEFENDERS, OVERHEAD);
    CHECK(t.timed());
    CHECK(t.maximum_ms() == 570);
    CHECK(t.optimum_ms() == 285);
}

TEST_CASE("timeman: a depth is not started past 60 % of the optimum", "[search][timeman]") {
    const Move a = Move(1, 2), b = Move(3, 4);
    // Optimum 1713: 60 % is 1027.8.
    TimeManager t = clock_of(ATTACKERS, 60000);
    CHECK_FALSE(t.stop_after_depth(1, 50, a, 20, 1027, false));
    t = clock_of(ATTACKERS, 60000);
    CHECK(t.stop_after_depth(1, 50, a, 20, 1028, false));
    // Not while pondering, and never for a fixed movetime or without a clock.
    t = clock_of(ATTACKERS, 60000);
    CHECK_FALSE(t.stop_after_depth(1, 50, a, 20, 100000, true));
    SearchLimits l;
    l.movetime_ms = 1000;
    t.init(l, ATTACKERS, OVERHEAD);
    CHECK_FALSE(t.stop_after_depth(9, 50, a, 1, 100000, false));
    t.init(SearchLimits{}, ATTACKERS, OVERHEAD);
    CHECK_FALSE(t.stop_after_depth(9, 50, a, 1, 100000, false));
    // A score that falls by 50 stretches the time by half: 1541.7.
    for (int64_t used : {1541, 1542}) {
        t = clock_of(ATTACKERS, 60000);
        CHECK_FALSE(t.stop_after_depth(1, 100, a, 20, 0, false));
        CHECK(t.stop_after_depth(2, 50, b, 20, used, false) == (used == 1542));
    }
    // A fall of 20 does not; the stretch decays by 0.9 a depth down to 1.
    t = clock_of(ATTACKERS, 60000);
    CHECK_FALSE(t.stop_after_depth(1, 100, a, 20, 0, false));
    CHECK(t.stop_after_depth(2, 80, a, 20, 1028, false));
    for (int64_t used : {1387, 1388}) { // 1713 * 1.5 * 0.9 * 0.6 = 1387.5
        t = clock_of(ATTACKERS, 60000);
        CHECK_FALSE(t.stop_after_depth(1, 100, a, 20, 0, false));
        CHECK_FALSE(t.stop_after_depth(2, 50, a, 20, 0, false));
        CHECK(t.stop_after_depth(3, 50, a, 20, used, false) == (used == 1388));
    }
    // The score is followed while pondering too.
    t = clock_of(ATTACKERS, 60000);
    CHECK_FALSE(t.stop_after_depth(1, 100, a, 20, 0, true));
    CHECK_FALSE(t.stop_after_depth(2, 50, a, 20, 1541, false));
}

TEST_CASE("timeman: forced moves and proven results stop early", "[search][timeman]") {
    const Move a = Move(1, 2);
    TimeManager t = clock_of(ATTACKERS, 60000);
    CHECK_FALSE(t.stop_after_depth(3, 0, a, 1, 0, false));
    CHECK(t.stop_after_depth(4, 0, a, 1, 0, false));
    // A win in 5 plies is proven by depth 7.
    t = clock_of(ATTACKERS, 60000);
    CHECK_FALSE(t.stop_after_depth(6, VALUE_WIN - 5, a, 20, 0, false));
    CHECK(t.stop_after_depth(7, VALUE_WIN - 5, a, 20, 0, false));
    t = clock_of(ATTACKERS, 60000);
    CHECK(t.stop_after_depth(7, -(VALUE_WIN - 5), a, 20, 0, false));
}

TEST_CASE("timeman: a budget stretches for a new best move, shrinks for a stable one",
          "[search][timeman]") {
    const Move a = Move(1, 2), b = Move(3, 4);
    SearchLimits l;
    l.budget_ms = 1000;
    auto budget = [&] {
        TimeManager t;
        t.init(l, ATTACKERS, 0);
        return t;
    };
    // Optimum 500. A new best move: 500 * 1.6 * 0.6 = 480.
    TimeManager t = budget();
    CHECK_FALSE(t.stop_after_depth(1, 0, a, 20, 480, false));
    t = budget();
    CHECK(t.stop_after_depth(1, 0, a, 20, 481, false));
    // The same best move: 300; six depths in a row: 180.
    t = budget();
    CHECK_FALSE(t.stop_after_depth(1, 0, a, 20, 0, false));
    CHECK_FALSE(t.stop_after_depth(2, 0, a, 20, 300, false));
    CHECK(t.stop_after_depth(3, 0, a, 20, 301, false));
    t = budget();
    for (int d = 1; d <= 6; ++d) CHECK_FALSE(t.stop_after_depth(d, 0, a, 20, 180, false));
    CHECK_FALSE(t.stop_after_depth(7, 0, a, 20, 180, false));
    CHECK(t.stop_after_depth(8, 0, a, 20, 181, false));
    // A change of best move starts the count again.
    t = budget();
    for (int d = 1; d <= 7; ++d) CHECK_FALSE(t.stop_after_depth(d, 0, a, 20, 180, false));
    CHECK_FALSE(t.stop_after_depth(8, 0, b, 20, 480, false));
    // New best and a falling score together reach at most 2: 600.
    t = budget();
    CHECK_FALSE(t.stop_after_depth(1, 300, a, 20, 0, false));
    CHECK_FALSE(t.stop_after_depth(2, 0, b, 20, 600, false));
    t = budget();
    CHECK_FALSE(t.stop_after_depth(1, 300, a, 20, 0, false));
    CHECK(t.stop_after_depth(2, 0, b, 20, 601, false));
}
