#pragma once

// Levels of play below full strength (Skill Level, UCI_LimitStrength and
// UCI_Elo). A level searches fewer nodes (a fixed number a move, so a level
// plays the same on any machine), looks at its best few moves, and picks
// one of them with weights that fall with the win chance it gives away: a
// weak level misjudges close choices and now and then a clear one, the way
// a weaker player does, and never plays an unsearched or illegal move. The
// weights shrink its mistakes as the level rises; level 20 is full strength.
//
// The ladder (docs/levels.md): the Elo of the levels, measured by matches
// between neighbouring levels in brandubh, tablut and copenhagen, anchored
// at full strength. UCI_Elo picks the level, fractional, whose Elo that is.

#include <cstdint>
#include <random>
#include <vector>

#include "rules.h"

namespace branan {

constexpr int MAX_SKILL_LEVEL = 20;
// The UCI_Elo range: full strength at a fixed node count is ELO_MAX in every
// edition (docs/levels.md); the levels below it by their measured steps.
constexpr int ELO_MAX = 2000;
constexpr int ELO_MIN = 700; // below every ladder's level 0, which it plays

class Skill {
  public:
    explicit Skill(double level = MAX_SKILL_LEVEL);
    // From the options: UCI_LimitStrength with UCI_Elo, else Skill Level.
    // `net`: the hash of the net that evaluates (0: the hand-made evaluation).
    static Skill from_options(bool limit_strength, int elo, int skill_level, const Rules& rules,
                              uint64_t net = 0);

    double level() const { return level_; }
    bool limited() const { return level_ < MAX_SKILL_LEVEL; }
    // The nodes a move at this level.
    uint64_t nodes() const;
    // How many of the best moves it chooses among.
    static constexpr int CANDIDATES = 4;
    // The chance of choosing each candidate, given the expected score
    // (0..1, the mover's) each gives, best first.
    std::vector<double> weights(const std::vector<double>& expected) const;
    // One candidate drawn by those weights.
    size_t pick(const std::vector<double>& expected, std::mt19937_64& rng) const;

  private:
    double level_;
};

// The measured ladder of an edition: the Elo of a level, and the level of
// an Elo (clamped to the ladder's ends). `net`: as for from_options; a
// compiled-in net's edition has a ladder measured with it, any other net
// reads the hand-made evaluation's.
int elo_of_level(double level, const Rules& rules, uint64_t net = 0);
double level_for_elo(int elo, const Rules& rules, uint64_t net = 0);

} // namespace branan
