#pragma once

// The branan-book command line:
//
//   branan-book --preset NAME --count N --plies MIN-MAX --nodes N --margin CP
//               --seed S [--target CP] [--threads T] [--candidates N] [--screen-nodes N]
//               [--screen-margin CP] [--playout-nodes N] [--playout-plies N]
//               [--hash MB] -o FILE
//
// Exit status 0 when the book is written, 2 for bad input (the message names
// the option; nothing is written), 1 when no candidate passed.

#include <ostream>
#include <string>
#include <vector>

namespace branan::book {

// args: the arguments after the program name. The book goes to the file;
// progress and errors to `err`, plain lines.
int run(const std::vector<std::string>& args, std::ostream& err);

} // namespace branan::book
