#pragma once

// The search proper (internal to search/): one Worker per thread, each an
// iterative-deepening principal-variation search over its own copy of the
// position, all sharing one transposition table (Lazy SMP). Thread 0 keeps
// the time, reports, and decides the best move.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine.h"
#include "history.h"
#include "timeman.h"
#include "tt.h"

namespace branan {

using Clock = std::chrono::steady_clock;

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

// Pruning switches (for measuring each one's effect on the win suite).
struct SearchTuning {
    bool null_move = true;
    bool lmr = true;
    bool futility = true;
    bool lmp = true;
    bool iir = true;
};
SearchTuning& search_tuning();

class Worker;

// Everything one `go` shares between its threads.
struct SearchContext {
    SearchLimits limits;
    std::atomic<bool> stop{false};
    std::atomic<bool> pondering{false};
    TranspositionTable* tt = nullptr;
    const EvalParams* params = nullptr;
    int multipv = 1;
    Clock::time_point start;                 // when go arrived
    std::atomic<int64_t> timer_origin_ms{0}; // ms after start the clock started (ponderhit)
    TimeManager time;                        // its times count from timer_origin
    std::vector<std::unique_ptr<Worker>> workers;
    std::function<void(const SearchInfo&)> on_info;

    int64_t elapsed_ms() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    }
    // Time used on the clock: since go, or since ponderhit.
    int64_t used_ms() const { return elapsed_ms() - timer_origin_ms.load(); }
    uint64_t total_nodes() const;
};

class Worker {
  public:
    // game_keys / game_windows: Zobrist keys of the game so far (root last)
    // and each one's repetition window.
    Worker(SearchContext& ctx, int id, const Position& root, const std::vector<uint64_t>& game_keys,
           const std::vector<int>& game_windows, History& history);
    // Runs the iterative deepening until a limit or stop.
    void run();

    std::atomic<uint64_t> nodes{0};
    std::vector<RootMove> root_moves;
    int completed_depth = 0;

  private:
    struct Stack {
        Move killers[2];
        Value static_eval = VALUE_NONE;
    };

    Value root_search(int pv_idx, Value alpha, Value beta, int depth);
    Value search(Value alpha, Value beta, int depth, int ply, bool pv_node, bool cut_node);
    Value end_value(Winner w, int ply) const;
    bool enter_node(int ply, bool pv_node);
    Value qsearch(Value alpha, Value beta, int ply, int qply, bool pv_node);
    // Game-end rules that depend on the path (repetition, no-capture limit):
    // VALUE_NONE when none applies.
    Value path_rules(int ply) const;
    void do_move(Move m);
    void undo_move();
    void do_null();
    void undo_null();
    bool check_stop();
    void report(int depth);
    void update_pv(int ply, Move m);

    SearchContext& ctx_;
    int id_;
    Position pos_;
    const Rules& rules_;
    History& history_;
    std::vector<uint64_t> keys_;
    std::vector<int> windows_;
    int idx_ = 0; // index of the current position in keys_
    int root_idx_ = 0;
    int seldepth_ = 0;
    uint64_t check_counter_ = 0;
    std::vector<Stack> stack_;
    std::vector<std::array<Move, MAX_PLY + 2>> pv_;
    std::vector<int> pv_len_;
};

} // namespace branan
