// branan-tune: fits the evaluation weights to game results (see cli.h).

#include <exception>
#include <iostream>

#include "progress.h"
#include "tune_command_line.h"

int main(int argc, char** argv) {
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        return branan::tune::run(args, std::cout, std::cerr, branan::tune::stderr_is_terminal());
    } catch (const std::exception& e) {
        // Out of memory and the like: not the user's input.
        std::cerr << "branan-tune: internal error: " << e.what() << "\n";
        return 1;
    }
}
