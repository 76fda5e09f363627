#pragma once

// Variant: a Rules description compiled into the masks and tables that move
// generation, captures and the end-of-game checks read. Built once per rules
// string and shared (immutably) by every Position of that game.

#include <array>
#include <memory>

#include "bitboard.h"
#include "rules.h"

namespace branan {

enum Direction : uint8_t { NORTH, EAST, SOUTH, WEST };

struct Variant {
    Rules rules;
    int size = 0;
    int num_squares = 0;
    unsigned line_mask = 0; // the low `size` bits

    Bitboard board = 0;  // every square of the board
    Bitboard edges = 0;  // the outer ring
    Bitboard escape = 0; // squares where the king wins
    Bitboard throne = 0;
    Bitboard corners = 0;
    Bitboard first_file = 0, last_file = 0; // files a and the last, for shifts

    // The squares next to any square of b (b itself excluded only if it has
    // no neighbour inside b).
    Bitboard neighbours(Bitboard b) const {
        return (((b << size) | (b >> size)) & board) | ((b << 1) & ~first_file & board) |
               ((b >> 1) & ~last_file);
    }

    // Per piece kind (index by Piece): where it may not stop, which empty
    // squares it may not pass over, and which squares are hostile to it
    // when empty / when occupied. *_t are the same in transposed
    // coordinates (file-major), used for the file half of move generation.
    std::array<Bitboard, PIECE_KINDS> no_stop{}, no_pass{}, no_stop_t{}, no_pass_t{};
    std::array<Bitboard, PIECE_KINDS> hostile_empty{}, hostile_occupied{};
    // The same no-stop / no-pass squares cut into lines, for move generation
    // by line lookups: [piece][rank] has bit f for file f, [piece][file] has
    // bit r for rank r. The *_pass lines also carry the board's end (bit
    // `size`) as a wall, so a lookup never runs off the board.
    uint16_t no_stop_rank[PIECE_KINDS][MAX_SIZE]{}, no_stop_file[PIECE_KINDS][MAX_SIZE]{};
    uint16_t wall_rank[PIECE_KINDS][MAX_SIZE]{}, wall_file[PIECE_KINDS][MAX_SIZE]{};
    // Squares a piece may stop on but not pass over (it may end its move
    // there when it is the first such square on its way), by line.
    uint16_t stop_not_pass_rank[PIECE_KINDS][MAX_SIZE]{},
        stop_not_pass_file[PIECE_KINDS][MAX_SIZE]{};
    std::array<bool, PIECE_KINDS> has_stop_not_pass{};

    // King capture: squares where he needs four sides; off-board counts as a
    // side (ks:m).
    Bitboard king_strong = 0;
    bool edge_captures_king = false;
    bool king_hammer = true; // the king may capture as the moving piece
    bool king_anvil = true;  // the king may be the far side of a sandwich

    // neighbour[s][d]: the square next to s in direction d, or NO_SQUARE.
    std::array<std::array<int8_t, 4>, MAX_SQUARES> neighbour{};
    // File and rank of each square (avoids divisions by the runtime size).
    std::array<uint8_t, MAX_SQUARES> file{}, rank{};
    // transposed[s]: file * size + rank.
    std::array<uint8_t, MAX_SQUARES> transposed{};

    // The start position, one entry per square.
    std::array<Piece, MAX_SQUARES> start{};
    Side start_side = ATTACKERS;

    static Result<std::shared_ptr<const Variant>> make(const Rules& rules);

    int file_of(Square s) const { return file[s]; }
    int rank_of(Square s) const { return rank[s]; }
    Square square(int file, int rank) const { return rank * size + file; }
};

// Reach along one line of at most 11 squares: bit i is set when square i can
// be reached from `from` by sliding over empty squares, given the occupied
// squares `occ` of that line (bit i = square i). The start square is not set.
// The line may carry a wall bit at its end (bit `size`, at most bit 11).
extern uint16_t LineReach[MAX_SIZE][1 << (MAX_SIZE + 1)];
inline unsigned line_reach(int from, unsigned occ) {
    return LineReach[from][occ];
}

using VariantPtr = std::shared_ptr<const Variant>;

} // namespace branan
