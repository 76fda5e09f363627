#pragma once

// L2 regularisation toward the start weights.
//
// The fit minimises  J(w) = mean cross-entropy + lambda / N * sum_j (w_j - s_j)^2
// with s the start weights (the defaults or --start), w in centi-soldiers
// and N the number of training positions. Multiplied by N this is the
// summed cross-entropy plus lambda * sum (w - s)^2: the negative log of a
// Gaussian prior on each weight's change, of standard deviation
// 1 / sqrt(2 lambda) centi-soldiers (lambda 0.005: 10 centi-soldiers). So
// the same lambda is the same belief on any data set: on a small one the
// prior holds the weights near the start, on a large one the data outweighs
// it. A weight no position exercises stays at its start (its gradient is
// the penalty's, 0 there).

#include <cstddef>

#include "dataset.h"

namespace branan::tune {

struct L2Penalty {
    double lambda = 0; // 0: no penalty
    Weights start{};
    size_t positions = 1; // N, the training positions

    // lambda / N * sum (w - start)^2
    double value(const Weights& w) const;
    // Adds its gradient, 2 lambda / N * (w - start), to `grad`.
    void add_gradient(const Weights& w, Weights& grad) const;
};

} // namespace branan::tune
