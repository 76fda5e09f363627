#pragma once

// hnefatafl.org's rules (HNEFATAFL.md 1.1-1.8 column ORG, 3.3 for 13x13 and
// 5 for 7x7),
// written square by square from that text and nothing of the engine: no
// Edition, no bitboards, no shared shieldwall/fort/adjudication code. The
// tests hold the engine's `hnefatafl-org` presets against it.
//
// Squares are rank * n + file, rank 0 = row 1 (as the engine numbers them,
// so that moves can be compared directly). Where hnefatafl.org's scans
// depend on an order (the shieldwall scan, the exit fort's stack), they are
// run in its order: its rows count from the top, so its "up" is our rank + 1.

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace branan::orgmodel {

enum class End : uint8_t {
    NONE,
    ESCAPED,       // king on a corner: defenders
    KING_CAPTURED, // attackers
    FORT,          // exit fort: defenders
    ENCIRCLED,     // attackers
    NO_ATTACKERS,  // defenders
    PLY_LIMIT,     // draw
    CANNOT_ESCAPE, // the 1.6 adjudication: attackers
    NO_MOVES,      // the side to move loses
};

// 'a' attackers, 'd' defenders, '=' draw, 0 none.
inline char winner_of(End e, bool defenders_to_move) {
    switch (e) {
    case End::NONE:
        return 0;
    case End::ESCAPED:
    case End::FORT:
    case End::NO_ATTACKERS:
        return 'd';
    case End::KING_CAPTURED:
    case End::ENCIRCLED:
    case End::CANNOT_ESCAPE:
        return 'a';
    case End::PLY_LIMIT:
        return '=';
    case End::NO_MOVES:
        return defenders_to_move ? 'a' : 'd';
    }
    return 0;
}

struct OrgGame {
    // 't' attacker, 'T' defender, 'K' king, '.' empty.
    int n = 11;
    std::string board;
    bool defenders_to_move = false;
    int ply = 0;            // plies played
    int ply_draw = 133;     // the ply (1-based) that draws
    End end = End::NONE;    // set by play (NO_MOVES by moves_or_end)
    std::vector<int> taken; // soldiers the last move captured
    bool wall_capture = false;

    // The repetition ban list: boards after each move (and the start board
    // when `start_banned`), as counts so that perft can take moves back.
    std::unordered_map<std::string, int> seen;
    std::vector<std::string> seen_order;

    static OrgGame start(int n, bool start_banned, int ply_draw) {
        static const char* const RANKS_11[11] = {"...ttttt...", ".....t.....", "...........",
                                                 "t....T....t", "t...TTT...t", "tt.TTKTT.tt",
                                                 "t...TTT...t", "t....T....t", "...........",
                                                 ".....t.....", "...ttttt..."};
        static const char* const RANKS_7[7] = {"...t...", "...t...", "...T...", "ttTKTtt",
                                               "...T...", "...t...", "...t..."};
        // HNEFATAFL.md 3.3.
        static const char* const RANKS_13[13] = {
            "...ttttttt...", "......t......", ".............", "t.....T.....t", "t.....T.....t",
            "t....TTT....t", "tt.TTTKTTT.tt", "t....TTT....t", "t.....T.....t", "t.....T.....t",
            ".............", "......t......", "...ttttttt..."};
        std::vector<std::string> top_first;
        for (int i = 0; i < n; ++i)
            top_first.push_back(n == 13 ? RANKS_13[i] : n == 11 ? RANKS_11[i] : RANKS_7[i]);
        OrgGame g = from_ranks(top_first, n == 7);
        g.ply_draw = ply_draw;
        if (start_banned) g.remember();
        return g;
    }

    // A board from its ranks, top rank first; no history.
    static OrgGame from_ranks(const std::vector<std::string>& top_first, bool defenders_first) {
        OrgGame g;
        g.n = int(top_first.size());
        g.board.assign(g.n * g.n, '.');
        for (int r = 0; r < g.n; ++r)
            for (int f = 0; f < g.n; ++f) g.board[r * g.n + f] = top_first[g.n - 1 - r][f];
        g.defenders_to_move = defenders_first;
        return g;
    }

    // --- geometry -------------------------------------------------------

    bool on(int f, int r) const { return f >= 0 && r >= 0 && f < n && r < n; }
    int idx(int f, int r) const { return r * n + f; }
    char at(int f, int r) const { return board[idx(f, r)]; }
    bool corner(int f, int r) const { return (f == 0 || f == n - 1) && (r == 0 || r == n - 1); }
    bool throne(int f, int r) const { return f == n / 2 && r == n / 2; }
    bool restricted(int f, int r) const { return corner(f, r) || throne(f, r); }
    bool edge(int f, int r) const { return f == 0 || r == 0 || f == n - 1 || r == n - 1; }
    // 'a', 'd' (the king is a defender) or 0.
    static char side(char c) { return c == 't' ? 'a' : (c == 'T' || c == 'K') ? 'd' : 0; }
    char side_at(int f, int r) const { return on(f, r) ? side(at(f, r)) : 0; }
    int count(char c) const {
        int k = 0;
        for (char x : board) k += x == c;
        return k;
    }
    int king() const { return int(board.find('K')); }

    void remember() {
        if (seen[board]++ == 0) seen_order.push_back(board);
    }

    // --- 1.1 movement and 1.5 the ban -------------------------------------

    // The legal moves; `banned` (if given) receives the defender moves the
    // ban refused.
    std::vector<std::pair<int, int>>
    moves(std::vector<std::pair<int, int>>* banned = nullptr) const {
        std::vector<std::pair<int, int>> out;
        if (end != End::NONE) return out;
        const char me = defenders_to_move ? 'd' : 'a';
        static const int DF[4] = {0, -1, 0, 1}, DR[4] = {1, 0, -1, 0};
        std::string after = board;
        for (int r = 0; r < n; ++r)
            for (int f = 0; f < n; ++f) {
                const char p = at(f, r);
                if (side(p) != me) continue;
                for (int d = 0; d < 4; ++d)
                    for (int tf = f + DF[d], tr = r + DR[d]; on(tf, tr) && at(tf, tr) == '.';
                         tf += DF[d], tr += DR[d]) {
                        // Anyone passes the empty throne; only the king stops there
                        // or on a corner.
                        if (p != 'K' && restricted(tf, tr)) continue;
                        if (me == 'd') {
                            after[idx(tf, tr)] = p;
                            after[idx(f, r)] = '.';
                            const bool repeats = seen.count(after) > 0;
                            after[idx(tf, tr)] = '.';
                            after[idx(f, r)] = p;
                            if (repeats) {
                                if (banned) banned->push_back({idx(f, r), idx(tf, tr)});
                                continue;
                            }
                        }
                        out.push_back({idx(f, r), idx(tf, tr)});
                    }
            }
        return out;
    }

    // The legal moves; with none, the game ends here (the side to move loses).
    std::vector<std::pair<int, int>>
    moves_or_end(std::vector<std::pair<int, int>>* banned = nullptr) {
        auto m = moves(banned);
        if (end == End::NONE && m.empty()) end = End::NO_MOVES;
        return m;
    }

    char winner() const { return winner_of(end, defenders_to_move); }

    // --- making a move ----------------------------------------------------

    struct Undo {
        std::string board;
        bool defenders_to_move;
        int ply;
        End end;
    };

    // Plays a legal move and sets `end` (all ends but NO_MOVES, which needs
    // the next side's moves: see moves_or_end).
    Undo play(int from, int to) {
        Undo u{board, defenders_to_move, ply, end};
        const char p = board[from];
        const char me = side(p);
        board[to] = p;
        board[from] = '.';
        taken.clear();
        wall_capture = false;
        const int tf = to % n, tr = to / n;
        custodial(tf, tr, me);
        const size_t custodial_count = taken.size();
        shieldwall(tf, tr, me);
        wall_capture = taken.size() > custodial_count;
        ++ply;
        end = ends_after(tf, tr, me);
        remember();
        defenders_to_move = !defenders_to_move;
        return u;
    }

    // What a move would capture (custodial and shieldwall), without making it.
    int captures_if(int from, int to) {
        const std::string before = board;
        const std::vector<int> kept = taken;
        const char p = board[from];
        board[to] = p;
        board[from] = '.';
        taken.clear();
        custodial(to % n, to / n, side(p));
        shieldwall(to % n, to / n, side(p));
        const int k = int(taken.size());
        board = before;
        taken = kept;
        return k;
    }

    void undo(const Undo& u) {
        auto it = seen.find(board);
        if (--it->second == 0) {
            seen.erase(it);
            seen_order.pop_back();
        }
        board = u.board;
        defenders_to_move = u.defenders_to_move;
        ply = u.ply;
        end = u.end;
    }

    // --- 1.1 custodial capture --------------------------------------------

    void custodial(int tf, int tr, char me) {
        static const int DF[4] = {0, -1, 0, 1}, DR[4] = {1, 0, -1, 0};
        for (int d = 0; d < 4; ++d) {
            const int af = tf + DF[d], ar = tr + DR[d], bf = af + DF[d], br = ar + DR[d];
            if (!on(bf, br)) continue;
            const char victim = at(af, ar);
            if (victim == 'K' || side(victim) == 0 || side(victim) == me) continue;
            // The far side: the mover's side (the king armed), or an empty
            // corner or throne (hostile to all).
            const bool anvil = side(at(bf, br)) == me || (restricted(bf, br) && at(bf, br) == '.');
            if (!anvil) continue;
            board[idx(af, ar)] = '.';
            taken.push_back(idx(af, ar));
        }
    }

    // --- 1.2 shieldwall: hnefatafl.org's scan -----------------------------

    // Square i (0..n-1) of an edge in hnefatafl.org's scan order, and the
    // square inside it. Edges: 0 rank 1, 1 rank n, 2 file a, 3 file n (the
    // files scanned from the top rank down).
    std::pair<int, int> edge_square(int e, int i, int depth) const {
        switch (e) {
        case 0:
            return {i, depth};
        case 1:
            return {i, n - 1 - depth};
        case 2:
            return {depth, n - 1 - i};
        default:
            return {n - 1 - depth, n - 1 - i};
        }
    }

    void shieldwall(int tf, int tr, char me) {
        // The mover must end a wall on its edge: nothing to scan otherwise.
        if (!edge(tf, tr)) return;
        const char enemy = me == 'a' ? 'd' : 'a';
        for (int e = 0; e < 4; ++e) {
            for (int i = 0; i < n - 1; ++i) {
                const auto [f1, r1] = edge_square(e, i, 0);
                if (side_at(f1, r1) != me && !restricted(f1, r1)) continue;
                const int start = i + 1;
                int run = 0;
                for (int j = start; j < n; ++j) {
                    const auto [f2, r2] = edge_square(e, j, 0);
                    const auto [f3, r3] = edge_square(e, j, 1);
                    if (side_at(f2, r2) == enemy && side_at(f3, r3) == me)
                        ++run;
                    else
                        break;
                }
                const int finish = start + run;
                if (run < 2 || finish >= n) continue;
                const auto [ff, fr] = edge_square(e, finish, 0);
                if (side_at(ff, fr) != me && !restricted(ff, fr)) continue;
                const auto [sf, sr] = edge_square(e, start - 1, 0);
                const bool mover_is_end = (tf == sf && tr == sr) || (tf == ff && tr == fr);
                if (!mover_is_end) continue;
                for (int j = start; j < finish; ++j) {
                    const auto [wf, wr] = edge_square(e, j, 0);
                    if (at(wf, wr) == 'K') continue; // the king in a wall stays
                    board[idx(wf, wr)] = '.';
                    taken.push_back(idx(wf, wr));
                }
            }
        }
    }

    // --- the ends, in hnefatafl.org's order (1.8) -------------------------

    End ends_after(int tf, int tr, char me) {
        if (board[idx(tf, tr)] == 'K' && corner(tf, tr)) return End::ESCAPED;
        if (me == 'a' && king_captured(tf, tr)) {
            board[king()] = '.';
            return End::KING_CAPTURED;
        }
        if (n != 7 && exit_fort()) return End::FORT; // 11x11 and 13x13
        if (encircled()) return End::ENCIRCLED;
        if (count('t') == 0) return End::NO_ATTACKERS;
        if (ply >= ply_draw) return End::PLY_LIMIT;
        if (cannot_escape()) return End::CANNOT_ESCAPE;
        return End::NONE;
    }

    bool king_captured(int tf, int tr) const {
        const int k = king();
        if (k < 0) return false;
        const int kf = k % n, kr = k / n;
        if (std::abs(kf - tf) + std::abs(kr - tr) != 1) return false; // mover next to him
        static const int DF[4] = {0, -1, 0, 1}, DR[4] = {1, 0, -1, 0};
        if (n != 7) {
            // 11x11 and 13x13: four attackers or the throne square; never on
            // the edge.
            for (int d = 0; d < 4; ++d) {
                const int f = kf + DF[d], r = kr + DR[d];
                if (!on(f, r)) return false;
                if (at(f, r) != 't' && !throne(f, r)) return false;
            }
            return true;
        }
        // 7x7: on the throne four attackers; elsewhere the mover and an
        // attacker opposite him. Throne and corners never count.
        if (throne(kf, kr)) {
            for (int d = 0; d < 4; ++d)
                if (side_at(kf + DF[d], kr + DR[d]) != 'a') return false;
            return true;
        }
        return side_at(2 * kf - tf, 2 * kr - tr) == 'a';
    }

    // 1.3, hnefatafl.org: the king on an edge with an empty neighbour, and a
    // stack flood from his neighbours in which every defender (the king
    // included) is tested on the axis across the direction it was reached
    // from; attackers reached, or a defender with no defender / board edge on
    // that axis (when the attackers have 2 or more pieces), break the fort.
    bool exit_fort() const {
        const int k = king();
        if (k < 0) return false;
        const int kf = k % n, kr = k / n;
        if (!edge(kf, kr)) return false;
        // Push order: up, left, down, right (hnefatafl.org's), each with the
        // axis to test: reached vertically -> left/right, sideways -> up/down.
        static const int DF[4] = {0, -1, 0, 1}, DR[4] = {1, 0, -1, 0};
        static const bool ACROSS_IS_UP_DOWN[4] = {false, true, false, true};
        bool can_move = false;
        for (int d = 0; d < 4; ++d)
            if (on(kf + DF[d], kr + DR[d]) && at(kf + DF[d], kr + DR[d]) == '.') can_move = true;
        if (!can_move) return false;
        const bool enough = count('t') > 1;
        std::vector<std::pair<int, bool>> stack; // square, test the up-down axis
        std::vector<bool> checked(n * n, false);
        for (int d = 0; d < 4; ++d)
            if (on(kf + DF[d], kr + DR[d]))
                stack.push_back({idx(kf + DF[d], kr + DR[d]), ACROSS_IS_UP_DOWN[d]});
        auto defender_or_off = [&](int f, int r) { return !on(f, r) || side(at(f, r)) == 'd'; };
        while (!stack.empty()) {
            const auto [s, up_down] = stack.back();
            stack.pop_back();
            const int f = s % n, r = s / n;
            const char c = board[s];
            if (c == '.') {
                for (int d = 0; d < 4; ++d) {
                    const int nf = f + DF[d], nr = r + DR[d];
                    if (!on(nf, nr) || checked[idx(nf, nr)]) continue;
                    checked[idx(nf, nr)] = true;
                    stack.push_back({idx(nf, nr), ACROSS_IS_UP_DOWN[d]});
                }
            } else if (c == 't') {
                return false;
            } else {
                const bool held = up_down ? defender_or_off(f, r + 1) || defender_or_off(f, r - 1)
                                          : defender_or_off(f + 1, r) || defender_or_off(f - 1, r);
                if (!held && enough) return false;
            }
        }
        return true;
    }

    // 1.4, hnefatafl.org: flood from the king through empty squares and
    // defenders; no flooded square on the edge; every defender flooded.
    bool encircled() const {
        const int k = king();
        if (k < 0) return false;
        std::vector<bool> reached(n * n, false);
        std::vector<int> stack{k};
        reached[k] = true;
        static const int DF[4] = {0, -1, 0, 1}, DR[4] = {1, 0, -1, 0};
        while (!stack.empty()) {
            const int s = stack.back();
            stack.pop_back();
            if (board[s] == 't') continue;
            const int f = s % n, r = s / n;
            for (int d = 0; d < 4; ++d) {
                const int nf = f + DF[d], nr = r + DR[d];
                if (!on(nf, nr)) return false;
                if (!reached[idx(nf, nr)]) {
                    reached[idx(nf, nr)] = true;
                    stack.push_back(idx(nf, nr));
                }
            }
        }
        for (int s = 0; s < n * n; ++s)
            if (side(board[s]) == 'd' && !reached[s]) return false;
        return true;
    }

    // --- 1.6 "defenders can't escape" -------------------------------------

    bool attacker_at(int f, int r) const { return on(f, r) && at(f, r) == 't'; }

    // The king on an edge square not next to a corner, hemmed in along the
    // edge (a corner counts as an attacker and adds one to A), and inward.
    bool king_trapped(int defenders, int attackers) const {
        const int k = king();
        if (k < 0) return true;
        const int kf = k % n, kr = k / n;
        // along: unit step along the edge; in: unit step inward; a: position
        // of the king along the edge. hnefatafl.org looks at file a, file n,
        // then the top rank, then rank 1 (a king on a corner has escaped).
        int af, ar, inf, inr, a;
        if (kf == 0) {
            af = 0, ar = 1, inf = 1, inr = 0, a = kr;
        } else if (kf == n - 1) {
            af = 0, ar = 1, inf = -1, inr = 0, a = kr;
        } else if (kr == n - 1) {
            af = 1, ar = 0, inf = 0, inr = -1, a = kf;
        } else if (kr == 0) {
            af = 1, ar = 0, inf = 0, inr = 1, a = kf;
        } else {
            return false;
        }
        if (a == 1 || a == n - 2) return false;
        for (int step : {-2, -1, 1, 2}) {
            const int pos = a + step;
            if (pos == 0 || pos == n - 1) {
                ++attackers;
                continue;
            }
            if (!attacker_at(kf + af * step, kr + ar * step)) return false;
        }
        auto inward_pair = [&](int f, int r) {
            return attacker_at(f + inf, r + inr) && attacker_at(f + 2 * inf, r + 2 * inr);
        };
        if (attackers > 5 && !inward_pair(kf, kr)) return false;
        return defenders < 2 ||
               (attackers > 7 && (inward_pair(kf + af, kr + ar) || inward_pair(kf - af, kr - ar)));
    }

    // One corner closed: the two squares next to it along both edges are
    // attackers, or a flood from its two neighbours (the first step through
    // empty squares or attackers, then empty squares only) meets no defender.
    // Adds the sealed squares. A defender next to the corner is not looked at.
    bool closed_corner(int cf, int cr, std::vector<bool>& sealed) const {
        const int sf = cf == 0 ? 1 : -1, sr = cr == 0 ? 1 : -1;
        if (attacker_at(cf + sf, cr) && attacker_at(cf + 2 * sf, cr) && attacker_at(cf, cr + sr) &&
            attacker_at(cf, cr + 2 * sr)) {
            for (int s : {idx(cf, cr), idx(cf + sf, cr), idx(cf + 2 * sf, cr), idx(cf, cr + sr),
                          idx(cf, cr + 2 * sr)})
                sealed[s] = true;
            return true;
        }
        static const int DF[4] = {0, -1, 0, 1}, DR[4] = {1, 0, -1, 0};
        std::vector<bool> checked(n * n, false);
        std::vector<int> stack;
        std::vector<int> found;
        checked[idx(cf, cr)] = true;
        const int first[2] = {idx(cf + sf, cr), idx(cf, cr + sr)};
        for (int s : first) checked[s] = true;
        for (int s : first) {
            if (side(board[s]) == 'd') continue;
            found.push_back(s); // an edge square
            const int f = s % n, r = s / n;
            for (int d = 0; d < 4; ++d) {
                const int nf = f + DF[d], nr = r + DR[d];
                if (on(nf, nr) && !checked[idx(nf, nr)]) {
                    checked[idx(nf, nr)] = true;
                    stack.push_back(idx(nf, nr));
                }
            }
        }
        while (!stack.empty()) {
            const int s = stack.back();
            stack.pop_back();
            const int f = s % n, r = s / n;
            if (board[s] == '.') {
                if (edge(f, r)) found.push_back(s);
                for (int d = 0; d < 4; ++d) {
                    const int nf = f + DF[d], nr = r + DR[d];
                    if (on(nf, nr) && !checked[idx(nf, nr)]) {
                        checked[idx(nf, nr)] = true;
                        stack.push_back(idx(nf, nr));
                    }
                }
            } else if (side(board[s]) == 'd') {
                return false;
            }
        }
        for (int s : found) sealed[s] = true;
        sealed[idx(cf, cr)] = true;
        return true;
    }

    // Every edge has at most `most` open squares (not an attacker, not
    // sealed), all in one run.
    bool few_open_edge_squares(const std::vector<bool>& sealed, int most) const {
        for (int e = 0; e < 4; ++e) {
            int open = 0, runs = 0;
            bool in_run = false;
            for (int i = 0; i < n; ++i) {
                const auto [f, r] = edge_square(e, i, 0);
                const bool is_open = at(f, r) != 't' && !sealed[idx(f, r)];
                if (is_open) {
                    open += 1;
                    if (!in_run) ++runs;
                }
                in_run = is_open;
            }
            if (open > most || runs > 1) return false;
        }
        return true;
    }

    bool cannot_escape() const {
        const int defenders = count('T'), attackers = count('t');
        if (king_trapped(defenders, attackers)) return true;
        std::vector<bool> sealed(n * n, false);
        for (int cf : {0, n - 1})
            for (int cr : {0, n - 1})
                if (!closed_corner(cf, cr, sealed)) return false;
        return (defenders < 4 && attackers >= 13) ||
               (defenders < 6 && few_open_edge_squares(sealed, 3)) ||
               few_open_edge_squares(sealed, 2);
    }
};

// "h10" -> square, or -1.
inline int org_square(int n, const std::string& name) {
    if (name.size() < 2) return -1;
    const int f = name[0] - 'a';
    int r = 0;
    for (size_t i = 1; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') return -1;
        r = r * 10 + (name[i] - '0');
    }
    r -= 1;
    if (f < 0 || f >= n || r < 0 || r >= n) return -1;
    return r * n + f;
}

inline std::string org_square_name(int n, int s) {
    std::string name;
    name += char('a' + s % n);
    name += std::to_string(s / n + 1);
    return name;
}

} // namespace branan::orgmodel
