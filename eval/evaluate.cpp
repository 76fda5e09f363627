#include "evaluate.h"

#include "movegen.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <memory>
#include <type_traits>

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {

// Board geometry for whole-board shifts, fixed by the board size N. Square
// s = rank * N + file, so a step north is a shift by N and a step east a
// shift by 1 that must not wrap from the last file into file a of the next
// rank. Everything is a compile-time constant of N.
template <int N>
struct Geo {
    // Boards up to 8x8 fit in 64 bits, which are cheaper to shift.
    using B = std::conditional_t<N * N <= 64, uint64_t, Bitboard>;
    static constexpr Bitboard make_board() {
        Bitboard b = 0;
        for (int s = 0; s < N * N; ++s) b |= Bitboard(1) << s;
        return b;
    }
    static constexpr Bitboard make_file(int f) {
        Bitboard b = 0;
        for (int r = 0; r < N; ++r) b |= Bitboard(1) << (r * N + f);
        return b;
    }
    static constexpr Bitboard make_rank(int r) {
        Bitboard b = 0;
        for (int f = 0; f < N; ++f) b |= Bitboard(1) << (r * N + f);
        return b;
    }
    static constexpr B board = B(make_board());
    static constexpr B file_a = B(make_file(0)), file_last = B(make_file(N - 1));
    static constexpr B rank_1 = B(make_rank(0)), rank_last = B(make_rank(N - 1));
    static constexpr B edge = file_a | file_last | rank_1 | rank_last;
    static constexpr B not_file_a = B(board & ~make_file(0));        // eastward steps land here
    static constexpr B not_file_last = B(board & ~make_file(N - 1)); // westward steps land here

    static int count(B b) {
        if constexpr (N * N <= 64)
            return std::popcount(b);
        else
            return popcount(b);
    }
    static B north(B b) { return (b << N) & board; }
    static B south(B b) { return b >> N; }
    static B east(B b) { return (b << 1) & not_file_a; }
    static B west(B b) { return (b >> 1) & not_file_last; }
    // The rank and the file through square s.
    static B lines_through(int s) { return B(rank_1 << (N * (s / N))) | B(file_a << (s % N)); }
    static B neighbours(B b) { return north(b) | south(b) | east(b) | west(b); }
    static B diagonals(B b) { return north(east(b) | west(b)) | south(east(b) | west(b)); }

    // Shieldwall material: the pieces of `own` on the edge that have another
    // of `row` next to them along that edge and a piece of `inside` on the
    // square inside them (a wall of two or more faced by the enemy, one
    // closing move from capture when its ends are open).
    static B edge_faced(B own, B row, B inside) {
        const B r1 = row & rank_1, rl = row & rank_last, fa = row & file_a, fl = row & file_last;
        return (own & rank_1 & south(inside) & (east(r1) | west(r1))) |
               (own & rank_last & north(inside) & (east(rl) | west(rl))) |
               (own & file_a & west(inside) & (north(fa) | south(fa))) |
               (own & file_last & east(inside) & (north(fl) | south(fl)));
    }

    // Occluded fills along one direction (a shift by STEP) by doubling
    // steps: 1, 2, 4 cover 7 steps, enough up to 8x8; one more single step
    // for 9x9, a step of 8 above (15 steps), and one of 16 above 16x16.
    template <int STEP>
    static B fill_up(B gen, B pro) {
        const B pro1 = pro;
        gen |= pro & (gen << STEP);
        pro &= pro << STEP;
        gen |= pro & (gen << 2 * STEP);
        pro &= pro << 2 * STEP;
        gen |= pro & (gen << 4 * STEP); // up to 7 steps
        if constexpr (N == 9) {
            gen |= pro1 & (gen << STEP); // the 8th
        } else if constexpr (N > 9) {
            pro &= pro << 4 * STEP;
            gen |= pro & (gen << 8 * STEP); // up to 15 steps
            if constexpr (N > 16) {
                pro &= pro << 8 * STEP;
                gen |= pro & (gen << 16 * STEP);
            }
        }
        return gen;
    }
    template <int STEP>
    static B fill_down(B gen, B pro) {
        const B pro1 = pro;
        gen |= pro & (gen >> STEP);
        pro &= pro >> STEP;
        gen |= pro & (gen >> 2 * STEP);
        pro &= pro >> 2 * STEP;
        gen |= pro & (gen >> 4 * STEP); // up to 7 steps
        if constexpr (N == 9) {
            gen |= pro1 & (gen >> STEP); // the 8th
        } else if constexpr (N > 9) {
            pro &= pro >> 4 * STEP;
            gen |= pro & (gen >> 8 * STEP); // up to 15 steps
            if constexpr (N > 16) {
                pro &= pro >> 8 * STEP;
                gen |= pro & (gen >> 16 * STEP);
            }
        }
        return gen;
    }

    // fill_up<1>(gen, pro & not_file_a), by carries where the board is one
    // integer: adding gen to y (the squares a slide may cross, and gen)
    // carries each generator's bit up its run of y and out at the first
    // square past it, clearing the run: the bits of y that the sum clears
    // are the slides. No carry crosses into the next rank: file a squares
    // are not in y unless they are generators, whose own slides are the
    // same whether a carry arrives or not.
    static B fill_east(B gen, B pro) {
        if constexpr (std::is_same_v<B, uint64_t> || std::is_same_v<B, unsigned __int128>) {
            const B y = (pro & not_file_a) | gen;
            return gen | (y & ~(y + gen));
        } else {
            return fill_up<1>(gen, pro & not_file_a);
        }
    }

    // Rook slides: every square reachable from some square of `gen` by
    // sliding in one direction over squares of `pro` (gen itself included;
    // gen need not be in pro), plus the squares of `extra` just past the end
    // of each slide (squares a piece may stop on but not pass over).
    // The same, one set per direction (east, west, north, south).
    static void slide_reach_dirs(B gen, B pro, B extra, B out[4]) {
        out[0] = fill_east(gen, pro);
        out[1] = fill_down<1>(gen, pro & not_file_last);
        out[2] = fill_up<N>(gen, pro);
        out[3] = fill_down<N>(gen, pro);
        if (extra) {
            out[0] |= east(out[0]) & extra;
            out[1] |= west(out[1]) & extra;
            out[2] |= north(out[2]) & extra;
            out[3] |= south(out[3]) & extra;
        }
    }
    static B slide_reach(B gen, B pro, B extra) {
        B d[4];
        slide_reach_dirs(gen, pro, extra, d);
        return d[0] | d[1] | d[2] | d[3];
    }
};

// Runtime-size shifts, for building the tables.
struct Geometry {
    int n = 0;
    Bitboard board = 0, not_file_a = 0, not_file_last = 0;
};
inline Bitboard north(Bitboard b, const Geometry& g) {
    return (b << g.n) & g.board;
}
inline Bitboard south(Bitboard b, const Geometry& g) {
    return b >> g.n;
}
inline Bitboard east(Bitboard b, const Geometry& g) {
    return (b << 1) & g.not_file_a;
}
inline Bitboard west(Bitboard b, const Geometry& g) {
    return (b >> 1) & g.not_file_last;
}
inline Bitboard neighbours(Bitboard b, const Geometry& g) {
    return north(b, g) | south(b, g) | east(b, g) | west(b, g);
}

// What the evaluation derives once per Edition: geometry, the guard rings
// around the escape squares, the squares next to the throne and the number
// of soldiers at the start (for the phase).
// The ring's flood depends only on where the attackers stand and on the
// king's component of the squares they leave free, which many nodes of a
// search share: the flood is cached under the exact attackers' board, and
// reused when the king stands in the cached region (the same component).
// A transparent cache: the evaluation stays a function of the position.
struct RingEntry {
    Bitboard attackers = 0;
    Bitboard region = 0;   // from a king on a passable square, so one component
    int free_escapes = -1; // -1: empty slot
};
constexpr int RING_CACHE_BITS = 10;
// The king's room counts for the attackers below this many squares only,
// so that closing a wide ring never scores less than leaving it open, and
// the term does not grow with the board.
constexpr int KING_ROOM_CAP = 64;

struct Tables {
    EditionPtr edition; // held, so the address cannot be reused while cached
    Geometry g;
    Bitboard guard_adjacent = 0, guard_diagonal = 0, guard_second = 0;
    Bitboard throne_adjacent = 0;
    int start_soldiers = 0;
    std::array<RingEntry, 1 << RING_CACHE_BITS> ring{};
};

inline RingEntry& ring_entry(Tables& t, Bitboard attackers) {
    uint64_t h = board_hash(attackers);
    h ^= h >> 31;
    return t.ring[(h * 0xBF58476D1CE4E5B9ull) >> (64 - RING_CACHE_BITS)];
}

void build_tables(Tables& t, const EditionPtr& shared_edition) {
    const Edition& edition = *shared_edition;
    t.edition = shared_edition;
    Geometry& g = t.g;
    g.n = edition.size;
    g.board = edition.board;
    Bitboard file_a = 0, file_last = 0;
    for (int r = 0; r < edition.size; ++r) {
        file_a |= square_bb(r * edition.size);
        file_last |= square_bb(r * edition.size + edition.size - 1);
    }
    g.not_file_a = edition.board & ~file_a;
    g.not_file_last = edition.board & ~file_last;

    const Bitboard esc = edition.escape;
    t.guard_adjacent = neighbours(esc, g) & ~esc;
    const Bitboard diag = north(east(esc, g), g) | north(west(esc, g), g) | south(east(esc, g), g) |
                          south(west(esc, g), g);
    t.guard_diagonal = diag & ~esc & ~t.guard_adjacent;
    const Bitboard two = north(north(esc, g), g) | south(south(esc, g), g) | east(east(esc, g), g) |
                         west(west(esc, g), g);
    t.guard_second = two & ~esc & ~t.guard_adjacent & ~t.guard_diagonal;
    t.throne_adjacent = neighbours(edition.throne, g) & ~edition.throne;
    t.ring.fill(RingEntry{});
    t.start_soldiers = 0;
    for (Square s = 0; s < edition.num_squares; ++s)
        t.start_soldiers += edition.start[s] == ATTACKER || edition.start[s] == DEFENDER;
}

inline Tables& tables_for(const Position& pos) {
    thread_local Tables cache;
    if (cache.edition.get() != &pos.edition()) build_tables(cache, pos.edition_ptr());
    return cache;
}

// The moves of the pieces of kind p that stand where they move otherwise
// than the fills below assume (Edition::special_origin: camps, special
// squares they may leave into their own kind, speed limits), one by one.
Bitboard special_moves(const Position& pos, Piece p) {
    Bitboard out = 0;
    for_each_square(pos.pieces(p) & pos.edition().special_origin[p],
                    [&](Square s) { out |= move_targets(pos, s); });
    return out;
}

// Accumulators: the plain evaluation adds weight * coefficient, the trace
// records the coefficient. Both run the same eval_terms below.
struct ScoreAcc {
    const EvalParams& params;
    int score[2] = {0, 0};
    void add(Side side, ParamId id, int coefficient) { score[side] += params.w[id] * coefficient; }
};

struct TraceAcc {
    EvalTrace& trace;
    void add(Side side, ParamId id, int coefficient) { trace.coef[id][side] += coefficient; }
};

// What every term group reads of one position: the pieces, the empty
// squares and where each side's pieces can move, on a board of N squares a
// side. Made once per evaluation; each group below adds its terms.
template <int N>
struct EvalBoard {
    using G = Geo<N>;
    using B = typename G::B;

    const Position& pos;
    Tables& t;
    const Edition& edition;
    Side stm;
    B A, D, K;
    Square ks;
    B occ, empty, escape;
    // Where the soldiers of each side can move (union over the pieces).
    B reach_a = 0, reach_d = 0;
    // The king's moves (his own square counts as empty once he leaves it),
    // and the masks of his slides.
    B king_moves = 0;
    B snp_k = 0, extra_k = 0, pro_k = 0, land_k = 0;

    EvalBoard(const Position& p, Tables& tables)
        : pos(p), t(tables), edition(p.edition()), stm(p.side_to_move()), A(B(p.pieces(ATTACKER))),
          D(B(p.pieces(DEFENDER))), ks(p.king_square()) {
        K = ks == NO_SQUARE ? B(0) : B(square_bb(ks));
        occ = B(p.occupied());
        empty = G::board & ~occ;
        escape = B(edition.escape);
    }
};

// Material, growing with the phase (soldiers already captured).
template <int N, typename Acc>
void material_terms(const EvalBoard<N>& b, Acc& acc) {
    using G = Geo<N>;
    const int na = G::count(b.A), nd = G::count(b.D);
    const int captured = std::max(0, b.t.start_soldiers - na - nd);
    acc.add(ATTACKERS, ATTACKER_PIECE, na);
    acc.add(DEFENDERS, DEFENDER_PIECE, nd);
    acc.add(ATTACKERS, ATTACKER_PIECE_LATE, na * captured);
    acc.add(DEFENDERS, DEFENDER_PIECE_LATE, nd * captured);
    acc.add(b.stm, SIDE_TO_MOVE, 1);
}

// Where the soldiers of each side can move; sets b.reach_a and b.reach_d.
template <int N, typename Acc>
void mobility_terms(EvalBoard<N>& b, Acc& acc) {
    using G = Geo<N>;
    using B = typename G::B;
    const Edition& edition = b.edition;
    // snp: squares a piece may stop on but not pass over.
    const B snp_a = B(edition.no_pass[ATTACKER] & ~edition.no_stop[ATTACKER]) & b.empty;
    const B pro_a = b.empty & ~B(edition.no_pass[ATTACKER]);
    const B special_a = B(edition.special_origin[ATTACKER]),
            special_d = B(edition.special_origin[DEFENDER]);
    b.reach_a =
        G::slide_reach(b.A & ~special_a, pro_a, snp_a) & b.empty & ~B(edition.no_stop[ATTACKER]);
    const B snp_d = B(edition.no_pass[DEFENDER] & ~edition.no_stop[DEFENDER]) & b.empty;
    const B pro_d = b.empty & ~B(edition.no_pass[DEFENDER]);
    b.reach_d =
        G::slide_reach(b.D & ~special_d, pro_d, snp_d) & b.empty & ~B(edition.no_stop[DEFENDER]);
    if (b.A & special_a) b.reach_a |= B(special_moves(b.pos, ATTACKER));
    if (b.D & special_d) b.reach_d |= B(special_moves(b.pos, DEFENDER));
    acc.add(ATTACKERS, ATTACKER_MOBILITY, G::count(b.reach_a));
    acc.add(DEFENDERS, DEFENDER_MOBILITY, G::count(b.reach_d));
}

// Attacker structure: guards around the escape squares, diagonal links.
template <int N, typename Acc>
void guard_terms(const EvalBoard<N>& b, Acc& acc) {
    using G = Geo<N>;
    using B = typename G::B;
    const B A = b.A;
    acc.add(ATTACKERS, GUARD_ADJACENT, G::count(A & B(b.t.guard_adjacent)));
    acc.add(ATTACKERS, GUARD_DIAGONAL, G::count(A & B(b.t.guard_diagonal)));
    acc.add(ATTACKERS, GUARD_SECOND, G::count(A & B(b.t.guard_second)));
    acc.add(ATTACKERS, ATTACKER_ON_ESCAPE, G::count(A & b.escape));
    acc.add(ATTACKERS, ATTACKER_DIAGONAL_LINK,
            G::count(A & G::north(G::east(A))) + G::count(A & G::north(G::west(A))));
}

// The king's moves, what stands next to him, edge forts, and whether an
// attacker can capture him with one move (returned). Sets b.king_moves and
// the masks of his slides. Only with a king on the board.
template <int N, typename Acc>
bool king_terms(EvalBoard<N>& b, Acc& acc) {
    using G = Geo<N>;
    using B = typename G::B;
    const Edition& edition = b.edition;
    const B K = b.K, A = b.A, D = b.D, empty = b.empty;
    const Square ks = b.ks;
    b.snp_k = B(edition.no_pass[KING] & ~edition.no_stop[KING]);
    b.extra_k = b.snp_k & empty;
    b.pro_k = (empty | K) & ~B(edition.no_pass[KING]);
    b.land_k = empty & ~B(edition.no_stop[KING]);
    // 128-bit boards: the rules core's line lookups are cheaper than a
    // fill for one piece.
    if (N * N > 64 || test(edition.special_origin[KING], ks))
        b.king_moves = B(move_targets(b.pos, ks));
    else
        b.king_moves = G::slide_reach(K, b.pro_k, b.extra_k) & b.land_k;
    acc.add(DEFENDERS, KING_MOBILITY, G::count(b.king_moves));
    if (!D) acc.add(DEFENDERS, LONE_KING_MOBILITY, G::count(b.king_moves));

    // Next to the king.
    const B adj = G::neighbours(K);
    const B hostile =
        (empty & B(edition.hostile_empty[KING])) | (b.occ & ~A & B(edition.hostile_occupied[KING]));
    const int off_board = edition.edge_captures_king ? 4 - G::count(adj) : 0;
    acc.add(ATTACKERS, KING_ADJACENT_ATTACKER, G::count(adj & A));
    acc.add(ATTACKERS, KING_ADJACENT_HOSTILE, G::count(adj & hostile) + off_board);
    acc.add(DEFENDERS, KING_ADJACENT_DEFENDER, G::count(adj & D));
    if (K & B(edition.throne)) acc.add(DEFENDERS, KING_ON_THRONE, 1);
    // Edge forts: a king on the edge among his defenders is hard to
    // reach and one shape away from the fort that wins.
    if (edition.rules.edge_fort && (K & G::edge)) {
        acc.add(DEFENDERS, FORT_KING_ON_EDGE, 1);
        acc.add(DEFENDERS, FORT_DEFENDERS, G::count((adj | G::diagonals(K)) & D));
    }
    if (K & B(b.t.throne_adjacent)) acc.add(DEFENDERS, KING_BESIDE_THRONE, 1);

    // Can an attacker capture the king with one move? A side is
    // "covered" when it already counts for the capture.
    const bool strong = test(edition.king_strong, ks);
    const B cover = A | (adj & hostile);
    bool covered[4], reachable[4];
    int uncovered = 0;
    for (int d = 0; d < 4; ++d) {
        const int nb = edition.neighbour[ks][d];
        if (nb == NO_SQUARE) {
            covered[d] = strong && edition.edge_captures_king;
            reachable[d] = false;
        } else {
            covered[d] = bool((cover >> nb) & 1);
            reachable[d] = bool((b.reach_a >> nb) & 1);
        }
        uncovered += !covered[d];
    }
    bool threat;
    if (strong) {
        threat = false;
        if (uncovered == 1)
            for (int d = 0; d < 4; ++d) threat |= !covered[d] && reachable[d];
    } else {
        threat = (covered[NORTH] && reachable[SOUTH]) || (covered[SOUTH] && reachable[NORTH]) ||
                 (covered[EAST] && reachable[WEST]) || (covered[WEST] && reachable[EAST]);
    }
    if (threat)
        acc.add(ATTACKERS, b.stm == ATTACKERS ? KING_CAPTURE_THREAT : KING_CAPTURE_THREAT_DEFER, 1);
    return threat;
}

// Free lines to escape squares, squares one king move from one, forks and
// the distance; returns the king's free lines (`routes`). With the
// attackers to move: nothing if they can capture the king (`threat`);
// decisive if there are two lines, or one that no attacker can step onto.
template <int N, typename Acc>
int escape_terms(const EvalBoard<N>& b, bool threat, Acc& acc) {
    using G = Geo<N>;
    using B = typename G::B;
    const Edition& edition = b.edition;
    const B king_moves = b.king_moves, escape = b.escape;
    const B routes_bb = king_moves & escape;
    const int routes = G::count(routes_bb);
    if (routes) {
        if (b.stm == DEFENDERS)
            acc.add(DEFENDERS, ESCAPE_ROUTE_TO_MOVE, 1);
        else if (!threat) {
            bool decisive = routes >= 2;
            if (!decisive) {
                // The line: squares both on the king's rays and on the
                // escape square's rays (which stop at the king).
                const B line = (G::slide_reach(routes_bb, b.empty & ~B(edition.no_pass[KING]), 0) &
                                king_moves) |
                               routes_bb;
                decisive = !(line & b.reach_a);
            }
            acc.add(DEFENDERS, decisive ? ESCAPE_ROUTES_TWO : ESCAPE_ROUTE_ONE, 1);
        }
    }
    // Squares one king move from an escape square (by direction: the
    // fill from the escape squares going east finds the squares whose
    // line to the west is free), forks (free lines in two directions),
    // and the distance in king moves to the nearest escape square.
    // Every one of these terms starts from a king move: a king who
    // cannot move (boxed in by his own men, as at the start) adds none,
    // and the fills are skipped.
    if (king_moves) {
        B dirs[4];
        G::slide_reach_dirs(escape & b.land_k, b.pro_k, b.extra_k, dirs);
        const B near1 = (dirs[0] | dirs[1] | dirs[2] | dirs[3]) & b.land_k;
        const B two_lines = (dirs[0] & (dirs[1] | dirs[2] | dirs[3])) |
                            (dirs[1] & (dirs[2] | dirs[3])) | (dirs[2] & dirs[3]);
        const B threats = king_moves & near1 & ~escape;
        const B forks = threats & two_lines;
        acc.add(DEFENDERS, ESCAPE_THREAT_SQUARES, G::count(threats));
        acc.add(DEFENDERS, ESCAPE_FORK_SQUARES, G::count(forks));
        if (!routes) {
            if (forks && b.stm == DEFENDERS) acc.add(DEFENDERS, ESCAPE_FORK_TO_MOVE, 1);
            if (threats)
                acc.add(DEFENDERS, ESCAPE_DISTANCE_2, 1);
            else if (king_moves & G::slide_reach(near1, b.pro_k, b.extra_k))
                acc.add(DEFENDERS, ESCAPE_DISTANCE_3, 1);
        }
    }
    return routes;
}

// The ring: the squares the king could reach in any number of moves if
// only the attackers stood in his way. Its first step gives the lines
// blocked by defenders only (a defender's move opens them). That step is
// filled only when it can matter: for the x-ray routes, when an escape
// square lies on the king's rank or file; for the flood, when the cache
// misses.
template <int N, typename Acc>
void ring_terms(const EvalBoard<N>& b, int routes, Acc& acc) {
    using G = Geo<N>;
    using B = typename G::B;
    const Edition& edition = b.edition;
    const B A = b.A, K = b.K, escape = b.escape;
    const B pro_x = G::board & ~A & ~B(edition.no_pass[KING]);
    const B extra_x = b.snp_k & ~A;
    RingEntry& entry = ring_entry(b.t, Bitboard(A));
    const bool cached =
        entry.free_escapes >= 0 && entry.attackers == Bitboard(A) && bool(B(entry.region) & K);
    const bool on_escape_line = bool(escape & G::lines_through(b.ks));
    B region = 0;
    if (on_escape_line || !cached) region = G::slide_reach(K, pro_x, extra_x) & (pro_x | extra_x);
    if (on_escape_line) {
        const B xray = region & ~B(edition.no_stop[KING]) & ~K & escape;
        acc.add(DEFENDERS, ESCAPE_XRAY_ROUTES, G::count(xray) - routes);
    }
    int free_escapes;
    if (cached) {
        free_escapes = entry.free_escapes;
    } else {
        // Grow until stable, or until every escape square not held by an
        // attacker is in (no later step could add one); with none
        // open, until stable (the room is counted).
        const B open_escapes = escape & (pro_x | extra_x);
        while (!open_escapes || (region & open_escapes) != open_escapes) {
            const B next = G::slide_reach(region, pro_x, extra_x) & (pro_x | extra_x);
            if (next == region) break;
            region = next;
        }
        free_escapes = G::count(region & escape);
        if (K & pro_x) entry = {Bitboard(A), Bitboard(region), free_escapes};
    }
    acc.add(DEFENDERS, ESCAPE_REGION, free_escapes);
    if (!free_escapes) {
        // Closed: the region (the cached one on a hit) is the whole
        // room, the flood having run until stable.
        const int room = G::count(cached ? B(entry.region) : region);
        acc.add(ATTACKERS, KING_ENCLOSED, 1);
        acc.add(ATTACKERS, KING_ROOM_SHRUNK, std::max(0, KING_ROOM_CAP - room));
    }
}

// Soldiers one move from capture: an anvil (a piece or hostile square that
// counts for the capture) on one side, and on the other an empty square
// the enemy can move to; and rows on the edge already faced by the enemy
// (shieldwalls).
template <int N, typename Acc>
void safety_terms(const EvalBoard<N>& b, Acc& acc) {
    using G = Geo<N>;
    using B = typename G::B;
    const Edition& edition = b.edition;
    const B A = b.A, D = b.D, K = b.K, empty = b.empty, reach_a = b.reach_a;
    const B anvil_vs_a = D | (edition.king_anvil ? K : B(0)) |
                         (empty & B(edition.hostile_empty[ATTACKER])) |
                         (A & B(edition.hostile_occupied[ATTACKER]));
    const B hammer_d = b.reach_d | (edition.king_hammer ? b.king_moves : B(0));
    const B exposed_a =
        A &
        ((G::south(anvil_vs_a) & G::north(hammer_d)) | (G::north(anvil_vs_a) & G::south(hammer_d)) |
         (G::west(anvil_vs_a) & G::east(hammer_d)) | (G::east(anvil_vs_a) & G::west(hammer_d)));
    acc.add(ATTACKERS, ATTACKER_EXPOSED, G::count(exposed_a));

    const B anvil_vs_d = A | (empty & B(edition.hostile_empty[DEFENDER])) |
                         ((D | K) & B(edition.hostile_occupied[DEFENDER]));
    const B exposed_d =
        D &
        ((G::south(anvil_vs_d) & G::north(reach_a)) | (G::north(anvil_vs_d) & G::south(reach_a)) |
         (G::west(anvil_vs_d) & G::east(reach_a)) | (G::east(anvil_vs_d) & G::west(reach_a)));
    acc.add(DEFENDERS, DEFENDER_EXPOSED, G::count(exposed_d));

    if (edition.rules.shieldwall != Shieldwall::NONE) {
        acc.add(ATTACKERS, ATTACKER_WALL_EXPOSED, G::count(G::edge_faced(A, A, D | K)));
        acc.add(DEFENDERS, DEFENDER_WALL_EXPOSED, G::count(G::edge_faced(D, D | K, A)));
    }
}

// Every term group, in the order they depend on each other: mobility
// gives the reach the king's capture threat and the safety terms read;
// the king's terms give the moves the escape and ring terms read.
template <int N, typename Acc>
void eval_terms(const Position& pos, Tables& t, Acc& acc) {
    EvalBoard<N> b(pos, t);
    material_terms(b, acc);
    mobility_terms(b, acc);
    guard_terms(b, acc);
    if (b.K) {
        const bool threat = king_terms(b, acc);
        const int routes = escape_terms(b, threat, acc);
        ring_terms(b, routes, acc);
    }
    safety_terms(b, acc);
}

// eval_terms for the board's size, one of MIN_SIZE..MAX_SIZE.
template <int N, typename Acc>
void run_sized(const Position& pos, Tables& t, Acc& acc) {
    if constexpr (N < MAX_SIZE)
        if (pos.size() != N) return run_sized<N + 1>(pos, t, acc);
    eval_terms<N>(pos, t, acc);
}

// The one code path of the evaluation and the trace.
template <typename Acc>
void run_eval(const Position& pos, Acc& acc) {
    Tables& t = tables_for(pos);
    run_sized<MIN_SIZE>(pos, t, acc);
}

inline Value clamp_eval(long long v) {
    return Value(std::clamp<long long>(v, -VALUE_EVAL_MAX, VALUE_EVAL_MAX));
}

} // namespace

