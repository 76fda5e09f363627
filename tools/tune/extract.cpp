#include "extract.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "notation.h"
#include "rules.h"
#include "text.h"

namespace branan::tune {

namespace fs = std::filesystem;

std::string ExtractStats::summary() const {
    return std::to_string(files) + " files, " + std::to_string(games) + " games (" +
           std::to_string(forfeits) + " forfeits skipped), " + std::to_string(plies) +
           " positions: " + std::to_string(opening) + " in the opening, " +
           std::to_string(decided) + " decided, " + std::to_string(win_in_one) + " won in one, " +
           std::to_string(capture) + " with a capture, " + std::to_string(duplicates) +
           " duplicates, " + std::to_string(kept) + " kept";
}

namespace {

Result<std::string> read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot read '" + path + "'"};
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) return Error{"cannot read '" + path + "'"};
    return ss.str();
}

std::string_view strip_cr(std::string_view s) {
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    return s;
}

bool parse_int(std::string_view s, int64_t& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// Reasons of branan-match for a game lost by breaking the protocol, not on
// the board.
bool is_forfeit(std::string_view reason) {
    return reason == "illegal-move" || reason == "time-forfeit" || reason == "crash" ||
           reason == "no-answer" || reason == "malformed" || reason == "no-start";
}

// Placement and side to move: the TFEN without its counters.
std::string position_key(const std::string& tfen, const std::string& rules) {
    const size_t a = tfen.find(' ');
    const size_t b = a == std::string::npos ? a : tfen.find(' ', a + 1);
    return tfen.substr(0, b) + "\t" + rules;
}

} // namespace

Status Extractor::add_record(std::string_view text, const std::function<std::string(int)>& where) {
    const std::vector<std::string_view> lines = split(text, '\n');
    std::map<std::string, std::string, std::less<>> header;
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
        header[std::string(line.substr(0, colon))] = std::string(value);
    }
    auto field = [&](const char* key) -> const std::string* {
        auto it = header.find(key);
        return it == header.end() ? nullptr : &it->second;
    };
    for (const char* key : {"Rules", "Start", "Result"})
        if (!field(key))
            return Error{where(1) + ": the record has no '" + std::string(key) + ":' header"};
    auto line_of = [&](const char* key) {
        for (size_t k = 0; k < lines.size(); ++k)
            if (lines[k].substr(0, std::string_view(key).size()) == key &&
                lines[k].size() > std::string_view(key).size() &&
                lines[k][std::string_view(key).size()] == ':')
                return int(k) + 1;
        return 1;
    };

    auto rules = parse_rules(*field("Rules"));
    if (!rules) return Error{where(line_of("Rules")) + ": " + rules.error()};
    const std::string rules_field = preset_of(*rules).value_or(print_rules(*rules));
    auto variant = rules_.get(rules_field);
    if (!variant) return Error{where(line_of("Rules")) + ": " + variant.error()};
    auto start = parse_tfen(*variant, *field("Start"));
    if (!start) return Error{where(line_of("Start")) + ": " + start.error()};
    double result;
    const std::string& res = *field("Result");
    if (res == "attackers")
        result = 1;
    else if (res == "defenders")
        result = 0;
    else if (res == "draw")
        result = 0.5;
    else
        return Error{where(line_of("Result")) + ": result must be attackers, defenders or draw, " +
                     "got '" + res.substr(0, 30) + "'"};
    const std::string* reason = field("Reason");
    const bool forfeit = reason && is_forfeit(*reason);

    Position pos = *start;
    std::vector<PositionLine> game;
    std::vector<PositionKind> kinds;
    int64_t ply = 0;
    for (++i; i < lines.size(); ++i) {
        const std::string_view line = strip_cr(lines[i]);
        if (line.empty()) continue;
        const std::string at = where(int(i) + 1);
        const std::vector<std::string_view> w = split_words(line);
        int64_t number = 0;
        if (w.size() < 4 || w.size() > 5 || !parse_int(w[0], number))
            return Error{at + ": expected a ply line 'N a|d MOVE TIMEms [score=CP]'"};
        if (number != ply + 1)
            return Error{at + ": ply " + std::to_string(number) + " where ply " +
                         std::to_string(ply + 1) + " was expected"};
        const Side us = pos.side_to_move();
        if (w[1] != (us == ATTACKERS ? "a" : "d"))
            return Error{at + ": ply " + std::to_string(number) + " is played by the " +
                         (us == ATTACKERS ? "attackers (a)" : "defenders (d)") + ", not '" +
                         std::string(w[1]) + "'"};
        if (pos.result().over())
            return Error{at + ": the game is already over (" + to_string(pos.result().reason) +
                         ")"};
        auto move = parse_legal_move(pos, w[2]);
        if (!move) return Error{at + ": move '" + std::string(w[2]) + "': " + move.error()};
        const std::string record = move_record(pos, *move);
        if (record != w[2])
            return Error{at + ": move '" + std::string(w[2]) + "' is '" + record +
                         "' by the rules (its captures or end differ)"};
        std::optional<int> score;
        if (w.size() == 5) {
            int64_t cp = 0;
            if (w[4].substr(0, 6) != "score=" || !parse_int(w[4].substr(6), cp) || cp < -1000000 ||
                cp > 1000000)
                return Error{at + ": expected score=CP, got '" + std::string(w[4]) + "'"};
            // The engine's view is the side to move's; the file's is the
            // attackers'.
            score = int(us == ATTACKERS ? cp : -cp);
        }
        ++stats_.plies;
        if (ply < options_.skip_opening) {
            ++stats_.opening;
        } else {
            const PositionKind kind = classify(pos);
            if (kind == PositionKind::QUIET)
                game.push_back({to_tfen(pos), rules_field, result, score, std::nullopt});
            else if (kind == PositionKind::DECIDED)
                ++stats_.decided;
            else if (kind == PositionKind::WIN_IN_ONE)
                ++stats_.win_in_one;
            else
                ++stats_.capture;
        }
        pos.make_move(*move);
        ++ply;
    }
    if (const std::string* plies = field("Plies")) {
        int64_t n = 0;
        if (!parse_int(*plies, n) || n != ply)
            return Error{where(line_of("Plies")) + ": Plies says " + *plies + ", the record has " +
                         std::to_string(ply)};
    }
    if (const std::string* final_tfen = field("Final"); final_tfen && *final_tfen != to_tfen(pos))
        return Error{where(line_of("Final")) + ": Final is '" + *final_tfen +
                     "', the replay ends in '" + to_tfen(pos) + "'"};

    ++stats_.games;
    if (forfeit) {
        ++stats_.forfeits;
        return {};
    }
    for (PositionLine& p : game) {
        if (!seen_.insert(position_key(p.tfen, p.rules)).second) {
            ++stats_.duplicates;
            continue;
        }
        ++stats_.kept;
        p.game = stats_.games;
        positions_.push_back(std::move(p));
    }
    return {};
}

