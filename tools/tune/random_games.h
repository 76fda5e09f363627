#pragma once

// Random games on the rules core, for `branan-tune bench-fit`: game records
// as branan-match writes them, without an engine.

#include <random>
#include <string>

#include "position.h"

namespace branan::tune {

// A game of uniformly random legal moves from the edition's start position,
// at most `max_plies` plies (then adjudicated a draw), as a branan-match game
// record (match/record.h) whose every ply has the evaluation of the default
// weights as its score=, as an engine would report it.
std::string random_game_record(const EditionPtr& edition, std::mt19937_64& rng,
                               int max_plies = 200);

} // namespace branan::tune
