#pragma once

// Edition: a Rules description compiled into the masks and tables that move
// generation, captures and the end-of-game checks read. Built once per rules
// string and shared (immutably) by every Position of that game.

#include <array>
#include <memory>
#include <vector>

#include "bitboard.h"
#include "rules.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

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

struct Edition {
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
    // `seed` and the squares of `through` connected to it through squares
    // of `through` (a region for the fort, encirclement and camp tests).
    Bitboard flood(Bitboard seed, Bitboard through) const {
        Bitboard region = seed;
        while (true) {
            const Bitboard grown = region | (neighbours(region) & through);
            if (grown == region) return region;
            region = grown;
        }
    }
    // The same flood, given up as soon as the region meets `stop`: 0 then
    // (for the tests whose answer is "no" once it does).
    Bitboard flood_unless(Bitboard seed, Bitboard through, Bitboard stop) const {
        Bitboard region = seed;
        while (!(region & stop)) {
            const Bitboard grown = region | (neighbours(region) & through);
            if (grown == region) return region;
            region = grown;
        }
        return 0;
    }
    // For a square on exactly one edge of the board: the direction into the
    // board, and the two along the edge (toward file a / rank 1 first).
    struct EdgeAxes {
        int inward;
        std::array<int, 2> along;
    };
    EdgeAxes edge_axes(Square s) const {
        if (file[s] == 0) return {EAST, {SOUTH, NORTH}};
        if (file[s] == size - 1) return {WEST, {SOUTH, NORTH}};
        if (rank[s] == 0) return {NORTH, {WEST, EAST}};
        return {SOUTH, {WEST, EAST}};
    }
    // Whether every square of `pieces` is held on both axes: on each, a
    // neighbour is off the board or in `safe` (hnefatafl-rs's test that a
    // piece of a fort or a ring cannot be captured).
    bool held_on_both_axes(Bitboard pieces, Bitboard safe) const;

    // Per piece kind (index by Piece), for a piece arriving from outside:
    // where it may not stop, which empty squares it may not pass over, and
    // which squares are hostile to it when empty / when occupied. *_t are
    // the same in transposed coordinates (file-major).
    std::array<Bitboard, PIECE_KINDS> no_stop{}, no_pass{}, no_stop_t{}, no_pass_t{};
    std::array<Bitboard, PIECE_KINDS> hostile_empty{}, hostile_occupied{};

    // What a piece's moves along one line depend on besides the line's
    // contents: `wall` has the squares it may not pass (and bit `size`, the
    // board's end, so a lookup never runs off the board), `no_stop` the
    // squares it may not end on, `stop_not_pass` the squares it may end on
    // when it reaches them but not pass over.
    struct LineMasks {
        LineBits wall = 0, no_stop = 0, stop_not_pass = 0;
        bool operator==(const LineMasks&) const = default;
    };
    // The masks of the rank (bits are files) and of the file (bits are
    // ranks) of a piece of kind p standing on s. They depend on s, not
    // only on its line: a piece standing in a camp or on a special square
    // it may not re-enter may use squares of that kind, and a speed limit
    // counts from s.
    LineMasks rank_masks[PIECE_KINDS][MAX_SQUARES]{}, file_masks[PIECE_KINDS][MAX_SQUARES]{};
    // Squares where a piece of kind p stands with other masks than a piece
    // arriving there would have (camps, special squares it may leave
    // into their own kind), and where it may stand at all.
    std::array<Bitboard, PIECE_KINDS> special_origin{}, may_stand{};
    // Squares a piece of kind p may stop on from some square (no_stop
    // without the squares only reachable from inside their kind).
    std::array<Bitboard, PIECE_KINDS> stop_somewhere{};

    // Camps (Rules::camps): camp_region[s] is the camp of square s, the
    // camp squares connected to s through camp squares (0 off the camps).
    Bitboard camps = 0;
    std::array<Bitboard, MAX_SQUARES> camp_region{};

    // King capture: squares where he needs four sides; off-board counts as a
    // side (ks:m).
    Bitboard king_strong = 0;
    bool edge_captures_king = false;
    bool king_hammer = true; // the king may capture as the moving piece
    bool king_anvil = true;  // the king may be the far side of a sandwich
    // Whether the game can end by the shape of the position (no room for the
    // defenders, an edge fort, encirclement, the adjudication) or the ply
    // limit rather than by the king or a capture alone.
    bool ends_by_shape = false;
    // Whether the king, from any square, may step onto any empty neighbour
    // (no square barred to him, no speed below one). Then the squares he
    // reaches by successive moves, everyone else standing still, are the
    // empty squares connected to him: a flood, not a walk of his moves.
    bool king_steps_anywhere = false;

    // OpenTafl's special pieces and moves (engine/berserk.h): commanders or
    // knights in the start, a king's jump or berserk chains. With any of
    // them, positions, move generation and perft take their general path;
    // the usual one never asks about them.
    bool special_moves = false;
    // Whether each side (index by Side) starts with a commander or knight:
    // then its captures of a strong king need one (Taflman.isCapturedBy).
    std::array<bool, 2> commanded{};
    // The throne, corners and forts: where a restricted jump (r) starts or
    // lands.
    Bitboard special_squares = 0;

