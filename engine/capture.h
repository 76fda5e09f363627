#pragma once

// The capture rule, in one place: whether a piece that has just arrived on
// `to` takes the enemy piece next to it in direction `d`. Position applies
// it when making a move; the search asks it about moves not yet made. The
// board is read through `at(square)`, which must show the board after the
// moving piece has arrived (and left its square).

#include "edition.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

template <typename BoardAt>
inline bool captures_toward(const Edition& edition, const BoardAt& at, Side us, Square to, int d) {
    const Square a = edition.neighbour[to][d];
    if (a == NO_SQUARE) return false;
    const Piece victim = at(a);
    if (victim == NO_PIECE || side_of(victim) == us) return false;
    // Whether square c counts against the king: an attacker, or a square
    // hostile to him (empty or occupied).
    auto against_king = [&](Square c) {
        const Piece q = at(c);
        if (q == ATTACKER) return true;
        return q == NO_PIECE ? test(edition.hostile_empty[KING], c)
                             : test(edition.hostile_occupied[KING], c);
    };
    if (victim == KING) {
        if (test(edition.king_strong, a)) {
            // Every side of the king must be against him.
            for (int e = 0; e < 4; ++e) {
                const Square c = edition.neighbour[a][e];
                if (c == NO_SQUARE ? !edition.edge_captures_king : !against_king(c)) return false;
            }
            return true;
        }
        const Square b = edition.neighbour[a][d];
        return b != NO_SQUARE && against_king(b);
    }
    const Square b = edition.neighbour[a][d];
    if (b == NO_SQUARE) return false;
    const Piece anvil = at(b);
    if (anvil == NO_PIECE) return test(edition.hostile_empty[victim], b);
    if (side_of(anvil) == us) return anvil != KING || edition.king_anvil;
    if (anvil == KING && edition.rules.linnaean && test(edition.throne, b)) {
        // Linnaean capture: the king on the throne with attackers on his
        // three other sides; the defender on the fourth side is taken
        // against the throne.
        for (int e = 0; e < 4; ++e) {
            const Square c = edition.neighbour[b][e];
            if (c != a && (c == NO_SQUARE || at(c) != ATTACKER)) return false;
        }
        return true;
    }
    return test(edition.hostile_occupied[victim], b);
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
