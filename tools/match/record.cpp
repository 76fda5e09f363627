#include "record.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "notation.h"
#include "text.h"

namespace branan::match {

namespace {

using Json = nlohmann::ordered_json; // keeps the keys in the order written

std::string_view strip_cr(std::string_view s) {
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    return s;
}

// A whole decimal number from lo to hi (the errors of the record reader
// name the line, not the number).
std::optional<int64_t> integer(std::string_view text,
                               int64_t lo = std::numeric_limits<int64_t>::min(),
                               int64_t hi = std::numeric_limits<int64_t>::max()) {
    auto n = parse_integer(text, lo, hi);
    return n ? std::optional<int64_t>(*n) : std::nullopt;
}

// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string json_error(const nlohmann::json::exception& e) {
    const std::string what = e.what();
    const size_t tag = what.find("] ");
    return tag == std::string::npos ? what : what.substr(tag + 2);
}

// A move record taken apart, the pieces' letters dropped.
struct RecordParts {
    std::string move;                  // "from-to"
    std::vector<std::string> captures; // after 'x', and after the status
    std::string status;                // the '+' and '-' after the move
};

// Takes a square ("e5", with an optional piece letter first) off the front.
std::optional<std::string> take_square_text(std::string_view& rest) {
    if (rest.size() >= 3 && is_opentafl_piece_letter(rest[0]) && rest[1] >= 'a' && rest[1] <= 's')
        rest.remove_prefix(1);
    if (rest.empty() || rest[0] < 'a' || rest[0] > 's') return std::nullopt;
    size_t n = 1;
    while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
    if (n == 1) return std::nullopt;
    std::string square(rest.substr(0, n));
    rest.remove_prefix(n);
    return square;
}

std::optional<RecordParts> split_record(std::string_view text) {
    RecordParts r;
    std::string_view rest = text;
    auto from = take_square_text(rest);
    // '-' a move, '^' a jump, '=' a berserk chain's later move, '^=' both.
    if (!from || rest.empty() || std::string_view("-^=").find(rest[0]) == std::string_view::npos)
        return std::nullopt;
    if (rest[0] == '^' && rest.size() > 1 && rest[1] == '=') rest.remove_prefix(1);
    rest.remove_prefix(1);
    auto to = take_square_text(rest);
    if (!to) return std::nullopt;
    r.move = *from + "-" + *to;
    auto take_list = [&]() -> bool {
        while (true) {
            auto sq = take_square_text(rest);
            if (!sq) return false;
            r.captures.push_back(*sq);
            if (rest.empty() || rest[0] != '/') return true;
            rest.remove_prefix(1);
        }
    };
    if (!rest.empty() && rest[0] == 'x') {
        rest.remove_prefix(1);
        if (!take_list()) return std::nullopt;
    }
    while (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
        r.status += rest[0];
        rest.remove_prefix(1);
    }
    if (!rest.empty() && !take_list()) return std::nullopt;
    if (!rest.empty()) return std::nullopt;
    return r;
}

} // namespace

Result<Move> read_record_move(const Position& before, std::string_view written) {
    const auto parts = split_record(written);
    if (!parts) return Error{"not a move record"};
    auto m = parse_legal_move(before, parts->move);
    if (!m) return m;
    const std::string ours = move_record(before, *m);
    Position after = before;
    after.make_move(*m);
    const Edition& edition = before.edition();
    const bool king_taken = after.decided().reason == EndReason::KING_CAPTURED;
    const std::string king = king_taken ? square_name(edition, before.king_square()) : "";
    std::vector<std::string> captured;
    for_each_square(after.last_captured(), [&](Square s) {
        if (s != before.king_square()) captured.push_back(square_name(edition, s));
    });
    std::vector<std::string> listed;
    bool king_listed = false;
    for (const std::string& c : parts->captures) {
        if (king_taken && c == king)
            king_listed = true;
        else
            listed.push_back(c);
    }
    std::sort(captured.begin(), captured.end());
    std::sort(listed.begin(), listed.end());
    const std::string& st = parts->status;
    bool end_agrees;
    if (king_taken)
        end_agrees = st == "++" || (king_listed && st.empty());
    else if (after.decided().reason == EndReason::KING_ESCAPED)
        end_agrees = st == "--";
    else
        end_agrees = st.empty() || st == "+" || st == "-";
    if (listed != captured || !end_agrees)
        return Error{"by the rules it is '" + ours + "' (its captures or end differ)"};
    return m;
}

