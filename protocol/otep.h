#pragma once

// The OpenTafl engine protocol (OTEP) loop (../shared/OTEP.md): OpenTafl
// starts the engine and drives it with `rules`, `clock`, `play` and the
// like. Like the UCI-style loop, it only parses lines and prints answers;
// the Engine facade does the work.

#include <istream>
#include <ostream>
#include <string>

#include "engine.h"
#include "line_reader.h"

namespace branan {

// How the OTEP loop thinks, when not on the host's clock.
struct OtepOptions {
    // > 0: every `play` and `analyze` searches to this depth and the clock
    // is ignored (reproducible games and tests).
    int depth = 0;
};

// Runs the OTEP loop over `engine`: `first_line` (already read, may be
// empty) first, then lines from `reader`, answers to `out`. Returns when
// the host says goodbye or the input ends; the search is stopped.
void run_otep(Engine& engine, const OtepOptions& options, const std::string& first_line,
              LineReader& reader, std::ostream& out);

} // namespace branan
