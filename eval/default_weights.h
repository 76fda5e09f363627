#pragma once

// The default weight files (eval/weights/<set>.txt), compiled in as text:
// eval/CMakeLists.txt writes them into default_weights.cpp in the build
// folder when it configures, and again whenever a file changes. params.cpp
// parses them into the default EvalParams.

#include <string_view>

#include "params.h"

namespace branan {

// The text of eval/weights/<default_set_name(set)>.txt as it was built.
std::string_view embedded_weights(DefaultSet set);

} // namespace branan