// ---------------------------------------------------------------- summary

std::string to_json_line(const GameSummary& s) {
    Json j;
    j["run"] = s.run;
    j["game"] = s.game;
    j["round"] = s.round;
    j["pair"] = s.pair;
    j["opening"] = s.opening;
    j["engine1"] = s.engine1;
    j["engine2"] = s.engine2;
    j["attackers"] = s.attackers;
    j["defenders"] = s.defenders;
    j["winner"] = s.winner;
    // Whole scores as integers: the lines have always said 1 and 0, not 1.0.
    if (s.score1 == double(int64_t(s.score1)))
        j["score1"] = int64_t(s.score1);
    else
        j["score1"] = s.score1;
    j["reason"] = s.reason;
    j["detail"] = s.detail;
    j["plies"] = s.plies;
    j["record"] = s.record;
    // Engines' answers are quoted in `detail`: bytes that are not UTF-8
    // become U+FFFD rather than stopping the match.
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<GameSummary> parse_json_line(std::string_view line) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
        // Lines written before nlohmann-json wrote them could quote an
        // engine's bytes that are not UTF-8, which the parser refuses: such
        // a line is read with its non-ASCII bytes as '?'.
        std::string ascii(line);
        for (char& c : ascii)
            if (static_cast<unsigned char>(c) >= 0x80) c = '?';
        if (ascii == line) return Error{json_error(e)};
        try {
            j = nlohmann::json::parse(ascii);
        } catch (const nlohmann::json::exception&) {
            return Error{json_error(e)};
        }
    }
    if (!j.is_object()) return Error{"not a JSON object"};
    for (const char* key : {"run", "game", "engine1", "engine2", "score1"})
        if (!j.contains(key)) return Error{std::string("missing key '") + key + "'"};
    GameSummary s;
    const std::pair<const char*, std::string*> texts[] = {
        {"run", &s.run},         {"opening", &s.opening},     {"engine1", &s.engine1},
        {"engine2", &s.engine2}, {"attackers", &s.attackers}, {"defenders", &s.defenders},
        {"winner", &s.winner},   {"reason", &s.reason},       {"detail", &s.detail},
        {"record", &s.record}};
    for (const auto& [key, field] : texts) {
        auto it = j.find(key);
        if (it == j.end()) continue;
        if (!it->is_string()) return Error{std::string("'") + key + "' is not a string"};
        *field = it->get<std::string>();
    }
    const std::pair<const char*, int64_t*> integers[] = {
        {"game", &s.game}, {"round", &s.round}, {"pair", &s.pair}, {"plies", &s.plies}};
    for (const auto& [key, field] : integers) {
        auto it = j.find(key);
        if (it == j.end()) continue;
        if (!it->is_number_integer()) return Error{std::string("'") + key + "' is not an integer"};
        *field = it->get<int64_t>();
    }
    if (!j.at("score1").is_number()) return Error{"'score1' is not a number"};
    s.score1 = j.at("score1").get<double>();
    if (!(s.score1 == 0 || s.score1 == 0.5 || s.score1 == 1))
        return Error{"score1 must be 0, 0.5 or 1"};
    return s;
}

Status read_summary(const std::string& path, const SummaryVisitor& each) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot read '" + path + "'"};
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = path + ":" + std::to_string(n);
        auto game = parse_json_line(line);
        if (!game) return Error{where + ": " + game.error()};
        if (Status st = each(std::move(*game), where); !st) return st;
    }
    if (in.bad()) return Error{"cannot read '" + path + "'"};
    return {};
}

