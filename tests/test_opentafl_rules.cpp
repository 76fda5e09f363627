// OpenTafl rules-string keys: for each key, a position where it changes what
// is legal, what is captured or who wins. Also the two OpenTafl presets.

#include <catch2/catch.hpp>

#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

const std::string BASE7 = "dim:7 surf:n nrd:n ";

std::string edition_error(const std::string& text) {
    auto rules = parse_rules(text);
    if (!rules) return rules.error();
    auto edition = Edition::make(*rules);
    return edition ? std::string() : edition.error();
}

} // namespace

TEST_CASE("otn esc: corner escape needs a corner, edge escape any edge square", "[opentafl]") {
    Position corner = rules_setup(BASE7 + START7, "Kb4 ta3 tg6", 'd');
    play(corner, "b4-b7");
    CHECK(corner.result() == ONGOING);
    Position edge = rules_setup(BASE7 + "esc:e " + START7, "Kb4 ta3 tg6", 'd');
    play(edge, "b4-b7");
    CHECK(edge.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
}

TEST_CASE("otn atkf: who moves first from the start position", "[opentafl]") {
    CHECK(Position(rules_edition(BASE7 + "atkf:y " + START7)).side_to_move() == ATTACKERS);
    CHECK(Position(rules_edition(BASE7 + "atkf:n " + START7)).side_to_move() == DEFENDERS);
}

TEST_CASE("otn ka: king armed as hammer and anvil, or neither", "[opentafl]") {
    for (auto [ka, captures] : {std::pair{"y", true}, {"h", true}, {"a", false}, {"n", false}}) {
        Position pos = rules_setup(BASE7 + "ka:" + ka + " " + START7, "Ke4 tc5 Tb5 ta2", 'd');
        play(pos, "e4-e5");
        play(pos, "a2-a3");
        INFO("ka:" << ka << " hammer");
        play(pos, "e5-d5");
        CHECK((at(pos, "c5") == NO_PIECE) == captures);
    }
    for (auto [ka, captures] : {std::pair{"y", true}, {"a", true}, {"h", false}, {"n", false}}) {
        // Anvil: a defender closes the sandwich against the king.
        Position pos = rules_setup(BASE7 + "ka:" + ka + " " + START7, "Kd5 tc5 Tb3 tf1", 'd');
        INFO("ka:" << ka << " anvil");
        play(pos, "b3-b5");
        CHECK((at(pos, "c5") == NO_PIECE) == captures);
    }
}

TEST_CASE("otn ks: the four king strengths and ours (t)", "[opentafl]") {
    // King on c5 (off the throne, not next to it), attackers b5 and e... d5 closes.
    auto captured = [](const std::string& ks, const std::string& pieces, const std::string& move) {
        Position pos =
            rules_setup("dim:7 surf:n nrd:n cenhe:tTK ks:" + ks + " " + START7, pieces, 'a');
        play(pos, move);
        return pos.decided().reason == EndReason::KING_CAPTURED;
    };
    // Two attackers elsewhere.
    CHECK(captured("w", "Kc6 tb6 te6", "e6-d6"));
    CHECK_FALSE(captured("s", "Kc6 tb6 te6", "e6-d6"));
    CHECK(captured("c", "Kb6 ta6 te6", "e6-c6"));
    CHECK(captured("t", "Kb6 ta6 te6", "e6-c6"));
    CHECK_FALSE(captured("m", "Kb6 ta6 te6", "e6-c6"));
    // Strong king: four attackers capture; on the edge only with ks:m.
    CHECK(captured("s", "Kc6 tb6 td6 tc7 tc4", "c4-c5"));
    CHECK_FALSE(captured("s", "Kc7 tb7 td7 te6", "e6-c6"));
    CHECK(captured("m", "Kc7 tb7 td7 te6", "e6-c6"));
    // Next to the throne (d4): c = three attackers and the hostile empty throne.
    CHECK(captured("c", "Kd5 tc5 te5 ta6", "a6-d6"));
    CHECK_FALSE(captured("c", "Kd5 tc5 ta6 tf1", "a6-d6"));
    CHECK(captured("w", "Kd5 tc5 ta6 tf1", "a6-d6"));
    // On the throne: t needs four attackers.
    CHECK_FALSE(captured("t", "Kd4 tc4 ta5 tg4", "g4-e4"));
    CHECK(captured("w", "Kd4 tc4 ta5 tg4", "g4-e4"));
    CHECK(captured("t", "Kd4 tc4 te4 td3 ta5", "a5-d5"));
}

TEST_CASE("otn cor and corh: custom corner squares and their hostility", "[opentafl]") {
    // No corners at all: the king cannot escape to a1, soldiers may stop there.
    Position none = rules_setup(BASE7 + "cor: " + START7, "Kd4 ta3 Tb1 td7", 'd');
    CHECK(is_legal(none, "b1-a1"));
    // Corners hostile to nobody: no capture against a1.
    Position calm = rules_setup(BASE7 + "corh: " + START7, "Kd4 Tb1 tc2 td7", 'a');
    play(calm, "c2-c1");
    CHECK(at(calm, "b1") == DEFENDER);
    Position hostile = rules_setup(BASE7 + "corh:tTK " + START7, "Kd4 Tb1 tc2 td7", 'a');
    play(hostile, "c2-c1");
    CHECK(at(hostile, "b1") == NO_PIECE);
}

TEST_CASE("otn cen, cenh and cenhe: throne position and hostility empty or occupied",
          "[opentafl]") {
    // Empty throne hostile to attackers only.
    Position pos = rules_setup(BASE7 + "cenhe:t " + START7, "Kb7 tc4 Te5 Tb2", 'd');
    // c4 attacker, throne d4 empty: a defender on b4 closes.
    play(pos, "b2-b4");
    CHECK(at(pos, "c4") == NO_PIECE);
    Position pos2 = rules_setup(BASE7 + "cenhe:t " + START7, "Kb7 Tc4 te5 tb2", 'a');
    play(pos2, "b2-b4");
    CHECK(at(pos2, "c4") == DEFENDER);
    // Occupied throne (king on it) hostile to defenders: attacker captures c4 against it.
    Position occ = rules_setup(BASE7 + "cenh:T " + START7, "Kd4 Tc4 tb2 tf7", 'a');
    play(occ, "b2-b4");
    CHECK(at(occ, "c4") == NO_PIECE);
    Position occ_no = rules_setup(BASE7 + "cenh: " + START7, "Kd4 Tc4 tb2 tf7", 'a');
    play(occ_no, "b2-b4");
    CHECK(at(occ_no, "c4") == DEFENDER);
    // A throne moved to c3.
    Position moved = rules_setup(BASE7 + "cen:c3, cenhe:tT " + START7, "Kb7 tc2 Tc5 Tb1", 'd');
    CHECK_FALSE(is_legal(moved, "c5-c3"));
}

TEST_CASE("otn cenp, cens, cenre, corp, cors: pass, stop and come back", "[opentafl]") {
    // Nobody passes the throne: a rook move across d4 is blocked.
    Position nopass = rules_setup(BASE7 + "cenp:K " + START7, "Kd6 tb4 tf1", 'a');
    CHECK_FALSE(is_legal(nopass, "b4-f4"));
    Position pass = rules_setup(BASE7 + "cenp:tTK " + START7, "Kd6 tb4 tf1", 'a');
    CHECK(is_legal(pass, "b4-f4"));
    CHECK_FALSE(is_legal(pass, "b4-d4"));
    // Attackers may stop on the throne.
    Position stop = rules_setup(BASE7 + "cens:tK " + START7, "Kd6 tb4 tf1", 'a');
    CHECK(is_legal(stop, "b4-d4"));
    // Attackers may stop on the throne but not pass over it.
    Position stop_only = rules_setup(BASE7 + "cenp:K cens:tK " + START7, "Kd6 tb4 tf1", 'a');
    CHECK(is_legal(stop_only, "b4-d4"));
    CHECK_FALSE(is_legal(stop_only, "b4-e4"));
    CHECK(is_legal(stop_only, "b4-c4"));
    // The king may not come back.
    Position back = rules_setup(BASE7 + "cenre:tT " + START7, "Kd5 tb2 tf1", 'd');
    CHECK_FALSE(is_legal(back, "d5-d4"));
    Position back_ok = rules_setup(BASE7 + "cenre:tTK " + START7, "Kd5 tb2 tf1", 'd');
    CHECK(is_legal(back_ok, "d5-d4"));
    // Defenders may stop on corners.
    Position cors = rules_setup(BASE7 + "cors:TK " + START7, "Kd4 Tb1 tf7 tc3", 'd');
    CHECK(is_legal(cors, "b1-a1"));
}

TEST_CASE("otn afor and dfor: fortress squares with their own lists", "[opentafl]") {
    // Defender fortress on b2: attackers may not stop there.
    Position pos = rules_setup(BASE7 + "dfor:b2, " + START7, "Kd4 tb5 Tf2 tf7", 'a');
    CHECK_FALSE(is_legal(pos, "b5-b2"));
    CHECK(is_legal(pos, "b5-b3"));
    // Attacker fortress hostile to defenders.
    Position fort = rules_setup(BASE7 + "afor:b3, aforh:T " + START7, "Kd4 Tb4 tb6 tf7", 'a');
    play(fort, "b6-b5");
    CHECK(at(fort, "b4") == NO_PIECE);
}

TEST_CASE("otn linc: Linnaean capture against the occupied throne", "[opentafl]") {
    const std::string pieces = "Kd4 tc4 te4 td3 Td5 ta6";
    Position on = rules_setup(BASE7 + "ks:s cenh: linc:y " + START7, pieces, 'a');
    play(on, "a6-d6");
    CHECK(at(on, "d5") == NO_PIECE);
    CHECK(at(on, "d4") == KING);
    Position off = rules_setup(BASE7 + "ks:s cenh: linc:n " + START7, pieces, 'a');
    play(off, "a6-d6");
    CHECK(at(off, "d5") == DEFENDER);
    // Only three attackers around the king: no capture.
    Position partial =
        rules_setup(BASE7 + "ks:s cenh: linc:y " + START7, "Kd4 tc4 te4 Td5 ta6 tf1", 'a');
    play(partial, "a6-d6");
    CHECK(at(partial, "d5") == DEFENDER);
}

TEST_CASE("otn surf: encircled defenders lose", "[opentafl]") {
    // Defenders inside a closed ring of attackers around c3..e5.
    const std::string ring = "Kd4 Td5 tc6 td6 te6 tb5 tb4 tb3 tc2 td2 te2 tf3 tf4 tg5 ta2";
    Position pos = rules_setup("dim:7 surf:y nrd:n " + START7, ring, 'a');
    play(pos, "g5-f5");
    CHECK(pos.result() == game(Winner::ATTACKERS, EndReason::ENCIRCLED));
    Position off = rules_setup("dim:7 surf:n nrd:n " + START7, ring, 'a');
    play(off, "g5-f5");
    CHECK(off.result() == ONGOING);
    // One gap in the ring: not encircled.
    Position gap = rules_setup("dim:7 surf:y nrd:n " + START7, ring, 'a');
    play(gap, "a2-a3");
    CHECK(gap.result() == ONGOING);
}

TEST_CASE("otn nrd: no defender with an empty neighbour loses (OpenTafl's check)", "[opentafl]") {
    // The king (strong) and his last defender are boxed in but not captured.
    const std::string pieces = "Kc6 Tc7 tb6 td6 tb7 td7 te5";
    Position boxed = rules_setup("dim:7 surf:n nrd:y ks:s " + START7, pieces, 'a');
    play(boxed, "e5-c5");
    CHECK(boxed.decided() == game(Winner::ATTACKERS, EndReason::NO_DEFENDER_ROOM));
    Position boxed_off = rules_setup("dim:7 surf:n nrd:n ks:s " + START7, pieces, 'a');
    play(boxed_off, "e5-c5");
    CHECK_FALSE(boxed_off.decided().over());
    CHECK(at(boxed_off, "c6") == KING);
}

TEST_CASE("otn tfr, repc, nocap, nomv, noatk: end rules from the rules string", "[opentafl]") {
    auto repeat = [](const std::string& extra) {
        Position pos =
            rules_setup("dim:7 surf:n nrd:n cors:tTK " + extra + " " + START7, "Kd4 tb1 Tf7", 'a');
        // Each cycle of four plies repeats the position.
        for (int i = 0; i < 2; ++i) {
            play_all(pos, "b1-b2 f7-f6 b2-b1 f6-f7");
            if (pos.result().over()) return pos.result();
        }
        return pos.result();
    };
    CHECK(repeat("tfr:d repc:3") == game(Winner::DRAW, EndReason::REPETITION));
    // The defenders made the third occurrence: with tfr:w they lose.
    CHECK(repeat("tfr:w repc:3") == game(Winner::ATTACKERS, EndReason::REPETITION));
    CHECK(repeat("tfr:l repc:3") == game(Winner::DEFENDERS, EndReason::REPETITION));
    CHECK(repeat("tfr:i repc:3") == ONGOING);
    {
        Position pos =
            rules_setup("dim:7 surf:n nrd:n cors:tTK tfr:d repc:2 " + START7, "Kd4 tb1 Tf7", 'a');
        play_all(pos, "b1-b2 f7-f6 b2-b1 f6-f7");
        CHECK(pos.result() == game(Winner::DRAW, EndReason::REPETITION));
    }
    {
        Position pos = rules_setup("dim:7 surf:n nrd:n nocap:4 " + START7, "Kd4 tb2 Tf6", 'a');
        play_all(pos, "b2-b3 f6-f5 b3-b4");
        CHECK(pos.result() == ONGOING);
        play(pos, "f5-f4");
        CHECK(pos.result() == game(Winner::DRAW, EndReason::MOVE_LIMIT));
    }
    for (auto [nomv, expected] : {std::pair{"l", Winner::ATTACKERS}, {"d", Winner::DRAW}}) {
        // The king is stuck in the corner region with no move; defenders to move.
        Position pos =
            rules_setup(std::string("dim:7 surf:n nrd:n ks:s nomv:") + nomv + " " + START7,
                        "Kb2 tb3 tc2 ta2 tb1 tf7", 'a');
        play(pos, "f7-f6");
        CHECK(pos.result() == game(expected, EndReason::NO_MOVES));
    }
    for (auto [noatk, over] : {std::pair{"y", true}, {"n", false}}) {
        Position pos = rules_setup(std::string("dim:7 surf:n nrd:n noatk:") + noatk + " " + START7,
                                   "Kd2 tc4 Tb5 Tg4", 'd');
        play(pos, "b5-b4");
        CHECK(count_pieces(pos, ATTACKER) == 0);
        CHECK(pos.decided().over() == over);
    }
}

TEST_CASE("otn start and starti: rank 1 first or top row first", "[opentafl]") {
    auto a = parse_rules("dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/7/3t3/");
    auto b = parse_rules("dim:7 starti:/3t3/7/3T3/ttTKTtt/3T3/3t3/3t3/");
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a->start == b->start);
}

