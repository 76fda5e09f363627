#include "penalty.h"

#include <algorithm>

namespace branan::tune {

double L2Penalty::value(const Weights& w) const {
    if (lambda == 0) return 0;
    double sum = 0;
    for (int i = 0; i < PARAM_COUNT; ++i) sum += (w[i] - start[i]) * (w[i] - start[i]);
    return lambda / double(std::max<size_t>(positions, 1)) * sum;
}

void L2Penalty::add_gradient(const Weights& w, Weights& grad) const {
    if (lambda == 0) return;
    const double scale = 2 * lambda / double(std::max<size_t>(positions, 1));
    for (int i = 0; i < PARAM_COUNT; ++i) grad[i] += scale * (w[i] - start[i]);
}

} // namespace branan::tune
