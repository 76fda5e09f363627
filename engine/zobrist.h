#pragma once

// Zobrist keys, one per piece kind and square of the largest board, shared
// by every board width: a position has the same key whatever width holds
// it (the table, books and the tests compare keys across widths).

#include <cstdint>

#include "types.h"

namespace branan::zobrist {
extern uint64_t piece_square[PIECE_KINDS][MAX_BOARD_SQUARES];
extern uint64_t side;
} // namespace branan::zobrist
