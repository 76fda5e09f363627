// The Hnefatafl Text Protocol (HNEFATAFL.md 4.6-4.8): every command with its
// reply and its errors, in-process through the session and through streams;
// the coordinates of the site; `--protocol auto`; and the local referee's
// flow, with a small fake referee on a loopback port pairing two real
// branan processes for a whole game.

#include <catch2/catch.hpp>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "hnefatafl_org_coordinates.h"
#include "htp.h"
#include "loop.h"
#include "match/match.h"
#include "movegen.h"
#include "notation.h"
#include "pipe_host.h"
#include "socket.h"

using namespace branan;

namespace {

HtpOptions fast() {
    HtpOptions o;
    o.depth = 2;
    return o;
}

// A session with its engine; `say` gives the reply as the loop prints its
// first part: "= text", "? text", or "" for no reply.
struct Htp {
    Engine engine;
    HtpSession session{engine, fast()};
    std::string say(std::string_view line) {
        auto reply = session.handle(line);
        if (!reply) return "";
        return (reply->ok ? "= " : "? ") + reply->text;
    }
};

std::string transcript(const std::string& input) {
    Engine engine;
    std::istringstream in(input);
    std::ostringstream out;
    LineReader reader(in);
    run_htp(engine, fast(), "", reader, out);
    return out.str();
}

} // namespace

TEST_CASE("htp: the site's coordinates per board size", "[htp]") {
    CHECK(org_square_name(11, 0) == "a1");
    CHECK(org_square_name(11, 120) == "k11");
    CHECK(org_square_name(11, 3 * 11 + 3) == "d4");
    CHECK(org_square_name(7, 0) == "0a1");
    CHECK(org_square_name(7, 48) == "0g7");
    CHECK(org_square_name(13, 168) == "M13");
    CHECK(*parse_org_square(11, "a1") == 0);
    CHECK(*parse_org_square(11, "k11") == 120);
    CHECK(*parse_org_square(7, "0d4") == 24);
    CHECK(*parse_org_square(13, "M13") == 168);
    for (const char* bad : {"K11", "0a1", "a0", "a12", "l1", "a+1", "a", "", "a1x"}) {
        INFO(bad);
        auto s = parse_org_square(11, bad);
        REQUIRE_FALSE(s.ok());
        CHECK(s.error() == "play: invalid coordinate");
    }
    CHECK_FALSE(parse_org_square(7, "d4").ok());
    CHECK_FALSE(parse_org_square(7, "0h1").ok());
    CHECK_FALSE(parse_org_square(13, "m13").ok());
}

TEST_CASE("htp: auto recognises an HTP driver from its first command", "[htp]") {
    CHECK(detect_protocol("board_size 11") == Protocol::HTP);
    CHECK(detect_protocol("protocol_version") == Protocol::HTP);
    CHECK(detect_protocol("generate_move attacker") == Protocol::HTP);
    CHECK(detect_protocol("# a comment") == Protocol::HTP);
    CHECK(detect_protocol("quit") == Protocol::UCI);
    CHECK(detect_protocol("uci") == Protocol::UCI);
    CHECK(detect_protocol("rules dim:7") == Protocol::OTEP);
    CHECK(parse_protocol("htp") == Protocol::HTP);

    Engine engine;
    std::istringstream in("\nname\nprotocol_version\nquit\nname\n");
    std::ostringstream out;
    run_protocol(engine, Protocol::AUTO, in, out, fast());
    CHECK(out.str() == "= Branan\n= 1-beta\n");
}

