#pragma once

// The static evaluation: one narrow call used by the search.

#include "params.h"
#include "position.h"

namespace branan {

using Value = int;
constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_SOLDIER = 100; // 100 = one soldier; scores are in these units
// Wins and losses: VALUE_WIN - ply is a win found ply plies from the root.
constexpr Value VALUE_WIN = 30000;
constexpr Value VALUE_INFINITE = 31000;
constexpr Value VALUE_NONE = 32000;
constexpr int MAX_PLY = 246;
constexpr Value VALUE_WIN_MAX_PLY = VALUE_WIN - MAX_PLY;

// From the point of view of the side to move. Never a win score.
Value evaluate(const Position& pos, const EvalParams& params);

} // namespace branan
