// branan: the command line (see cli.cpp) over std streams.

#include <iostream>

#include "command_line.h"

int main(int argc, char* argv[]) {
    std::ios::sync_with_stdio(false);
    // Untie cin from cout: a read would flush cout from this thread while a
    // search thread writes to it, and an unsynchronised stream buffer then
    // writes a line twice. Every protocol line is flushed by its writer.
    std::cin.tie(nullptr);
    return branan::run_cli(argc, argv, std::cin, std::cout, std::cerr);
}
