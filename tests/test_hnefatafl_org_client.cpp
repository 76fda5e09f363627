// The hnefatafl.org bot (protocol/hnefatafl_org_client.h) against the fake
// server (tools/hnefatafl_org/), on loopback: the line formats, the login
// and its refusals, whole games on 7x7 and 11x11 with real Fischer clocks,
// several games at once, and every fault the server can inject. The bot
// searches to depth 2 and the house player too unless a test says otherwise
// (one thread: the games are the same every run), so a game takes well
// under a second.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command_line.h"
#include "hnefatafl_org/hnefatafl_org_server.h"
#include "hnefatafl_org_client.h"
#include "hnefatafl_org_codec.h"
#include "hnefatafl_org_coordinates.h"
#include "notation.h"
#include "test_helpers.h"
#include "text.h"

using namespace branan;
using namespace branan::org;
using branan::testutil::contains;
using branan::testutil::read_file;

namespace {

EditionPtr hnefatafl_org_edition(int size) {
    auto e = server_edition(size);
    REQUIRE(e.ok());
    return *e;
}

struct BotRun {
    int status = -1;
    std::string out, err;
};

// The bot at depth 3 against the house at depth 1 on 11x11 plays on to the
// server's ply limit (the 133rd ply draws). The game is the default
// weights' own: with the bot at depth 2 the house's defenders now win at
// ply 34 (they did not before the 11x11 corner guards weighed more).
ServerOptions to_the_ply_limit() {
    ServerOptions so;
    so.house_depth = 1;
    return so;
}

HnefataflOrgOptions bot_options() {
    HnefataflOrgOptions o;
    o.host = "127.0.0.1";
    o.user = "branan";
    o.password = "secret";
    o.create[ATTACKERS] = true;
    o.board_size = 11;
    o.time = {true, 30'000, 1};
    o.games = 1;
    o.depth = 2;
    o.hash_mb = 1;
    o.margin_ms = 200;
    o.connect_timeout_ms = 2000;
    o.reply_timeout_ms = 2000;
    o.backoff_ms = 20;
    o.backoff_max_ms = 200;
    o.max_reconnects = 8;
    return o;
}

HnefataflOrgOptions ply_limit_bot() {
    HnefataflOrgOptions o = bot_options();
    o.depth = 3;
    return o;
}

struct Run {
    BotRun bot;
    std::vector<GameReport> games;
    std::vector<std::string> received; // by the server, from the bot
    int logins = 0;
    std::string log;

    // The games that were played (a challenger joined).
    std::vector<GameReport> played() const {
        std::vector<GameReport> out;
        for (const GameReport& g : games)
            if (!g.attacker.empty()) out.push_back(g);
        return out;
    }
    bool sent(const std::string& prefix) const {
        for (const std::string& l : received)
            if (l.rfind(prefix, 0) == 0) return true;
        return false;
    }
};

// The server on its own thread for at most `ms`; the bot on this one.
Run play_on_server(ServerOptions so, HnefataflOrgOptions o, int64_t ms = 60'000) {
    Server server;
    std::ostringstream log;
    REQUIRE(server.open(so, &log).ok());
    o.port = server.port();
    std::thread serving([&] { server.run(ms); });
    Run run;
    std::ostringstream out, err;
    run.bot.status = run_hnefatafl_org_bot(o, out, err);
    run.bot.out = out.str();
    run.bot.err = err.str();
    server.stop();
    serving.join();
    run.games = server.reports();
    run.received = server.received();
    run.logins = server.logins();
    run.log = log.str();
    UNSCOPED_INFO("server log (end):\n"
                  << run.log.substr(run.log.size() > 6000 ? run.log.size() - 6000 : 0));
    UNSCOPED_INFO("bot: " << run.bot.status << "\n" << run.bot.out << run.bot.err);
    UNSCOPED_INFO("games: " << run.games.size() << ", played: " << run.played().size());
    return run;
}

// A game the bot played cleanly: over, no illegal move, its clock never out.
void check_clean(const GameReport& g, const std::string& bot = "branan") {
    INFO("game " << g.id << " " << g.result << " (" << g.reason << ")");
    CHECK(!g.result.empty());
    CHECK(g.illegal == 0);
    CHECK(g.repeated_refused == 0);
    CHECK(!g.declined);
    CHECK(!contains(g.reason, "time"));
    for (Side s : {ATTACKERS, DEFENDERS})
        if ((s == ATTACKERS ? g.attacker : g.defender) == bot && g.time.timed)
            CHECK(g.final_ms_left[s] > 0);
}

// One 7x7 game against a server with these faults: the bot exits 0 after
// it, and the game is clean.
Run one_clean_7x7_game(const ServerOptions& so) {
    HnefataflOrgOptions o = bot_options();
    o.board_size = 7;
    Run run = play_on_server(so, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    check_clean(run.played()[0]);
    return run;
}

} // namespace

// ------------------------------------------------------------------ formats

TEST_CASE("hnefatafl.org squares follow the board size", "[hnefatafl-org]") {
    const EditionPtr e11 = hnefatafl_org_edition(11), e7 = hnefatafl_org_edition(7);
    CHECK(org_square_name(e11->size, 0) == "a1");
    CHECK(org_square_name(e11->size, 120) == "k11");
    CHECK(org_square_name(e7->size, 0) == "0a1");
    CHECK(org_square_name(e7->size, 48) == "0g7");
    CHECK(*parse_org_square(e11->size, "d1") == 3);
    CHECK(*parse_org_square(e7->size, "0d4") == 24);
    CHECK(!parse_org_square(e11->size, "D1").ok()); // the server reads it as 13x13
    CHECK(!parse_org_square(e7->size, "d4").ok());
    CHECK(!parse_org_square(e11->size, "l1").ok());
    auto r13 = server_rules(13);
    REQUIRE(r13.ok());
    CHECK(r13->size == 13);
    CHECK(*r13 == *preset_rules("hnefatafl-org-13"));
    CHECK(*parse_org_square(13, "D1") == 3);
    CHECK(org_square_name(13, 168) == "M13");
    CHECK(!parse_org_square(13, "N1").ok());
    CHECK(!server_rules(9).ok());
    Position p7(e7);
    CHECK(p7.side_to_move() == DEFENDERS); // 7x7: defenders first
    Position p11(e11);
    CHECK(p11.side_to_move() == ATTACKERS);
}

TEST_CASE("hnefatafl.org line formats", "[hnefatafl-org]") {
    NewGame ng;
    ng.role = ATTACKERS;
    ng.rated = true;
    ng.time = {true, 900'000, 10};
    ng.board_size = 11;
    // HNEFATAFL.md 4.3, field for field.
    CHECK(
        new_game_json(ng) ==
        R"({"role":"Attacker","rated":true,"time_settings":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"board_size":11})");
    auto back = parse_new_game_json(new_game_json(ng));
    REQUIRE(back.ok());
    CHECK(back->time == ng.time);
    ng.time = {false, 0, 0};
    ng.role = DEFENDERS;
    CHECK(contains(new_game_json(ng), R"("role":"Defender")"));
    CHECK(contains(new_game_json(ng), R"("time_settings":"UnTimed")"));
    CHECK(!parse_new_game_json(R"({"role":"Attacker","rated":true,"board_size":11})").ok());

    auto j = parse_join_game(split_words("branan-bot rival unrated fischer 900000 10 11"));
    REQUIRE(j.ok());
    CHECK(j->attacker == "branan-bot");
    CHECK(j->time == TimeControl{true, 900000, 10});
    CHECK(join_game_words(*j) == "branan-bot rival unrated fischer 900000 10 11");
    auto u = parse_join_game(split_words("a b rated un-timed _ _ 7"));
    REQUIRE(u.ok());
    CHECK(!u->time.timed);
    CHECK(u->board_size == 7);
    CHECK(!parse_join_game(split_words("a b")).ok());

    auto t =
        parse_game_time_json(R"({"id":41,"attacker_ms_left":897412,"defender_ms_left":900000})");
    REQUIRE(t.ok());
    CHECK(t->ms_left[ATTACKERS] == 897412);
    CHECK(!parse_game_time_json("{not json").ok());

    CHECK(parse_time_control("300000+3")->add_s == 3);
    CHECK(!parse_time_control("untimed")->timed);
    CHECK(!parse_time_control("5m").ok());

    const char* resumed =
        R"({"id":41,"attackers":"a","defenders":"b","dim":11,"start":"/3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/","time_control":{"main_time_seconds":900,"increment_length":10},"time_remaining_ms":{"attackers":885694,"defenders":911981,"last_move":"2026-06-24T19:57:38.07Z"},"moves":"d1-d3 e5-e2 d3-d2xe2 f8-c8","rated":true,"messages":[]})";
    auto g = parse_resume_game_json(resumed);
    REQUIRE(g.ok());
    CHECK(g->moves.size() == 4);
    CHECK(g->ms_left[DEFENDERS] == 911981);
    CHECK(g->time == TimeControl{true, 900000, 10});
    CHECK(start_text(Position(hnefatafl_org_edition(11))) == g->start);
    // The moves replay, the capture included.
    Position pos(hnefatafl_org_edition(11));
    for (const std::string& m : g->moves) {
        auto move = parse_move_text(pos, m);
        REQUIRE(move.ok());
        CHECK(move_text(pos, *move) == m);
        pos.make_move(*move);
    }
    // The board alone, for moves Branan's rules would not replay.
    auto placed = position_from_records(hnefatafl_org_edition(11), g->moves);
    REQUIRE(placed.ok());
    CHECK(start_text(*placed) == start_text(pos));
    CHECK(placed->side_to_move() == pos.side_to_move());
    CHECK(!position_from_records(hnefatafl_org_edition(11), {"e5-e5", "a1-a2"}).ok());

    auto again = parse_resume_game_json(resume_game_json(*g));
    REQUIRE(again.ok());
    CHECK(again->moves == g->moves);
    CHECK(again->last_move_utc == g->last_move_utc);

    auto ms = parse_utc_ms("2026-06-24T19:57:38.07Z");
    REQUIRE(ms);
    CHECK(utc_text(*ms) == "2026-06-24T19:57:38.070Z");
    CHECK(!parse_utc_ms("yesterday"));
    // Before 1970 (found by fuzz_hnefatafl_org) the milliseconds stay
    // 0..999; fields out of their ranges are refused.
    const auto old = parse_utc_ms("0206-06-24T19:57:38.07Z");
    REQUIRE(old);
    CHECK(*old < 0);
    CHECK(utc_text(*old) == "0206-06-24T19:57:38.070Z");
    CHECK(parse_utc_ms(utc_text(*old)) == old);
    CHECK(!parse_utc_ms("2026-06-24T19:57:1e300Z"));
    CHECK(!parse_utc_ms("2026-13-24T19:57:38Z"));

    const auto sizes = games_updated_sizes(
        R"({"created":[[4,null,{"id":4,"board_size":"_13"}]],"removed":[],"updated":{"5":{"id":5,"board_size":"_7"}}})");
    REQUIRE(sizes.size() == 2);
    CHECK(sizes[0] == std::make_pair(int64_t(4), 13));
    CHECK(sizes[1] == std::make_pair(int64_t(5), 7));
}

// ------------------------------------------------------------------ login

TEST_CASE("hnefatafl.org: a refused login is exit status 2, never a loop", "[hnefatafl-org]") {
    SECTION("wrong version id") {
        HnefataflOrgOptions o = bot_options();
        o.version_id = "00000000";
        Run run = play_on_server({}, o);
        CHECK(run.bot.status == 2);
        CHECK(contains(run.bot.err, "version id 00000000"));
        CHECK(run.logins == 0);
    }
    SECTION("wrong password") {
        HnefataflOrgOptions o = bot_options();
        o.password = "guess";
        Run run = play_on_server({}, o);
        CHECK(run.bot.status == 2);
        CHECK(contains(run.bot.err, "refuses the login"));
        CHECK(!contains(run.bot.err, "guess"));
    }
    SECTION("unknown account") {
        HnefataflOrgOptions o = bot_options();
        o.user = "nobody";
        Run run = play_on_server({}, o);
        CHECK(run.bot.status == 2);
        CHECK(run.logins == 0);
    }
    SECTION("a board the server does not play is refused before connecting") {
        HnefataflOrgOptions o = bot_options();
        o.board_size = 9;
        Run run = play_on_server({}, o);
        CHECK(run.bot.status == 2);
        CHECK(contains(run.bot.err, "--board 9"));
        CHECK(run.received.empty());
    }
}

// ------------------------------------------------------------------ games

TEST_CASE("hnefatafl.org: a whole timed 11x11 game as the attackers", "[hnefatafl-org]") {
    Run run = play_on_server({}, bot_options());
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    const GameReport g = run.played()[0];
    check_clean(g);
    CHECK(g.attacker == "branan");
    CHECK(g.defender == "rival");
    CHECK(g.time.timed);
    CHECK(contains(run.bot.out, "game 1 "));
    CHECK(contains(run.bot.out, "against rival"));
    CHECK(contains(run.bot.out, " plies, "));
    CHECK(contains(run.bot.out, " s left"));
    CHECK(run.sent("new_game {\"role\":\"Attacker\""));
    CHECK(run.sent("join_game 1"));
    CHECK(run.sent("game 1 play attacker "));
}

TEST_CASE("hnefatafl.org: a whole 7x7 game as the defenders, who move first", "[hnefatafl-org]") {
    HnefataflOrgOptions o = bot_options();
    o.create[ATTACKERS] = false;
    o.create[DEFENDERS] = true;
    o.board_size = 7;
    o.time = {true, 10'000, 1};
    Run run = play_on_server({}, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    const GameReport g = run.played()[0];
    check_clean(g);
    CHECK(g.defender == "branan");
    CHECK(g.board_size == 7);
    CHECK(run.sent("game 1 play defender 0"));
}

TEST_CASE("hnefatafl.org: several games at once, both sides", "[hnefatafl-org]") {
    HnefataflOrgOptions o = bot_options();
    o.create[DEFENDERS] = true; // both, in turn
    o.games = 4;
    o.max_games_at_once = 2;
    ServerOptions so;
    so.house_delay_ms = 5; // the games' turns interleave
    Run run = play_on_server(so, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 4);
    int as_attacker = 0;
    for (const GameReport& g : run.played()) {
        check_clean(g);
        as_attacker += g.attacker == "branan";
    }
    CHECK(as_attacker == 2);
    // Summary lines, one per game.
    int lines = 0;
    for (std::string_view l : split(run.bot.out, '\n')) lines += l.rfind("game ", 0) == 0;
    CHECK(lines == 4);
}

TEST_CASE("hnefatafl.org: a 2 s clock, no depth limit: the clock lasts", "[hnefatafl-org]") {
    HnefataflOrgOptions o = bot_options();
    o.board_size = 7;
    o.time = {true, 2000, 0};
    o.depth = 0;
    Run run = play_on_server({}, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    const GameReport g = run.played()[0];
    check_clean(g);
    CHECK(g.min_ms_left[ATTACKERS] > 0);
}

TEST_CASE("hnefatafl.org: three games at once on 3 s clocks share the time", "[hnefatafl-org]") {
    HnefataflOrgOptions o = bot_options();
    o.create[DEFENDERS] = true;
    o.board_size = 7;
    o.time = {true, 3000, 0};
    o.depth = 0;
    o.games = 3;
    o.max_games_at_once = 3;
    Run run = play_on_server({}, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 3);
    for (const GameReport& g : run.played()) {
        check_clean(g);
        const Side bot = g.attacker == "branan" ? ATTACKERS : DEFENDERS;
        CHECK(g.min_ms_left[bot] > 0);
    }
}

TEST_CASE("hnefatafl.org: an untimed game", "[hnefatafl-org]") {
    HnefataflOrgOptions o = bot_options();
    o.time = {false, 0, 0};
    Run run = play_on_server({}, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    check_clean(run.played()[0]);
    CHECK(contains(run.bot.out, "untimed"));
}

TEST_CASE("hnefatafl.org: challenges to games of the account", "[hnefatafl-org]") {
    ServerOptions so;
    NewGame big;
    big.board_size = 13;
    NewGame small;
    small.board_size = 7;
    small.role = DEFENDERS;
    so.open_games = {big, small};
    HnefataflOrgOptions o = bot_options();
    o.create[ATTACKERS] = false;
    o.accept_challenges = true;
    Run run = play_on_server(so, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    CHECK(run.played()[0].board_size == 13); // the first challenge, on 13x13
    check_clean(run.played()[0]);
    CHECK(run.sent("join_game 1"));
}

// ------------------------------------------------------------------ faults

TEST_CASE("hnefatafl.org: a refused move is replaced by another", "[hnefatafl-org]") {
    ServerOptions so;
    so.faults.refuse_first_move = true;
    Run run = play_on_server(so, bot_options());
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    const GameReport g = run.played()[0];
    CHECK(g.refused == 1);
    check_clean(g);
}

TEST_CASE("hnefatafl.org: a refusal that comes after a stray error is still a refusal",
          "[hnefatafl-org]") {
    ServerOptions so;
    so.faults.refuse_first_move = true;
    so.faults.stray_error_first = true;
    Run run = one_clean_7x7_game(so);
    CHECK(run.played()[0].refused == 1);
    CHECK(run.sent("resume_game_json"));
}

TEST_CASE("hnefatafl.org: a dropped connection, reconnect and resume_game_json",
          "[hnefatafl-org]") {
    // The bot has the attackers: the plies after its moves are odd.
    ServerOptions so;
    HnefataflOrgOptions o = bot_options();
    int logins = 2;
    SECTION("on its turn, logged_in_already twice") {
        so.faults.drop_at_ply = 6;
        so.faults.busy_logins = 2;
    }
    SECTION("the opponent moves while it is away (the move's push is lost)") {
        so.faults.drop_at_ply = 5;
        so.faults.busy_logins = 3;
        so.house_delay_ms = 30;
        so.house_slow_plies = 8;
    }
    SECTION("back before the opponent moves: generate_move at login is not its turn") {
        so.faults.drop_at_ply = 5;
        so.house_delay_ms = 300;
        so.house_slow_plies = 8;
    }
    SECTION("the game ends while it is away: resume_game_json gets no reply") {
        so.faults.drop_at_ply = 5;
        so.faults.busy_logins = 3;
        so.faults.house_resigns_at_ply = 5;
        so.house_delay_ms = 30;
        so.house_slow_plies = 8;
        o.reply_timeout_ms = 300;
    }
    Run run = play_on_server(so, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    check_clean(run.played()[0]);
    CHECK(run.logins == logins);
    CHECK(run.sent("resume_game_json 1"));
    if (so.faults.busy_logins) CHECK(contains(run.log, "logged_in_already"));
    if (so.faults.house_resigns_at_ply > 0) CHECK(contains(run.bot.out, "no longer runs it"));
}

TEST_CASE("hnefatafl.org: draw offers are ignored in a live game, never declined",
          "[hnefatafl-org]") {
    // An offer is accepted only once the ply limit's draw is within the
    // search's reach and nothing better is in sight.
    ServerOptions so = to_the_ply_limit();
    so.faults.offer_draw_at_ply = 4;
    Run run = play_on_server(so, ply_limit_bot());
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    const GameReport g = run.played()[0];
    check_clean(g);
    CHECK(contains(run.log, "request_draw 1 defender"));
    CHECK(!run.sent("draw 1 decline"));
    CHECK(run.sent("draw 1 accept"));
    CHECK(g.result == "draw");
    CHECK(g.moves.size() >= 133 - 3 - 2); // not before the search's depth (3) reaches the limit
}

TEST_CASE("hnefatafl.org: the server's ply limit: the 133rd ply draws", "[hnefatafl-org]") {
    Run run = play_on_server(to_the_ply_limit(), ply_limit_bot());
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 1);
    const GameReport g = run.played()[0];
    check_clean(g);
    CHECK(g.result == "draw");
    CHECK(g.moves.size() == 133);
    CHECK(contains(run.bot.out, "game 1 draw (draw): branan as attacker against rival, 133 plies"));
}

TEST_CASE("hnefatafl.org: two games at once: each id-less draw goes to its game",
          "[hnefatafl-org]") {
    HnefataflOrgOptions o = bot_options();
    o.create[DEFENDERS] = true;
    o.games = 2;
    o.max_games_at_once = 2;
    ServerOptions so;
    so.house_delay_ms = 3; // the games' turns interleave
    Run run = play_on_server(so, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 2);
    for (const GameReport& g : run.played()) {
        check_clean(g);
        // The bot's summary says what the server decided (both games go to
        // the 133rd ply at depth 2: the draw that ends the second one comes
        // with no game id while the other is still running, or ended).
        const bool bot_attacks = g.attacker == "branan";
        const std::string outcome = g.result == "draw"                             ? "draw"
                                    : (g.result == "attacker_wins") == bot_attacks ? "won"
                                                                                   : "lost";
        CHECK(contains(run.bot.out, "game " + std::to_string(g.id) + " " + outcome));
    }
}

TEST_CASE("hnefatafl.org: a proven loss is resigned, or drawn when a draw is offered",
          "[hnefatafl-org]") {
    // 7x7 at depth 3: the attackers (the bot) see the king's escape coming.
    ServerOptions so;
    so.house_depth = 3;
    HnefataflOrgOptions o = bot_options();
    o.board_size = 7;
    o.depth = 3;
    SECTION("resigned") {
        Run run = play_on_server(so, o);
        CHECK(run.bot.status == 0);
        REQUIRE(run.played().size() == 1);
        check_clean(run.played()[0]);
        CHECK(run.sent("game 1 play attacker resigns _"));
        CHECK(run.played()[0].result == "defender_wins");
        CHECK(contains(run.bot.out, "game 1 lost"));
    }
    SECTION("drawn") {
        so.faults.offer_draw_at_ply = 1; // after every house move
        Run run = play_on_server(so, o);
        CHECK(run.bot.status == 0);
        REQUIRE(run.played().size() == 1);
        check_clean(run.played()[0]);
        CHECK(run.sent("draw 1 accept"));
        CHECK(!run.sent("game 1 play attacker resigns"));
        CHECK(run.played()[0].result == "draw");
        CHECK(contains(run.bot.out, "game 1 draw"));
    }
}

TEST_CASE("hnefatafl.org: the ply-limit draw, adjudication and resignation end games",
          "[hnefatafl-org]") {
    ServerOptions so;
    std::string expected;
    SECTION("the ply limit") {
        so.faults.draw_ply = 12;
        expected = "draw";
    }
    SECTION("the can't-escape adjudication") {
        so.faults.adjudicate_at_ply = 9;
        expected = "attacker_wins";
    }
    SECTION("the house resigns") {
        so.faults.house_resigns_at_ply = 5;
        expected = "attacker_wins"; // the bot has the attackers
    }
    HnefataflOrgOptions o = bot_options();
    o.games = 2;
    Run run = play_on_server(so, o);
    CHECK(run.bot.status == 0);
    REQUIRE(run.played().size() == 2);
    for (const GameReport& g : run.played()) {
        check_clean(g);
        CHECK(g.result == expected);
    }
    CHECK(contains(run.bot.out, expected == "draw" ? "game 1 draw" : "game 1 won"));
}

TEST_CASE("hnefatafl.org: malformed lines and a slow server", "[hnefatafl-org]") {
    ServerOptions so;
    so.faults.malformed = true;
    so.faults.line_delay_ms = 2;
    so.faults.chunk_bytes = 7;
    one_clean_7x7_game(so);
}

TEST_CASE("hnefatafl.org: a generate_move out of turn is no turn", "[hnefatafl-org]") {
    ServerOptions so;
    so.faults.stray_generate_move = true;
    Run run = one_clean_7x7_game(so);
    CHECK(run.played()[0].stray_generate_moves > 0);
    CHECK(!run.sent("resume_game_json"));
}

TEST_CASE("hnefatafl.org: lines of megabytes are cut at the bound and the game goes on",
          "[hnefatafl-org]") {
    // The reader holds at most a bound's worth of one line: a longer one
    // comes out in pieces of the bound, each an unknown line.
    LineBuffer lines(1000);
    std::string line;
    for (int i = 0; i < 3000; ++i) {
        lines.feed(std::string(1024, 'y'));
        while (lines.next(line)) CHECK(line.size() == 1000);
    }
    lines.feed("\n= login\n");
    while (lines.next(line) && line != "= login") CHECK(line.size() <= 1000);
    CHECK(line == "= login");

    // At the default bound the buffer grows to a megabyte for such a line,
    // and gives it back once the line is past.
    LineBuffer big;
    size_t most = 0;
    for (int i = 0; i < 3 * 128 + 1; ++i) {
        big.feed(std::string(8192, 'y'));
        most = std::max(most, big.held_bytes());
        while (big.next(line)) CHECK(line.size() == 1 << 20);
    }
    CHECK(most > (1 << 20));
    big.feed("\n= login\n");
    while (big.next(line) && line != "= login") {}
    CHECK(line == "= login");
    CHECK(big.held_bytes() <= LineBuffer::HELD_WHEN_IDLE);

    ServerOptions so;
    so.faults.overlong_line_bytes = 3 << 19; // 1.5 MiB: past the bound (1 MiB)
    Run run = one_clean_7x7_game(so);
    CHECK(run.played()[0].overlong_lines > 0);
}

// ------------------------------------------------------------------ command line

TEST_CASE("branan hnefatafl-org: command line refusals", "[hnefatafl-org]") {
    auto cli = [](std::vector<const char*> args, std::string& err) {
        args.insert(args.begin(), "branan");
        std::istringstream in;
        std::ostringstream out, e;
        const int status = run_cli(int(args.size()), args.data(), in, out, e);
        err = e.str();
        return status;
    };
    std::string err;
    unsetenv("BRANAN_PASSWORD");
    CHECK(cli({"hnefatafl-org", "--user", "b"}, err) == 2);
    CHECK(contains(err, "no password"));
    setenv("BRANAN_PASSWORD", "pw", 1);
    CHECK(cli({"hnefatafl-org", "--user", "b", "--board", "9"}, err) == 2);
    CHECK(contains(err, "9"));
    CHECK(cli({"hnefatafl-org", "--user", "b", "--create", "king"}, err) == 2);
    CHECK(cli({"hnefatafl-org", "--user", "b", "--time", "fast"}, err) == 2);
    CHECK(cli({"hnefatafl-org", "--user", "b", "--password", "x"}, err) == 2);
    unsetenv("BRANAN_PASSWORD");
    // A password file (or pipe) of megabytes without a line end is refused.
    const testutil::TempDir dir("org-password");
    const std::string path = dir / "password";
    std::ofstream(path) << std::string(1 << 20, 'p');
    CHECK(cli({"hnefatafl-org", "--user", "b", "--password-file", path.c_str()}, err) == 2);
    CHECK(contains(err, "longer than 4096 bytes"));
}

namespace {} // namespace

TEST_CASE("branan hnefatafl-org: the binary plays N games and exits 0, the password masked",
          "[hnefatafl-org]") {
    ServerOptions so;
    Server server;
    REQUIRE(server.open(so, nullptr).ok());
    std::thread serving([&] { server.run(60'000); });
    char dir_template[] = "/tmp/branan_org_XXXXXX";
    REQUIRE(mkdtemp(dir_template));
    const std::string dir = dir_template;
    const std::string pw = dir + "/pw", log = dir + "/log", out = dir + "/out";
    std::ofstream(pw) << "secret\n";
    const std::string port = std::to_string(server.port());
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(o, 1);
        execl(BRANAN_BINARY, BRANAN_BINARY, "--hash", "1", "--log-level", "debug", "--log-file",
              log.c_str(), "hnefatafl-org", "--user", "branan", "--password-file", pw.c_str(),
              "--host", "127.0.0.1", "--port", port.c_str(), "--create", "both", "--board", "7",
              "--time", "20000+1", "--games", "2", "--depth", "1", nullptr);
        _exit(127);
    }
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    bool exited = false;
    while (std::chrono::steady_clock::now() < deadline)
        if (waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            break;
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    if (!exited) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    server.stop();
    serving.join();
    const std::string log_text = read_file(log), out_text = read_file(out);
    INFO(out_text << log_text.substr(0, 3000));
    REQUIRE(exited);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(server.reports().size() == 2);
    CHECK(contains(log_text, "sent 32d9a140 login branan ********"));
    CHECK(!contains(log_text, "secret"));
    CHECK(contains(log_text, "received = login"));
    int summaries = 0;
    for (std::string_view l : split(out_text, '\n')) summaries += l.rfind("game ", 0) == 0;
    CHECK(summaries == 2);
    for (const std::string& f : {pw, log, out}) std::remove(f.c_str());
    rmdir(dir.c_str());
}
