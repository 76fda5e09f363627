// branan-book: makes an opening book for a preset (see cli.h, docs/books.md).

#include <exception>
#include <iostream>

#include "book_command_line.h"

int main(int argc, char** argv) {
    try {
        return branan::book::run(std::vector<std::string>(argv + 1, argv + argc), std::cerr);
    } catch (const std::exception& e) {
        // Out of memory and the like: not the user's input.
        std::cerr << "branan-book: internal error: " << e.what() << "\n";
        return 1;
    }
}
