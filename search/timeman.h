#pragma once

// Time management: how long one search may think. From the limits it sets
// an optimum, which the iterative deepening aims at, and a maximum, where
// the search is stopped (Worker::check_stop); after each depth the main
// thread completes it says whether to start another. All times are in ms
// from when the clock started (go, or ponderhit).

#include <cstddef>
#include <cstdint>

#include "search_limits.h"

namespace branan {

// A clock without movestogo is shared as if this many moves were left (the
// search's time manager, and the hosts that plan a move's time themselves).
constexpr int MOVES_TO_GO_GUESS = 35;

class TimeManager {
  public:
    // The budget of side `us` for this search, `move_overhead_ms` taken
    // off first. Without a clock, movetime or budget the search is untimed.
    void init(const SearchLimits& limits, Side us, int64_t move_overhead_ms);

    bool timed() const { return timed_; }
    int64_t optimum_ms() const { return optimum_ms_; }
    int64_t maximum_ms() const { return maximum_ms_; }

    // After each depth the main thread completes: whether to stop rather
    // than start the next one. score and best: the root's after this depth;
    // used_ms: the time used so far; no decision while pondering. Called
    // for every depth, as it follows the score and the best move.
    bool stop_after_depth(int depth, Value score, Move best, size_t root_moves, int64_t used_ms,
                          bool pondering);

  private:
    bool timed_ = false;
    // A fixed movetime is used whole: the depths never stop it early.
    bool fixed_time_ = false;
    bool budget_ = false;
    int64_t optimum_ms_ = 0, maximum_ms_ = 0;

    Value prev_score_ = VALUE_NONE;
    Move prev_best_ = MOVE_NONE;
    int stable_depths_ = 0; // depths in a row with the same best move (budget mode)
    double time_factor_ = 1.0;
};

} // namespace branan
