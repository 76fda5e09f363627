#pragma once

// The branan-tune command line: extract, fit, defaults, bench-fit.
// Exit status 0 on success, 2 for bad input of any kind (the message on
// `err` names what and where; nothing is written).

#include <ostream>
#include <string>
#include <vector>

namespace branan::tune {

// args: the arguments after the program name. `tty`: stderr is a terminal
// (progress lines rewrite themselves); reports go to `err`, the results
// (the weights table) to `out`.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool tty);

} // namespace branan::tune
