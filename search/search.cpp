#include "search.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "movegen.h"
#include "movepick.h"
#include "tactics.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

void Worker::do_move(Move m) {
    // The table's line is fetched while the move is made (most moves
    // capture nothing); a capture's key is known only after.
    const uint64_t quiet_key = pos_.key_after(m);
    ctx_.tt->prefetch(quiet_key);
    pos_.make_move(m);
    if (pos_.key() != quiet_key) ctx_.tt->prefetch(pos_.key());
    ++idx_;
    keys_[idx_] = pos_.repetition_key();
    windows_[idx_] = pos_.plies_since_capture() == 0 ? 0 : windows_[idx_ - 1] + 1;
    if (nnue_.active()) nnue_.push_move(pos_);
}
void Worker::undo_move() {
    pos_.unmake_move();
    --idx_;
    if (nnue_.active()) nnue_.pop();
}
void Worker::do_null() {
    pos_.make_null();
    ++idx_;
    keys_[idx_] = pos_.key();
    windows_[idx_] = 0;
    if (nnue_.active()) nnue_.push_null();
}
void Worker::undo_null() {
    pos_.unmake_null();
    --idx_;
    if (nnue_.active()) nnue_.pop();
}
Value Worker::static_value() const {
    return nnue_.active() ? nnue_.evaluate() : evaluate(pos_, *ctx_.params);
}

int Worker::occurrences(int idx) const {
    const Rules& r = rules_;
    const uint64_t key = keys_[idx];
    const int reach = repetition_reach(r, windows_[idx]);
    int count = 1;
    // A chain keeps the side to move: every ply may repeat a position.
    const int step = r.berserk == Berserk::NONE ? 2 : 1;
    for (int back = 2 * step; back <= reach && back <= idx; back += step)
        if (keys_[idx - back] == key && ++count >= r.repetition_count) break;
    return count;
}

Value Worker::path_rules(int ply) const {
    const Rules& r = rules_;
    if (r.repetition != RepetitionOutcome::IGNORED && windows_[idx_] >= 4 &&
        pos_.berserker() == NO_SQUARE) {
        const int count = occurrences(idx_);
        if (count >= r.repetition_count)
            return end_value(repetition_winner(r.repetition, ~pos_.side_to_move()), ply);
        // The corner lever: the king shuttles beside a corner and the one
        // attacker who can block him must follow. Who makes a cycle's first
        // repetition makes its first third one; when that is the attackers,
        // the cycle's end is their loss, beyond the horizon at its first
        // return, so that return is scored as the end.
        if (count >= 2 && lever_zone_ && pos_.side_to_move() == DEFENDERS &&
            pos_.king_square() != NO_SQUARE && test(lever_zone_, pos_.king_square()) &&
            occurrences(idx_ - 1) < 2)
            return end_value(Winner::DEFENDERS, ply);
    }
    if (r.no_capture_limit > 0 && pos_.plies_since_capture() >= r.no_capture_limit)
        return VALUE_ZERO;
    return VALUE_NONE;
}

bool Worker::check_stop() {
    if (ctx_.stop.load(std::memory_order_relaxed)) return true;
    if (id_ != 0) return false;
    const SearchLimits& lim = ctx_.limits;
    // Depth 1 first, whatever the node limit: every move the search plays
    // or lists has been searched (a level of 50 nodes a move included).
    if (lim.nodes && completed_depth >= 1) {
        const uint64_t n =
            ctx_.workers.size() == 1 ? nodes.load(std::memory_order_relaxed) : ctx_.total_nodes();
        if (n >= lim.nodes) {
            ctx_.stop = true;
            return true;
        }
    }
    if ((++check_counter_ & 1023) == 0 && ctx_.time.timed() &&
        !ctx_.pondering.load(std::memory_order_relaxed)) {
        if (ctx_.used_ms() >= ctx_.time.maximum_ms()) {
            ctx_.stop = true;
            return true;
        }
    }
    return false;
}

