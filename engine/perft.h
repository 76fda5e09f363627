#pragma once

// perft: the number of move sequences of a given length (RULES.md). A
// position decided by king capture, king escape or no attackers has no
// moves; repetition and the no-capture limit are ignored.

#include <cstdint>
#include <utility>
#include <vector>

#include "movegen.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

uint64_t perft(Position& pos, int depth);
// perft counting turns: a berserk chain (engine/berserk.h) is one move,
// its plies made one after another.
uint64_t perft_turns(Position& pos, int depth);
// Per-move counts of perft(depth - 1) after each root move, in generation order.
std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth);

} // namespace BRANAN_BOARD_NS
} // namespace branan
