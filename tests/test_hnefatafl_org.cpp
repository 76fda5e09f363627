// Copenhagen and Brandubh as hnefatafl.org's code plays them (presets
// `hnefatafl-org` and `hnefatafl-org-brandubh`, HNEFATAFL.md column ORG and
// section 5): perft from the start and from three positions of real games
// (section 3), and one position per rule and per difference from
// hnefatafl-rs (1.2-1.7), each with a mirror where the rule does not fire.

#include "copenhagen_games.h"
#include "perft.h"
#include "test_helpers.h"
#include "text.h"

using namespace branan;
using namespace branan::testutil;

namespace {

const char* const ORG = "hnefatafl-org";
const char* const ORG7 = "hnefatafl-org-brandubh";

// A preset with some keys changed.
EditionPtr preset_with(const char* preset, const std::string& keys) {
    auto r = preset_rules(preset);
    REQUIRE(r.ok());
    std::string text = print_rules(*r);
    for (std::string_view word : split_words(keys)) {
        const std::string key(word.substr(0, word.find(':') + 1));
        const size_t at = text.find(" " + key);
        REQUIRE(at != std::string::npos);
        const size_t end = text.find(' ', at + 1);
        text.replace(at + 1, end - at - 1, std::string(word));
    }
    return rules_edition(text);
}

const GameResult CANNOT_ESCAPE{Winner::ATTACKERS, EndReason::CANNOT_ESCAPE};
const GameResult PLY_DRAW{Winner::DRAW, EndReason::PLY_LIMIT};

} // namespace

TEST_CASE("hnefatafl-org: the keys read, print and round-trip, nonsense is refused by key",
          "[hnefatafl-org]") {
    auto r = preset_rules(ORG);
    REQUIRE(r.ok());
    CHECK(r->shieldwall_code == RuleCode::HNEFATAFL_ORG);
    CHECK(r->edge_fort_code == RuleCode::HNEFATAFL_ORG);
    CHECK(r->encirclement_code == RuleCode::HNEFATAFL_ORG);
    CHECK(r->defender_repetition_ban);
    CHECK(r->ban_includes_start);
    CHECK(r->cannot_escape);
    CHECK(r->draw_ply == 133);
    CHECK(r->repetition == RepetitionOutcome::IGNORED);
    const std::string text = print_rules(*r);
    for (const char* word : {" swr:g ", " efr:g ", " surr:g ", " dban:y ", " cne:y ", " plyd:133 "})
        CHECK(text.find(word) != std::string::npos);
    CHECK(text.find("dbans:") == std::string::npos);
    auto again = parse_rules(text);
    REQUIRE(again.ok());
    CHECK(*again == *r);

    auto r7 = preset_rules(ORG7);
    REQUIRE(r7.ok());
    CHECK_FALSE(r7->attackers_first);
    CHECK_FALSE(r7->ban_includes_start);
    CHECK_FALSE(r7->edge_fort);
    CHECK(print_rules(*r7).find(" dbans:n ") != std::string::npos);
    CHECK(*parse_rules(print_rules(*r7)) == *r7);

    // Each refusal names the key that makes no sense.
    const std::string start = " start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    const std::pair<const char*, const char*> bad[] = {
        {"dim:7 swr:g", "swr:g"},
        {"dim:7 sw:s swf:n swr:r", "swr:r"},
        {"dim:7 efr:g", "efr:g"},
        {"dim:7 surf:n surr:g", "surr:g"},
        {"dim:7 dbans:n", "dbans:n"},
        {"dim:7 esc:e cne:y", "cne:y"},
        {"dim:7 cor:a1,g1,a7, cne:y", "cne:y"},
        {"dim:7 plyd:-1", "plyd"},
        {"dim:7 dban:x", "dban"},
        {"dim:7 swr:q", "swr"},
    };
    for (const auto& [keys, key] : bad) {
        auto p = parse_rules(std::string(keys) + start);
        INFO(keys);
        REQUIRE_FALSE(p.ok());
        CHECK(p.error().find(key) != std::string::npos);
    }
    CHECK(parse_rules("dim:7 sw:s swr:g dban:y dbans:n cne:y plyd:50" + start).ok());
}

