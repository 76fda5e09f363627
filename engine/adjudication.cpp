#include "adjudication.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {

// The square `steps` squares from s in direction d (NO_SQUARE off the board).
int walk(const Edition& edition, int s, int d, int steps) {
    for (int i = 0; i < steps && s != NO_SQUARE; ++i) s = edition.neighbour[s][d];
    return s;
}

bool attacker_on(Bitboard attackers, int s) {
    return s != NO_SQUARE && test(attackers, Square(s));
}

// Step 1: the king shut in on his edge.
bool king_trapped(const Edition& edition, Bitboard attackers, int defenders_left,
                  int attackers_left, Square king) {
    if (!test(edition.edges, king)) return false;
    const Edition::EdgeAxes axes = edition.edge_axes(king);
    // Next to a corner along the edge (or on one): never.
    for (int d : axes.along) {
        const int s = edition.neighbour[king][d];
        if (s == NO_SQUARE || test(edition.corners, Square(s))) return false;
    }
    for (int d : axes.along)
        for (int step = 1; step <= 2; ++step) {
            const int s = walk(edition, king, d, step);
            if (s != NO_SQUARE && test(edition.corners, Square(s)))
                ++attackers_left;
            else if (!attacker_on(attackers, s))
                return false;
        }
    auto inward_pair = [&](int from) {
        return attacker_on(attackers, walk(edition, from, axes.inward, 1)) &&
               attacker_on(attackers, walk(edition, from, axes.inward, 2));
    };
    if (attackers_left > 5 && !inward_pair(king)) return false;
    if (defenders_left < 2) return true;
    return attackers_left > 7 && (inward_pair(edition.neighbour[king][axes.along[0]]) ||
                                  inward_pair(edition.neighbour[king][axes.along[1]]));
}

// Step 2 for one corner: whether it is closed, and the edge squares its
// closing seals (added to `sealed`).
bool corner_closed(const Edition& edition, Bitboard attackers, Bitboard defenders, Square corner,
                   Bitboard& sealed) {
    // Its two neighbours, each with the square beyond it along the edge.
    int next[2], beyond[2], k = 0;
    for (int d = 0; d < 4; ++d) {
        const int s = edition.neighbour[corner][d];
        if (s == NO_SQUARE) continue;
        next[k] = s;
        beyond[k] = edition.neighbour[s][d];
        ++k;
    }
    if (attacker_on(attackers, next[0]) && attacker_on(attackers, beyond[0]) &&
        attacker_on(attackers, next[1]) && attacker_on(attackers, beyond[1])) {
        sealed |= square_bb(corner) | square_bb(Square(next[0])) | square_bb(Square(beyond[0])) |
                  square_bb(Square(next[1])) | square_bb(Square(beyond[1]));
        return true;
    }
    // The flood: from a neighbour that is empty or an attacker (a defender
    // next to the corner is not looked at) into its neighbours, then on
    // through empty squares only; any defender reached keeps the corner
    // open. The set reached does not depend on the order.
    const Bitboard empty = edition.board & ~(attackers | defenders);
    Bitboard reached = square_bb(corner), first = 0;
    for (int s : next) {
        reached |= square_bb(Square(s));
        if (!test(defenders, Square(s))) first |= square_bb(Square(s));
    }
    Bitboard frontier = edition.neighbours(first) & ~reached;
    Bitboard flooded = first;
    while (frontier) {
        reached |= frontier;
        if (frontier & defenders) return false;
        const Bitboard open = frontier & empty;
        flooded |= open;
        frontier = edition.neighbours(open) & ~reached;
    }
    sealed |= square_bb(corner) | (flooded & edition.edges);
    return true;
}

// Whether every edge has at most `most` open squares, in one run.
bool edges_nearly_shut(const Edition& edition, Bitboard attackers, Bitboard sealed, int most) {
    const int n = edition.size;
    for (int edge = 0; edge < 4; ++edge) {
        int count = 0;
        bool run_ended = false;
        for (int i = 0; i < n; ++i) {
            const Square s = edge == 0   ? edition.square(0, i)
                             : edge == 1 ? edition.square(n - 1, i)
                             : edge == 2 ? edition.square(i, 0)
                                         : edition.square(i, n - 1);
            const bool open = !test(attackers, s) && !test(sealed, s);
            if (open) {
                if (run_ended) return false;
                if (++count > most) return false;
            } else if (count > 0) {
                run_ended = true;
            }
        }
    }
    return true;
}

} // namespace

bool cannot_escape(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king) {
    const int defenders_left = popcount(defenders & ~square_bb(king));
    const int attackers_left = popcount(attackers);
    if (king_trapped(edition, attackers, defenders_left, attackers_left, king)) return true;
    Bitboard sealed = 0;
    for (Bitboard corners = edition.corners; corners; corners &= corners - 1)
        if (!corner_closed(edition, attackers, defenders, lsb(corners), sealed)) return false;
    return (defenders_left < 4 && attackers_left >= 13) ||
           (defenders_left < 6 && edges_nearly_shut(edition, attackers, sealed, 3)) ||
           edges_nearly_shut(edition, attackers, sealed, 2);
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