TEST_CASE("htp: replies, errors, comments and blank lines as the site's engine", "[htp]") {
    const std::string out = transcript("name\n"
                                       "version\n"
                                       "protocol_version\n"
                                       "\n"
                                       "   # only a comment\n"
                                       "known_command play_undo # the rest is a comment\n"
                                       "known_command genmove\n"
                                       "known_command\n"
                                       "frobnicate now\n"
                                       "final_status\n"
                                       "quit\n"
                                       "name\n");
    CHECK(out == "= Branan\n"
                 "= " BRANAN_VERSION "\n"
                 "= 1-beta\n"
                 "= true\n"
                 "= false\n"
                 "? expected: known_command COMMAND\n\n"
                 "? unrecognized command: frobnicate\n\n"
                 "= ongoing\n");
    // A line over the bound is skipped unread; the next one is answered.
    CHECK(transcript(std::string(2 * MAX_LINE_LENGTH, 'n') + "\nname\n") ==
          "? line too long\n\n= Branan\n");
}

TEST_CASE("htp: list_commands names the 17 commands, one per line", "[htp]") {
    const std::string out = transcript("list_commands\n");
    CHECK(out == "= \nboard_size\nfinal_status\nfirst_move\ngenerate_move\nknown_command\n"
                 "list_commands\nname\nplay\nplay_from\nplay_to\nplay_undo\nprotocol_version\n"
                 "quit\nshow_board\nshow_board_open_tafl\ntime_settings\nversion\n");
    Htp h;
    for (const char* c :
         {"board_size", "final_status", "first_move", "generate_move", "known_command",
          "list_commands", "name", "play", "play_from", "play_to", "play_undo", "protocol_version",
          "quit", "show_board", "show_board_open_tafl", "time_settings", "version"})
        CHECK(h.say(std::string("known_command ") + c) == "= true");
}

TEST_CASE("htp: board_size, first_move and time_settings start new games", "[htp]") {
    Htp h;
    CHECK(h.say("show_board_open_tafl") ==
          "= /3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/");
    CHECK(h.say("play a d1 d3") == "= ");
    CHECK(h.say("board_size 11") == "= ");
    CHECK(h.say("play_from").rfind("= attacker d1 e1 ", 0) == 0);
    CHECK(h.say("board_size 13") == "= ");
    CHECK(h.say("show_board_open_tafl") ==
          "= /3AAAAAAA3/6A6/13/A5D5A/A5D5A/A4DDD4A/AA1DDDKDDD1AA/A4DDD4A/A5D5A/A5D5A/13/6A6/"
          "3AAAAAAA3/");
    CHECK(h.say("play a D1 D3") == "= ");
    CHECK(h.say("board_size 11") == "= ");
    CHECK(h.say("board_size 9") == "? board_size: expected 7, 11 or 13");
    CHECK(h.say("board_size") == "? expected: board_size uint");
    CHECK(h.say("board_size x").rfind("? board_size: ", 0) == 0);
    CHECK(h.session.position().size() == 11); // a refused size keeps the game

    CHECK(h.say("board_size 7") == "= ");
    CHECK(h.say("show_board_open_tafl") == "= /3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/");
    CHECK(h.say("show_board") == "= \n"
                                 "    A B C D E F G\n"
                                 "  \u250c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500"
                                 "\u2500\u2500\u2500\u2500\u2500\u2500\u2510\n"
                                 " 7\u2502 # . . X . . # \u2502 7\n"
                                 " 6\u2502 . . . X . . . \u2502 6\n"
                                 " 5\u2502 . . . O . . . \u2502 5\n"
                                 " 4\u2502 X X O K O X X \u2502 4\n"
                                 " 3\u2502 . . . O . . . \u2502 3\n"
                                 " 2\u2502 . . . X . . . \u2502 2\n"
                                 " 1\u2502 # . . X . . # \u2502 1\n"
                                 "  \u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500"
                                 "\u2500\u2500\u2500\u2500\u2500\u2500\u2518\n"
                                 "    A B C D E F G");

    CHECK(h.say("first_move defender") == "= ");
    CHECK(h.say("play_from") == "= defender 0d3 0c4 0e4 0d5");
    CHECK(h.say("first_move A") == "= ");
    CHECK(h.say("play_from").rfind("= attacker ", 0) == 0);
    CHECK(h.say("first_move") == "? expected: first_move ROLE");
    CHECK(h.say("first_move king") == "? expected: first_move ROLE");

    const std::string usage = "? time_settings: expected 'time_settings un-timed' or "
                              "'time_settings fischer MINUTES ADD_SECONDS'";
    CHECK(h.say("time_settings fischer 15 10") == "= ");
    CHECK(h.say("time_settings un-timed") == "= ");
    CHECK(h.say("time_settings") == usage);
    CHECK(h.say("time_settings none") == usage);
    CHECK(h.say("time_settings fischer 15") == usage);
    CHECK(h.say("time_settings fischer x 10") == "? time_settings: arg 2 is not an integer");
    CHECK(h.say("time_settings fischer 15 -1") == "? time_settings: arg 3 is not an integer");
}

