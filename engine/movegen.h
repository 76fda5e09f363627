#pragma once

// Legal move generation. Every rook-like move that lands on an allowed
// square is legal in tafl (there is no self-check), so generation is exact.
// A position whose game is decided has no moves (see Position::decided).

#include <cstddef>

#include "position.h"

namespace branan {

// Each empty square can be reached by at most four pieces (one per
// direction), so 4 * 121 bounds the number of moves on any board.
constexpr int MAX_MOVES = 4 * MAX_SQUARES;

struct MoveList {
    Move moves[MAX_MOVES];
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

// Squares the piece on `from` may move to.
Bitboard move_targets(const Position& pos, Square from);
// All legal moves of the side to move (none when the game is decided).
void generate_moves(const Position& pos, MoveList& list);
// The number of legal moves, without listing them (perft's leaves).
int count_moves(const Position& pos);
// Whether the side to move has any legal move.
bool has_legal_move(const Position& pos);
// Whether `side` could move if it were its turn (ignores decided()).
bool side_can_move(const Position& pos, Side side);

} // namespace branan
