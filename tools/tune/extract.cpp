#include "extract.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "notation.h"
#include "rules.h"

namespace branan::tune {

namespace fs = std::filesystem;

std::string ExtractStats::summary() const {
    return std::to_string(files) + " files, " + std::to_string(games) + " games (" +
           std::to_string(forfeits) + " forfeits skipped" +
           (capped ? ", " + std::to_string(capped) + " stopped at the ply cap skipped"
                   : std::string()) +
           (draws ? ", " + std::to_string(draws) + " draws skipped" : std::string()) + "), " +
           std::to_string(plies) + " positions: " + std::to_string(opening) + " in the opening, " +
           std::to_string(decided) + " decided, " + std::to_string(win_in_one) + " won in one, " +
           std::to_string(capture) + " with a capture, " + std::to_string(duplicates) +
           " duplicates, " + std::to_string(kept) + " kept";
}

namespace {

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

// A kept position, with the depth of its score where the record has one.
PositionLine position_line(const Position& pos, const std::string& rules, double result,
                           std::optional<int> score, int score_depth) {
    PositionLine line{to_tfen(pos), rules, result, score, std::nullopt};
    if (score && score_depth > 0) line.depth = score_depth;
    return line;
}

} // namespace

Status Extractor::add_record(std::string_view text, const std::function<std::string(int)>& where) {
    auto record = match::parse_record(text, where);
    if (!record) return Error{record.error()};
    return add_game(*record, where);
}

Status Extractor::add_game(const match::GameRecord& record,
                           const std::function<std::string(int)>& where) {
    auto rules = parse_rules(*record.field("Rules"));
    if (!rules) return Error{where(record.line_of("Rules")) + ": " + rules.error()};
    const std::string rules_field = preset_of(*rules).value_or(print_rules(*rules));
    auto edition = rules_.get(rules_field);
    if (!edition) return Error{where(record.line_of("Rules")) + ": " + edition.error()};
    auto start = parse_tfen(*edition, *record.field("Start"));
    if (!start) return Error{where(record.line_of("Start")) + ": " + start.error()};
    const double result = record.result == Winner::ATTACKERS   ? 1
                          : record.result == Winner::DEFENDERS ? 0
                                                               : 0.5;
    const std::string* reason = record.field("Reason");
    const bool forfeit = reason && is_forfeit(*reason);

    Position pos = *start;
    std::vector<PositionLine> game;
    int64_t ply = 0;
    for (const match::RecordPly& p : record.plies) {
        const std::string at = where(p.line);
        const Side us = pos.side_to_move();
        if (p.side != (us == ATTACKERS ? "a" : "d"))
            return Error{at + ": ply " + std::to_string(p.number) + " is played by the " +
                         (us == ATTACKERS ? "attackers (a)" : "defenders (d)") + ", not '" +
                         p.side + "'"};
        if (pos.result().over())
            return Error{at + ": the game is already over (" + to_string(pos.result().reason) +
                         ")"};
        // Our record or OpenTafl's (a captured king's square listed or not).
        auto move = read_record_move(pos, p.move);
        if (!move) return Error{at + ": move '" + p.move + "': " + move.error()};
        // The engine's view is the side to move's; the file's is the
        // attackers'.
        std::optional<int> score;
        if (p.score_cp) score = us == ATTACKERS ? *p.score_cp : -*p.score_cp;
        ++stats_.plies;
        if (ply < options_.skip_opening) {
            ++stats_.opening;
        } else if (options_.every_position) {
            if (pos.result().over())
                ++stats_.decided;
            else if (score)
                game.push_back(position_line(pos, rules_field, result, score, p.score_depth));
        } else {
            const PositionKind kind = classify(pos);
            if (kind == PositionKind::QUIET)
                game.push_back(position_line(pos, rules_field, result, score, p.score_depth));
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
    if (const std::string* final_tfen = record.field("Final");
        final_tfen && *final_tfen != to_tfen(pos))
        return Error{where(record.line_of("Final")) + ": Final is '" + *final_tfen +
                     "', the replay ends in '" + to_tfen(pos) + "'"};

    ++stats_.games;
    if (forfeit) {
        ++stats_.forfeits;
        return {};
    }
    if (options_.every_position && reason && *reason == "max-plies") {
        ++stats_.capped;
        return {};
    }
    if (options_.decided_only && record.result == Winner::DRAW) {
        ++stats_.draws;
        return {};
    }
    for (PositionLine& p : game) {
        if (!options_.every_position && !seen_.insert(position_key(p.tfen, p.rules)).second) {
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
    auto record = match::read_record(path);
    if (!record) return Error{record.error()};
    ++stats_.files;
    return add_game(*record, [&](int n) { return path + ":" + std::to_string(n); });
}

Status Extractor::add_summary_file(const std::string& path) {
    ++stats_.files;
    // A summary line names its game record file relative to the folder of
    // the match (`record`: game-NNNNN.txt); a merged summary mixes matches,
    // so the records are looked up by run and game number among the game
    // files under the summary's folder (the matches' -out folders copied
    // there, at any depth up to 4).
    const fs::path folder =
        fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
    std::map<match::RecordId, std::string> index;
    std::set<match::RecordId> ambiguous; // two files, one run and game
    bool indexed = false;
    auto build_index = [&] {
        indexed = true;
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(folder, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (it.depth() >= 4) it.disable_recursion_pending();
            const std::string name = it->path().filename().string();
            if (!it->is_regular_file() || name.rfind("game-", 0) != 0) continue;
            if (auto id = match::read_record_id(it->path().string()))
                if (!index.emplace(*id, it->path().string()).second) ambiguous.insert(*id);
        }
    };
    return match::read_summary(path, [&](match::GameSummary&& line, const std::string& at) {
        if (line.record.find('\n') != std::string::npos) {
            // The record itself.
            return add_record(line.record,
                              [&](int k) { return at + ": record line " + std::to_string(k); });
        }
        if (line.record.empty())
            return Status(
                Error{at + ": the summary line names no game record (a match without -out)"});
        const match::RecordId id{line.run, line.game};
        const std::string game = std::to_string(line.game);
        std::string file = (folder / line.record).string();
        if (match::read_record_id(file) != id) {
            if (!indexed) build_index();
            auto it = index.find(id);
            if (it == index.end())
                return Status(Error{at + ": no game record of run '" + id.run + "' game " + game +
                                    " under '" + folder.string() + "' (" + line.record + ")"});
            if (ambiguous.count(id))
                return Status(Error{at + ": two game records of run '" + id.run + "' game " + game +
                                    " under '" + folder.string() + "'"});
            file = it->second;
        }
        return add_game_file(file);
    });
}

Status Extractor::add_path(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        std::vector<std::string> games;
        for (const auto& entry : fs::directory_iterator(path, ec)) {
            if (match::is_record_file_name(entry.path().filename().string()))
                games.push_back(entry.path().string());
        }
        if (ec) return Error{"cannot list folder '" + path + "': " + ec.message()};
        std::sort(games.begin(), games.end());
        if (!games.empty()) {
            for (const std::string& g : games)
                if (Status st = add_game_file(g); !st) return st;
            return {};
        }
        const std::string summary = (fs::path(path) / match::SUMMARY_FILE).string();
        if (fs::exists(summary, ec)) return add_summary_file(summary);
        return Error{"folder '" + path + "' has no game records (game-NNNNN.txt) and no " +
                     "summary.jsonl"};
    }
    if (!fs::exists(path, ec)) return Error{"no such file or folder '" + path + "'"};
    if (path.size() >= 6 && path.substr(path.size() - 6) == ".jsonl") return add_summary_file(path);
    return add_game_file(path);
}

} // namespace branan::tune
