#pragma once

// The traces of a data set, computed once and kept compactly: for each
// position only the weights whose coefficient is not zero (most are zero:
// the capture threats, escape lines and forks are rare), as 4-byte entries
// (weight id, coefficient), plus the result, the engine's score and the fit
// target. About 4 bytes x (non-zero coefficients, ~15-20 in real games) +
// 16 bytes per position; TraceSet::bytes() gives the exact figure.
//
// Everything here is from the attackers' view. trace() gives each weight's
// count for either side; the evaluation from the side to move is
//   clamp(sign * sum w * (attackers' count - defenders' count)),
// so from the attackers' view it is clamp(sum w * (attackers' - defenders'))
// (clamp is odd): the coefficient stored is attackers' - defenders', and
// the result and the score are the attackers' too.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "evaluate.h"
#include "positions.h"

namespace branan::tune {

struct TraceEntry {
    int16_t coef;
    uint8_t id;
};

using Weights = std::array<double, PARAM_COUNT>;

struct TraceSet {
    std::vector<uint32_t> begin{0}; // entries of position i: [begin[i], begin[i + 1])
    std::vector<TraceEntry> entries;
    std::vector<float> result; // 1, 0.5, 0 for the attackers
    std::vector<float> score;  // the engine's score, attackers' view; NaN when none
    std::vector<float> target; // what sigmoid(K * eval) is fitted to (set_targets)

    size_t size() const { return result.size(); }
    size_t bytes() const;
    // false when a coefficient does not fit in 16 bits (never seen on
    // boards up to 11x11, but checked).
    bool add(const EvalTrace& t, double result, std::optional<int> score);
    void append(const TraceSet& other);

    // The unclamped evaluation from the attackers' view.
    double raw_eval(size_t i, const Weights& w) const {
        double e = 0;
        for (uint32_t k = begin[i]; k < begin[i + 1]; ++k) e += w[entries[k].id] * entries[k].coef;
        return e;
    }
    // How many positions exercise each weight (non-zero coefficient).
    std::array<int64_t, PARAM_COUNT> usage() const;
};

// Traces of the positions (each line's rules must be known to `rules`),
// computed on `threads` threads; order kept. Errors name the position.
Result<TraceSet> build_traces(const std::vector<PositionLine>& lines, RulesCache& rules,
                              int threads);

// target = (1 - lambda) * result + lambda * sigmoid(K * score), or the result
// where there is no score.
void set_targets(TraceSet& set, double k, double lambda);

Weights to_weights(const EvalParams& p);

} // namespace branan::tune