Result<std::vector<GameSummary>> read_summary(const std::string& path) {
    std::vector<GameSummary> games;
    Status st = read_summary(path, [&](GameSummary&& g, const std::string&) -> Status {
        games.push_back(std::move(g));
        return {};
    });
    if (!st) return Error{st.error()};
    return games;
}

// ---------------------------------------------------------------- game records

std::string format_record(const RecordHeader& h, const GameOutcome& g) {
    std::ostringstream o;
    o << "# branan-match game record 1\n";
    o << "Run: " << h.run << "\n";
    o << "Game: " << h.game << "\n";
    o << "Round: " << h.round << "\n";
    o << "Pair: " << (h.pair >= 0 ? std::to_string(h.pair) : std::string("-")) << "\n";
    o << "Rules: " << h.rules << "\n";
    o << "Variant: " << (h.edition.empty() ? "custom" : h.edition) << "\n";
    for (int s = 0; s < 2; ++s) {
        const char* side = s == 0 ? "Attackers" : "Defenders";
        const EngineConfig& e = *h.engines[s];
        std::string cmd = e.cmd;
        for (const std::string& a : e.args) cmd += " " + a;
        std::string opts;
        for (const auto& [k, v] : e.options) opts += (opts.empty() ? "" : "; ") + k + "=" + v;
        o << side << ": " << e.name << "\n";
        o << side << "-Command: " << cmd << "\n";
        o << side << "-Protocol: " << e.proto << "\n";
        o << side << "-Options: " << opts << "\n";
        o << side << "-TimeControl: " << e.tc.to_string() << "\n";
    }
    o << "Opening: " << h.opening_label << "\n";
    o << "Opening-Root: " << (h.opening_root.empty() ? "startpos" : h.opening_root) << "\n";
    o << "Opening-Moves:";
    for (const std::string& r : g.opening_records) o << " " << r;
    o << "\n";
    o << "Start: " << g.start_tfen << "\n";
    o << "Result: " << to_string(g.winner) << "\n";
    o << "Reason: " << g.reason << "\n";
    o << "Detail: " << g.detail << "\n";
    o << "Plies: " << g.plies.size() << "\n";
    o << "Final: " << g.final_tfen << "\n";
    o << "Clocks: " << g.clock_ms[0] << " " << g.clock_ms[1] << "\n";
    o << "\n";
    int n = 0;
    for (const PlyRecord& p : g.plies) {
        o << ++n << " " << (p.side == ATTACKERS ? 'a' : 'd') << " " << p.record << " " << p.ms
          << "ms";
        if (p.score_cp) o << " score=" << *p.score_cp;
        o << "\n";
    }
    return o.str();
}

std::string record_file_name(int64_t game) {
    char file[32];
    std::snprintf(file, sizeof file, "game-%05lld.txt", (long long)game);
    return file;
}

bool is_record_file_name(std::string_view name) {
    return name.size() > 9 && name.substr(0, 5) == "game-" &&
           name.substr(name.size() - 4) == ".txt";
}

const std::string* GameRecord::field(std::string_view key) const {
    auto it = header.find(key);
    return it == header.end() ? nullptr : &it->second.value;
}

int GameRecord::line_of(std::string_view key) const {
    auto it = header.find(key);
    return it == header.end() ? 1 : it->second.line;
}