void Worker::update_pv(int ply, Move m) {
    pv_[ply][0] = m;
    const int n = pv_len_[ply + 1];
    for (int i = 0; i < n; ++i) pv_[ply][i + 1] = pv_[ply + 1][i];
    pv_len_[ply] = n + 1;
}

// The pruning figures that differ with the board's size (the tables are
// below, with the other figures).
struct BoardPruning {
    Value reverse_futility_margin;
    int lmp_base;
    int lmp_per_depth2;
    bool root_reductions;
};

namespace {

// Where the search's figures came from. "By hand": set so when the search
// was first written and never measured against another value. The win-in-N
// suite is the 30 forced wins and 11 only defences of tests/test_search.cpp;
// a pruning was kept when the suite gave the same results with fewer nodes.
// None of these values has had an SPRT, but the large boards'
// BoardPruning.

// Reverse futility: a non-PV node this far above beta per ply of depth
// (BoardPruning below), at depth <= 3, returns its static evaluation. By
// hand; the pruning kept by the suite.
constexpr int REVERSE_FUTILITY_DEPTH = 3;
// Futility: a quiet move at depth <= 2 is skipped when the static
// evaluation plus this much per ply of depth is at most alpha. Kept by the
// suite (the margin itself not compared with others).
constexpr int FUTILITY_DEPTH = 2;
constexpr Value FUTILITY_MARGIN = 150;
// Late-move pruning: at depth <= 3, quiet moves after the first
// lmp_base + lmp_per_depth2 * depth^2 tried (BoardPruning below) are
// skipped. Kept by the suite.
constexpr int LMP_DEPTH = 3;
// Null move from depth 3, reduced by NULL_MOVE_R + depth / NULL_MOVE_R_DIV.
// By hand; the pruning kept by the suite.
constexpr int NULL_MOVE_DEPTH = 3;
constexpr int NULL_MOVE_R = 2;
constexpr int NULL_MOVE_R_DIV = 4;
// Late-move reductions: log(depth) * log(moves) / LMR_DIVISOR, for quiet
// moves after the third from depth 3. By hand (the shape is the usual
// one); the reductions kept by the suite.
constexpr double LMR_DIVISOR = 2.2;
constexpr int LMR_DEPTH = 3;
constexpr int LMR_AFTER_MOVES = 3;
// The root's late quiet moves, on the boards whose BoardPruning says so:
// from this one on (counted from the first of the line), searched first
// with the reduction of a PV node's move.
constexpr int ROOT_LMR_AFTER_MOVES = 3;
// Internal iterative reduction: one ply less without a table move from this
// depth. Kept by the suite (depth 5 not compared with others).
constexpr int IIR_DEPTH = 5;
// Aspiration windows from depth 4, +-30 around the last score, doubled on
// each fail, the full window once wider than 1000. By hand.
constexpr int ASPIRATION_DEPTH = 4;
constexpr Value ASPIRATION_DELTA = 30;
constexpr Value ASPIRATION_DELTA_MAX = 1000;
// Quiescence plies in which the defenders answer a king capture threat with
// every move (past them, stand pat and captures only). By hand.
constexpr int QPLY_THREAT_MAX = 6;
// The smallest board whose search plays the king's escape races out: the
// quiescence tries the king's escape threats, and a node where the
// attackers must block one is searched a ply deeper, as chess extends a
// check (without it the escape races of 11x11 fell beyond the horizon;
// 7x7 and 9x9 search deep enough without).
constexpr int ESCAPE_RACE_MIN_SIZE = 11;
// How far from a corner (in files and in ranks) the king's shuttle is a
// lever (the three attackers' losses of the opentafl-copenhagen
// conversion shuttled two files or ranks from a corner), and the smallest
// board it is scored on (measured on 11x11 only; Brandubh's tfr:w search
// reaches the third repetition).
constexpr int LEVER_REACH = 2;
constexpr int LEVER_MIN_SIZE = 11;

// The move picker lists the captures, king moves and killers first (most
// nodes are cut before the rest is wanted) where the rest's history cannot
// change meanwhile: below depth 3 the only nodes of the same side under a
// node are quiescence nodes, which keep no history. Not with special moves
// (Berserk), where a chain's next move is the same side's at one ply less
// (and the capture maps do not hold). A speed-up only: the order is the
// same at every depth.
constexpr int STAGED_MAX_DEPTH = 2;
// On boards below 11x11 (30 to 60 moves a node) it was slower: Brandubh
// -4.7 %, Tablut -2 % in nodes per second, for 2.6 % and 3.9 % fewer
// instructions.
constexpr int STAGED_MIN_SIZE = 11;

// Below 11x11: set by hand, the margin with reverse futility and the move
// counts with late-move pruning, neither compared with others.
constexpr BoardPruning SMALL_BOARD_PRUNING{120, 4, 3, false};
// 11x11 and larger, where the tuned weights made the tree from
// the Copenhagen start three times bushier than the hand-set ones (depth 13
// after 23.8 M nodes, 14 after 59 M): a narrower margin, fewer quiet moves
// near the leaves, and the root's late moves reduced as every other node's
// are (the root has 100 moves or more there). Together: depth 14 after
// 15.9 M nodes. Kept by matches in the four 11x11 editions at equal nodes
// (docs/search.md).
constexpr BoardPruning LARGE_BOARD_PRUNING{80, 3, 2, true};
constexpr int LARGE_BOARD_MIN_SIZE = 11;

// Lazy SMP: helper threads skip some depths so they spread over the tree.
constexpr int SKIP_SIZE[] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
constexpr int SKIP_PHASE[] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};

