#include "reply_count.h"

#include <cassert>

#include "capture.h"
#include "shieldwall.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

ReplyCounter::ReplyCounter(const Position& pos)
    : pos_(pos), v_(pos.edition()),
      their_soldier_(pos.side_to_move() == ATTACKERS ? DEFENDER : ATTACKER),
      their_pieces_(pos.pieces(~pos.side_to_move())), reach_(reach_of(pos.edition())) {
    assert(!pos.edition().line_counts.empty());
    assert(!pos.decided().over() && !pos.edition().rules.defender_repetition_ban);
    v_.lines_of(pos.pieces(their_soldier_), their_line_);
    for (int i = 0; i < v_.size; ++i)
        for (int line : {rank_line(i), file_line(i)}) {
            line_count_[line] = uint8_t(v_.line_move_count(
                their_soldier_, line, pos.line_occupancy(line), their_line_[line]));
            total_ += line_count_[line];
        }
    if (their_soldier_ == DEFENDER) {
        const Square k = pos.king_square();
        king_count_ = king_moves(pos.rank_occupancy(v_.rank[k]), pos.file_occupancy(v_.file[k]));
    }
}

// Out of line: each way alone is a leaf that needs no saved registers.
template <Reach R>
[[gnu::noinline]] int ReplyCounter::king_moves(unsigned rank_occ, unsigned file_occ) const {
    return line_targets<R>(v_, KING, pos_.king_square(), rank_occ, file_occ).count();
}

inline int ReplyCounter::king_moves(unsigned rank_occ, unsigned file_occ) const {
    return reach_ == Reach::TABLE ? king_moves<Reach::TABLE>(rank_occ, file_occ)
                                  : king_moves<Reach::BITS>(rank_occ, file_occ);
}

// How their soldiers' moves along one line change when the line's
// occupancy changes by occ_change, of which their_change are theirs.
int ReplyCounter::line_change(int line, unsigned occ_change, unsigned their_change) const {
    return v_.line_move_count(their_soldier_, line, pos_.line_occupancy(line) ^ occ_change,
                              their_line_[line] ^ their_change) -
           line_count_[line];
}

