#pragma once

// The command line: `branan [options] [command]`. Separate from main() so
// the tests can run it in-process.

#include <istream>
#include <ostream>

namespace branan {

// Returns the exit status: 0 success, 1 a command failed, 2 bad command line.
int run_cli(int argc, const char* const argv[], std::istream& in, std::ostream& out,
            std::ostream& err);

} // namespace branan
