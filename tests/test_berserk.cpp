// OpenTafl's Berserk in the engine (engine/berserk.h): perft by plies and by
// turns against OTN.md's table, and each special rule on a position of its
// own. tests/test_opentafl_model.cpp holds the engine to the independent
// model over random games.

#include <random>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "berserk.h"
#include "engine.h"
#include "notation.h"
#include "otep_turns.h"
#include "perft.h"
#include "test_helpers.h"
#include "text.h"

using namespace branan;
using namespace branan::testutil;

namespace {
const char* const BERSERK = "opentafl-berserk";
// The string OpenTafl sends (OTN.md, "Built-in variants").
const char* const OTN_BERSERK =
    "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c "
    "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/";

std::set<std::string> moves_of(const Position& pos) {
    MoveList list;
    generate_moves(pos, list);
    std::set<std::string> out;
    for (Move m : list) out.insert(move_name(pos.edition(), m));
    return out;
}

std::set<std::string> captured_names(const Position& pos) {
    std::set<std::string> out;
    for_each_square(pos.last_captured(),
                    [&](Square s) { out.insert(square_name(pos.edition(), s)); });
    return out;
}
} // namespace

TEST_CASE("berserk: perft by plies and by turns (a chain one move) is OTN.md's",
          "[berserk][perft][long]") {
    struct Count {
        const char* how;
        uint64_t (*count)(Position&, int);
        uint64_t expected[4];
    };
    for (const Count& c : {Count{"by plies", &perft, {60, 6910, 440948, 52106188}},
                           Count{"by turns", &perft_turns, {60, 6910, 441014, 52397140}}}) {
        Position pos(edition(BERSERK));
        for (int d = 1; d <= testutil::scaled_depth(4); ++d) {
            INFO(c.how << ", depth " << d);
            CHECK(c.count(pos, d) == c.expected[d - 1]);
        }
    }
}

TEST_CASE("berserk: the pieces and the rules string", "[berserk]") {
    const Position pos(edition(BERSERK));
    CHECK(pos.edition().special_moves);
    CHECK(pos.edition().commanded[ATTACKERS]);
    CHECK(pos.edition().commanded[DEFENDERS]);
    CHECK(pos.side_to_move() == DEFENDERS);
    CHECK(pos.placed_piece(sq(pos, "f2")) == ATTACKER_COMMANDER);
    CHECK(pos.placed_piece(sq(pos, "e5")) == DEFENDER_KNIGHT);
    CHECK(pos.piece_on(sq(pos, "e5")) == DEFENDER);
    CHECK(popcount(pos.commanders()) == 4);
    CHECK(popcount(pos.knights()) == 1);
    CHECK(to_tfen(pos) ==
          "3ttttt3/5c5/11/t4T4t/t3TTT3t/tc1TTKTT1ct/t3NTT3t/t4T4t/11/5c5/3ttttt3 d 0 1");
    CHECK(pos.key() == pos.compute_key());
    // Printed and read back, the rules are the same.
    auto rules = preset_rules(BERSERK);
    REQUIRE(rules.ok());
    auto again = parse_rules(print_rules(*rules));
    REQUIRE(again.ok());
    CHECK(*again == *rules);
}

TEST_CASE("berserk: a knight's capture opens a chain that only the knight moves on", "[berserk]") {
    // OTN.md's example: e7-b7 a4-b4 e5-b5 gives Ne5-b5xcb6, and the
    // defenders move again with the knight, in exactly five ways.
    Position pos(edition(BERSERK));
    play_all(pos, "e7-b7 a4-b4 e5-b5");
    CHECK(captured_names(pos) == std::set<std::string>{"b6"});
    CHECK(pos.side_to_move() == DEFENDERS);
    REQUIRE(pos.berserker() == sq(pos, "b5"));
    CHECK(moves_of(pos) == std::set<std::string>{"b5-b6", "b5-c5", "b5-d5", "b5-e5", "b5-b3"});
    CHECK_FALSE(is_legal(pos, "f4-f3")); // another defender may not move
    CHECK(pos.key() == pos.compute_key());
    // Nb5^=b3xb4: the jump takes the piece jumped over; nothing follows.
    play(pos, "b5-b3");
    CHECK(captured_names(pos) == std::set<std::string>{"b4"});
    CHECK(pos.side_to_move() == ATTACKERS);
    CHECK(pos.berserker() == NO_SQUARE);
    CHECK(pos.key() == pos.compute_key());
    // Taken back, the chain is open again, the knight and the commander back.
    pos.unmake_move();
    CHECK(pos.berserker() == sq(pos, "b5"));
    CHECK(pos.placed_piece(sq(pos, "b5")) == DEFENDER_KNIGHT);
    CHECK(pos.placed_piece(sq(pos, "b4")) == ATTACKER);
    pos.unmake_move();
    CHECK(pos.placed_piece(sq(pos, "b6")) == ATTACKER_COMMANDER);
    CHECK(pos.placed_piece(sq(pos, "e5")) == DEFENDER_KNIGHT);
    CHECK(pos.key() == pos.compute_key());
}

