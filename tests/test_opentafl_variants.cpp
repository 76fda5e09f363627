// OpenTafl's built-in variants up to 11x11 as presets (the strings OpenTafl
// sends, OTN.md), and the three readings they needed: special squares a
// piece may use only while standing on one (a missing re-entry list), speed
// limits (spd), and hostility lists read by side.

#include "engine.h"
#include "perft.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

const Preset& preset(const std::string& name) {
    for (const Preset& p : presets())
        if (name == p.name) return p;
    FAIL("no preset " << name);
    return presets().front();
}

} // namespace

TEST_CASE("otn variants: the presets are OpenTafl's strings, read as OpenTafl reads them",
          "[opentafl]") {
    for (const char* name : {"fetlar", "computer-fetlar", "tawlbwrdd", "sea-battle", "foteviken",
                             "magpie", "opentafl-copenhagen", "opentafl-copenhagen-relaxed"}) {
        INFO(name);
        const Preset& p = preset(name);
        CHECK(p.reading == RulesReading::BY_SIDE);
        // What OTEP gets from OpenTafl is the same rules as the preset.
        Engine e;
        REQUIRE(e.set_rules(p.rules, RulesReading::BY_SIDE));
        CHECK(e.position().edition().rules == *preset_rules(name));
        // The printed string says everything, whoever reads it.
        const std::string printed = print_rules(*preset_rules(name));
        for (RulesReading reading : {RulesReading::BY_PIECE, RulesReading::BY_SIDE}) {
            auto again = parse_rules(printed, reading);
            REQUIRE(again.ok());
            CHECK(*again == *preset_rules(name));
        }
    }
    CHECK(edition("fetlar")->size == 11);
    CHECK(edition("tawlbwrdd")->size == 11);
    CHECK(edition("sea-battle")->size == 9);
}

TEST_CASE("otn variants: perft from the start positions", "[opentafl]") {
    // Cross-checked against making every move (tests/test_reply_count.cpp).
    struct Case {
        const char* preset;
        uint64_t counts[3];
    };
    for (const Case& c :
         {Case{"fetlar", {116, 6788, 806344}}, Case{"computer-fetlar", {116, 6788, 806344}},
          Case{"tawlbwrdd", {136, 7620, 1042016}}, Case{"sea-battle", {80, 4400, 353200}},
          Case{"foteviken", {80, 4344, 337856}}, Case{"magpie", {40, 960, 39512}}}) {
        INFO(c.preset);
        Position pos(edition(c.preset));
        for (int d = 1; d <= 3; ++d) CHECK(perft(pos, d) == c.counts[d - 1]);
    }
}

TEST_CASE("otn re-entry: a piece uses squares it may not re-enter only while standing on one",
          "[opentafl]") {
    // Foteviken: aforre: and cenre: are empty. Attackers standing in a fort
    // move within and through the forts, even to another fort across the
    // board (OpenTafl knows no camps); once out they never come back.
    Position pos = setup("foteviken", "Kc7 ta4 te1 tc2 Tg6", 'a');
    CHECK(is_legal(pos, "a4-i4"));       // fort to fort over an empty row
    CHECK(is_legal(pos, "a4-a5"));       // within the fort
    CHECK(is_legal(pos, "e1-d1"));       // within
    CHECK(is_legal(pos, "e1-e2"));       // within
    CHECK_FALSE(is_legal(pos, "c2-e2")); // into a fort from outside
    CHECK(is_legal(pos, "c2-c1"));       // c1 is no fort
    // Defenders and the king never enter or cross a fort.
    Position d = setup("foteviken", "Kc4 Tg6 tc7", 'd');
    CHECK_FALSE(is_legal(d, "c4-a4"));
    CHECK(is_legal(d, "c4-b4"));
    CHECK_FALSE(is_legal(d, "g6-i6"));
    // Nobody crosses the empty throne, though cenp lists everyone.
    Position t = setup("foteviken", "Kd5 Te3 tc8", 'd');
    CHECK_FALSE(is_legal(t, "e3-e7"));
    CHECK_FALSE(is_legal(t, "d5-f5"));
    CHECK(is_legal(t, "e3-e4"));
    // The king standing on the throne leaves it.
    Position k = setup("foteviken", "Ke5 tc8", 'd');
    CHECK(is_legal(k, "e5-e6"));
    // Nobody stands on the empty throne; a piece may stand on a fort, since
    // it could have started there (it then moves within the forts).
    CHECK_FALSE(parse_tfen(edition("foteviken"), make_tfen(9, "Kc3 Te5 tc8", 'a')).ok());
    CHECK(parse_tfen(edition("foteviken"), make_tfen(9, "Kc3 Ta5 tc8", 'a')).ok());
}

