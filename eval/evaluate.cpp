#include "evaluate.h"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace branan {

namespace {

// Board geometry for whole-board shifts. Square s = rank * n + file, so a
// step north is a shift by n and a step east a shift by 1 that must not wrap
// from the last file into file a of the next rank.
struct Geometry {
    int n = 0;
    Bitboard board = 0;
    Bitboard not_file_a = 0;    // board minus file a: where an eastward step may land
    Bitboard not_file_last = 0; // board minus the last file: where a westward step may land
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

// Rook slides: every square reachable from some square of `gen` by sliding
// in one direction over squares of `pro` (gen itself included). Occluded
// fills by doubling steps (1, 2, 4, 8 cover the ten steps of an 11x11 line).
inline Bitboard slide_fill(Bitboard gen, Bitboard pro, const Geometry& g) {
    const int n = g.n;
    Bitboard e = gen, p = pro & g.not_file_a;
    e |= p & (e << 1);
    p &= p << 1;
    e |= p & (e << 2);
    p &= p << 2;
    e |= p & (e << 4);
    p &= p << 4;
    e |= p & (e << 8);

    Bitboard w = gen;
    p = pro & g.not_file_last;
    w |= p & (w >> 1);
    p &= p >> 1;
    w |= p & (w >> 2);
    p &= p >> 2;
    w |= p & (w >> 4);
    p &= p >> 4;
    w |= p & (w >> 8);

    Bitboard nn = gen;
    p = pro;
    nn |= p & (nn << n);
    p &= p << n;
    nn |= p & (nn << 2 * n);
    p &= p << 2 * n;
    nn |= p & (nn << 4 * n);
    p &= p << 4 * n;
    nn |= p & (nn << 8 * n);

    Bitboard s = gen;
    p = pro;
    s |= p & (s >> n);
    p &= p >> n;
    s |= p & (s >> 2 * n);
    p &= p >> 2 * n;
    s |= p & (s >> 4 * n);
    p &= p >> 4 * n;
    s |= p & (s >> 8 * n);

    return e | w | nn | s;
}

// What the evaluation derives once per Variant: geometry, the guard rings
// around the escape squares, the squares next to the throne and the number
// of soldiers at the start (for the phase).
struct Tables {
    VariantPtr variant; // held, so the address cannot be reused while cached
    Geometry g;
    Bitboard guard_adjacent = 0, guard_diagonal = 0, guard_second = 0;
    Bitboard throne_adjacent = 0;
    int start_soldiers = 0;
};

void build_tables(Tables& t, const VariantPtr& vp) {
    const Variant& v = *vp;
    t.variant = vp;
    Geometry& g = t.g;
    g.n = v.size;
    g.board = v.board;
    Bitboard file_a = 0, file_last = 0;
    for (int r = 0; r < v.size; ++r) {
        file_a |= square_bb(r * v.size);
        file_last |= square_bb(r * v.size + v.size - 1);
    }
    g.not_file_a = v.board & ~file_a;
    g.not_file_last = v.board & ~file_last;

    const Bitboard esc = v.escape;
    t.guard_adjacent = neighbours(esc, g) & ~esc;
    const Bitboard diag = north(east(esc, g), g) | north(west(esc, g), g) |
                          south(east(esc, g), g) | south(west(esc, g), g);
    t.guard_diagonal = diag & ~esc & ~t.guard_adjacent;
    const Bitboard two = north(north(esc, g), g) | south(south(esc, g), g) |
                         east(east(esc, g), g) | west(west(esc, g), g);
    t.guard_second = two & ~esc & ~t.guard_adjacent & ~t.guard_diagonal;
    t.throne_adjacent = neighbours(v.throne, g) & ~v.throne;
    t.start_soldiers = 0;
    for (Square s = 0; s < v.num_squares; ++s)
        t.start_soldiers += v.start[s] == ATTACKER || v.start[s] == DEFENDER;
}

inline const Tables& tables_for(const Position& pos) {
    thread_local Tables cache;
    if (cache.variant.get() != &pos.variant()) build_tables(cache, pos.variant_ptr());
    return cache;
}

// Accumulators: the plain evaluation adds weight * coefficient, the trace
// records the coefficient. Both run the same eval_terms below.
struct ScoreAcc {
    const EvalParams& params;
    int score[2] = {0, 0};
    void add(Side side, ParamId id, int coefficient) {
        score[side] += params.w[id] * coefficient;
    }
};

struct TraceAcc {
    EvalTrace& trace;
    void add(Side side, ParamId id, int coefficient) { trace.coef[id][side] += coefficient; }
};

template <typename Acc>
void eval_terms(const Position& pos, const Tables& t, Acc& acc) {
    const Variant& v = pos.variant();
    const Geometry& g = t.g;
    const Side stm = pos.side_to_move();
    const Bitboard A = pos.pieces(ATTACKER);
    const Bitboard D = pos.pieces(DEFENDER);
    const Square ks = pos.king_square();
    const Bitboard K = ks == NO_SQUARE ? Bitboard(0) : square_bb(ks);
    const Bitboard occ = pos.occupied();
    const Bitboard empty = v.board & ~occ;

    // Material, growing with the phase (soldiers already captured).
    const int na = popcount(A), nd = popcount(D);
    const int captured = std::max(0, t.start_soldiers - na - nd);
    acc.add(ATTACKERS, ATTACKER_PIECE, na);
    acc.add(DEFENDERS, DEFENDER_PIECE, nd);
    acc.add(ATTACKERS, ATTACKER_PIECE_LATE, na * captured);
    acc.add(DEFENDERS, DEFENDER_PIECE_LATE, nd * captured);
    acc.add(stm, SIDE_TO_MOVE, 1);

    // Where the soldiers of each side can move (union over the pieces).
    const Bitboard pro_a = empty & ~v.no_pass[ATTACKER];
    const Bitboard reach_a = slide_fill(A, pro_a, g) & pro_a & ~v.no_stop[ATTACKER];
    const Bitboard pro_d = empty & ~v.no_pass[DEFENDER];
    const Bitboard reach_d = slide_fill(D, pro_d, g) & pro_d & ~v.no_stop[DEFENDER];
    acc.add(ATTACKERS, ATTACKER_MOBILITY, popcount(reach_a));
    acc.add(DEFENDERS, DEFENDER_MOBILITY, popcount(reach_d));

    // Attacker structure: guards around the escape squares, diagonal links.
    acc.add(ATTACKERS, GUARD_ADJACENT, popcount(A & t.guard_adjacent));
    acc.add(ATTACKERS, GUARD_DIAGONAL, popcount(A & t.guard_diagonal));
    acc.add(ATTACKERS, GUARD_SECOND, popcount(A & t.guard_second));
    acc.add(ATTACKERS, ATTACKER_ON_ESCAPE, popcount(A & v.escape));
    acc.add(ATTACKERS, ATTACKER_DIAGONAL_LINK,
            popcount(A & north(east(A, g), g)) + popcount(A & north(west(A, g), g)));

    // The king's moves (his own square counts as empty once he leaves it).
    Bitboard king_moves = 0;
    if (K) {
        const Bitboard pro_k = (empty | K) & ~v.no_pass[KING];
        const Bitboard land_k = pro_k & ~v.no_stop[KING] & ~K;
        king_moves = slide_fill(K, pro_k, g) & land_k;
        acc.add(DEFENDERS, KING_MOBILITY, popcount(king_moves));

        // Free lines to escape squares.
        const int routes = popcount(king_moves & v.escape);
        if (routes) {
            if (stm == DEFENDERS)
                acc.add(DEFENDERS, ESCAPE_ROUTE_TO_MOVE, 1);
            else
                acc.add(DEFENDERS, routes >= 2 ? ESCAPE_ROUTES_TWO : ESCAPE_ROUTE_ONE, 1);
        }
        // Squares one king move from an escape square, and the distance in
        // king moves to the nearest escape square.
        const Bitboard near1 = slide_fill(v.escape & land_k, pro_k, g) & land_k;
        const Bitboard threats = king_moves & near1 & ~v.escape;
        acc.add(DEFENDERS, ESCAPE_THREAT_SQUARES, popcount(threats));
        if (!routes) {
            if (threats)
                acc.add(DEFENDERS, ESCAPE_DISTANCE_2, 1);
            else if (king_moves & slide_fill(near1, pro_k, g))
                acc.add(DEFENDERS, ESCAPE_DISTANCE_3, 1);
        }
        // Lines blocked by defenders only: a defender's move opens them.
        const Bitboard pro_x = v.board & ~A & ~v.no_pass[KING];
        const Bitboard xray = slide_fill(K, pro_x, g) & pro_x & ~v.no_stop[KING] & v.escape;
        acc.add(DEFENDERS, ESCAPE_XRAY_ROUTES, popcount(xray) - routes);

        // The ring: escape squares the king could still reach if only the
        // attackers stood in his way.
        Bitboard region = K;
        for (;;) {
            const Bitboard next = slide_fill(region, pro_x, g) & (pro_x | K);
            if (next == region) break;
            region = next;
        }
        const int free_escapes = popcount(region & v.escape);
        acc.add(DEFENDERS, ESCAPE_REGION, free_escapes);
        if (!free_escapes) acc.add(ATTACKERS, KING_ENCLOSED, 1);

        // Next to the king.
        const Bitboard adj = neighbours(K, g);
        const Bitboard hostile =
            (empty & v.hostile_empty[KING]) | (occ & ~A & v.hostile_occupied[KING]);
        const int off_board = v.edge_captures_king ? 4 - popcount(adj) : 0;
        acc.add(ATTACKERS, KING_ADJACENT_ATTACKER, popcount(adj & A));
        acc.add(ATTACKERS, KING_ADJACENT_HOSTILE, popcount(adj & hostile) + off_board);
        acc.add(DEFENDERS, KING_ADJACENT_DEFENDER, popcount(adj & D));
        if (K & v.throne) acc.add(DEFENDERS, KING_ON_THRONE, 1);
        if (K & t.throne_adjacent) acc.add(DEFENDERS, KING_BESIDE_THRONE, 1);

        // Can an attacker capture the king with one move? A side is
        // "covered" when it already counts for the capture.
        const bool strong = test(v.king_strong, ks);
        bool covered[4], reachable[4];
        int uncovered = 0;
        for (int d = 0; d < 4; ++d) {
            const int nb = v.neighbour[ks][d];
            if (nb == NO_SQUARE) {
                covered[d] = strong && v.edge_captures_king;
                reachable[d] = false;
            } else {
                covered[d] = test(A | (adj & hostile), nb);
                reachable[d] = test(reach_a, nb);
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
            acc.add(ATTACKERS, stm == ATTACKERS ? KING_CAPTURE_THREAT : KING_CAPTURE_THREAT_DEFER,
                    1);
    }

    // Soldiers one move from capture: an anvil (a piece or hostile square
    // that counts for the capture) on one side, and on the other an empty
    // square the enemy can move to.
    const Bitboard anvil_vs_a = D | (v.king_anvil ? K : Bitboard(0)) |
                                (empty & v.hostile_empty[ATTACKER]) |
                                (A & v.hostile_occupied[ATTACKER]);
    const Bitboard hammer_d = reach_d | (v.king_hammer ? king_moves : Bitboard(0));
    const Bitboard exposed_a =
        A & ((south(anvil_vs_a, g) & north(hammer_d, g)) | (north(anvil_vs_a, g) & south(hammer_d, g)) |
             (west(anvil_vs_a, g) & east(hammer_d, g)) | (east(anvil_vs_a, g) & west(hammer_d, g)));
    acc.add(ATTACKERS, ATTACKER_EXPOSED, popcount(exposed_a));

    const Bitboard anvil_vs_d =
        A | (empty & v.hostile_empty[DEFENDER]) | ((D | K) & v.hostile_occupied[DEFENDER]);
    const Bitboard exposed_d =
        D & ((south(anvil_vs_d, g) & north(reach_a, g)) | (north(anvil_vs_d, g) & south(reach_a, g)) |
             (west(anvil_vs_d, g) & east(reach_a, g)) | (east(anvil_vs_d, g) & west(reach_a, g)));
    acc.add(DEFENDERS, DEFENDER_EXPOSED, popcount(exposed_d));
}

inline Value clamp_eval(long long v) {
    return Value(std::clamp<long long>(v, -VALUE_EVAL_MAX, VALUE_EVAL_MAX));
}

} // namespace

Value evaluate(const Position& pos, const EvalParams& params) {
    ScoreAcc acc{params};
    eval_terms(pos, tables_for(pos), acc);
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
    eval_terms(pos, tables_for(pos), acc);
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
        std::snprintf(line, sizeof line, "%-10s %10d %10d %+10d\n", t.name, t.attackers, t.defenders,
                      t.attackers - t.defenders);
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

} // namespace branan
