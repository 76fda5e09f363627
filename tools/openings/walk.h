#pragma once

// Random walks from the start position: the raw candidates of an opening
// book. A walk is a pure function of (seed, index), so candidate i is the
// same whatever thread later scores it and however many threads there are.

#include <cstdint>
#include <string>
#include <vector>

#include "position.h"

namespace branan::book {

struct Walk {
    enum class Outcome { OK, GAME_OVER };
    Outcome outcome = Outcome::OK;
    std::vector<std::string> moves; // move texts from the start ("d1-c1")
    uint64_t key = 0;               // Zobrist key of the final position
    Side side_to_move = ATTACKERS;
};

// min_plies..max_plies random legal plies (the length drawn uniformly too).
// GAME_OVER when a ply ends the game or a side has no move: such a walk is
// no opening.
Walk random_walk(const EditionPtr& edition, uint64_t seed, int64_t index, int min_plies,
                 int max_plies);

} // namespace branan::book
