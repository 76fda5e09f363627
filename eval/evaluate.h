#pragma once

// The static evaluation: one narrow call used by the search, and the same
// code run in trace mode (the coefficient of every weight) for tuning and for
// the protocol's `eval` command.

#include <array>
#include <string>
#include <vector>

#include "params.h"
#include "position.h"
#include "value.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// From the point of view of the side to move. Never a win score.
Value evaluate(const Position& pos, const EvalParams& params);

// The coefficients of every weight for one position.
//   evaluate(pos, params) == clamp(sum over weights of params[id] * coefficient(id))
// exactly, where coefficient(id) = sign * (coef[id][ATTACKERS] - coef[id][DEFENDERS])
// and sign = +1 when the attackers are to move, -1 when the defenders are.
// The coefficients do not depend on the weights.
struct EvalTrace {
    std::array<std::array<int, 2>, PARAM_COUNT> coef{}; // [id][Side]
    int sign = 1;

    int coefficient(ParamId id) const { return sign * (coef[id][ATTACKERS] - coef[id][DEFENDERS]); }
    // The unclamped sum of weight * coefficient (side to move's view).
    long long raw(const EvalParams& params) const;
    // clamp(raw): equal to evaluate().
    Value value(const EvalParams& params) const;
};
EvalTrace trace(const Position& pos);

// Per-term values (weight * coefficient summed over the term's weights) for
// each side, and the total.
struct EvalBreakdown {
    struct Term {
        EvalTerm term;
        const char* name;
        int attackers = 0; // what the term is worth to the attackers
        int defenders = 0; // ... to the defenders
    };
    std::array<Term, EVAL_TERM_COUNT> terms{};
    int attackers = 0, defenders = 0; // sums over the terms
    Value attackers_view = 0;         // attackers - defenders, clamped
    Value value = 0;                  // the evaluation: side to move's view == evaluate()
    Side side_to_move = ATTACKERS;
};
EvalBreakdown breakdown(const Position& pos, const EvalParams& params);
// A readable table of the breakdown, one line per term plus the total.
std::string format_breakdown(const EvalBreakdown& b);

} // namespace BRANAN_BOARD_NS
} // namespace branan