TEST_CASE("hnefatafl-org: perft from the start equals hnefatafl.org's", "[hnefatafl-org][perft]") {
    Position pos(edition(ORG));
    const uint64_t expect[] = {1, 116, 6788, 806344};
    for (int d = 1; d <= 3; ++d) {
        INFO("depth " << d);
        CHECK(perft(pos, d) == expect[d]);
    }
    CHECK(perft_by_making(pos, 2) == expect[2]);
}

TEST_CASE("hnefatafl-org: perft 4 from the start leaves out the 6,660 recreations of the start",
          "[hnefatafl-org][perft][slow]") {
    Position pos(edition(ORG));
    CHECK(perft(pos, 4) == 50450144);
    // Without the ban it is hnefatafl-rs's count.
    Position free_pos(preset_with(ORG, "dban:n"));
    CHECK(perft(free_pos, 4) == 50456804);
}

TEST_CASE("hnefatafl-org: perft from three positions of real games equals hnefatafl.org's",
          "[hnefatafl-org][perft]") {
    check_middlegame_perft(
        ORG, {{1, 95, 12339, 1150929}, {1, 69, 10783, 765385}, {1, 79, 11736, 922351}});
}

TEST_CASE("hnefatafl-org: the shieldwall takes every wall the mover closes",
          "[hnefatafl-org][shieldwall]") {
    // HNEFATAFL.md 1.2, the double wall: both sides are taken (hnefatafl-rs
    // takes b1 c1 only).
    const char* pieces = "td5 tb2 tc2 te2 tf2 Tb1 Tc1 Te1 Tf1 tg1 Kf6";
    Position pos = setup(ORG, pieces, 'a');
    CHECK(captures_of(pos, "d5-d1") == squares(pos, {"b1", "c1", "e1", "f1"}));
    Position rs = setup("copenhagen", pieces, 'a');
    CHECK(captures_of(rs, "d5-d1") == squares(rs, {"b1", "c1"}));
    // Mirror: one pin missing on each side, nothing.
    Position none = setup(ORG, "td5 tb2 tf2 Tb1 Tc1 Te1 Tf1 tg1 Kf6", 'a');
    CHECK(captures_of(none, "d5-d1") == 0);
    // The shieldwall positions of real games (P1, P2) capture as in
    // hnefatafl-rs, and the king in a wall stays.
    Position p1 = from_start(ORG, P1);
    CHECK(captures_of(p1, "d3-d1") == squares(p1, {"b1", "c1"}));
    Position king = setup(ORG, "Kb1 Tc1 tb2 tc2 td5 tk5", 'a');
    CHECK(captures_of(king, "d5-d1") == square_bb(sq(king, "c1")));
}

TEST_CASE("hnefatafl-org: the exit fort as hnefatafl.org's code checks it",
          "[hnefatafl-org][edge-fort]") {
    SECTION("the mirror pair of HNEFATAFL.md 1.3: the left one fails, the right one holds") {
        Position left = setup(ORG, "Ta8 Tb8 Tb7 Tc7 Kb6 Tc6 Tb5 Tc5 Ta4 Tb4 tj10 tj2", 'd');
        CHECK_FALSE(result_after(left, "b6-a6").over());
        Position right = setup(ORG, "Tk8 Tj8 Tj7 Ti7 Kj6 Ti6 Tj5 Ti5 Tk4 Tj4 tb10 tb2", 'd');
        CHECK(result_after(right, "j6-k6") == FORT);
        // With one attacker on the board nothing is tested: the left holds.
        Position lone = setup(ORG, "Ta8 Tb8 Tb7 Tc7 Kb6 Tc6 Tb5 Tc5 Ta4 Tb4 tj10", 'd');
        CHECK(result_after(lone, "b6-a6") == FORT);
    }
    SECTION("P3's e2-e1 is no fort: an empty square inside never protects") {
        Position p3 = from_start(ORG, P3);
        CHECK_FALSE(result_after(p3, "e2-e1").over());
        Position rs = from_start("copenhagen", P3);
        CHECK(result_after(rs, "e2-e1") == FORT);
    }
    SECTION("looked for after every move, and only with the king on the edge") {
        const char* fort = "Tc1 Kd1 Tf1 Td2 Te2 Tc2 Tf2 tk10 tj9";
        CHECK(setup(ORG, fort, 'd').result() == FORT);
        CHECK(setup(ORG, fort, 'a').result() == FORT);
        CHECK_FALSE(setup(ORG, "Tc2 Kd2 Tf2 Td3 Te3 Tc3 Tf3 Td1 Te1 Tc1 Tf1 tk10 tj9", 'a')
                        .result()
                        .over());
    }
    SECTION("an attacker reached: no fort") {
        Position touched = setup(ORG, "Tc1 Kd1 tf1 Td2 Te5 tj9", 'd');
        CHECK_FALSE(result_after(touched, "e5-e2").over());
    }
}

