#pragma once

// A match: the schedule (round robin of every engine pair, rounds, games,
// -repeat pairs), worker threads that each own their engine processes, the
// results as each game ends (records, summary line, progress), the SPRT
// stop, and the final tables.

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "adapter.h"
#include "openings.h"
#include "record.h"
#include "stats.h"

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

// The tallies of one engine pair (first, second in -engine order), from
// the first engine's view.
struct PairStats {
    int first = 0, second = 0;
    Trinomial total;
    Trinomial as_attackers; // first engine playing the attackers
    Trinomial as_defenders;
    Pentanomial penta;
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
// Stops every running match (from a signal handler: only sets a flag).
void interrupt_matches();

// Tallies over summaries (merge, plot and the final tables use these).
std::vector<PairStats> tally(const std::vector<GameSummary>& games,
                             const std::vector<std::string>& engine_names);
// The estimate the progress line shows: pentanomial when there are
// complete pairs, else trinomial.
EloEstimate pair_estimate(const PairStats& p, bool pentanomial);
void print_tables(std::ostream& out, const std::vector<PairStats>& pairs,
                  const std::vector<std::string>& names, bool pentanomial,
                  const std::optional<SprtParams>& sprt);

} // namespace branan::match
