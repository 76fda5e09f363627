#include "match_record.h"

#include <fstream>
#include <limits>
#include <sstream>

#include "text.h"

namespace branan::match {

namespace {

std::string_view strip_cr(std::string_view s) {
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    return s;
}

std::optional<int64_t> integer(std::string_view text,
                               int64_t lo = std::numeric_limits<int64_t>::min(),
                               int64_t hi = std::numeric_limits<int64_t>::max()) {
    auto n = parse_integer(text, lo, hi);
    return n ? std::optional<int64_t>(*n) : std::nullopt;
}

} // namespace

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
    constexpr int64_t MAX_DEPTH = 1000000; // any engine's, not only Branan's
    for (++i; i < lines.size(); ++i) {
        const std::string_view line = strip_cr(lines[i]);
        if (line.empty()) continue;
        const std::string at = where(int(i) + 1);
        const std::vector<std::string_view> w = split_words(line);
        std::optional<int64_t> number;
        if (w.size() >= 4 && w.size() <= 6) number = integer(w[0]);
        if (!number)
            return Error{at + ": expected a ply line 'N a|d MOVE TIMEms [score=CP [depth=D]]'"};
        const int64_t expected = int64_t(r.plies.size()) + 1;
        if (*number != expected)
            return Error{at + ": ply " + std::to_string(*number) + " where ply " +
                         std::to_string(expected) + " was expected"};
        RecordPly ply{int(i) + 1, *number, std::string(w[1]), std::string(w[2]), std::nullopt};
        if (w.size() >= 5) {
            std::optional<int64_t> cp;
            if (w[4].substr(0, 6) == "score=") cp = integer(w[4].substr(6), -MAX_SCORE, MAX_SCORE);
            if (!cp) return Error{at + ": expected score=CP, got '" + std::string(w[4]) + "'"};
            ply.score_cp = int(*cp);
        }
        if (w.size() == 6) {
            std::optional<int64_t> depth;
            if (w[5].substr(0, 6) == "depth=") depth = integer(w[5].substr(6), 1, MAX_DEPTH);
            if (!depth)
                return Error{at + ": expected depth=D after the score, got '" + std::string(w[5]) +
                             "'"};
            ply.score_depth = int(*depth);
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

} // namespace branan::match
