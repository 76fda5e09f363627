#pragma once

// The history heuristic: a score per side and (from, to) pair, raised for a
// quiet move that refutes a node and lowered for the quiet moves tried
// before it there. It orders the quiet moves (see movepick.h) and outlives
// one search (Engine::new_game clears it). One History per search thread.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "types.h"

namespace branan {

// Sized for the largest board; each board width indexes it with its own
// stride (hist_index in movepick.h), so a small board's scores lie close.
struct History {
    int16_t butterfly[2][MAX_BOARD_SQUARES * MAX_BOARD_SQUARES];
    void clear() { std::memset(butterfly, 0, sizeof(butterfly)); }
};

// Set by hand when the search was first written, never tested on their own:
// the bonus grows with the square of the depth, is capped at
// HISTORY_BONUS_MAX, and each update moves the score a share of the way
// toward +-HISTORY_GRAVITY, so that it stays within that (and an int16).
constexpr int HISTORY_BONUS_PER_DEPTH2 = 16;
constexpr int HISTORY_BONUS_MAX = 8000;
constexpr int HISTORY_GRAVITY = 16384;

inline int history_bonus(int depth) {
    return depth * depth * HISTORY_BONUS_PER_DEPTH2;
}

inline void hist_update(int16_t& h, int bonus) {
    bonus = std::clamp(bonus, -HISTORY_BONUS_MAX, HISTORY_BONUS_MAX);
    h += int16_t(bonus - h * std::abs(bonus) / HISTORY_GRAVITY);
}

} // namespace branan
