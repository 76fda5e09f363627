#pragma once

// The results of a match by engine pair, as games end or read back from
// summaries: wins, losses and draws overall and by side, and the
// pentanomial of the -repeat pairs.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "record.h"
#include "stats.h"

namespace branan::match {

// The tallies of one engine pair (first, second in -engine order), from
// the first engine's view.
struct PairStats {
    int first = 0, second = 0;
    Trinomial total;
    Trinomial as_attackers; // first engine playing the attackers
    Trinomial as_defenders;
    Pentanomial penta;
};

// Tallies keyed by engine names, added to one game at a time.
class Tally {
  public:
    // Engines known in advance keep this order; others are added as seen.
    explicit Tally(std::vector<std::string> names) : names_(std::move(names)) {}

    void add(const GameSummary& g);
    const std::vector<PairStats>& pairs() const { return pairs_; }
    // The pair of engines first and second (indices among the names given,
    // then those seen), or nullptr before their first game.
    const PairStats* find(int first, int second) const;

  private:
    int index(const std::string& name);
    PairStats& pair(int a, int b);

    std::vector<std::string> names_;
    std::vector<PairStats> pairs_;
    // The first game of each -repeat pair (run, pair), waiting for the second.
    std::map<std::pair<std::string, int64_t>, double> pending_;
};

// The tallies of finished games (merge and plot).
std::vector<PairStats> tally(const std::vector<GameSummary>& games,
                             const std::vector<std::string>& engine_names);
// The estimate the progress line shows: pentanomial when there are
// complete pairs, else trinomial.
EloEstimate pair_estimate(const PairStats& p, bool pentanomial);

} // namespace branan::match
