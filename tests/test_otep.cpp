// OTEP end to end: the real binary driven through pipes by a scripted host
// that replays the sequences OpenTafl really sends (../shared/OTEP.md) and
// referees every move with the rules core.

#include <catch2/catch.hpp>

#include <chrono>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "edition.h"
#include "engine.h"
#include "line_reader.h"
#include "movegen.h"
#include "notation.h"
#include "otep_clock.h"
#include "pipe_host.h"
#include "rules.h"
#include "test_helpers.h"
#include "text.h"
#include "timeman.h"

using namespace branan;
using branan::testutil::Host;
using branan::testutil::rules_edition;

namespace {

const char* const BRANDUB =
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
const char* const TABLUT =
    "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK "
    "linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

// Reads the engine's `move` line: exact form, legal in pos. Returns the move.
Move expect_move(Host& host, const Position& pos) {
    const std::string line = host.read_reply();
    INFO("engine said '" << line << "'");
    REQUIRE(line.rfind("move ", 0) == 0);
    CHECK(line.find('\r') == std::string::npos);
    CHECK(line.back() != ' ');
    auto m = parse_legal_move(pos, line.substr(5));
    INFO("legality: " << (m ? std::string("ok") : m.error()));
    REQUIRE(m.ok());
    CHECK(line.substr(5) == move_name(pos.edition(), *m)); // plain from-to
    return *m;
}

// The host's side of a turn for the opponent: a random legal move, made in
// pos and announced as OpenTafl does (unless it ended the game).
void play_random_opponent_move(Host& host, Position& pos, std::mt19937& rng) {
    MoveList list;
    generate_moves(pos, list);
    REQUIRE(list.size() > 0);
    Move m = list.moves[rng() % list.size()];
    const std::string record = move_record(pos, m);
    pos.make_move(m);
    if (!pos.result().over())
        host.send("opponent-move " + record + " " + to_opentafl_position(pos));
}

const char* side_name(Side s) {
    return s == ATTACKERS ? "attackers" : "defenders";
}

} // namespace

TEST_CASE("otep: hello at once, before and after an early rules line", "[otep]") {
    Host host({"--protocol", "otep"});
    CHECK(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + BRANDUB);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: detected from a first rules line", "[otep]") {
    Host host({});
    host.send(std::string("rules ") + BRANDUB); // sent before hello, as OpenTafl does
    CHECK(host.read_line(2000) == "hello");
    host.send("play attackers");
    Position pos(rules_edition(BRANDUB));
    expect_move(host, pos);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: a whole game on both sides, refereed, finish twice then goodbye", "[otep]") {
    for (Side engine_side : {ATTACKERS, DEFENDERS}) {
        for (const char* rules : {BRANDUB, TABLUT}) {
            INFO("engine plays " << side_name(engine_side) << " under " << rules);
            Host host({"--protocol", "otep"});
            REQUIRE(host.read_line(2000) == "hello");
            host.send(std::string("rules ") + rules);
            Position pos(rules_edition(rules));
            std::mt19937 rng(7);
            int plies = 0;
            while (!pos.result().over() && plies < 60) {
                if (pos.side_to_move() == engine_side) {
                    // Clock line as OpenTafl writes it: trailing space included.
                    host.send("clock 900 900 0 0 0 ");
                    host.send(std::string("play ") + side_name(engine_side));
                    Move m = expect_move(host, pos);
                    pos.make_move(m);
                    if (!pos.result().over()) host.send("move " + to_opentafl_position(pos));
                } else {
                    play_random_opponent_move(host, pos, rng);
                }
                ++plies;
            }
            host.send("finish 1");
            host.send("finish 1");
            host.send("goodbye");
            CHECK(host.wait_exit() == 0);
        }
    }
}

