// UCI end to end, as a match runner drives it: many short searches in a row
// (position + go, answer, next position at once). Each go must get exactly
// one bestmove, legal in the position just sent. This once failed when a
// read of stdin flushed stdout from the main thread while the search thread
// wrote to it (cin tied to cout), duplicating a bestmove line.

#include <catch2/catch.hpp>

#include <string>

#include "edition.h"
#include "movegen.h"
#include "notation.h"
#include "pipe_host.h"
#include "rules.h"

using namespace branan;
using branan::testutil::Host;

namespace {

// Reads until the bestmove line; counts the bestmove lines seen.
std::string read_bestmove(Host& host) {
    while (true) {
        std::string line = host.read_line(30000);
        if (line == "<timeout>" || line == "<eof>") return line;
        if (line.rfind("bestmove ", 0) == 0) return line;
    }
}

} // namespace

TEST_CASE("uci: fast games of short searches, one legal bestmove per go", "[cli]") {
    for (const char* preset : {"brandubh", "tablut"}) {
        Host host({"--variant", preset});
        auto rules = preset_rules(preset);
        REQUIRE(rules.ok());
        auto edition = Edition::make(*rules);
        REQUIRE(edition.ok());
        for (int game = 0; game < 6; ++game) {
            host.send("ucinewgame");
            Position pos(*edition);
            std::string moves;
            for (int ply = 0; ply < 40 && !pos.result().over(); ++ply) {
                host.send("position startpos moves" + moves);
                host.send("go nodes 1500");
                const std::string line = read_bestmove(host);
                INFO(preset << " game " << game << " ply " << ply << ": " << line);
                REQUIRE(line.rfind("bestmove ", 0) == 0);
                const std::string text = line.substr(9, line.find(' ', 9) - 9);
                auto m = parse_legal_move(pos, text);
                INFO("legality: " << (m ? std::string("ok") : m.error()));
                REQUIRE(m.ok());
                pos.make_move(*m);
                moves += " " + text;
            }
        }
        // Nothing left over: the next reply is the answer to isready.
        host.send("isready");
        CHECK(host.read_line() == "readyok");
        host.send("quit");
        CHECK(host.wait_exit() == 0);
    }
}
