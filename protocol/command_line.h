#pragma once

// The command line: `branan [options] [command]`. Separate from main() so
// the tests can run it in-process.

#include <istream>
#include <ostream>

namespace branan {

// Returns the exit status (EXIT_OK, EXIT_FAILURE_AT_RUN_TIME, EXIT_BAD_INPUT
// of engine/types.h).
int run_cli(int argc, const char* const argv[], std::istream& in, std::ostream& out,
            std::ostream& err);

} // namespace branan
