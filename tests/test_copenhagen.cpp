// Copenhagen as the Federation's games and hnefatafl-rs play it (preset
// `copenhagen`, HNEFATAFL.md column HRS) beside OpenTafl's reading
// (`opentafl-copenhagen`): perft from the start and from three positions of
// real games (HNEFATAFL.md section 3), and one position per rule and per
// difference of HNEFATAFL.md 1.2-1.5 and 2.1, each with its mirror where
// the rule does not fire.

#include <random>

#include "copenhagen_games.h"
#include "perft.h"
#include "test_helpers.h"
#include "text.h"

using namespace branan;
using namespace branan::testutil;

namespace {

const std::string START_11 =
    "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

EditionPtr copenhagen_with(RepetitionOutcome outcome) {
    auto r = preset_rules("copenhagen");
    REQUIRE(r.ok());
    r->repetition = outcome;
    auto edition = Edition::make(*r);
    REQUIRE(edition.ok());
    return *edition;
}

} // namespace

TEST_CASE("copenhagen: the new keys read, print only when they say something, and round-trip",
          "[copenhagen]") {
    auto r = preset_rules("copenhagen");
    REQUIRE(r.ok());
    CHECK(r->shieldwall == Shieldwall::STRONG);
    CHECK(r->shieldwall_code == RuleCode::HNEFATAFL_RS);
    CHECK(r->edge_fort);
    CHECK(r->edge_fort_code == RuleCode::HNEFATAFL_RS);
    CHECK(r->encirclement);
    CHECK(r->encirclement_code == RuleCode::HNEFATAFL_RS);
    CHECK(r->repetition == RepetitionOutcome::DEFENDERS_LOSE);
    CHECK(r->repetition_count == 3);
    CHECK(r->repetition_moves_only);
    CHECK_FALSE(r->no_defender_room_loses);
    CHECK(r->no_moves_loses);
    CHECK(r->king_strength == KingStrength::STRONG);
    const std::string text = print_rules(*r);
    for (const char* word : {" tfr:a ", " repm:y ", " swr:r ", " efr:r ", " surr:r ", " nrd:n "})
        CHECK(text.find(word) != std::string::npos);
    auto again = parse_rules(text);
    REQUIRE(again.ok());
    CHECK(*again == *r);

    // OpenTafl's readings are the defaults and are not printed.
    auto ot = preset_rules("opentafl-copenhagen");
    REQUIRE(ot.ok());
    CHECK(ot->shieldwall_code == RuleCode::OPENTAFL);
    CHECK(ot->edge_fort_code == RuleCode::OPENTAFL);
    CHECK(ot->encirclement_code == RuleCode::OPENTAFL);
    CHECK_FALSE(ot->repetition_moves_only);
    for (const char* key : {"repm:", "swr:", "efr:", "surr:"})
        CHECK(print_rules(*ot).find(key) == std::string::npos);
    auto hrs = parse_rules("dim:11 tfr:w repm:y sw:s swr:r efr:o surr:o " + START_11);
    REQUIRE(hrs.ok());
    CHECK(hrs->repetition == RepetitionOutcome::MOVER_LOSES);
    CHECK(hrs->shieldwall_code == RuleCode::HNEFATAFL_RS);
    CHECK(hrs->edge_fort_code == RuleCode::OPENTAFL);
    for (const char* bad :
         {"dim:11 swr:x", "dim:11 efr:y", "dim:11 surr:", "dim:11 repm:2", "dim:11 tfr:q"}) {
        INFO(bad);
        CHECK_FALSE(parse_rules(bad).ok());
    }
}

TEST_CASE("copenhagen: perft from the start equals hnefatafl-rs's", "[copenhagen][perft][long]") {
    Position pos(edition("copenhagen"));
    const uint64_t expect[] = {1, 116, 6788, 806344, 50456804};
    for (int d = 1; d <= testutil::scaled_depth(4); ++d) {
        INFO("depth " << d);
        CHECK(perft(pos, d) == expect[d]);
    }
    CHECK(perft_by_making(pos, 3) == expect[3]);
}

