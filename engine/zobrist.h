#pragma once

// Zobrist keys, one per piece kind and square of the largest board, shared
// by every board width: a position has the same key whatever width holds
// it (the table, books and the tests compare keys across widths).

#include <cstdint>

#include "types.h"

namespace branan::zobrist {
extern uint64_t piece_square[PIECE_KINDS][MAX_BOARD_SQUARES];
extern uint64_t side;
// OpenTafl's special pieces: a commander or knight on a square is keyed as
// the soldier of its side plus special[0] (commander) or special[1]
// (knight); an open berserk chain adds berserker[square of its piece].
extern uint64_t special[2][MAX_BOARD_SQUARES];
extern uint64_t berserker[MAX_BOARD_SQUARES];
} // namespace branan::zobrist