int lmr_table[64][64];
struct LmrInit {
    LmrInit() {
        for (int d = 1; d < 64; ++d)
            for (int m = 1; m < 64; ++m)
                lmr_table[d][m] = int(0.5 + std::log(d) * std::log(m) / LMR_DIVISOR);
    }
} lmr_init;

const BoardPruning& board_pruning(int size) {
    return size >= LARGE_BOARD_MIN_SIZE ? LARGE_BOARD_PRUNING : SMALL_BOARD_PRUNING;
}

// The reduction of the late quiet move that is a node's `searched`th, in
// plies, leaving at least one.
int late_move_reduction(int depth, int searched, bool pv_node, bool cut_node) {
    int r = lmr_table[std::min(depth, 63)][std::min(searched, 63)];
    if (pv_node) r -= 1;
    if (cut_node) r += 1;
    return std::clamp(r, 0, depth - 2);
}

// Where the corner lever is scored: the squares within two of a corner
// (king's moves), on the larger boards whose repetition loses the player
// who makes it (OpenTafl's tfr:w).
Bitboard lever_zone(const Edition& edition) {
    if (edition.size < LEVER_MIN_SIZE || edition.rules.repetition != RepetitionOutcome::MOVER_LOSES)
        return 0;
    Bitboard zone = 0;
    for_each_square(edition.corners, [&](Square c) {
        for (Square s = 0; s < edition.num_squares; ++s)
            if (std::abs(edition.file[s] - edition.file[c]) <= LEVER_REACH &&
                std::abs(edition.rank[s] - edition.rank[c]) <= LEVER_REACH)
                zone |= square_bb(s);
    });
    return zone & ~edition.corners;
}

} // namespace

Worker::Worker(SearchContext& ctx, int id, const Position& root,
               const std::vector<uint64_t>& game_keys, const std::vector<int>& game_windows,
               History& history)
    : ctx_(ctx), id_(id), pos_(root), rules_(root.edition().rules),
      tactics_(!root.edition().special_moves), pruning_(board_pruning(root.size())),
      lever_zone_(lever_zone(root.edition())), history_(history) {
    keys_ = game_keys;
    windows_ = game_windows;
    root_idx_ = idx_ = int(keys_.size()) - 1;
    keys_.resize(keys_.size() + MAX_PLY + 8);
    windows_.resize(windows_.size() + MAX_PLY + 8);
    stack_.resize(MAX_PLY + 8);
    pv_.resize(MAX_PLY + 8);
    pv_len_.resize(MAX_PLY + 8);
    if (ctx.net && nnue_fits(*ctx.net, root.edition())) {
        nnue_.set_net(ctx.net);
        nnue_.refresh(pos_);
    }
}

