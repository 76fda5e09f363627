#pragma once

// The validation split of a fit. Positions of one game are alike (a game's
// quiet positions differ by a few moves and share its result), so a split
// by position lets the validation loss see games the fit trained on and
// early stopping trusts it too long. When every line names its game
// (game=N, written by `extract`), whole games go to one side; otherwise
// (positions files from elsewhere) single positions do.

#include <cstdint>
#include <vector>

#include "positions.h"

namespace branan::tune {

struct ValidationSplit {
    std::vector<PositionLine> train, validation;
    bool by_game = false;
    int64_t validation_games = 0, games = 0; // when by_game
};

// About `share` of the positions (0 < share < 1) go to validation, chosen
// by `seed`: games in a shuffled order until their positions reach the
// share, or single positions. The same lines and seed give the same split.
ValidationSplit split_validation(const std::vector<PositionLine>& lines, double share,
                                 uint64_t seed);

// Cross-validation: `folds` splits (2 or more), whose validation parts are
// disjoint and together hold every line once: games (or single positions,
// as above) shuffled by `seed` and dealt to the folds in turn.
std::vector<ValidationSplit> split_folds(const std::vector<PositionLine>& lines, int folds,
                                         uint64_t seed);

} // namespace branan::tune
