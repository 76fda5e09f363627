#include "movegen.h"

#include <algorithm>

namespace branan {

namespace {

// The two halves of a piece's moves: along its rank (bits are files) and
// along its file (bits are ranks), already stripped of squares where the
// piece may not stop.
struct LineTargets {
    unsigned rank_bits, file_bits;
};

inline LineTargets line_targets(const Variant& v, Bitboard blockers, Bitboard blockers_t, Piece p,
                                Square from) {
    const int n = v.size;
    const int f = from % n, r = from / n;
    const unsigned mask = v.line_mask;
    const unsigned rank_occ = unsigned(uint64_t(blockers >> (r * n))) & mask;
    const unsigned file_occ = unsigned(uint64_t(blockers_t >> (f * n))) & mask;
    const unsigned rank_stop = unsigned(uint64_t(v.no_stop[p] >> (r * n))) & mask;
    const unsigned file_stop = unsigned(uint64_t(v.no_stop_t[p] >> (f * n))) & mask;
    return {line_reach(f, rank_occ) & mask & ~rank_stop,
            line_reach(r, file_occ) & mask & ~file_stop};
}

// Calls f(from, LineTargets) for every piece of the side to move.
template <typename F>
inline void for_each_piece_targets(const Position& pos, Side side, F&& f) {
    const Variant& v = pos.variant();
    const Bitboard occ = pos.occupied(), occ_t = pos.occupied_transposed();
    if (side == ATTACKERS) {
        const Bitboard b = occ | v.no_pass[ATTACKER], bt = occ_t | v.no_pass_t[ATTACKER];
        for_each_square(pos.pieces(ATTACKER),
                        [&](Square s) { f(s, line_targets(v, b, bt, ATTACKER, s)); });
    } else {
        const Bitboard b = occ | v.no_pass[DEFENDER], bt = occ_t | v.no_pass_t[DEFENDER];
        for_each_square(pos.pieces(DEFENDER),
                        [&](Square s) { f(s, line_targets(v, b, bt, DEFENDER, s)); });
        const Square k = pos.king_square();
        if (k != NO_SQUARE)
            f(k, line_targets(v, occ | v.no_pass[KING], occ_t | v.no_pass_t[KING], KING, k));
    }
}

} // namespace

bool MoveList::contains(Move m) const {
    return std::find(begin(), end(), m) != end();
}

Bitboard move_targets(const Position& pos, Square from) {
    const Variant& v = pos.variant();
    const Piece p = pos.piece_on(from);
    if (p == NO_PIECE) return 0;
    const LineTargets t = line_targets(v, pos.occupied() | v.no_pass[p],
                                       pos.occupied_transposed() | v.no_pass_t[p], p, from);
    const int n = v.size;
    Bitboard b = Bitboard(t.rank_bits) << (from / n * n);
    for (unsigned bits = t.file_bits; bits; bits &= bits - 1)
        b |= square_bb(std::countr_zero(bits) * n + from % n);
    return b;
}

void generate_moves(const Position& pos, MoveList& list) {
    list.count = 0;
    if (pos.decided().over()) return;
    const int n = pos.size();
    for_each_piece_targets(pos, pos.side_to_move(), [&](Square from, LineTargets t) {
        const int rank_base = from / n * n, file = from % n;
        for (unsigned bits = t.rank_bits; bits; bits &= bits - 1)
            list.add(Move(from, rank_base + std::countr_zero(bits)));
        for (unsigned bits = t.file_bits; bits; bits &= bits - 1)
            list.add(Move(from, std::countr_zero(bits) * n + file));
    });
}

int count_moves(const Position& pos) {
    if (pos.decided().over()) return 0;
    int count = 0;
    for_each_piece_targets(pos, pos.side_to_move(), [&](Square, LineTargets t) {
        count += std::popcount(t.rank_bits) + std::popcount(t.file_bits);
    });
    return count;
}

bool side_can_move(const Position& pos, Side side) {
    bool any = false;
    for_each_piece_targets(pos, side,
                           [&](Square, LineTargets t) { any |= (t.rank_bits | t.file_bits) != 0; });
    return any;
}

bool has_legal_move(const Position& pos) {
    return !pos.decided().over() && side_can_move(pos, pos.side_to_move());
}

} // namespace branan