TEST_CASE("hnefatafl-org: encirclement after every move, with no ring safety", "[hnefatafl-org]") {
    // hnefatafl-rs's counter-example: e6 could be taken against the empty
    // throne, which hnefatafl.org does not ask.
    const char* ring = "Kc6 tb6 tc5 tc7 td5 td7 te10";
    Position pos = setup(ORG, ring, 'a');
    CHECK(result_after(pos, "e10-e6") == ENCIRCLEMENT);
    Position rs = setup("copenhagen", ring, 'a');
    CHECK_FALSE(result_after(rs, "e10-e6").over());
    // After a defenders' move too.
    const char* closed = "Kc4 tb4 tc3 tc5 td3 td5 te4 tk9";
    CHECK(setup(ORG, closed, 'a').result() == ENCIRCLEMENT);
    // Mirror: a defender outside the ring.
    CHECK_FALSE(setup(ORG, std::string(closed) + " Ti9", 'a').result().over());
}

TEST_CASE("hnefatafl-org: the defenders may never recreate an earlier board",
          "[hnefatafl-org][repetition]") {
    Position pos(edition(ORG));
    play(pos, "a4-a3");
    play(pos, "d6-d5");
    play(pos, "a3-a4");
    // d5-d6 would bring back the start board.
    CHECK_FALSE(is_legal(pos, "d5-d6"));
    auto refused = parse_legal_move(pos, "d5-d6");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().find("already reached") != std::string::npos);
    CHECK(perft(pos, 1) == perft_by_making(pos, 1));
    Position free_pos(preset_with(ORG, "dban:n"));
    for (const char* m : {"a4-a3", "d6-d5", "a3-a4"}) play(free_pos, m);
    CHECK(perft(free_pos, 1) == perft(pos, 1) + 1);
    // The attackers may recreate a board: k3-k4 brings back the board
    // after ply 3.
    play(pos, "d5-d4");
    play(pos, "k4-k3");
    play(pos, "d4-d5");
    CHECK(is_legal(pos, "k3-k4"));
    play(pos, "k3-k4");
    // And the defenders still may not: d5-d4 gives the board after ply 4.
    CHECK_FALSE(is_legal(pos, "d5-d4"));
    CHECK(is_legal(pos, "d5-d3"));

    SECTION("a banned move is no move: the defenders lose with only banned moves") {
        // The king shuffles in a pocket (c3, c4); the defender on b1 is
        // stuck. Without the adjudication, which would end this already.
        auto start =
            parse_tfen(preset_with(ORG, "cne:n"),
                       make_tfen(11, "Kc3 tc2 tb3 td3 tb4 td4 tc5 Tb1 tc1 tb2 ta2 tj9", 'd'));
        REQUIRE(start.ok());
        Position p = *start;
        for (const char* m : {"c3-c4", "j9-j8", "c4-c3", "j8-j9"}) play(p, m);
        // c3-c4 would give the board after ply 1 again.
        CHECK_FALSE(is_legal(p, "c3-c4"));
        MoveList list;
        generate_moves(p, list);
        CHECK(list.empty());
        CHECK(count_moves(p) == 0);
        CHECK(p.result() == game(Winner::ATTACKERS, EndReason::NO_MOVES));
        // Mirror: one ply earlier the king still had his move.
        p.unmake_move();
        CHECK_FALSE(p.result().over());
    }
}