Status Extractor::add_game_file(const std::string& path) {
    auto text = read_text(path);
    if (!text) return Error{text.error()};
    ++stats_.files;
    return add_record(*text, [&](int n) { return path + ":" + std::to_string(n); });
}

namespace {

// The Run and Game headers of a game record file (read from its first lines).
std::optional<std::pair<std::string, std::string>> run_and_game(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line, run, game;
    for (int n = 0; n < 8 && std::getline(in, line); ++n) {
        line = std::string(strip_cr(line));
        if (line.rfind("Run: ", 0) == 0) run = line.substr(5);
        if (line.rfind("Game: ", 0) == 0) game = line.substr(6);
    }
    if (run.empty() || game.empty()) return std::nullopt;
    return std::make_pair(run, game);
}

} // namespace

Status Extractor::add_summary_file(const std::string& path) {
    auto text = read_text(path);
    if (!text) return Error{text.error()};
    ++stats_.files;
    // A summary line names its game record file relative to the folder of
    // the match (`record`: game-NNNNN.txt); a merged summary mixes matches,
    // so the records are looked up by run and game number among the game
    // files under the summary's folder (the matches' -out folders copied
    // there, at any depth up to 4).
    const fs::path folder =
        fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
    std::map<std::pair<std::string, std::string>, std::string> index;
    std::set<std::pair<std::string, std::string>> ambiguous; // two files, one run and game
    bool indexed = false;
    auto build_index = [&] {
        indexed = true;
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(folder, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (it.depth() >= 4) it.disable_recursion_pending();
            const std::string name = it->path().filename().string();
            if (!it->is_regular_file() || name.rfind("game-", 0) != 0) continue;
            if (auto key = run_and_game(it->path().string()))
                if (!index.emplace(*key, it->path().string()).second) ambiguous.insert(*key);
        }
    };
    int n = 0;
    for (std::string_view line : split(*text, '\n')) {
        ++n;
        line = strip_cr(line);
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        const std::string at = path + ":" + std::to_string(n);
        auto fields = json_fields(line);
        if (!fields) return Error{at + ": " + fields.error()};
        const std::string& record = (*fields)["record"];
        if (record.find('\n') != std::string::npos) {
            // The record itself.
            Status st = add_record(
                record, [&](int k) { return at + ": record line " + std::to_string(k); });
            if (!st) return st;
            continue;
        }
        if (record.empty())
            return Error{at + ": the summary line names no game record (a match without -out)"};
        const std::string run = (*fields)["run"], game = (*fields)["game"];
        std::string file = (folder / record).string();
        auto key = run_and_game(file);
        if (!key || key->first != run || key->second != game) {
            if (!indexed) build_index();
            auto it = index.find({run, game});
            if (it == index.end())
                return Error{at + ": no game record of run '" + run + "' game " + game +
                             " under '" + folder.string() + "' (" + record + ")"};
            if (ambiguous.count({run, game}))
                return Error{at + ": two game records of run '" + run + "' game " + game +
                             " under '" + folder.string() + "'"};
            file = it->second;
        }
        if (Status st = add_game_file(file); !st) return st;
    }
    return {};
}

