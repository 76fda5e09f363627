#pragma once

// Counting replies without making moves: for each move of the side to move,
// the number of legal moves the opponent has after it, exactly what
// make_move + count_moves + unmake_move would give. This is perft's bulk
// count over its last two plies. A move changes at most the lines through
// its two squares and through the pieces it captures, so the opponent's
// count is the count before the move, corrected on those lines only (see
// Edition::line_counts).

#include "movegen.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

class ReplyCounter {
  public:
    // The position must not be decided and its rules must have no
    // repetition ban (dban: replies then depend on the boards before); it
    // must outlive the counter and stay unchanged while the counter is used.
    explicit ReplyCounter(const Position& pos);

    // The opponent's number of legal moves after the legal move m.
    int replies(Move m) const;

  private:
    // Their king's moves given his rank's and file's occupancy, the reach
    // chosen at each call or, inlined in the hot path, once (R).
    int king_moves(unsigned rank_occ, unsigned file_occ) const;
    template <Reach R>
    int king_moves(unsigned rank_occ, unsigned file_occ) const;
    int line_change(int line, unsigned occ_change, unsigned their_change) const;
    int replies_after_captures(Square from, Square to, Bitboard captured) const;

    const Position& pos_;
    const Edition& v_;
    Piece their_soldier_;
    Bitboard their_pieces_;
    Reach reach_;                 // of the king's lines
    LineBits their_line_[LINES];  // their soldiers' squares per line
    uint8_t line_count_[LINES]{}; // their soldiers' moves per line, before the move
    int king_count_ = 0;          // their king's moves before the move (0 if he is ours)
    int total_ = 0;
};

} // namespace BRANAN_BOARD_NS
} // namespace branan
