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

#include "context.h"
#include "evaluate.h"
#include "history.h"
#include "nnue.h"
#include "position.h"
#include "tactics.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

struct BoardPruning; // search.cpp

class Worker final : public SearchThread {
  public:
    // game_keys / game_windows: Zobrist keys of the game so far (root last)
    // and each one's repetition window.
    Worker(SearchContext& ctx, int id, const Position& root, const std::vector<uint64_t>& game_keys,
           const std::vector<int>& game_windows, History& history);
    void run() override;

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
    // The value after a move, for `us`, the side that made it: the child's
    // own value negated when the turn passed, as it is when a berserk chain
    // (engine/berserk.h) keeps the move with `us`.
    Value child(Side us, Value alpha, Value beta, int depth, int ply, bool pv_node, bool cut_node);
    Value qchild(Side us, Value alpha, Value beta, int ply, int qply, bool pv_node);
    // Game-end rules that depend on the path (repetition, no-capture limit):
    // VALUE_NONE when none applies.
    Value path_rules(int ply) const;
    // How often the position at keys_[idx] has occurred, up to the rules' count.
    int occurrences(int idx) const;
    void do_move(Move m);
    // The evaluation of pos_: the net's where one is set and fits the
    // rules, else the hand-made one.
    Value static_value() const;
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
    // Whether the tactical reads of search/tafl.h hold: not with special
    // moves, where jumps, commanders' captures and chains escape them.
    const bool tactics_;
    // Whether the king's escape threatens after `us`'s quiet move m: the
    // defenders' moves that are searched like captures.
    bool threatens_escape(Side us, Move m) const {
        return tactics_ && us == DEFENDERS && tactics::move_threatens_escape(pos_, m);
    }
    // This board size's pruning figures.
    const BoardPruning& pruning_;
    // The squares near a corner where a repetition made by the attackers is
    // scored as their loss (see path_rules); empty where it does not apply.
    const Bitboard lever_zone_;
    History& history_;
    NnueStack nnue_;
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

} // namespace BRANAN_BOARD_NS
} // namespace branan
