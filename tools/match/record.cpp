#include "record.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "notation.h"
#include "text.h"

namespace branan::match {

namespace {

using Json = nlohmann::ordered_json; // keeps the keys in the order written

// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string json_error(const nlohmann::json::exception& e) {
    const std::string what = e.what();
    const size_t tag = what.find("] ");
    return tag == std::string::npos ? what : what.substr(tag + 2);
}

} // namespace

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
        if (p.score_cp) {
            o << " score=" << *p.score_cp;
            if (p.score_depth > 0) o << " depth=" << p.score_depth;
        }
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
