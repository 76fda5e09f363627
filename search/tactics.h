#pragma once

// Tafl tactics for move ordering and the quiescence search: what a move
// would capture, whether the king can escape or be captured next move, and
// which squares block his way out. All are read from the Edition's masks,
// like make_move, without making the move.

#include <bit>

#include "capture.h"
#include "movegen.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {
namespace tactics {

// The squares the king could escape to this move (ignores whose turn it is).
inline Bitboard king_escapes(const Position& pos) {
    const Square k = pos.king_square();
    if (k == NO_SQUARE) return 0;
    return move_targets(pos, k) & pos.edition().escape;
}

// Whether the king on k would see an escape square, given the occupancy of
// his rank and of his file.
inline bool king_sees_escape(const Edition& edition, Square k, unsigned rank_occ,
                             unsigned file_occ) {
    const int file = edition.file[k];
    const LineTargets t = line_targets(edition, KING, k, rank_occ, file_occ);
    Bitboard b = Bitboard(t.rank_bits) << (k - file);
    for (unsigned bits = t.file_bits; bits; bits &= bits - 1)
        b |= square_bb(std::countr_zero(bits) * edition.size + file);
    return (b & edition.escape) != 0;
}

// Whether the king would see an escape square on a free line after the
// defenders' quiet move m (the king's, or a soldier's that leaves his
// line): a threat the attackers must answer at once. Read from the king's
// two lines as the move leaves them, without making it (m captures
// nothing, so no other square changes).
inline bool move_threatens_escape(const Position& pos, Move m) {
    const Edition& edition = pos.edition();
    const Square from = m.from(), to = m.to();
    const bool king = pos.piece_on(from) == KING;
    const Square k = king ? to : pos.king_square();
    if (k == NO_SQUARE) return false;
    const int file = edition.file[k], rank = edition.rank[k];
    // A soldier off the king's lines can only block them.
    if (!king && edition.rank[from] != rank && edition.file[from] != file) return false;
    unsigned rank_occ = pos.rank_occupancy(rank), file_occ = pos.file_occupancy(file);
    if (edition.rank[from] == rank) rank_occ &= ~(1u << edition.file[from]);
    if (edition.file[from] == file) file_occ &= ~(1u << edition.rank[from]);
    if (edition.rank[to] == rank) rank_occ |= 1u << edition.file[to];
    if (edition.file[to] == file) file_occ |= 1u << edition.rank[to];
    return king_sees_escape(edition, k, rank_occ, file_occ);
}

// The defenders' soldiers whose leaving the king's line would show him an
// escape square: the first piece he meets in each direction, when it is a
// defender and the line past it is open to an escape.
inline Bitboard escape_discoverers(const Position& pos) {
    const Edition& edition = pos.edition();
    const Square k = pos.king_square();
    if (k == NO_SQUARE) return 0;
    Bitboard out = 0;
    for (int d = 0; d < 4; ++d) {
        Square s = edition.neighbour[k][d];
        while (s != NO_SQUARE && pos.piece_on(s) == NO_PIECE) s = edition.neighbour[s][d];
        if (s == NO_SQUARE || pos.piece_on(s) != DEFENDER) continue;
        unsigned rank_occ = pos.rank_occupancy(edition.rank[k]),
                 file_occ = pos.file_occupancy(edition.file[k]);
        if (edition.rank[s] == edition.rank[k])
            rank_occ &= ~(1u << edition.file[s]);
        else
            file_occ &= ~(1u << edition.rank[s]);
        if (king_sees_escape(edition, k, rank_occ, file_occ)) out |= square_bb(s);
    }
    return out;
}

// Squares an attacker could stand on to stop the king reaching `escapes`:
// the squares between the king and each escape square, and the escape
// square itself.
inline Bitboard escape_paths(const Position& pos, Bitboard escapes) {
    const Edition& edition = pos.edition();
    const Square k = pos.king_square();
    Bitboard paths = 0;
    for (int d = 0; d < 4; ++d) {
        Bitboard ray = 0;
        for (Square s = edition.neighbour[k][d]; s != NO_SQUARE && pos.piece_on(s) == NO_PIECE;
             s = edition.neighbour[s][d]) {
            ray |= square_bb(s);
            if (test(escapes, s)) {
                paths |= ray;
                break;
            }
        }
    }
    return paths;
}

// Calls f(Move) for every legal move of `side` to the empty square t: the
// first piece met going north, east, south and west (found from the lines'
// occupancies, not square by square), when it is of `side` and its own
// masks let it stop on t (a piece in a camp, or with a speed limit, moves
// otherwise than the squares alone say).
template <typename F>
inline void for_each_move_to(const Position& pos, Square t, Side side, F&& f) {
    const Edition& edition = pos.edition();
    const int file = edition.file[t], rank = edition.rank[t];
    const unsigned rank_occ = pos.rank_occupancy(rank), file_occ = pos.file_occupancy(file);
    auto from = [&](Square s, bool along_rank) {
        const Piece p = pos.piece_on(s);
        if (side_of(p) != side) return;
        const unsigned targets =
            along_rank ? line_moves(edition.file[s], rank_occ, edition.rank_masks[p][s])
                       : line_moves(edition.rank[s], file_occ, edition.file_masks[p][s]);
        if ((targets >> (along_rank ? file : rank)) & 1) f(Move(s, t));
    };
    if (const unsigned north = file_occ >> (rank + 1))
        from(t + (1 + std::countr_zero(north)) * edition.size, false);
    if (const unsigned east = rank_occ >> (file + 1)) from(t + 1 + std::countr_zero(east), true);
    if (const unsigned south = file_occ & ((1u << rank) - 1))
        from(t - (rank + 1 - std::bit_width(south)) * edition.size, false);
    if (const unsigned west = rank_occ & ((1u << file) - 1))
        from(t - file + std::bit_width(west) - 1, true);
}

// Whether a piece of `side` can move to the empty square t this move.
inline bool can_reach(const Position& pos, Square t, Side side) {
    bool found = false;
    for_each_move_to(pos, t, side, [&](Move) { found = true; });
    return found;
}

// Whether an attacker arriving on t (next to the king, direction d from t
// to the king) would capture him, on the current board.
inline bool captures_king_from(const Position& pos, Square t, int d) {
    const Edition& edition = pos.edition();
    const Square a = edition.neighbour[t][d];
    auto at = [&](Square s) { return s == t ? ATTACKER : pos.piece_on(s); };
    if (test(edition.king_strong, a)) {
        for (int e = 0; e < 4; ++e) {
            const Square c = edition.neighbour[a][e];
            if (c == NO_SQUARE) {
                if (!edition.edge_captures_king) return false;
                continue;
            }
            const Piece q = at(c);
            if (q == ATTACKER) continue;
            if (q == NO_PIECE ? !test(edition.hostile_empty[KING], c)
                              : !test(edition.hostile_occupied[KING], c))
                return false;
        }
        return true;
    }
    const Square b = edition.neighbour[a][d];
    if (b == NO_SQUARE) return false;
    const Piece q = pos.piece_on(b);
    if (q == ATTACKER) return true;
    return q == NO_PIECE ? test(edition.hostile_empty[KING], b)
                         : test(edition.hostile_occupied[KING], b);
}

// The squares from which an attacker moving there would capture the king
// (empty, next to the king), whether or not an attacker can get there.
inline Bitboard king_capture_squares(const Position& pos) {
    const Edition& edition = pos.edition();
    const Square k = pos.king_square();
    if (k == NO_SQUARE) return 0;
    Bitboard out = 0;
    for (int d = 0; d < 4; ++d) {
        const Square t = edition.neighbour[k][d];
        if (t == NO_SQUARE || pos.piece_on(t) != NO_PIECE) continue;
        if (!test(edition.stop_somewhere[ATTACKER], t)) continue;
        if (captures_king_from(pos, t, d ^ 2)) out |= square_bb(t);
    }
    return out;
}

// Whether the attackers could capture the king with one move (ignores
// whose turn it is).
inline bool king_capture_threat(const Position& pos) {
    Bitboard sq = king_capture_squares(pos);
    while (sq)
        if (can_reach(pos, pop_lsb(sq), ATTACKERS)) return true;
    return false;
}

// Where a piece of `us` would capture soldiers by moving there: `one` has
// the squares that capture at least one, `two` at least two. (The king
// captures there too only if he is armed as a hammer.)
struct CaptureMap {
    Bitboard one = 0, two = 0;
};

inline CaptureMap capture_squares(const Position& pos, Side us) {
    const Edition& edition = pos.edition();
    const Piece victim = us == ATTACKERS ? DEFENDER : ATTACKER;
    const Bitboard empty = edition.board & ~pos.occupied();
    Bitboard ours = pos.pieces(us);
    if (!edition.king_anvil) ours &= ~pos.pieces(KING);
    // The far side of a sandwich: a piece of ours, or a square hostile to
    // the victim (empty or occupied).
    const Bitboard anvils = ours | (empty & edition.hostile_empty[victim]) |
                            (pos.pieces(~us) & edition.hostile_occupied[victim]);
    CaptureMap out;
    for (int d = 0; d < 4; ++d) {
        // Victims with an anvil on the side opposite d, then the empty
        // squares just beyond them toward d: one square per victim and
        // direction, so a square found twice takes two.
        const Bitboard hits = edition.step(edition.step(anvils, d) & pos.pieces(victim), d) & empty;
        out.two |= out.one & hits;
        out.one |= hits;
    }
    return out;
}

// What a move would do: the number of enemy pieces it captures, and
// whether it wins at once (king captured or escaped).
struct MoveEffect {
    int captures = 0;
    bool wins = false;
};

inline MoveEffect move_effect(const Position& pos, Move m) {
    const Edition& edition = pos.edition();
    const Square from = m.from(), to = m.to();
    const Piece p = pos.piece_on(from);
    const Side us = side_of(p);
    MoveEffect out;
    if (p == KING && test(edition.escape, to)) {
        out.wins = true;
        return out;
    }
    if (p == KING && !edition.king_hammer) return out;
    auto at = [&](Square s) { return s == to ? p : s == from ? NO_PIECE : pos.piece_on(s); };
    for (int d = 0; d < 4; ++d) {
        if (!captures_toward(edition, at, us, to, d)) continue;
        ++out.captures;
        if (pos.piece_on(edition.neighbour[to][d]) == KING) out.wins = true;
    }
    // The last attacker captured.
    if (us == DEFENDERS && out.captures && edition.rules.no_attackers_wins) {
        int attackers_taken = out.captures;
        if (popcount(pos.pieces(ATTACKER)) <= attackers_taken) out.wins = true;
    }
    return out;
}

} // namespace tactics
} // namespace BRANAN_BOARD_NS
} // namespace branan
