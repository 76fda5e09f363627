#include "variant.h"

#include "notation.h"
#include "position.h"

namespace branan {

uint16_t LineReach[MAX_SIZE][1 << (MAX_SIZE + 1)];

namespace {

struct LineReachInit {
    LineReachInit() {
        for (int from = 0; from < MAX_SIZE; ++from)
            for (unsigned occ = 0; occ < (1u << (MAX_SIZE + 1)); ++occ) {
                uint16_t reach = 0;
                for (int s = from + 1; s < MAX_SIZE && !((occ >> s) & 1); ++s) reach |= 1 << s;
                for (int s = from - 1; s >= 0 && !((occ >> s) & 1); --s) reach |= 1 << s;
                LineReach[from][occ] = reach;
            }
    }
} line_reach_init;

Bitboard transpose(const Variant& v, Bitboard b) {
    Bitboard t = 0;
    for_each_square(b, [&](Square s) { t |= square_bb(v.transposed[s]); });
    return t;
}

// Fills ternary and line_counts (see Variant), after the line masks.
void build_line_counts(Variant& v) {
    const int n = v.size;
    const unsigned line_states = 1u << n;
    uint32_t table_size = 1;
    for (int i = 0; i < n; ++i) table_size *= 3;
    v.ternary.assign(line_states, 0);
    for (unsigned bits = 0; bits < line_states; ++bits) {
        uint32_t t = 0, power = 1;
        for (int i = 0; i < n; ++i, power *= 3)
            if ((bits >> i) & 1) t += power;
        v.ternary[bits] = t;
    }

    // What the moves along a line depend on besides its contents: its
    // masks, and the camp squares a piece on each square may use.
    struct LineKind {
        uint16_t wall, no_stop, stop_not_pass;
        std::array<uint16_t, MAX_SIZE> camp{};
        bool operator==(const LineKind&) const = default;
    };
    std::vector<LineKind> kinds;
    auto table_for = [&](LineKind k) -> uint32_t {
        for (size_t i = 0; i < kinds.size(); ++i)
            if (kinds[i] == k) return uint32_t(i * table_size);
        kinds.push_back(k);
        const size_t base = v.line_counts.size();
        v.line_counts.resize(base + table_size);
        uint8_t* table = v.line_counts.data() + base;
        for (unsigned occ = 0; occ < line_states; ++occ) {
            int moves_from[MAX_SIZE] = {};
            for (int s = 0; s < n; ++s)
                if ((occ >> s) & 1) {
                    const unsigned camp = k.camp[s];
                    moves_from[s] = std::popcount(line_moves(
                        s, occ, k.wall & ~camp, k.no_stop & ~camp, k.stop_not_pass & ~camp));
                }
            // Every subset of the occupied squares as the soldiers counted.
            for (unsigned own = occ;; own = (own - 1) & occ) {
                int count = 0;
                for (unsigned b = own; b; b &= b - 1) count += moves_from[std::countr_zero(b)];
                table[v.ternary[occ] + v.ternary[own]] = uint8_t(count);
                if (own == 0) break;
            }
        }
        return uint32_t(base);
    };
    for (Piece p : {ATTACKER, DEFENDER})
        for (int i = 0; i < n; ++i) {
            LineKind rank{v.wall_rank[p][i], v.no_stop_rank[p][i], v.stop_not_pass_rank[p][i]};
            LineKind file{v.wall_file[p][i], v.no_stop_file[p][i], v.stop_not_pass_file[p][i]};
            for (int j = 0; j < n; ++j) {
                rank.camp[j] = v.camp_rank[p][v.square(j, i)];
                file.camp[j] = v.camp_file[p][v.square(i, j)];
            }
            v.count_table[p][rank_line(i)] = table_for(rank);
            v.count_table[p][file_line(i)] = table_for(file);
        }
}

} // namespace

Result<std::shared_ptr<const Variant>> Variant::make(const Rules& rules) {
    if (rules.size < MIN_SIZE || rules.size > MAX_SIZE)
        return Error{"rules: board size " + std::to_string(rules.size) + " is not supported"};

    auto v = std::make_shared<Variant>();
    v->rules = rules;
    const int n = rules.size;
    v->size = n;
    v->num_squares = n * n;
    v->line_mask = (1u << n) - 1;

    for (Square s = 0; s < n * n; ++s) {
        int f = s % n, r = s / n;
        v->board |= square_bb(s);
        if (f == 0 || r == 0 || f == n - 1 || r == n - 1) v->edges |= square_bb(s);
        v->transposed[s] = uint8_t(f * n + r);
        v->file[s] = uint8_t(f);
        v->rank[s] = uint8_t(r);
        v->neighbour[s][NORTH] = int8_t(r + 1 < n ? s + n : NO_SQUARE);
        v->neighbour[s][SOUTH] = int8_t(r > 0 ? s - n : NO_SQUARE);
        v->neighbour[s][EAST] = int8_t(f + 1 < n ? s + 1 : NO_SQUARE);
        v->neighbour[s][WEST] = int8_t(f > 0 ? s - 1 : NO_SQUARE);
        for (int d = 0; d < 4; ++d)
            if (v->neighbour[s][d] != NO_SQUARE) v->adjacent[s] |= square_bb(v->neighbour[s][d]);
        if (f == 0) v->first_file |= square_bb(s);
        if (f == n - 1) v->last_file |= square_bb(s);
    }

    for (int sk = 0; sk < SPECIAL_KINDS; ++sk) {
        const SpecialSquares& sp = rules.special[sk];
        for (Square s : sp.squares) {
            if (s < 0 || s >= n * n) return Error{"rules: special square off the board"};
            Bitboard b = square_bb(s);
            if (sk == THRONE) v->throne |= b;
            if (sk == CORNER) v->corners |= b;
            for (Piece p : {ATTACKER, DEFENDER, KING}) {
                // A piece moving onto a special square is never already on
                // it, so stopping there needs both "stop" and "re-enter".
                if (!contains(sp.may_stop, p) || !contains(sp.may_reenter, p)) v->no_stop[p] |= b;
                if (!contains(sp.may_pass, p)) v->no_pass[p] |= b;
                if (contains(sp.hostile_empty, p)) v->hostile_empty[p] |= b;
                if (contains(sp.hostile_occupied, p)) v->hostile_occupied[p] |= b;
            }
        }
    }
    for (Piece p : {ATTACKER, DEFENDER, KING}) {
        v->no_stop_t[p] = transpose(*v, v->no_stop[p]);
        v->no_pass_t[p] = transpose(*v, v->no_pass[p]);
        // A square a piece may not pass but may stop on would need a special
        // case in the line lookups; no OpenTafl game has one.
        for_each_square(v->no_stop[p], [&](Square s) {
            v->no_stop_rank[p][s / n] |= uint16_t(1 << (s % n));
            v->no_stop_file[p][s % n] |= uint16_t(1 << (s / n));
        });
        for (int i = 0; i < n; ++i) v->wall_rank[p][i] = v->wall_file[p][i] = uint16_t(1 << n);
        for_each_square(v->no_pass[p], [&](Square s) {
            v->wall_rank[p][s / n] |= uint16_t(1 << (s % n));
            v->wall_file[p][s % n] |= uint16_t(1 << (s / n));
        });
        const Bitboard stop_not_pass = v->no_pass[p] & ~v->no_stop[p];
        for_each_square(stop_not_pass, [&](Square s) {
            v->stop_not_pass_rank[p][s / n] |= uint16_t(1 << (s % n));
            v->stop_not_pass_file[p][s % n] |= uint16_t(1 << (s / n));
        });
    }

    for (Square s : rules.camps) {
        if (s < 0 || s >= n * n) return Error{"rules: camp square off the board"};
        v->camps |= square_bb(s);
    }
    for_each_square(v->camps, [&](Square s) {
        // The camp of s: a flood through camp squares.
        Bitboard region = square_bb(s);
        while (true) {
            const Bitboard grown = (region | v->neighbours(region)) & v->camps;
            if (grown == region) break;
            region = grown;
        }
        v->camp_region[s] = region;
        for (Piece p : {ATTACKER, DEFENDER, KING}) {
            if (!contains(rules.camp_users, p)) continue;
            for_each_square(region, [&](Square c) {
                if (v->rank[c] == v->rank[s]) v->camp_rank[p][s] |= uint16_t(1 << v->file[c]);
                if (v->file[c] == v->file[s]) v->camp_file[p][s] |= uint16_t(1 << v->rank[c]);
            });
        }
    });

    build_line_counts(*v);

    v->escape = rules.escape == EscapeType::CORNER ? v->corners : v->edges;

    switch (rules.king_strength) {
    case KingStrength::STRONG:
        v->king_strong = v->board;
        break;
    case KingStrength::WEAK:
        v->king_strong = 0;
        break;
    case KingStrength::STRONG_ON_THRONE:
        v->king_strong = v->throne;
        break;
    case KingStrength::STRONG_NOT_EDGE:
        v->king_strong = v->board;
        v->edge_captures_king = true;
        break;
    case KingStrength::STRONG_NEAR_THRONE:
        v->king_strong = v->throne;
        for_each_square(v->throne, [&](Square t) {
            for (int d = 0; d < 4; ++d)
                if (v->neighbour[t][d] != NO_SQUARE)
                    v->king_strong |= square_bb(v->neighbour[t][d]);
        });
        break;
    }
    v->king_hammer =
        rules.king_armed == KingArmed::YES || rules.king_armed == KingArmed::HAMMER_ONLY;
    v->ends_by_shape = rules.no_defender_room_loses || rules.encirclement || rules.edge_fort;
    v->king_anvil = rules.king_armed == KingArmed::YES || rules.king_armed == KingArmed::ANVIL_ONLY;

    auto placement = parse_opentafl_placement(n, rules.start);
    if (!placement) return Error{"rules: start: " + placement.error()};
    v->start = *placement;
    if (Status st = validate_placement(*v, v->start); !st)
        return Error{"rules: start: " + st.error()};
    v->start_side = rules.attackers_first ? ATTACKERS : DEFENDERS;
    return std::shared_ptr<const Variant>(std::move(v));
}

} // namespace branan