TEST_CASE("htp: play answers the captured squares, each followed by a space", "[htp]") {
    Htp h;
    CHECK(h.say("play a a4 c4") == "= ");
    CHECK(h.say("play D f4 d4") == "= ");
    CHECK(h.say("play attacker e1 e4") == "= d4 ");
    CHECK(h.say("show_board_open_tafl") ==
          "= /3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/2A1A5A/11/5A5/3A1AAA3/");
    CHECK(h.say("final_status") == "= ongoing");
}

TEST_CASE("htp: a captured king is listed last, and the game is over", "[htp]") {
    Htp h;
    CHECK(h.say("board_size 7") == "= ");
    for (const char* move : {"d 0e4 0e6", "a 0g4 0g5", "d 0d4 0e4", "a 0f4 0f5", "d 0c4 0c5",
                             "a 0d2 0e2", "d 0c5 0b5", "a 0e2 0e3", "d 0b5 0b6"}) {
        INFO(move);
        CHECK(h.say(std::string("play ") + move) == "= ");
    }
    CHECK(h.say("final_status") == "= ongoing");
    CHECK(h.say("play a 0f5 0e5") == "= 0e4 ");
    CHECK(h.say("final_status") == "= attacker_wins");
    CHECK(h.say("play_from") == "= defender ");
}

TEST_CASE("htp: illegal moves get the site's errors", "[htp]") {
    Htp h;
    CHECK(h.say("play") == "? expected: 'play ROLE FROM TO' or 'play ROLE resigns'");
    CHECK(h.say("play a d1") == "? expected: 'play ROLE FROM TO' or 'play ROLE resigns'");
    CHECK(h.say("play x d1 d3") == "? play: you didn't select a role");
    CHECK(h.say("play a D1 D3") == "? play: invalid coordinate");
    CHECK(h.say("play a d1 d12") == "? play: invalid coordinate");
    CHECK(h.say("play a 0d1 0d3") == "? play: invalid coordinate");
    CHECK(h.say("play a c3 c5") == "? play: you didn't select a role");
    CHECK(h.say("play d f4 e4") == "? play: it isn't your turn");
    CHECK(h.say("play a f4 e4") == "? play: it isn't your turn");
    CHECK(h.say("play d d1 d3") == "? play: it isn't your turn");
    CHECK(h.say("play a d1 e2") == "? play: you can only play in a straight line");
    CHECK(h.say("play a d1 d1") == "? play: you have to change location");
    CHECK(h.say("play a d1 f1") == "? play: you have to play through empty locations");
    CHECK(h.say("play a a4 a8") == "? play: you have to play through empty locations");
    CHECK(h.say("play a d1 a1") == "? play: only the king may move to a restricted square");
    // `resigns` is the word (the site's usage line says `resign`, which it refuses).
    CHECK(h.say("play a resign") == "? expected: 'play ROLE FROM TO' or 'play ROLE resigns'");
    CHECK(h.say("play_from").rfind("= attacker ", 0) == 0); // nothing was played
}

