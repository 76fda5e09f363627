#pragma once

// One 128-bit board type for every size from 7x7 to 11x11 (121 squares).
// Square s = rank * size + file is bit s. Vertical neighbours are `size`
// bits apart, so shifts depend on the board size and are done through the
// neighbour tables of Geometry rather than by shifting whole boards.

#include <bit>
#include <cstdint>

#include "types.h"

namespace branan {

using Bitboard = unsigned __int128;

constexpr Bitboard square_bb(Square s) {
    return Bitboard(1) << s;
}
constexpr bool test(Bitboard b, Square s) {
    return (b >> s) & 1;
}

inline int popcount(Bitboard b) {
    return std::popcount(uint64_t(b)) + std::popcount(uint64_t(b >> 64));
}

inline Square lsb(Bitboard b) {
    uint64_t lo = uint64_t(b);
    return lo ? std::countr_zero(lo) : 64 + std::countr_zero(uint64_t(b >> 64));
}

inline Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}

// Calls f(square) for every set bit.
template <typename F>
inline void for_each_square(Bitboard b, F&& f) {
    uint64_t lo = uint64_t(b), hi = uint64_t(b >> 64);
    while (lo) {
        f(Square(std::countr_zero(lo)));
        lo &= lo - 1;
    }
    while (hi) {
        f(Square(64 + std::countr_zero(hi)));
        hi &= hi - 1;
    }
}

} // namespace branan
