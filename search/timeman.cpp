#include "timeman.h"

#include <algorithm>
#include <cstdlib>

#include "context.h"

namespace branan {

namespace {

// Every figure below was set by hand, never measured against another: the
// clock's when the search was first written, the budget's with the budget
// mode.

// A larger movestogo counts as this many at most.
constexpr int MOVES_TO_GO_MAX = 40;
// A depth is not started past this share of the optimum (times the factors
// below): the next depth would most likely not finish in time.
constexpr double START_SHARE = 0.6;
// A score that falls by more than SCORE_DROP_MIN after a depth stretches the
// time by 1 + drop / SCORE_DROP_SCALE, up to TIME_FACTOR_MAX in all; each
// depth without such a fall shrinks it by TIME_FACTOR_DECAY, down to 1.
constexpr Value SCORE_DROP_MIN = 20;
constexpr double SCORE_DROP_SCALE = 100.0;
constexpr double TIME_FACTOR_MAX = 2.0;
constexpr double TIME_FACTOR_DECAY = 0.9;
// Budget mode: a new best move asks for more time, one that has held for
// STABLE_DEPTHS depths for less.
constexpr double NEW_BEST_FACTOR = 1.6;
constexpr double STABLE_FACTOR = 0.6;
constexpr int STABLE_DEPTHS = 6;
// A forced move is played once this depth is done (its score is reported).
constexpr int FORCED_MOVE_DEPTH = 4;

} // namespace

void TimeManager::init(const SearchLimits& limits, Side us, int64_t overhead) {
    *this = TimeManager{};
    fixed_time_ = limits.movetime_ms != 0;
    budget_ = limits.budget_ms > 0;
    if (limits.movetime_ms > 0) {
        timed_ = true;
        optimum_ms_ = maximum_ms_ = std::max<int64_t>(1, limits.movetime_ms - overhead);
        return;
    }
    if (limits.budget_ms > 0) {
        // Unused time is lost, so aim at half the budget and let unstable
        // or falling scores stretch it up to the whole.
        timed_ = true;
        maximum_ms_ = std::max<int64_t>(1, limits.budget_ms - overhead);
        optimum_ms_ = std::max<int64_t>(1, maximum_ms_ / 2);
        return;
    }
    if (limits.time_ms[us] < 0) return;
    timed_ = true;
    const int64_t left = std::max<int64_t>(1, limits.time_ms[us] - overhead);
    const int64_t inc = std::max<int64_t>(0, limits.inc_ms[us]);
    const int mtg =
        limits.movestogo > 0 ? std::min(limits.movestogo, MOVES_TO_GO_MAX) : MOVES_TO_GO_GUESS;
    // About the clock's share of one move and 3/4 of the increment; at most
    // 3/4 of the clock, and five times the optimum.
    int64_t optimum = left / mtg + inc * 3 / 4;
    int64_t maximum = std::min<int64_t>(left * 3 / 4, optimum * 5);
    // The last move before the time control may use nearly all of it.
    if (mtg == 1) maximum = std::min<int64_t>(left * 9 / 10, left - 10);
    optimum = std::min(optimum, maximum);
    optimum_ms_ = std::max<int64_t>(1, optimum);
    maximum_ms_ = std::max<int64_t>(1, maximum);
}

bool TimeManager::stop_after_depth(int depth, Value score, Move best, size_t root_moves,
                                   int64_t used_ms, bool pondering) {
    bool stop = false;
    if (timed_ && !fixed_time_ && !pondering) {
        if (is_win_score(score) && depth >= VALUE_WIN - std::abs(score) + 2) {
            stop = true; // a proven result will not get shorter
        } else {
            if (prev_score_ != VALUE_NONE && score < prev_score_ - SCORE_DROP_MIN)
                time_factor_ =
                    std::min(TIME_FACTOR_MAX,
                             time_factor_ * (1.0 + (prev_score_ - score) / SCORE_DROP_SCALE));
            else
                time_factor_ = std::max(1.0, time_factor_ * TIME_FACTOR_DECAY);
            if (root_moves == 1 && depth >= FORCED_MOVE_DEPTH) {
                stop = true;
            } else if (budget_) {
                // The factors reach at most 2 together, so no depth starts
                // past 60 % of the budget.
                stable_depths_ = best == prev_best_ ? stable_depths_ + 1 : 0;
                const double stability = stable_depths_ == 0               ? NEW_BEST_FACTOR
                                         : stable_depths_ >= STABLE_DEPTHS ? STABLE_FACTOR
                                                                           : 1.0;
                stop = used_ms > optimum_ms_ * std::min(TIME_FACTOR_MAX, time_factor_ * stability) *
                                     START_SHARE;
            } else {
                stop = used_ms > optimum_ms_ * time_factor_ * START_SHARE;
            }
        }
    }
    prev_score_ = score;
    prev_best_ = best;
    return stop;
}

} // namespace branan