TEST_CASE("htp: resignation, final_status and play_undo", "[htp]") {
    Htp h;
    CHECK(h.say("play_undo") == "? play undo: it is the first move");
    CHECK(h.say("play d resigns") == "? play: you can't resign for the other player");
    CHECK(h.say("play a d1 d3") == "= ");
    CHECK(h.say("play_undo") == "= ");
    CHECK(h.say("play_undo") == "? play undo: it is the first move");
    CHECK(h.say("play_from").rfind("= attacker ", 0) == 0);
    CHECK(h.say("play a d1 d3") == "= ");
    CHECK(h.say("play_from").rfind("= defender ", 0) == 0);
    CHECK(h.say("play DEFENDER resigns") == "= ");
    CHECK(h.say("final_status") == "= attacker_wins");
    CHECK(h.say("play a e1 e2") == "? play: the game is already over");
    CHECK(h.say("play a resigns") == "? play: the game is already over");
    CHECK(h.say("generate_move") == "? play: the game is already over");
    CHECK(h.say("play_undo") == "= "); // the resignation goes first
    CHECK(h.say("final_status") == "= ongoing");
    CHECK(h.say("play d resigns") == "= ");
    CHECK(h.say("final_status") == "= attacker_wins");
    CHECK(h.say("play_undo") == "= ");
    CHECK(h.say("play_undo") == "= ");
    CHECK(h.say("play_from").rfind("= attacker ", 0) == 0);
    CHECK(h.say("play a resigns") == "= ");
    CHECK(h.say("final_status") == "= defender_wins");
}

TEST_CASE("htp: play_from and play_to list the moves of the side to move", "[htp]") {
    Htp h;
    CHECK(h.say("play_from") == "= attacker d1 e1 g1 h1 f2 a4 k4 a5 k5 b6 j6 a7 k7 a8 k8 f10 "
                                "d11 e11 g11 h11");
    CHECK(h.say("play_to a d1") == "= b1 c1 d2 d3 d4 d5");
    CHECK(h.say("play_to attacker f2") == "= a2 b2 c2 d2 e2 g2 h2 i2 j2 k2 f3");
    CHECK(h.say("play_to d f4") == "? tried play_to defender, but it's attacker turn");
    CHECK(h.say("play_to a f6") == "? play: invalid vertex");
    CHECK(h.say("play_to a f1") == "? play: invalid vertex");
    CHECK(h.say("play_to a z9") == "? play: invalid vertex");
    CHECK(h.say("play_to a") == "? play to: expected 'play_to role vertex'");
    CHECK(h.say("play a d1 d3") == "= ");
    CHECK(h.say("play_to d f4").rfind("= ", 0) == 0);
}

TEST_CASE("htp: generate_move searches, plays and reports", "[htp]") {
    Htp h;
    const std::string reply = h.say("generate_move");
    INFO(reply);
    std::smatch m;
    REQUIRE(std::regex_match(reply, m,
                             std::regex("= play attacker ([a-k][0-9]+) ([a-k][0-9]+), score: "
                                        "-?[0-9]+, delay milliseconds: [0-9]+, loops: [0-9]+")));
    // The move was made: the defenders are to move, and it can be undone.
    CHECK(h.say("play_from").rfind("= defender ", 0) == 0);
    CHECK(h.say("play_undo") == "= ");
    CHECK(h.say("play_to a " + m[1].str()).find(m[2].str()) != std::string::npos);

    CHECK(h.say("board_size 7") == "= ");
    auto play = h.session.generate_move();
    REQUIRE(play.ok());
    CHECK(std::regex_match(*play, std::regex("play (attacker|defender) 0[a-g][1-7] 0[a-g][1-7]")));
}

TEST_CASE("htp: a level and the win chances reach generate_move", "[htp]") {
    Htp h;
    REQUIRE(h.engine.set_option("Skill Level", "0"));
    REQUIRE(h.engine.set_option("UCI_ShowWDL", "true"));
    const std::string reply = h.say("generate_move");
    INFO(reply);
    std::smatch m;
    REQUIRE(std::regex_match(reply, m,
                             std::regex("= play attacker [a-k][0-9]+ [a-k][0-9]+, score: -?[0-9]+, "
                                        "delay milliseconds: [0-9]+, loops: ([0-9]+), wdl: "
                                        "([0-9]+) ([0-9]+) ([0-9]+)")));
    CHECK(std::stoi(m[1].str()) < 2000);
    CHECK(std::stoi(m[2].str()) + std::stoi(m[3].str()) + std::stoi(m[4].str()) == 1000);
}

