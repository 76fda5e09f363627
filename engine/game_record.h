#pragma once

// A game as every board width can hold it: the placement it started from
// (or was set up from) and the moves made since.

#include <vector>

#include "types.h"

namespace branan {

struct GameRecord {
    Placement root{};
    Side side_to_move = ATTACKERS;
    int plies_since_capture = 0;
    int fullmove = 1;
    std::vector<Move> moves;
};

} // namespace branan