TEST_CASE("otep: error 2 makes the engine play another move", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + BRANDUB);
    Position pos(rules_edition(BRANDUB));
    std::vector<Move> refused;
    for (int i = 0; i < 3; ++i) {
        host.send("clock 900 900 0 0 0");
        host.send("play attackers");
        Move m = expect_move(host, pos);
        for (Move r : refused) CHECK(m != r);
        refused.push_back(m);
        host.send("error 2");
    }
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: resumed game with several opponent moves at once", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + BRANDUB);
    Position pos(rules_edition(BRANDUB));
    std::string moves;
    for (const char* text : {"d2-b2", "d3-c3", "b2-b3", "c3-c2", "a4-a2"}) {
        auto m = parse_legal_move(pos, text);
        REQUIRE(m.ok());
        append_word(moves, move_record(pos, *m), '|');
        pos.make_move(*m);
    }
    host.send("opponent-move " + moves + " " + to_opentafl_position(pos));
    host.send("play defenders");
    Move m = expect_move(host, pos);
    pos.make_move(m);
    host.send("move " + to_opentafl_position(pos));
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: 11x11 Copenhagen and Fetlar games on a running clock, with status lines",
          "[otep][long]") {
    // The strings OpenTafl sends (our presets are exactly those), read by
    // side as OpenTafl reads them. The host's clock counts down by the time
    // each move really took, as OpenTafl's does; every move must be legal
    // and arrive before the engine's time runs out.
    for (const char* preset : {"opentafl-copenhagen", "fetlar"}) {
        const Preset* found = nullptr;
        for (const Preset& p : presets())
            if (p.name == std::string(preset)) found = &p;
        REQUIRE(found);
        auto rules = parse_rules(found->rules, RulesReading::BY_SIDE);
        REQUIRE(rules.ok());
        auto edition = Edition::make(*rules);
        REQUIRE(edition.ok());
        for (Side engine_side : {ATTACKERS, DEFENDERS}) {
            INFO(preset << ", engine plays " << side_name(engine_side));
            Host host({"--protocol", "otep"});
            REQUIRE(host.read_line(2000) == "hello");
            host.send("rules " + std::string(found->rules));
            Position pos(*edition);
            std::mt19937 rng(11);
            long long left_ms = 8000, other_ms = 8000;
            int statuses = 0;
            for (int plies = 0; plies < 30 && !pos.result().over(); ++plies) {
                if (pos.side_to_move() == engine_side) {
                    const long long att = engine_side == ATTACKERS ? left_ms : other_ms;
                    const long long def = engine_side == ATTACKERS ? other_ms : left_ms;
                    host.send("clock " + std::to_string(att) + " " + std::to_string(def) +
                              " 0 0 0 ");
                    const auto start = std::chrono::steady_clock::now();
                    host.send(std::string("play ") + side_name(engine_side));
                    std::string line = host.read_line(int(left_ms) + 2000);
                    for (; line.rfind("status ", 0) == 0;
                         line = host.read_line(int(left_ms) + 2000))
                        ++statuses;
                    left_ms -= std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
                    INFO("ply " << plies << ": '" << line << "', " << left_ms << " ms left");
                    REQUIRE(left_ms > 0);
                    REQUIRE(line.rfind("move ", 0) == 0);
                    auto m = parse_legal_move(pos, line.substr(5));
                    REQUIRE(m.ok());
                    pos.make_move(*m);
                    if (!pos.result().over()) host.send("move " + to_opentafl_position(pos));
                } else {
                    play_random_opponent_move(host, pos, rng);
                }
            }
            // The budget is spread over the game: a fifteen-move stretch
            // leaves most of the clock.
            CHECK(left_ms > 3000);
            CHECK(statuses > 0);
            host.send("finish 1");
            host.send("goodbye");
            CHECK(host.wait_exit() == 0);
        }
    }
}

TEST_CASE("otep: clock in overtime is respected", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + TABLUT);
    Position pos(rules_edition(TABLUT));
    // 1.5 s left of the current 5 s overtime period, no main time.
    host.send("clock 1500* 60000 5 2 3 ");
    const auto start = std::chrono::steady_clock::now();
    host.send("play attackers");
    expect_move(host, pos);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    CHECK(ms < 1500);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

namespace {

// The budgets the search would take from the plan of one move.
TimeManager planned(const std::string& clock_line, Side us, int64_t increment_ms = 0,
                    int64_t overhead_ms = 30) {
    auto clock = parse_otep_clock(split_words(clock_line));
    REQUIRE(clock.ok());
    TimeManager t;
    t.init(plan_host_limits(host_clock(*clock, us, increment_ms), us), us, overhead_ms);
    return t;
}

} // namespace

