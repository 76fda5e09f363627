#pragma once

// A match: its configuration, checked; then the schedule (schedule.h)
// played by the workers (workers.h), each game's result kept as it ends
// (the files of record.h, the tallies of tally.h, the SPRT stop) and
// printed (printer.h).

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "adapter.h"
#include "openings.h"
#include "record.h"
#include "stats.h"
#include "tally.h"

namespace branan::match {

struct MatchConfig {
    std::vector<EngineConfig> engines;
    std::string preset; // a preset name, or empty with `rules`
    std::string rules;  // a rules string (when no preset)
    int games = 1;      // per encounter (engine pair) and round
    int rounds = 1;
    bool repeat = false; // each opening twice, sides swapped
    int concurrency = 1;
    OpeningSource openings;
    uint64_t seed = 0;
    std::optional<SprtParams> sprt;
    int max_plies = 0;
    ResignRule resign;
    std::string out_dir; // empty: no files
    int64_t time_margin_ms = 100;
    int64_t recover_grace_ms = 1000;
    int64_t handshake_ms = 5000;
    std::string run_id; // empty: made from the time
    bool quiet = false; // no progress lines
};

struct MatchResult {
    bool ok = true;
    std::string error;
    bool interrupted = false;
    int64_t games_played = 0;
    int64_t games_scheduled = 0;
    std::vector<PairStats> pairs;
    std::vector<GameSummary> games; // in the order they ended
    std::optional<double> llr;
    SprtDecision decision = SprtDecision::CONTINUE;
};

// Checks the configuration (names unique, rules valid, ...); fills defaults.
Status prepare(MatchConfig& config);
// Runs the match; progress and the final tables go to `out`.
MatchResult run_match(MatchConfig config, std::ostream& out, bool tty);

} // namespace branan::match
