#pragma once

// OpenTafl's rules as OpenTafl's code plays them (OTN.md: the rules string,
// "Built-in variants, shieldwall, edge forts, jumps", "Berserk as OpenTafl
// plays it"), written square by square from that text and nothing of the
// engine: no Edition, no bitboards, no shared capture, shieldwall or fort
// code. The tests hold the model to OTN.md's perft and the engine's OpenTafl
// presets to the model.
//
// Squares are rank * n + file, rank 0 = rank 1 (as the engine numbers them,
// so that moves compare directly). Pieces: 't' 'c' 'n' attackers (soldier,
// commander, knight), 'T' 'C' 'N' 'K' defenders, '.' empty. Boards up to
// 19x19. What the model reads of the rules string: dim, name, esc, atkf,
// surf, tfr, ka, ks, cor, cen, afor, dfor, the hostility, pass and stop
// lists, sw, swf, efe, linc, kj, nj, cj, ber, start. Anything else (spd,
// the re-entry lists, mj, gj, pieces m and g) is refused.

#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace branan::otmodel {

// --- the rules string -----------------------------------------------------

enum class Kind : uint8_t { NONE, CENTRE, CORNER, AFORT, DFORT };
enum class Jump : uint8_t { NONE, STANDARD, CAPTURE, RESTRICTED };

inline bool is_attacker(char p) {
    return p == 't' || p == 'c' || p == 'n';
}
inline bool is_defender(char p) {
    return p == 'T' || p == 'C' || p == 'N' || p == 'K';
}
// 'a', 'd' or 0.
inline char side_of(char p) {
    return is_attacker(p) ? 'a' : is_defender(p) ? 'd' : 0;
}
inline bool is_commander_or_knight(char p) {
    return p == 'c' || p == 'n' || p == 'C' || p == 'N';
}

struct Rules {
    int n = 0;
    std::string name;
    bool edge_escape = false; // esc:e
    bool attackers_first = true;
    bool surround_fatal = true;
    char tfr = 'd';          // d, w, l (i reads as d)
    bool king_hammer = true; // ka: y or h
    bool king_anvil = true;  // ka: y or a
    char ks = 's';           // s, w, c, m
    std::vector<Kind> kind;  // per square
    // Hostility by side: [kind][0] to attackers, [kind][1] to defenders and
    // the king. CENTRE is the occupied centre; EMPTY_CENTRE below.
    bool hostile[5][2] = {};
    bool empty_centre_hostile[2] = {true, true};
    // Pass and stop by piece letter, per kind.
    std::map<char, bool> pass[5], stop[5];
    char sw = 'n'; // n, w, s
    bool swf = true;
    bool efe = false;
    bool linc = false;
    Jump kj = Jump::NONE, nj = Jump::CAPTURE, cj = Jump::STANDARD;
    char ber = 'n';    // n, c, m
    std::string start; // rank 1 first, n*n chars
    bool attackers_have_specials = false, defenders_have_specials = false;

    bool defined = false;
};

