#include "rules.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "notation.h"
#include "text.h"

namespace branan {

namespace {

struct SpecialKeys {
    const char* squares; // cor
    const char* hostile; // corh
    const char* pass;    // corp
    const char* stop;    // cors
    const char* reenter; // corre
};
constexpr SpecialKeys SPECIAL_KEYS[SPECIAL_KINDS] = {
    {"cor", "corh", "corp", "cors", "corre"},
    {"cen", "cenh", "cenp", "cens", "cenre"},
    {"afor", "aforh", "aforp", "afors", "aforre"},
    {"dfor", "dforh", "dforp", "dfors", "dforre"},
};

Error error(std::string msg) {
    return Error{"rules: " + std::move(msg)};
}

std::string square_text(int size, Square s) {
    return std::string(1, char('a' + s % size)) + std::to_string(s / size + 1);
}

Result<Square> square_of(int size, std::string_view t) {
    if (t.size() < 2 || t[0] < 'a' || t[0] >= 'a' + size)
        return Error{"bad square '" + std::string(t) + "'"};
    int rank = 0;
    auto [p, ec] = std::from_chars(t.data() + 1, t.data() + t.size(), rank);
    if (ec != std::errc() || p != t.data() + t.size() || rank < 1 || rank > size)
        return Error{"bad square '" + std::string(t) + "'"};
    return (rank - 1) * size + (t[0] - 'a');
}

Result<std::vector<Square>> parse_square_list(int size, std::string_view key,
                                              std::string_view value) {
    std::vector<Square> out;
    for (std::string_view item : split(value, ',')) {
        if (item.empty()) continue;
        auto sq = square_of(size, item);
        if (!sq) return error(std::string(key) + ": " + sq.error());
        if (std::find(out.begin(), out.end(), *sq) == out.end()) out.push_back(*sq);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Piece letters: t c n k m g attackers, T C N K M G defenders. Only the
// attacker soldier, defender soldier and defender king exist in the games
// we play; the letters of the other kinds are accepted and have no effect.
Result<PieceSet> parse_piece_list(std::string_view key, std::string_view value) {
    PieceSet set = 0;
    for (char c : value) {
        switch (c) {
        case 't':
            set |= 1 << ATTACKER;
            break;
        case 'T':
            set |= 1 << DEFENDER;
            break;
        case 'K':
            set |= 1 << KING;
            break;
        case 'c':
        case 'n':
        case 'k':
        case 'm':
        case 'g':
        case 'C':
        case 'N':
        case 'M':
        case 'G':
            break;
        default:
            return error(std::string(key) + ": unknown piece letter '" + std::string(1, c) + "'");
        }
    }
    return set;
}

std::string piece_list(PieceSet set) {
    std::string s;
    if (contains(set, ATTACKER)) s += 't';
    if (contains(set, DEFENDER)) s += 'T';
    if (contains(set, KING)) s += 'K';
    return s;
}

Result<bool> parse_yes_no(std::string_view key, std::string_view v) {
    if (v == "y") return true;
    if (v == "n") return false;
    return error(std::string(key) + ": expected y or n, got '" + std::string(v) + "'");
}

Result<int> parse_int(std::string_view key, std::string_view v, int lo, int hi) {
    int n = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || p != v.data() + v.size() || n < lo || n > hi)
        return error(std::string(key) + ": expected a number from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + ", got '" + std::string(v) + "'");
    return n;
}

// spd: one number for every kind, or one per kind in the order
// tcnkmgTCNKMG (12) or tcnkTCNK (8); -1 or 0 = no limit. OpenTafl's parser
// ignores the 2- and 10-number forms, and so do we.
constexpr const char* SPEED_ORDER = "tcnkmgTCNKMG";

Result<std::array<int, PIECE_KINDS>> parse_speed(std::string_view value) {
    std::vector<int> numbers;
    for (std::string_view item : split(value, ',')) {
        if (item.empty()) continue;
        auto n = parse_int("spd", item, -1, 100);
        if (!n) return Error{n.error()};
        numbers.push_back(std::max(*n, 0));
    }
    std::array<int, PIECE_KINDS> speed{};
    const size_t count = numbers.size();
    if (count == 2 || count == 10) return speed;
    if (count == 1) {
        speed[ATTACKER] = speed[DEFENDER] = speed[KING] = numbers[0];
        return speed;
    }
    if (count != 8 && count != 12)
        return error("spd: expected 1, 8 or 12 numbers, got " + std::to_string(count));
    const std::string order = count == 12 ? SPEED_ORDER : "tcnkTCNK";
    speed[ATTACKER] = numbers[order.find('t')];
    speed[DEFENDER] = numbers[order.find('T')];
    speed[KING] = numbers[order.find('K')];
    return speed;
}

// OpenTafl's defaults for a board of the given size.
Rules default_rules(int size) {
    Rules r;
    r.size = size;
    r.encirclement = true;
    const int n = size;
    auto& cor = r.special[CORNER];
    cor.squares = {0, n - 1, n * (n - 1), n * n - 1};
    cor.hostile_occupied = cor.hostile_empty = ALL_PIECES;
    cor.may_pass = cor.may_stop = 1 << KING;
    cor.may_reenter = ALL_PIECES;
    auto& cen = r.special[THRONE];
    cen.squares = {(n / 2) * n + n / 2};
    cen.hostile_occupied = 1 << ATTACKER;
    cen.hostile_empty = ALL_PIECES;
    cen.may_pass = ALL_PIECES;
    cen.may_stop = 1 << KING;
    cen.may_reenter = ALL_PIECES;
    for (SpecialKind k : {ATTACKER_FORT, DEFENDER_FORT}) {
        auto& f = r.special[k];
        f.may_pass = ALL_PIECES;
        f.may_stop = k == ATTACKER_FORT ? ALL_PIECES : PieceSet((1 << DEFENDER) | (1 << KING));
        f.may_reenter = ALL_PIECES;
    }
    r.no_capture_limit = 0;
    r.repetition_count = 3;
    r.no_moves_loses = true;
    r.no_attackers_wins = true;
    r.no_defender_room_loses = true;
    return r;
}

} // namespace

Result<Rules> parse_rules(std::string_view text, RulesReading reading) {
    // Split into key:value tokens.
    std::vector<std::pair<std::string_view, std::string_view>> tokens;
    size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
        if (pos >= text.size()) break;
        size_t end = text.find_first_of(" \t", pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view tok = text.substr(pos, end - pos);
        size_t colon = tok.find(':');
        if (colon == std::string_view::npos)
            return error("token '" + std::string(tok) + "' is not key:value");
        tokens.emplace_back(tok.substr(0, colon), tok.substr(colon + 1));
        pos = end;
    }
    if (tokens.empty() || tokens[0].first != "dim")
        return error("the rules string must start with dim:<size>");
    auto dim = parse_int("dim", tokens[0].second, 1, 99);
    if (!dim) return Error{dim.error()};
    if (*dim < MIN_SIZE || *dim > MAX_SIZE)
        return error("dim:" + std::to_string(*dim) + " is not supported (boards from " +
                     std::to_string(MIN_SIZE) + "x" + std::to_string(MIN_SIZE) + " to " +
                     std::to_string(MAX_SIZE) + "x" + std::to_string(MAX_SIZE) + ")");
    for (const auto& [key, value] : tokens)
        if (key == "hkp") {
            auto b = parse_yes_no(key, value);
            if (!b) return Error{b.error()};
            reading = *b ? RulesReading::BY_PIECE : RulesReading::BY_SIDE;
        }
    Rules r = default_rules(*dim);
    std::set<std::string_view> seen{"dim"};
    bool have_start = false;

    for (size_t i = 1; i < tokens.size(); ++i) {
        const std::string_view key = tokens[i].first, value = tokens[i].second;
        if (!seen.insert(key).second) return error("key '" + std::string(key) + "' given twice");
        std::string k(key);
        auto bad_value = [&] {
            return error(k + ": unexpected value '" + std::string(value) + "'");
        };
        if (key == "hkp") {
            // Read before the other keys.
        } else if (key == "name") {
            r.name = std::string(value);
            std::replace(r.name.begin(), r.name.end(), '_', ' ');
        } else if (key == "esc") {
            if (value == "c")
                r.escape = EscapeType::CORNER;
            else if (value == "e")
                r.escape = EscapeType::EDGE;
            else
                return bad_value();
        } else if (key == "atkf") {
            auto b = parse_yes_no(key, value);
            if (!b) return Error{b.error()};
            r.attackers_first = *b;
        } else if (key == "surf") {
            auto b = parse_yes_no(key, value);
            if (!b) return Error{b.error()};
            r.encirclement = *b;
        } else if (key == "linc") {
            auto b = parse_yes_no(key, value);
            if (!b) return Error{b.error()};
            r.linnaean = *b;
        } else if (key == "tfr") {
            if (value == "d")
                r.repetition = RepetitionOutcome::DRAW;
            else if (value == "w")
                r.repetition = RepetitionOutcome::MOVER_LOSES;
            else if (value == "l")
                r.repetition = RepetitionOutcome::MOVER_WINS;
            else if (value == "i")
                r.repetition = RepetitionOutcome::IGNORED;
            else
                return bad_value();
        } else if (key == "ka") {
            if (value == "y")
                r.king_armed = KingArmed::YES;
            else if (value == "n")
                r.king_armed = KingArmed::NO;
            else if (value == "a")
                r.king_armed = KingArmed::ANVIL_ONLY;
            else if (value == "h")
                r.king_armed = KingArmed::HAMMER_ONLY;
            else
                return bad_value();
        } else if (key == "ks") {
            if (value == "s")
                r.king_strength = KingStrength::STRONG;
            else if (value == "w")
                r.king_strength = KingStrength::WEAK;
            else if (value == "c")
                r.king_strength = KingStrength::STRONG_NEAR_THRONE;
            else if (value == "m")
                r.king_strength = KingStrength::STRONG_NOT_EDGE;
            else if (value == "t")
                r.king_strength = KingStrength::STRONG_ON_THRONE;
            else
                return bad_value();
        } else if (key == "sw") {
            if (value == "n")
                r.shieldwall = Shieldwall::NONE;
            else if (value == "w")
                r.shieldwall = Shieldwall::WEAK;
            else if (value == "s")
                r.shieldwall = Shieldwall::STRONG;
            else
                return bad_value();
        } else if (key == "swf") {
            auto b = parse_yes_no(key, value);
            if (!b) return Error{b.error()};
            r.shieldwall_flank = *b;
        } else if (key == "efe") {
            auto b = parse_yes_no(key, value);
            if (!b) return Error{b.error()};
            r.edge_fort = *b;
        } else if (key == "kj" || key == "nj" || key == "cj" || key == "mj" || key == "gj") {
            if (value != "n" && !value.empty())
                return error(k + " (jumps) is not supported: only " + k + ":n");
        } else if (key == "spd") {
            auto speed = parse_speed(value);
            if (!speed) return Error{speed.error()};
            r.speed = *speed;
        } else if (key == "ber") {
            return error("ber (berserk) is not supported");
        } else if (key == "nocap") {
            auto n = parse_int(key, value, 0, 100000);
            if (!n) return Error{n.error()};
            r.no_capture_limit = *n;
        } else if (key == "repc") {
            auto n = parse_int(key, value, 2, 3);
            if (!n) return Error{n.error()};
            r.repetition_count = *n;
        } else if (key == "repw") {
            auto n = parse_int(key, value, 0, 100000);
            if (!n) return Error{n.error()};
            r.repetition_span = *n;
        } else if (key == "camp") {
            auto list = parse_square_list(r.size, key, value);
            if (!list) return Error{list.error()};
            r.camps = *list;
        } else if (key == "campu") {
            auto set = parse_piece_list(key, value);
            if (!set) return Error{set.error()};
            r.camp_users = *set;
        } else if (key == "nomv") {
            if (value == "l")
                r.no_moves_loses = true;
            else if (value == "d")
                r.no_moves_loses = false;
            else
                return bad_value();
        } else if (key == "noatk") {
            auto b = parse_yes_no(key, value);
            if (!b) return Error{b.error()};
            r.no_attackers_wins = *b;
        } else if (key == "nrd") {
            auto b = parse_yes_no(key, value);
            if (!b) return Error{b.error()};
            r.no_defender_room_loses = *b;
        } else if (key == "start" || key == "starti") {
            if (have_start) return error("both start and starti given");
            have_start = true;
            std::string rec(value);
            if (key == "starti") {
                // Top row first: reverse the row order.
                std::vector<std::string> rows;
                size_t p = 0;
                while (p < rec.size()) {
                    size_t q = rec.find('/', p);
                    if (q == std::string::npos) q = rec.size();
                    if (q > p) rows.push_back(rec.substr(p, q - p));
                    p = q + 1;
                }
                rec = "/";
                for (auto it = rows.rbegin(); it != rows.rend(); ++it) rec += *it + "/";
            }
            auto placement = parse_opentafl_placement(r.size, rec);
            if (!placement) return error(k + ": " + placement.error());
            r.start = to_opentafl_position_record(r.size, *placement);
        } else {
            bool matched = false;
            for (int sk = 0; sk < SPECIAL_KINDS && !matched; ++sk) {
                const SpecialKeys& names = SPECIAL_KEYS[sk];
                auto& sp = r.special[sk];
                if (key == names.squares) {
                    auto list = parse_square_list(r.size, key, value);
                    if (!list) return Error{list.error()};
                    sp.squares = *list;
                    matched = true;
                    continue;
                }
                PieceSet* target = nullptr;
                PieceSet* second = nullptr;
                bool hostility = key == names.hostile || (sk == THRONE && key == "cenhe");
                if (key == names.hostile) {
                    target = &sp.hostile_occupied;
                    // Only the throne distinguishes empty from occupied (cenhe).
                    if (sk != THRONE) second = &sp.hostile_empty;
                } else if (key == names.pass)
                    target = &sp.may_pass;
                else if (key == names.stop)
                    target = &sp.may_stop;
                else if (key == names.reenter)
                    target = &sp.may_reenter;
                else if (sk == THRONE && key == "cenhe")
                    target = &sp.hostile_empty;
                if (target) {
                    auto set = parse_piece_list(key, value);
                    if (!set) return Error{set.error()};
                    PieceSet pieces = *set;
                    if (hostility && reading == RulesReading::BY_SIDE) {
                        // By side: t the attackers, T the defenders with their
                        // king; K alone is nobody.
                        pieces = PieceSet(
                            (contains(*set, ATTACKER) ? 1 << ATTACKER : 0) |
                            (contains(*set, DEFENDER) ? (1 << DEFENDER) | (1 << KING) : 0));
                    }
                    *target = pieces;
                    if (second) *second = pieces;
                    matched = true;
                }
            }
            if (!matched) return error("unknown key '" + k + "'");
        }
    }
    if (!have_start) return error("missing start:<position record>");
    return r;
}

std::string print_rules(const Rules& r) {
    std::string s = "dim:" + std::to_string(r.size);
    if (!r.name.empty()) {
        std::string name = r.name;
        std::replace(name.begin(), name.end(), ' ', '_');
        s += " name:" + name;
    }
    s += std::string(" esc:") + (r.escape == EscapeType::CORNER ? "c" : "e");
    s += std::string(" atkf:") + (r.attackers_first ? "y" : "n");
    s += std::string(" surf:") + (r.encirclement ? "y" : "n");
    static const char* tfr[] = {"d", "w", "l", "i"};
    s += std::string(" tfr:") + tfr[int(r.repetition)];
    static const char* ka[] = {"y", "n", "a", "h"};
    s += std::string(" ka:") + ka[int(r.king_armed)];
    static const char* ks[] = {"s", "w", "c", "m", "t"};
    s += std::string(" ks:") + ks[int(r.king_strength)];
    s += std::string(" linc:") + (r.linnaean ? "y" : "n");
    for (int sk = 0; sk < SPECIAL_KINDS; ++sk) {
        const auto& sp = r.special[sk];
        const SpecialKeys& names = SPECIAL_KEYS[sk];
        s += std::string(" ") + names.squares + ":";
        for (Square q : sp.squares) s += square_text(r.size, q) + ",";
        s += std::string(" ") + names.hostile + ":" + piece_list(sp.hostile_occupied);
        if (sk == THRONE) s += " cenhe:" + piece_list(sp.hostile_empty);
        s += std::string(" ") + names.pass + ":" + piece_list(sp.may_pass);
        s += std::string(" ") + names.stop + ":" + piece_list(sp.may_stop);
        s += std::string(" ") + names.reenter + ":" + piece_list(sp.may_reenter);
    }
    s += " nocap:" + std::to_string(r.no_capture_limit);
    // Say how the hostility lists read when reading them by side would
    // change them.
    bool by_piece = false;
    for (const auto& sp : r.special)
        for (PieceSet h : {sp.hostile_occupied, sp.hostile_empty})
            by_piece |= contains(h, DEFENDER) != contains(h, KING);
    if (by_piece) s += " hkp:y";
    s += " repc:" + std::to_string(r.repetition_count);
    s += std::string(" nomv:") + (r.no_moves_loses ? "l" : "d");
    s += std::string(" noatk:") + (r.no_attackers_wins ? "y" : "n");
    s += std::string(" nrd:") + (r.no_defender_room_loses ? "y" : "n");
    // Keys that OpenTafl strings never need are printed only when they say
    // something, so the strings of the other presets stay as they were.
    if (r.speed[ATTACKER] || r.speed[DEFENDER] || r.speed[KING]) {
        s += " spd:";
        for (const char* c = SPEED_ORDER; *c; ++c) {
            const int v = *c == 't'   ? r.speed[ATTACKER]
                          : *c == 'T' ? r.speed[DEFENDER]
                          : *c == 'K' ? r.speed[KING]
                                      : 0;
            s += std::to_string(v ? v : -1) + ",";
        }
    }
    if (r.repetition_span) s += " repw:" + std::to_string(r.repetition_span);
    // Shieldwall and edge fort, only where they differ from OpenTafl's
    // defaults (sw:n swf:y efe:n).
    static const char* sw[] = {"n", "w", "s"};
    if (r.shieldwall != Shieldwall::NONE) s += std::string(" sw:") + sw[int(r.shieldwall)];
    if (!r.shieldwall_flank) s += " swf:n";
    if (r.edge_fort) s += " efe:y";
    if (!r.camps.empty()) {
        s += " camp:";
        for (Square q : r.camps) s += square_text(r.size, q) + ",";
    }
    if (r.camp_users != ALL_PIECES) s += " campu:" + piece_list(r.camp_users);
    s += " start:" + r.start;
    return s;
}

const std::vector<Preset>& presets() {
    static const std::vector<Preset> table = {
        {"brandubh",
         "dim:7 name:Brandubh esc:c atkf:y surf:n tfr:w repc:3 ka:y ks:t linc:n "
         "cor:a1,g1,a7,g7, corh:tTK corp:K cors:K "
         "cen:d4, cenh: cenhe:tT cenp:tTK cens:K cenre:tTK "
         "nocap:0 nomv:l noatk:n nrd:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
         "Brandubh 7x7 (seeds 000/001): corner escape, king strong on the throne only, "
         "third repetition loses for the player who makes it"},
        {"brandubh-house",
         "dim:7 name:Brandubh_(house) esc:c atkf:y surf:n tfr:d repc:3 ka:y ks:w linc:n "
         "cor:a1,g1,a7,g7, corh:tTK corp:K cors:K "
         "cen:d4, cenh: cenhe:tTK cenp:tTK cens:K cenre:tTK "
         "nocap:120 nomv:l noatk:y nrd:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
         "Brandubh 7x7, house edition (seed 002): weak king, empty restricted squares hostile "
         "to all, draw at the third repetition or after 120 plies without a capture"},
        {"tablut",
         "dim:9 name:Tablut esc:e atkf:y surf:n tfr:d repc:2 ka:y ks:c linc:n "
         "cor: cen:e5, cenh: cenhe:tTK cenp:tTK cens: cenre:tTK "
         "nocap:0 nomv:d noatk:n nrd:n start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
         "Tablut 9x9 (seed 004): edge escape, nobody stops on the castle, king strong on and "
         "next to it, a repeated position or no legal move draws"},
        {"tablut-house",
         "dim:9 name:Tablut_(house) esc:e atkf:y surf:n tfr:d repc:3 ka:y ks:c linc:n "
         "cor: cen:e5, cenh: cenhe:tTK cenp:tTK cens:K cenre:tTK "
         "nocap:120 nomv:l noatk:y nrd:n start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
         "Tablut 9x9, house edition (seed 002): edge escape, the king may return to the "
         "throne, draw at the third repetition or after 120 plies without a capture"},
        {"opentafl-brandub",
         "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: "
         "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
         "OpenTafl's Brandub, exactly as OpenTafl sends it: weak armed king, throne never "
         "hostile, third repetition draws",
         RulesReading::BY_SIDE},
        {"opentafl-tablut",
         "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: "
         "cenhe:tcnkTCNK linc:y "
         "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
         "OpenTafl's Tablut, exactly as OpenTafl sends it: edge escape, king strong on and "
         "next to the throne, Linnaean capture, encirclement wins",
         RulesReading::BY_SIDE},
        // OpenTafl's other built-in variants up to 11x11, each exactly the
        // string OpenTafl sends an engine (OTN.md), read as OpenTafl reads it.
        {"fetlar",
         "dim:11 name:Fetlar atkf:y nj:n cj:n "
         "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
         "OpenTafl's Fetlar 11x11: corner escape, strong armed king, corners and empty throne "
         "hostile, encirclement wins, third repetition draws",
         RulesReading::BY_SIDE},
        {"computer-fetlar",
         "dim:11 name:Computer_Fetlar atkf:y tfr:w "
         "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
         "OpenTafl's Computer Fetlar 11x11: Fetlar, but the player who makes a third "
         "repetition loses",
         RulesReading::BY_SIDE},
        {"tawlbwrdd",
         "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: "
         "start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
         "OpenTafl's Tawlbwrdd 11x11: edge escape, weak king, no throne or corners",
         RulesReading::BY_SIDE},
        {"sea-battle",
         "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: "
         "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
         "OpenTafl's Sea Battle 9x9: edge escape, unarmed strong king, no throne or corners",
         RulesReading::BY_SIDE},
        {"foteviken",
         "dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: "
         "afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cenp:tcnkTCNK "
         "aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre: "
         "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
         "OpenTafl's Foteviken Tablut 9x9: edge escape, attackers' forts they may use only "
         "while standing in one, nobody crosses the empty throne, nothing hostile but the "
         "attackers",
         RulesReading::BY_SIDE},
        {"magpie",
         "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, "
         "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
         "OpenTafl's Magpie 7x7: the king moves one square at a time and is captured by "
         "hostile squares on every side, the board's edge counting as one",
         RulesReading::BY_SIDE},
        // The Bologna Tablut Challenge's server (BOLOGNA.md). The 16 camps
        // are two kinds of special square only for their hostility: the
        // outer middle squares (dfor) are not hostile to attackers. Nobody
        // enters or crosses a camp from outside (the lists); an attacker
        // standing in one moves within it (camp, campu).
        {"ashton",
         "dim:9 name:Ashton_Tablut esc:e atkf:n surf:n tfr:d repc:2 ka:y ks:c linc:n "
         "cor: cen:e5, cenh:tT cenhe:tTK cenp: cens: "
         "afor:a4,a6,b5,d1,f1,e2,i4,i6,h5,d9,f9,e8, aforh:tTK aforp: afors: aforre: "
         "dfor:a5,e1,i5,e9, dforh:TK dforp: dfors: dforre: "
         "nocap:0 nomv:l noatk:n nrd:n repw:0 "
         "camp:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, campu:t "
         "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
         "Ashton Tablut as the Bologna Tablut Challenge's server plays it: defenders first, "
         "edge escape, camps, nobody on or over the throne, a second occurrence draws"},
        // OpenTafl's two Copenhagen strings, exactly as it sends them:
        // shieldwalls closed by pieces or corners, edge-fort escape.
        {"copenhagen",
         "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y "
         "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
         "OpenTafl's Copenhagen 11x11, exactly as OpenTafl sends it: corner escape, strong "
         "armed king, shieldwall capture by the arriving end piece, edge-fort escape, the "
         "player who makes a third repetition loses",
         RulesReading::BY_SIDE},
        {"copenhagen-relaxed",
         "dim:11 name:Copenhagen_(relaxed_shieldwall) atkf:y tfr:w sw:s swf:n efe:y "
         "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
         "OpenTafl's Copenhagen with the relaxed shieldwall (swf:n): after any move of a "
         "side, every complete wall of that side captures",
         RulesReading::BY_SIDE},
    };
    return table;
}

std::string_view default_preset_name() {
    return presets().front().name;
}

Result<Rules> preset_rules(std::string_view name) {
    for (const Preset& p : presets())
        if (name == p.name) return parse_rules(p.rules, p.reading);
    std::string names;
    for (const Preset& p : presets()) names += std::string(names.empty() ? "" : ", ") + p.name;
    return Error{"unknown variant '" + std::string(name) + "' (known: " + names + ")"};
}

} // namespace branan
