#pragma once

// `branan bologna`: a player for the Bologna Tablut Challenge server
// (../shared/BOLOGNA.md). It connects to the server's port for its side,
// sends its name, and for every state received rebuilds the position (with
// the history the server does not send), searches within the server's time
// limit and sends its move. Separate from the command line so the tests can
// run it in-process, in a thread.

#include <cstdint>
#include <ostream>
#include <string>

#include "rules.h"
#include "types.h"

namespace branan {

struct BolognaClientOptions {
    Side side = DEFENDERS; // white = defenders, black = attackers
    std::string host = "127.0.0.1";
    int port = 0; // 0 = the server's port for the side (5800 white, 5801 black)
    std::string name = "Branan";
    int time_s = 60; // the server's -t
    // Kept back from the limit: the server counts the time from when it has
    // sent the state until the move has arrived, network and scheduling
    // included (tablut.cpp, the 2025 winner, keeps 4 s).
    int margin_ms = 3000;
    int cache = -1; // the server's -c: repetition window (-1 = every position since a capture)
    int depth = 0;  // fixed limits (tests, experiments); the budget still applies
    uint64_t nodes = 0;
    int hash_mb = 0; // 0 = the engine's default
    int threads = 0;
    // How long to keep trying while the server's port is closed (a player
    // may start before its server: --connect-timeout); 0 = one attempt.
    int connect_timeout_ms = 0;
    int connect_attempt_ms = 10000; // the limit of one attempt
    // How long to wait for each message: 0 = long enough for anything a
    // correct server does (its 300 s wait for the black player, plus moves).
    int read_timeout_ms = 0;
};

constexpr int BOLOGNA_WHITE_PORT = 5800;
constexpr int BOLOGNA_BLACK_PORT = 5801;

// The rules the server plays: the `ashton` preset, with the repetition
// window of the server's -c N as a repetition span of N+1 plies (repw:N+1:
// a position is compared with at most that many earlier plies), and -1
// (every position since the last capture) as 0.
Result<Rules> bologna_rules(int cache);

// Plays one game. Prints one line on `out` when the game is over
// (`result WHITEWIN (we played white: won)`) and returns 0: the server's
// final state, or its close without one while the opponent was to move
// (`result WHITEWIN (we played white: won: ...)`: the opponent's illegal
// move or time-out, see docs/bologna.md). Returns 1 with the reason on
// `err` when the game cannot go on (connection refused or closed early with
// us to move, malformed data, a state no legal move could have produced).
int run_bologna_client(const BolognaClientOptions& options, std::ostream& out, std::ostream& err);

} // namespace branan
