#pragma once

// What every thread of one search shares (SearchContext), the root moves
// and the score helpers, for every board width.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "clock.h"
#include "nnue_net.h"
#include "params.h"
#include "search_limits.h"
#include "timeman.h"
#include "tt.h"

namespace branan {

inline Value mate_in(int ply) {
    return VALUE_WIN - ply;
}
inline Value mated_in(int ply) {
    return -VALUE_WIN + ply;
}
inline bool is_win_score(Value v) {
    return v >= VALUE_WIN_MAX_PLY || v <= -VALUE_WIN_MAX_PLY;
}
// Moves (not plies) to the end for a win/loss score, 0 otherwise.
// The value of a decided game for side `stm` to move, `ply` plies from
// the root: a win the sooner the better, a loss the later the better.
inline Value end_value(Winner w, Side stm, int ply) {
    if (w == Winner::DRAW) return VALUE_ZERO;
    const bool stm_won = (w == Winner::ATTACKERS) == (stm == ATTACKERS);
    return stm_won ? mate_in(ply) : mated_in(ply);
}
inline int mate_moves(Value v) {
    if (v >= VALUE_WIN_MAX_PLY) return (VALUE_WIN - v + 1) / 2;
    if (v <= -VALUE_WIN_MAX_PLY) return -((VALUE_WIN + v + 1) / 2);
    return 0;
}

struct RootMove {
    Move move;
    Value score = -VALUE_INFINITE;
    Bound bound = Bound::EXACT;
    int seldepth = 0;
    std::vector<Move> pv;
};

// Pruning and extension switches (for measuring each one's effect on the
// win suite; the tests turn one off to show what it finds).
struct SearchTuning {
    bool null_move = true;
    bool lmr = true;
    bool futility = true;
    bool lmp = true;
    bool iir = true;
    bool escape_extension = true;
    bool root_reductions = true;
};
SearchTuning& search_tuning();

// One search thread as the context sees it: the search proper (Worker,
// search.h) is compiled once per board width.
class SearchThread {
  public:
    virtual ~SearchThread() = default;
    // Runs the iterative deepening until a limit or stop.
    virtual void run() = 0;

    // Every node writes it and the main thread reads every thread's: a
    // cache line of its own, so no other thread's data moves with it.
    alignas(64) std::atomic<uint64_t> nodes{0};
    alignas(64) std::vector<RootMove> root_moves;
    int completed_depth = 0;
};

// Everything one `go` shares between its threads.
struct SearchContext {
    SearchLimits limits;
    std::atomic<bool> stop{false};
    std::atomic<bool> pondering{false};
    TranspositionTable* tt = nullptr;
    const EvalParams* params = nullptr;
    const NnueNet* net = nullptr; // the learned evaluation, if one is set
    int multipv = 1;
    Clock::time_point start;                 // when go arrived
    std::atomic<int64_t> timer_origin_ms{0}; // ms after start the clock started (ponderhit)
    TimeManager time;                        // its times count from timer_origin
    std::vector<std::unique_ptr<SearchThread>> workers;
    std::function<void(const SearchInfo&)> on_info;

    int64_t elapsed_ms() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    }
    // Time used on the clock: since go, or since ponderhit.
    int64_t used_ms() const { return elapsed_ms() - timer_origin_ms.load(); }
    uint64_t total_nodes() const;
    // What a host sees of root move `rm` after an iteration to `depth`, as
    // line `multipv` (1: the best), with the nodes of every thread so far.
    SearchInfo line_info(const RootMove& rm, int depth, int multipv) const;
};

} // namespace branan
