#include "edition.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "notation.h"
#include "position.h"
#include "rules_keys.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {

Bitboard transpose(const Edition& edition, Bitboard b) {
    Bitboard t = 0;
    for_each_square(b, [&](Square s) { t |= square_bb(edition.transposed[s]); });
    return t;
}

// Fills ternary and line_counts (see Edition), after the line masks.
void build_line_counts(Edition& edition) {
    const int n = edition.size;
    const unsigned line_states = 1u << n;
    uint32_t table_size = 1;
    for (int i = 0; i < n; ++i) table_size *= 3;
    edition.ternary.assign(line_states, 0);
    for (unsigned bits = 0; bits < line_states; ++bits) {
        uint32_t t = 0, power = 1;
        for (int i = 0; i < n; ++i, power *= 3)
            if ((bits >> i) & 1) t += power;
        edition.ternary[bits] = t;
    }

    // What the moves along a line depend on besides its contents: the
    // masks of a piece on each of its squares.
    struct LineKind {
        std::array<Edition::LineMasks, MAX_SIZE> at{};
        bool operator==(const LineKind&) const = default;
    };
    std::vector<LineKind> kinds;
    auto table_for = [&](LineKind k) -> uint32_t {
        for (size_t i = 0; i < kinds.size(); ++i)
            if (kinds[i] == k) return uint32_t(i * table_size);
        kinds.push_back(k);
        const size_t base = edition.line_counts.size();
        edition.line_counts.resize(base + table_size);
        uint8_t* table = edition.line_counts.data() + base;
        for (unsigned occ = 0; occ < line_states; ++occ) {
            int moves_from[MAX_SIZE] = {};
            for (int s = 0; s < n; ++s)
                if ((occ >> s) & 1) moves_from[s] = std::popcount(line_moves(s, occ, k.at[s]));
            // Every subset of the occupied squares as the soldiers counted.
            for (unsigned own = occ;; own = (own - 1) & occ) {
                int count = 0;
                for (unsigned b = own; b; b &= b - 1) count += moves_from[std::countr_zero(b)];
                table[edition.ternary[occ] + edition.ternary[own]] = uint8_t(count);
                if (own == 0) break;
            }
        }
        return uint32_t(base);
    };
    for (Piece p : {ATTACKER, DEFENDER})
        for (int i = 0; i < n; ++i) {
            LineKind rank, file;
            for (int j = 0; j < n; ++j) {
                rank.at[j] = edition.rank_masks[p][edition.square(j, i)];
                file.at[j] = edition.file_masks[p][edition.square(i, j)];
            }
            edition.count_table[p][rank_line(i)] = table_for(rank);
            edition.count_table[p][file_line(i)] = table_for(file);
        }
}

} // namespace

bool Edition::held_on_both_axes(Bitboard pieces, Bitboard safe) const {
    bool held = true;
    for_each_square(pieces, [&](Square s) {
        for (int axis : {NORTH, EAST}) {
            const int a = neighbour[s][axis], b = neighbour[s][axis + 2];
            if (!(a == NO_SQUARE || b == NO_SQUARE || test(safe, a) || test(safe, b))) held = false;
        }
    });
    return held;
}

Result<std::shared_ptr<const Edition>> Edition::make(const Rules& rules) {
    // The editions made last, most recent first: hosts and tests start game
    // after game under a few rules, and a game's edition may be gone before
    // the next game asks for the same rules. A few, for memory: a 13x13
    // edition's line tables take megabytes.
    constexpr size_t KEPT = 4;
    static std::mutex mutex;
    static std::vector<std::shared_ptr<const Edition>> recent;
    {
        std::lock_guard lock(mutex);
        for (size_t i = 0; i < recent.size(); ++i)
            if (recent[i]->rules == rules) {
                std::rotate(recent.begin(), recent.begin() + long(i), recent.begin() + long(i) + 1);
                return recent.front();
            }
    }
    auto made = build(rules);
    if (made) {
        std::lock_guard lock(mutex);
        recent.insert(recent.begin(), *made);
        if (recent.size() > KEPT) recent.pop_back();
    }
    return made;
}

