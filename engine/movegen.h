#pragma once

// Legal move generation. Every rook-like move that lands on an allowed
// square is legal in tafl (there is no self-check), but for the defenders'
// repetition ban (dban), which generation applies too, so it is exact. A
// position whose game is decided has no moves (see Position::decided).

#include <bit>
#include <cstddef>

#include "berserk.h"
#include "position.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// Each empty square can be reached by at most four pieces (one per
// direction), so 4 * 121 bounds the number of moves on any board.
constexpr int MAX_MOVES = 4 * MAX_SQUARES;

struct MoveList {
    // The moves are left unset: only the first `count` are ever read, and
    // setting all of them costs as much as generating a position's moves.
    MoveList() {}
    union {
        Move moves[MAX_MOVES];
    };
    int count = 0;

    void add(Move m) { moves[count++] = m; }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + count; }
    Move* begin() { return moves; }
    Move* end() { return moves + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    bool contains(Move m) const;
};

// The two halves of a piece's moves: along its rank (bits are files) and
// along its file (bits are ranks), already stripped of squares where the
// piece may not stop.
struct LineTargets {
    unsigned rank_bits, file_bits;
    int count() const { return std::popcount(rank_bits) + std::popcount(file_bits); }
};

// The moves of a piece of kind p on `from`, given the occupancy of its rank
// and of its file (which need not be the position's: perft asks about
// moves not made).
template <Reach R = Reach::BITS>
inline LineTargets line_targets(const Edition& edition, Piece p, Square from, unsigned rank_occ,
                                unsigned file_occ) {
    return {line_moves<R>(edition.file[from], rank_occ, edition.rank_masks[p][from]),
            line_moves<R>(edition.rank[from], file_occ, edition.file_masks[p][from])};
}

// The moves of the piece of kind p on `from` in the position.
template <Reach R = Reach::BITS>
inline LineTargets line_targets(const Position& pos, Piece p, Square from) {
    const Edition& edition = pos.edition();
    return line_targets<R>(edition, p, from, pos.rank_occupancy(edition.rank[from]),
                           pos.file_occupancy(edition.file[from]));
}

// Calls f(from, piece, LineTargets) for every piece of `side`: its soldiers
// from square a1 up, then the king.
template <Reach R = Reach::BITS, typename F>
inline void for_each_piece_targets(const Position& pos, Side side, F&& f) {
    if (side == ATTACKERS) {
        for_each_square(pos.pieces(ATTACKER),
                        [&](Square s) { f(s, ATTACKER, line_targets<R>(pos, ATTACKER, s)); });
    } else {
        for_each_square(pos.pieces(DEFENDER),
                        [&](Square s) { f(s, DEFENDER, line_targets<R>(pos, DEFENDER, s)); });
        const Square k = pos.king_square();
        if (k != NO_SQUARE) f(k, KING, line_targets<R>(pos, KING, k));
    }
}

// Calls f(Move, piece) for every legal move of the side to move (none when
// the game is decided; the repetition ban applied), each piece's moves along
// its rank first, then along its file: the order generate_moves lists them.
template <Reach R = Reach::BITS, typename F>
inline void for_each_legal_move(const Position& pos, F&& f) {
    if (pos.decided().over()) return;
    const Edition& edition = pos.edition();
    if (edition.special_moves) {
        // Jumps after each piece's other moves; in an open chain only the
        // berserker moves (engine/berserk.h).
        auto piece_moves = [&](Square from) {
            const Piece p = pos.piece_on(from);
            berserk::for_each_target(pos, from, [&](Square to) { f(Move(from, to), p); });
        };
        if (pos.berserker() != NO_SQUARE) return piece_moves(pos.berserker());
        if (pos.side_to_move() == ATTACKERS)
            return for_each_square(pos.pieces(ATTACKER), piece_moves);
        for_each_square(pos.pieces(DEFENDER), piece_moves);
        if (pos.king_square() != NO_SQUARE) piece_moves(pos.king_square());
        return;
    }
    // Two loops, the ban's check in one only: most positions have no ban,
    // and their loop is the tightest of the rules core (perft's leaves).
    // The size in a register: a move stored through f could alias it.
    const int size = edition.size;
    auto each_move = [&](auto&& move) {
        for_each_piece_targets<R>(pos, pos.side_to_move(),
                                  [&](Square from, Piece p, LineTargets t) {
                                      const int file = edition.file[from], rank_base = from - file;
                                      for (unsigned bits = t.rank_bits; bits; bits &= bits - 1)
                                          move(Move(from, rank_base + std::countr_zero(bits)), p);
                                      for (unsigned bits = t.file_bits; bits; bits &= bits - 1)
                                          move(Move(from, std::countr_zero(bits) * size + file), p);
                                  });
    };
    if (pos.ban_applies())
        each_move([&](Move m, Piece p) {
            if (!pos.recreates_board(m)) f(m, p);
        });
    else
        each_move(f);
}

// Squares the piece on `from` may move to (the repetition ban and an open
// berserk chain not applied).
Bitboard move_targets(const Position& pos, Square from);
// Whether m is a legal move of the side to move.
bool is_legal(const Position& pos, Move m);
// All legal moves of the side to move (none when the game is decided).
void generate_moves(const Position& pos, MoveList& list);
// The number of legal moves, without listing them (perft's leaves).
int count_moves(const Position& pos);
// Whether the side to move has any legal move.
bool has_legal_move(const Position& pos);
// Whether `side` could move if it were its turn (ignores decided()).
bool side_can_move(const Position& pos, Side side);

} // namespace BRANAN_BOARD_NS
} // namespace branan
