#pragma once

// The search threads of one search (Lazy SMP): they start on a game's
// board width, the main thread decides when they stop, and the deepest
// thread's line becomes the best move, its Berserk chain finished and its
// ponder move found. The Engine facade holds one pool and forwards to it.

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "board.h"
#include "context.h"
#include "history.h"
#include "position.h"
#include "skill.h"

namespace branan {

// What one search is given besides its game.
struct SearchSetup {
    SearchLimits limits;
    TranspositionTable* tt = nullptr;
    const EvalParams* params = nullptr;
    const NnueNet* net = nullptr;
    int multipv = 1;
    int64_t move_overhead_ms = 0;
    std::function<void(const SearchInfo&)> on_info;
    std::function<void(const BestMove&)> on_bestmove;
    // Below full strength: the best move is drawn from the best few by the
    // win chances (the curve's) they give.
    Skill skill;
    WinCurve curve;
    uint64_t seed = 0;
};

class ThreadPool {
  public:
    ThreadPool() = default;
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // The number of search threads of the next search (>= 1).
    void set_size(int threads);
    int size() const { return threads_; }
    // Forgets what the threads learned (move ordering histories).
    void clear();

    // Starts searching `board`'s game; `pos` is the same game on the
    // widest board (the protocols' copy: the best move's chain and the
    // report of a position without moves are made on it). Returns at once;
    // the setup's callbacks report from a search thread. Fails while a
    // search runs, and from inside on_bestmove.
    Status start(const BoardGame& board, const Position& pos, SearchSetup setup);
    void stop();
    void ponderhit();
    // Until the search has reported its best move (at once from inside
    // on_bestmove).
    void wait();
    bool searching() const { return running_; }
    // Nodes searched by the last finished search, all threads.
    uint64_t last_nodes() const { return last_nodes_; }

  private:
    void main_search();
    void join();

    int threads_ = 1;
    std::vector<std::unique_ptr<History>> histories_;
    const BoardGame* board_ = nullptr;
    std::optional<Position> pos_;
    SearchSetup setup_;
    std::unique_ptr<SearchContext> ctx_;
    std::thread thread_;
    std::atomic<bool> running_{false};
    std::mutex mutex_;
    std::condition_variable cv_;
    bool done_ = true;
    std::atomic<uint64_t> last_nodes_{0};
};

// Lazy SMP: the thread whose move is played. With `vote`, the threads that
// completed an iteration vote for their first moves by depth and score, and
// the thread with a proven win (the quickest) or, failing that, the move
// with the most votes is chosen; the main thread on a tie. Without (several
// lines or a level below full strength, whose choice needs one thread's
// lines), the thread that completed the deepest iteration.
const SearchThread& best_thread(const SearchContext& ctx, bool vote);

// The best move of `thread`'s root move `index` (0: its first) in `pos`:
// its ponder move from the line or the table, and the rest of the turn
// when it opens a Berserk chain.
BestMove best_move_of(const SearchThread& thread, const Position& pos, const BoardGame& board,
                      const TranspositionTable& tt, const EvalParams& params, size_t index = 0);

} // namespace branan