TEST_CASE("berserk: a quiet move ends the chain", "[berserk]") {
    Position pos(edition(BERSERK));
    play_all(pos, "e7-b7 a4-b4 e5-b5");
    play(pos, "b5-d5");
    CHECK(pos.last_captured() == 0);
    CHECK(pos.side_to_move() == ATTACKERS);
    CHECK(pos.berserker() == NO_SQUARE);
}

TEST_CASE("berserk: jumps", "[berserk]") {
    // The king jumps only from or onto a special square (kj:r), and from
    // the throne he takes the piece jumped over against it.
    Position throne = setup(BERSERK, "Kf6 tf7 ta3 ta4 Tk5", 'd');
    play(throne, "f6-f8");
    CHECK(captured_names(throne) == std::set<std::string>{"f7"});
    Position plain = setup(BERSERK, "Kd6 td7 ta3 ta4 Tk5", 'd');
    CHECK_FALSE(is_legal(plain, "d6-d8"));
    // A commander jumps without taking (cj:j); a knight takes (nj:c).
    Position commander = setup(BERSERK, "Kk6 cc3 Tc4 Tj2", 'a');
    play(commander, "c3-c5");
    CHECK(commander.last_captured() == 0);
    CHECK(commander.placed_piece(sq(commander, "c5")) == ATTACKER_COMMANDER);
    Position knight = setup(BERSERK, "Kk6 Nc3 tc4 tb11", 'd');
    play(knight, "c3-c5");
    CHECK(captured_names(knight) == std::set<std::string>{"c4"});
    // Nobody jumps a commander, a knight or the king.
    Position over = setup(BERSERK, "Kk6 Nc3 cc4 tb11", 'd');
    CHECK_FALSE(is_legal(over, "c3-c5"));
    // A soldier does not jump.
    Position soldier = setup(BERSERK, "Kk6 Tc3 tc4 tb11", 'd');
    CHECK_FALSE(is_legal(soldier, "c3-c5"));
}