TEST_CASE("hnefatafl-org: the 'cannot escape' adjudication", "[hnefatafl-org][adjudication]") {
    SECTION("HNEFATAFL.md 1.6, game 532 after h2-h4: every edge has at most 2 open squares") {
        const char* before = "td11 te11 tg11 tc10 th10 ti10 tb9 Te9 tj9 ta8 Te8 Tf8 tk8 ta7 Td7 "
                             "Tg7 Th7 tk7 ta6 Ki6 tk6 tb5 Te5 Tg5 tj5 tc4 Tf4 Tg4 ti4 td3 te3 tg3 "
                             "th2 tf2 tf1";
        Position pos = setup(ORG, before, 'a');
        REQUIRE_FALSE(pos.result().over());
        CHECK(result_after(pos, "h2-h4") == CANNOT_ESCAPE);
        // hnefatafl-rs has no such rule.
        Position rs = setup("copenhagen", before, 'a');
        CHECK_FALSE(result_after(rs, "h2-h4").over());
    }
    SECTION("the king trapped on his edge") {
        // King f1, h3-h1 closes d1 e1 g1 h1; 5 attackers (no inward test),
        // one defender soldier left: trapped.
        Position pos = setup(ORG, "Kf1 td1 te1 tg1 th3 Tf7 tb9", 'a');
        REQUIRE_FALSE(pos.result().over());
        CHECK(result_after(pos, "h3-h1") == CANNOT_ESCAPE);
        // Two defender soldiers: not trapped.
        Position two = setup(ORG, "Kf1 td1 te1 tg1 th3 Tf7 Tb7 tb9", 'a');
        CHECK_FALSE(result_after(two, "h3-h1").over());
        // Six attackers: the squares inward from him must be attackers too.
        Position six = setup(ORG, "Kf1 td1 te1 tg1 th3 Tf7 tb9 tj9", 'a');
        CHECK_FALSE(result_after(six, "h3-h1").over());
        Position inward = setup(ORG, "Kf1 td1 te1 tg1 th3 tf2 tf3 Tf7 tb9", 'a');
        CHECK(result_after(inward, "h3-h1") == CANNOT_ESCAPE);
        // Next to a corner along the edge: never.
        Position corner = setup(ORG, "Kb1 tc1 td3 Tf7 tb9", 'a');
        CHECK_FALSE(result_after(corner, "d3-d1").over());
    }
}

