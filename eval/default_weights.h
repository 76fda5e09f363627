#pragma once

// The default weight files (eval/weights/<set>.txt), compiled in as text:
// eval/CMakeLists.txt writes every file of the folder into
// default_weights.cpp in the build folder when it configures, and again
// whenever a file is added, removed or changed. params.cpp parses them into
// the default EvalParams.

#include <span>
#include <string_view>

#include "params.h"

namespace branan {

struct EmbeddedWeights {
    std::string_view name; // the file's name without ".txt"
    std::string_view text;
};

// Every file, in the order of their names; a DefaultSet is an index here.
std::span<const EmbeddedWeights> embedded_weight_sets();

// The text of eval/weights/<default_set_name(set)>.txt as it was built.
inline std::string_view embedded_weights(DefaultSet set) {
    return embedded_weight_sets()[size_t(set)].text;
}

} // namespace branan
