#pragma once

// `branan-tune extract`: game records of branan-match (game-NNNNN.txt, or
// the records that the lines of a summary.jsonl, merged or not, name in
// their `record` field) are replayed with the rules core, and their quiet
// positions become lines of a positions file.
//
// Every ply of a record is checked: its number, its side, the move is legal,
// and its OpenTafl record (with the captures) is the one the rules core
// writes for it; the Plies and Final headers must match the replay. A record
// that does not replay is an error naming the file and line: the data would
// be wrong in ways no filter sees.
//
// Which positions are kept (the position before each ply, where the engine
// to move searched and reported its score):
//  - not the first `skip_opening` plies of the game after its opening;
//  - not decided, not decidable in one move, no capture for the side to
//    move (quiet.h);
//  - not from games lost by forfeit (illegal move, time, crash, no answer,
//    malformed answer): their result says nothing about the positions;
//  - with `decided_only`, not from drawn games: where draws are the ply cap
//    with one side far ahead, their half point teaches the weights a draw
//    (tuning round 5 of corner_large, docs/tuning.md);
//  - each position once: the first occurrence of its placement, side to move
//    and rules (the TFEN's counters do not enter the evaluation).
// With `every_position` (for fitting win chances, win_fit.h) the positions
// are those a host shows a score for: every position with the engine's
// score that is not decided, duplicates included, from games the rules
// decided (not forfeits, not games stopped at branan-match's ply cap).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "match/record.h"
#include "positions.h"
#include "quiet.h"

namespace branan::tune {

struct ExtractOptions {
    // 8 plies (4 moves a side) after the opening: the first positions of
    // the games of one opening are nearly the same (duplicates or near
    // duplicates, little information each) and far from any result.
    int skip_opening = 8;
    bool decided_only = false;
    bool every_position = false;
};

struct ExtractStats {
    int64_t files = 0, games = 0, forfeits = 0, capped = 0, draws = 0, plies = 0;
    int64_t opening = 0, decided = 0, win_in_one = 0, capture = 0, duplicates = 0, kept = 0;
    std::string summary() const;
};

class Extractor {
  public:
    explicit Extractor(ExtractOptions options) : options_(options) {}

    // A folder (its game-NNNNN.txt files in name order, or its
    // summary.jsonl when it has no game files), a game record file, or a
    // summary file (*.jsonl).
    Status add_path(const std::string& path);
    // One game record's text. where(n) names line n of it in errors.
    Status add_record(std::string_view text, const std::function<std::string(int)>& where);

    const std::vector<PositionLine>& positions() const { return positions_; }
    const ExtractStats& stats() const { return stats_; }

  private:
    // A record read back; where(n) names line n of it.
    Status add_game(const match::GameRecord& record, const std::function<std::string(int)>& where);
    Status add_game_file(const std::string& path);
    Status add_summary_file(const std::string& path);

    ExtractOptions options_;
    ExtractStats stats_;
    RulesCache rules_;
    std::vector<PositionLine> positions_;
    std::unordered_set<std::string> seen_;
};

} // namespace branan::tune