TEST_CASE("hnefatafl-org: the ply limit draws, after every other end", "[hnefatafl-org]") {
    // The server's count: the 133rd ply draws. Move 67 with the attackers
    // to move: 132 plies played.
    const std::string quiet = make_tfen(11, "Kf6 Tb9 ta2 tk5", 'a', 0, 67);
    Position pos = tfen(ORG, quiet);
    REQUIRE(pos.plies_played() == 132);
    CHECK(result_after(pos, "k5-k4") == PLY_DRAW);
    // The library's count (plyd:134) plays on.
    auto lib = parse_tfen(preset_with(ORG, "plyd:134"), quiet);
    REQUIRE(lib.ok());
    CHECK_FALSE(result_after(*lib, "k5-k4").over());
    // A king captured on that ply is still a win.
    Position capture = tfen(ORG, make_tfen(11, "Kf3 te3 tg3 tf2 tf5 Tb9", 'a', 0, 67));
    CHECK(result_after(capture, "f5-f4") == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
}

TEST_CASE("hnefatafl-org-brandubh: hnefatafl.org's 7x7", "[hnefatafl-org]") {
    Position start(edition(ORG7));
    CHECK(start.side_to_move() == DEFENDERS);
    SECTION("the king is captured by two off the throne, next to it and on the edge") {
        Position two = setup(ORG7, "Kc3 tb3 td6 Tf1", 'a');
        CHECK(result_after(two, "d6-d3") == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
        Position edge = setup(ORG7, "Kc1 tb1 td5 Tf6", 'a');
        CHECK(result_after(edge, "d5-d1") == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
        // Next to the throne: the throne does not count against him.
        Position throne = setup(ORG7, "Kc4 tb6 Tf6", 'a');
        CHECK_FALSE(result_after(throne, "b6-b4").over());
        // Next to a corner: the corner does not count.
        Position corner = setup(ORG7, "Kb1 tc5 Tf6", 'a');
        CHECK_FALSE(result_after(corner, "c5-c1").over());
        // On the throne: four.
        Position on = setup(ORG7, "Kd4 tc4 te4 td3 td6 Tf6", 'a');
        CHECK(result_after(on, "d6-d5") == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
        Position three = setup(ORG7, "Kd4 tc4 te4 td6 Tf6", 'a');
        CHECK_FALSE(result_after(three, "d6-d5").over());
    }
    SECTION("no exit fort") {
        CHECK_FALSE(setup(ORG7, "Tb1 Kc1 Td1 Tb2 Tc2 Td2 tg4 tf6", 'a').result().over());
    }
    SECTION("the server's list of boards lacks the 7x7 start") {
        Position p(edition(ORG7));
        Position with_start(preset_with(ORG7, "dbans:y"));
        for (const char* m : {"d5-e5", "a4-a5", "e5-f5", "a5-a4"}) {
            play(p, m);
            play(with_start, m);
        }
        // f5-d5 gives the start board again.
        CHECK(is_legal(p, "f5-d5"));
        CHECK_FALSE(is_legal(with_start, "f5-d5"));
        // The board after ply 1 is in both lists.
        CHECK_FALSE(is_legal(p, "f5-e5"));
        CHECK_FALSE(is_legal(with_start, "f5-e5"));
    }
}

TEST_CASE("hnefatafl-org: none of OpenTafl's shieldwall quirks (HNEFATAFL.md 2.1)",
          "[hnefatafl-org][shieldwall]") {
    struct Case {
        const char* what;
        const char* pieces;
        char side;
        const char* move;
        std::vector<const char*> taken;
        const char* unpinned; // the mirror: a pin missing, nothing taken
    };
    const Case cases[] = {
        {"quirk 1: the mover is its side's only edge piece",
         "Td3 Tb2 Kc2 tb1 tc1 tf1 ti1 th3 tj2",
         'd',
         "d3-d1",
         {"b1", "c1"},
         "Td3 Tb2 Ke5 tb1 tc1 tf1 ti1 th3 tj2"},
        {"quirk 2: a piece on its first move",
         "Td6 ta2 Kb2 Tc2 tf2 tb1 tc1 tg1 th1 Ta4 Tf11",
         'd',
         "d6-d1",
         {"b1", "c1"},
         "Td6 ta2 Kb3 Tc2 tf2 tb1 tc1 tg1 th1 Ta4 Tf11"},
        {"quirk 3: the mover is the low end, right after a corner",
         "Kk5 Tj4 Tj3 Tj2 tk4 tk3 tb6 tc9",
         'd',
         "j2-k2",
         {"k3", "k4"},
         "Kk5 Tj4 Tj2 tk4 tk3 tb6 tc9"},
        {"quirk 4: an own piece on the edge closes the run",
         "Tb5 tc1 td1 Te1 Tf1 Tc2 Td2 Te2 tk5 tk6 Kf6",
         'd',
         "b5-b1",
         {"c1", "d1"},
         "Tb5 tc1 td1 Te1 Tf1 Tc2 Te2 tk5 tk6 Kf6"},
        {"quirk 5: edges are judged alone",
         "tc11 te11 th11 Ti11 tb10 tf10 tg10 tj10 tf2 th2 ti2 tj2 tc1 tf1 Ti1 Tj1 Kf6 Tf8",
         'a',
         "h2-h1",
         {"i1", "j1"},
         "tc11 te11 th11 Ti11 tb10 tf10 tg10 tj10 tf2 th2 tj2 tc1 tf1 Ti1 Tj1 Kf6 Tf8"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        Position pos = setup(ORG, c.pieces, c.side);
        Bitboard taken = 0;
        for (const char* s : c.taken) taken |= square_bb(sq(pos, s));
        CHECK(captures_of(pos, c.move) == taken);
        Position ot = setup("opentafl-copenhagen", c.pieces, c.side);
        CHECK(captures_of(ot, c.move) == 0);
        Position unpinned = setup(ORG, c.unpinned, c.side);
        CHECK(captures_of(unpinned, c.move) == 0);
    }
}
