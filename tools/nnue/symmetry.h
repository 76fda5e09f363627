#pragma once

// The eight symmetries of the square board (turns and mirrors), and whether
// an edition's rules keep them: then a position and its image are the same
// game, and the trainer may learn from both.

#include "edition.h"

namespace branan::nnue {

constexpr int SYMMETRIES = 8;

// The image of square s of an n x n board under symmetry t (0..7): bit 2
// swaps file and rank, then bit 0 mirrors the file and bit 1 the rank.
// train.py numbers them the same way.
Square transform(int t, Square s, int n);

// Whether every symmetry keeps the edition: its start position, the
// special squares (throne, corners, escape squares, camps) and what each
// kind of piece may do on every square.
bool symmetric(const Edition& edition);

} // namespace branan::nnue
