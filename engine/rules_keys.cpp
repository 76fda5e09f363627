#include "rules_keys.h"

#include <algorithm>
#include <cassert>
#include <vector>

#include "coordinates.h"
#include "placement.h"
#include "text.h"

namespace branan {

namespace {

// OpenTafl's defaults for a board of the given size: what a key left out
// means.
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
    return r;
}

// Whether a key is printed when its field holds OpenTafl's default. Keys
// that OpenTafl's strings never need are printed only when they say
// something, so that the printed strings of the other presets stay short.
enum class Printed : bool { ALWAYS, UNLESS_DEFAULT };

template <auto Field, Printed P>
bool left_out(const Rules& r) {
    return P == Printed::UNLESS_DEFAULT && r.*Field == default_rules(r.size).*Field;
}

// ------------------------------------------------------------ letters

// One letter of a key whose value is one of a few letters.
template <typename T>
struct Letter {
    const char* text;
    T value;
};

constexpr Letter<bool> YES_NO[] = {{"y", true}, {"n", false}};
constexpr Letter<bool> LOSES_DRAWS[] = {{"l", true}, {"d", false}};
constexpr Letter<EscapeType> ESCAPES[] = {{"c", EscapeType::CORNER}, {"e", EscapeType::EDGE}};
constexpr Letter<RepetitionOutcome> REPETITION_OUTCOMES[] = {
    {"d", RepetitionOutcome::DRAW},           {"w", RepetitionOutcome::MOVER_LOSES},
    {"l", RepetitionOutcome::MOVER_WINS},     {"i", RepetitionOutcome::IGNORED},
    {"a", RepetitionOutcome::DEFENDERS_LOSE},
};
constexpr Letter<RuleCode> RULE_CODES[] = {
    {"o", RuleCode::OPENTAFL}, {"r", RuleCode::HNEFATAFL_RS}, {"g", RuleCode::HNEFATAFL_ORG}};
constexpr Letter<KingArmed> KING_ARMED[] = {
    {"y", KingArmed::YES},
    {"n", KingArmed::NO},
    {"a", KingArmed::ANVIL_ONLY},
    {"h", KingArmed::HAMMER_ONLY},
};
constexpr Letter<Jump> JUMPS[] = {
    {"n", Jump::NONE},
    {"j", Jump::STANDARD},
    {"c", Jump::CAPTURE},
    {"r", Jump::RESTRICTED},
};
constexpr Letter<Berserk> BERSERKS[] = {
    {"n", Berserk::NONE},
    {"c", Berserk::CAPTURE},
    {"m", Berserk::MOVE},
};
constexpr Letter<KingStrength> KING_STRENGTHS[] = {
    {"s", KingStrength::STRONG},
    {"w", KingStrength::WEAK},
    {"c", KingStrength::STRONG_NEAR_THRONE},
    {"m", KingStrength::STRONG_NOT_EDGE},
    {"t", KingStrength::STRONG_ON_THRONE},
};
constexpr Letter<Shieldwall> SHIELDWALLS[] = {
    {"n", Shieldwall::NONE}, {"w", Shieldwall::WEAK}, {"s", Shieldwall::STRONG}};

template <typename T, size_t N>
Result<T> parse_letter(const Letter<T> (&letters)[N], std::string_view value) {
    for (const Letter<T>& l : letters)
        if (value == l.text) return l.value;
    std::string expected;
    for (size_t i = 0; i < N; ++i)
        expected += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + letters[i].text;
    return Error{"expected " + expected + ", got '" + printable(value) + "'"};
}

template <auto Field, const auto& Letters>
Status read_letter(RulesBeingRead& in, std::string_view value) {
    auto v = parse_letter(Letters, value);
    if (!v) return Error{v.error()};
    in.rules.*Field = *v;
    return {};
}

template <auto Field, const auto& Letters, Printed P>
std::optional<std::string> print_letter(const Rules& r) {
    if (left_out<Field, P>(r)) return std::nullopt;
    for (const auto& l : Letters)
        if (r.*Field == l.value) return l.text;
    assert(false && "a value with no letter");
    return std::nullopt;
}

template <auto Field, const auto& Letters, Printed P = Printed::ALWAYS>
constexpr RulesKey letter(const char* name) {
    return {name, &read_letter<Field, Letters>, &print_letter<Field, Letters, P>};
}

// ------------------------------------------------------------ numbers

template <auto Field, int Lo, int Hi>
Status read_number(RulesBeingRead& in, std::string_view value) {
    auto n = parse_integer(value, Lo, Hi);
    if (!n) return Error{n.error()};
    in.rules.*Field = int(*n);
    return {};
}

template <auto Field, Printed P>
std::optional<std::string> print_number(const Rules& r) {
    if (left_out<Field, P>(r)) return std::nullopt;
    return std::to_string(r.*Field);
}

template <auto Field, int Lo, int Hi, Printed P = Printed::ALWAYS>
constexpr RulesKey number(const char* name) {
    return {name, &read_number<Field, Lo, Hi>, &print_number<Field, P>};
}

// ------------------------------------------------------------ pieces

// Piece letters: t c n k m g attackers, T C N K M G defenders. Only the
// attacker soldier, defender soldier and defender king exist in the games
// we play; the letters of the other kinds are accepted and have no effect.
Result<PieceSet> parse_pieces(std::string_view value) {
    PieceSet set = 0;
    for (char c : value) {
        if (c == 't')
            set |= 1 << ATTACKER;
        else if (c == 'T')
            set |= 1 << DEFENDER;
        else if (c == 'K')
            set |= 1 << KING;
        else if (std::string_view("cnkmgCNMG").find(c) == std::string_view::npos)
            return Error{"unknown piece letter '" + printable(std::string_view(&c, 1)) + "'"};
    }
    return set;
}

std::string pieces_text(PieceSet set) {
    std::string s;
    if (contains(set, ATTACKER)) s += 't';
    if (contains(set, DEFENDER)) s += 'T';
    if (contains(set, KING)) s += 'K';
    return s;
}

template <auto Field>
Status read_rules_pieces(RulesBeingRead& in, std::string_view value) {
    auto set = parse_pieces(value);
    if (!set) return Error{set.error()};
    in.rules.*Field = *set;
    return {};
}

template <auto Field, Printed P>
std::optional<std::string> print_rules_pieces(const Rules& r) {
    if (left_out<Field, P>(r)) return std::nullopt;
    return pieces_text(r.*Field);
}

template <auto Field, Printed P = Printed::ALWAYS>
constexpr RulesKey pieces(const char* name) {
    return {name, &read_rules_pieces<Field>, &print_rules_pieces<Field, P>};
}

// A list of pieces of one kind of special square. `Also` is a second field
// the same list fills: the hostility lists of every kind but the throne are
// one list for the occupied and the empty square (the throne has cenhe).
template <SpecialKind Kind, PieceSet SpecialSquares::*Field,
          PieceSet SpecialSquares::*Also = nullptr>
Status read_special_pieces(RulesBeingRead& in, std::string_view value) {
    auto set = parse_pieces(value);
    if (!set) return Error{set.error()};
    SpecialSquares& sp = in.rules.special[Kind];
    sp.*Field = *set;
    if constexpr (Also != nullptr) sp.*Also = *set;
    return {};
}

template <SpecialKind Kind, PieceSet SpecialSquares::*Field>
std::optional<std::string> print_special_pieces(const Rules& r) {
    return pieces_text(r.special[Kind].*Field);
}

template <SpecialKind Kind, PieceSet SpecialSquares::*Field,
          PieceSet SpecialSquares::*Also = nullptr>
constexpr RulesKey special_pieces(const char* name) {
    return {name, &read_special_pieces<Kind, Field, Also>, &print_special_pieces<Kind, Field>};
}

// ------------------------------------------------------------ squares

// Squares separated by commas, each once, kept sorted; empty items are
// skipped (OpenTafl ends its lists with a comma).
Status read_squares(std::vector<Square>& out, int size, std::string_view value) {
    std::vector<Square> list;
    for (std::string_view item : split(value, ',')) {
        if (item.empty()) continue;
        auto sq = parse_square_text(size, item);
        if (!sq) return Error{sq.error()};
        if (std::find(list.begin(), list.end(), *sq) == list.end()) list.push_back(*sq);
    }
    std::sort(list.begin(), list.end());
    out = std::move(list);
    return {};
}

std::string squares_text(const std::vector<Square>& squares, int size) {
    std::string s;
    for (Square q : squares) s += square_text(size, q) + ",";
    return s;
}

template <auto Field>
Status read_rules_squares(RulesBeingRead& in, std::string_view value) {
    return read_squares(in.rules.*Field, in.rules.size, value);
}

template <auto Field, Printed P>
std::optional<std::string> print_rules_squares(const Rules& r) {
    if (left_out<Field, P>(r)) return std::nullopt;
    return squares_text(r.*Field, r.size);
}

template <auto Field, Printed P = Printed::ALWAYS>
constexpr RulesKey squares(const char* name) {
    return {name, &read_rules_squares<Field>, &print_rules_squares<Field, P>};
}

template <SpecialKind Kind>
Status read_special_squares(RulesBeingRead& in, std::string_view value) {
    return read_squares(in.rules.special[Kind].squares, in.rules.size, value);
}

template <SpecialKind Kind>
std::optional<std::string> print_special_squares(const Rules& r) {
    return squares_text(r.special[Kind].squares, r.size);
}

template <SpecialKind Kind>
constexpr RulesKey special_squares(const char* name) {
    return {name, &read_special_squares<Kind>, &print_special_squares<Kind>};
}

// ------------------------------------------------------------ keys of their own

// dim comes first (parse_rules sees to it): every other key changes
// OpenTafl's defaults for that size.
Status read_dim(RulesBeingRead& in, std::string_view value) {
    auto n = parse_integer(value, 1, 99);
    if (!n) return Error{n.error()};
    if (*n < MIN_SIZE || *n > MAX_BOARD_SIZE) {
        const std::string n_text = std::to_string(*n);
        return Error{"a board of " + n_text + "x" + n_text + " (dim:" + n_text +
                     ") is not supported: boards from " + std::to_string(MIN_SIZE) + "x" +
                     std::to_string(MIN_SIZE) + " to " + std::to_string(MAX_BOARD_SIZE) + "x" +
                     std::to_string(MAX_BOARD_SIZE)};
    }
    in.rules = default_rules(int(*n));
    return {};
}

std::optional<std::string> print_dim(const Rules& r) {
    return std::to_string(r.size);
}

// A name is one word: '_' stands for a space.
Status read_name(RulesBeingRead& in, std::string_view value) {
    in.rules.name = std::string(value);
    std::replace(in.rules.name.begin(), in.rules.name.end(), '_', ' ');
    return {};
}

std::optional<std::string> print_name(const Rules& r) {
    if (r.name.empty()) return std::nullopt;
    std::string name = r.name;
    std::replace(name.begin(), name.end(), ' ', '_');
    return name;
}

// hkp: how the hostility lists name pieces (hostility_by_side).
constexpr Letter<RulesReading> READINGS[] = {{"y", RulesReading::BY_PIECE},
                                             {"n", RulesReading::BY_SIDE}};

Status read_hkp(RulesBeingRead& in, std::string_view value) {
    auto reading = parse_letter(READINGS, value);
    if (!reading) return Error{reading.error()};
    in.reading = *reading;
    return {};
}

// Printed only where reading the lists by side would change them.
std::optional<std::string> print_hkp(const Rules& r) {
    for (const SpecialSquares& sp : r.special)
        for (PieceSet h : {sp.hostile_occupied, sp.hostile_empty})
            if (contains(h, DEFENDER) != contains(h, KING)) return "y";
    return std::nullopt;
}

// spd: one number for every kind, or one per kind in the order
// tcnkmgTCNKMG (12) or tcnkTCNK (8); -1 or 0 = no limit. OpenTafl's parser
// ignores the 2- and 10-number forms, and so do we.
constexpr std::string_view SPEED_ORDER = "tcnkmgTCNKMG";

Status read_speed(RulesBeingRead& in, std::string_view value) {
    std::vector<int> numbers;
    for (std::string_view item : split(value, ',')) {
        if (item.empty()) continue;
        auto n = parse_integer(item, -1, 100);
        if (!n) return Error{n.error()};
        numbers.push_back(std::max(int(*n), 0));
    }
    std::array<int, PIECE_KINDS> speed{};
    const size_t count = numbers.size();
    if (count == 1) {
        speed[ATTACKER] = speed[DEFENDER] = speed[KING] = numbers[0];
    } else if (count == 8 || count == 12) {
        const std::string_view order = count == 12 ? SPEED_ORDER : "tcnkTCNK";
        speed[ATTACKER] = numbers[order.find('t')];
        speed[DEFENDER] = numbers[order.find('T')];
        speed[KING] = numbers[order.find('K')];
    } else if (count != 2 && count != 10) {
        return Error{"expected 1, 8 or 12 numbers, got " + std::to_string(count)};
    }
    in.rules.speed = speed;
    return {};
}

std::optional<std::string> print_speed(const Rules& r) {
    if (left_out<&Rules::speed, Printed::UNLESS_DEFAULT>(r)) return std::nullopt;
    std::string s;
    for (char c : SPEED_ORDER) {
        const int v = c == 't'   ? r.speed[ATTACKER]
                      : c == 'T' ? r.speed[DEFENDER]
                      : c == 'K' ? r.speed[KING]
                                 : 0;
        s += std::to_string(v ? v : -1) + ",";
    }
    return s;
}

// start: an OpenTafl position record, rank 1 first; starti the same with
// the top rank first.
Status read_start_record(RulesBeingRead& in, const std::string& record) {
    if (in.have_start) return Error{"both start and starti given"};
    in.have_start = true;
    auto placement = parse_opentafl_placement(in.rules.size, record);
    if (!placement) return Error{placement.error()};
    in.rules.start = to_opentafl_position_record(in.rules.size, *placement);
    return {};
}

Status read_start(RulesBeingRead& in, std::string_view value) {
    return read_start_record(in, std::string(value));
}

Status read_start_top_first(RulesBeingRead& in, std::string_view value) {
    std::string record = "/";
    const std::vector<std::string_view> rows = split(value, '/');
    for (auto row = rows.rbegin(); row != rows.rend(); ++row)
        if (!row->empty()) record += std::string(*row) + "/";
    return read_start_record(in, record);
}

std::optional<std::string> print_start(const Rules& r) {
    return r.start;
}

// OpenTafl's keys for mercenaries and guards, which no game we play has:
// accepted only when they say the jump is absent.
Status read_no_jumps(RulesBeingRead&, std::string_view value) {
    if (value != "n" && !value.empty())
        return Error{"jumps of mercenaries and guards are not supported: only n"};
    return {};
}

using SS = SpecialSquares;

// The table: print order, which is also the order of OpenTafl's strings.
constexpr RulesKey KEYS[] = {
    {"dim", &read_dim, &print_dim},
    {"name", &read_name, &print_name},
    letter<&Rules::escape, ESCAPES>("esc"),
    letter<&Rules::attackers_first, YES_NO>("atkf"),
    letter<&Rules::encirclement, YES_NO>("surf"),
    letter<&Rules::repetition, REPETITION_OUTCOMES>("tfr"),
    letter<&Rules::king_armed, KING_ARMED>("ka"),
    letter<&Rules::king_strength, KING_STRENGTHS>("ks"),
    letter<&Rules::linnaean, YES_NO>("linc"),
    special_squares<CORNER>("cor"),
    special_pieces<CORNER, &SS::hostile_occupied, &SS::hostile_empty>("corh"),
    special_pieces<CORNER, &SS::may_pass>("corp"),
    special_pieces<CORNER, &SS::may_stop>("cors"),
    special_pieces<CORNER, &SS::may_reenter>("corre"),
    special_squares<THRONE>("cen"),
    special_pieces<THRONE, &SS::hostile_occupied>("cenh"),
    special_pieces<THRONE, &SS::hostile_empty>("cenhe"),
    special_pieces<THRONE, &SS::may_pass>("cenp"),
    special_pieces<THRONE, &SS::may_stop>("cens"),
    special_pieces<THRONE, &SS::may_reenter>("cenre"),
    special_squares<ATTACKER_FORT>("afor"),
    special_pieces<ATTACKER_FORT, &SS::hostile_occupied, &SS::hostile_empty>("aforh"),
    special_pieces<ATTACKER_FORT, &SS::may_pass>("aforp"),
    special_pieces<ATTACKER_FORT, &SS::may_stop>("afors"),
    special_pieces<ATTACKER_FORT, &SS::may_reenter>("aforre"),
    special_squares<DEFENDER_FORT>("dfor"),
    special_pieces<DEFENDER_FORT, &SS::hostile_occupied, &SS::hostile_empty>("dforh"),
    special_pieces<DEFENDER_FORT, &SS::may_pass>("dforp"),
    special_pieces<DEFENDER_FORT, &SS::may_stop>("dfors"),
    special_pieces<DEFENDER_FORT, &SS::may_reenter>("dforre"),
    number<&Rules::no_capture_limit, 0, 100000>("nocap"),
    {"hkp", &read_hkp, &print_hkp},
    number<&Rules::repetition_count, 2, 3>("repc"),
    letter<&Rules::no_moves_loses, LOSES_DRAWS>("nomv"),
    letter<&Rules::no_attackers_wins, YES_NO>("noatk"),
    letter<&Rules::no_defender_room_loses, YES_NO>("nrd"),
    {"spd", &read_speed, &print_speed},
    number<&Rules::repetition_span, 0, 100000, Printed::UNLESS_DEFAULT>("repw"),
    letter<&Rules::shieldwall, SHIELDWALLS, Printed::UNLESS_DEFAULT>("sw"),
    letter<&Rules::shieldwall_flank, YES_NO, Printed::UNLESS_DEFAULT>("swf"),
    letter<&Rules::edge_fort, YES_NO, Printed::UNLESS_DEFAULT>("efe"),
    letter<&Rules::repetition_moves_only, YES_NO, Printed::UNLESS_DEFAULT>("repm"),
    letter<&Rules::shieldwall_code, RULE_CODES, Printed::UNLESS_DEFAULT>("swr"),
    letter<&Rules::edge_fort_code, RULE_CODES, Printed::UNLESS_DEFAULT>("efr"),
    letter<&Rules::encirclement_code, RULE_CODES, Printed::UNLESS_DEFAULT>("surr"),
    letter<&Rules::defender_repetition_ban, YES_NO, Printed::UNLESS_DEFAULT>("dban"),
    letter<&Rules::ban_includes_start, YES_NO, Printed::UNLESS_DEFAULT>("dbans"),
    letter<&Rules::cannot_escape, YES_NO, Printed::UNLESS_DEFAULT>("cne"),
    number<&Rules::draw_ply, 0, 100000, Printed::UNLESS_DEFAULT>("plyd"),
    squares<&Rules::camps, Printed::UNLESS_DEFAULT>("camp"),
    pieces<&Rules::camp_users, Printed::UNLESS_DEFAULT>("campu"),
    letter<&Rules::king_jump, JUMPS, Printed::UNLESS_DEFAULT>("kj"),
    letter<&Rules::knight_jump, JUMPS, Printed::UNLESS_DEFAULT>("nj"),
    letter<&Rules::commander_jump, JUMPS, Printed::UNLESS_DEFAULT>("cj"),
    letter<&Rules::berserk, BERSERKS, Printed::UNLESS_DEFAULT>("ber"),
    {"start", &read_start, &print_start},
    {"starti", &read_start_top_first, nullptr},
    {"mj", &read_no_jumps, nullptr},
    {"gj", &read_no_jumps, nullptr},
};

} // namespace

