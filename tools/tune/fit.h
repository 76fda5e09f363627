#pragma once

// The fit: logistic (Texel) tuning of the evaluation weights.
//
// Model: p = sigmoid(K * eval), eval the evaluation from the attackers' view
// with the weights w, clamped to +-VALUE_EVAL_MAX as the engine clamps it
// (a clamped position is a constant: no gradient).
//
// Loss: the mean cross-entropy  -(t log p + (1 - t) log(1 - p))  against the
// target t (dataset.h). Like the squared error it is smallest at p = t, but
// its gradient K (p - t) does not fade where the sigmoid is flat, so
// positions the weights misjudge badly (a lost game scored +3000 by the
// escape terms) still pull; squared error multiplies that gradient by
// p (1 - p) and all but ignores them. It is also convex in w (a logistic
// regression), so the fit has one optimum.
//
// K is fitted first, with the start weights, on the training set against
// the game results: a golden-section search on log K (the loss is convex in
// K for fixed evaluations). It turns centi-soldiers into a probability and
// stays fixed while the weights move. Where the start weights predict
// nothing (their sign disagrees with the results as often as not), the
// search ends at K_MIN, and at that K no weight within its range can move
// the prediction: the caller then gives K (the scale of another edition's
// fit) instead of fitting it.
//
// Optimiser: full-batch Adam. The coefficients differ in scale by orders of
// magnitude (mobility counts up to ~80, the piece_late products up to a few
// hundred, rare 0/1 features), so one learning rate for plain gradient
// descent is either too slow for the rare weights or unstable for the
// common ones; Adam's per-weight step (about lr centi-soldiers per epoch,
// whatever the gradient's size) fits both. The rate falls along a cosine
// to 5 % of lr over the epochs, so the last steps are well under the
// rounding unit (1 centi-soldier). Weights are clamped to their ranges
// (param_table) after each step and rounded at the end.
//
// Regularisation (penalty.h): an L2 pull toward the start weights is added
// to the training loss (FitOptions::l2). Early stopping: with a validation
// set, the weights of the epoch with the lowest validation loss are kept,
// not the last ones, and with FitOptions::patience the fit stops after that
// many epochs without a new lowest; the rounded result is checked on the
// validation set too, and the start is returned when it is no better than
// the start. So a fit never returns weights whose validation loss is above
// the start's.

#include <array>
#include <functional>
#include <ostream>
#include <vector>

#include "dataset.h"
#include "penalty.h"

namespace branan::tune {

struct LossGrad {
    double loss = 0;     // mean cross-entropy
    Weights grad{};      // d loss / d w
    int64_t clamped = 0; // positions at the clamp (constant, no gradient)
};

// Over the whole set, on `threads` threads (each sums its chunk; the sums
// are added in a fixed order, so the result does not depend on timing).
// `use_result`: the target is the game result, not set.target.
LossGrad loss_and_gradient(const TraceSet& set, const Weights& w, double k, int threads,
                           bool want_grad, bool use_result = false);
double loss(const TraceSet& set, const Weights& w, double k, int threads, bool use_result = false);
// What the fit minimises: the mean cross-entropy against the targets plus
// the penalty (`loss` and `grad` include it; `clamped` as above).
LossGrad objective(const TraceSet& set, const Weights& w, double k, int threads,
                   const L2Penalty& penalty);

// The range of K: fitted within it, or given within it (`fit --k`).
constexpr double K_MIN = 1e-5, K_MAX = 0.3;

// Golden-section search of K in [K_MIN, K_MAX] on the results.
double fit_k(const TraceSet& set, const Weights& w, int threads);

struct FitOptions {
    // 1000 epochs at 5 reach the optimum to well under 1 centi-soldier on
    // the recovery test's data (tests/test_tune.cpp converges with 1500 at
    // 10 from 10-40 % away); the cost is one pass over the data per epoch.
    int epochs = 1000;
    double lr = 5.0;
    int threads = 1;
    // L2 toward the start (penalty.h); 0: none.
    double l2 = 0;
    // Stop after this many epochs without a new lowest validation loss;
    // 0: run every epoch (the best is kept all the same).
    int patience = 0;
    // Weights that stay at the start (a new term fitted alone, the rest of
    // a proven set kept as it is). All false: every weight moves.
    std::array<bool, PARAM_COUNT> frozen{};
};

struct FitResult {
    Weights weights{};       // those of the best epoch (the last without validation), not rounded
    EvalParams rounded;      // rounded and clamped; the start when that is no better on validation
    int best_epoch = 0;      // epochs of steps behind `weights` (0: the start)
    int epochs_run = 0;      // less than FitOptions::epochs when stopped early
    bool start_kept = false; // `rounded` is the start: nothing beat it on validation
    // Validation losses (NaN without a validation set): of the start, of
    // `weights`, of `rounded`.
    double start_validation = 0, best_validation = 0, rounded_validation = 0;
};

// Called after every epoch: epoch (1-based), train loss, validation loss
// (NaN without a validation set), before the step's weights are updated.
using EpochReport = std::function<void(int epoch, double train, double validation)>;

// Adam from `start` (which must be whole numbers in range, as EvalParams
// are). Without a validation set (nullptr or empty) it runs every epoch and
// returns the last weights.
FitResult fit_weights(const TraceSet& train, const TraceSet* validation, const Weights& start,
                      double k, const FitOptions& options, const EpochReport& report);

// Rounded to integers and clamped to the ranges.
EvalParams round_weights(const Weights& w);

double sigmoid(double x);

} // namespace branan::tune
