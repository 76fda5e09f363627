#pragma once

// The host's side of OTEP in the end-to-end tests: one move of the engine.

#include <string>

#include "notation.h"
#include "pipe_host.h"

namespace branan::testutil {

// Asks the engine behind `host` for a move (`play <side to move>`), requires
// a legal `move` line, makes it on `pos` and acknowledges it with the board
// after it, as OpenTafl does, unless it ended the game.
inline void otep_engine_move(Host& host, Position& pos) {
    host.send(std::string("play ") + (pos.side_to_move() == ATTACKERS ? "attackers" : "defenders"));
    const std::string line = host.read_reply();
    INFO("engine said '" << line << "'");
    REQUIRE(line.rfind("move ", 0) == 0);
    auto m = parse_legal_move(pos, line.substr(5));
    REQUIRE(m.ok());
    pos.make_move(*m);
    if (!pos.result().over()) host.send("move " + to_opentafl_position(pos));
}

} // namespace branan::testutil