std::span<const RulesKey> rules_keys() {
    return KEYS;
}

const RulesKey* find_rules_key(std::string_view name) {
    for (const RulesKey& key : KEYS)
        if (name == key.name) return &key;
    return nullptr;
}

Status validate_rules(const Rules& r) {
    // A key as the table prints it, for the messages.
    auto key_text = [&](const char* name) {
        return std::string(name) + ":" + find_rules_key(name)->print(r).value_or("");
    };
    if (r.shieldwall_code != RuleCode::OPENTAFL) {
        if (r.shieldwall == Shieldwall::NONE)
            return Error{key_text("swr") +
                         " says how shieldwalls are judged, but there are none (sw:n)"};
        if (!r.shieldwall_flank)
            return Error{key_text("swr") +
                         " has no form where any wall piece captures (swf:n is OpenTafl's)"};
    }
    if (r.edge_fort_code != RuleCode::OPENTAFL && !r.edge_fort)
        return Error{key_text("efr") +
                     " says how edge forts are judged, but there are none (efe:n)"};
    if (r.encirclement_code != RuleCode::OPENTAFL && !r.encirclement)
        return Error{key_text("surr") + " says how encirclement is judged, but it is off (surf:n)"};
    if (!r.ban_includes_start && !r.defender_repetition_ban)
        return Error{"dbans:n says what the repetition ban compares with, but there is none "
                     "(dban:n)"};
    if (r.cannot_escape) {
        const int n = r.size;
        const std::vector<Square> board_corners = {0, n - 1, n * (n - 1), n * n - 1};
        if (r.escape != EscapeType::CORNER || r.special[CORNER].squares != board_corners)
            return Error{"cne:y judges the king's way to the four corners, but the king does not "
                         "escape on exactly the board's corners (esc:c, cor)"};
    }
    return {};
}

