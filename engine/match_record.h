#pragma once

// The game record that branan-match writes, one file a game, read back
// (tools/match/record.h writes it; the tuner's extraction and `branan
// review` read it through here).
//
// Game record (game-NNNNN.txt), "Key: value" header lines, a blank line,
// then one line per ply:
//   # branan-match game record 1
//   Run: <run id>                Game: <n>      Round: <n>     Pair: <n or ->
//   Rules: <rules string>        Edition: <preset or custom>
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
//   2 d e4-e6xe7 98ms score=-35 depth=9
//   ...
// A ply line: number, side (a/d), the OpenTafl move record with captures
// (engine/notation.h move_record), the time the engine took, and its last
// reported score (centi-soldiers, its own view) when it sent one, with the
// depth it was searched to when the engine said.
//

#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace branan::match {

// A game record read back, checked for its form (the header fields that a
// replay needs, well-formed ply lines numbered from 1, as many as Plies
// says) but not replayed: whether the moves are legal is the reader's to
// check.
struct RecordPly {
    int line = 0; // in the record's text, from 1
    int64_t number = 0;
    std::string side; // "a" or "d", as written
    std::string move; // the OpenTafl move record
    std::optional<int> score_cp;
    int score_depth = 0; // 0: not recorded
};
struct GameRecord {
    struct Field {
        std::string value;
        int line = 0;
    };
    std::map<std::string, Field, std::less<>> header;
    Winner result = Winner::NONE;
    std::vector<RecordPly> plies;

    // A header's value, or nullptr.
    const std::string* field(std::string_view key) const;
    // A header's line (1 when there is none, to name the record in errors).
    int line_of(std::string_view key) const;
};
// The record's text; where(n) names line n of it in errors. The header must
// have Rules, Start and Result.
Result<GameRecord> parse_record(std::string_view text,
                                const std::function<std::string(int)>& where);
// A game record file; errors name the file and line ("PATH:LINE: ...").
Result<GameRecord> read_record(const std::string& path);

// The Run and Game headers of a game record file, read from its first lines
// only (to find a summary line's record among many files).
struct RecordId {
    std::string run;
    int64_t game = 0;
    auto operator<=>(const RecordId&) const = default;
};
std::optional<RecordId> read_record_id(const std::string& path);

} // namespace branan::match
