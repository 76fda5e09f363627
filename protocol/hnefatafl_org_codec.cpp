#include "hnefatafl_org_codec.h"

#include <cctype>
#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "clock.h"
#include "coordinates.h"
#include "notation.h"
#include "text.h"

namespace branan::org {

using nlohmann::json;

namespace {

// A JSON document, or nothing when the text is not one (never throws).
std::optional<json> parse_json(std::string_view text) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) return std::nullopt;
    return j;
}

std::optional<int64_t> integer_of(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
}

std::optional<std::string> string_of(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

} // namespace

// ------------------------------------------------------------------ rules

Result<Rules> server_rules(int size) {
    if (size != 13 && size != 11 && size != 7)
        return Error{"board size " + std::to_string(size) + " (the server plays 7, 11 and 13)"};
    const char* preset = hnefatafl_org_preset(size);
    auto rules = preset_rules(preset);
    if (!rules) return Error{"this build has no '" + std::string(preset) + "' rules preset"};
    return rules;
}

Result<EditionPtr> server_edition(int size) {
    auto rules = server_rules(size);
    if (!rules) return Error{rules.error()};
    return Edition::make(*rules);
}

// ------------------------------------------------------------------ words

const char* role_name(Side s) {
    return s == ATTACKERS ? "attacker" : "defender";
}

std::optional<Side> parse_role(std::string_view word) {
    if (word == "attacker") return ATTACKERS;
    if (word == "defender") return DEFENDERS;
    return std::nullopt;
}

// ------------------------------------------------------------------ games

Result<TimeControl> parse_time_control(std::string_view text) {
    if (text == "untimed" || text == "un-timed") return TimeControl{false, 0, 0};
    const auto parts = split(text, '+');
    if (parts.size() != 2)
        return Error{"time '" + printable(text) + "': expected MS+S (900000+10) or untimed"};
    auto ms = parse_integer(parts[0], 1000, MAX_TIME_MS);
    if (!ms) return Error{"time '" + printable(text) + "': milliseconds " + ms.error()};
    auto add = parse_integer(parts[1], 0, 1 << 24);
    if (!add) return Error{"time '" + printable(text) + "': increment " + add.error()};
    return TimeControl{true, *ms, int(*add)};
}

std::string to_string(const TimeControl& t) {
    if (!t.timed) return "untimed";
    return std::to_string(t.ms) + "+" + std::to_string(t.add_s);
}

std::string new_game_json(const NewGame& g) {
    // The server's field order (serde writes a struct's fields in order).
    std::string time = g.time.timed
                           ? "{\"Timed\":{\"add_seconds\":" + std::to_string(g.time.add_s) +
                                 ",\"milliseconds_left\":" + std::to_string(g.time.ms) + "}}"
                           : std::string("\"UnTimed\"");
    return std::string("{\"role\":\"") + (g.role == ATTACKERS ? "Attacker" : "Defender") +
           "\",\"rated\":" + (g.rated ? "true" : "false") + ",\"time_settings\":" + time +
           ",\"board_size\":" + std::to_string(g.board_size) + "}";
}

Result<NewGame> parse_new_game_json(std::string_view text) {
    auto j = parse_json(text);
    if (!j || !j->is_object()) return Error{"new_game: not a JSON object"};
    NewGame g;
    const auto role = string_of(*j, "role");
    if (role != "Attacker" && role != "Defender") return Error{"new_game: no role"};
    g.role = *role == "Attacker" ? ATTACKERS : DEFENDERS;
    auto rated = j->find("rated");
    if (rated == j->end() || !rated->is_boolean()) return Error{"new_game: no rated"};
    g.rated = rated->get<bool>();
    auto time = j->find("time_settings");
    if (time == j->end()) return Error{"new_game: no time_settings"};
    if (time->is_string() && *time == "UnTimed") {
        g.time = {false, 0, 0};
    } else if (time->is_object() && time->contains("Timed")) {
        const json& t = (*time)["Timed"];
        const auto add = integer_of(t, "add_seconds");
        const auto ms = integer_of(t, "milliseconds_left");
        if (!add || !ms || *add < 0 || *ms <= 0) return Error{"new_game: bad time_settings"};
        g.time = {true, *ms, int(*add)};
    } else {
        return Error{"new_game: bad time_settings"};
    }
    const auto size = integer_of(*j, "board_size");
    if (!size || (*size != 7 && *size != 11 && *size != 13))
        return Error{"new_game: no board_size (7, 11 or 13)"};
    g.board_size = int(*size);
    return g;
}

std::string join_game_words(const JoinGame& j) {
    std::string time =
        j.time.timed ? "fischer " + std::to_string(j.time.ms) + " " + std::to_string(j.time.add_s)
                     : std::string("un-timed _ _");
    return j.attacker + " " + j.defender + " " + (j.rated ? "rated" : "unrated") + " " + time +
           " " + std::to_string(j.board_size);
}