TEST_CASE("copenhagen: perft from three positions of real games equals hnefatafl-rs's",
          "[copenhagen][perft]") {
    check_middlegame_perft(
        "copenhagen", {{1, 95, 12339, 1151028}, {1, 70, 10942, 776073}, {1, 79, 11588, 910635}});
}

TEST_CASE("copenhagen: the leaves HNEFATAFL.md names at depth 1 of P1, P2, P3",
          "[copenhagen][shieldwall]") {
    // P1: d3-d1 takes b1 c1 (a corner-closed wall, the king as a pin, the
    // mover the only edge defender: OpenTafl's quirk 1).
    Position p1 = from_start("copenhagen", P1);
    CHECK(captures_of(p1, "d3-d1") == squares(p1, {"b1", "c1"}));
    Position p1_ot = from_start("opentafl-copenhagen", P1);
    CHECK(captures_of(p1_ot, "d3-d1") == 0);
    // P2: j2-k2 takes k3 k4 (the mover enters next to a corner: quirk 3).
    Position p2 = from_start("copenhagen", P2);
    CHECK(captures_of(p2, "j2-k2") == squares(p2, {"k3", "k4"}));
    Position p2_ot = from_start("opentafl-copenhagen", P2);
    CHECK(captures_of(p2_ot, "j2-k2") == 0);
    // P3: e2-e1 makes an exit fort whose wall is safe through empty squares
    // inside it.
    Position p3 = from_start("copenhagen", P3);
    CHECK(result_after(p3, "e2-e1") == FORT);
    // OpenTafl ends the game already a ply earlier, with the king off the
    // edge (HNEFATAFL.md 2.2 E).
    Position p3_ot(edition("opentafl-copenhagen"));
    const std::vector<std::string_view> words = split_words(P3);
    for (size_t i = 0; i + 1 < words.size(); ++i)
        play(p3_ot, std::string(words[i].substr(0, words[i].find('x'))));
    CHECK(p3_ot.result() == FORT);
}

