#pragma once

// What a match writes, and the one place that writes it (the match runner,
// its merge and plot, and the tuner's extraction all come here): one text
// record per game and one JSON line per game in a summary file, written as
// each game ends.
//
// Game record (game-NNNNN.txt): its format and its reader are in
// engine/match_record.h.
//
// Summary (summary.jsonl): one flat JSON object per line with the keys
//   run, game, round, pair, opening, engine1, engine2, attackers, defenders,
//   winner, score1, reason, detail, plies, record
// in that order. engine1/engine2 are the pair in -engine order; score1 is
// engine1's points (1, 0.5, 0); pair numbers the two games of one opening
// under -repeat (-1 otherwise); record is the game record's file name in the
// match's folder (empty for a match without -out).

#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapter.h"
#include "game.h"
#include "match_record.h"

namespace branan::match {

// ---------------------------------------------------------------- summary

// The summary's name in a match's folder.
inline constexpr std::string_view SUMMARY_FILE = "summary.jsonl";

struct GameSummary {
    std::string run;
    int64_t game = 0;
    int64_t round = 0;
    int64_t pair = -1;
    std::string opening;
    std::string engine1, engine2;
    std::string attackers, defenders;
    std::string winner; // attackers | defenders | draw
    double score1 = 0;
    std::string reason, detail;
    int64_t plies = 0;
    std::string record;
};

std::string to_json_line(const GameSummary& s);
// One summary line; run, game, engine1, engine2 and score1 are required.
Result<GameSummary> parse_json_line(std::string_view line);
// A summary file, line by line (blank lines skipped): `each` is given every
// game and "PATH:LINE" to name it in errors; its error stops the reading and
// is returned as it is. A line that is not a summary line is an error naming
// the file and line.
using SummaryVisitor = std::function<Status(GameSummary&& game, const std::string& where)>;
Status read_summary(const std::string& path, const SummaryVisitor& each);
// A whole summary file.
Result<std::vector<GameSummary>> read_summary(const std::string& path);

// ---------------------------------------------------------------- game records

struct RecordHeader {
    std::string run;
    int64_t game = 0, round = 0, pair = -1;
    std::string rules, edition;
    const EngineConfig* engines[2] = {nullptr, nullptr}; // index Side
    std::string opening_label, opening_root;
};
std::string format_record(const RecordHeader& h, const GameOutcome& g);

// "game-00012.txt": the name of game 12's record in the match's folder.
std::string record_file_name(int64_t game);
// Whether a file name is one that record_file_name gives.
bool is_record_file_name(std::string_view name);

// ---------------------------------------------------------------- a match's folder

// The files of a match with -out: each game's record and its summary line,
// written as the game ends.
class MatchFiles {
  public:
    // Creates `folder` if needed and the summary file in it; refuses a folder
    // that already holds a match.
    Status open(const std::string& folder);
    // The record, then the summary line. An error names a record that could
    // not be written (its summary line is written all the same).
    Status write_game(const RecordHeader& header, const GameOutcome& outcome,
                      const GameSummary& summary);

  private:
    std::string folder_;
    std::ofstream summary_;
};

} // namespace branan::match