Result<GameRecord> parse_record(std::string_view text,
                                const std::function<std::string(int)>& where) {
    const std::vector<std::string_view> lines = split(text, '\n');
    GameRecord r;
    size_t i = 0;
    for (; i < lines.size(); ++i) {
        const std::string_view line = strip_cr(lines[i]);
        if (line.empty()) break;
        if (line[0] == '#') continue;
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos)
            return Error{where(int(i) + 1) + ": expected a 'Key: value' header line"};
        std::string_view value = line.substr(colon + 1);
        if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
        r.header[std::string(line.substr(0, colon))] = {std::string(value), int(i) + 1};
    }
    for (const char* key : {"Rules", "Start", "Result"})
        if (!r.field(key))
            return Error{where(1) + ": the record has no '" + std::string(key) + ":' header"};
    const std::string& result = *r.field("Result");
    if (result == "attackers")
        r.result = Winner::ATTACKERS;
    else if (result == "defenders")
        r.result = Winner::DEFENDERS;
    else if (result == "draw")
        r.result = Winner::DRAW;
    else
        return Error{where(r.line_of("Result")) +
                     ": result must be attackers, defenders or draw, got '" + result.substr(0, 30) +
                     "'"};

    constexpr int64_t MAX_SCORE = 1000000;
    for (++i; i < lines.size(); ++i) {
        const std::string_view line = strip_cr(lines[i]);
        if (line.empty()) continue;
        const std::string at = where(int(i) + 1);
        const std::vector<std::string_view> w = split_words(line);
        std::optional<int64_t> number;
        if (w.size() >= 4 && w.size() <= 5) number = integer(w[0]);
        if (!number) return Error{at + ": expected a ply line 'N a|d MOVE TIMEms [score=CP]'"};
        const int64_t expected = int64_t(r.plies.size()) + 1;
        if (*number != expected)
            return Error{at + ": ply " + std::to_string(*number) + " where ply " +
                         std::to_string(expected) + " was expected"};
        RecordPly ply{int(i) + 1, *number, std::string(w[1]), std::string(w[2]), std::nullopt};
        if (w.size() == 5) {
            std::optional<int64_t> cp;
            if (w[4].substr(0, 6) == "score=") cp = integer(w[4].substr(6), -MAX_SCORE, MAX_SCORE);
            if (!cp) return Error{at + ": expected score=CP, got '" + std::string(w[4]) + "'"};
            ply.score_cp = int(*cp);
        }
        r.plies.push_back(std::move(ply));
    }
    if (const std::string* plies = r.field("Plies")) {
        const std::optional<int64_t> n = integer(*plies, 0);
        if (!n || *n != int64_t(r.plies.size()))
            return Error{where(r.line_of("Plies")) + ": Plies says " + *plies +
                         ", the record has " + std::to_string(r.plies.size())};
    }
    return r;
}

Result<GameRecord> read_record(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot read '" + path + "'"};
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return Error{"cannot read '" + path + "'"};
    return parse_record(text.str(), [&](int n) { return path + ":" + std::to_string(n); });
}

std::optional<RecordId> read_record_id(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line, run, game;
    // Run and Game are the second and third lines; a few more are read in
    // case a later version adds a line before them.
    for (int n = 0; n < 8 && std::getline(in, line); ++n) {
        line = std::string(strip_cr(line));
        if (line.rfind("Run: ", 0) == 0) run = line.substr(5);
        if (line.rfind("Game: ", 0) == 0) game = line.substr(6);
    }
    const std::optional<int64_t> number = integer(game, 0);
    if (run.empty() || !number) return std::nullopt;
    return RecordId{run, *number};
}

// ---------------------------------------------------------------- a match's folder

Status MatchFiles::open(const std::string& folder) {
    // Never overwrite the games of an earlier match.
    const std::string summary = folder + "/" + std::string(SUMMARY_FILE);
    std::error_code ec;
    if (std::filesystem::exists(summary, ec))
        return Error{"'" + folder + "' already holds a match (" + std::string(SUMMARY_FILE) +
                     "): choose a new -out"};
    std::filesystem::create_directories(folder, ec);
    if (ec) return Error{"cannot create '" + folder + "': " + ec.message()};
    summary_.open(summary, std::ios::app);
    if (!summary_) return Error{"cannot write '" + summary + "'"};
    folder_ = folder;
    return {};
}

Status MatchFiles::write_game(const RecordHeader& header, const GameOutcome& outcome,
                              const GameSummary& summary) {
    const std::string path = folder_ + "/" + record_file_name(header.game);
    std::ofstream record(path);
    record << format_record(header, outcome);
    Status st;
    if (!record) st = Error{"cannot write " + path};
    summary_ << to_json_line(summary) << "\n" << std::flush;
    return st;
}

} // namespace branan::match
