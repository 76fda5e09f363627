#pragma once

// `branan-tune wdl`: fits an edition's win-chance model (eval/win_chance.h)
// to the results of its games, by maximum likelihood over the positions
// `extract --every-position` writes (each with the engine's raw score), and
// checks it on games kept out of the fit: the calibration table of
// docs/win-chances.md.

#include <cstdint>
#include <string>
#include <vector>

#include "positions.h"
#include "win_chance.h"

namespace branan::tune {

// One position as the fit reads it.
struct WinSample {
    double score = 0; // raw, centi-soldiers, attackers' view
    GameStage stage;
    Side stm = ATTACKERS;
    double result = 0; // for the attackers: 1, 0.5, 0
    int depth = 0;     // of the search that gave the score (0: not known)
};

struct WinFitOptions {
    int iterations = 3000;
    double lr = 0.02;
};

struct WinFitResult {
    WinModel model;
    double loss = 0; // mean negative log-likelihood on the fitted samples
};

// `draws`: whether the model has draws at all (false when no sample is a draw).
WinFitResult fit_win_model(const std::vector<WinSample>& samples, bool draws,
                           const WinFitOptions& options = {});

// Mean negative log-likelihood of the samples under a model.
double win_model_loss(const WinModel& model, const std::vector<WinSample>& samples);

// The calibration of a model on samples: per bucket of 10 % of the side to
// move's predicted win chance, the positions, the mean prediction and what
// happened (win and draw rates of the side to move).
struct CalibrationBucket {
    int64_t positions = 0;
    double predicted_win = 0, observed_win = 0;
    double predicted_draw = 0, observed_draw = 0;
};
std::vector<CalibrationBucket> calibrate(const WinModel& model,
                                         const std::vector<WinSample>& samples);

// Samples from positions lines (those with a score that is not a win or a
// loss found by the search); the error names the line's position.
Result<std::vector<WinSample>> win_samples(const std::vector<PositionLine>& lines,
                                           RulesCache& rules);

} // namespace branan::tune
