#include "shieldwall.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {

// The scan's lists are shared, not copied: a wall recorded at a corner keeps
// the lists it was built in, and the walk goes on appending to them on the
// next edge (quirk 5). So walls refer to lists by index, and read their
// contents once the scan is over.
struct RunList {
    Bitboard squares = 0, closers = 0;
    int size = 0; // squares appended, repeats included (OpenTafl's list size)
};

// Edge e, square i (walked from file a / rank 1): the square and the one
// directly inside it. Edges in OpenTafl's order: rank 1, the top rank,
// file a, the last file.
inline Square edge_square(const Edition& edition, int e, int i) {
    const int n = edition.size;
    switch (e) {
    case 0:
        return i;
    case 1:
        return (n - 1) * n + i;
    case 2:
        return i * n;
    default:
        return i * n + n - 1;
    }
}

inline Square inside_of(const Edition& edition, int e, Square s) {
    switch (e) {
    case 0:
        return s + edition.size;
    case 1:
        return s - edition.size;
    case 2:
        return s + 1;
    default:
        return s - 1;
    }
}

} // namespace

void find_walls(const Edition& edition, const EdgeBoard& b, Side us, WallList& out) {
    out.count = 0;
    const Bitboard ours = b.side[us];
    // Quirk 1: each side needs two pieces on edge squares before any wall is
    // looked for.
    if (popcount(ours & edition.edges) < 2 || popcount(b.side[~us] & edition.edges) < 2) return;
    const bool strong = edition.rules.shieldwall == Shieldwall::STRONG;
    const int n = edition.size;

    // 4 edges of at most 11 squares: at most 45 lists, one per fresh start.
    RunList lists[4 * MAX_SIZE + 2];
    int nlists = 1, cur = 0;
    int recorded[MAX_WALLS];
    int nwalls = 0;
    auto record = [&] {
        if (nwalls < MAX_WALLS) recorded[nwalls++] = cur;
    };
    auto fresh = [&] {
        cur = nlists++;
        lists[cur] = RunList{};
    };
    auto enclose = [&](Square s, Square inside) {
        lists[cur].closers |= square_bb(inside);
        lists[cur].squares |= square_bb(s);
        ++lists[cur].size;
    };

    for (int e = 0; e < 4; ++e) {
        bool open = false;
        // OpenTafl's `index` counts only the squares that reach the end of
        // its loop body, so its "next square" is not always the next one.
        int index = 0;
        for (int i = 0; i < n; ++i) {
            const Square s = edge_square(edition, e, i), inside = inside_of(edition, e, s);
            const bool corner = test(edition.corners, s);
            if (!open && corner && strong) {
                open = true;
                continue;
            }
            if (!open && test(ours, s)) {
                open = true;
                lists[cur].closers |= square_bb(s);
                continue;
            }
            if (open) {
                if (corner && strong) {
                    if (lists[cur].size > 1) record();
                    break; // the lists stay as they are (quirk 5)
                }
                if (test(ours, s)) {
                    const Square next = edge_square(edition, e, index + 1);
                    if ((test(ours, next) && test(ours, inside)) ||
                        (test(b.kings, s) && test(ours, inside))) {
                        // Swallowed into the run (quirk 4), or a king with
                        // his own piece inside him.
                        enclose(s, inside);
                        continue;
                    }
                    // The high end. It starts the next run but is not
                    // recorded as its low end (quirk 3).
                    if (lists[cur].size > 1) {
                        lists[cur].closers |= square_bb(s);
                        record();
                    }
                    fresh();
                    continue;
                }
                if (test(ours, inside)) {
                    enclose(s, inside);
                } else {
                    open = false;
                    fresh();
                }
            }
            ++index;
        }
    }

    for (int w = 0; w < nwalls; ++w)
        out.walls[out.count++] = {lists[recorded[w]].squares, lists[recorded[w]].closers};
}

Bitboard edge_wall_captures(const Edition& edition, const EdgeBoard& b, Side mover, Square to) {
    const int n = edition.size, f = edition.file[to], r = edition.rank[to];
    const bool on_rank_edge = r == 0 || r == n - 1, on_file_edge = f == 0 || f == n - 1;
    // A corner lies on two edges; only the king stops there, and the game
    // is then over.
    if (on_rank_edge == on_file_edge) return 0;
    const Edition::EdgeAxes axes = edition.edge_axes(to);
    const Bitboard ours = b.side[mover], theirs = b.side[~mover];
    const bool corners_close = edition.rules.shieldwall == Shieldwall::STRONG;
    const bool every_wall = edition.rules.shieldwall_code == RuleCode::HNEFATAFL_ORG;
    Bitboard taken = 0;
    for (int along : axes.along) {
        Bitboard run = 0;
        int s = edition.neighbour[to][along];
        while (s != NO_SQUARE && test(theirs, s) && test(ours, edition.neighbour[s][axes.inward])) {
            run |= square_bb(s);
            s = edition.neighbour[s][along];
        }
        const bool closed =
            s != NO_SQUARE &&
            (test(ours, s) || (corners_close && test(edition.corners & ~theirs, s)));
        if (!closed || popcount(run) < 2) continue;
        taken |= run & ~b.kings;
        if (!every_wall) break;
    }
    return taken;
}

Bitboard shieldwall_captures(const Edition& edition, const EdgeBoard& b, Side mover, Square to,
                             bool developed) {
    if (edition.rules.shieldwall_code != RuleCode::OPENTAFL)
        return edge_wall_captures(edition, b, mover, to);
    const bool flank = edition.rules.shieldwall_flank;
    // swf:y: the mover must end on an edge square and be one of the wall's
    // recorded pieces. OpenTafl matches it by a code that changes on its
    // first move (quirk 2), so a piece moving for the first time never is.
    if (flank && (!test(edition.edges, to) || !developed)) return 0;
    Bitboard taken = 0;
    auto check = [&](const WallList& list) {
        for (int i = 0; i < list.count; ++i) {
            const Wall& w = list.walls[i];
            if (flank && !test(w.closers, to)) continue;
            // Every square must hold a piece not of the mover's side (in
            // OpenTafl's code: of the mover's, not of the wall's); the
            // squares taken by an earlier wall are empty now.
            if (w.squares & ~(b.side[~mover] & ~taken)) continue;
            taken |= w.squares & ~b.kings;
        }
    };
    // Both scans read the board before any wall's captures; the attackers'
    // walls are judged first.
    WallList attackers, defenders;
    find_walls(edition, b, ATTACKERS, attackers);
    find_walls(edition, b, DEFENDERS, defenders);
    check(attackers);
    check(defenders);
    return taken;
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