// The value of a game's end for the side to move: a draw (a repetition,
// the ply limit) or a win, read from the winner rather than assumed to be
// the mover's, so that a rule where a move can lose at once stays scored
// right.
Value Worker::end_value(Winner w, int ply) const {
    return branan::end_value(w, pos_.side_to_move(), ply);
}

// Counts the node and starts its principal variation; false when the
// search must stop.
bool Worker::enter_node(int ply, bool pv_node) {
    nodes.store(nodes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    if (check_stop()) return false;
    if (pv_node) {
        pv_len_[ply] = 0;
        seldepth_ = std::max(seldepth_, ply + 1);
    }
    return true;
}

Value Worker::child(Side us, Value alpha, Value beta, int depth, int ply, bool pv_node,
                    bool cut_node) {
    if (pos_.side_to_move() == us) return search(alpha, beta, depth, ply, pv_node, cut_node);
    return -search(-beta, -alpha, depth, ply, pv_node, cut_node);
}

Value Worker::qchild(Side us, Value alpha, Value beta, int ply, int qply, bool pv_node) {
    if (pos_.side_to_move() == us) return qsearch(alpha, beta, ply, qply, pv_node);
    return -qsearch(-beta, -alpha, ply, qply, pv_node);
}

Value Worker::qsearch(Value alpha, Value beta, int ply, int qply, bool pv_node) {
    if (!enter_node(ply, pv_node)) return VALUE_ZERO;
    if (pos_.decided().over()) return end_value(pos_.decided().winner, ply);
    if (rules_.no_capture_limit > 0 && pos_.plies_since_capture() >= rules_.no_capture_limit)
        return VALUE_ZERO;
    if (ply >= MAX_PLY - 4) return static_value();

    const Side us = pos_.side_to_move();
    bool threatened = false;
    Bitboard block = 0;
    // A draw by a limit before the escape the next move cannot stop.
    const bool draw_limit_near =
        (rules_.no_capture_limit > 0 &&
         pos_.plies_since_capture() + 1 >= rules_.no_capture_limit) ||
        (rules_.draw_ply > 0 && pos_.plies_played() + 2 >= rules_.draw_ply);
    if (tactics_ && us == DEFENDERS) {
        if (tactics::king_escapes(pos_)) return mate_in(ply + 1);
        threatened = tactics::king_capture_threat(pos_);
    } else if (tactics_) {
        if (tactics::king_capture_threat(pos_)) return mate_in(ply + 1);
        const Bitboard esc = tactics::king_escapes(pos_);
        threatened = esc != 0;
        if (threatened) {
            if (popcount(esc) >= 2 && !draw_limit_near) return mated_in(ply + 2);
            block = tactics::escape_paths(pos_, esc);
        }
    }

    const uint64_t key = pos_.key();
    bool tt_hit;
    TTEntry* tte = ctx_.tt->probe(key, tt_hit);
    Value tt_eval = VALUE_NONE;
    if (tt_hit) {
        const Value tv = value_from_tt(tte->value(), ply);
        const Bound b = tte->bound();
        if (!pv_node && tv != VALUE_NONE &&
            (b == Bound::EXACT || (b == Bound::LOWER && tv >= beta) ||
             (b == Bound::UPPER && tv <= alpha)))
            return tv;
        tt_eval = tte->eval();
    }

    Value best = -VALUE_INFINITE;
    const Value alpha0 = alpha;
    const bool full_width = threatened && (us == ATTACKERS || qply < QPLY_THREAT_MAX);
    Value stand = VALUE_NONE;
    if (!full_width) {
        stand = tt_eval != VALUE_NONE ? tt_eval : static_value();
        if (stand >= beta) {
            if (!tt_hit)
                ctx_.tt->store(tte, key, value_to_tt(stand, ply), Bound::LOWER, 0, 0, stand);
            return stand;
        }
        best = stand;
        if (stand > alpha) alpha = stand;
    }

    // The moves worth a look: captures, the blocks of an escape, or every
    // move against a king capture.
    Move best_move = MOVE_NONE;
    MovePicker picker(pos_,
                      !full_width       ? PickKind::CAPTURES
                      : us == ATTACKERS ? PickKind::BLOCKS
                                        : PickKind::EVASIONS,
                      block);
    int tried = 0;
    bool stopped = false;
    // Searches one move; true when it refutes this node (or the search stops).
    auto try_move = [&](Move m) {
        ++tried;
        do_move(m);
        const Value v = qchild(us, alpha, beta, ply + 1, qply + 1, pv_node);
        undo_move();
        if (ctx_.stop.load(std::memory_order_relaxed)) return stopped = true;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                best_move = m;
                if (pv_node) update_pv(ply, m);
                if (v >= beta) return true;
            }
        }
        return false;
    };
    bool quiet;
    bool refuted = false;
    for (Move m; !refuted && (m = picker.next(quiet));) refuted = try_move(m);
    if (stopped) return VALUE_ZERO;
    // On the larger boards the defenders' first quiescence ply also tries
    // the king's quiet moves after which he sees an escape square: the
    // attackers must answer at once (their next ply blocks), so an escape
    // race at the horizon is played out rather than stood pat on.
    if (!refuted && qply == 0 && us == DEFENDERS && !full_width && tactics_ &&
        pos_.size() >= ESCAPE_RACE_MIN_SIZE && pos_.king_square() != NO_SQUARE) {
        const Square k = pos_.king_square();
        Bitboard targets = move_targets(pos_, k);
        while (targets && !refuted) {
            const Move m(k, pop_lsb(targets));
            if (tactics::move_effect(pos_, m).captures || pos_.recreates_board(m) ||
                !tactics::move_threatens_escape(pos_, m))
                continue;
            refuted = try_move(m);
        }
        if (stopped) return VALUE_ZERO;
    }
    if (full_width && tried == 0) {
        if (us == ATTACKERS) return mated_in(ply + 2); // nothing blocks the escape
        return rules_.no_moves_loses ? mated_in(ply) : VALUE_ZERO;
    }
    const Bound bound = best >= beta               ? Bound::LOWER
                        : pv_node && best > alpha0 ? Bound::EXACT
                                                   : Bound::UPPER;
    ctx_.tt->store(tte, key, value_to_tt(best, ply), bound, 0, pack_move(best_move, pos_.size()),
                   stand);
    return best;
}