TEST_CASE("otn unsupported keys are refused naming the key", "[opentafl]") {
    CHECK_THAT(edition_error("dim:7 kj:y " + START7), Catch::Contains("kj"));
    CHECK_THAT(edition_error("dim:7 spd:1,2,3 " + START7), Catch::Contains("spd"));
    CHECK_THAT(edition_error("dim:7 ber:y " + START7), Catch::Contains("ber"));
    CHECK_THAT(edition_error("dim:7 sw:x " + START7), Catch::Contains("sw"));
    CHECK_THAT(edition_error("dim:7 efe:x " + START7), Catch::Contains("efe"));
    CHECK_THAT(edition_error("dim:13 start:/13/13/13/13/13/13/13/13/13/13/13/13/13/"),
               Catch::Contains("king"));
    CHECK_THAT(edition_error("dim:20 start:/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/"
                             "20/20/"),
               Catch::Contains("dim:20"));
    // A commander with OpenTafl's default encirclement: refused together.
    CHECK_THAT(edition_error("dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3c3/"),
               Catch::Contains("commanders") && Catch::Contains("surf"));
    CHECK_THAT(edition_error("dim:7 surf:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3m3/"),
               Catch::Contains("mercenaries"));
    CHECK_THAT(edition_error("dim:7 mj:j " + START7), Catch::Contains("mercenaries"));
    CHECK(edition_error("dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: "
                        "cenhe:tcnkTCNK linc:y "
                        "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/")
              .empty());
}

TEST_CASE("otn presets: OpenTafl's Brandub and Tablut strings play their rules", "[opentafl]") {
    // Brandub: weak king captured by two attackers even on the throne, which is never hostile.
    CHECK(std::string(presets()[4].name) == "opentafl-brandub");
    Position b2 = rules_setup(presets()[4].rules, "Kd4 tc4 te7 Ta2", 'a');
    play(b2, "e7-e4");
    CHECK(b2.decided() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    // Empty throne not hostile: a soldier next to it is safe from a single enemy.
    Position b3 = rules_setup(presets()[4].rules, "Kb7 Tc4 tb2 tf1", 'a');
    play(b3, "b2-b4");
    CHECK(at(b3, "c4") == DEFENDER);
    // Tablut: the rules string round-trips and perft from the start matches the game's.
    EditionPtr t = rules_edition(presets()[5].rules);
    CHECK(std::string(presets()[5].name) == "opentafl-tablut");
    auto again = parse_rules(print_rules(t->rules));
    REQUIRE(again.ok());
    CHECK(*again == t->rules);
}
