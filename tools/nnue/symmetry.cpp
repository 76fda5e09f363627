#include "symmetry.h"

#include <utility>

namespace branan::nnue {

Square transform(int t, Square s, int n) {
    int file = s % n, rank = s / n;
    if (t & 4) std::swap(file, rank);
    if (t & 1) file = n - 1 - file;
    if (t & 2) rank = n - 1 - rank;
    return rank * n + file;
}

namespace {

bool keeps(const Edition& e, int t, const Bitboard& b) {
    for (Square s = 0; s < e.num_squares; ++s)
        if (test(b, s) != test(b, transform(t, s, e.size))) return false;
    return true;
}

} // namespace

bool symmetric(const Edition& e) {
    for (int t = 1; t < SYMMETRIES; ++t) {
        for (Square s = 0; s < e.num_squares; ++s)
            if (e.start[s] != e.start[transform(t, s, e.size)]) return false;
        for (const Bitboard& b : {e.escape, e.throne, e.corners, e.camps, e.king_strong})
            if (!keeps(e, t, b)) return false;
        for (int k = 1; k < PIECE_KINDS; ++k)
            for (const auto* masks : {&e.no_stop, &e.no_pass, &e.hostile_empty, &e.hostile_occupied,
                                      &e.special_origin, &e.may_stand, &e.stop_somewhere})
                if (!keeps(e, t, (*masks)[k])) return false;
    }
    return true;
}

} // namespace branan::nnue