Value Worker::search(Value alpha, Value beta, int depth, int ply, bool pv_node, bool cut_node) {
    if (depth <= 0) return qsearch(alpha, beta, ply, 0, pv_node);

    if (!enter_node(ply, pv_node)) return VALUE_ZERO;

    // The end of the game.
    if (pos_.decided().over()) return end_value(pos_.decided().winner, ply);
    if (const Value r = path_rules(ply); r != VALUE_NONE) return r;
    if (ply >= MAX_PLY - 4) return static_value();

    // Mate distance pruning.
    alpha = std::max(mated_in(ply), alpha);
    beta = std::min(mate_in(ply + 1), beta);
    if (alpha >= beta) return alpha;

    const uint64_t key = pos_.key();
    bool tt_hit;
    TTEntry* tte = ctx_.tt->probe(key, tt_hit);
    const Value tt_value = tt_hit ? value_from_tt(tte->value(), ply) : VALUE_NONE;
    const Move tt_move = tt_hit ? tte->move(pos_.size()) : MOVE_NONE;
    if (!pv_node && tt_hit && tte->depth() >= depth && tt_value != VALUE_NONE) {
        const Bound b = tte->bound();
        if (b == Bound::EXACT || (b == Bound::LOWER && tt_value >= beta) ||
            (b == Bound::UPPER && tt_value <= alpha))
            return tt_value;
    }

    // The table lines of the first moves to come, fetched while this node
    // works out its threats and evaluation: the table move's (an entry may
    // be another position's: its squares are checked first) and the null
    // move's.
    if (tt_move && tt_move.from() < pos_.edition().num_squares &&
        tt_move.to() < pos_.edition().num_squares)
        ctx_.tt->prefetch(pos_.key_after(tt_move));
    if (!pv_node && depth >= NULL_MOVE_DEPTH) ctx_.tt->prefetch(pos_.key() ^ zobrist::side);

    // A win on this move.
    const SearchTuning& tune = search_tuning();
    const Side us = pos_.side_to_move();
    bool threatened = false;
    if (tactics_ && us == DEFENDERS) {
        if (tactics::king_escapes(pos_)) return mate_in(ply + 1);
        threatened = tactics::king_capture_threat(pos_);
    } else if (tactics_) {
        if (tactics::king_capture_threat(pos_)) return mate_in(ply + 1);
        threatened = tactics::king_escapes(pos_) != 0;
        if (threatened && pos_.size() >= ESCAPE_RACE_MIN_SIZE && tune.escape_extension) ++depth;
    }

    // No table move at a deep node: a shallower search will find one.
    if (tune.iir && !tt_move && depth >= IIR_DEPTH && !threatened) --depth;

    // The static evaluation serves only the pruning of non-PV nodes.
    Value static_eval = tt_hit && tte->eval() != VALUE_NONE ? tte->eval()
                        : pv_node                           ? VALUE_NONE
                                                            : static_value();
    stack_[ply].static_eval = static_eval;
    stack_[ply + 2].killers[0] = stack_[ply + 2].killers[1] = MOVE_NONE;

    // Futility (reverse): far above beta at a shallow depth.
    if (tune.futility && !pv_node && !threatened && depth <= REVERSE_FUTILITY_DEPTH &&
        !is_win_score(beta) && static_eval - pruning_.reverse_futility_margin * depth >= beta)
        return static_eval;

    // Null move.
    if (tune.null_move && !pv_node && !threatened && depth >= NULL_MOVE_DEPTH &&
        static_eval >= beta && !is_win_score(beta) && ply > 0 && !pos_.last_move().is_none() &&
        pos_.berserker() == NO_SQUARE) {
        const int r = NULL_MOVE_R + depth / NULL_MOVE_R_DIV;
        do_null();
        Value v = -search(-beta, -beta + 1, depth - 1 - r, ply + 1, false, !cut_node);
        undo_null();
        if (ctx_.stop.load(std::memory_order_relaxed)) return VALUE_ZERO;
        if (v >= beta) return is_win_score(v) ? beta : v;
    }

    Value best = -VALUE_INFINITE;
    Move best_move = MOVE_NONE;
    bool best_quiet = false;
    Move quiets_tried[64];
    int nquiets = 0;
    int searched = 0;
    bool stopped = false;

    // Searches one move; true when it refutes this node (or the search stops).
    auto try_move = [&](Move m, bool is_quiet, bool escape_threat) {
        do_move(m);
        ++searched;
        Value v;
        const int new_depth = depth - 1;
        if (searched == 1) {
            v = child(us, alpha, beta, new_depth, ply + 1, pv_node, false);
        } else {
            int r = 0;
            if (tune.lmr && depth >= LMR_DEPTH && is_quiet && !escape_threat &&
                searched > LMR_AFTER_MOVES && !threatened) {
                r = late_move_reduction(depth, searched, pv_node, cut_node);
            }
            v = child(us, alpha, alpha + 1, new_depth - r, ply + 1, false, true);
            if (r > 0 && v > alpha)
                v = child(us, alpha, alpha + 1, new_depth, ply + 1, false, !cut_node);
            if (pv_node && v > alpha && v < beta)
                v = child(us, alpha, beta, new_depth, ply + 1, true, false);
        }
        undo_move();
        if (ctx_.stop.load(std::memory_order_relaxed)) {
            stopped = true;
            return true;
        }
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                best_quiet = is_quiet;
                if (pv_node) update_pv(ply, m);
                if (v >= beta) return true;
                alpha = v;
            }
        }
        if (is_quiet && nquiets < 64) quiets_tried[nquiets++] = m;
        return false;
    };

    MovePicker picker(pos_, tt_move, stack_[ply].killers, history_.butterfly[us],
                      tactics_ && depth <= STAGED_MAX_DEPTH && pos_.size() >= STAGED_MIN_SIZE);
    int yielded = 0;
    bool quiet;
    for (Move m; (m = picker.next(quiet));) {
        ++yielded;
        // The next move's table line, fetched while this one is searched.
        if (const Move after = picker.peek()) ctx_.tt->prefetch(pos_.key_after(after));
        // A defenders' move after which the king would see an escape square
        // is searched like a capture, neither reduced nor pruned: an escape
        // race must not fall beyond the horizon (on 11x11 they did).
        const bool escape_threat = quiet && threatens_escape(us, m);
        // Futility and late-move pruning of quiet moves near the leaves.
        // Nothing a skip leaves behind changes what decides them, so once
        // every move left is quiet, every move left is skipped too; but for
        // the defenders' threats of escape: the king's moves come before the
        // others, and a soldier's only when he is in the king's way.
        if (quiet && !escape_threat && !pv_node && !threatened && searched > 0 &&
            best > -VALUE_WIN_MAX_PLY) {
            if ((tune.futility && depth <= FUTILITY_DEPTH &&
                 static_eval + FUTILITY_MARGIN * depth <= alpha) ||
                (tune.lmp && depth <= LMP_DEPTH &&
                 searched >= pruning_.lmp_base + pruning_.lmp_per_depth2 * depth * depth)) {
                if (picker.quiet_from_here(quiet) &&
                    (us == ATTACKERS || (tactics_ && pos_.piece_on(m.from()) != KING &&
                                         !tactics::escape_discoverers(pos_))))
                    break;
                continue;
            }
        }
        if (try_move(m, quiet, escape_threat)) break;
    }
    if (stopped) return VALUE_ZERO;
    if (yielded == 0) return rules_.no_moves_loses ? mated_in(ply) : VALUE_ZERO;

    if (best >= beta && best_move && best_quiet) {
        // A quiet refutation: killers and history.
        Stack& s = stack_[ply];
        if (s.killers[0] != best_move) {
            s.killers[1] = s.killers[0];
            s.killers[0] = best_move;
        }
        const int bonus = history_bonus(depth);
        int16_t* h = history_.butterfly[us];
        hist_update(h[hist_index(best_move)], bonus);
        for (int i = 0; i < nquiets; ++i) hist_update(h[hist_index(quiets_tried[i])], -bonus);
    }

    const Bound bound = best >= beta                        ? Bound::LOWER
                        : pv_node && best_move != MOVE_NONE ? Bound::EXACT
                                                            : Bound::UPPER;
    ctx_.tt->store(tte, key, value_to_tt(best, ply), bound, depth,
                   pack_move(best_move, pos_.size()), static_eval);
    return best;
}