    // neighbour[s][d]: the square next to s in direction d, or NO_SQUARE;
    // adjacent[s]: the same squares as a board.
    std::array<std::array<SquareIndex, 4>, MAX_SQUARES> neighbour{};
    std::array<Bitboard, MAX_SQUARES> adjacent{};
    // File and rank of each square (avoids divisions by the runtime size).
    std::array<uint8_t, MAX_SQUARES> file{}, rank{};
    // transposed[s]: file * size + rank.
    std::array<uint16_t, MAX_SQUARES> transposed{};

    // Move counting by lines, for perft's last two plies. The number of moves that
    // all soldiers of one kind have along one line depends only on what each
    // square of that line holds: nothing (0), another piece (1) or one of
    // those soldiers (2). Reading that as a base-3 number, ternary[occupied]
    // + ternary[own], indexes a table of counts; lines whose squares give
    // the same masks share a table. line_counts holds the tables one after
    // another (3^size bytes each); count_table[p][line] is where the table
    // of that line for soldiers of kind p starts.
    // Empty on boards above LINE_COUNT_MAX_SIZE: moves are counted one by one.
    std::vector<uint32_t> ternary;
    std::vector<uint8_t> line_counts;
    uint32_t count_table[PIECE_KINDS][LINES]{};

    // The moves of all soldiers of kind p along one line, from the line's
    // occupancy and the squares of those soldiers on it.
    int line_move_count(Piece p, int line, unsigned occupied, unsigned own) const {
        return line_counts[count_table[p][line] + ternary[occupied] + ternary[own]];
    }

    // The start position, one entry per square.
    Placement start{};
    Side start_side = ATTACKERS;

    // The edition of these rules. Editions never change once made, and
    // building one costs (its line tables): the last few made are kept and
    // shared by whoever asks for equal rules again (a host that starts game
    // after game under the same rules).
    static Result<std::shared_ptr<const Edition>> make(const Rules& rules);

  private:
    static Result<std::shared_ptr<const Edition>> build(const Rules& rules);

  public:
    // The rank and file occupancies of the squares of b, by line.
    void lines_of(Bitboard b, LineBits lines[LINES]) const {
        for (int i = 0; i < LINES; ++i) lines[i] = 0;
        for_each_square(b, [&](Square s) {
            lines[rank_line(rank[s])] |= LineBits(1 << file[s]);
            lines[file_line(file[s])] |= LineBits(1 << rank[s]);
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
// Worked out rather than looked up: a 90 KiB table missed the cache on
// 11x11, where move generation reads it twice per piece.
inline unsigned line_reach(int from, unsigned occ) {
    // Up to the first occupied square above `from` (bit MAX_SIZE stops the
    // longest line), and down to the first below it (or square 0).
    const unsigned above = (occ | (1u << MAX_SIZE)) >> (from + 1);
    const unsigned up = ((above & (0u - above)) - 1) << (from + 1);
    const unsigned low = (1u << from) - 1;
    const unsigned down = low & ~((1u << std::bit_width(occ & low)) - 1);
    return up | down;
}

// Reach along the lines of the boards up to SHORT_LINE squares a side,
// looked up: there the table (18 KiB, of which a 7x7 board reads 3.5) stays
// in the cache, and a lookup is cheaper than line_reach's bit operations,
// which the larger boards use. Indexed [from][occ], occ with the wall bit.
constexpr int SHORT_LINE = 9;
struct ShortLineReach {
    uint16_t at[SHORT_LINE][1 << (SHORT_LINE + 1)];
};
constexpr ShortLineReach make_short_line_reach() {
    ShortLineReach table{};
    for (int from = 0; from < SHORT_LINE; ++from)
        for (unsigned occ = 0; occ < (1u << (SHORT_LINE + 1)); ++occ) {
            unsigned reach = 0;
            for (int s = from + 1; s <= SHORT_LINE && !((occ >> s) & 1); ++s) reach |= 1u << s;
            for (int s = from - 1; s >= 0 && !((occ >> s) & 1); --s) reach |= 1u << s;
            table.at[from][occ] = uint16_t(reach);
        }
    return table;
}
inline constexpr ShortLineReach SHORT_LINE_REACH = make_short_line_reach();

// How a line's reach is found: looked up (short lines only) or worked out
// (any line). The hot loops of the rules core (move generation, perft's
// reply counts) choose once for their edition (reach_of), so that their
// code has neither a branch per line nor the other way's registers; other
// callers work it out.
enum class Reach : uint8_t { TABLE, BITS };
inline Reach reach_of(const Edition& edition) {
    return edition.size <= SHORT_LINE ? Reach::TABLE : Reach::BITS;
}

// The squares of one line where a piece on square `from` of that line may
// stop: `occ` is the line's occupancy (the piece included), `m` the piece's
// masks for that line (see Edition::LineMasks). The single definition of a
// move along a line.
template <Reach R = Reach::BITS>
inline unsigned line_moves(int from, unsigned occ, const Edition::LineMasks& m) {
    const unsigned reach = R == Reach::TABLE ? SHORT_LINE_REACH.at[from][occ | m.wall]
                                             : line_reach(from, occ | m.wall);
    unsigned moves = reach & ~unsigned(m.no_stop);
    if (m.stop_not_pass) {
        // The squares just past each end of the slide: a stop-but-not-pass
        // square there, if empty, ends the move.
        const unsigned slide = reach | (1u << from);
        moves |= ((slide << 1) | (slide >> 1)) & m.stop_not_pass & ~occ;
    }
    return moves;
}

using EditionPtr = std::shared_ptr<const Edition>;

} // namespace BRANAN_BOARD_NS
} // namespace branan
