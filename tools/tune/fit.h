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
// stays fixed while the weights move.
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

#include <functional>
#include <ostream>
#include <vector>

#include "dataset.h"

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

// Golden-section search of K in [1e-5, 0.3] on the results.
double fit_k(const TraceSet& set, const Weights& w, int threads);

struct FitOptions {
    // 1000 epochs at 5 reach the optimum to well under 1 centi-soldier on
    // the recovery test's data (tests/test_tune.cpp converges with 1500 at
    // 10 from 10-40 % away); the cost is one pass over the data per epoch.
    int epochs = 1000;
    double lr = 5.0;
    int threads = 1;
};

// Called after every epoch: epoch (1-based), train loss, validation loss
// (NaN without a validation set), before the step's weights are updated.
using EpochReport = std::function<void(int epoch, double train, double validation)>;

// Adam from `start`; returns the fitted weights (not rounded).
Weights fit_weights(const TraceSet& train, const TraceSet* validation, const Weights& start,
                    double k, const FitOptions& options, const EpochReport& report);

// Rounded to integers and clamped to the ranges.
EvalParams round_weights(const Weights& w);

double sigmoid(double x);

} // namespace branan::tune