inline std::vector<std::string> words_of(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text) {
        if (c == sep) {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// "a1" -> square on an n board, or -1.
inline int square_of(int n, const std::string& name) {
    if (name.size() < 2 || name[0] < 'a' || name[0] >= 'a' + n) return -1;
    int r = 0;
    for (size_t i = 1; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') return -1;
        r = r * 10 + (name[i] - '0');
    }
    if (r < 1 || r > n) return -1;
    return (r - 1) * n + (name[0] - 'a');
}

inline std::string square_name(int n, int s) {
    return std::string(1, char('a' + s % n)) + std::to_string(s / n + 1);
}

// The rules a string says, or an error text in `error`.
inline Rules parse_rules(const std::string& text, std::string& error) {
    Rules r;
    std::map<std::string, std::string> keys;
    for (const std::string& word : words_of(text, ' ')) {
        const size_t colon = word.find(':');
        if (colon == std::string::npos) {
            error = "no colon in " + word;
            return r;
        }
        keys[word.substr(0, colon)] = word.substr(colon + 1);
    }
    if (!keys.count("dim") || !keys.count("start")) {
        error = "dim and start are needed";
        return r;
    }
    r.n = std::atoi(keys["dim"].c_str());
    if (r.n < 5 || r.n > 19) {
        error = "dim out of range";
        return r;
    }
    const int n = r.n;
    // Defaults (OTN.md's table and OpenTafl's serializer).
    const std::string ALL = "tcnkTCNK";
    std::string lists[5][2]; // [kind][0 pass, 1 stop]
    std::string hostile[5];  // by kind; CENTRE = occupied
    std::string empty_centre = ALL;
    lists[int(Kind::CENTRE)][0] = ALL;
    lists[int(Kind::CENTRE)][1] = "K";
    lists[int(Kind::CORNER)][0] = "K";
    lists[int(Kind::CORNER)][1] = "K";
    lists[int(Kind::AFORT)][0] = ALL;
    lists[int(Kind::AFORT)][1] = ALL;
    lists[int(Kind::DFORT)][0] = ALL;
    lists[int(Kind::DFORT)][1] = "TCNK";
    hostile[int(Kind::CENTRE)] = "tcnk";
    hostile[int(Kind::CORNER)] = ALL;
    hostile[int(Kind::AFORT)] = "TCNK";
    hostile[int(Kind::DFORT)] = "tcnk";
    r.kind.assign(n * n, Kind::NONE);
    std::vector<int> corners = {0, n - 1, (n - 1) * n, n * n - 1};
    std::vector<int> centres = {(n / 2) * n + n / 2};
    std::vector<int> aforts, dforts;
    auto squares = [&](const std::string& value, std::vector<int>& out) {
        out.clear();
        for (const std::string& name : words_of(value, ',')) {
            const int s = square_of(n, name);
            if (s < 0) {
                error = "bad square " + name;
                return;
            }
            out.push_back(s);
        }
    };
    auto yes = [&](const std::string& key, const std::string& v) {
        if (v != "y" && v != "n") error = "bad value " + key + ":" + v;
        return v == "y";
    };
    for (const auto& [key, v] : keys) {
        if (key == "dim" || key == "start" || key == "starti") {
        } else if (key == "name") {
            r.name = v;
        } else if (key == "esc") {
            r.edge_escape = v == "e";
        } else if (key == "atkf") {
            r.attackers_first = yes(key, v);
        } else if (key == "surf") {
            r.surround_fatal = yes(key, v);
        } else if (key == "tfr") {
            r.tfr = v == "w" ? 'w' : v == "l" ? 'l' : 'd';
        } else if (key == "ka") {
            r.king_hammer = v == "y" || v == "h";
            r.king_anvil = v == "y" || v == "a";
        } else if (key == "ks") {
            r.ks = v == "y" ? 's' : v == "n" ? 'w' : v.empty() ? 's' : v[0];
        } else if (key == "cor") {
            squares(v, corners);
        } else if (key == "cen") {
            squares(v, centres);
        } else if (key == "afor") {
            squares(v, aforts);
        } else if (key == "dfor") {
            squares(v, dforts);
        } else if (key == "corh") {
            hostile[int(Kind::CORNER)] = v;
        } else if (key == "cenh") {
            hostile[int(Kind::CENTRE)] = v;
        } else if (key == "cenhe") {
            empty_centre = v;
        } else if (key == "aforh") {
            hostile[int(Kind::AFORT)] = v;
        } else if (key == "dforh") {
            hostile[int(Kind::DFORT)] = v;
        } else if (key == "corp" || key == "cenp" || key == "aforp" || key == "dforp" ||
                   key == "cors" || key == "cens" || key == "afors" || key == "dfors") {
            const Kind k = key[1] == 'o'   ? Kind::CORNER
                           : key[1] == 'e' ? Kind::CENTRE
                           : key[0] == 'a' ? Kind::AFORT
                                           : Kind::DFORT;
            lists[int(k)][key.back() == 's' ? 1 : 0] = v;
        } else if (key == "sw") {
            r.sw = v.empty() ? 'n' : v[0];
        } else if (key == "swf") {
            r.swf = yes(key, v);
        } else if (key == "efe") {
            r.efe = yes(key, v);
        } else if (key == "linc") {
            r.linc = yes(key, v);
        } else if (key == "kj" || key == "nj" || key == "cj") {
            const Jump j = v == "c"   ? Jump::CAPTURE
                           : v == "j" ? Jump::STANDARD
                           : v == "r" ? Jump::RESTRICTED
                                      : Jump::NONE;
            (key == "kj" ? r.kj : key == "nj" ? r.nj : r.cj) = j;
        } else if (key == "ber") {
            r.ber = v.empty() ? 'n' : v[0];
        } else {
            error = "the model does not read " + key;
        }
    }
    if (!error.empty()) return r;
    for (int s : centres) r.kind[s] = Kind::CENTRE;
    for (int s : aforts) r.kind[s] = Kind::AFORT;
    for (int s : dforts) r.kind[s] = Kind::DFORT;
    for (int s : corners) r.kind[s] = Kind::CORNER;
    for (int k = 1; k < 5; ++k) {
        // Hostility is read by side: 't' the attackers, 'T' the defenders
        // and the king (OTN.md: GenericRules).
        r.hostile[k][0] = hostile[k].find('t') != std::string::npos;
        r.hostile[k][1] = hostile[k].find('T') != std::string::npos;
        for (char p : std::string("tcnTCNK")) {
            r.pass[k][p] = lists[k][0].find(p) != std::string::npos;
            r.stop[k][p] = lists[k][1].find(p) != std::string::npos;
        }
    }
    r.empty_centre_hostile[0] = empty_centre.find('t') != std::string::npos;
    r.empty_centre_hostile[1] = empty_centre.find('T') != std::string::npos;
    // The start: rows rank 1 first (start) or top first (starti).
    const bool top_first = !keys.count("start");
    const std::vector<std::string> rows = words_of(keys[top_first ? "starti" : "start"], '/');
    if (int(rows.size()) != n) {
        error = "start has the wrong number of rows";
        return r;
    }
    r.start.assign(n * n, '.');
    for (int i = 0; i < n; ++i) {
        const int rank = top_first ? n - 1 - i : i;
        int file = 0;
        const std::string& row = rows[i];
        for (size_t j = 0; j < row.size(); ++j) {
            if (row[j] >= '0' && row[j] <= '9') {
                int run = 0;
                while (j < row.size() && row[j] >= '0' && row[j] <= '9')
                    run = run * 10 + (row[j++] - '0');
                --j;
                file += run;
            } else {
                const char p = row[j];
                if (side_of(p) == 0 || p == 'k') {
                    error = std::string("the model does not play piece ") + p;
                    return r;
                }
                if (file < n) r.start[rank * n + file] = p;
                ++file;
            }
        }
        if (file != n) {
            error = "start row " + std::to_string(i + 1) + " has the wrong length";
            return r;
        }
    }
    for (char p : r.start) {
        if (p == 'c' || p == 'n') r.attackers_have_specials = true;
        if (p == 'C' || p == 'N') r.defenders_have_specials = true;
    }
    r.defined = true;
    return r;
}

// --- the game ---------------------------------------------------------------

enum class End : uint8_t {
    NONE,
    NO_ATTACKERS,  // defenders
    REPETITION,    // per tfr
    ESCAPED,       // defenders
    KING_CAPTURED, // attackers (also: no defenders left)
    NO_ROOM,       // no defender has an empty neighbour: attackers
    EDGE_FORT,     // defenders
    ENCIRCLED,     // attackers
};

struct Move {
    int from = 0, to = 0;
    bool operator==(const Move&) const = default;
    bool operator<(const Move& o) const { return from != o.from ? from < o.from : to < o.to; }
};

struct Game {
    std::shared_ptr<const Rules> rules;
    int n = 0;
    std::string board;
    std::vector<uint8_t> moved; // per square: the piece there has moved before
    bool defenders_to_move = false;
    int berserker = -1; // the square of the piece a chain continues with
    End end = End::NONE;
    char winner = 0;        // 'a', 'd', '=' once ended
    std::vector<int> taken; // what the last move captured, in order
    int wall_taken = 0;     // of which by a shieldwall
    // Positions so far (OpenTafl's history): the board and the side to
    // move, as OpenTafl's Zobrist key holds them.
    std::unordered_map<std::string, int> seen;
    int plies = 0;

    static Game start(std::shared_ptr<const Rules> r) {
        Game g;
        g.rules = r;
        g.n = r->n;
        g.board = r->start;
        g.moved.assign(g.n * g.n, 0);
        g.defenders_to_move = !r->attackers_first;
        g.seen[g.key()] = 1;
        return g;
    }

    std::string key() const { return board + (defenders_to_move ? 'd' : 'a'); }

    // --- geometry ---------------------------------------------------------

    static constexpr int DF[4] = {0, -1, 0, 1}, DR[4] = {1, 0, -1, 0};
    bool on(int f, int r) const { return f >= 0 && r >= 0 && f < n && r < n; }
    int idx(int f, int r) const { return r * n + f; }
    bool edge_sq(int s) const {
        const int f = s % n, r = s / n;
        return f == 0 || r == 0 || f == n - 1 || r == n - 1;
    }
    Kind kind(int s) const { return rules->kind[s]; }
    int king() const {
        const size_t k = board.find('K');
        return k == std::string::npos ? -1 : int(k);
    }
    int count_side(char side) const {
        int k = 0;
        for (char p : board) k += side_of(p) == side;
        return k;
    }

    Jump jump_mode(char p) const {
        if (p == 'K') return rules->kj;
        if (p == 'n' || p == 'N') return rules->nj;
        if (p == 'c' || p == 'C') return rules->cj;
        return Jump::NONE;
    }
    bool can_pass(char p, int s) const {
        const Kind k = kind(s);
        return k == Kind::NONE || rules->pass[int(k)].at(p);
    }
    bool can_stop(char p, int s) const {
        const Kind k = kind(s);
        return k == Kind::NONE || rules->stop[int(k)].at(p);
    }

    // --- moves ------------------------------------------------------------

    // Where the piece on `from` may go: slides through empty squares it may
    // pass, stopping where it may stop, then its jumps.
    void destinations(int from, std::vector<Move>& out) const {
        const char p = board[from];
        const int f = from % n, r = from / n;
        for (int d = 0; d < 4; ++d)
            for (int tf = f + DF[d], tr = r + DR[d]; on(tf, tr); tf += DF[d], tr += DR[d]) {
                const int s = idx(tf, tr);
                if (board[s] != '.' || !can_pass(p, s)) break;
                if (can_stop(p, s)) out.push_back({from, s});
            }
        jumps(from, out);
    }

    // Over one adjacent enemy that is no king, knight or commander, onto
    // the empty square beyond where the jumper may stop; `r` only when the
    // start or the landing is a special square.
    void jumps(int from, std::vector<Move>& out) const {
        const char p = board[from];
        const Jump mode = jump_mode(p);
        if (mode == Jump::NONE) return;
        const int f = from % n, r = from / n;
        for (int d = 0; d < 4; ++d) {
            const int of = f + DF[d], orr = r + DR[d], lf = of + DF[d], lr = orr + DR[d];
            if (!on(lf, lr)) continue;
            const char over = board[idx(of, orr)];
            if (side_of(over) == 0 || side_of(over) == side_of(p) || over == 'K' ||
                is_commander_or_knight(over))
                continue;
            const int land = idx(lf, lr);
            if (board[land] != '.') continue;
            if (mode == Jump::RESTRICTED && kind(from) == Kind::NONE && kind(land) == Kind::NONE)
                continue;
            if (!can_stop(p, land)) continue;
            out.push_back({from, land});
        }
    }

    bool is_jump(const Move& m) const {
        const int df = std::abs(m.to % n - m.from % n), dr = std::abs(m.to / n - m.from / n);
        return (df == 2 && dr == 0) || (df == 0 && dr == 2)
                   ? jump_mode(board[m.from]) != Jump::NONE && board[(m.from + m.to) / 2] != '.'
                   : false;
    }

    std::vector<Move> moves() const {
        std::vector<Move> out;
        if (end != End::NONE) return out;
        if (berserker >= 0) {
            destinations(berserker, out);
            return out;
        }
        const char me = defenders_to_move ? 'd' : 'a';
        for (int s = 0; s < n * n; ++s)
            if (side_of(board[s]) == me) destinations(s, out);
        return out;
    }

    // --- captures ---------------------------------------------------------

    // Hostile to `victim` (OpenTafl's isSpaceHostileTo): an enemy piece
    // (the king only where armed as an anvil), else the square's kind by
    // side.
    bool hostile_to(int s, char victim) const {
        const char occ = board[s];
        if (occ != '.' && side_of(occ) != side_of(victim)) {
            if (occ == 'K' && !rules->king_anvil) return false;
            return true;
        }
        const int side = side_of(victim) == 'a' ? 0 : 1;
        switch (kind(s)) {
        case Kind::NONE:
            return false;
        case Kind::CENTRE:
            return occ == '.' ? rules->empty_centre_hostile[side]
                              : rules->hostile[int(Kind::CENTRE)][side];
        default:
            return rules->hostile[int(kind(s))][side];
        }
    }

    bool king_strong_at(int s) const {
        switch (rules->ks) {
        case 'w':
            return false;
        case 'c': {
            if (kind(s) == Kind::CENTRE) return true;
            const int f = s % n, r = s / n;
            for (int d = 0; d < 4; ++d)
                if (on(f + DF[d], r + DR[d]) && kind(idx(f + DF[d], r + DR[d])) == Kind::CENTRE)
                    return true;
            return false;
        }
        default:
            return true;
        }
    }

    // OpenTafl's isCapturedBy for a piece beside `to`, the capturer being
    // `capturer`. It is asked twice: before the move (the capturer still on
    // `from`), to find the capturing moves, and after it (`from` -1), on
    // the board as it then is.
    bool captured_by(int victim_sq, char capturer, int to, int from) const {
        const char victim = board[victim_sq];
        if (side_of(victim) == side_of(capturer)) return false;
        if (capturer == 'K' && !rules->king_hammer) return false;
        const bool specials = side_of(capturer) == 'a' ? rules->attackers_have_specials
                                                       : rules->defenders_have_specials;
        const int vf = victim_sq % n, vr = victim_sq / n;
        if (victim == 'K' && (rules->ks == 'm' || king_strong_at(victim_sq))) {
            if (rules->ks == 'm' || !specials) {
                int hostile = 0, neighbours = 0;
                for (int d = 0; d < 4; ++d) {
                    if (!on(vf + DF[d], vr + DR[d])) continue;
                    ++neighbours;
                    const int s = idx(vf + DF[d], vr + DR[d]);
                    hostile += s == to || hostile_to(s, victim);
                }
                return rules->ks == 'm' ? hostile == neighbours : hostile == 4;
            }
        }
        // A sandwich on the line of the move.
        int a, b;
        if (vf == to % n) {
            if (vr == 0 || vr == n - 1) return false;
            a = idx(vf, vr - 1), b = idx(vf, vr + 1);
        } else {
            if (vf == 0 || vf == n - 1) return false;
            a = idx(vf - 1, vr), b = idx(vf + 1, vr);
        }
        if (!((a == to || hostile_to(a, victim)) && (b == to || hostile_to(b, victim))))
            return false;
        // A jumper does not capture against itself on an ordinary square.
        if (a == to && b == from && kind(b) == Kind::NONE) return false;
        if (b == to && a == from && kind(a) == Kind::NONE) return false;
        if (victim == 'K' && king_strong_at(victim_sq) && rules->ks != 'm' && specials) {
            // Commander (or knight) sandwich: the throne never involved.
            if (kind(a) == Kind::CENTRE || kind(b) == Kind::CENTRE ||
                kind(victim_sq) == Kind::CENTRE)
                return false;
            int count = 0;
            for (int s : {a, b}) {
                if (kind(s) == Kind::CORNER && hostile_to(s, victim)) ++count;
                if (board[s] != '.' && is_commander_or_knight(board[s])) ++count;
            }
            // After the move the capturer stands on `to` and counts twice
            // (OpenTafl reads the square and the capturer): a commander
            // beside the king with any hostile far side takes him when the
            // move was let through by another capture.
            if (is_commander_or_knight(capturer)) ++count;
            return count >= 2;
        }
        return true;
    }

    // The squares a move to `to` would capture by custodial rules, asked
    // before the move is made (OpenTafl's capturing-move test).
    bool captures_before(int from, int to) const {
        const char p = board[from];
        if (jump_mode(p) == Jump::CAPTURE && is_jump({from, to})) return true;
        const int f = to % n, r = to / n;
        for (int d = 0; d < 4; ++d) {
            if (!on(f + DF[d], r + DR[d])) continue;
            const int s = idx(f + DF[d], r + DR[d]);
            if (board[s] != '.' && captured_by(s, p, to, from)) return true;
        }
        return false;
    }

    // Does the piece on `s` have a capturing move (berserk, ber:c)?
    bool has_capturing_move(int s) const {
        std::vector<Move> list;
        destinations(s, list);
        for (const Move& m : list)
            if (captures_before(m.from, m.to)) return true;
        return false;
    }

    void remove(int s) {
        board[s] = '.';
        moved[s] = 0;
        taken.push_back(s);
    }

    // Linnaean capture (linc:y): the king on the throne with attackers on
    // three sides; an attacker arrives two steps out on the fourth; the
    // defender between is taken against the throne.
    void linnaean(int to) {
        for (int c = 0; c < n * n; ++c) {
            if (kind(c) != Kind::CENTRE || board[c] != 'K') continue;
            const int cf = c % n, cr = c / n;
            for (int d = 0; d < 4; ++d) {
                const int vf = cf + DF[d], vr = cr + DR[d], af = vf + DF[d], ar = vr + DR[d];
                if (!on(af, ar) || idx(af, ar) != to) continue;
                const char v = board[idx(vf, vr)];
                if (v == 'K' || side_of(v) != 'd') continue;
                bool three = true;
                for (int e = 0; e < 4; ++e) {
                    if (e == d) continue;
                    const int sf = cf + DF[e], sr = cr + DR[e];
                    if (!on(sf, sr) || side_of(board[idx(sf, sr)]) != 'a') three = false;
                }
                if (three) remove(idx(vf, vr));
            }
        }
    }

    // --- shieldwall: OpenTafl's scan --------------------------------------

    struct Wall {
        int list;    // index into Scan::lists (lists are shared: quirk 5)
        size_t size; // how many squares the list held when the wall was found
    };
    struct Scan {
        std::vector<std::vector<int>> spaces; // surrounded squares
        std::vector<std::vector<int>> pieces; // squares of the recorded walling pieces
        std::vector<int> walls;               // list indices of the walls found
    };

    // Edge e (0 rank 1, 1 top rank, 2 file a, 3 last file) square i, walked
    // from file a / rank 1, and the square inside it.
    int edge_at(int e, int i) const {
        switch (e) {
        case 0:
            return idx(i, 0);
        case 1:
            return idx(i, n - 1);
        case 2:
            return idx(0, i);
        default:
            return idx(n - 1, i);
        }
    }
    int inside_of(int e, int i) const {
        switch (e) {
        case 0:
            return idx(i, 1);
        case 1:
            return idx(i, n - 2);
        case 2:
            return idx(1, i);
        default:
            return idx(n - 2, i);
        }
    }

    // The walls `side` forms (OpenTafl's detectShieldwallPositionsForSide).
    Scan walls_of(char side) const {
        Scan scan;
        // Quirk 1: each side needs two pieces on edge squares.
        int on_edge[2] = {0, 0};
        for (int s = 0; s < n * n; ++s)
            if (edge_sq(s) && side_of(board[s]) != 0) ++on_edge[side_of(board[s]) == side];
        if (on_edge[0] < 2 || on_edge[1] < 2) return scan;
        const bool corners_close = rules->sw == 's';
        auto own = [&](int s) { return side_of(board[s]) == side; };
        int cur = -1;
        auto fresh = [&]() {
            scan.spaces.emplace_back();
            scan.pieces.emplace_back();
            cur = int(scan.spaces.size()) - 1;
        };
        fresh();
        for (int e = 0; e < 4; ++e) {
            bool open = false; // a start position is set
            // OpenTafl's walk keeps an index that only the steps which do
            // not `continue` advance; "the next square" is read through it,
            // so it lags behind the square looked at (quirk 4: a closer is
            // swallowed when the square after the lagging index is its own).
            int index = 0;
            for (int i = 0; i < n; ++i) {
                const int s = edge_at(e, i), in = inside_of(e, i);
                const bool corner = kind(s) == Kind::CORNER;
                if (!open && corner && corners_close) {
                    open = true;
                    continue;
                }
                if (!open && own(s)) {
                    open = true;
                    scan.pieces[cur].push_back(s);
                    continue;
                }
                if (open) {
                    if (corner && corners_close) {
                        if (scan.spaces[cur].size() > 1) scan.walls.push_back(cur);
                        break; // the lists run on into the next edge (quirk 5)
                    }
                    if (own(s)) {
                        const bool next_own = index + 1 < n && own(edge_at(e, index + 1));
                        if ((next_own && own(in)) || (board[s] == 'K' && own(in))) {
                            scan.pieces[cur].push_back(in);
                            scan.spaces[cur].push_back(s);
                            continue;
                        }
                        if (scan.spaces[cur].size() > 1) {
                            scan.pieces[cur].push_back(s);
                            scan.walls.push_back(cur);
                        }
                        // This piece opens the next run but is not recorded
                        // in it (quirk 3).
                        fresh();
                        continue;
                    }
                    if (own(in)) {
                        scan.pieces[cur].push_back(in);
                        scan.spaces[cur].push_back(s);
                    } else {
                        open = false;
                        fresh();
                    }
                }
                ++index;
            }
        }
        return scan;
    }

    // After the custodial captures (OpenTafl's moveTaflman and
    // checkShieldwallPositionForCaptures): the walls of both sides are
    // found, and a wall whose squares all hold enemies of the mover is
    // taken, kings apart. With swf:y only walls the mover (arrived on an
    // edge square, not on its first move) is recorded in; with swf:n every
    // wall, whichever side formed it (a run of the mover's enemies
    // swallowed into their own wall falls too).
    void shieldwalls(int to, bool first_move) {
        if (rules->sw == 'n') return;
        if (rules->swf && (!edge_sq(to) || first_move)) return; // no wall can fall
        const char mover_side = side_of(board[to]);
        // Both scans first, then each wall in turn, its captures made at
        // once (a square one wall took is empty for the next).
        const Scan scans[2] = {walls_of('a'), walls_of('d')};
        for (const Scan& scan : scans) {
            for (int w : scan.walls) {
                if (rules->swf) {
                    bool recorded = false;
                    for (int s : scan.pieces[w]) recorded |= s == to;
                    if (!recorded) continue;
                }
                bool all_enemy = true;
                for (int s : scan.spaces[w])
                    if (side_of(board[s]) == 0 || side_of(board[s]) == mover_side)
                        all_enemy = false;
                if (!all_enemy) continue;
                for (int s : scan.spaces[w])
                    if (board[s] != 'K') {
                        remove(s);
                        ++wall_taken;
                    }
            }
        }
    }

    // --- the end ------------------------------------------------------------

    bool king_has_move() const {
        const int k = king();
        if (k < 0) return false;
        std::vector<Move> list;
        destinations(k, list);
        return !list.empty();
    }

    // Edge fort: a defenders' wall holding the king, or OpenTafl's
    // checkEdgeFortEscape (OTN.md "Edge fort").
    bool edge_fort() const {
        const int k = king();
        if (k < 0) return false;
        const Scan scan = walls_of('d');
        for (int w : scan.walls)
            for (int s : scan.spaces[w])
                if (s == k && king_has_move()) return true;
        // R: the king's square and every square he reaches by successive
        // moves, the others frozen, no jumps.
        std::vector<char> in_r(n * n, 0);
        std::vector<int> stack{k};
        in_r[k] = 1;
        std::string b = board;
        b[k] = '.';
        while (!stack.empty()) {
            const int s = stack.back();
            stack.pop_back();
            const int f = s % n, r = s / n;
            for (int d = 0; d < 4; ++d)
                for (int tf = f + DF[d], tr = r + DR[d]; on(tf, tr); tf += DF[d], tr += DR[d]) {
                    const int t = idx(tf, tr);
                    if (b[t] != '.' || !can_pass('K', t)) break;
                    if (!can_stop('K', t) || in_r[t]) continue;
                    in_r[t] = 1;
                    stack.push_back(t);
                }
        }
        bool edge_ok = false;
        if (edge_sq(k)) {
            edge_ok = king_has_move();
        } else {
            for (int s = 0; s < n * n; ++s) edge_ok |= in_r[s] && edge_sq(s);
        }
        if (!edge_ok) return false;
        std::vector<char> boundary(n * n, 0);
        for (int s = 0; s < n * n; ++s) {
            if (!in_r[s]) continue;
            const int f = s % n, r = s / n;
            for (int d = 0; d < 4; ++d) {
                if (!on(f + DF[d], r + DR[d])) continue;
                const int t = idx(f + DF[d], r + DR[d]);
                if (in_r[t]) continue;
                if (side_of(board[t]) == 'a') return false;
                if (side_of(board[t]) == 'd') boundary[t] = 1;
            }
        }
        for (int s = 0; s < n * n; ++s) {
            if (!boundary[s]) continue;
            const int f = s % n, r = s / n;
            int open = 0;
            for (int d = 0; d < 4; ++d) {
                if (!on(f + DF[d], r + DR[d])) continue;
                const int t = idx(f + DF[d], r + DR[d]);
                if (!in_r[t] && side_of(board[t]) != 'd') ++open;
            }
            if (open > 2) return false;
        }
        return true;
    }

    // Encircled: no defender can reach an edge square in one move, and a
    // flood from every edge square through empty squares reaches no
    // defender.
    bool encircled() const {
        std::vector<Move> list;
        for (int s = 0; s < n * n; ++s) {
            if (side_of(board[s]) != 'd') continue;
            list.clear();
            destinations(s, list);
            for (const Move& m : list)
                if (edge_sq(m.to)) return false;
        }
        std::vector<char> seen_sq(n * n, 0);
        std::vector<int> stack;
        for (int s = 0; s < n * n; ++s)
            if (edge_sq(s)) {
                seen_sq[s] = 1;
                stack.push_back(s);
            }
        while (!stack.empty()) {
            const int s = stack.back();
            stack.pop_back();
            if (board[s] != '.') {
                if (side_of(board[s]) == 'd') return false;
                continue;
            }
            const int f = s % n, r = s / n;
            for (int d = 0; d < 4; ++d) {
                if (!on(f + DF[d], r + DR[d])) continue;
                const int t = idx(f + DF[d], r + DR[d]);
                if (!seen_sq[t]) {
                    seen_sq[t] = 1;
                    stack.push_back(t);
                }
            }
        }
        return true;
    }

    // OTN.md's order, after every move; `chain_open`: the repetition check
    // is skipped.
    void judge(bool chain_open) {
        const bool defenders_next = defenders_to_move; // already switched (or not)
        auto finish = [&](End e, char w) {
            end = e;
            winner = w;
        };
        if (count_side('a') == 0) return finish(End::NO_ATTACKERS, 'd');
        if (count_side('d') == 0) return finish(End::KING_CAPTURED, 'a');
        if (!chain_open && rules->tfr != 'i') {
            auto it = seen.find(key());
            if (it != seen.end() && it->second >= 2) { // the third occurrence
                const char to_move = defenders_next ? 'd' : 'a';
                const char other = to_move == 'a' ? 'd' : 'a';
                return finish(End::REPETITION, rules->tfr == 'w'   ? to_move
                                               : rules->tfr == 'l' ? other
                                                                   : '=');
            }
        }
        const int k = king();
        if (k >= 0 && (rules->edge_escape ? edge_sq(k) : kind(k) == Kind::CORNER))
            return finish(End::ESCAPED, 'd');
        if (k < 0) return finish(End::KING_CAPTURED, 'a');
        bool room = false;
        for (int s = 0; s < n * n && !room; ++s) {
            if (side_of(board[s]) != 'd') continue;
            const int f = s % n, r = s / n;
            for (int d = 0; d < 4; ++d)
                if (on(f + DF[d], r + DR[d]) && board[idx(f + DF[d], r + DR[d])] == '.')
                    room = true;
        }
        if (!room) return finish(End::NO_ROOM, 'a');
        if (rules->efe && edge_fort()) return finish(End::EDGE_FORT, 'd');
        if (rules->surround_fatal && encircled()) return finish(End::ENCIRCLED, 'a');
    }

    // --- making a move --------------------------------------------------------

    struct Undo {
        std::string board;
        std::vector<uint8_t> moved;
        bool defenders_to_move;
        int berserker;
        End end;
        char winner;
        int plies;
    };

    // The move and its captures (custodial, Linnaean, shieldwall), no end
    // and no chain: what perft needs at its leaves.
    void move_and_capture(const Move& m) {
        taken.clear();
        wall_taken = 0;
        const char p = board[m.from];
        const bool first_move = !moved[m.from];
        const bool capturing = captures_before(m.from, m.to);
        const bool jump = is_jump(m);
        board[m.to] = p;
        board[m.from] = '.';
        moved[m.to] = 1;
        moved[m.from] = 0;
        if (capturing) {
            if (jump && jump_mode(p) == Jump::CAPTURE) {
                const int over = (m.from + m.to) / 2;
                if (board[over] != '.') remove(over);
            }
            const int f = m.to % n, r = m.to / n;
            for (int d = 0; d < 4; ++d) {
                if (!on(f + DF[d], r + DR[d])) continue;
                const int s = idx(f + DF[d], r + DR[d]);
                if (board[s] != '.' && captured_by(s, p, m.to, -1)) remove(s);
            }
        }
        if (rules->linc && side_of(p) == 'a') linnaean(m.to);
        shieldwalls(m.to, first_move);
    }

    Undo play(const Move& m) {
        Undo u{board, moved, defenders_to_move, berserker, end, winner, plies};
        move_and_capture(m);
        ++plies;
        bool chain = false;
        if (!taken.empty() && rules->ber != 'n') {
            if (rules->ber == 'c') {
                chain = has_capturing_move(m.to);
            } else {
                std::vector<Move> list;
                destinations(m.to, list);
                chain = !list.empty();
            }
        }
        berserker = chain ? m.to : -1;
        if (!chain) defenders_to_move = !defenders_to_move;
        judge(chain);
        if (end != End::NONE) berserker = -1;
        ++seen[key()];
        return u;
    }

    void undo(const Undo& u) {
        auto it = seen.find(key());
        if (--it->second == 0) seen.erase(it);
        board = u.board;
        moved = u.moved;
        defenders_to_move = u.defenders_to_move;
        berserker = u.berserker;
        end = u.end;
        winner = u.winner;
        plies = u.plies;
    }
};

} // namespace branan::otmodel
