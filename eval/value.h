#pragma once

// Scores, for every board width: centi-soldiers, and the wins and losses
// the search finds, counted in plies from the root.

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
// The evaluation is clamped to [-VALUE_EVAL_MAX, VALUE_EVAL_MAX], far from
// any win score.
constexpr Value VALUE_EVAL_MAX = 20000;

} // namespace branan
