#pragma once

// OpenTafl's special pieces and moves as its code plays them (OTN.md,
// "Jumps, special pieces, berserk" and "Berserk as OpenTafl plays it"):
// jumps, the commanders' and knights' capture of a strong king, captures
// decided before the move is made, and the chains a capture opens. Only
// editions with Edition::special_moves come here; Position, move generation
// and perft ask these functions instead of the usual capture rule.
//
// A chain is one turn of several plies: after a capture the side that made
// it moves again, only with the piece that captured (the berserker), while
// that piece has a capturing move (ber:c) or any move (ber:m). Position
// keeps the berserker per ply; the side to move stays the same.

#include <bit>

#include "position.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {
namespace berserk {

// The jump of the piece on s: the king's (kj), a knight's (nj), a
// commander's (cj); a soldier has none.
Jump jump_of(const Position& pos, Square s);

// Calls f(to) for every jump of the piece on `from`: over one adjacent enemy
// that is no king, commander or knight, onto the empty square beyond where
// the piece may stop; a restricted jump only from or onto a special square.
template <typename F>
inline void for_each_jump(const Position& pos, Square from, F&& f) {
    const Jump mode = jump_of(pos, from);
    if (mode == Jump::NONE) return;
    const Edition& edition = pos.edition();
    const Piece p = pos.piece_on(from);
    for (int d = 0; d < 4; ++d) {
        const Square over = edition.neighbour[from][d];
        if (over == NO_SQUARE) continue;
        const Square land = edition.neighbour[over][d];
        if (land == NO_SQUARE || pos.piece_on(land) != NO_PIECE) continue;
        const Piece q = pos.piece_on(over);
        if (q == NO_PIECE || q == KING || side_of(q) == side_of(p) || pos.is_special(over))
            continue;
        if (mode == Jump::RESTRICTED && !test(edition.special_squares, from) &&
            !test(edition.special_squares, land))
            continue;
        if (test(edition.no_stop[p], land)) continue;
        f(land);
    }
}

// Whether m, a legal move, is a jump: two squares over an occupied one.
bool is_jump(const Position& pos, Move m);
// Whether m, a legal move, is a jump that takes the piece jumped over (a
// knight's, nj:c).
bool jump_takes(const Position& pos, Move m);

// OpenTafl's capture test (Taflman.isCapturedBy): whether the piece on
// `victim` is taken by `capturer` (a soldier or the king; `special` when it
// is a commander or knight) arriving on `to` from `from`. It is asked on the
// board before the move (the capturer still on `from`, `to` empty), which
// decides whether the move captures at all, and after it (from =
// NO_SQUARE), which decides what it takes.
bool captured_by(const Position& pos, Square victim, Piece capturer, bool special, Square to,
                 Square from);

// Whether the move, not yet made, captures (OpenTafl's capturing-move test):
// a knight's jump always does.
bool move_captures(const Position& pos, Move m);

// Calls f(to) for every move of the piece on `from`: along its rank, along
// its file, then its jumps.
template <typename F>
inline void for_each_target(const Position& pos, Square from, F&& f) {
    const Edition& edition = pos.edition();
    const Piece p = pos.piece_on(from);
    const int file = edition.file[from], rank_base = from - file;
    const unsigned rank_bits =
        line_moves(file, pos.rank_occupancy(edition.rank[from]), edition.rank_masks[p][from]);
    const unsigned file_bits =
        line_moves(edition.rank[from], pos.file_occupancy(file), edition.file_masks[p][from]);
    for (unsigned bits = rank_bits; bits; bits &= bits - 1) f(rank_base + std::countr_zero(bits));
    for (unsigned bits = file_bits; bits; bits &= bits - 1)
        f(std::countr_zero(bits) * edition.size + file);
    for_each_jump(pos, from, f);
}

// Whether the piece on s, after its capture, goes on (the chain's test).
bool continues_chain(const Position& pos, Square s);

} // namespace berserk
} // namespace BRANAN_BOARD_NS
} // namespace branan
