#pragma once

// The referee: plays one game between two adapters. It applies the rules
// itself with Position and never trusts an engine: every move is parsed and
// checked for legality, every answer is timed against the clock.

#include <optional>
#include <string>
#include <vector>

#include "adapter.h"
#include "adjudicator.h"
#include "position.h"

namespace branan::match {

// An opening: a root (empty: the rules' start position) and moves from it.
struct Opening {
    std::string root_tfen;
    std::vector<std::string> moves; // plain "d1-c1" texts, all legal
    std::string label;              // "file.txt:12", "random #3", "start"
};

struct GameConfig {
    EditionPtr edition;
    std::string preset; // empty: custom rules
    std::string rules_string;
    Opening opening;
    int max_plies = 0; // 0: no limit; plies played by the engines, the opening excluded
    ResignRule resign;
    int64_t time_margin_ms = 100;
    std::chrono::milliseconds recover_grace{1000};
};

struct PlyRecord {
    Side side = ATTACKERS;
    std::string record; // OpenTafl move record with captures ("e5-e8xe9/d8")
    int64_t ms = 0;
    std::optional<int> score_cp;
    int score_depth = 0; // 0: the engine did not say
};

struct GameOutcome {
    Winner winner = Winner::NONE;
    std::string reason; // short code: "king-captured", "illegal-move", "time-forfeit", ...
    std::string detail; // a sentence for people
    bool aborted = false;
    bool restart[2] = {false, false}; // per side: the engine must be restarted
    std::string start_tfen;           // after the opening
    std::vector<std::string> opening_records;
    std::vector<PlyRecord> plies;
    std::string final_tfen;
    int64_t clock_ms[2] = {0, 0}; // what was left on the clocks
};

// players[ATTACKERS], players[DEFENDERS]. The adapters must be started.
GameOutcome play_game(const GameConfig& config, EngineAdapter* const players[2],
                      const AbortFlag& abort);

// The position an opening leads to, or an error naming what is wrong.
Result<Position> opening_position(const EditionPtr& edition, const Opening& opening);

} // namespace branan::match
