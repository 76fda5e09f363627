#pragma once

// Basic vocabulary of the rules core: sides, pieces, squares, moves and the
// small result type used for every error a user can cause.

#include <array>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <variant>

namespace branan {

// Boards from 7x7 to 19x19. The rules core, the evaluation and the search
// are compiled once per board width (engine/bitboard.h), each for boards up
// to its own MAX_SIZE; what is written here serves every width.
constexpr int MIN_SIZE = 7;
// The widths, narrowest first, each with the largest board it holds; a
// game runs on the narrowest that holds it.
struct BoardWidth {
    int bits;
    int max_size;
};
inline constexpr BoardWidth BOARD_WIDTHS[] = {{128, 11}, {256, 15}, {384, 19}};
constexpr int max_board_size(int bits) {
    for (const BoardWidth& w : BOARD_WIDTHS)
        if (w.bits == bits) return w.max_size;
    return 0;
}
// The bits of the narrowest width that holds a board of `size` (0: none).
constexpr int board_bits(int size) {
    for (const BoardWidth& w : BOARD_WIDTHS)
        if (size <= w.max_size) return w.bits;
    return 0;
}
constexpr int MAX_BOARD_SIZE = std::end(BOARD_WIDTHS)[-1].max_size;
constexpr int MAX_BOARD_SQUARES = MAX_BOARD_SIZE * MAX_BOARD_SIZE;

enum Side : uint8_t { ATTACKERS = 0, DEFENDERS = 1 };
constexpr Side operator~(Side s) {
    return Side(s ^ 1);
}

// Pieces on the board. The values double as indices into per-kind tables
// (hostility, stop and pass masks), so KIND_* below are the same numbers.
// OpenTafl's commanders and knights (its berserk variants) are soldiers of
// their side with more abilities (engine/berserk.h): a Position keeps them
// as soldiers on its board and apart in bitboards of their own, and only
// placements, the text formats and the Zobrist keys name them.
enum Piece : uint8_t {
    NO_PIECE = 0,
    ATTACKER = 1,
    DEFENDER = 2,
    KING = 3,
    ATTACKER_COMMANDER = 4,
    ATTACKER_KNIGHT = 5,
    DEFENDER_COMMANDER = 6,
    DEFENDER_KNIGHT = 7,
};
constexpr int PIECE_KINDS = 4; // index 0 unused; the tables' kinds (soldiers and the king)
constexpr int PLACED_KINDS = 8;
// The side of a piece; NO_PIECE reads as the defenders. Bit p of the mask
// is set for the defenders' kinds.
constexpr Side side_of(Piece p) {
    return Side((0b11001101u >> p) & 1);
}
// The kind the tables know a piece by: commanders and knights are soldiers.
constexpr Piece base_kind(Piece p) {
    return p <= KING ? p : p <= ATTACKER_KNIGHT ? ATTACKER : DEFENDER;
}
constexpr bool is_commander(Piece p) {
    return p == ATTACKER_COMMANDER || p == DEFENDER_COMMANDER;
}
constexpr bool is_knight(Piece p) {
    return p == ATTACKER_KNIGHT || p == DEFENDER_KNIGHT;
}

// A set of piece kinds, bit (1 << Piece).
using PieceSet = uint8_t;
constexpr PieceSet ALL_PIECES = (1 << ATTACKER) | (1 << DEFENDER) | (1 << KING);
constexpr PieceSet SOLDIERS = (1 << ATTACKER) | (1 << DEFENDER);
constexpr bool contains(PieceSet set, Piece p) {
    return (set >> p) & 1;
}

using Square = int; // rank * size + file, a1 = 0
constexpr Square NO_SQUARE = -1;

// One piece (or none) per square, rank by rank from a1: a board of any size
// as the text formats and the protocols hand it over.
using Placement = std::array<Piece, MAX_BOARD_SQUARES>;

// A move is a from-to pair: from in the low 9 bits, to in the 9 above
// (361 squares). from == to never happens in a real move, so 0 is "none".
// The transposition table keeps moves in 16 bits (see pack_move in tt.h).
class Move {
  public:
    constexpr Move() = default;
    constexpr Move(Square from, Square to) : data_(uint32_t(from | (to << 9))) {}
    static constexpr Move from_raw(uint32_t raw) {
        Move m;
        m.data_ = raw;
        return m;
    }
    constexpr Square from() const { return data_ & 0x1FF; }
    constexpr Square to() const { return data_ >> 9; }
    constexpr uint32_t raw() const { return data_; }
    constexpr bool is_none() const { return data_ == 0; }
    constexpr explicit operator bool() const { return data_ != 0; }
    constexpr bool operator==(const Move&) const = default;

  private:
    uint32_t data_ = 0;
};
constexpr Move MOVE_NONE{};

// An error a user can cause: a message that says what was wrong and where.
// Every program's exit status: what went wrong says which. Bad input (a
// command line, a position, a file the user gave) is EXIT_BAD_INPUT; a
// failure once the input was accepted (a server that cannot be reached, a
// file that cannot be written) is EXIT_FAILURE_AT_RUN_TIME.
constexpr int EXIT_OK = 0;
constexpr int EXIT_FAILURE_AT_RUN_TIME = 1;
constexpr int EXIT_BAD_INPUT = 2;

struct Error {
    std::string message;
};

// Either a value or an Error. Small stand-in for std::expected (C++23).
template <typename T>
class Result {
  public:
    Result(T value) : data_(std::move(value)) {}
    Result(Error error) : data_(std::move(error)) {}
    bool ok() const { return data_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<0>(data_); }
    T& value() & { return std::get<0>(data_); }
    T&& value() && { return std::get<0>(std::move(data_)); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }
    const std::string& error() const { return std::get<1>(data_).message; }

  private:
    std::variant<T, Error> data_;
};

// Result<void>: success or an error message.
struct Status {
    Status() = default;
    Status(Error e) : error_(std::move(e.message)), failed_(true) {}
    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const std::string& error() const { return error_; }

  private:
    std::string error_;
    bool failed_ = false;
};

// How a game ended.
enum class Winner : uint8_t { NONE, ATTACKERS, DEFENDERS, DRAW };
enum class EndReason : uint8_t {
    NONE,
    KING_CAPTURED,
    KING_ESCAPED,
    NO_ATTACKERS,
    REPETITION,
    MOVE_LIMIT,
    NO_MOVES,
    ENCIRCLED,
    NO_DEFENDER_ROOM,
    EDGE_FORT,
    CANNOT_ESCAPE, // hnefatafl.org's adjudication (cne)
    PLY_LIMIT,     // plyd
};

struct GameResult {
    Winner winner = Winner::NONE;
    EndReason reason = EndReason::NONE;
    bool over() const { return winner != Winner::NONE; }
    bool operator==(const GameResult&) const = default;
};

const char* to_string(Winner w);
const char* to_string(EndReason r);

} // namespace branan
