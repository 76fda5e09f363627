// branan-match: statistics against figures computed by hand from the
// published formulas, and end-to-end matches between scripted engines
// (tests/match/scripted_engine.cpp) that play, misbehave, crash and hang.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "match/match.h"
#include "match/match_command_line.h"
#include "match/openings.h"
#include "match/plot.h"
#include "match/schedule.h"
#include "match/stats.h"
#include "match/workers.h"
#include "match_checks.h"
#include "random_net_file.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::match;
using branan::testutil::BRANDUBH_START;
using branan::testutil::read_file;
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------- helpers

fs::path temp_dir(const std::string& name) {
    fs::path p =
        fs::temp_directory_path() / ("branan-match-test-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
}

EngineConfig scripted(const std::string& name, std::vector<std::string> args,
                      const std::string& tc = "st=0.2") {
    EngineConfig e;
    e.name = name;
    e.cmd = BRANAN_SCRIPTED_ENGINE;
    e.args = std::move(args);
    std::string err;
    e.tc = *parse_time_control(tc, err);
    return e;
}

MatchConfig config_for(EngineConfig a, EngineConfig b, int games) {
    MatchConfig c;
    c.engines = {std::move(a), std::move(b)};
    c.games = games;
    c.max_plies = 400;
    c.time_margin_ms = 300; // room for a loaded machine (sanitizers, parallel tests)
    c.recover_grace_ms = 300;
    c.handshake_ms = 5000;
    return c;
}

MatchResult play_match(const MatchConfig& c, std::string* text = nullptr) {
    std::ostringstream out;
    MatchResult r = run_match(c, out, false);
    if (text) *text = out.str();
    INFO(out.str());
    REQUIRE(r.ok);
    return r;
}

int count_lines(const fs::path& p) {
    std::ifstream in(p);
    std::string line;
    int n = 0;
    while (std::getline(in, line))
        if (!line.empty()) ++n;
    return n;
}

// The games in which `engine` lost, and how.
std::vector<std::string> loss_reasons(const MatchResult& r, const std::string& engine) {
    std::vector<std::string> out;
    for (const GameSummary& g : r.games) {
        const bool attacks = g.attackers == engine;
        const bool lost =
            (attacks && g.winner == "defenders") || (!attacks && g.winner == "attackers");
        if (lost) out.push_back(g.reason);
    }
    return out;
}

int run_command(const std::string& cmd) {
    int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

// ---------------------------------------------------------------- statistics
//
// Expected figures: computed by hand (a few lines of Python) from the
// published formulas, not from this code:
//   Elo(s) = -400 log10(1/s - 1); the 95% interval maps s +- 1.959964 * sqrt(var/n)
//   through Elo (cutechess-cli, projects/lib/src/elo.cpp: Elo::diff, Elo::errorMargin);
//   LOS = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2 (same file, Elo::LOS);
//   LLR = n (s1 - s0) (2 mu - s0 - s1) / (2 var) with s = 1/(1 + 10^(-elo/400)) and the
//   outcomes normalised to [0, 1] (fishtest, server/fishtest/stats/stat_util.py:
//   LLR_logistic with results_to_pdf and stats); bounds ln(beta/(1-alpha)),
//   ln((1-beta)/alpha) (Wald).

TEST_CASE("Elo from a score", "[match]") {
    CHECK(elo_from_score(0.5) == Approx(0.0).margin(1e-12));
    CHECK(elo_from_score(0.55) == Approx(34.86007028756008));
    CHECK(elo_from_score(0.75) == Approx(190.848501887865));
    CHECK(elo_from_score(0.3) == Approx(-147.19071411783779));
    CHECK(score_from_elo(elo_from_score(0.62)) == Approx(0.62));
    CHECK(std::isinf(elo_from_score(1.0)));
    CHECK(std::isinf(elo_from_score(0.0)));
}

TEST_CASE("Trinomial: score, variance, interval, LOS, LLR", "[match]") {
    Trinomial t;
    t.n = {20, 50, 30}; // 30 wins, 20 losses, 50 draws
    Moments m = moments(t);
    CHECK(m.samples == 100);
    CHECK(m.mean == Approx(0.55));
    CHECK(m.variance == Approx(0.1225));
    EloEstimate e = estimate(m);
    CHECK(e.elo == Approx(34.86007028756008));
    CHECK(e.lower == Approx(-12.929693470337863));
    CHECK(e.upper == Approx(84.01076264940247));
    CHECK(e.error == Approx(48.470228059870166));
    CHECK(los(t) == Approx(0.9213503964748575));
    CHECK(llr(m, 0, 10) == Approx(0.5027458564789831));
    CHECK(llr(m, -5, 5) == Approx(0.5873536089021528));
}

TEST_CASE("Pentanomial: pairs, interval, LLR", "[match]") {
    Pentanomial p;
    p.n = {3, 12, 25, 14, 6}; // game pairs scoring 0, 1/2, 1, 3/2, 2
    Moments m = moments(p);
    CHECK(m.samples == 60);
    CHECK(m.mean == Approx(0.5333333333333333));
    CHECK(m.variance == Approx(0.06347222222222224));
    EloEstimate e = estimate(m);
    CHECK(e.elo == Approx(23.196778791074703));
    CHECK(e.lower == Approx(-21.160170171151396));
    CHECK(e.upper == Approx(68.32620424492998));
    CHECK(llr(m, 0, 10) == Approx(0.35550411652841735));
    CHECK(llr(m, -5, 5) == Approx(0.4534318451218364));
}

TEST_CASE("SPRT bounds and decisions", "[match]") {
    SprtParams p{0, 10, 0.05, 0.05};
    CHECK(p.lower_bound() == Approx(-2.9444389791664403));
    CHECK(p.upper_bound() == Approx(2.9444389791664403));
    SprtParams q{0, 10, 0.05, 0.1};
    CHECK(q.lower_bound() == Approx(-2.251291798606495));
    CHECK(q.upper_bound() == Approx(2.8903717578961645));
    CHECK(sprt_decision(3.0, p) == SprtDecision::H1);
    CHECK(sprt_decision(-3.0, p) == SprtDecision::H0);
    CHECK(sprt_decision(0.1, p) == SprtDecision::CONTINUE);
    Moments none;
    CHECK(llr(none, 0, 10) == 0);
}

// ---------------------------------------------------------------- pieces

TEST_CASE("Time controls and the command line", "[match]") {
    std::string err;
    auto tc = parse_time_control("40/10+0.1", err);
    REQUIRE(tc);
    CHECK(tc->moves == 40);
    CHECK(tc->base_ms == 10000);
    CHECK(tc->inc_ms == 100);
    CHECK(tc->to_string() == "40/10+0.1");
    CHECK(parse_time_control("1:30", err)->base_ms == 90000);
    CHECK(parse_time_control("st=0.5", err)->movetime_ms == 500);
    CHECK_FALSE(parse_time_control("st=0.0004", err)); // rounds to no time per move
    CHECK(err.find("under a millisecond") != std::string::npos);
    CHECK_FALSE(parse_time_control("abc", err));
    CHECK_FALSE(parse_time_control("0", err));
    // Long and fine-grained times read back as themselves, to the millisecond.
    CHECK(parse_time_control("4002000.1+0.015", err)->to_string() == "4002000.1+0.015");
    CHECK(parse_time_control("st=1234567.891", err)->to_string() == "st=1234567.891");
    CHECK_FALSE(parse_time_control("1e300", err)); // past what a clock can count

    MatchConfig c;
    Status s = parse_command_line({"-engine",
                                   "cmd=./a",
                                   "name=A",
                                   "arg=--x",
                                   "option.Hash=16",
                                   "-engine",
                                   "cmd=./b",
                                   "proto=otep",
                                   "st=0.5",
                                   "-each",
                                   "tc=10+0.1",
                                   "option.Threads=1",
                                   "-variant",
                                   "tablut",
                                   "-games",
                                   "4",
                                   "-rounds",
                                   "2",
                                   "-repeat",
                                   "-concurrency",
                                   "3",
                                   "-srand",
                                   "7",
                                   "-openings",
                                   "file=o.txt",
                                   "format=moves",
                                   "order=random",
                                   "-sprt",
                                   "elo0=0",
                                   "elo1=5",
                                   "alpha=0.05",
                                   "beta=0.1",
                                   "-maxplies",
                                   "300",
                                   "-resign",
                                   "movecount=3",
                                   "score=800",
                                   "-out",
                                   "dir"},
                                  c);
    INFO(s.error());
    REQUIRE(s);
    REQUIRE(c.engines.size() == 2);
    CHECK(c.engines[0].name == "A");
    CHECK(c.engines[0].args == std::vector<std::string>{"--x"});
    CHECK(c.engines[0].options.size() == 2); // -each's Threads, the engine's Hash
    CHECK(c.engines[0].tc.base_ms == 10000);
    CHECK(c.engines[1].proto == "otep");
    CHECK(c.engines[1].tc.movetime_ms == 500); // its own st= wins over -each tc=
    CHECK(c.preset == "tablut");
    CHECK(c.games == 4);
    CHECK(c.rounds == 2);
    CHECK(c.repeat);
    CHECK(c.concurrency == 3);
    CHECK(c.seed == 7);
    CHECK(c.openings.kind == OpeningSource::Kind::FILE);
    CHECK(c.openings.format == "moves");
    CHECK(c.openings.random_order);
    REQUIRE(c.sprt);
    CHECK(c.sprt->beta == 0.1);
    CHECK(c.max_plies == 300);
    CHECK(c.resign.movecount == 3);
    CHECK(c.resign.score_cp == 800);
    CHECK(c.out_dir == "dir");

    MatchConfig bad;
    CHECK_FALSE(parse_command_line({"-engine", "cmd=x", "-bogus"}, bad));
    CHECK_FALSE(parse_command_line({"-engine", "cmd=x", "colour=red"}, bad));
    MatchConfig one;
    REQUIRE(parse_command_line({"-engine", "cmd=x", "-tc", "10"}, one));
    CHECK_FALSE(prepare(one)); // one engine is not a match
}

TEST_CASE("Generated openings are reproducible, playable and near balance", "[match]") {
    auto v = *Edition::make(*preset_rules("brandubh"));
    for (int i = 0; i < 5; ++i) {
        Opening a = generate_opening(v, 42, i, 6, 2, 100);
        Opening b = generate_opening(v, 42, i, 6, 2, 100);
        CHECK(a.moves == b.moves);
        CHECK(a.moves.size() == 6);
        auto pos = opening_position(v, a);
        REQUIRE(pos);
        CHECK_FALSE(pos->result().over());
        CHECK(std::abs(quick_search(*pos, 2)) <= 100);
    }
    CHECK(generate_opening(v, 42, 0, 6, 2, 100).moves !=
          generate_opening(v, 43, 0, 6, 2, 100).moves);
}

namespace {

// A finished game's summary with a quote in its run id, for the line tests.
GameSummary sample_summary() {
    GameSummary g;
    g.run = "r\"1";
    g.game = 3;
    g.pair = 1;
    g.engine1 = "a";
    g.engine2 = "b";
    g.attackers = "b";
    g.defenders = "a";
    g.winner = "defenders";
    g.score1 = 1;
    g.reason = "king-escaped";
    return g;
}

} // namespace

TEST_CASE("Summary lines round-trip", "[match]") {
    GameSummary g = sample_summary();
    g.detail = "tab\there";
    auto back = parse_json_line(to_json_line(g));
    REQUIRE(back.ok());
    CHECK(back->run == g.run);
    CHECK(back->game == 3);
    CHECK(back->pair == 1);
    CHECK(back->score1 == 1);
    CHECK(back->detail == g.detail);
    CHECK_FALSE(parse_json_line("{\"run\":\"x\"}").ok());
}

TEST_CASE("Summary lines are written as they always were", "[match]") {
    // The bytes of the lines written before record.h used nlohmann-json:
    // keys in this order, no spaces, whole scores without a decimal point,
    // control characters escaped, other bytes as they are.
    GameSummary g = sample_summary();
    g.detail = "tab\there \x01 \x7f caf\xc3\xa9 back\\slash /";
    CHECK(
        to_json_line(g) ==
        "{\"run\":\"r\\\"1\",\"game\":3,\"round\":0,\"pair\":1,\"opening\":\"\",\"engine1\":\"a\","
        "\"engine2\":\"b\",\"attackers\":\"b\",\"defenders\":\"a\",\"winner\":\"defenders\","
        "\"score1\":1,\"reason\":\"king-escaped\",\"detail\":\"tab\\there \\u0001 \x7f "
        "caf\xc3\xa9 back\\\\slash /\",\"plies\":0,\"record\":\"\"}");
    auto back = parse_json_line(to_json_line(g));
    REQUIRE(back.ok());
    CHECK(back->detail == g.detail);
    g.score1 = 0.5;
    g.round = 2;
    g.plies = 41;
    g.record = "game-00003.txt";
    g.detail = "";
    CHECK(
        to_json_line(g) ==
        "{\"run\":\"r\\\"1\",\"game\":3,\"round\":2,\"pair\":1,\"opening\":\"\",\"engine1\":\"a\","
        "\"engine2\":\"b\",\"attackers\":\"b\",\"defenders\":\"a\",\"winner\":\"defenders\","
        "\"score1\":0.5,\"reason\":\"king-escaped\",\"detail\":\"\",\"plies\":41,"
        "\"record\":\"game-00003.txt\"}");
    g.score1 = 0;
    g.pair = -1;
    CHECK(to_json_line(g).find(",\"pair\":-1,") != std::string::npos);
    CHECK(to_json_line(g).find(",\"score1\":0,") != std::string::npos);
    // An old line that quotes bytes that are not UTF-8 still reads.
    auto old = parse_json_line("{\"run\":\"x\",\"game\":1,\"engine1\":\"a\",\"engine2\":\"b\","
                               "\"score1\":1,\"detail\":\"\xff!\"}");
    REQUIRE(old.ok());
    CHECK(old->detail == "?!");
    CHECK_FALSE(parse_json_line("{\"run\":\"x\",\"game\":\"1\",\"engine1\":\"a\",\"engine2\":\"b\","
                                "\"score1\":1}")
                    .ok());
    CHECK_FALSE(parse_json_line("{\"run\":\"x\",\"game\":1,\"engine1\":\"a\",\"engine2\":\"b\","
                                "\"score1\":0.7}")
                    .ok());
    CHECK_FALSE(parse_json_line("[1, 2]").ok());
}

TEST_CASE("Game records read back as they were written", "[match]") {
    EngineConfig a, d;
    a.name = "att";
    a.cmd = "/bin/att";
    a.args = {"--x"};
    std::string err;
    a.tc = *parse_time_control("10+0.1", err);
    d.name = "def";
    d.cmd = "def";
    d.tc = *parse_time_control("st=1", err);
    RecordHeader h;
    h.run = "run1";
    h.game = 12;
    h.round = 2;
    h.pair = 5;
    h.rules = "dim:7";
    h.edition = "brandubh";
    h.engines[0] = &a;
    h.engines[1] = &d;
    h.opening_label = "start";
    GameOutcome g;
    g.winner = Winner::DEFENDERS;
    g.reason = "king-escaped";
    g.detail = "defenders win: king-escaped";
    g.start_tfen = BRANDUBH_START;
    g.final_tfen = "x";
    g.plies = {{ATTACKERS, "d7-c7", 12, std::nullopt},
               {DEFENDERS, "d5-e5", 8, -35},
               {ATTACKERS, "c7-c6", 5, 40, 11}};
    const std::string text = format_record(h, g);
    CHECK(text.find("Pair: 5\nRules: dim:7\nVariant: brandubh\nAttackers: att\n"
                    "Attackers-Command: /bin/att --x\n") != std::string::npos);
    CHECK(text.find("\n\n1 a d7-c7 12ms\n2 d d5-e5 8ms score=-35\n3 a c7-c6 5ms score=40 "
                    "depth=11\n") != std::string::npos);
    auto r = parse_record(text, [](int n) { return "rec:" + std::to_string(n); });
    REQUIRE(r.ok());
    CHECK(*r->field("Run") == "run1");
    CHECK(*r->field("Defenders-TimeControl") == "st=1");
    CHECK(r->line_of("Run") == 2);
    CHECK(r->field("Nothing") == nullptr);
    CHECK(r->result == Winner::DEFENDERS);
    REQUIRE(r->plies.size() == 3);
    CHECK(r->plies[1].side == "d");
    CHECK(r->plies[1].move == "d5-e5");
    CHECK(r->plies[1].score_cp == -35);
    CHECK(r->plies[1].score_depth == 0);
    CHECK(r->plies[2].score_cp == 40);
    CHECK(r->plies[2].score_depth == 11);
    CHECK_FALSE(r->plies[0].score_cp);
    CHECK(r->plies[0].line + 1 == r->plies[1].line);
    // What the form forbids, named by line.
    auto error_of = [](std::string t) {
        auto bad = parse_record(t, [](int n) { return "rec:" + std::to_string(n); });
        return bad ? std::string("ok") : bad.error();
    };
    auto replace = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        REQUIRE(t.find(from) != std::string::npos);
        return t.replace(t.find(from), from.size(), to);
    };
    CHECK(error_of(replace("Plies: 3", "Plies: 4")).find("Plies says 4") != std::string::npos);
    CHECK(error_of(replace("2 d d5-e5", "3 d d5-e5")).find("where ply 2") != std::string::npos);
    CHECK(error_of(replace("score=-35", "score=x")).find("expected score=CP") != std::string::npos);
    CHECK(error_of(replace("depth=11", "depth=0")).find("expected depth=D") != std::string::npos);
    CHECK(error_of(replace("score=40 depth=11", "depth=11")).find("expected score=CP") !=
          std::string::npos);
    CHECK(error_of(replace("depth=11", "depth=11 x")).find("rec:") == 0);
    CHECK(error_of(replace("Result: defenders", "Result: nobody")).find("result must be") !=
          std::string::npos);
    CHECK(error_of(replace("Start: ", "Begin: ")).find("no 'Start:'") != std::string::npos);
    CHECK(error_of(replace("Opening: start", "Opening start")).find("'Key: value'") !=
          std::string::npos);
    CHECK(record_file_name(12) == "game-00012.txt");
    CHECK(is_record_file_name(record_file_name(123456)));
    CHECK_FALSE(is_record_file_name("summary.jsonl"));
}

// ---------------------------------------------------------------- schedule

TEST_CASE("The schedule: encounters, sides, openings and -repeat pairs", "[match]") {
    // number, round, first, second, attackers, defenders, opening, pair
    auto game = [](int64_t number, int64_t round, int first, int second, int attackers,
                   int64_t opening, int64_t pair) {
        return ScheduledGame{number,  round,     first,
                             second,  attackers, attackers == first ? second : first,
                             opening, pair};
    };
    // Two engines, four games: the sides alternate, one opening a game.
    CHECK(make_schedule(2, 1, 4, false) ==
          std::vector<ScheduledGame>{game(1, 1, 0, 1, 0, 0, -1), game(2, 1, 0, 1, 1, 1, -1),
                                     game(3, 1, 0, 1, 0, 2, -1), game(4, 1, 0, 1, 1, 3, -1)});
    // -repeat: the two games of a pair share its opening, sides swapped.
    CHECK(make_schedule(2, 1, 4, true) ==
          std::vector<ScheduledGame>{game(1, 1, 0, 1, 0, 0, 0), game(2, 1, 0, 1, 1, 0, 0),
                                     game(3, 1, 0, 1, 0, 1, 1), game(4, 1, 0, 1, 1, 1, 1)});
    // An odd number of games: the last one has an opening of its own, and
    // the next round goes on with new openings.
    CHECK(make_schedule(2, 2, 3, true) ==
          std::vector<ScheduledGame>{game(1, 1, 0, 1, 0, 0, 0), game(2, 1, 0, 1, 1, 0, 0),
                                     game(3, 1, 0, 1, 0, 1, 1), game(4, 2, 0, 1, 0, 2, 2),
                                     game(5, 2, 0, 1, 1, 2, 2), game(6, 2, 0, 1, 0, 3, 3)});
    // Three engines: every pair in -engine order, each encounter whole.
    CHECK(make_schedule(3, 1, 2, false) ==
          std::vector<ScheduledGame>{game(1, 1, 0, 1, 0, 0, -1), game(2, 1, 0, 1, 1, 1, -1),
                                     game(3, 1, 0, 2, 0, 2, -1), game(4, 1, 0, 2, 2, 3, -1),
                                     game(5, 1, 1, 2, 1, 4, -1), game(6, 1, 1, 2, 2, 5, -1)});
    // Rounds times pairs times games, numbered in order.
    const auto big = make_schedule(4, 3, 5, true);
    REQUIRE(big.size() == 3 * 6 * 5);
    for (size_t i = 0; i < big.size(); ++i) CHECK(big[i].number == int64_t(i) + 1);
    CHECK(big.back().round == 3);
    CHECK(big.back().opening == 3 * 6 * 3 - 1);
}

// ---------------------------------------------------------------- end to end

TEST_CASE("A short match between two random engines", "[match]") {
    fs::path dir = temp_dir("random");
    MatchConfig c = config_for(scripted("r1", {"--seed", "1"}, "10+0.1"),
                               scripted("r2", {"--seed", "2"}, "10+0.1"), 4);
    c.repeat = true;
    c.out_dir = dir.string();
    c.openings.kind = OpeningSource::Kind::RANDOM;
    c.openings.plies = 4;
    c.openings.depth = 2;
    MatchResult r = play_match(c);
    CHECK(r.games_played == 4);
    REQUIRE(r.pairs.size() == 1);
    CHECK(r.pairs[0].total.games() == 4);
    CHECK(r.pairs[0].penta.pairs() == 2);
    CHECK(count_lines(dir / "summary.jsonl") == 4);
    for (const GameSummary& g : r.games) {
        CHECK((g.winner == "attackers" || g.winner == "defenders" || g.winner == "draw"));
        CHECK(g.reason != "illegal-move");
        CHECK(g.reason != "crash");
        CHECK(g.reason != "time-forfeit");
        std::string rec = read_file(dir / g.record);
        CHECK(rec.find("Rules: dim:7") != std::string::npos);
        CHECK(rec.find("Result: " + g.winner) != std::string::npos);
        CHECK(rec.find("Final: ") != std::string::npos);
        CHECK(rec.find("Opening-Moves: ") != std::string::npos);
        CHECK(rec.find("\n1 a ") != std::string::npos); // the first ply, attackers
    }
    // The two games of a pair share the opening and swap the sides.
    CHECK(r.games.size() == 4);
    std::vector<GameSummary> sorted = r.games;
    std::sort(sorted.begin(), sorted.end(), [](auto& x, auto& y) { return x.game < y.game; });
    CHECK(sorted[0].opening == sorted[1].opening);
    CHECK(sorted[0].attackers == sorted[1].defenders);
    CHECK(sorted[0].opening != sorted[2].opening);
    // A second match never overwrites the first one's games.
    std::ostringstream out;
    MatchResult again = run_match(c, out, false);
    CHECK_FALSE(again.ok);
    CHECK(count_lines(dir / "summary.jsonl") == 4);
    fs::remove_all(dir);
}

TEST_CASE("An engine that plays an illegal move loses, and the match goes on", "[match]") {
    MatchConfig c = config_for(scripted("cheat", {"--mode", "illegal", "--after", "2"}),
                               scripted("fair", {"--seed", "5"}), 2);
    MatchResult r = play_match(c);
    CHECK(r.games_played == 2);
    auto reasons = loss_reasons(r, "cheat");
    CHECK(reasons == std::vector<std::string>{"illegal-move", "illegal-move"});
    for (const GameSummary& g : r.games) CHECK(g.detail.find("illegal move") != std::string::npos);
}

TEST_CASE("An engine that sends a malformed move loses", "[match]") {
    MatchConfig c = config_for(scripted("garbled", {"--mode", "malformed", "--after", "1"}),
                               scripted("fair", {"--seed", "5"}), 2);
    MatchResult r = play_match(c);
    CHECK(r.games_played == 2);
    CHECK(loss_reasons(r, "garbled") == std::vector<std::string>{"malformed", "malformed"});
}

TEST_CASE("An engine that prints a line of megabytes is read within bounds and plays on",
          "[match]") {
    MatchConfig c = config_for(scripted("flood", {"--mode", "flood", "--after", "2"}),
                               scripted("fair", {"--seed", "5"}), 2);
    MatchResult r = play_match(c);
    CHECK(r.games_played == 2);
    // The runaway line is cut and read as one unknown line; the moves after
    // it count as ever.
    for (const GameSummary& g : r.games) {
        CHECK(g.plies > 4);
        CHECK(g.reason != "malformed");
        CHECK(g.reason != "time-forfeit");
    }
}

TEST_CASE("An engine that crashes loses and is restarted for the next game", "[match]") {
    fs::path dir = temp_dir("crash");
    MatchConfig c = config_for(scripted("crasher", {"--mode", "crash", "--after", "2"}),
                               scripted("fair", {"--seed", "5"}), 3);
    c.out_dir = dir.string();
    MatchResult r = play_match(c);
    CHECK(r.games_played == 3);
    CHECK(loss_reasons(r, "crasher") == std::vector<std::string>{"crash", "crash", "crash"});
    CHECK(count_lines(dir / "summary.jsonl") == 3);
    CHECK(read_file(dir / "game-00003.txt").find("Reason: crash") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("An engine that dies in the middle of a line loses by crash, its half line unread",
          "[match]") {
    for (const char* protocol : {"uci", "otep"}) {
        INFO(protocol);
        fs::path dir = temp_dir(std::string("midline-") + protocol);
        MatchConfig c = config_for(
            scripted("cut", {"--mode", "midline", "--after", "3", "--protocol", protocol}),
            scripted("fair", {"--seed", "5"}), 2);
        for (EngineConfig& e : c.engines) {
            e.proto = protocol;
            if (e.name == "fair") e.args.insert(e.args.end(), {"--protocol", protocol});
        }
        c.out_dir = dir.string();
        MatchResult r = play_match(c);
        CHECK(r.games_played == 2);
        CHECK(loss_reasons(r, "cut") == std::vector<std::string>{"crash", "crash"});
        CHECK(count_lines(dir / "summary.jsonl") == 2);
        fs::remove_all(dir);
    }
}

TEST_CASE("An engine that never answers loses on time and is restarted", "[match]") {
    MatchConfig c = config_for(scripted("sleeper", {"--mode", "hang", "--after", "1"}, "st=0.05"),
                               scripted("fair", {"--seed", "5"}, "st=0.05"), 2);
    c.time_margin_ms = 300; // room for a loaded machine (sanitizers, parallel tests)
    c.recover_grace_ms = 200;
    MatchResult r = play_match(c);
    CHECK(r.games_played == 2);
    CHECK(loss_reasons(r, "sleeper") == std::vector<std::string>{"time-forfeit", "time-forfeit"});
    for (const GameSummary& g : r.games)
        CHECK(g.detail.find("stopped answering") != std::string::npos);
}

TEST_CASE("A slow engine loses on time but is kept when it answers again", "[match]") {
    MatchConfig c = config_for(
        scripted("slow", {"--mode", "slow", "--after", "1", "--delay", "700"}, "st=0.05"),
        scripted("fair", {"--seed", "5"}, "st=0.05"), 2);
    c.time_margin_ms = 250;
    c.recover_grace_ms = 3000;
    MatchResult r = play_match(c);
    CHECK(r.games_played == 2);
    CHECK(loss_reasons(r, "slow") == std::vector<std::string>{"time-forfeit", "time-forfeit"});
    for (const GameSummary& g : r.games)
        CHECK(g.detail.find("stopped answering") == std::string::npos);
}

TEST_CASE("An engine that does not start stops the match before it begins", "[match]") {
    MatchConfig c =
        config_for(scripted("mute", {"--mode", "nohello"}), scripted("fair", {"--seed", "5"}), 2);
    c.handshake_ms = 300;
    std::ostringstream out;
    MatchResult r = run_match(c, out, false);
    CHECK_FALSE(r.ok);
    CHECK(r.error.find("mute") != std::string::npos);
    EngineConfig missing = scripted("ghost", {});
    missing.cmd = "/nonexistent/engine";
    MatchResult r2 = run_match(config_for(missing, scripted("fair", {}), 1), out, false);
    CHECK_FALSE(r2.ok);
}

TEST_CASE("Adjudication: max plies and agreed scores", "[match]") {
    MatchConfig c = config_for(scripted("r1", {"--seed", "1"}), scripted("r2", {"--seed", "2"}), 2);
    c.max_plies = 6;
    MatchResult r = play_match(c);
    for (const GameSummary& g : r.games) {
        CHECK(g.winner == "draw");
        CHECK(g.reason == "max-plies");
        CHECK(g.plies == 6);
    }
    MatchConfig d = config_for(scripted("sure", {"--seed", "1", "--score", "900"}),
                               scripted("doomed", {"--seed", "2", "--score", "-900"}), 2);
    d.resign = {3, 500};
    const fs::path dir = temp_dir("adjudicated");
    d.out_dir = dir.string();
    MatchResult q = play_match(d);
    CHECK(q.games_played == 2);
    for (const GameSummary& g : q.games) {
        CHECK(g.reason == "adjudication");
        CHECK(g.score1 == 1); // "sure" wins with either side
        CHECK(g.plies == 6);  // three moves each
    }
    // Each ply keeps its engine's score and the depth of the line that
    // carried it (not the deeper line after it, which had none).
    auto record = read_record((dir / record_file_name(1)).string());
    REQUIRE(record.ok());
    REQUIRE(record->plies.size() == 6);
    for (const RecordPly& p : record->plies) {
        REQUIRE(p.score_cp);
        CHECK(std::abs(*p.score_cp) == 900);
        CHECK(p.score_depth == 7);
    }
}

TEST_CASE("SPRT stops the match as soon as it decides", "[match]") {
    // Two equal random engines tested for a 200..400 Elo gain: H0 comes fast.
    MatchConfig c =
        config_for(scripted("r1", {"--seed", "11"}), scripted("r2", {"--seed", "12"}), 200);
    c.sprt = SprtParams{200, 400, 0.05, 0.05};
    c.repeat = true;
    c.concurrency = 2;
    std::string text;
    MatchResult r = play_match(c, &text);
    CHECK(r.decision == SprtDecision::H0);
    CHECK(r.games_played < 200);
    REQUIRE(r.llr);
    CHECK(*r.llr <= c.sprt->lower_bound());
    CHECK(text.find("LLR") != std::string::npos);
    CHECK(text.find("H0 accepted") != std::string::npos);
}

TEST_CASE("No game is handed back once the match is stopped", "[match]") {
    // Two workers finish games at about the same time: the one that ends
    // while the other's `done` stops the match must be dropped (a late game
    // could otherwise undo an SPRT decision). Several runs, as it is a race.
    const std::vector<EngineConfig> engines = {scripted("r1", {"--seed", "1"}),
                                               scripted("r2", {"--seed", "2"})};
    GameConfig base;
    base.edition = *Edition::make(*preset_rules("brandubh"));
    base.preset = "brandubh";
    base.max_plies = 400;
    base.time_margin_ms = 300;
    OpeningBook book;
    REQUIRE(book.load(OpeningSource{}, base.edition, 1));
    const auto schedule = make_schedule(2, 1, 40, true);
    for (int run = 0; run < 8; ++run) {
        GameSetup rules;
        rules.preset = base.preset;
        Workers workers(engines, rules, 2, std::chrono::milliseconds(5000));
        REQUIRE(workers.start_engines());
        int calls = 0;
        workers.run(schedule, base, book, [&](const PlayedGame&) {
            // Hold the lock a while, as a slow `done` (files, printing) would.
            ++calls;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            return false;
        });
        CHECK(calls == 1);
    }
}

TEST_CASE("Openings from files, in TFEN and as moves", "[match]") {
    fs::path dir = temp_dir("openings");
    {
        std::ofstream f(dir / "o.tfen");
        f << "# two positions\n3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1\n\n"
          << "3t3/3t3/3T3/ttTKTt1/3T2t/3t3/3t3 d 0 1\n";
        std::ofstream g(dir / "o.moves");
        g << "1. d1-c1 d3-c3\n";
    }
    MatchConfig c = config_for(scripted("r1", {"--seed", "1"}), scripted("r2", {"--seed", "2"}), 2);
    c.out_dir = (dir / "a").string();
    c.openings.kind = OpeningSource::Kind::FILE;
    c.openings.path = (dir / "o.tfen").string();
    c.openings.format = "tfen";
    MatchResult r = play_match(c);
    CHECK(r.games_played == 2);
    std::string second = read_file(dir / "a" / "game-00002.txt");
    CHECK(second.find("Opening-Root: 3t3/3t3/3T3/ttTKTt1/3T2t/3t3/3t3 d 0 1") != std::string::npos);
    CHECK(second.find("\n1 d ") != std::string::npos); // the defenders move first there

    c.out_dir = (dir / "b").string();
    c.openings.path = (dir / "o.moves").string();
    c.openings.format = "moves";
    r = play_match(c);
    CHECK(read_file(dir / "b" / "game-00001.txt").find("Opening-Moves: d1-c1 d3-c3") !=
          std::string::npos);

    c.openings.path = (dir / "missing.txt").string();
    std::ostringstream out;
    CHECK_FALSE(run_match(c, out, false).ok);
    fs::remove_all(dir);
}

TEST_CASE("Concurrency, several engines, and the OTEP adapter", "[match]") {
    MatchConfig c;
    c.engines = {scripted("u1", {"--seed", "1"}), scripted("u2", {"--seed", "2"}),
                 scripted("o3", {"--seed", "3", "--protocol", "otep"})};
    c.engines[2].proto = "otep";
    c.games = 2;
    c.concurrency = 3;
    c.max_plies = 400;
    MatchResult r = play_match(c);
    CHECK(r.games_played == 6); // three pairs, two games each
    CHECK(r.pairs.size() == 3);
    for (const GameSummary& g : r.games) {
        INFO(g.detail);
        CHECK(g.reason != "illegal-move");
        CHECK(g.reason != "crash");
        CHECK(g.reason != "time-forfeit");
        CHECK(g.reason != "malformed");
    }
}

TEST_CASE("The branan-match program: match, merge, plot", "[match]") {
    fs::path dir = temp_dir("program");
    const std::string bin = BRANAN_MATCH_BINARY, eng = BRANAN_SCRIPTED_ENGINE;
    for (const char* run : {"a", "b"}) {
        std::string cmd = bin + " -engine cmd=" + eng +
                          " name=x arg=--seed arg=1 -engine cmd=" + eng +
                          " name=y -each tc=5+0.05 -games 4 -repeat -srand 3" +
                          " -openings random plies=4 depth=1 -maxplies 300 -out " +
                          (dir / run).string() + " > " + (dir / run).string() + ".log 2>&1";
        REQUIRE(run_command(cmd) == 0);
    }
    std::string log = read_file(dir / "a.log");
    CHECK(log.find("Games 4/4") != std::string::npos);
    CHECK(log.find("x vs y") != std::string::npos);
    REQUIRE(run_command(bin + " merge " + (dir / "a" / "summary.jsonl").string() + " " +
                        (dir / "b" / "summary.jsonl").string() + " -o " +
                        (dir / "all.jsonl").string() + " 2> " + (dir / "merge.log").string()) == 0);
    CHECK(count_lines(dir / "all.jsonl") == 8);
    CHECK(read_file(dir / "merge.log").find("merged 8 games") != std::string::npos);
    // merging the same file twice drops the duplicates
    REQUIRE(run_command(bin + " merge " + (dir / "all.jsonl").string() + " " +
                        (dir / "all.jsonl").string() + " > " + (dir / "twice.jsonl").string() +
                        " 2>/dev/null") == 0);
    CHECK(count_lines(dir / "twice.jsonl") == 8);
    // -sprt: the LLR of the games read (4 complete pairs of x against y).
    REQUIRE(run_command(bin + " merge " + (dir / "all.jsonl").string() +
                        " -sprt elo0=0 elo1=15 -o /dev/null 2> " + (dir / "sprt.log").string()) ==
            0);
    CHECK(read_file(dir / "sprt.log").find("SPRT elo0=0 elo1=15 (pentanomial): LLR ") !=
          std::string::npos);
    CHECK(run_command(bin + " merge " + (dir / "all.jsonl").string() +
                      " -sprt elo0=zero -o /dev/null 2>/dev/null") == 2);

    // The plot, drawn in-process from a summary with both wins and losses.
    std::vector<GameSummary> games;
    const std::string run_name = "p", x = "x", y = "y";
    for (int i = 0; i < 40; ++i) {
        GameSummary g;
        g.run = run_name;
        g.game = i + 1;
        g.engine1 = x;
        g.engine2 = y;
        g.score1 = i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : 0.5;
        games.push_back(g);
    }
    std::string svg, err;
    REQUIRE(plot_svg(games, svg, err));
    CHECK(svg.rfind("<svg", 0) == 0);
    CHECK(svg.find("<polyline") != std::string::npos);
    CHECK(svg.find("<polygon") != std::string::npos);
    CHECK(svg.find("</svg>") != std::string::npos);
    // ... and by the program from the merged file (which may be one-sided: then it says so)
    int rc = run_command(bin + " plot " + (dir / "all.jsonl").string() + " -o " +
                         (dir / "all.svg").string() + " > /dev/null 2>&1");
    CHECK((rc == 0 || rc == 1));
    if (rc == 0) CHECK(read_file(dir / "all.svg").find("</svg>") != std::string::npos);
    CHECK(run_command(bin + " -engine cmd=x > /dev/null 2>&1") == 2);
    fs::remove_all(dir);
}

// Off until the lead enables it (set to true): two real engines, where the
// referee must see only normal game ends. With it on, the test still skips
// (with a warning) while the branan binary does not exist.
constexpr bool REAL_BRANAN_MATCH_ENABLED = true;

TEST_CASE("Two real branan instances play a short match", "[match]") {
#ifdef BRANAN_BINARY
    const std::string branan = BRANAN_BINARY;
#else
    const std::string branan;
#endif
    if (!REAL_BRANAN_MATCH_ENABLED) {
        WARN("skipped: not enabled yet (REAL_BRANAN_MATCH_ENABLED in tests/test_match.cpp)");
        SUCCEED("skipped");
        return;
    }
    if (branan.empty() || access(branan.c_str(), X_OK) != 0) {
        WARN("skipped: the branan binary '" << branan << "' does not exist yet");
        SUCCEED("skipped");
        return;
    }
    EngineConfig a;
    a.name = "branan-a";
    a.cmd = branan;
    std::string err;
    a.tc = *parse_time_control("st=0.05", err);
    EngineConfig b = a;
    b.name = "branan-b";
    MatchConfig c = config_for(a, b, 2);
    c.repeat = true;
    c.max_plies = 200;
    c.time_margin_ms = 500; // a sanitizer build on a busy machine
    c.openings.kind = OpeningSource::Kind::RANDOM;
    c.openings.plies = 4;
    c.openings.depth = 1;
    std::ostringstream out;
    MatchResult r = run_match(c, out, false);
    INFO(out.str());
    REQUIRE(r.ok);
    CHECK(r.games_played == 2);
    for (const GameSummary& g : r.games) testutil::check_no_fault(g);
}

TEST_CASE(
    "A real branan gets its options under the match's rules and a refused one stops the match",
    "[match]") {
    const std::string branan = BRANAN_BINARY;
    REQUIRE(access(branan.c_str(), X_OK) == 0);
    const fs::path dir = temp_dir("net-option");
    const std::string net9 = (dir / "net9.nnue").string(), net7 = (dir / "net7.nnue").string();
    std::ofstream(net9, std::ios::binary) << testutil::random_net_file(9, 3, 16, 8, 41);
    std::ofstream(net7, std::ios::binary) << testutil::random_net_file(7, 3, 16, 8, 42);
    EngineConfig net;
    net.name = "net";
    net.cmd = branan;
    std::string err;
    net.tc = *parse_time_control("st=0.05", err);
    net.options = {{"EvalFile", net9}};
    EngineConfig hand = net;
    hand.name = "hand";
    hand.options = {{"Use NNUE", "false"}};
    MatchConfig c = config_for(net, hand, 2);
    c.preset = "tablut";
    c.max_plies = 12;
    c.time_margin_ms = 500;
    // The engine starts on Brandubh's 7x7 board: a 9x9 net fits only once
    // the match's rules are set, so they go first.
    std::ostringstream out;
    MatchResult r = run_match(c, out, false);
    INFO(out.str() << r.error);
    REQUIRE(r.ok);
    CHECK(r.games_played == 2);
    for (const GameSummary& g : r.games) testutil::check_no_fault(g);
    // A 7x7 net for a 9x9 match: the engine refuses it, and the match does
    // not begin without it.
    c.engines[0].options = {{"EvalFile", net7}};
    MatchResult refused = run_match(c, out, false);
    CHECK_FALSE(refused.ok);
    CHECK(refused.games_played == 0);
    CHECK_THAT(refused.error, Catch::Contains("'net'") && Catch::Contains("EvalFile") &&
                                  Catch::Contains("7x7 boards"));
    fs::remove_all(dir);
}
