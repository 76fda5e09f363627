// The Bologna Tablut Challenge client: the codec (framing, JSON, the
// server's move check), whole games through the fake server
// (tools/bologna/), every fault the fake server can inject, and the real
// binary's command line. Loopback only, ephemeral ports; every blocking
// read has a deadline, so a bug fails a test instead of hanging it.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "bologna/bologna_server.h"
#include "bologna/judge.h"
#include "bologna_client.h"
#include "bologna_codec.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::bologna;
using branan::testutil::contains;
using branan::testutil::read_file;

namespace {

EditionPtr ashton() {
    static EditionPtr built = [] {
        auto rules = preset_rules("ashton");
        REQUIRE(rules.ok());
        auto edition = Edition::make(*rules);
        REQUIRE(edition.ok());
        return *edition;
    }();
    return built;
}

Position ashton_after(std::initializer_list<const char*> moves) {
    Position pos(ashton());
    for (const char* text : moves) {
        auto m = parse_move(pos.edition(), text);
        REQUIRE(m.ok());
        INFO(text);
        REQUIRE(server_check(pos, *m).ok());
        pos.make_move(*m);
    }
    return pos;
}

Square sq(const char* name) {
    auto s = parse_square(*ashton(), name);
    REQUIRE(s.ok());
    return *s;
}

// ------------------------------------------------------------------ games

struct ClientRun {
    int status = -1;
    std::string out, err;
};

// Runs the client in-process on its own thread; `r` holds its exit status
// and output once the thread is joined.
std::thread client_thread(BolognaClientOptions o, ClientRun& r) {
    return std::thread([o, &r] {
        std::ostringstream out, err;
        r.status = run_bologna_client(o, out, err);
        r.out = out.str();
        r.err = err.str();
    });
}

BolognaClientOptions client_options(Side side, int port) {
    BolognaClientOptions o;
    o.side = side;
    o.port = port;
    o.name = side == DEFENDERS ? "White_1" : "Black_1";
    o.time_s = 5;
    o.depth = 2;
    o.hash_mb = 1;
    o.read_timeout_ms = 15000;
    o.connect_timeout_ms = 5000;
    return o;
}

struct GameRun {
    GameReport report;
    ClientRun white, black;
};

// Both clients ended with status 0 and the server judged every move legal.
void check_clean_game(const GameRun& run) {
    CHECK(run.white.status == 0);
    CHECK(run.black.status == 0);
    CHECK(run.report.illegal[0] + run.report.illegal[1] == 0);
}

// A game on the fake server between two in-process clients.
GameRun play_on_server(ServerOptions so, BolognaClientOptions white_opts = {},
                       BolognaClientOptions black_opts = {}, bool custom = false) {
    so.time_s = so.time_s ? so.time_s : 5;
    so.accept_timeout_ms = 10000;
    Server server;
    std::ostringstream log;
    REQUIRE(server.open(so, &log).ok());
    if (!custom) {
        white_opts = client_options(DEFENDERS, 0);
        black_opts = client_options(ATTACKERS, 0);
    }
    white_opts.port = server.white_port();
    black_opts.port = server.black_port();
    GameRun run;
    std::thread w = client_thread(white_opts, run.white);
    std::thread b = client_thread(black_opts, run.black);
    run.report = server.run();
    w.join();
    b.join();
    UNSCOPED_INFO("server log:\n" << log.str());
    UNSCOPED_INFO("white: " << run.white.status << " " << run.white.out << run.white.err);
    UNSCOPED_INFO("black: " << run.black.status << " " << run.black.out << run.black.err);
    return run;
}

// The real binary with stdout and stderr in files, killed after a deadline.
struct BinaryRun {
    int status = -1;
    std::string out, err;
};

// No Catch2 assertions inside: it also runs on other threads. Status -2 =
// killed after the deadline, -3 = could not start.
BinaryRun run_binary(std::vector<std::string> args, int timeout_ms = 20000) {
    BinaryRun r;
    char dir_template[] = "/tmp/branan_bologna_XXXXXX";
    if (!mkdtemp(dir_template)) return r.status = -3, r;
    const std::string dir = dir_template, out_path = dir + "/out", err_path = dir + "/err";
    const pid_t pid = fork();
    if (pid < 0) return r.status = -3, r;
    if (pid == 0) {
        const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int in = open("/dev/null", O_RDONLY);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        std::vector<char*> argv;
        static std::string binary = BRANAN_BINARY;
        argv.push_back(binary.data());
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(BRANAN_BINARY, argv.data());
        _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    int status = 0;
    bool killed = false;
    while (waitpid(pid, &status, WNOHANG) != pid) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            killed = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    r.status = killed ? -2 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(out_path);
    r.err = read_file(err_path);
    std::remove(out_path.c_str());
    std::remove(err_path.c_str());
    rmdir(dir.c_str());
    return r;
}

// A port nobody listens on (bound, then released).
int free_port() {
    auto fd = listen_loopback(0);
    REQUIRE(fd.ok());
    const int port = local_port(*fd);
    close(*fd);
    return port;
}

} // namespace

// ------------------------------------------------------------------ codec

TEST_CASE("bologna: state JSON maps board[0] to row 1 and columns a..i", "[bologna]") {
    // White d5-d8 leaves an asymmetric board: a white soldier on d8.
    const Position pos = ashton_after({"d5-d8"});
    const std::string json = state_json(pos.edition(), board_of(pos), Turn::BLACK);
    const nlohmann::json j = nlohmann::json::parse(json);
    CHECK(j["turn"] == "BLACK");
    CHECK(j["board"].size() == 9);
    CHECK(j["board"][7][3] == "WHITE"); // d8
    CHECK(j["board"][4][3] == "EMPTY"); // d5
    CHECK(j["board"][0][3] == "BLACK"); // d1
    CHECK(j["board"][0][4] == "BLACK"); // e1
    CHECK(j["board"][4][4] == "KING");  // e5: the king on the throne
    CHECK(j["board"][2][4] == "WHITE"); // e3
    // The server's own compact form, fields in its order.
    CHECK(json.rfind("{\"board\":[[\"EMPTY\",\"EMPTY\",\"EMPTY\",\"BLACK\",\"BLACK\",\"BLACK\"",
                     0) == 0);
    CHECK(contains(json, "],\"turn\":\"BLACK\"}"));

    auto st = parse_state(pos.edition(), json);
    REQUIRE(st.ok());
    CHECK(st->turn == Turn::BLACK);
    CHECK(st->board == board_of(pos));
    CHECK(st->board[sq("d8")] == DEFENDER);
    CHECK(st->board[sq("d1")] == ATTACKER);
    CHECK(st->board[sq("e5")] == KING);
    // The same squares by name in a hand-written state: row 1 is first.
    nlohmann::json hand = j;
    hand["board"][0][0] = "BLACK"; // a1
    hand["board"][8][8] = "WHITE"; // i9
    auto st2 = parse_state(pos.edition(), hand.dump());
    REQUIRE(st2.ok());
    CHECK(st2->board[sq("a1")] == ATTACKER);
    CHECK(st2->board[sq("i9")] == DEFENDER);
}

TEST_CASE("bologna: THRONE once the king has left e5, KING while he stands there", "[bologna]") {
    // e6 steps aside, then the king leaves the throne.
    Position pos = ashton_after({"e6-h6", "e8-f8", "e5-e6"});
    const std::string json = state_json(pos.edition(), board_of(pos), Turn::BLACK);
    const nlohmann::json j = nlohmann::json::parse(json);
    CHECK(j["board"][4][4] == "THRONE");
    CHECK(j["board"][5][4] == "KING");
    auto st = parse_state(pos.edition(), json);
    REQUIRE(st.ok());
    CHECK(st->board[sq("e5")] == NO_PIECE);
    CHECK(st->board == board_of(pos));
    // THRONE anywhere else is not a state the server sends.
    nlohmann::json bad = j;
    bad["board"][0][0] = "THRONE";
    auto wrong = parse_state(pos.edition(), bad.dump());
    REQUIRE_FALSE(wrong.ok());
    CHECK(contains(wrong.error(), "THRONE on a1"));
}

TEST_CASE("bologna: move JSON both ways", "[bologna]") {
    const Edition& edition = *ashton();
    CHECK(move_json(edition, Move(sq("d1"), sq("c1")), DEFENDERS) ==
          "{\"from\":\"d1\",\"to\":\"c1\",\"turn\":\"WHITE\"}");
    CHECK(move_json(edition, Move(sq("e3"), sq("c3")), ATTACKERS) ==
          "{\"from\":\"e3\",\"to\":\"c3\",\"turn\":\"BLACK\"}");
    auto m =
        parse_move_json(edition, "{\"from\":\"D5\",\"to\":\"d8\",\"turn\":\"anything\",\"x\":1}");
    REQUIRE(m.ok());
    CHECK(*m == Move(sq("d5"), sq("d8")));
    auto no_turn = parse_move_json(edition, "{\"to\":\"c3\",\"from\":\"e3\"}");
    REQUIRE(no_turn.ok());
    CHECK(*no_turn == Move(sq("e3"), sq("c3")));
    struct Bad {
        const char* json;
        const char* says;
    } bad[] = {{"{\"from\":\"e3\"}", "\"to\""},
               {"{\"from\":\"e3x\",\"to\":\"c3\"}", "two characters"},
               {"{\"from\":\"e0\",\"to\":\"c3\"}", "from"},
               {"{\"from\":\"e3\",\"to\":3}", "\"to\""},
               {"\"e3-c3\"", "not a JSON object"},
               {"{\"from\":", "bad JSON"}};
    for (const Bad& b : bad) {
        INFO(b.json);
        auto r = parse_move_json(edition, b.json);
        REQUIRE_FALSE(r.ok());
        CHECK(contains(r.error(), b.says));
    }
    CHECK(is_json_object("{\"from\":\"e3\"}"));
    CHECK_FALSE(is_json_object("e3-c3"));
    CHECK_FALSE(is_json_object("\"e3\""));
    CHECK(name_json("Branan") == "\"Branan\"");
    CHECK(name_json("a \"b\"") == "\"a \\\"b\\\"\"");
    CHECK(*parse_name("\"A very long name, with spaces!\"") == "Averylon");
    CHECK(*parse_name("Player1") == "Player1");
    CHECK_FALSE(parse_name("bob the 2nd!").ok());
}

TEST_CASE("bologna: bad states are refused with a message naming the fault", "[bologna]") {
    const Edition& edition = *ashton();
    const Position pos(ashton());
    const nlohmann::json good =
        nlohmann::json::parse(state_json(edition, board_of(pos), Turn::WHITE));
    auto refused = [&](const std::string& text, const std::string& says) {
        INFO(text.substr(0, 80));
        auto r = parse_state(edition, text);
        REQUIRE_FALSE(r.ok());
        CHECK(contains(r.error(), says));
    };
    refused("{\"board\":[[\"EMPTY\"", "bad JSON");
    refused("[1,2,3]", "not a JSON object");
    refused("{\"turn\":\"WHITE\"}", "\"board\"");
    nlohmann::json j = good;
    j.erase("turn");
    refused(j.dump(), "\"turn\"");
    j = good;
    j["turn"] = "GREEN";
    refused(j.dump(), "unknown turn \"GREEN\"");
    j = good;
    j["board"].erase(8);
    refused(j.dump(), "8 rows");
    j = good;
    j["board"][3].erase(0);
    refused(j.dump(), "row 4");
    j = good;
    j["board"][1][2] = "EMTPY";
    refused(j.dump(), "unknown cell 'EMTPY' on c2");
    j = good;
    j["board"][1][2] = 7;
    refused(j.dump(), "unknown cell '7' on c2");
    CHECK(parse_state(edition, good.dump()).ok());
}

TEST_CASE("bologna: frames are read whole across partial reads, bad ones are refused",
          "[bologna]") {
    auto pair = [] {
        int fds[2];
        REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
        return std::pair<int, int>(fds[0], fds[1]);
    };
    SECTION("a frame written a byte at a time") {
        auto [a, b] = pair();
        const std::string payload = "{\"board\":[],\"turn\":\"WHITE\"}";
        std::thread writer([fd = b, frame = encode_frame(payload)] {
            for (char c : frame) {
                REQUIRE(send(fd, &c, 1, MSG_NOSIGNAL) == 1);
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
        FrameRead r = read_frame(a, 5000);
        writer.join();
        CHECK(r.status == FrameStatus::OK);
        CHECK(r.payload == payload);
        close(a);
        close(b);
    }
    SECTION("the length is big-endian") {
        const std::string f = encode_frame(std::string(300, 'x'));
        CHECK(f.substr(0, 4) == std::string("\0\0\x01\x2c", 4));
    }
    SECTION("closed between frames, inside the length, inside the payload") {
        for (int cut : {0, 2, 7}) {
            auto [a, b] = pair();
            const std::string frame = encode_frame("{\"turn\":\"WHITE\"}");
            std::string error;
            REQUIRE(write_all(b, frame.substr(0, size_t(cut)), 1000, error));
            close(b);
            FrameRead r = read_frame(a, 5000);
            INFO(cut << ": " << r.payload);
            if (cut == 0) {
                CHECK(r.status == FrameStatus::CLOSED);
            } else {
                CHECK(r.status == FrameStatus::TRUNCATED);
                CHECK(contains(r.payload, "truncated frame"));
            }
            close(a);
        }
    }
    SECTION("negative and absurd lengths") {
        for (std::string head :
             {std::string("\xff\xff\xff\xfe", 4), std::string("\x7f\0\0\0", 4)}) {
            auto [a, b] = pair();
            std::string error;
            REQUIRE(write_all(b, head, 1000, error));
            FrameRead r = read_frame(a, 5000);
            CHECK(r.status == FrameStatus::BAD_LENGTH);
            CHECK(contains(r.payload, "bad frame length"));
            close(a);
            close(b);
        }
    }
    SECTION("a deadline") {
        auto [a, b] = pair();
        FrameRead r = read_frame(a, 100);
        CHECK(r.status == FrameStatus::TIMEOUT);
        close(a);
        close(b);
    }
}

TEST_CASE("bologna: the server's camp rules, and the rules core agrees", "[bologna]") {
    // Black a4-b4 leaves its camp; white waits; black a5-a1 runs through
    // the vacated a4: a camp piece may cross its own camp.
    Position pos = ashton_after({"d5-d8", "a4-b4", "d8-d7"});
    const Move through_camp(sq("a5"), sq("a1"));
    CHECK(server_check(pos, through_camp).ok());
    MoveList branan;
    generate_moves(pos, branan);
    CHECK(branan.contains(through_camp));
    // find_move recovers it from the board alone.
    Position next = pos;
    next.make_move(through_camp);
    auto found = find_move(pos, board_of(next));
    REQUIRE(found.ok());
    CHECK(*found == through_camp);

    // Back into a camp from outside: never.
    const Move reenter(sq("b4"), sq("a4"));
    CHECK_FALSE(branan.contains(reenter));
    Status st = server_check(pos, reenter);
    REQUIRE_FALSE(st.ok());
    CHECK(contains(st.error(), "CitadelException"));
    CHECK(
        contains(server_check(Position(ashton()), Move(sq("e4"), sq("e2"))).error(), "Occupited"));
    // Nobody lands on or crosses the empty throne.
    Position away = ashton_after({"e6-h6", "e8-f8", "e5-e6", "a4-b4"});
    CHECK(contains(server_check(away, Move(sq("e6"), sq("e5"))).error(), "ThroneException"));
    CHECK(contains(server_check(away, Move(sq("e4"), sq("e3"))).error(), "Occupited"));
    // The server's checks and move generation give the same moves along a
    // game of cheap choices (a capture when there is one, else a move picked
    // by the ply number).
    Position game(ashton());
    for (int ply = 0; ply < 120 && !game.decided().over(); ++ply) {
        MoveList generated;
        generate_moves(game, generated);
        std::vector<Move> mine(generated.begin(), generated.end());
        std::vector<Move> server = server_moves(game);
        std::sort(mine.begin(), mine.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
        std::sort(server.begin(), server.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
        INFO("ply " << ply << ": " << to_tfen(game));
        REQUIRE(mine == server);
        if (server.empty()) break;
        Move pick = server[(size_t(ply) * 7919) % server.size()];
        for (Move m : server) {
            game.make_move(m);
            const bool captured = game.last_captured() != 0;
            game.unmake_move();
            if (captured) pick = m;
        }
        game.make_move(pick);
    }
    // A board no single move gives.
    Placement impossible = board_of(pos);
    impossible[sq("c3")] = DEFENDER;
    auto none = find_move(pos, impossible);
    REQUIRE_FALSE(none.ok());
    CHECK(contains(none.error(), "no legal move"));
}

TEST_CASE("bologna: --cache N is the rules key repw:N+1 on the ashton preset", "[bologna]") {
    for (int cache : {-1, 0, 2}) {
        auto rules = bologna_rules(cache);
        REQUIRE(rules.ok());
        CHECK(rules->repetition_span == (cache >= 0 ? cache + 1 : 0));
        Rules preset = *preset_rules("ashton");
        preset.repetition_span = rules->repetition_span;
        CHECK(*rules == preset);
        // What the client gives the engine: the printed rules, which say
        // the span (repw is printed where it is not 0) and read back.
        const std::string printed = print_rules(*rules);
        const std::string key = " repw:" + std::to_string(cache + 1) + " ";
        CHECK((printed.find(key) != std::string::npos) == (cache >= 0));
        auto again = parse_rules(printed);
        REQUIRE(again.ok());
        CHECK(*again == *rules);
    }
}

// ------------------------------------------------------------------ games

TEST_CASE("bologna: Branan plays Branan through the fake server", "[bologna]") {
    ServerOptions so;
    GameRun run = play_on_server(so);
    const std::string result = run.report.result;
    INFO(run.report.reason);
    REQUIRE((result == "WHITEWIN" || result == "BLACKWIN" || result == "DRAW"));
    CHECK(run.white.status == 0);
    CHECK(run.black.status == 0);
    CHECK(run.report.illegal[0] == 0);
    CHECK(run.report.illegal[1] == 0);
    CHECK(run.report.plies() > 0);
    CHECK(run.report.white_name == "White1");
    CHECK(run.report.black_name == "Black1");
    const char* white_says = result == "DRAW" ? "draw" : result == "WHITEWIN" ? "won" : "lost";
    const char* black_says = result == "DRAW" ? "draw" : result == "BLACKWIN" ? "won" : "lost";
    CHECK(run.white.out == "result " + result + " (we played white: " + white_says + ")\n");
    CHECK(run.black.out == "result " + result + " (we played black: " + black_says + ")\n");
    CHECK(run.white.err.empty());
    CHECK(run.black.err.empty());
}

TEST_CASE("bologna: a node-limited game with a short repetition window", "[bologna]") {
    ServerOptions so;
    so.cache = 2;
    BolognaClientOptions w = client_options(DEFENDERS, 0), b = client_options(ATTACKERS, 0);
    w.depth = b.depth = 0;
    w.nodes = b.nodes = 3000;
    w.cache = b.cache = 2; // the rules say repw:3, as the server's -c 2
    GameRun run = play_on_server(so, w, b, true);
    const std::string result = run.report.result;
    INFO(run.report.reason);
    REQUIRE((result == "WHITEWIN" || result == "BLACKWIN" || result == "DRAW"));
    check_clean_game(run);
}

namespace {

// A black player that answers every state where it is to move with an
// illegal move (e5-e5), counting the states it receives and those that do
// not parse. No Catch2 assertions on its thread: the test checks the counts
// after joining it.
std::thread illegal_black_player(EditionPtr edition, int port, int& states, int& bad_states) {
    return std::thread([edition, port, &states, &bad_states] {
        auto fd = connect_to("127.0.0.1", port, 5000);
        if (!fd) return;
        std::string error;
        write_all(*fd, encode_frame("\"Bad\""), 1000, error);
        while (true) {
            FrameRead f = read_frame(*fd, 10000);
            if (f.status != FrameStatus::OK) break;
            ++states;
            auto st = parse_state(*edition, f.payload);
            if (!st)
                ++bad_states;
            else if (st->turn == Turn::BLACK)
                write_all(*fd, encode_frame("{\"from\":\"e5\",\"to\":\"e5\"}"), 1000, error);
        }
        close(*fd);
    });
}

} // namespace

TEST_CASE("bologna: a refused move is asked again and not repeated, too many lose", "[bologna]") {
    // A black player that answers every turn with an illegal move, under -e 1:
    // the server repeats the state once, then gives the game to white.
    ServerOptions so;
    so.errors = 1;
    so.time_s = 5;
    so.accept_timeout_ms = 10000;
    Server server;
    std::ostringstream log;
    REQUIRE(server.open(so, &log).ok());
    ClientRun white;
    std::thread w = client_thread(client_options(DEFENDERS, server.white_port()), white);
    int states = 0, bad_states = 0;
    std::thread b = illegal_black_player(ashton(), server.black_port(), states, bad_states);
    GameReport report = server.run();
    w.join();
    b.join();
    INFO(log.str() << white.err);
    CHECK(report.result == "WHITEWIN");
    CHECK(report.illegal[ATTACKERS] == 2);
    CHECK(report.illegal[DEFENDERS] == 0);
    CHECK(report.plies() == 1);
    CHECK(bad_states == 0);
    CHECK(states == 4); // start, after white's move, the repeat, the final state
    CHECK(white.status == 0);
    CHECK(white.out == "result WHITEWIN (we played white: won)\n");
}

TEST_CASE("bologna: a move frame that is not a JSON object kills the server", "[bologna]") {
    // As Gson's exception does on the real server: both connections close
    // with no result.
    ServerOptions so;
    so.time_s = 5;
    so.accept_timeout_ms = 10000;
    Server server;
    std::ostringstream log;
    REQUIRE(server.open(so, &log).ok());
    ClientRun white;
    std::thread w = client_thread(client_options(DEFENDERS, server.white_port()), white);
    std::thread b([&] {
        auto fd = connect_to("127.0.0.1", server.black_port(), 5000);
        if (!fd) return;
        std::string error;
        write_all(*fd, encode_frame("\"Text\""), 1000, error);
        while (true) {
            FrameRead f = read_frame(*fd, 10000);
            if (f.status != FrameStatus::OK) break;
            if (f.payload.find("\"turn\":\"BLACK\"") != std::string::npos)
                write_all(*fd, encode_frame("e3-c3"), 1000, error);
        }
        close(*fd);
    });
    GameReport report = server.run();
    w.join();
    b.join();
    INFO(log.str());
    CHECK(report.result.empty());
    CHECK(contains(report.reason, "not a JSON object"));
    CHECK(report.plies() == 1);
    // Black was to move: white takes the close as black's loss, and says so.
    CHECK(white.status == 0);
    CHECK(white.out == "result WHITEWIN (we played white: won: the server closed without a final "
                       "state with black to move; presumed, as black's illegal move or time-out "
                       "loses)\n");
    CHECK(white.err.empty());
}

TEST_CASE("bologna: every server fault ends the client with status 1 and a clear message",
          "[bologna]") {
    using Kind = ServerFaults::Kind;
    struct Case {
        Kind kind;
        int at;
        const char* says;
    } cases[] = {
        {Kind::TRUNCATE, 2, "truncated frame"},
        {Kind::BAD_JSON, 2, "bad JSON"},
        {Kind::WRONG_SHAPE, 1, "not a JSON object"},
        {Kind::BAD_CELL, 3, "unknown cell 'EMTPY'"},
        {Kind::WRONG_SIZE, 2, "8 rows"},
        {Kind::BAD_LENGTH, 2, "bad frame length -5"},
        {Kind::IMPOSSIBLE, 3, "impossible state"},
        {Kind::CLOSE, 0, "closed the connection before the first state"},
    };
    for (const Case& c : cases) {
        INFO("fault " << int(c.kind) << " at state " << c.at);
        ServerOptions so;
        so.faults.kind = c.kind;
        so.faults.at_state = c.at;
        GameRun run = play_on_server(so);
        CHECK(run.report.result.empty());
        CHECK(run.white.status == 1);
        CHECK(run.black.status == 1);
        CHECK(contains(run.white.err, c.says));
        CHECK(contains(run.black.err, c.says));
        CHECK(run.white.out.empty());
        CHECK(run.black.out.empty());
    }
}

TEST_CASE("bologna: a server that stops in mid-game: an error for the side to move", "[bologna]") {
    // The server closes instead of sending the state after black's first
    // move. Black, to move in its last state, cannot tell why: an error
    // naming the likely causes. White saw black to move: from its side it
    // looks like black's illegal move on the 2020 jar, a presumed win.
    ServerOptions so;
    so.faults.kind = ServerFaults::Kind::CLOSE;
    so.faults.at_state = 2;
    GameRun run = play_on_server(so);
    CHECK(run.report.result.empty());
    CHECK(run.black.status == 1);
    CHECK(run.black.out.empty());
    CHECK(contains(run.black.err, "closed the connection with us to move, after we sent "));
    CHECK(contains(run.black.err, "s allowed, with no result. Likely causes: our move arrived "
                                  "late"));
    CHECK(contains(run.black.err, "judged it illegal (the 2020 Server.jar"));
    CHECK(run.white.status == 0);
    CHECK(contains(run.white.out, "result WHITEWIN (we played white: won: the server closed "
                                  "without a final state with black to move; presumed"));
}

// Black's only soldier is stuck on a1 behind white soldiers on b1 and a2,
// and it is black's move: whatever black sends is illegal.
constexpr const char* BLACK_STUCK = "9/9/9/9/4K4/9/9/T8/tT7 a 0 1";

TEST_CASE("bologna: a side with no legal move loses, with or without a final state", "[bologna]") {
    for (bool jar : {false, true}) {
        INFO((jar ? "the 2020 jar: no final state" : "the current source: a final state"));
        ServerOptions so;
        so.start = BLACK_STUCK;
        so.jar_2020 = jar;
        GameRun run = play_on_server(so);
        CHECK(run.report.illegal[ATTACKERS] == 1);
        CHECK(run.report.plies() == 0);
        CHECK(run.report.result == (jar ? "" : "WHITEWIN"));
        CHECK(run.white.status == 0);
        CHECK(run.black.status == 0);
        CHECK(run.white.err.empty());
        CHECK(run.black.err.empty());
        if (jar) {
            CHECK(run.white.out == "result WHITEWIN (we played white: won: black had no legal "
                                   "move; the server closed without a final state)\n");
            CHECK(run.black.out == "result WHITEWIN (we played black: lost: we had no legal "
                                   "move; the server closed without a final state)\n");
        } else {
            CHECK(run.white.out == "result WHITEWIN (we played white: won)\n");
            CHECK(run.black.out == "result WHITEWIN (we played black: lost)\n");
        }
    }
}

TEST_CASE("bologna: the opponent's illegal move on the 2020 jar is a presumed win", "[bologna]") {
    // Black answers with an illegal move; the jar closes without a final state.
    ServerOptions so;
    so.jar_2020 = true;
    so.time_s = 5;
    so.accept_timeout_ms = 10000;
    Server server;
    std::ostringstream log;
    REQUIRE(server.open(so, &log).ok());
    ClientRun white;
    std::thread w = client_thread(client_options(DEFENDERS, server.white_port()), white);
    int states = 0, bad_states = 0;
    std::thread b = illegal_black_player(ashton(), server.black_port(), states, bad_states);
    GameReport report = server.run();
    w.join();
    b.join();
    INFO(log.str() << white.err);
    CHECK(report.result.empty());
    CHECK(contains(report.reason, "black made an illegal move (2020 jar"));
    CHECK(report.illegal[ATTACKERS] == 1);
    CHECK(states == 2); // the start, and the state after white's move
    CHECK(white.status == 0);
    CHECK(white.out == "result WHITEWIN (we played white: won: the server closed without a final "
                       "state with black to move; presumed, as black's illegal move or time-out "
                       "loses)\n");
}

TEST_CASE("bologna: a slow server that writes frames in pieces is waited for", "[bologna]") {
    ServerOptions so;
    so.faults.delay_ms = 30;
    so.faults.chunk_bytes = 40;
    so.faults.chunk_pause_ms = 2;
    so.faults.slow_states = 8;
    GameRun run = play_on_server(so);
    INFO(run.report.reason);
    CHECK(!run.report.result.empty());
    check_clean_game(run);
}

TEST_CASE("bologna: a player that runs out of time ends the game with no result", "[bologna]") {
    // White connects and names itself, and then never moves.
    ServerOptions so;
    so.time_s = 1;
    so.accept_timeout_ms = 10000;
    Server server;
    std::ostringstream log;
    REQUIRE(server.open(so, &log).ok());
    ClientRun black;
    BolognaClientOptions slow_opts = client_options(ATTACKERS, server.black_port());
    slow_opts.time_s = 1;
    slow_opts.margin_ms = 500;
    std::thread b = client_thread(slow_opts, black);
    auto fd = connect_to("127.0.0.1", server.white_port(), 5000);
    REQUIRE(fd.ok());
    std::string error;
    REQUIRE(write_all(*fd, encode_frame("\"Sleepy\""), 1000, error));
    GameReport report = server.run();
    b.join();
    close(*fd);
    CHECK(report.result.empty());
    CHECK(contains(report.reason, "ran out of time"));
    // White, to move with moves to play, let the server close: black won.
    CHECK(black.status == 0);
    CHECK(black.out == "result BLACKWIN (we played black: won: the server closed without a final "
                       "state with white to move; presumed, as white's illegal move or time-out "
                       "loses)\n");
}

// ------------------------------------------------------------------ command line

TEST_CASE("bologna: the command line refuses bad values and reports a refused connection",
          "[bologna]") {
    struct Bad {
        std::vector<std::string> args;
        const char* says;
    } bad[] = {
        {{"bologna"}, "--side"},
        {{"bologna", "--side", "green"}, "--side 'green'"},
        {{"bologna", "--side", "white", "--time", "0"}, "--time 0"},
        {{"bologna", "--side", "white", "--time", "soon"}, "time"},
        {{"bologna", "--side", "black", "--margin", "-1"}, "--margin -1"},
        {{"bologna", "--side", "black", "--time", "3", "--margin", "3000"}, "--margin 3000"},
        {{"bologna", "--side", "white", "--port", "70000"}, "--port 70000"},
        {{"bologna", "--side", "white", "--cache", "-2"}, "--cache -2"},
        {{"bologna", "--side", "white", "--depth", "0"}, "--depth 0"},
        {{"bologna", "--side", "white", "--connect-timeout", "-1"}, "--connect-timeout -1"},
        // The launch form: SIDE SECONDS ADDRESS, and nothing else.
        {{"bologna", "GREEN", "60", "127.0.0.1"}, "--side 'GREEN'"},
        {{"bologna", "WHITE", "sixty", "127.0.0.1"}, "--time sixty"},
        {{"bologna", "WHITE", "0", "127.0.0.1"}, "--time 0"},
        {{"bologna", "WHITE", "60", "127.0.0.1", "now"}, "unexpected word 'now'"},
        {{"bologna", "WHITE", "--side", "black"}, "'WHITE' and --side both give the side"},
        {{"bologna", "BLACK", "60", "--time", "30"}, "'60' and --time both give the time"},
        {{"bologna", "BLACK", "60", "h", "--host", "h"}, "'h' and --host both give the host"},
        {{"bologna", "WHITE", "60", "127.0.0.1", "--sdie", "white"}, "--sdie"},
        {{"--frobnicate", "bologna", "WHITE", "60", "127.0.0.1"}, "'--frobnicate'"},
        {{"--variant", "tablut", "bologna", "WHITE"}, "--variant and --rules do not apply"},
        {{"bologna", "WHITE", "--variant", "ashton"}, "--variant and --rules do not apply"},
    };
    for (Bad& b : bad) {
        INFO(b.args.back());
        BinaryRun r = run_binary(b.args);
        CHECK(r.status == 2);
        CHECK(contains(r.err, b.says));
        CHECK(r.out.empty());
    }
    const int port = free_port();
    BinaryRun r = run_binary({"bologna", "--side", "white", "--port", std::to_string(port)});
    CHECK(r.status == 1);
    CHECK(contains(r.err, "cannot connect to 127.0.0.1:" + std::to_string(port)));
    CHECK(contains(r.err, "refused"));
    CHECK(r.out.empty());

    BinaryRun help = run_binary({"--help"});
    CHECK(help.status == 0);
    CHECK(contains(help.out, "bologna --side white|black"));
    CHECK(contains(help.out, "bologna WHITE|BLACK SECONDS ADDRESS"));
}

TEST_CASE("bologna: --connect-timeout retries a closed port, then says so", "[bologna]") {
    const int port = free_port();
    const auto start = std::chrono::steady_clock::now();
    BinaryRun r = run_binary({"--log-level", "debug", "bologna", "BLACK", "60", "127.0.0.1",
                              "--port", std::to_string(port), "--connect-timeout", "1"});
    const auto took = std::chrono::steady_clock::now() - start;
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(contains(r.err, "cannot connect to 127.0.0.1:" + std::to_string(port)));
    CHECK(contains(r.err, "still closed after 1000 ms of --connect-timeout"));
    CHECK(contains(r.err, "is the server running"));
    // Each retry is logged at debug level: the first pauses are 50, 100, 200 ms.
    CHECK(contains(r.err, "attempt 1 failed, next in 50 ms"));
    CHECK(contains(r.err, "attempt 2 failed, next in 100 ms"));
    CHECK(took >= std::chrono::milliseconds(1000));
}

TEST_CASE("bologna: the real binary, started as the organisers do, before its server",
          "[bologna]") {
    // White in the launch form of runmyplayer.sh (SIDE SECONDS ADDRESS),
    // black with the named options; both start before the server listens
    // and wait for it (--connect-timeout).
    ServerOptions so;
    so.time_s = 5;
    so.accept_timeout_ms = 10000;
    so.white_port = free_port();
    do so.black_port = free_port();
    while (so.black_port == so.white_port);
    auto white = std::async(std::launch::async, [&] {
        return run_binary({"--hash", "1", "--log-level", "debug", "bologna", "WHITE", "5",
                           "127.0.0.1", "--port", std::to_string(so.white_port), "--depth", "2",
                           "--connect-timeout", "20"},
                          60000);
    });
    auto black = std::async(std::launch::async, [&] {
        return run_binary({"bologna", "--side", "black", "--port", std::to_string(so.black_port),
                           "--nodes", "2000", "--name", "Nodes 2000", "--time", "5",
                           "--connect-timeout", "20"},
                          60000);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    Server server;
    std::ostringstream log;
    REQUIRE(server.open(so, &log).ok());
    GameReport report = server.run();
    BinaryRun w = white.get(), b = black.get();
    INFO(log.str() << w.err << b.err);
    REQUIRE(!report.result.empty());
    CHECK(report.black_name == "Nodes2000");
    CHECK(w.status == 0);
    CHECK(b.status == 0);
    // stdout has the result line only; the traffic is in the debug log.
    CHECK(w.out.rfind("result " + report.result + " (we played white: ", 0) == 0);
    CHECK(std::count(w.out.begin(), w.out.end(), '\n') == 1);
    // The log starts with the rules played: the server's, not the default edition's.
    const std::string first_line = w.err.substr(0, w.err.find('\n'));
    CHECK(contains(first_line, "bologna client, rules " + print_rules(*bologna_rules(-1))));
    CHECK(contains(w.err, "attempt 1 failed, next in 50 ms"));
    CHECK(contains(w.err, "bologna: connected to 127.0.0.1:" + std::to_string(so.white_port)));
    CHECK(contains(w.err, "bologna: sent \"Branan\""));
    CHECK(contains(w.err, "bologna: received {\"board\":[[\"EMPTY\""));
    CHECK(contains(w.err, "bologna: sent {\"from\":\""));
    CHECK(contains(b.out, "result " + report.result + " (we played black: "));
}