TEST_CASE("htp: a fischer clock plans each move from what is left", "[htp]") {
    Htp h;
    CHECK(h.say("time_settings fischer 1 0") == "= ");
    const auto t0 = std::chrono::steady_clock::now();
    const std::string reply = h.say("generate_move");
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    CHECK(reply.rfind("= play attacker ", 0) == 0);
    CHECK(ms < 30000); // a share of the minute, not all of it
    CHECK(h.say("final_status") == "= ongoing");
}

TEST_CASE("htp: the defenders may not recreate an earlier board, the start included", "[htp]") {
    Htp h;
    CHECK(h.say("play a a4 a3") == "= ");
    CHECK(h.say("play d f4 e4") == "= ");
    CHECK(h.say("play a a3 a4") == "= ");
    // Back to the start board: banned (the library's list starts with it).
    CHECK(h.say("play d e4 f4") == "? play: you already reached that position");
    CHECK(h.say("play_to d e4").find("f4") == std::string::npos);
    CHECK(h.say("play d e4 e3") == "= ");
    CHECK(h.say("play a a4 a3") == "= ");
    // The board after the defenders' first move.
    CHECK(h.say("play d e3 e4") == "? play: you already reached that position");
    CHECK(h.say("final_status") == "= ongoing");

    // 7x7: defenders first, and the start board is banned there too.
    CHECK(h.say("board_size 7") == "= ");
    CHECK(h.say("play d 0c4 0c5") == "= ");
    CHECK(h.say("play a 0a4 0a5") == "= ");
    CHECK(h.say("play d 0c5 0c6") == "= ");
    CHECK(h.say("play a 0a5 0a4") == "= ");
    CHECK(h.say("play d 0c6 0c4") == "? play: you already reached that position");
}

TEST_CASE("htp: the 134th ply draws (the library's count)", "[htp]") {
    Htp h;
    // Quiet moves that keep the game going: no capture, no end, when there is one.
    auto quiet_move = [&]() {
        Position pos = h.session.position();
        MoveList list;
        generate_moves(pos, list);
        REQUIRE_FALSE(list.empty());
        Move fallback = MOVE_NONE;
        for (Move m : list) {
            pos.make_move(m);
            const bool over = pos.result().over(), captured = pos.last_captured() != 0;
            pos.unmake_move();
            if (over) continue;
            if (!captured) return m;
            if (!fallback) fallback = m;
        }
        REQUIRE(fallback);
        return fallback;
    };
    auto say_move = [&](Move m) {
        const Position& pos = h.session.position();
        const std::string role = pos.side_to_move() == ATTACKERS ? "a" : "d";
        return h.say("play " + role + " " + org_square_name(11, m.from()) + " " +
                     org_square_name(11, m.to()));
    };
    for (int ply = 1; ply <= 133; ++ply) {
        INFO("ply " << ply);
        REQUIRE(say_move(quiet_move()).rfind("= ", 0) == 0);
        REQUIRE(h.say("final_status") == "= ongoing");
    }
    // Any quiet 134th move draws.
    Position pos = h.session.position();
    MoveList list;
    generate_moves(pos, list);
    Move quiet = MOVE_NONE;
    for (Move m : list) {
        pos.make_move(m);
        const bool plain = pos.last_captured() == 0 && pos.result().winner != Winner::ATTACKERS &&
                           pos.result().winner != Winner::DEFENDERS;
        pos.unmake_move();
        if (plain) {
            quiet = m;
            break;
        }
    }
    REQUIRE(quiet);
    CHECK(say_move(quiet) == "= ");
    CHECK(h.say("final_status") == "= draw");
    CHECK(h.say("generate_move") == "? play: the game is already over");
    CHECK(h.say("play_undo") == "= ");
    CHECK(h.say("final_status") == "= ongoing");
}