Value Worker::root_search(int pv_idx, Value alpha, Value beta, int depth) {
    Value best = -VALUE_INFINITE;
    nodes.store(nodes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    pv_len_[0] = 0;
    stack_[2].killers[0] = stack_[2].killers[1] = MOVE_NONE;
    const int n = int(root_moves.size());
    const Side us = pos_.side_to_move();
    const SearchTuning& tune = search_tuning();
    const bool reduce = tune.lmr && tune.root_reductions && pruning_.root_reductions && tactics_ &&
                        depth >= LMR_DEPTH;
    for (int i = pv_idx; i < n; ++i) {
        const Move m = root_moves[i].move;
        int r = 0;
        if (reduce && i - pv_idx >= ROOT_LMR_AFTER_MOVES &&
            !tactics::move_effect(pos_, m).captures && !threatens_escape(us, m))
            r = late_move_reduction(depth, i - pv_idx + 1, true, false);
        do_move(m);
        Value v;
        if (i == pv_idx) {
            v = child(us, alpha, beta, depth - 1, 1, true, false);
        } else {
            v = child(us, alpha, alpha + 1, depth - 1 - r, 1, false, true);
            if (r > 0 && v > alpha) v = child(us, alpha, alpha + 1, depth - 1, 1, false, false);
            if (v > alpha && v < beta) v = child(us, alpha, beta, depth - 1, 1, true, false);
        }
        undo_move();
        if (ctx_.stop.load(std::memory_order_relaxed)) return best;
        if (v > best) {
            best = v;
            if (v > alpha || i == pv_idx) {
                RootMove& rm = root_moves[i];
                rm.score = v;
                rm.bound = v >= beta ? Bound::LOWER : v <= alpha ? Bound::UPPER : Bound::EXACT;
                rm.seldepth = seldepth_;
                rm.pv.assign(1, m);
                if (v > alpha)
                    for (int k = 0; k < pv_len_[1]; ++k) rm.pv.push_back(pv_[1][k]);
                std::rotate(root_moves.begin() + pv_idx, root_moves.begin() + i,
                            root_moves.begin() + i + 1);
            }
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    return best;
}

void Worker::report(int depth) {
    if (!ctx_.on_info) return;
    const int lines = std::min<int>(ctx_.multipv, int(root_moves.size()));
    for (int i = 0; i < lines; ++i) ctx_.on_info(ctx_.line_info(root_moves[i], depth, i + 1));
}

void Worker::run() {
    const SearchLimits& lim = ctx_.limits;
    int max_depth = lim.depth > 0 ? std::min(lim.depth, MAX_PLY - 10) : MAX_PLY - 10;
    // `go mate N` alone: a win in N shows by depth 2N - 1; allow a margin.
    if (lim.mate > 0 && !lim.depth && !lim.nodes && !ctx_.time.timed() && !lim.infinite)
        max_depth = std::min(max_depth, 2 * lim.mate + 3);
    const int multipv = std::min<int>(ctx_.multipv, int(root_moves.size()));
    for (int depth = 1; depth <= max_depth; ++depth) {
        if (id_ > 0) {
            const int i = (id_ - 1) % 20;
            if (((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2) continue;
        }
        for (int pv_idx = 0; pv_idx < multipv; ++pv_idx) {
            seldepth_ = 0;
            const Value prev = root_moves[pv_idx].score;
            Value delta = ASPIRATION_DELTA;
            Value alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            if (depth >= ASPIRATION_DEPTH && prev != -VALUE_INFINITE && !is_win_score(prev)) {
                alpha = std::max(prev - delta, -VALUE_INFINITE);
                beta = std::min(prev + delta, VALUE_INFINITE);
            }
            while (true) {
                const Value v = root_search(pv_idx, alpha, beta, depth);
                if (ctx_.stop.load(std::memory_order_relaxed)) break;
                if (v <= alpha && alpha > -VALUE_INFINITE) {
                    beta = (alpha + beta) / 2;
                    alpha =
                        is_win_score(v) ? -VALUE_INFINITE : std::max(v - delta, -VALUE_INFINITE);
                } else if (v >= beta && beta < VALUE_INFINITE) {
                    beta = is_win_score(v) ? VALUE_INFINITE : std::min(v + delta, VALUE_INFINITE);
                } else {
                    break;
                }
                delta += delta;
                if (delta > ASPIRATION_DELTA_MAX) alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            }
            if (ctx_.stop.load(std::memory_order_relaxed)) break;
            // A later line may come out above an earlier one (each has its
            // own window): the lines found so far stay best first.
            std::stable_sort(
                root_moves.begin(), root_moves.begin() + pv_idx + 1,
                [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        }
        if (ctx_.stop.load(std::memory_order_relaxed)) break;
        completed_depth = depth;
        if (id_ != 0) continue;

        report(depth);

        // Stop conditions of the main thread.
        const Value score = root_moves[0].score;
        if (lim.mate > 0 && score >= VALUE_WIN_MAX_PLY && mate_moves(score) <= lim.mate) break;
        if (ctx_.time.stop_after_depth(depth, score, root_moves[0].move, root_moves.size(),
                                       ctx_.used_ms(), ctx_.pondering.load()))
            break;
    }
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
