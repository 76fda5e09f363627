#pragma once

// The branan-nnue command line: gen (training positions by self-play) and
// info (what a data file holds). Exit status 0 on success, 2 for bad input
// of any kind (the message on `err` names what and where).

#include <ostream>
#include <string>
#include <vector>

namespace branan::nnue {

// args: the arguments after the program name. `tty`: stderr is a terminal
// (the progress line rewrites itself).
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool tty);

} // namespace branan::nnue
