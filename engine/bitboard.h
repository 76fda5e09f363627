#pragma once

// The board type of one board width. The rules core, the evaluation and the
// search are compiled once per width (engine/CMakeLists.txt), each in its
// own inline namespace of branan, with BRANAN_BOARD_BITS set:
//   128  boards up to 11x11 (121 squares): unsigned __int128, two words
//   256  boards up to 15x15 (225 squares): four words
//   384  boards up to 19x19 (361 squares): six words
// so a 7x7 or 11x11 game never pays for a 19x19 board: every operation on
// a board is on a type of fixed width, chosen when the code is compiled, and
// the width is chosen once per game, when the rules are set (board.h).
// Square s = rank * size + file is bit s. Vertical neighbours are `size`
// bits apart, so shifts depend on the board size and are done through the
// neighbour tables of Geometry rather than by shifting whole boards.

#include <bit>
#include <cstdint>
#include <type_traits>

#include "types.h"

#if !defined(BRANAN_BOARD_BITS) || !defined(BRANAN_BOARD_NS)
#error "per-width code: compile with BRANAN_BOARD_BITS and BRANAN_BOARD_NS (engine/CMakeLists.txt)"
#endif

namespace branan {
inline namespace BRANAN_BOARD_NS {

// A board of W 64-bit words, word 0 the lowest squares. Only what the rules
// core and the evaluation use on boards: bit operations, shifts, tests.
template <int W>
class WideBits {
  public:
    constexpr WideBits() = default;
    constexpr WideBits(uint64_t low) : w_{low} {}
    constexpr explicit operator bool() const {
        for (uint64_t x : w_)
            if (x) return true;
        return false;
    }
    constexpr explicit operator uint64_t() const { return w_[0]; }
    constexpr uint64_t word(int i) const { return w_[i]; }
    uint64_t& word(int i) { return w_[i]; }

    friend constexpr WideBits operator&(WideBits a, const WideBits& b) { return a &= b; }
    friend constexpr WideBits operator|(WideBits a, const WideBits& b) { return a |= b; }
    friend constexpr WideBits operator^(WideBits a, const WideBits& b) { return a ^= b; }
    constexpr WideBits& operator&=(const WideBits& b) {
        for (int i = 0; i < W; ++i) w_[i] &= b.w_[i];
        return *this;
    }
    constexpr WideBits& operator|=(const WideBits& b) {
        for (int i = 0; i < W; ++i) w_[i] |= b.w_[i];
        return *this;
    }
    constexpr WideBits& operator^=(const WideBits& b) {
        for (int i = 0; i < W; ++i) w_[i] ^= b.w_[i];
        return *this;
    }
    constexpr WideBits operator~() const {
        WideBits r;
        for (int i = 0; i < W; ++i) r.w_[i] = ~w_[i];
        return r;
    }
    // Two's complement subtraction (for b & (b - 1)).
    friend constexpr WideBits operator-(const WideBits& a, const WideBits& b) {
        WideBits r;
        uint64_t borrow = 0;
        for (int i = 0; i < W; ++i) {
            const uint64_t d = a.w_[i] - b.w_[i];
            const uint64_t out = d - borrow;
            borrow = (a.w_[i] < b.w_[i]) | (d < borrow);
            r.w_[i] = out;
        }
        return r;
    }
    friend constexpr WideBits operator<<(const WideBits& a, int n) {
        WideBits r;
        if (n >= 64 * W) return r;
        const int words = n / 64, bits = n % 64;
        for (int i = W - 1; i >= words; --i) {
            uint64_t x = a.w_[i - words] << bits;
            if (bits && i - words - 1 >= 0) x |= a.w_[i - words - 1] >> (64 - bits);
            r.w_[i] = x;
        }
        return r;
    }
    friend constexpr WideBits operator>>(const WideBits& a, int n) {
        WideBits r;
        if (n >= 64 * W) return r;
        const int words = n / 64, bits = n % 64;
        for (int i = 0; i + words < W; ++i) {
            uint64_t x = a.w_[i + words] >> bits;
            if (bits && i + words + 1 < W) x |= a.w_[i + words + 1] << (64 - bits);
            r.w_[i] = x;
        }
        return r;
    }
    constexpr WideBits& operator<<=(int n) { return *this = *this << n; }
    constexpr WideBits& operator>>=(int n) { return *this = *this >> n; }
    friend constexpr bool operator==(const WideBits&, const WideBits&) = default;

  private:
    uint64_t w_[W] = {};
};

#if BRANAN_BOARD_BITS == 128
using Bitboard = unsigned __int128;
constexpr int BOARD_WORDS = 2;
constexpr int MAX_SIZE = max_board_size(128);
#elif BRANAN_BOARD_BITS == 256
using Bitboard = WideBits<4>;
constexpr int BOARD_WORDS = 4;
constexpr int MAX_SIZE = max_board_size(256);
#elif BRANAN_BOARD_BITS == 384
using Bitboard = WideBits<6>;
constexpr int BOARD_WORDS = 6;
constexpr int MAX_SIZE = max_board_size(384);
#else
#error "BRANAN_BOARD_BITS is 128, 256 or 384"
#endif
constexpr int MAX_SQUARES = MAX_SIZE * MAX_SIZE;
static_assert(MAX_SQUARES <= 64 * BOARD_WORDS);
// The squares of one rank or file as bits, with room for a wall bit past
// the last square (bit `size`).
using LineBits = std::conditional_t<(MAX_SIZE < 16), uint16_t, uint32_t>;
// A square in a table of squares.
using SquareIndex = std::conditional_t<(MAX_SQUARES <= 128), int8_t, int16_t>;
// Boards up to this size count moves by lines (Edition::line_counts): the
// tables take 3^size bytes per kind of line.
constexpr int LINE_COUNT_MAX_SIZE = 13;

#if BRANAN_BOARD_BITS == 128
// Word i of a board (64 squares from square 64 * i).
constexpr uint64_t board_word(const Bitboard& b, int i) {
    return uint64_t(b >> (64 * i));
}
constexpr bool test(const Bitboard& b, Square s) {
    return (b >> s) & 1;
}
inline Square lsb(const Bitboard& b) {
    const uint64_t lo = uint64_t(b);
    return lo ? std::countr_zero(lo) : 64 + std::countr_zero(uint64_t(b >> 64));
}
inline Square pop_lsb(Bitboard& b) {
    const Square s = lsb(b);
    b &= b - 1;
    return s;
}
#else
constexpr uint64_t board_word(const Bitboard& b, int i) {
    return b.word(i);
}
constexpr bool test(const Bitboard& b, Square s) {
    return b.word(s / 64) >> (s % 64) & 1;
}
inline Square lsb(const Bitboard& b) {
    for (int i = 0; i < BOARD_WORDS - 1; ++i)
        if (const uint64_t x = b.word(i)) return 64 * i + std::countr_zero(x);
    return 64 * (BOARD_WORDS - 1) + std::countr_zero(b.word(BOARD_WORDS - 1));
}
inline Square pop_lsb(Bitboard& b) {
    const Square s = lsb(b);
    b.word(s / 64) &= b.word(s / 64) - 1;
    return s;
}
#endif

constexpr Bitboard square_bb(Square s) {
    return Bitboard(1) << s;
}

inline int popcount(const Bitboard& b) {
    int n = 0;
    for (int i = 0; i < BOARD_WORDS; ++i) n += std::popcount(board_word(b, i));
    return n;
}

// Calls f(square) for every set bit.
template <typename F>
inline void for_each_square(const Bitboard& b, F&& f) {
    for (int i = 0; i < BOARD_WORDS; ++i)
        for (uint64_t x = board_word(b, i); x; x &= x - 1) f(Square(64 * i + std::countr_zero(x)));
}

// A hash of a board's squares, for caches.
inline uint64_t board_hash(const Bitboard& b) {
    constexpr uint64_t MIX[6] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full,
                                 0x165667B19E3779F9ull, 0xD6E8FEB86659FD93ull,
                                 0xFF51AFD7ED558CCDull, 0xC4CEB9FE1A85EC53ull};
    uint64_t h = 0;
    for (int i = 0; i < BOARD_WORDS; ++i) h ^= board_word(b, i) * MIX[i];
    return h;
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
