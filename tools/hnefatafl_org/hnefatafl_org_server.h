#pragma once

// A fake hnefatafl.org server for tests and local games, written from
// ../shared/HNEFATAFL.md section 4: the login with the version id, new_game,
// challenges and join_game, moves judged by the hnefatafl-org rules with
// real Fischer clocks, draws, resignations, game over, resume_game_json (and
// its re-attachment of a connection), on 127.0.0.1 only. A house player (an
// account played by Branan's own engine inside the server) challenges every
// new game and plays it; faults on request (ServerFaults) exercise the
// bot's error paths.

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "engine.h"
#include "hnefatafl_org_codec.h"
#include "socket.h"

namespace branan::org {

struct ServerFaults {
    bool refuse_first_move =
        false; // the first move of each socket player's game: `? game play: ...`
    bool stray_error_first =
        false;            // ...after a stray `? game`, which the player may take for the answer
    int drop_at_ply = -1; // the players' connections close once a game reaches this ply (once)
    int busy_logins = 0;  // after a drop, logins refused with logged_in_already
    int offer_draw_at_ply = -1; // the house offers a draw after each of its moves from this ply on
    int house_resigns_at_ply = -1; // the house resigns on its turn at or past this ply
    int adjudicate_at_ply = -1;    // `= game_over ID attacker_wins` once a game reaches this ply
    int draw_ply = 0;              // the ply-limit draw at this ply (0: the rules' own)
    bool malformed = false;        // garbage lines to the players now and then
    // A line of this many bytes (past the bot's bound) to the player after
    // each of the opponent's moves, before the move (0: none).
    int overlong_line_bytes = 0;
    // After each move of a socket player, a `generate_move` for its side,
    // whose turn it is not.
    bool stray_generate_move = false;
    int line_delay_ms = 0; // a slow server: a pause before every line it sends...
    int chunk_bytes = 0;   // ...and lines written in pieces of this many bytes
};

struct ServerOptions {
    int port = 0; // 0 = an ephemeral port (see Server::port)
    // The first game's id: a server restarted in the middle of a run goes
    // on from the ids it gave before, as the real one does.
    int64_t first_game_id = 1;
    std::string version_id = VERSION_ID;
    std::vector<std::pair<std::string, std::string>> accounts = {{"branan", "secret"},
                                                                 {"rival", "rival"}};
    // The house player: challenges every new game of another account and
    // plays it with a fixed search. Empty = no house player.
    std::string house = "rival";
    int house_depth = 2;
    uint64_t house_nodes = 0;
    int house_delay_ms = 0;   // before each house move and challenge...
    int house_slow_plies = 0; // ...up to this ply (0 = the whole game)
    // Games of the first account waiting for a challenger when it logs in
    // (the house challenges them then): for --accept-challenges.
    std::vector<NewGame> open_games;
    ServerFaults faults;
};

struct GameReport {
    int64_t id = 0;
    std::string attacker, defender;
    int board_size = 11;
    TimeControl time;
    std::vector<std::string> moves; // the `moves` field's records
    std::string result;             // attacker_wins, defender_wins, draw, or empty: not over
    std::string reason;             // in words
    int refused = 0;                // moves refused on purpose (ServerFaults::refuse_first_move)
    int illegal = 0;                // moves of a socket player judged illegal
    int repeated_refused = 0;       // a refused move sent again
    bool declined = false;          // a `draw ID decline` (the bot must never send one)
    int overlong_lines = 0;         // lines past the bound sent (ServerFaults::overlong_line_bytes)
    int stray_generate_moves = 0;   // out of turn (ServerFaults::stray_generate_move)
    std::array<int64_t, 2> min_ms_left{INT64_MAX, INT64_MAX}; // at each move of the side
    std::array<int64_t, 2> final_ms_left{};
};

class Server {
  public:
    Server();
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Opens the listening socket (127.0.0.1). `log`: every line in and out
    // and the result of each game; may be null.
    Status open(const ServerOptions& options, std::ostream* log);
    int port() const { return port_; }

    // Serves until stop() (from another thread) or `ms` have passed (0 = no
    // limit).
    void run(int64_t ms = 0);
    void stop() { stop_ = true; }

    // After run(): every game created, and how many logins succeeded.
    std::vector<GameReport> reports() const;
    int logins() const { return logins_; }
    std::map<std::string, int> logins_by_user() const { return logins_by_user_; }
    std::vector<std::string> received() const { return received_; } // every line from a socket

  private:
    struct Connection;
    struct Game;

    void accept_connections();
    void read_connections();
    void on_line(int conn, const std::string& line);
    void on_login(int conn, const std::vector<std::string_view>& w);
    void on_command(int conn, const std::string& line, const std::vector<std::string_view>& w);
    void on_play(int conn, Game& g, const std::vector<std::string_view>& w);
    void start_game(Game& g);
    void make_move(Game& g, Move m, const std::string& from, const std::string& to, int mover_conn);
    void end_game(Game& g, const std::string& result, const std::string& reason);
    void charge_clock(Game& g);
    void house_turns();
    void clock_watch();
    void send(int conn, const std::string& line);
    void flush();
    void send_player(Game& g, Side s, const std::string& line);
    void close_connection(int conn);
    void log(const std::string& line);
    int connection_of(const std::string& user) const;
    bool is_house(const std::string& user) const { return !o_.house.empty() && user == o_.house; }
    std::string game_time_line(const Game& g) const;

    ServerOptions o_;
    std::ostream* log_ = nullptr;
    int listen_fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::map<int, std::unique_ptr<Connection>> connections_;
    int next_connection_ = 1;
    std::map<int64_t, std::unique_ptr<Game>> games_;
    int64_t next_game_ = 1;
    Engine house_engine_;
    int logins_ = 0;
    std::map<std::string, int> logins_by_user_;
    int busy_left_ = 0;
    bool dropped_ = false;
    int malformed_sent_ = 0;
    std::vector<std::string> received_;
};

} // namespace branan::org
