#pragma once

// What a match writes: one text record per game and one JSON line per game
// in a summary file, written as each game ends.
//
// Game record (game-NNNNN.txt), "Key: value" header lines, a blank line,
// then one line per ply:
//   # branan-match game record 1
//   Run: <run id>                Game: <n>      Round: <n>     Pair: <n or ->
//   Rules: <rules string>        Variant: <preset or custom>
//   Attackers: <name>            Attackers-Command: <cmd args>
//   Attackers-Protocol: uci      Attackers-Options: Name=Value; ...
//   Attackers-TimeControl: 40/10+0.1
//   (the same four for Defenders)
//   Opening: <label>             Opening-Root: startpos | <TFEN>
//   Opening-Moves: <OpenTafl move records, space separated>
//   Start: <TFEN after the opening>
//   Result: attackers | defenders | draw
//   Reason: <code>               Detail: <sentence>
//   Plies: <n>                   Final: <TFEN>
//   Clocks: <attackers ms> <defenders ms>   (-1: time per move)
//
//   1 a d1-c1 120ms
//   2 d e4-e6xe7 98ms score=-35
//   ...
// A ply line: number, side (a/d), the OpenTafl move record with captures
// (engine/notation.h move_record), the time the engine took, and its last
// reported score (centi-soldiers, its own view) when it sent one.
//
// Summary (summary.jsonl): one flat JSON object per line with the keys
//   run, game, round, pair, opening, engine1, engine2, attackers, defenders,
//   winner, score1, reason, detail, plies, record
// engine1/engine2 are the pair in -engine order; score1 is engine1's points
// (1, 0.5, 0); pair numbers the two games of one opening under -repeat (-1
// otherwise).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adapter.h"
#include "game.h"

namespace branan::match {

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
// Reads one summary line; false with `error` when it is not one.
bool parse_json_line(const std::string& line, GameSummary& out, std::string& error);
// Reads a summary file (blank lines skipped).
bool read_summary(const std::string& path, std::vector<GameSummary>& out, std::string& error);

struct RecordHeader {
    std::string run;
    int64_t game = 0, round = 0, pair = -1;
    std::string rules, variant;
    const EngineConfig* engines[2] = {nullptr, nullptr}; // index Side
    std::string opening_label, opening_root;
};
std::string format_record(const RecordHeader& h, const GameOutcome& g);

std::string json_escape(const std::string& s);

} // namespace branan::match
