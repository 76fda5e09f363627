#pragma once

// Variant: a Rules description compiled into the masks and tables that move
// generation, captures and the end-of-game checks read. Built once per rules
// string and shared (immutably) by every Position of that game.

#include <array>
#include <memory>
#include <vector>

#include "bitboard.h"
#include "rules.h"

namespace branan {

enum Direction : uint8_t { NORTH, EAST, SOUTH, WEST };

// Lines of the board, for line-by-line tables: rank r is line r, file f is
// line MAX_SIZE + f (fixed offsets, whatever the board size).
constexpr int LINES = 2 * MAX_SIZE;
constexpr int rank_line(int rank) {
    return rank;
}
constexpr int file_line(int file) {
    return MAX_SIZE + file;
}

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

    // The squares of b moved one step in direction d (those that would
    // leave the board are dropped).
    Bitboard step(Bitboard b, int d) const {
        switch (d) {
        case NORTH:
            return (b << size) & board;
        case SOUTH:
            return b >> size;
        case EAST:
            return (b << 1) & ~first_file & board;
        default:
            return (b >> 1) & ~last_file;
        }
    }
    // The squares next to any square of b (b itself excluded only if it has
    // no neighbour inside b).
    Bitboard neighbours(Bitboard b) const {
        return step(b, NORTH) | step(b, SOUTH) | step(b, EAST) | step(b, WEST);
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

    // Camps (Rules::camps): camp_region[s] is the camp of square s, the
    // camp squares connected to s through camp squares (0 off the camps).
    // camp_rank[p][s] / camp_file[p][s] are the squares of that camp on the
    // rank (bit f) / file (bit r) of s that a piece of kind p standing on s
    // may pass over and stop on, whatever the masks above say; 0 for kinds
    // that are not camp users. Move generation clears them from the masks.
    Bitboard camps = 0;
    std::array<Bitboard, MAX_SQUARES> camp_region{};
    uint16_t camp_rank[PIECE_KINDS][MAX_SQUARES]{}, camp_file[PIECE_KINDS][MAX_SQUARES]{};

    // King capture: squares where he needs four sides; off-board counts as a
    // side (ks:m).
    Bitboard king_strong = 0;
    bool edge_captures_king = false;
    bool king_hammer = true; // the king may capture as the moving piece
    bool king_anvil = true;  // the king may be the far side of a sandwich
    // Whether the game can end by the shape of the position (no room for the
    // defenders, an edge fort, encirclement) rather than by the king or a
    // capture alone.
    bool ends_by_shape = false;

    // neighbour[s][d]: the square next to s in direction d, or NO_SQUARE;
    // adjacent[s]: the same squares as a board.
    std::array<std::array<int8_t, 4>, MAX_SQUARES> neighbour{};
    std::array<Bitboard, MAX_SQUARES> adjacent{};
    // File and rank of each square (avoids divisions by the runtime size).
    std::array<uint8_t, MAX_SQUARES> file{}, rank{};
    // transposed[s]: file * size + rank.
    std::array<uint8_t, MAX_SQUARES> transposed{};

    // Move counting by lines, for perft's last two plies. The number of moves that
    // all soldiers of one kind have along one line depends only on what each
    // square of that line holds: nothing (0), another piece (1) or one of
    // those soldiers (2). Reading that as a base-3 number, ternary[occupied]
    // + ternary[own], indexes a table of counts; lines with the same special
    // squares share a table. line_counts holds the tables one after another
    // (3^size bytes each); count_table[p][line] is where the table of that
    // line for soldiers of kind p starts.
    std::vector<uint32_t> ternary;
    std::vector<uint8_t> line_counts;
    uint32_t count_table[PIECE_KINDS][LINES]{};

    // The moves of all soldiers of kind p along one line, from the line's
    // occupancy and the squares of those soldiers on it.
    int line_move_count(Piece p, int line, unsigned occupied, unsigned own) const {
        return line_counts[count_table[p][line] + ternary[occupied] + ternary[own]];
    }

    // The start position, one entry per square.
    std::array<Piece, MAX_SQUARES> start{};
    Side start_side = ATTACKERS;

    static Result<std::shared_ptr<const Variant>> make(const Rules& rules);

    // The rank and file occupancies of the squares of b, by line.
    void lines_of(Bitboard b, uint16_t lines[LINES]) const {
        for (int i = 0; i < LINES; ++i) lines[i] = 0;
        for_each_square(b, [&](Square s) {
            lines[rank_line(rank[s])] |= uint16_t(1 << file[s]);
            lines[file_line(file[s])] |= uint16_t(1 << rank[s]);
        });
    }

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

// The squares of one line where a piece on square `from` of that line may
// stop: `occ` is the line's occupancy (the piece included); `wall`,
// `no_stop` and `stop_not_pass` are the line's masks for the piece's kind
// (see Variant). The single definition of a move along a line.
inline unsigned line_moves(int from, unsigned occ, unsigned wall, unsigned no_stop,
                           unsigned stop_not_pass) {
    const unsigned reach = line_reach(from, occ | wall);
    unsigned moves = reach & ~no_stop;
    if (stop_not_pass) {
        // The squares just past each end of the slide: a stop-but-not-pass
        // square there, if empty, ends the move.
        const unsigned slide = reach | (1u << from);
        moves |= ((slide << 1) | (slide >> 1)) & stop_not_pass & ~occ;
    }
    return moves;
}

using VariantPtr = std::shared_ptr<const Variant>;

} // namespace branan