Status check_supported(const Rules& r) {
    if (r.size < MIN_SIZE || r.size > MAX_BOARD_SIZE)
        return Error{"board size " + std::to_string(r.size) + " is not supported"};
    // OpenTafl's walls, forts, encirclement and Linnaean capture would have
    // to know jumps and chains; no game has both, so they are refused
    // together. Commanders and knights are the start's c, n, C and N.
    const bool special_moves = r.start.find_first_of("cnCN") != std::string::npos ||
                               r.king_jump != Jump::NONE || r.berserk != Berserk::NONE;
    if (special_moves && (r.shieldwall != Shieldwall::NONE || r.edge_fort || r.encirclement ||
                          r.linnaean || r.defender_repetition_ban || r.camps.size()))
        return Error{"commanders, knights, jumps and berserk chains are supported without sw, "
                     "efe, surf, linc, dban and camp"};
    return {};
}

void hostility_by_side(Rules& rules) {
    for (SpecialSquares& sp : rules.special)
        for (PieceSet* h : {&sp.hostile_occupied, &sp.hostile_empty})
            *h = PieceSet((contains(*h, ATTACKER) ? 1 << ATTACKER : 0) |
                          (contains(*h, DEFENDER) ? (1 << DEFENDER) | (1 << KING) : 0));
}

} // namespace branan