TEST_CASE("htp: a fischer clock that runs out loses the game, the move not made", "[htp]") {
    Htp h;
    CHECK(h.say("time_settings fischer 0 5") == "= ");
    CHECK(h.say("play a d1 d3") == "= "); // as the site: a late move is answered, not made
    CHECK(h.say("final_status") == "= defender_wins");
    CHECK(h.say("show_board_open_tafl") ==
          "= /3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/");
    CHECK(h.say("play_undo") == "= ");
    CHECK(h.say("final_status") == "= ongoing");
    CHECK(h.say("time_settings fischer 0 0") == "= ");
    CHECK(h.say("generate_move") == "? generate_move: the clock ran out before the move");
    CHECK(h.say("final_status") == "= defender_wins");
}

TEST_CASE("htp: the command line's HTP options", "[htp]") {
    CHECK(testutil::Host({"--referee", "127.0.0.1"}).wait_exit() == 2);
    CHECK(testutil::Host({"--protocol", "htp", "--referee", "127.0.0.1:x"}).wait_exit() == 2);
    CHECK(testutil::Host({"--protocol", "htp", "--referee", ":5000"}).wait_exit() == 2);
    CHECK(testutil::Host({"--protocol", "htp", "--htp-depth", "0"}).wait_exit() == 2);
    {
        // Nobody listens on a port just closed.
        auto listener = listen_loopback(0);
        REQUIRE(listener.ok());
        const int port = local_port(*listener);
        close(*listener);
        testutil::Host host(
            {"--protocol", "htp", "--referee", "127.0.0.1:" + std::to_string(port)});
        CHECK(host.wait_exit(15000) == 1);
    }
    testutil::Host host({"--protocol", "htp", "--htp-depth", "1"});
    host.send("board_size 7");
    host.send("generate_move");
    host.send("final_status");
    CHECK(host.read_line() == "= ");
    CHECK(std::regex_match(host.read_line(),
                           std::regex("= play defender 0[a-g][1-7] 0[a-g][1-7], score: .*")));
    CHECK(host.read_line() == "= ongoing");
    host.send("quit");
    CHECK(host.wait_exit() == 0);
}

// ------------------------------------------------------------------ referee

namespace {

// A line from a socket within a deadline: "" on timeout or close.
struct SocketReader {
    int fd;
    std::string buffer;
    std::string line(int timeout_ms = 60000) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (true) {
            const size_t nl = buffer.find('\n');
            if (nl != std::string::npos) {
                std::string l = buffer.substr(0, nl);
                buffer.erase(0, nl + 1);
                return l;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - std::chrono::steady_clock::now())
                                  .count();
            if (left <= 0) return "";
            pollfd p{fd, POLLIN, 0};
            if (poll(&p, 1, int(left)) <= 0) continue;
            char chunk[4096];
            const ssize_t n = recv(fd, chunk, sizeof chunk, 0);
            if (n <= 0) return "";
            buffer.append(chunk, size_t(n));
        }
    }
};

void send_line(int fd, const std::string& line) {
    std::string error;
    REQUIRE(write_all(fd, line + "\n", 5000, error));
}

} // namespace