Result<std::shared_ptr<const Edition>> Edition::build(const Rules& rules) {
    if (Status st = check_supported(rules); !st) return Error{"rules: " + st.error()};
    // This width's boards (a game runs on the narrowest that holds it).
    if (rules.size > MAX_SIZE)
        return Error{"rules: board size " + std::to_string(rules.size) + " is not supported"};

    auto edition = std::make_shared<Edition>();
    edition->rules = rules;
    const int n = rules.size;
    edition->size = n;
    edition->num_squares = n * n;
    edition->line_mask = (1u << n) - 1;

    for (Square s = 0; s < n * n; ++s) {
        int f = s % n, r = s / n;
        edition->board |= square_bb(s);
        if (f == 0 || r == 0 || f == n - 1 || r == n - 1) edition->edges |= square_bb(s);
        edition->transposed[s] = uint16_t(f * n + r);
        edition->file[s] = uint8_t(f);
        edition->rank[s] = uint8_t(r);
        edition->neighbour[s][NORTH] = SquareIndex(r + 1 < n ? s + n : NO_SQUARE);
        edition->neighbour[s][SOUTH] = SquareIndex(r > 0 ? s - n : NO_SQUARE);
        edition->neighbour[s][EAST] = SquareIndex(f + 1 < n ? s + 1 : NO_SQUARE);
        edition->neighbour[s][WEST] = SquareIndex(f > 0 ? s - 1 : NO_SQUARE);
        for (int d = 0; d < 4; ++d)
            if (edition->neighbour[s][d] != NO_SQUARE)
                edition->adjacent[s] |= square_bb(edition->neighbour[s][d]);
        if (f == 0) edition->first_file |= square_bb(s);
        if (f == n - 1) edition->last_file |= square_bb(s);
    }

    for (Square s : rules.camps) {
        if (s < 0 || s >= n * n) return Error{"rules: camp square off the board"};
        edition->camps |= square_bb(s);
    }
    for_each_square(edition->camps, [&](Square s) {
        edition->camp_region[s] = edition->flood(square_bb(s), edition->camps);
    });

    Bitboard kind_squares[SPECIAL_KINDS] = {};
    for (int sk = 0; sk < SPECIAL_KINDS; ++sk) {
        const SpecialSquares& sp = rules.special[sk];
        for (Square s : sp.squares) {
            if (s < 0 || s >= n * n) return Error{"rules: special square off the board"};
            Bitboard b = square_bb(s);
            kind_squares[sk] |= b;
            if (sk == THRONE) edition->throne |= b;
            if (sk == CORNER) edition->corners |= b;
            for (Piece p : {ATTACKER, DEFENDER, KING}) {
                if (contains(sp.hostile_empty, p)) edition->hostile_empty[p] |= b;
                if (contains(sp.hostile_occupied, p)) edition->hostile_occupied[p] |= b;
            }
        }
    }

    // Whether a piece of kind p standing on `origin` (NO_SQUARE: arriving
    // from off every special square) may stop on / pass over square q. A
    // kind whose re-entry list lacks p lets p use its squares only while p
    // stands on one of them (OpenTafl's reading); a camp user may always use
    // the squares of its own camp.
    auto may = [&](Piece p, Square origin, Square q, bool stop) {
        if (origin != NO_SQUARE && contains(rules.camp_users, p) &&
            test(edition->camp_region[origin], q))
            return true;
        for (int sk = 0; sk < SPECIAL_KINDS; ++sk) {
            if (!test(kind_squares[sk], q)) continue;
            const SpecialSquares& sp = rules.special[sk];
            if (!contains(stop ? sp.may_stop : sp.may_pass, p)) return false;
            const bool inside = origin != NO_SQUARE && test(kind_squares[sk], origin);
            if (!contains(sp.may_reenter, p) && !inside) return false;
        }
        return true;
    };
    for (Piece p : {ATTACKER, DEFENDER, KING}) {
        for (Square q = 0; q < n * n; ++q) {
            if (!may(p, NO_SQUARE, q, true)) edition->no_stop[p] |= square_bb(q);
            if (!may(p, NO_SQUARE, q, false)) edition->no_pass[p] |= square_bb(q);
        }
        edition->no_stop_t[p] = transpose(*edition, edition->no_stop[p]);
        edition->no_pass_t[p] = transpose(*edition, edition->no_pass[p]);
        edition->stop_somewhere[p] = edition->board & ~edition->no_stop[p];
        const int speed = rules.speed[p];
        for (Square s = 0; s < n * n; ++s) {
            // The masks of the rank (line 0) and the file (line 1) through
            // s, bit i for the i-th square of the line.
            LineMasks lines[2];
            bool differs = speed > 0;
            for (int line = 0; line < 2; ++line) {
                LineMasks& m = lines[line];
                m.wall = LineBits(1 << n);
                const int at = line == 0 ? edition->file[s] : edition->rank[s];
                for (int i = 0; i < n; ++i) {
                    const Square q = line == 0 ? edition->square(i, edition->rank[s])
                                               : edition->square(edition->file[s], i);
                    const bool in_range = speed <= 0 || std::abs(i - at) <= speed;
                    const bool stop = in_range && may(p, s, q, true);
                    const bool pass = in_range && may(p, s, q, false);
                    if (!pass) m.wall |= LineBits(1 << i);
                    if (!stop) m.no_stop |= LineBits(1 << i);
                    if (stop && !pass) m.stop_not_pass |= LineBits(1 << i);
                    if (stop) edition->stop_somewhere[p] |= square_bb(q);
                    differs |= may(p, s, q, true) != may(p, NO_SQUARE, q, true) ||
                               may(p, s, q, false) != may(p, NO_SQUARE, q, false);
                }
            }
            edition->rank_masks[p][s] = lines[0];
            edition->file_masks[p][s] = lines[1];
            if (may(p, s, s, true)) edition->may_stand[p] |= square_bb(s);
            // A piece on s moves otherwise than the masks of a piece
            // arriving from outside say (the evaluation's fills).
            if (differs) edition->special_origin[p] |= square_bb(s);
        }
    }

    if (edition->size <= LINE_COUNT_MAX_SIZE) build_line_counts(*edition);

    edition->king_steps_anywhere = true;
    for (Square s = 0; s < n * n; ++s)
        for (int line = 0; line < 2; ++line) {
            const LineMasks& m =
                line == 0 ? edition->rank_masks[KING][s] : edition->file_masks[KING][s];
            const int at = line == 0 ? edition->file[s] : edition->rank[s];
            for (int t : {at - 1, at + 1}) {
                if (t < 0 || t >= n) continue;
                // One step onto an empty square, the rest of the line full.
                const unsigned bit = 1u << t;
                const bool step =
                    (!(m.wall & bit) && !(m.no_stop & bit)) || (m.stop_not_pass & bit);
                if (!step) edition->king_steps_anywhere = false;
            }
        }

    edition->escape = rules.escape == EscapeType::CORNER ? edition->corners : edition->edges;

    switch (rules.king_strength) {
    case KingStrength::STRONG:
        edition->king_strong = edition->board;
        break;
    case KingStrength::WEAK:
        edition->king_strong = 0;
        break;
    case KingStrength::STRONG_ON_THRONE:
        edition->king_strong = edition->throne;
        break;
    case KingStrength::STRONG_NOT_EDGE:
        edition->king_strong = edition->board;
        edition->edge_captures_king = true;
        break;
    case KingStrength::STRONG_NEAR_THRONE:
        edition->king_strong = edition->throne;
        for_each_square(edition->throne, [&](Square t) {
            for (int d = 0; d < 4; ++d)
                if (edition->neighbour[t][d] != NO_SQUARE)
                    edition->king_strong |= square_bb(edition->neighbour[t][d]);
        });
        break;
    }
    edition->king_hammer =
        rules.king_armed == KingArmed::YES || rules.king_armed == KingArmed::HAMMER_ONLY;
    edition->ends_by_shape = rules.no_defender_room_loses || rules.encirclement ||
                             rules.edge_fort || rules.cannot_escape || rules.draw_ply > 0;
    edition->king_anvil =
        rules.king_armed == KingArmed::YES || rules.king_armed == KingArmed::ANVIL_ONLY;

    auto placement = parse_opentafl_placement(n, rules.start);
    if (!placement) return Error{"rules: start: " + placement.error()};
    edition->start = *placement;
    if (Status st = validate_placement(*edition, edition->start); !st)
        return Error{"rules: start: " + st.error()};
    edition->start_side = rules.attackers_first ? ATTACKERS : DEFENDERS;
    for (Square s = 0; s < n * n; ++s)
        if (edition->start[s] > KING) edition->commanded[side_of(edition->start[s])] = true;
    for (const SpecialSquares& kind : rules.special)
        for (Square s : kind.squares) edition->special_squares |= square_bb(s);
    edition->special_moves = edition->commanded[ATTACKERS] || edition->commanded[DEFENDERS] ||
                             rules.king_jump != Jump::NONE || rules.berserk != Berserk::NONE;
    return std::shared_ptr<const Edition>(std::move(edition));
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
