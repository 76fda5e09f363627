#include "edge_fort.h"

#include "movegen.h"
#include "shieldwall.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {

// The squares the king could move to from s if he stood there, everyone
// else (him included, on his own square) standing still: OpenTafl asks
// this of squares he does not stand on.
Bitboard king_targets(const Edition& edition, Square s, Bitboard occupied) {
    const int r = edition.rank[s], f = edition.file[s];
    const unsigned rank_occ =
        unsigned(uint64_t(occupied >> (r * edition.size))) & edition.line_mask;
    unsigned file_occ = 0;
    for (int i = 0; i < edition.size; ++i)
        if (test(occupied, edition.square(f, i))) file_occ |= 1u << i;
    const LineTargets t = line_targets(edition, KING, s, rank_occ, file_occ);
    Bitboard out = 0;
    for (unsigned bits = t.rank_bits; bits; bits &= bits - 1)
        out |= square_bb(edition.square(std::countr_zero(bits), r));
    for (unsigned bits = t.file_bits; bits; bits &= bits - 1)
        out |= square_bb(edition.square(f, std::countr_zero(bits)));
    return out;
}

} // namespace

namespace {

// Step 1: a defenders' wall holding the king (wall squares are edge
// squares, so only a king on the edge can be in one).
bool king_in_wall(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king) {
    EdgeBoard b;
    b.side[ATTACKERS] = attackers;
    b.side[DEFENDERS] = defenders;
    b.kings = square_bb(king);
    WallList walls;
    find_walls(edition, b, DEFENDERS, walls);
    for (int i = 0; i < walls.count; ++i)
        if (test(walls.walls[i].squares, king)) return true;
    return false;
}

// Step 2 once R is known: no attacker next to it, and no defender next to
// it with three or more neighbours outside R not held by defenders.
bool region_is_fort(const Edition& edition, Bitboard attackers, Bitboard defenders,
                    Bitboard region) {
    const Bitboard around = edition.neighbours(region) & (attackers | defenders);
    if (around & attackers) return false;
    bool fort = true;
    for_each_square(around, [&](Square s) {
        if (popcount(edition.adjacent[s] & ~region & ~defenders) >= 3) fort = false;
    });
    return fort;
}

} // namespace

bool edge_fort_escape(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king) {
    const Bitboard occupied = attackers | defenders;
    if (edition.king_steps_anywhere) {
        // R is the flood of empty squares from the king, and he can move
        // when an empty square is next to him. Every end but a fort is a
        // "no": the flood stops as soon as R touches an attacker's
        // neighbour.
        const Bitboard empty = edition.board & ~occupied;
        const bool on_edge = test(edition.edges, king);
        if (on_edge) {
            if (!(edition.adjacent[king] & empty)) return false;
            if (king_in_wall(edition, attackers, defenders, king)) return true;
        }
        const Bitboard region =
            edition.flood_unless(square_bb(king), empty, edition.neighbours(attackers));
        if (!region) return false;
        if (!on_edge && !(region & edition.edges)) return false;
        return region_is_fort(edition, attackers, defenders, region);
    }

    // The general walk, for kings barred from some squares or slowed.
    const Bitboard king_moves = king_targets(edition, king, occupied);
    if (test(edition.edges, king) && king_moves &&
        king_in_wall(edition, attackers, defenders, king))
        return true;
    Bitboard region = square_bb(king) | king_moves, frontier = king_moves;
    while (frontier) {
        Bitboard next = 0;
        for_each_square(frontier, [&](Square s) { next |= king_targets(edition, s, occupied); });
        frontier = next & ~region;
        region |= frontier;
    }
    if (test(edition.edges, king) ? !king_moves : !(region & edition.edges)) return false;
    return region_is_fort(edition, attackers, defenders, region);
}

bool exit_fort(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king) {
    if (!test(edition.edges, king)) return false;
    const Bitboard empty = edition.board & ~(attackers | defenders);
    if (!(edition.adjacent[king] & empty)) return false;
    const Bitboard region = edition.flood(square_bb(king), empty);
    if ((region & edition.corners) || (edition.neighbours(region) & attackers)) return false;
    const Bitboard safe = (region & ~(edition.throne & empty)) | defenders;
    return edition.held_on_both_axes(edition.neighbours(region) & defenders & ~region, safe);
}

bool reached_exit_fort(const Edition& edition, Bitboard attackers, Bitboard defenders,
                       Square king) {
    if (!test(edition.edges, king)) return false;
    const Bitboard empty = edition.board & ~(attackers | defenders);
    if (!(edition.adjacent[king] & empty)) return false;
    const bool test_pieces = popcount(attackers) > 1;
    // A stacked square and the axis it is tested on: across a north-south
    // step the east-west neighbours, and the other way round.
    struct Step {
        SquareIndex square;
        bool east_west;
    };
    constexpr int PUSH_ORDER[4] = {NORTH, WEST, SOUTH, EAST};
    Step stack[MAX_SQUARES + 4];
    int top = 0;
    auto push_around = [&](Square s, Bitboard* pushed) {
        for (int d : PUSH_ORDER) {
            const int n = edition.neighbour[s][d];
            if (n == NO_SQUARE) continue;
            if (pushed) {
                // From an empty square each square is stacked once.
                if (test(*pushed, Square(n))) continue;
                *pushed |= square_bb(Square(n));
            }
            stack[top++] = {SquareIndex(n), d == NORTH || d == SOUTH};
        }
    };
    // The king's neighbours are stacked without being marked, so a walk
    // may stack them once more.
    Bitboard pushed = 0;
    push_around(king, nullptr);
    while (top > 0) {
        const Step step = stack[--top];
        const Square s = Square(step.square);
        if (test(empty, s)) {
            push_around(s, &pushed);
            continue;
        }
        if (test(attackers, s)) return false;
        if (!test_pieces) continue;
        const int a = step.east_west ? EAST : NORTH, b = step.east_west ? WEST : SOUTH;
        auto held = [&](int d) {
            const int n = edition.neighbour[s][d];
            return n == NO_SQUARE || test(defenders, Square(n));
        };
        if (!held(a) && !held(b)) return false;
    }
    return true;
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
