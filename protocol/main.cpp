// branan: the command line (see cli.cpp) over std streams.

#include <iostream>

#include <malloc.h>

#include "command_line.h"

int main(int argc, char* argv[]) {
    std::ios::sync_with_stdio(false);
    // Untie cin from cout: a read would flush cout from this thread while a
    // search thread writes to it, and an unsynchronised stream buffer then
    // writes a line twice. Every protocol line is flushed by its writer.
    std::cin.tie(nullptr);
#ifdef M_MMAP_THRESHOLD
    // Blocks of 256 KiB and more (the table, the histories, a buffer that
    // held an overlong line) come from the system and go back to it when
    // freed. glibc's default raises this bound to the largest block freed
    // (the first table: megabytes), after which such blocks stay in the
    // heap and a bot or a GUI session that runs for days holds memory its
    // games no longer use.
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
    return branan::run_cli(argc, argv, std::cin, std::cout, std::cerr);
}
