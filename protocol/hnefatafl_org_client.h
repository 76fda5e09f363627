#pragma once

// `branan hnefatafl-org`: a bot for hnefatafl.org's server
// (../shared/HNEFATAFL.md section 4, docs/hnefatafl-org.md). It logs in,
// creates games and accepts challenges, and plays every game to its end,
// several at once (one search at a time), reconnecting when the connection
// drops. Separate from the command line so the tests can run it in-process,
// in a thread.

#include <cstdint>
#include <ostream>
#include <string>

#include "hnefatafl_org_codec.h"

namespace branan {

struct HnefataflOrgOptions {
    std::string host = org::DEFAULT_HOST;
    int port = org::DEFAULT_PORT;
    std::string version_id = org::VERSION_ID;
    std::string user;
    std::string password; // never logged; the command line reads it from a file or the environment
    // Games to create: none, or for this side, or for both sides in turn.
    bool create[2] = {false, false}; // index Side
    int board_size = 11;
    org::TimeControl time; // of the games created
    bool rated = false;
    // Accept challenges to any game of the account, not only to the games
    // this run created (those are always accepted).
    bool accept_challenges = false;
    int games = 1;             // exit 0 once this many games have ended (0 = never)
    int max_games_at_once = 1; // games running or waiting for a challenger

    // The search: fixed limits (tests, experiments) within the clock.
    int depth = 0;
    uint64_t nodes = 0;
    int hash_mb = 0; // 0 = the engine's default
    int threads = 0;
    // Kept back from the clock for the network: the server charges the
    // time from its last clock update until the move line arrives.
    int margin_ms = 1000;

    int connect_timeout_ms = 10000;
    int reply_timeout_ms = 10000; // resume_game_json of a game that is not running gets no reply
    int backoff_ms = 1000;        // the first reconnection delay; it doubles up to backoff_max_ms
    int backoff_max_ms = 60000;
    int max_reconnects = 50; // in a row without a successful login; then exit 1
};

// Plays until `games` games have ended (exit status 0). Prints one summary
// line per finished game on `out`. Returns 2 with the reason on `err` when
// the server refuses the login for good (wrong version id, wrong password,
// an unknown account) or the options cannot work (a 13x13 board), 1 when
// the server cannot be reached.
int run_hnefatafl_org_bot(const HnefataflOrgOptions& options, std::ostream& out, std::ostream& err);

} // namespace branan
