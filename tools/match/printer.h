#pragma once

// What a match prints (cutechess's EngineMatch): a line as each game ends,
// and the tables of the end; and the same tables for `branan-match merge`.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "record.h"
#include "stats.h"
#include "tally.h"

namespace branan::match {

// One table per engine pair: the games overall and by side, LOS, the
// pentanomial when there are pairs, and the SPRT's state when there is one
// pair and an SPRT.
void print_tables(std::ostream& out, const std::vector<PairStats>& pairs,
                  const std::vector<std::string>& names, bool pentanomial,
                  const std::optional<SprtParams>& sprt);

class ProgressPrinter {
  public:
    // tty: one progress line rewritten in place; else two lines a game.
    // quiet: nothing at all.
    ProgressPrinter(std::ostream& out, bool tty, bool quiet, std::vector<std::string> names,
                    bool pentanomial, std::optional<SprtParams> sprt)
        : out_(out), tty_(tty), quiet_(quiet), names_(std::move(names)), pentanomial_(pentanomial),
          sprt_(std::move(sprt)) {}

    // Game `g` has ended; `pair` is its engines' tally with it, `llr` the
    // SPRT's after it.
    void game_ended(const GameSummary& g, const PairStats& pair, int64_t played, int64_t scheduled,
                    std::optional<double> llr);
    // The end of the match: why it stopped early, if it did, and the tables.
    void finish(const std::vector<PairStats>& pairs, int64_t played, SprtDecision decision,
                bool interrupted);

  private:
    std::ostream& out_;
    bool tty_, quiet_;
    std::vector<std::string> names_;
    bool pentanomial_;
    std::optional<SprtParams> sprt_;
};

} // namespace branan::match