TEST_CASE("copenhagen: the shieldwall as hnefatafl-rs checks it, with no OpenTafl quirk",
          "[copenhagen][shieldwall]") {
    SECTION("quirk 1: a corner-closed wall whose mover is its side's only edge piece") {
        // HNEFATAFL.md 2.2 A (game 180).
        const char* pieces = "Td3 Tb2 Kc2 tb1 tc1 tf1 ti1 th3 tj2";
        Position pos = setup("copenhagen", pieces, 'd');
        CHECK(captures_of(pos, "d3-d1") == squares(pos, {"b1", "c1"}));
        Position ot = setup("opentafl-copenhagen", pieces, 'd');
        CHECK(captures_of(ot, "d3-d1") == 0);
        // Mirror: without the pin on c2 there is no wall.
        Position unpinned = setup("copenhagen", "Td3 Tb2 Ke5 tb1 tc1 tf1 ti1 th3 tj2", 'd');
        CHECK(captures_of(unpinned, "d3-d1") == 0);
    }
    SECTION("quirk 2: a piece on its first move captures") {
        // HNEFATAFL.md 2.2 B (game 937): d6 has never moved.
        const char* pieces = "Td6 ta2 Kb2 Tc2 tf2 tb1 tc1 tg1 th1 Ta4 Tf11";
        Position pos = setup("copenhagen", pieces, 'd');
        CHECK(captures_of(pos, "d6-d1") == squares(pos, {"b1", "c1"}));
        Position ot = setup("opentafl-copenhagen", pieces, 'd');
        CHECK(captures_of(ot, "d6-d1") == 0);
        Position unpinned =
            setup("copenhagen", "Td6 ta2 Kb3 Tc2 tf2 tb1 tc1 tg1 th1 Ta4 Tf11", 'd');
        CHECK(captures_of(unpinned, "d6-d1") == 0);
    }
    SECTION("quirk 3: the mover is the low end, right after a corner") {
        // HNEFATAFL.md 2.2 C (game 56): j2-k2 takes k3 k4, closed by the king.
        const char* pieces = "Kk5 Tj4 Tj3 Tj2 tk4 tk3 tb6 tc9";
        Position pos = setup("copenhagen", pieces, 'd');
        CHECK(captures_of(pos, "j2-k2") == squares(pos, {"k3", "k4"}));
        Position ot = setup("opentafl-copenhagen", pieces, 'd');
        CHECK(captures_of(ot, "j2-k2") == 0);
        Position unpinned = setup("copenhagen", "Kk5 Tj4 Tj2 tk4 tk3 tb6 tc9", 'd');
        CHECK(captures_of(unpinned, "j2-k2") == 0);
    }
    SECTION("quirk 4: an own piece on the edge closes the run, own pieces beside and inside it") {
        Position pos = setup("copenhagen", "Tb5 tc1 td1 Te1 Tf1 Tc2 Td2 Te2 tk5 tk6 Kf6", 'd');
        CHECK(captures_of(pos, "b5-b1") == squares(pos, {"c1", "d1"}));
        Position unpinned = setup("copenhagen", "Tb5 tc1 td1 Te1 Tf1 Tc2 Te2 tk5 tk6 Kf6", 'd');
        CHECK(captures_of(unpinned, "b5-b1") == 0);
    }
    SECTION("quirk 5: edges are judged alone") {
        // HNEFATAFL.md 2.2 D (game 1336), the attackers close i1 j1 against
        // corner k1 while the top edge holds an open run.
        const char* pieces = "tc11 te11 th11 Ti11 tb10 tf10 tg10 tj10 tf2 th2 ti2 tj2 tc1 tf1 Ti1 "
                             "Tj1 Kf6 Tf8";
        Position pos = setup("copenhagen", pieces, 'a');
        CHECK(captures_of(pos, "h2-h1") == squares(pos, {"i1", "j1"}));
        Position unpinned = setup("copenhagen",
                                  "tc11 te11 th11 Ti11 tb10 tf10 tg10 tj10 tf2 th2 tj2 tc1 tf1 Ti1 "
                                  "Tj1 Kf6 Tf8",
                                  'a');
        CHECK(captures_of(unpinned, "h2-h1") == 0);
    }
    SECTION("an empty edge square ends the run") {
        // d1 and b1 each have a pin, c1 is empty: nothing; with c1 filled,
        // the three are a wall closed by the corner.
        Position gap = setup("copenhagen", "Te5 td1 tb1 Td2 Tc2 Tb2 tk5 Kf6", 'd');
        CHECK(captures_of(gap, "e5-e1") == 0);
        Position full = setup("copenhagen", "Te5 td1 tc1 tb1 Td2 Tc2 Tb2 tk5 Kf6", 'd');
        CHECK(captures_of(full, "e5-e1") == squares(full, {"b1", "c1", "d1"}));
    }
    SECTION("a mover bracketing two walls takes the one toward file a only") {
        // HNEFATAFL.md 1.2, double wall: hnefatafl-rs takes b1 c1, not e1 f1.
        Position pos = setup("copenhagen", "td5 tb2 tc2 te2 tf2 Tb1 Tc1 Te1 Tf1 tg1 Kf6", 'a');
        CHECK(captures_of(pos, "d5-d1") == squares(pos, {"b1", "c1"}));
        // Mirror: without the low wall, the high one is taken.
        Position high = setup("copenhagen", "td5 te2 tf2 Te1 Tf1 tg1 Kf6 Tb1", 'a');
        CHECK(captures_of(high, "d5-d1") == squares(high, {"e1", "f1"}));
    }
    SECTION("the king stands in a wall and is not taken; a lone piece is no wall") {
        Position pos = setup("copenhagen", "Kb1 Tc1 tb2 tc2 td5 tk5", 'a');
        CHECK(captures_of(pos, "d5-d1") == square_bb(sq(pos, "c1")));
        CHECK(at(pos, "b1") == KING);
        Position lone = setup("copenhagen", "Tc1 tc2 td5 tk5 Kf6 Tb3", 'a');
        CHECK(captures_of(lone, "d5-d1") == 0);
    }
    SECTION("a move into the inner row never captures") {
        Position pos = setup("copenhagen", "td1 tc3 tb2 Tb1 Tc1 tk5 Kf6", 'a');
        CHECK(captures_of(pos, "c3-c2") == 0);
    }
}

