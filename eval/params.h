#pragma once

// Evaluation weights. Placeholder until the evaluation issue: material only.

#include <string>
#include <vector>

#include "rules.h"

namespace branan {

struct EvalParams {
    int attacker = 100;
    int defender = 100;
};

EvalParams default_params(const Rules& rules);

} // namespace branan
