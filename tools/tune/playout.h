#pragma once

// Random games on the rules core, for `branan-tune bench-fit` and the
// tests: positions and branan-match-style game records without an engine.

#include <random>
#include <string>
#include <vector>

#include "position.h"

namespace branan::tune {

// A game of uniformly random legal moves from the variant's start, at most
// `max_plies` plies (then adjudicated a draw), as a branan-match game record
// (the headers extract reads, and every ply with the evaluation of the
// default weights as its score=, as an engine would report it).
std::string random_game_record(const VariantPtr& variant, std::mt19937_64& rng,
                               int max_plies = 200);

// `count` positions taken along random games (every position of each game
// until the game ends or `max_plies`), undecided ones only.
std::vector<Position> random_positions(const VariantPtr& variant, std::mt19937_64& rng,
                                       size_t count, int max_plies = 120);

} // namespace branan::tune
