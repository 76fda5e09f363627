#include "movegen.h"

#include <algorithm>

namespace branan {
inline namespace BRANAN_BOARD_NS {

bool MoveList::contains(Move m) const {
    return std::find(begin(), end(), m) != end();
}

Bitboard move_targets(const Position& pos, Square from) {
    const Edition& edition = pos.edition();
    const Piece p = pos.piece_on(from);
    if (p == NO_PIECE) return 0;
    const LineTargets t = line_targets(pos, p, from);
    const int n = edition.size;
    Bitboard b = Bitboard(t.rank_bits) << (from - edition.file[from]);
    for (unsigned bits = t.file_bits; bits; bits &= bits - 1)
        b |= square_bb(std::countr_zero(bits) * n + edition.file[from]);
    if (edition.special_moves)
        berserk::for_each_jump(pos, from, [&](Square to) { b |= square_bb(to); });
    return b;
}

bool is_legal(const Position& pos, Move m) {
    const int squares = pos.edition().num_squares;
    if (m.from() >= squares || m.to() >= squares) return false;
    const Piece p = pos.piece_on(m.from());
    return !pos.decided().over() && p != NO_PIECE && side_of(p) == pos.side_to_move() &&
           (pos.berserker() == NO_SQUARE || pos.berserker() == m.from()) &&
           test(move_targets(pos, m.from()), m.to()) && !pos.recreates_board(m);
}

void generate_moves(const Position& pos, MoveList& list) {
    // The count in a register, written once: a move stored through
    // list.add could alias list.count, which would then go to memory at
    // every move.
    Move* end = list.moves;
    auto add = [&](Move m, Piece) { *end++ = m; };
    if (reach_of(pos.edition()) == Reach::TABLE)
        for_each_legal_move<Reach::TABLE>(pos, add);
    else
        for_each_legal_move<Reach::BITS>(pos, add);
    list.count = int(end - list.moves);
}

int count_moves(const Position& pos) {
    if (pos.decided().over()) return 0;
    if (pos.ban_applies() || pos.edition().special_moves) {
        MoveList list;
        generate_moves(pos, list);
        return list.size();
    }
    const Edition& edition = pos.edition();
    const Side us = pos.side_to_move();
    if (edition.line_counts.empty()) {
        int count = 0;
        for_each_piece_targets(pos, us, [&](Square, Piece, LineTargets t) { count += t.count(); });
        return count;
    }
    const Piece p = us == ATTACKERS ? ATTACKER : DEFENDER;
    // Soldiers by lines (see Edition::line_counts), the king on his own.
    LineBits own[LINES];
    edition.lines_of(pos.pieces(p), own);
    int count = 0;
    for (int i = 0; i < edition.size; ++i)
        for (int line : {rank_line(i), file_line(i)})
            count += edition.line_move_count(p, line, pos.line_occupancy(line), own[line]);
    if (us == DEFENDERS && pos.king_square() != NO_SQUARE)
        count += line_targets(pos, KING, pos.king_square()).count();
    return count;
}

bool side_can_move(const Position& pos, Side side) {
    if (pos.edition().special_moves) {
        bool any = false;
        for_each_square(pos.pieces(side), [&](Square s) { any = any || move_targets(pos, s); });
        return any;
    }
    bool any = false;
    for_each_piece_targets(
        pos, side, [&](Square, Piece, LineTargets t) { any |= (t.rank_bits | t.file_bits) != 0; });
    return any;
}

bool has_legal_move(const Position& pos) {
    if (pos.decided().over()) return false;
    if (pos.ban_applies() || pos.edition().special_moves) return count_moves(pos) > 0;
    return side_can_move(pos, pos.side_to_move());
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