Value evaluate(const Position& pos, const EvalParams& params) {
    ScoreAcc acc{params};
    run_eval(pos, acc);
    const int score = acc.score[ATTACKERS] - acc.score[DEFENDERS];
    return clamp_eval(pos.side_to_move() == ATTACKERS ? score : -score);
}

long long EvalTrace::raw(const EvalParams& params) const {
    long long sum = 0;
    for (int i = 0; i < PARAM_COUNT; ++i) sum += (long long)params.w[i] * coefficient(ParamId(i));
    return sum;
}

Value EvalTrace::value(const EvalParams& params) const {
    return clamp_eval(raw(params));
}

EvalTrace trace(const Position& pos) {
    EvalTrace t;
    TraceAcc acc{t};
    run_eval(pos, acc);
    t.sign = pos.side_to_move() == ATTACKERS ? 1 : -1;
    return t;
}

EvalBreakdown breakdown(const Position& pos, const EvalParams& params) {
    const EvalTrace t = trace(pos);
    EvalBreakdown b;
    for (int i = 0; i < EVAL_TERM_COUNT; ++i) b.terms[i] = {EvalTerm(i), term_name(EvalTerm(i))};
    const auto& table = param_table();
    for (int i = 0; i < PARAM_COUNT; ++i) {
        auto& term = b.terms[int(table[i].term)];
        term.attackers += params.w[i] * t.coef[i][ATTACKERS];
        term.defenders += params.w[i] * t.coef[i][DEFENDERS];
    }
    for (const auto& term : b.terms) {
        b.attackers += term.attackers;
        b.defenders += term.defenders;
    }
    b.attackers_view = clamp_eval(b.attackers - b.defenders);
    b.side_to_move = pos.side_to_move();
    b.value = b.side_to_move == ATTACKERS ? b.attackers_view : -b.attackers_view;
    return b;
}

std::string format_breakdown(const EvalBreakdown& b) {
    std::string out;
    char line[128];
    std::snprintf(line, sizeof line, "%-10s %10s %10s %10s\n", "term", "attackers", "defenders",
                  "difference");
    out += line;
    for (const auto& t : b.terms) {
        std::snprintf(line, sizeof line, "%-10s %10d %10d %+10d\n", t.name, t.attackers,
                      t.defenders, t.attackers - t.defenders);
        out += line;
    }
    std::snprintf(line, sizeof line, "%-10s %10d %10d %+10d\n", "total", b.attackers, b.defenders,
                  b.attackers - b.defenders);
    out += line;
    std::snprintf(line, sizeof line,
                  "evaluation %+d for the %s (to move); %+d for the attackers "
                  "(centi-soldiers)\n",
                  b.value, b.side_to_move == ATTACKERS ? "attackers" : "defenders",
                  b.attackers_view);
    out += line;
    return out;
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
