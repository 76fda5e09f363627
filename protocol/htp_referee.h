#pragma once

// The engine side of hnefatafl.org's local referee (`hnefatafl-server`,
// HNEFATAFL.md 4.6): Branan connects to it as a TCP client and plays one
// game. `generate_move ROLE` asks for a move, answered `play ROLE FROM TO`
// (no `=`); `play ...` is the opponent's move; any other line runs as an
// HTP command here. The referee answers nothing and closes at the end.

#include <ostream>
#include <string>

#include "engine.h"
#include "htp.h"

namespace branan {

// The referee's port (ORG src/lib.rs SERVER_PORT).
constexpr int HTP_REFEREE_PORT = 49152;

// Plays until the referee closes the connection. Replies to the local
// commands go to `out`; problems to `err`. Returns 0 when the referee
// closed the connection, 1 when it could not be reached or sent a line
// that cannot be played.
int run_htp_referee_client(Engine& engine, const HtpOptions& options, const std::string& host,
                           int port, std::ostream& out, std::ostream& err);

} // namespace branan
