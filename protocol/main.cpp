// branan: the command line (see cli.cpp) over std streams.

#include <iostream>

#include "cli.h"

int main(int argc, char* argv[]) {
    std::ios::sync_with_stdio(false);
    return branan::run_cli(argc, argv, std::cin, std::cout, std::cerr);
}
