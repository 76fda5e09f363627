#pragma once

// A fake Bologna Tablut Challenge server for tests and local games: it
// frames, orders and judges messages as ../shared/BOLOGNA.md describes the
// real one for Ashton Tablut (-r 4), on 127.0.0.1 only, and can misbehave
// on request (ServerFaults) so the client's error paths can be tested.
//
// Order of a game: accept white, read its name; accept black, read its
// name; send the state to white then black; then read the move of the side
// to move only, with the -t limit, judge it, and send the new state to both.
// A time-out, a player closing its connection or a frame that is not a JSON
// object ends the game with no result (both sockets close), as on the real
// server.

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "bologna_codec.h"

namespace branan::bologna {

struct ServerFaults {
    enum class Kind : uint8_t {
        NONE,
        TRUNCATE,    // half a frame, then both connections close
        BAD_JSON,    // a frame that is not JSON
        WRONG_SHAPE, // JSON, but not a state
        BAD_CELL,    // a cell name the server never sends
        WRONG_SIZE,  // eight rows
        BAD_LENGTH,  // a negative frame length
        IMPOSSIBLE,  // a board no legal move leads to (a white soldier more)
        CLOSE,       // both connections close instead of the state
    };
    Kind kind = Kind::NONE;
    int at_state = 1;       // which state is broken: 0 = the first (each state goes to both)
    int delay_ms = 0;       // a slow server: a pause before every frame it sends...
    int chunk_bytes = 0;    // ...and frames written in pieces of this many bytes
    int chunk_pause_ms = 0; // with this pause between pieces
    int slow_states = -1;   // the slowness stops after this many states (-1 = never)
};

struct ServerOptions {
    int white_port = 0; // 0 = an ephemeral port (see Server::white_port)
    int black_port = 0;
    int time_s = 60; // -t: per move and per name
    int cache = -1;  // -c: repetition window (-1 = every position since a capture)
    int errors = 0;  // -e: illegal moves a player may make without losing
    int accept_timeout_ms = 300'000;
    // As the 2020 Server.jar: an illegal move beyond -e ends the game with
    // no final state (both sockets close), as a time-out does.
    bool jar_2020 = false;
    // The position the game starts from (TFEN, side to move included);
    // empty = Ashton's start. The players join a game "under way".
    std::string start;
    ServerFaults faults;
};

struct ServerMove {
    Side side = DEFENDERS;
    std::string move; // "d1-c1", or the frame itself when it was no move
    int64_t ms = 0;   // from the state sent to the move received
    bool legal = true;
    std::string error; // why an illegal move was refused
};

struct GameReport {
    std::string white_name, black_name;
    std::string result; // WHITEWIN, BLACKWIN, DRAW, or empty: the game ended without one
    std::string reason; // why the game ended, in words
    std::vector<ServerMove> moves;
    int illegal[2] = {0, 0}; // illegal moves, index Side
    int plies() const;       // legal moves played
};

class Server {
  public:
    Server() = default;
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Opens both listening sockets (127.0.0.1). `log`: the game log (one
    // line per move and the result); may be null.
    Status open(const ServerOptions& options, std::ostream* log);
    int white_port() const { return white_port_; }
    int black_port() const { return black_port_; }

    // Plays one game and closes every socket.
    GameReport run();

  private:
    void log(const std::string& line);
    bool send_frame(int fd, const std::string& payload);
    // Sends a state to white then black, breaking it if the faults say so;
    // false when the game cannot go on.
    bool send_state(const Placement& board, Turn turn, GameReport& report);
    void close_players();
    void linger();

    ServerOptions o_;
    EditionPtr edition_;
    std::ostream* log_ = nullptr;
    int listen_[2] = {-1, -1}; // index Side: attackers = black, defenders = white
    int player_[2] = {-1, -1};
    int white_port_ = 0, black_port_ = 0;
    int states_sent_ = 0;
};

} // namespace branan::bologna
