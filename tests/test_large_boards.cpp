// Boards above 11x11: OpenTafl's Sea Battle 13x13, Tablut 15x15 and Alea
// Evangelii 19x19, and hnefatafl.org's 13x13. Perft from the references
// (../shared/OTN.md "Perft from OpenTafl's own classes", ../shared/
// HNEFATAFL.md 3.3), counted by the engine on the board width it searches
// with; whole games over OTEP with the strings OpenTafl sends; branan-match
// end to end on each, and on Berserk with an OTEP engine (chains over both
// protocols).

#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "board.h"
#include "engine.h"
#include "match/match.h"
#include "match_checks.h"
#include "movegen.h"
#include "notation.h"
#include "otep_turns.h"
#include "pipe_host.h"
#include "rules.h"
#include "tune/extract.h"

using namespace branan;
using branan::testutil::Host;

namespace {

uint64_t engine_perft(Engine& e, int depth) {
    uint64_t total = 0;
    for (const auto& [move, count] : e.perft_divide(depth)) total += count;
    return total;
}

struct Reference {
    const char* preset;
    int bits;
    std::vector<uint64_t> perft; // depth 1, 2, ...
};

const Reference REFERENCES[] = {
    {"opentafl-sea-battle-13", 256, {184, 23436, 4370608}},
    {"opentafl-tablut-15", 256, {264, 35584, 9420728}},
    {"alea-evangelii", 384, {580, 107492}},
    {"hnefatafl-org-13", 256, {180, 20348, 3717064}},
};

} // namespace

TEST_CASE("large boards: perft from the starts is the references'", "[large][perft]") {
    for (const Reference& r : REFERENCES) {
        INFO(r.preset);
        Engine e;
        REQUIRE(e.set_preset(r.preset));
        auto rules = preset_rules(r.preset);
        REQUIRE(rules.ok());
        CHECK(board_bits(rules->size) == r.bits);
        for (size_t d = 0; d < r.perft.size(); ++d)
            CHECK(engine_perft(e, int(d + 1)) == r.perft[d]);
    }
}

TEST_CASE("large boards: Alea Evangelii perft 3 is OTN.md's", "[large][perft][slow]") {
    Engine e;
    REQUIRE(e.set_preset("alea-evangelii"));
    CHECK(engine_perft(e, 3) == 62185588);
}

TEST_CASE("large boards: hnefatafl.org 13x13 perft 4, on the server and in the library",
          "[large][perft][.slow]") {
    // The server's list of earlier boards lacks the 13x13 start (dbans:n,
    // the preset); the library's has it, which bans 20,108 leaves.
    Engine e;
    REQUIRE(e.set_preset("hnefatafl-org-13"));
    CHECK(engine_perft(e, 4) == 430894764);
    auto rules = preset_rules("hnefatafl-org-13");
    REQUIRE(rules.ok());
    rules->ban_includes_start = true;
    REQUIRE(e.set_rules(print_rules(*rules)));
    CHECK(engine_perft(e, 4) == 430874656);
}

TEST_CASE("large boards: OpenTafl's strings get whole games over OTEP", "[large][otep]") {
    for (const Preset& p : presets()) {
        auto rules = preset_rules(p.name);
        REQUIRE(rules.ok());
        if (board_bits(rules->size) == BOARD_WIDTHS[0].bits || p.reading != RulesReading::BY_SIDE)
            continue;
        INFO(p.name);
        auto edition = Edition::make(*rules);
        REQUIRE(edition.ok());
        Host host({"--protocol", "otep", "--otep-depth", "2"});
        REQUIRE(host.read_line(2000) == "hello");
        host.send(std::string("rules ") + p.rules);
        Position pos(*edition);
        std::mt19937 rng(13);
        for (int ply = 0; ply < 24 && !pos.result().over(); ++ply) {
            if (pos.side_to_move() == DEFENDERS) {
                testutil::otep_engine_move(host, pos);
            } else {
                MoveList list;
                generate_moves(pos, list);
                REQUIRE(list.size() > 0);
                const Move m = list.moves[rng() % list.size()];
                const std::string record = move_record(pos, m);
                pos.make_move(m);
                if (!pos.result().over())
                    host.send("opponent-move " + record + " " + to_opentafl_position(pos));
            }
        }
        host.send("finish 0");
        host.send("goodbye");
        CHECK(host.wait_exit() == 0);
    }
}

namespace {

// branan-match plays two games of a preset, `b` over `b_proto`, from random
// openings: none ends by a fault, and extract replays both records.
void check_match_end_to_end(const std::string& preset, const std::string& b_proto) {
    const std::string branan = BRANAN_BINARY;
    REQUIRE(access(branan.c_str(), X_OK) == 0);
    INFO(preset);
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("branan-large-" + std::to_string(getpid()) + "-" + preset);
    std::filesystem::remove_all(dir);
    match::EngineConfig a;
    a.name = "a";
    a.cmd = branan;
    std::string err;
    a.tc = *match::parse_time_control("st=5", err);
    a.tc.nodes = 400;
    match::EngineConfig b = a;
    b.name = "b";
    b.proto = b_proto;
    if (b_proto != "uci") {
        // An OTEP engine thinks by the clock: a short one.
        b.args = {"--protocol", b_proto};
        b.tc = *match::parse_time_control("st=0.2", err);
    }
    match::MatchConfig c;
    c.engines = {a, b};
    c.games = 2;
    c.repeat = true;
    c.preset = preset;
    c.max_plies = 80;
    c.time_margin_ms = 2000;
    c.handshake_ms = 5000;
    c.out_dir = dir.string();
    c.openings.kind = match::OpeningSource::Kind::RANDOM;
    c.openings.plies = 2;
    c.openings.depth = 1;
    std::ostringstream out;
    const match::MatchResult r = match::run_match(c, out, false);
    INFO(out.str());
    REQUIRE(r.ok);
    CHECK(r.games_played == 2);
    for (const match::GameSummary& g : r.games) testutil::check_no_fault(g);
    tune::ExtractOptions o;
    o.skip_opening = 0;
    tune::Extractor x(o);
    const Status st = x.add_path(dir.string());
    INFO(st.error());
    CHECK(st.ok());
    CHECK(x.stats().games == 2);
    CHECK(x.stats().plies > 0);
    std::filesystem::remove_all(dir);
}

} // namespace

TEST_CASE("large boards: branan-match plays each preset end to end and extract replays it",
          "[large][match][long]") {
    for (const Preset& p : presets()) {
        auto rules = preset_rules(p.name);
        REQUIRE(rules.ok());
        if (rules->size > 11) check_match_end_to_end(p.name, "uci");
    }
}

TEST_CASE("berserk: branan-match plays it end to end, UCI against OTEP, and extract replays it",
          "[berserk][match]") {
    check_match_end_to_end("opentafl-berserk", "otep");
}