TEST_CASE("copenhagen: the king is captured on four sides or three and the throne, never on the "
          "edge",
          "[copenhagen]") {
    Position four = setup("copenhagen", "Kf3 te3 tg3 tf2 tf5 Tb9", 'a');
    CHECK(result_after(four, "f5-f4") == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    Position three = setup("copenhagen", "Kf3 te3 tg3 tf5 Tb9", 'a');
    CHECK_FALSE(result_after(three, "f5-f4").over());
    Position throne = setup("copenhagen", "Ke6 td6 te5 te8 Tb9", 'a');
    CHECK(result_after(throne, "e8-e7") == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    Position throne_three = setup("copenhagen", "Ke6 td6 te8 Tb9", 'a');
    CHECK_FALSE(result_after(throne_three, "e8-e7").over());
    Position edge = setup("copenhagen", "Kf1 te1 tg1 tf3 Tb9", 'a');
    CHECK_FALSE(result_after(edge, "f3-f2").over());
}

TEST_CASE("copenhagen: the exit fort as hnefatafl-rs checks it", "[copenhagen][edge-fort]") {
    SECTION("the mirror pair of HNEFATAFL.md 1.3: both sides are forts") {
        Position left =
            setup("copenhagen", "Ta8 Tb8 Tb7 Tc7 Kb6 Tc6 Tb5 Tc5 Ta4 Tb4 tj10 tj2", 'd');
        CHECK(result_after(left, "b6-a6") == FORT);
        Position right =
            setup("copenhagen", "Tk8 Tj8 Tj7 Ti7 Kj6 Ti6 Tj5 Ti5 Tk4 Tj4 tb10 tb2", 'd');
        CHECK(result_after(right, "j6-k6") == FORT);
        // Mirror: without a4 the region runs down to corner a1.
        Position open = setup("copenhagen", "Ta8 Tb8 Tb7 Tc7 Kb6 Tc6 Tb5 Tc5 Tb4 tj10 tj2", 'd');
        CHECK_FALSE(result_after(open, "b6-a6").over());
    }
    SECTION("the wall's safety is per axis; squares inside the fort protect") {
        // OTN.md's diagrams: R = {d1, e1} is a fort; R = {d1, e1, e2} is one
        // only when e3 is held on its left-right axis (d3).
        Position small = setup("copenhagen", "Tc1 Kd1 Tf1 Td2 Te5 tk10 tj9", 'd');
        CHECK(result_after(small, "e5-e2") == FORT);
        Position loose = setup("copenhagen", "Tc1 Kd1 Tf1 Td2 Tf2 Te5 tk10 tj9", 'd');
        CHECK_FALSE(result_after(loose, "e5-e3").over());
        Position held = setup("copenhagen", "Tc1 Kd1 Tf1 Td2 Tf2 Td3 Te5 tk10 tj9", 'd');
        CHECK(result_after(held, "e5-e3") == FORT);
        // OpenTafl counts neighbours instead: e3 with two open neighbours on
        // one line (d3, f3; e4 held) passes its test, not hnefatafl-rs's.
        const char* line = "Tc1 Kd1 Tf1 Td2 Tf2 Ta3 Te4 tk10 tj9";
        Position line_ot = setup("opentafl-copenhagen", line, 'd');
        CHECK(result_after(line_ot, "a3-e3") == FORT);
        Position line_rs = setup("copenhagen", line, 'd');
        CHECK_FALSE(result_after(line_rs, "a3-e3").over());
    }
    SECTION("an attacker next to the region, or the king off the edge: no fort") {
        Position touched = setup("copenhagen", "Tc1 Kd1 tf1 Td2 Te5 tj9", 'd');
        CHECK_FALSE(result_after(touched, "e5-e2").over());
        // HNEFATAFL.md 2.2 E (game 1165): king on i4, R = {i4 j4 k4}.
        const char* off = "ta5 Th5 Ti5 Tj5 Tk5 ta4 Th4 Ki4 tb3 Ti3 Tj3 Tk3 Tf9";
        Position rs = setup("copenhagen", off, 'd');
        CHECK_FALSE(result_after(rs, "f9-f10").over());
        // OpenTafl: a fort already (R reaches the edge).
        CHECK(setup("opentafl-copenhagen", off, 'd').result() == FORT);
        // Mirror: the same fort with the king on the edge (k4).
        Position on =
            setup("copenhagen", "ta5 Th5 Ti5 Tj5 Tk5 ta4 Th4 Kk4 tb3 Ti3 Tj3 Tk3 Tf9", 'd');
        CHECK(result_after(on, "f9-f10") == FORT);
    }
    SECTION("looked for after the defenders' moves only") {
        // The same fort: with the attackers to move the defenders made it;
        // with the defenders to move the attackers moved last.
        const char* fort = "Tc1 Kd1 Tf1 Td2 Te2 tk10 tj9";
        CHECK(setup("copenhagen", fort, 'a').result() == FORT);
        CHECK_FALSE(setup("copenhagen", fort, 'd').result().over());
        CHECK(setup("opentafl-copenhagen", fort, 'd').result() == FORT);
    }
}

TEST_CASE("copenhagen: encirclement as hnefatafl-rs checks it", "[copenhagen]") {
    // Region {c4 K, d4}; ring b4 c3 c5 d3 d5, closed by e10-e4.
    const char* ring = "Kc4 tb4 tc3 tc5 td3 td5 te10";
    Position pos = setup("copenhagen", ring, 'a');
    CHECK(result_after(pos, "e10-e4") == ENCIRCLEMENT);
    SECTION("a defender outside the ring") {
        Position out = setup("copenhagen", std::string(ring) + " Ti9", 'a');
        CHECK_FALSE(result_after(out, "e10-e4").over());
    }
    SECTION("a ring attacker that could be taken against the empty throne") {
        // The same ring two ranks up: e6 stands between d6 (inside) and the
        // empty throne f6.
        Position thr = setup("copenhagen", "Kc6 tb6 tc5 tc7 td5 td7 te10", 'a');
        CHECK_FALSE(result_after(thr, "e10-e6").over());
        Position ot = setup("opentafl-copenhagen", "Kc6 tb6 tc5 tc7 td5 td7 te10", 'a');
        CHECK(result_after(ot, "e10-e6") == ENCIRCLEMENT);
    }
    SECTION("looked for after the attackers' moves only") {
        const char* closed = "Kc4 tb4 tc3 tc5 td3 td5 te4 tk9";
        CHECK(setup("copenhagen", closed, 'd').result() == ENCIRCLEMENT);
        CHECK_FALSE(setup("copenhagen", closed, 'a').result().over());
        CHECK(setup("opentafl-copenhagen", closed, 'a').result() == ENCIRCLEMENT);
    }
}

TEST_CASE("copenhagen: repetition, the Federation's form and hnefatafl-rs's",
          "[copenhagen][repetition]") {
    // A king and an attacker shuffle: the position after ply 1 comes back at
    // plies 5 and 9, the start at plies 4 and 8.
    const std::string tfen_text = make_tfen(11, "Kd4 th8 Tb9 tj2", 'a');
    const char* shuffle[] = {"h8-h9", "d4-d5", "h9-h8", "d5-d4"};
    auto play_plies = [&](Position& pos, int n) {
        for (int i = 0; i < n; ++i) play(pos, shuffle[i % 4]);
    };
    SECTION("hnefatafl-rs: the third occurrence since the last capture loses for the mover; the "
            "start is not counted") {
        auto pos = parse_tfen(copenhagen_with(RepetitionOutcome::MOVER_LOSES), tfen_text);
        REQUIRE(pos.ok());
        play_plies(*pos, 8);
        CHECK_FALSE(pos->result().over());
        play_plies(*pos, 1);
        CHECK(pos->result() == game(Winner::DEFENDERS, EndReason::REPETITION));
    }
    SECTION("the Federation: the same repetition loses for the defenders, whoever made it") {
        Position pos = tfen("copenhagen", tfen_text);
        play_plies(pos, 8);
        CHECK_FALSE(pos.result().over());
        play_plies(pos, 1);
        CHECK(pos.result() == game(Winner::ATTACKERS, EndReason::REPETITION));
    }
    SECTION("OpenTafl counts the start: the defenders' eighth ply is the third") {
        Position pos = tfen("opentafl-copenhagen", tfen_text);
        play_plies(pos, 8);
        CHECK(pos.result() == game(Winner::ATTACKERS, EndReason::REPETITION));
    }
    SECTION("the position a capture made is not counted") {
        // f5-f3 takes e3; the shuffle then brings that position back at
        // plies 5 and 9 and the one after it at plies 2, 6 and 10.
        const std::string cap = make_tfen(11, "Kc8 Td3 te3 Tf5 th8 tj2", 'd');
        const char* after[] = {"h8-h9", "c8-c9", "h9-h8", "c9-c8"};
        auto replay = [&](Position& pos, int n) {
            play(pos, "f5-f3");
            REQUIRE(pos.last_captured() == square_bb(sq(pos, "e3")));
            for (int i = 0; i < n - 1; ++i) play(pos, after[i % 4]);
        };
        auto rs = parse_tfen(copenhagen_with(RepetitionOutcome::MOVER_LOSES), cap);
        REQUIRE(rs.ok());
        replay(*rs, 9);
        CHECK_FALSE(rs->result().over());
        play(*rs, after[0]);
        CHECK(rs->result() == game(Winner::DEFENDERS, EndReason::REPETITION));
        Position ot = tfen("opentafl-copenhagen", cap);
        replay(ot, 9);
        CHECK(ot.result() == game(Winner::ATTACKERS, EndReason::REPETITION));
    }
}

TEST_CASE("copenhagen: occurrences counts as hnefatafl-rs does in random games",
          "[copenhagen][repetition]") {
    // hnefatafl-rs's history: the positions made by non-capturing moves
    // since the last capture; the start and the position a capture made are
    // not in it.
    std::mt19937 rng(1919);
    int repeats_seen = 0, captures_seen = 0;
    for (int g = 0; g < 40; ++g) {
        Position pos(edition("copenhagen"));
        std::vector<uint64_t> history;
        std::vector<Move> mine;
        for (int ply = 0; ply < 300; ++ply) {
            if (pos.decided().over()) break;
            const Move m = repeating_random_move(pos, mine, rng);
            if (m.is_none()) break;
            pos.make_move(m);
            mine.push_back(m);
            int naive = 1;
            if (pos.last_captured()) {
                history.clear();
                ++captures_seen;
            } else {
                for (uint64_t k : history) naive += k == pos.compute_key();
                history.push_back(pos.compute_key());
            }
            REQUIRE(pos.occurrences() == naive);
            repeats_seen += naive > 1;
        }
    }
    CHECK(repeats_seen > 100);
    CHECK(captures_seen > 20);
}
