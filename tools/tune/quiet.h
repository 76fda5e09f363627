#pragma once

// Which positions the tuner keeps: quiet ones, where the static evaluation
// is what a search would return at its horizon. A position is not quiet
// when the game is already decided, when the side to move can end it with
// one move, or when the side to move can capture (the search's quiescence
// would resolve the capture first; the static evaluation of the position
// before it says little about the result).

#include "position.h"

namespace branan::tune {

enum class PositionKind : uint8_t {
    QUIET,
    DECIDED,    // the game is over (by the pieces, repetition, no moves, ...)
    WIN_IN_ONE, // the side to move has a move that ends the game by the pieces
    CAPTURE,    // the side to move can capture
};

// Exact, from the rules core: every legal move is made and unmade. (The
// search's tafl helpers answer the same questions faster, but the tuner
// links only the rules core and the evaluation.) `pos` is left as it was.
PositionKind classify(Position& pos);

const char* to_string(PositionKind kind);

} // namespace branan::tune