TEST_CASE("otep: the time plan on OpenTafl's clock, Move Overhead kept back once", "[otep]") {
    // Main time alone: a budget of twice a share of it (1/35), aimed at its
    // half, less the overhead.
    TimeManager t = planned("clock 60000 90000 0 0 0", ATTACKERS);
    CHECK(t.maximum_ms() == 2 * (60000 / 35) - 30);
    CHECK(t.optimum_ms() == (2 * (60000 / 35) - 30) / 2);
    t = planned("clock 60000 90000 0 0 0", DEFENDERS);
    CHECK(t.maximum_ms() == 2 * (90000 / 35) - 30);
    // The Move Overhead set, not the default.
    t = planned("clock 60000 90000 0 0 0", ATTACKERS, 0, 500);
    CHECK(t.maximum_ms() == 2 * (60000 / 35) - 500);
    // The increment learnt from the clock: 3/4 of it in the share.
    t = planned("clock 60000 90000 0 0 0", ATTACKERS, 2000);
    CHECK(t.maximum_ms() == 2 * (60000 / 35 + 1500) - 30);
    // Fifteen moves on such budgets leave 40 % of the clock at worst.
    int64_t left = 8000;
    for (int i = 0; i < 15; ++i)
        left -= planned("clock " + std::to_string(left) + " 8000 0 0 0", ATTACKERS).maximum_ms();
    CHECK(left > 3200);

    // Inside an overtime period: what is left of it, less a twentieth (at
    // least 50 ms) and the overhead, used whole, since time not used is lost
    // (a plan that kept some of it back used 0.8 s of 2 s).
    t = planned("clock 2000* 60000 2 2 3", ATTACKERS);
    CHECK(t.optimum_ms() == 2000 - 100 - 30);
    CHECK(t.maximum_ms() == 2000 - 100 - 30);
    t = planned("clock 1500* 60000 5 2 3", ATTACKERS);
    CHECK(t.maximum_ms() == 1500 - 75 - 30);
    t = planned("clock 600* 60000 5 2 3", ATTACKERS);
    CHECK(t.maximum_ms() == 600 - 50 - 30);
    // Main time spent and no '*': the next period, increment included.
    t = planned("clock 0 60000 5 2 3", ATTACKERS, 1000);
    CHECK(t.maximum_ms() == 6000 - 300 - 30);

    // Main time with periods after it: the share of the main time plus a
    // period less its margin (4750 ms of 5 s) is the aim; at most twice it.
    t = planned("clock 1500* 60000 5 2 3", DEFENDERS);
    CHECK(t.optimum_ms() == (2 * (60000 / 35 + 4750) - 30) / 2);
    CHECK(t.maximum_ms() == 2 * (60000 / 35 + 4750) - 30);
    // Little main time left: the period makes most of the move, within
    // what the host allows (main time + one period): 3/4 of the main time
    // and the period less its margin.
    t = planned("clock 1000 60000 10 1 1", ATTACKERS);
    CHECK(t.maximum_ms() == 750 + 9500 - 30);
    CHECK(t.maximum_ms() < 1000 + 10000);
    // No periods left: the main time alone.
    t = planned("clock 1000 60000 10 0 1", ATTACKERS);
    CHECK(t.maximum_ms() == 2 * (1000 / 35) - 30);

    // No clock line at all: 5 s a move.
    TimeManager untimed;
    untimed.init(plan_host_limits(host_clock(OtepClock{}, ATTACKERS, 0), ATTACKERS), ATTACKERS, 30);
    CHECK(untimed.maximum_ms() == 5000 - 30);

    CHECK(parse_otep_clock(split_words("clock x y z")).error() == "clock: expected 5 fields");
    CHECK(parse_otep_clock(split_words("clock -1 0 0 0 0")).error() == "clock: bad time '-1'");
    CHECK(parse_otep_clock(split_words("clock 0 0 x 0 0")).error() == "clock: bad overtime fields");
}

TEST_CASE("otep: the increment OpenTafl never sends is learnt from the clock", "[otep]") {
    // 60 s, 2 s used, 3 s added: 61 s at the next turn.
    CHECK(infer_increment_ms(60000, 2000, 61000) == 3000);
    // The host's delay (150 ms here) only makes the gain smaller.
    CHECK(infer_increment_ms(60000, 2000, 60850) == 3000);
    // No increment, with or without a delay.
    CHECK(infer_increment_ms(60000, 2000, 58000) == 0);
    CHECK(infer_increment_ms(60000, 2000, 57700) == 0);
    // A reading 100 ms stale gives no second too many.
    CHECK(infer_increment_ms(60000, 2000, 58100) == 0);
    // A long delay errs low, never high.
    CHECK(infer_increment_ms(60000, 2000, 60300) == 2000);
}

