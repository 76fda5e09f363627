// branan-nnue: training data for the learned evaluation (nnue_command_line.h).

#include <exception>
#include <iostream>

#include "nnue_command_line.h"
#include "tune/progress.h"

int main(int argc, char** argv) {
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        return branan::nnue::run(args, std::cout, std::cerr, branan::tune::stderr_is_terminal());
    } catch (const std::exception& e) {
        // Out of memory and the like: not the user's input.
        std::cerr << "branan-nnue: internal error: " << e.what() << "\n";
        return 1;
    }
}