Status Extractor::add_path(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        std::vector<std::string> games;
        for (const auto& entry : fs::directory_iterator(path, ec)) {
            const std::string name = entry.path().filename().string();
            if (name.size() > 9 && name.substr(0, 5) == "game-" &&
                name.substr(name.size() - 4) == ".txt")
                games.push_back(entry.path().string());
        }
        if (ec) return Error{"cannot list folder '" + path + "': " + ec.message()};
        std::sort(games.begin(), games.end());
        if (!games.empty()) {
            for (const std::string& g : games)
                if (Status st = add_game_file(g); !st) return st;
            return {};
        }
        const std::string summary = (fs::path(path) / "summary.jsonl").string();
        if (fs::exists(summary, ec)) return add_summary_file(summary);
        return Error{"folder '" + path + "' has no game records (game-NNNNN.txt) and no " +
                     "summary.jsonl"};
    }
    if (!fs::exists(path, ec)) return Error{"no such file or folder '" + path + "'"};
    if (path.size() >= 6 && path.substr(path.size() - 6) == ".jsonl") return add_summary_file(path);
    return add_game_file(path);
}

Result<std::map<std::string, std::string>> json_fields(std::string_view s) {
    size_t i = 0;
    auto ws = [&] {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    };
    auto str = [&](std::string& out) -> bool {
        if (i >= s.size() || s[i] != '"') return false;
        ++i;
        out.clear();
        while (i < s.size() && s[i] != '"') {
            char c = s[i++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i >= s.size()) return false;
            const char e = s[i++];
            switch (e) {
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'u': {
                unsigned v = 0;
                if (i + 4 > s.size()) return false;
                auto [p, ec] = std::from_chars(s.data() + i, s.data() + i + 4, v, 16);
                if (ec != std::errc() || p != s.data() + i + 4) return false;
                i += 4;
                out += v < 0x80 ? char(v) : '?';
                break;
            }
            default:
                out += e;
            }
        }
        if (i >= s.size()) return false;
        ++i;
        return true;
    };
    ws();
    if (i >= s.size() || s[i] != '{') return Error{"not a JSON object"};
    ++i;
    std::map<std::string, std::string> found;
    ws();
    if (i < s.size() && s[i] == '}') return found;
    while (true) {
        ws();
        std::string k, v;
        if (!str(k)) return Error{"expected a key at column " + std::to_string(i + 1)};
        ws();
        if (i >= s.size() || s[i] != ':')
            return Error{"expected ':' at column " + std::to_string(i + 1)};
        ++i;
        ws();
        if (i < s.size() && s[i] == '"') {
            if (!str(v)) return Error{"unterminated string for key '" + k + "'"};
        } else {
            // A number or a literal (branan-match writes no nested values).
            const size_t start = i;
            while (i < s.size() && s[i] != ',' && s[i] != '}') ++i;
            if (i == start) return Error{"missing value for key '" + k + "'"};
            v = std::string(s.substr(start, i - start));
            while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.pop_back();
        }
        found[k] = v;
        ws();
        if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
        }
        if (i < s.size() && s[i] == '}') return found;
        return Error{"expected ',' or '}' at column " + std::to_string(i + 1)};
    }
}

} // namespace branan::tune
