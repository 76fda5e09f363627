#pragma once

// The OpenTafl engine protocol (OTEP) loop: the hook where it plugs in.
// It comes in a later issue; until then it is not available and the
// program goes on with the UCI-style loop.

#include <istream>
#include <ostream>
#include <string>

#include "engine.h"
#include "line_reader.h"

namespace branan {

// Whether an OTEP loop is built in.
bool otep_available();

// Runs the OTEP loop over `engine`: `first_line` (already read, may be
// empty) first, then lines from `reader`, answers to `out`. Returns when
// the host says goodbye or the input ends; the search is stopped.
void run_otep(Engine& engine, const std::string& first_line, LineReader& reader, std::ostream& out);

} // namespace branan