Result<JoinGame> parse_join_game(const std::vector<std::string_view>& w) {
    if (w.size() != 7) return Error{"join_game: expected 7 words, got " + std::to_string(w.size())};
    JoinGame j;
    j.attacker = std::string(w[0]);
    j.defender = std::string(w[1]);
    if (w[2] != "rated" && w[2] != "unrated") return Error{"join_game: rated or unrated?"};
    j.rated = w[2] == "rated";
    if (w[3] == "fischer") {
        auto ms = parse_integer(w[4], 0, MAX_TIME_MS);
        auto add = parse_integer(w[5], 0, 1 << 24);
        if (!ms || !add) return Error{"join_game: bad clock"};
        j.time = {true, *ms, int(*add)};
    } else if (w[3] == "un-timed") {
        j.time = {false, 0, 0};
    } else {
        return Error{"join_game: fischer or un-timed?"};
    }
    auto size = parse_integer(w[6], 7, 13);
    if (!size) return Error{"join_game: board size " + size.error()};
    j.board_size = int(*size);
    return j;
}

std::string game_time_json(const GameTime& t) {
    return "{\"id\":" + std::to_string(t.id) +
           ",\"attacker_ms_left\":" + std::to_string(t.ms_left[ATTACKERS]) +
           ",\"defender_ms_left\":" + std::to_string(t.ms_left[DEFENDERS]) + "}";
}

Result<GameTime> parse_game_time_json(std::string_view text) {
    auto j = parse_json(text);
    if (!j || !j->is_object()) return Error{"game_time: not a JSON object"};
    const auto id = integer_of(*j, "id");
    const auto a = integer_of(*j, "attacker_ms_left");
    const auto d = integer_of(*j, "defender_ms_left");
    if (!id || !a || !d)
        return Error{"game_time: id, attacker_ms_left or defender_ms_left missing"};
    GameTime t;
    t.id = *id;
    t.ms_left[ATTACKERS] = *a;
    t.ms_left[DEFENDERS] = *d;
    return t;
}

std::vector<std::pair<int64_t, int>> games_updated_sizes(std::string_view text) {
    std::vector<std::pair<int64_t, int>> out;
    auto j = parse_json(text);
    if (!j || !j->is_object()) return out;
    auto add = [&](const json& game) {
        if (!game.is_object()) return;
        const auto id = integer_of(game, "id");
        const auto size = string_of(game, "board_size"); // "_11"
        if (!id || !size || size->size() < 2) return;
        if (auto n = parse_integer(std::string_view(*size).substr(1), 1, 99))
            out.emplace_back(*id, int(*n));
    };
    if (auto c = j->find("created"); c != j->end() && c->is_array())
        for (const json& entry : *c)
            if (entry.is_array() && entry.size() == 3) add(entry[2]);
    if (auto u = j->find("updated"); u != j->end() && u->is_object())
        for (const auto& [key, game] : u->items()) add(game);
    return out;
}

std::string resume_game_json(const ResumedGame& g) {
    json j = json::object();
    j["id"] = g.id;
    j["attackers"] = g.attacker;
    j["defenders"] = g.defender;
    j["dim"] = g.board_size;
    j["start"] = g.start;
    if (g.time.timed) {
        j["time_control"] = {{"main_time_seconds", g.time.ms / 1000},
                             {"increment_length", g.time.add_s}};
        j["time_remaining_ms"] = {{"attackers", g.ms_left[ATTACKERS]},
                                  {"defenders", g.ms_left[DEFENDERS]},
                                  {"last_move", g.last_move_utc}};
    } else {
        j["time_control"] = nullptr;
        j["time_remaining_ms"] = nullptr;
    }
    std::string moves;
    for (const std::string& m : g.moves) moves += (moves.empty() ? "" : " ") + m;
    j["moves"] = moves;
    j["rated"] = g.rated;
    j["messages"] = json::array();
    // dump() keeps insertion order only with ordered_json; the order does
    // not matter to a JSON reader.
    return j.dump();
}

Result<ResumedGame> parse_resume_game_json(std::string_view text) {
    auto j = parse_json(text);
    if (!j || !j->is_object()) return Error{"resume_game_json: not a JSON object"};
    ResumedGame g;
    const auto id = integer_of(*j, "id");
    const auto a = string_of(*j, "attackers");
    const auto d = string_of(*j, "defenders");
    const auto dim = integer_of(*j, "dim");
    const auto moves = string_of(*j, "moves");
    if (!id || !a || !d || !dim || !moves)
        return Error{"resume_game_json: id, attackers, defenders, dim or moves missing"};
    g.id = *id;
    g.attacker = *a;
    g.defender = *d;
    g.board_size = int(*dim);
    g.start = string_of(*j, "start").value_or("");
    for (std::string_view m : split_words(*moves)) g.moves.emplace_back(m);
    if (auto r = j->find("rated"); r != j->end() && r->is_boolean()) g.rated = r->get<bool>();
    auto tc = j->find("time_control");
    if (tc == j->end() || tc->is_null()) {
        g.time = {false, 0, 0};
    } else {
        const auto main = integer_of(*tc, "main_time_seconds");
        const auto inc = integer_of(*tc, "increment_length");
        if (!main || !inc) return Error{"resume_game_json: bad time_control"};
        g.time = {true, *main * 1000, int(*inc)};
        auto left = j->find("time_remaining_ms");
        if (left == j->end() || !left->is_object())
            return Error{"resume_game_json: a timed game without time_remaining_ms"};
        const auto la = integer_of(*left, "attackers");
        const auto ld = integer_of(*left, "defenders");
        if (!la || !ld) return Error{"resume_game_json: bad time_remaining_ms"};
        g.ms_left[ATTACKERS] = *la;
        g.ms_left[DEFENDERS] = *ld;
        g.last_move_utc = string_of(*left, "last_move").value_or("");
    }
    return g;
}