TEST_CASE("berserk: the king falls to commanders, not to four soldiers", "[berserk]") {
    struct Case {
        const char* pieces;
        const char* move; // the attackers'
        bool captured;
    };
    for (const Case& c : {
             Case{"Kd4 tc4 te4 td3 tc5 Tk10", "c5-d5", false}, // four soldiers
             Case{"Kd4 cc4 ce3 Tk10 tk2", "e3-e4", true},      // two commanders
             Case{"Kd4 cc4 te3 Tk10 tk2", "e3-e4", false},     // a soldier arrives
             Case{"Kb1 cc3 Tk10 tk2", "c3-c1", true},          // against a corner
             Case{"Kf6 ce6 cg3 Tk10 tk2", "g3-g6", false},     // on the throne
             Case{"Ke6 cc6 Tk10 tk2", "c6-d6", false},         // against the throne
             Case{"Kf5 ce5 cg3 Tk10 tk2", "g3-g5", true},      // beside it
         }) {
        INFO(c.pieces << " " << c.move);
        Position pos = setup(BERSERK, c.pieces, 'a');
        play(pos, c.move);
        if (c.captured)
            CHECK(pos.result() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
        else
            CHECK_FALSE(pos.result().over());
    }
}

TEST_CASE("berserk: commanders and knights only where the rules have them", "[berserk]") {
    auto pos = parse_tfen(edition("brandubh"), "3t3/7/7/tTcKTtt/3T3/3t3/3t3 a");
    REQUIRE_FALSE(pos.ok());
    CHECK_THAT(pos.error(), Catch::Contains("commanders and knights"));
    auto rules = parse_rules("dim:11 name:X ber:c sw:s start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/"
                             "tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/");
    REQUIRE(rules.ok());
    auto edition = Edition::make(*rules);
    REQUIRE_FALSE(edition.ok());
    CHECK_THAT(edition.error(), Catch::Contains("sw"));
}

TEST_CASE("berserk: records name commanders and knights and mark jumps and chains",
          "[berserk][notation]") {
    Position pos(edition(BERSERK));
    play_all(pos, "e7-b7 a4-b4");
    const Move capture = legal(pos, "e5-b5");
    CHECK(move_record(pos, capture) == "Ne5-b5xcb6");
    pos.make_move(capture);
    const Move jump = legal(pos, "b5-b3");
    CHECK(move_record(pos, jump) == "Nb5^=b3xb4");
    CHECK(move_record(pos, legal(pos, "b5-d5")) == "Nb5=d5");
    // The records read back as the moves.
    auto read = parse_move(pos.edition(), "Nb5^=b3xb4");
    REQUIRE(read.ok());
    CHECK(*read == jump);
    auto first = parse_move(pos.edition(), "Ne5-b5xcb6");
    REQUIRE(first.ok());
    CHECK(*first == capture);
}

TEST_CASE("berserk: the engine plays a chain as one turn", "[berserk][search]") {
    Engine engine;
    REQUIRE(engine.set_preset(BERSERK));
    // A chain in a game's moves, as one turn or as its plies.
    REQUIRE(engine.set_position("startpos", {"e7-b7", "a4-b4", "e5-b5|b5-b3"}));
    CHECK(engine.position().side_to_move() == ATTACKERS);
    REQUIRE(engine.set_position("startpos", {"e7-b7", "a4-b4", "e5-b5"}));
    CHECK(engine.position().berserker() == sq(engine.position(), "b5"));
    CHECK_FALSE(engine.set_position("startpos", {"e7-b7", "a4-b4", "e5-b5|f4-f3"}));
    // In an open chain the search moves the berserker.
    SearchLimits limits;
    limits.depth = 4;
    auto in_chain = engine.search_to_end(limits);
    REQUIRE(in_chain.ok());
    CHECK(in_chain->best.best.from() == sq(engine.position(), "b5"));
    // Three captures in one turn: b4-d4 takes d5, the knight jumps e4, then
    // f4-k4 takes k5 against the king; the best move comes with the rest of
    // its chain.
    // The weights are pinned: with later 11x11 defaults the depth-4 search
    // prefers another move (d6-i6) to the chain.
    const std::string two = make_tfen(11, "Kk6 tk5 tk7 tj6 Nb4 Td6 td5 te4 ta9", 'd');
    REQUIRE(engine.set_option("EvalFile", CORNER_LARGE_ROUND4));
    REQUIRE(engine.set_position(two, {}));
    auto r2 = engine.search_to_end(limits);
    REQUIRE(r2.ok());
    CHECK(move_name(engine.position().edition(), r2->best.best) == "b4-d4");
    REQUIRE(r2->best.chain.size() == 2);
    CHECK(move_name(engine.position().edition(), r2->best.chain[0]) == "d4-f4");
    CHECK(move_name(engine.position().edition(), r2->best.chain[1]) == "f4-k4");
    // Self-play: every best move with its chain is one whole legal turn.
    int chains = 0;
    std::vector<std::string> moves;
    Position game(edition(BERSERK));
    for (int turn = 0; turn < 80 && !game.result().over(); ++turn) {
        REQUIRE(engine.set_position("startpos", moves));
        limits.depth = 3;
        auto r = engine.search_to_end(limits);
        REQUIRE(r.ok());
        const Side mover = game.side_to_move();
        std::string text = move_name(game.edition(), r->best.best);
        REQUIRE(is_legal(game, r->best.best));
        game.make_move(r->best.best);
        for (Move m : r->best.chain) {
            REQUIRE(game.berserker() == m.from());
            REQUIRE(is_legal(game, m));
            game.make_move(m);
            append_word(text, move_name(game.edition(), m), '|');
        }
        chains += !r->best.chain.empty();
        // The turn is over: the other side moves, or the game has ended.
        CHECK((game.side_to_move() != mover || game.decided().over()));
        CHECK(game.berserker() == NO_SQUARE);
        moves.push_back(text);
    }
    INFO(chains << " chains");
    CHECK(moves.size() > 10);
}

TEST_CASE("berserk: OTEP games with chains, the host asking for each move of a chain",
          "[berserk][otep]") {
    // As OpenTafl hosts Berserk: after our move that opens a chain it
    // answers `move <position>` and `play` the same side again; the
    // opponent's chains come as `opponent-move m1|m2 <position>`.
    const EditionPtr berserk = edition(BERSERK);
    int our_chains = 0, their_chains = 0;
    for (uint32_t seed : {1u, 2u, 3u}) {
        Host host({"--protocol", "otep", "--otep-depth", "2"});
        REQUIRE(host.read_line(2000) == "hello");
        host.send(std::string("rules ") + OTN_BERSERK);
        Position pos(berserk);
        std::mt19937 rng(seed);
        for (int turn = 0; turn < 60 && !pos.result().over(); ++turn) {
            if (pos.side_to_move() == DEFENDERS) {
                // Ours: one `play` per move of the turn.
                int plies = 0;
                do {
                    otep_engine_move(host, pos);
                    ++plies;
                } while (pos.berserker() != NO_SQUARE && !pos.result().over());
                our_chains += plies > 1;
            } else {
                // Theirs: random, chains first, then captures; the whole
                // chain at once.
                std::string turn_text;
                do {
                    MoveList list;
                    generate_moves(pos, list);
                    REQUIRE(list.size() > 0);
                    std::vector<Move> chains, captures;
                    for (Move m : list) {
                        if (!berserk::move_captures(pos, m)) continue;
                        captures.push_back(m);
                        pos.make_move(m);
                        if (pos.berserker() != NO_SQUARE) chains.push_back(m);
                        pos.unmake_move();
                    }
                    const Move m = !chains.empty()     ? chains[rng() % chains.size()]
                                   : !captures.empty() ? captures[rng() % captures.size()]
                                                       : list.moves[rng() % list.size()];
                    append_word(turn_text, move_record(pos, m), '|');
                    pos.make_move(m);
                } while (pos.berserker() != NO_SQUARE && !pos.result().over());
                their_chains += turn_text.find('|') != std::string::npos;
                if (!pos.result().over())
                    host.send("opponent-move " + turn_text + " " + to_opentafl_position(pos));
            }
        }
        host.send("finish 0");
        host.send("goodbye");
        CHECK(host.wait_exit() == 0);
    }
    INFO(our_chains << " chains of ours, " << their_chains << " of theirs");
    CHECK(our_chains > 0);

    // An opponent's chain for certain: b4-d4 takes d5, then d4-f4 takes f3.
    Host host({"--protocol", "otep", "--otep-depth", "2"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + OTN_BERSERK);
    Position pos = setup(BERSERK, "Kh9 Td5 Tf3 Tj9 tb4 td6 tf2 ta10", 'a');
    host.send("position " + to_opentafl_position(pos));
    host.send("side attackers");
    std::string turn_text = move_record(pos, legal(pos, "b4-d4"));
    play(pos, "b4-d4");
    REQUIRE(pos.berserker() == sq(pos, "d4"));
    append_word(turn_text, move_record(pos, legal(pos, "d4-f4")), '|');
    play(pos, "d4-f4");
    CHECK(turn_text == "b4-d4xd5|d4=f4xf3");
    REQUIRE(pos.side_to_move() == DEFENDERS);
    host.send("opponent-move " + turn_text + " " + to_opentafl_position(pos));
    host.send("play defenders");
    const std::string line = host.read_reply();
    INFO("engine said '" << line << "'");
    REQUIRE(line.rfind("move ", 0) == 0);
    CHECK(parse_legal_move(pos, line.substr(5)).ok());
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}