TEST_CASE("otep: a level from the engine file's arguments, status lines with the win chance",
          "[otep]") {
    Host host({"--protocol", "otep", "--level", "0"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + TABLUT);
    Position pos(rules_edition(TABLUT));
    host.send("clock 900 900 0 0 0 ");
    host.send("play attackers");
    std::string line;
    int statuses = 0;
    for (line = host.read_line(10000); line.rfind("status ", 0) == 0;
         line = host.read_line(10000)) {
        ++statuses;
        INFO(line);
        // "status depth D score S (win W%[ draw D%]) nodes N pv ...": a level-0 search
        // (50 nodes a move, depth 1 finished whatever they say).
        std::smatch m;
        REQUIRE(std::regex_search(line, m,
                                  std::regex(" score -?[0-9]+ \\(win [0-9.]+%( draw "
                                             "[0-9.]+%)?\\) nodes ([0-9]+) ")));
        CHECK(std::stoll(m[2].str()) < 2000);
    }
    CHECK(statuses > 0);
    REQUIRE(line.rfind("move ", 0) == 0);
    CHECK(parse_legal_move(pos, line.substr(5)).ok());
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: position, side and analyze answer with analysis lines", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + BRANDUB);
    // The defenders have only the king (b6), so every line starts with a king move.
    host.send("position /3t3/7/7/t6/7/1K5/3t3/");
    host.send("side defenders");
    host.send("analyze 2 1");
    const std::string line = host.read_reply();
    INFO(line);
    REQUIRE(line.rfind("analysis 2 ", 0) == 0);
    CHECK(line.find("b6-") != std::string::npos);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: unsupported rules give up with error -1, bad lines get error 0", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send("rules dim:7 ber:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    CHECK(host.read_line().rfind("error -1 ", 0) == 0);
    host.send("frobnicate");
    CHECK(host.read_line().rfind("error 0 ", 0) == 0);
    host.send("clock x y z");
    CHECK(host.read_line().rfind("error 0 ", 0) == 0);
    // A line over the bound is skipped unread, and the session goes on.
    host.send(std::string(3 * MAX_LINE_LENGTH, 'x'));
    CHECK(host.read_line() ==
          "error 0 line longer than " + std::to_string(MAX_LINE_LENGTH) + " bytes ignored");
    host.send("side");
    CHECK(host.read_line().rfind("error 0 ", 0) == 0);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: analyze gives its lines best first", "[otep]") {
    // Lines have come 75, 79, 75: each line of a depth has its own search
    // window, so a later one can come out above an earlier one; the search
    // keeps them in order. Every bench position of 7x7 and 9x9, at a
    // fixed depth, so that the answer is always the same.
    int checked = 0;
    for (const Engine::BenchPosition& bp : Engine::bench_positions()) {
        auto rules = preset_rules(bp.preset);
        REQUIRE(rules.ok());
        auto edition = Edition::make(*rules);
        REQUIRE(edition.ok());
        if ((*edition)->size > 9) continue;
        auto pos = parse_tfen(*edition, bp.tfen);
        REQUIRE(pos.ok());
        INFO(bp.preset << " " << bp.tfen);
        Host host({"--protocol", "otep", "--otep-depth", "5"});
        REQUIRE(host.read_line(2000) == "hello");
        host.send("rules " + print_rules(*rules));
        host.send("position " + to_opentafl_position(*pos));
        host.send(std::string("side ") + side_name(pos->side_to_move()));
        host.send("analyze 4 1");
        const std::string line = host.read_reply(60000);
        INFO(line);
        const auto w = split_words(line);
        REQUIRE(w.size() >= 4);
        REQUIRE(w[0] == "analysis");
        auto n = parse_integer(w[1], 1, 4);
        REQUIRE(n.ok());
        REQUIRE(w.size() == size_t(2 + 2 * *n));
        for (int64_t i = 1; i < *n; ++i) {
            auto before = parse_integer(w[2 + 2 * i - 1], -1000000, 1000000);
            auto after = parse_integer(w[2 + 2 * i + 1], -1000000, 1000000);
            REQUIRE(before.ok());
            REQUIRE(after.ok());
            CHECK(*before >= *after);
        }
        host.send("goodbye");
        CHECK(host.wait_exit() == 0);
        ++checked;
    }
    CHECK(checked >= 4);
}