int ReplyCounter::replies(Move m) const {
    const Position& pos = pos_;
    const Edition& edition = v_;
    const Square from = m.from(), to = m.to();
    const Piece mover = pos.piece_on(from);
    const Side us = pos.side_to_move();
    assert(mover != NO_PIECE && side_of(mover) == us && pos.piece_on(to) == NO_PIECE);

    // Captures, asked of the board as it is after the move; only a piece of
    // theirs next to `to` can be taken.
    Bitboard captured = 0;
    if ((edition.adjacent[to] & their_pieces_) && (mover != KING || edition.king_hammer)) {
        auto at = [&](Square q) {
            return q == to ? mover : q == from ? NO_PIECE : pos.piece_on(q);
        };
        for (int d = 0; d < 4; ++d)
            if (captures_toward(edition, at, us, to, d))
                captured |= square_bb(edition.neighbour[to][d]);
    }
    if (edition.rules.shieldwall != Shieldwall::NONE) {
        // Shieldwalls, on the board after the move and its ordinary
        // captures (the same function make_move asks); they take soldiers
        // of theirs only.
        const Bitboard from_to = square_bb(from) | square_bb(to);
        EdgeBoard b;
        b.side[us] = pos.pieces(us) ^ from_to;
        b.side[~us] = their_pieces_ & ~captured;
        b.kings = pos.pieces(KING) & ~captured;
        if (mover == KING) b.kings ^= from_to;
        captured |= shieldwall_captures(edition, b, us, to, test(pos.developed(), from));
    }

    // The game may be over after the move: then there are no replies. The
    // position before was not over, so a soldier's move that captures
    // nothing can only end it by the shape of the position.
    if (captured || mover == KING || edition.ends_by_shape) {
        const Bitboard from_to = square_bb(from) | square_bb(to);
        const Bitboard occupied = pos.occupied() ^ from_to ^ captured;
        Bitboard attackers = pos.pieces(ATTACKERS), defenders = pos.pieces(DEFENDERS);
        Square king = pos.king_square();
        if (us == ATTACKERS) {
            attackers ^= from_to;
            defenders &= ~captured;
            if (test(captured, king)) king = NO_SQUARE;
        } else {
            defenders ^= from_to;
            attackers &= ~captured;
            if (mover == KING) king = to;
        }
        if (decided_by_pieces(edition, attackers, defenders, occupied, king, us,
                              pos.plies_played() + 1)
                .over())
            return 0;
        if (captured) return replies_after_captures(from, to, captured);
    }

    // No capture: the line of the move and the two lines across it change.
    const int fr = edition.rank[from], ff = edition.file[from], tr = edition.rank[to],
              tf = edition.file[to];
    int along, across_from, across_to;
    unsigned along_change, across_bit;
    if (fr == tr) {
        along = rank_line(fr), across_from = file_line(ff), across_to = file_line(tf);
        along_change = (1u << ff) | (1u << tf), across_bit = 1u << fr;
    } else {
        along = file_line(ff), across_from = rank_line(fr), across_to = rank_line(tr);
        along_change = (1u << fr) | (1u << tr), across_bit = 1u << ff;
    }
    int total = total_ + line_change(along, along_change, 0) +
                line_change(across_from, across_bit, 0) + line_change(across_to, across_bit, 0);
    if (their_soldier_ == DEFENDER) {
        // Their king's moves change only if the move touches his rank or file.
        const Square k = pos.king_square();
        const int kr = edition.rank[k], kf = edition.file[k];
        unsigned rank_occ = pos.rank_occupancy(kr), file_occ = pos.file_occupancy(kf);
        bool changed = false;
        for (Square s : {from, to}) {
            if (edition.rank[s] == kr) rank_occ ^= 1u << edition.file[s], changed = true;
            if (edition.file[s] == kf) file_occ ^= 1u << edition.rank[s], changed = true;
        }
        total += changed ? king_moves(rank_occ, file_occ) : king_count_;
    }
    return total;
}

// replies() for a move that captures: any number of lines may change.
int ReplyCounter::replies_after_captures(Square from, Square to, Bitboard captured) const {
    const Edition& edition = v_;
    // Every square emptied or filled toggles its bit in its rank and its
    // file; the captured pieces are theirs.
    LineBits occ_change[LINES]{}, their_change[LINES]{};
    uint32_t touched = 0;
    auto toggle = [&](Square s, bool theirs) {
        const int rl = rank_line(edition.rank[s]), fl = file_line(edition.file[s]);
        const LineBits rank_bit = LineBits(1 << edition.file[s]),
                       file_bit = LineBits(1 << edition.rank[s]);
        occ_change[rl] ^= rank_bit;
        occ_change[fl] ^= file_bit;
        if (theirs) {
            their_change[rl] ^= rank_bit;
            their_change[fl] ^= file_bit;
        }
        touched |= (1u << rl) | (1u << fl);
    };
    toggle(from, false);
    toggle(to, false);
    for_each_square(captured, [&](Square s) { toggle(s, true); });

    int total = total_;
    for (uint32_t lines = touched; lines; lines &= lines - 1) {
        const int line = std::countr_zero(lines);
        total += line_change(line, occ_change[line], their_change[line]);
    }
    if (their_soldier_ == DEFENDER) {
        // The king is not captured here (the game would be over).
        const Square k = pos_.king_square();
        const int rl = rank_line(edition.rank[k]), fl = file_line(edition.file[k]);
        total += touched & ((1u << rl) | (1u << fl))
                     ? king_moves(pos_.line_occupancy(rl) ^ occ_change[rl],
                                  pos_.line_occupancy(fl) ^ occ_change[fl])
                     : king_count_;
    }
    return total;
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