std::string start_text(const Position& pos) {
    const int n = pos.size();
    std::string out = "/";
    for (int rank = n - 1; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < n; ++file) {
            const Piece p = pos.piece_on(pos.edition().square(file, rank));
            if (p == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) out += std::to_string(empty);
            empty = 0;
            out += p == ATTACKER ? 'A' : p == KING ? 'K' : 'D';
        }
        if (empty) out += std::to_string(empty);
        out += '/';
    }
    return out;
}

std::string move_text(const Position& before, Move m) {
    const Edition& edition = before.edition();
    std::string out = branan::square_text(edition.size, m.from());
    out += '-';
    out += branan::square_text(edition.size, m.to());
    Position after = before;
    after.make_move(m);
    // The site writes no captured king.
    for_each_square(after.last_captured() & ~before.pieces(KING), [&](Square s) {
        out += 'x';
        out += branan::square_text(edition.size, s);
    });
    return out;
}

Result<Move> parse_move_text(const Position& pos, std::string_view text) {
    std::string t(text.substr(0, text.find('x')));
    std::string clean;
    for (size_t i = 0; i < t.size(); ++i) {
        // "0a1" squares of 7x7 and uppercase ones of 13x13 read as "a1".
        if (t[i] == '0' && (i == 0 || t[i - 1] == '-')) continue;
        clean += char(std::tolower(static_cast<unsigned char>(t[i])));
    }
    auto m = parse_legal_move(pos, clean);
    if (!m) return Error{"move '" + printable(text) + "': " + m.error()};
    return m;
}

Result<Position> position_from_records(const EditionPtr& edition,
                                       const std::vector<std::string>& moves) {
    const Position start(edition);
    Placement board{};
    for (Square s = 0; s < edition->num_squares; ++s) board[s] = start.piece_on(s);
    // "0a1" and "A1" read as "a1".
    auto square = [&](std::string_view t) -> Result<Square> {
        std::string clean;
        for (char c : t)
            if (!(c == '0' && clean.empty()))
                clean += char(std::tolower(static_cast<unsigned char>(c)));
        return parse_square(*edition, clean);
    };
    Side to_move = start.side_to_move();
    for (const std::string& text : moves) {
        const auto parts = split(text, 'x');
        const auto ends = split(parts[0], '-');
        if (ends.size() != 2) return Error{"move '" + printable(text) + "': expected from-to"};
        auto from = square(ends[0]);
        auto to = square(ends[1]);
        if (!from || !to) return Error{"move '" + printable(text) + "': bad square"};
        if (board[*from] == NO_PIECE) return Error{"move '" + printable(text) + "': no piece"};
        board[*to] = board[*from];
        board[*from] = NO_PIECE;
        for (size_t i = 1; i < parts.size(); ++i) {
            auto taken = square(parts[i]);
            if (!taken) return Error{"move '" + printable(text) + "': bad capture"};
            board[*taken] = NO_PIECE;
        }
        to_move = ~to_move;
    }
    return Position::from_placement(edition, board, to_move, 0, 1 + int(moves.size()) / 2);
}

std::optional<int64_t> parse_utc_ms(std::string_view text) {
    int y = 0, mo = 0, d = 0, h = 0, mi = 0;
    double s = 0;
    const std::string t(text);
    if (std::sscanf(t.c_str(), "%d-%d-%dT%d:%d:%lf", &y, &mo, &d, &h, &mi, &s) != 6)
        return std::nullopt;
    // Fields in their ranges only: a second of 1e300 would not fit the
    // milliseconds, and the server writes nothing else.
    if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 ||
        mi > 59 || !(s >= 0 && s < 61))
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = 0;
    const time_t secs = timegm(&tm);
    if (secs == time_t(-1)) return std::nullopt;
    return int64_t(secs) * 1000 + int64_t(s * 1000.0 + 0.5);
}

std::string utc_text(int64_t ms) {
    // Rounded down, so that a time before 1970 keeps its milliseconds in
    // 0..999 (integer division rounds toward zero).
    const int64_t floor_s = ms / 1000 - (ms % 1000 < 0 ? 1 : 0);
    const time_t secs = time_t(floor_s);
    ms -= floor_s * 1000;
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[80]; // room for any int the fields can hold
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, int(ms));
    return buf;
}

} // namespace branan::org
