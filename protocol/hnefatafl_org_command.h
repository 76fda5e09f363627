#pragma once

// The command line of `branan hnefatafl-org` (cli.cpp hands it the words
// after the command): its options, the password from a file or the
// environment (never from the command line), then the bot.

#include <ostream>
#include <string>
#include <vector>

namespace branan {

constexpr const char* HNEFATAFL_ORG_USAGE =
    "  hnefatafl-org --user NAME [--password-file FILE] [--host H] [--port P]\n"
    "          [--version-id ID] [--create attacker|defender|both] [--board 7|11|13]\n"
    "          [--time MS+S | untimed] [--rated] [--accept-challenges] [--games N]\n"
    "          [--max-games-at-once K] [--depth N | --nodes N] [--margin MS]\n"
    "                                     play on hnefatafl.org's server as a bot; the\n"
    "                                     password comes from --password-file or the\n"
    "                                     environment variable BRANAN_PASSWORD\n"
    "                                     (docs/hnefatafl-org.md)\n";

// Exit status: 0 after the games, 1 the server cannot be reached, 2 a bad
// command line or a login the server refuses. `hash_mb` and `threads`: the
// global --hash and --threads (0 = not given).
int run_hnefatafl_org_command(const std::vector<std::string>& args, int hash_mb, int threads,
                              std::ostream& out, std::ostream& err);

} // namespace branan