TEST_CASE("otn re-entry: a missing re-entry list forbids passing from outside too", "[opentafl]") {
    // cenp lists everyone, cenre nobody but the king: soldiers may not cross
    // the empty throne; the king, who may re-enter, may.
    const std::string rules = "dim:7 surf:n cenp:tTK cens:K cenre:K " + START7;
    Position pos = rules_setup(rules, "Kd6 Td2 ta4", 'd');
    CHECK_FALSE(is_legal(pos, "d2-d5"));
    CHECK(is_legal(pos, "d2-d3"));
    Position k = rules_setup(rules, "Kd2 Td6 ta5", 'd');
    CHECK(is_legal(k, "d2-d4"));
    CHECK(is_legal(k, "d2-d5"));
}

TEST_CASE("otn speed limits: spd caps how far each kind moves", "[opentafl]") {
    // Magpie: the king moves one square at a time.
    Position pos = setup("magpie", "Kd4 tb6", 'd');
    CHECK(is_legal(pos, "d4-d5"));
    CHECK(is_legal(pos, "d4-c4"));
    CHECK_FALSE(is_legal(pos, "d4-d6"));
    CHECK_FALSE(is_legal(pos, "d4-a4"));
    MoveList list;
    generate_moves(pos, list);
    CHECK(list.size() == 4);
    CHECK(count_moves(pos) == 4);
    // One number for every kind; eight in the order tcnkTCNK; 2 and 10
    // numbers are ignored, as OpenTafl's parser does.
    auto one = parse_rules("dim:7 spd:2 " + START7);
    REQUIRE(one.ok());
    CHECK(one->speed[ATTACKER] == 2);
    CHECK(one->speed[DEFENDER] == 2);
    CHECK(one->speed[KING] == 2);
    auto eight = parse_rules("dim:7 spd:3,-1,-1,-1,0,-1,-1,1, " + START7);
    REQUIRE(eight.ok());
    CHECK(eight->speed[ATTACKER] == 3);
    CHECK(eight->speed[DEFENDER] == 0);
    auto two = parse_rules("dim:7 spd:3,3 " + START7);
    REQUIRE(two.ok());
    CHECK(two->speed[ATTACKER] == 0);
    auto again = parse_rules(print_rules(*eight));
    REQUIRE(again.ok());
    CHECK(*again == *eight);
    // A soldier with a limit of 2.
    Position s = rules_setup("dim:7 surf:n spd:2 " + START7, "Kd4 tb7", 'a');
    CHECK(is_legal(s, "b7-b5"));
    CHECK_FALSE(is_legal(s, "b7-b4"));
}

TEST_CASE("otn hostility: OpenTafl reads hostility lists by side", "[opentafl]") {
    // By side, K alone is nobody and T is the defenders with their king.
    const std::string text = "dim:7 surf:n cenhe:K cenh:T " + START7;
    auto by_side = parse_rules(text, RulesReading::BY_SIDE);
    auto by_piece = parse_rules(text, RulesReading::BY_PIECE);
    REQUIRE(by_side.ok());
    REQUIRE(by_piece.ok());
    const auto& side_throne = by_side->special[THRONE];
    const auto& piece_throne = by_piece->special[THRONE];
    CHECK(side_throne.hostile_empty == 0);
    CHECK(side_throne.hostile_occupied == PieceSet((1 << DEFENDER) | (1 << KING)));
    CHECK(piece_throne.hostile_empty == PieceSet(1 << KING));
    CHECK(piece_throne.hostile_occupied == PieceSet(1 << DEFENDER));
    // hkp: in the string wins over the reader's default.
    auto forced = parse_rules("dim:7 surf:n cenhe:K hkp:y " + START7, RulesReading::BY_SIDE);
    REQUIRE(forced.ok());
    CHECK(forced->special[THRONE].hostile_empty == PieceSet(1 << KING));
    // Our Brandubh (throne hostile to soldiers, not to the king) prints
    // hkp:y, so an OpenTafl-style reader (branan-match's OTEP host) gets it
    // right.
    const std::string printed = print_rules(*preset_rules("brandubh"));
    CHECK_THAT(printed, Catch::Contains("hkp:y"));
    auto read = parse_rules(printed, RulesReading::BY_SIDE);
    REQUIRE(read.ok());
    CHECK(*read == *preset_rules("brandubh"));
    CHECK_THAT(print_rules(*preset_rules("fetlar")), !Catch::Contains("hkp"));
}

TEST_CASE("otn variants: berserk is read, boards above 19x19 are refused by name", "[opentafl]") {
    const std::string berserk =
        "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c "
        "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/";
    auto r = parse_rules(berserk, RulesReading::BY_SIDE);
    REQUIRE(r.ok());
    CHECK(r->king_jump == Jump::RESTRICTED);
    CHECK(r->berserk == Berserk::CAPTURE);
    CHECK(*r == *preset_rules("opentafl-berserk"));
    std::string start = "start:/";
    for (int i = 0; i < 21; ++i) start += "21/";
    auto big = parse_rules("dim:21 name:Huge esc:e atkf:y " + start, RulesReading::BY_SIDE);
    REQUIRE_FALSE(big.ok());
    CHECK_THAT(big.error(), Catch::Contains("dim:21"));
}
