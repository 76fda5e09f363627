#include "params.h"

namespace branan {

EvalParams default_params(const Rules&) {
    return {};
}

} // namespace branan