TEST_CASE("htp: the local referee pairs two branan processes for a whole game", "[htp]") {
    auto listener = listen_loopback(0);
    REQUIRE(listener.ok());
    const std::string where = "127.0.0.1:" + std::to_string(local_port(*listener));
    // The first connection waits and defends; the second attacks (4.6).
    testutil::Host first({"--protocol", "htp", "--referee", where, "--htp-depth", "1"});
    std::string error;
    const int defender = accept_within(*listener, 10000, error);
    REQUIRE(defender >= 0);
    testutil::Host second({"--protocol", "htp", "--referee", where, "--htp-depth", "1"});
    const int attacker = accept_within(*listener, 10000, error);
    REQUIRE(attacker >= 0);

    // The referee's own game: it runs each answer as an HTP command.
    Engine engine;
    HtpSession referee(engine, fast());
    SocketReader readers[2] = {{attacker, {}}, {defender, {}}};
    const int fds[2] = {attacker, defender};
    int plies = 0;
    for (; referee.final_status() == "ongoing" && plies < 600; ++plies) {
        const int mover = plies % 2;
        const std::string role = mover == 0 ? "attacker" : "defender";
        send_line(fds[mover], "generate_move " + role);
        const std::string answer = readers[mover].line();
        INFO("ply " << plies + 1 << ": '" << answer << "'");
        REQUIRE(answer.rfind("play " + role + " ", 0) == 0);
        auto reply = referee.handle(answer);
        REQUIRE(reply);
        INFO(reply->text);
        REQUIRE(reply->ok);
        send_line(fds[1 - mover], answer);
    }
    INFO("plies " << plies);
    CHECK(referee.final_status() != "ongoing");
    shutdown(attacker, SHUT_RDWR);
    shutdown(defender, SHUT_RDWR);
    close(attacker);
    close(defender);
    close(*listener);
    // Each engine kept the game: its last line is the referee's result.
    for (testutil::Host* host : {&first, &second}) {
        std::string last, line;
        while ((line = host->read_line(20000)) != "<eof>" && line != "<timeout>") last = line;
        CHECK(last == "final_status " + referee.final_status());
        CHECK(host->wait_exit(10000) == 0);
    }
}

TEST_CASE("htp: a referee's line of megabytes is skipped and the game goes on", "[htp]") {
    auto listener = listen_loopback(0);
    REQUIRE(listener.ok());
    testutil::Host engine({"--protocol", "htp", "--htp-depth", "1", "--referee",
                           "127.0.0.1:" + std::to_string(local_port(*listener))});
    std::string error;
    const int fd = accept_within(*listener, 10000, error);
    REQUIRE(fd >= 0);
    send_line(fd, std::string(3 << 20, 'z'));
    send_line(fd, "generate_move attacker");
    SocketReader reader{fd, {}};
    CHECK(reader.line().rfind("play attacker ", 0) == 0);
    shutdown(fd, SHUT_RDWR);
    close(fd);
    close(*listener);
    CHECK(engine.wait_exit(10000) == 0);
}

// ------------------------------------------------------------------ match

namespace {

match::EngineConfig branan_engine(const std::string& name, const std::string& proto) {
    match::EngineConfig e;
    e.name = name;
    e.cmd = BRANAN_BINARY;
    e.proto = proto;
    // Not a whole number of minutes: sent as un-timed, so the HTP side
    // thinks to its --htp-depth.
    if (proto == "htp") e.args = {"--htp-depth", "2"};
    std::string error;
    e.tc = *match::parse_time_control("30+0.5", error);
    if (proto == "uci") e.tc.depth = 2;
    return e;
}

// The referee judges by the HTP game's own rules (the library's counts).
void play_htp_match(match::EngineConfig a, match::EngineConfig b, int size) {
    match::MatchConfig c;
    c.engines = {std::move(a), std::move(b)};
    auto rules = htp_rules(size, size == 7 ? DEFENDERS : ATTACKERS);
    REQUIRE(rules.ok());
    c.rules = *rules;
    c.games = 2;
    c.max_plies = 300;
    c.time_margin_ms = 500;
    std::ostringstream out;
    match::MatchResult r = match::run_match(c, out, false);
    INFO(out.str());
    REQUIRE(r.ok);
    CHECK(r.games_played == 2);
    for (const match::GameSummary& g : r.games) {
        INFO(g.detail);
        for (const char* bad : {"illegal-move", "malformed", "crash", "no-answer", "time-forfeit"})
            CHECK(g.reason != bad);
    }
}

} // namespace

TEST_CASE("htp: branan-match drives HTP engines, against each other and against UCI",
          "[htp][match]") {
    play_htp_match(branan_engine("htp-a", "htp"), branan_engine("htp-b", "htp"), 11);
    play_htp_match(branan_engine("htp", "htp"), branan_engine("uci", "uci"), 11);
    play_htp_match(branan_engine("htp7", "htp"), branan_engine("uci7", "uci"), 7);
}
