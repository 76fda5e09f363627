// OpenTafl's shieldwall capture (sw, swf) and edge-fort escape (efe), as its
// code judges them (OTN.md, docs/rules.md "Shieldwall and edge forts"): the
// diagrams of OTN.md, one position per scan quirk, walls on every edge,
// corners, kings, the Copenhagen presets' make/unmake, Zobrist key, perft
// and reply counts.

#include <algorithm>
#include <functional>
#include <memory>
#include <random>

#include "capture.h"
#include "perft.h"
#include "reply_count.h"
#include "shieldwall.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

// 9x9 with Tablut's start (only for which squares count as never moved:
// a piece on a start square of its kind has not moved yet).
const std::string START9 = "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
const std::string SW9 = "dim:9 atkf:y sw:s ";

Position sw9(const std::string& swf, const std::string& pieces, char side) {
    return rules_setup(SW9 + "swf:" + swf + " " + START9, pieces, side);
}

bool empty_at(const Position& pos, const std::string& s) {
    return at(pos, s) == NO_PIECE;
}

// The squares (as text) a move captures in pos, by making and unmaking it.
Bitboard captures_of(Position& pos, const std::string& move) {
    pos.make_move(legal(pos, move));
    const Bitboard c = pos.last_captured();
    pos.unmake_move();
    return c;
}

Bitboard squares(const Position& pos, std::initializer_list<const char*> names) {
    Bitboard b = 0;
    for (const char* n : names) b |= square_bb(sq(pos, n));
    return b;
}

} // namespace

TEST_CASE("shieldwall: the rules keys parse, print only when not default, and round-trip",
          "[shieldwall]") {
    for (const char* preset : {"opentafl-copenhagen", "opentafl-copenhagen-relaxed"}) {
        auto r = preset_rules(preset);
        REQUIRE(r.ok());
        CHECK(r->shieldwall == Shieldwall::STRONG);
        CHECK(r->edge_fort);
        CHECK(r->shieldwall_flank == (std::string(preset) == "opentafl-copenhagen"));
        auto again = parse_rules(print_rules(*r));
        REQUIRE(again.ok());
        CHECK(*again == *r);
    }
    auto weak = parse_rules("dim:7 sw:w swf:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    REQUIRE(weak.ok());
    CHECK(weak->shieldwall == Shieldwall::WEAK);
    CHECK_FALSE(weak->shieldwall_flank);
    CHECK(print_rules(*weak).find(" sw:w swf:n") != std::string::npos);
    // The defaults are not printed: the other presets' strings stay as they were.
    auto brandubh = preset_rules("brandubh");
    REQUIRE(brandubh.ok());
    const std::string printed = print_rules(*brandubh);
    CHECK(printed.find("sw:") == std::string::npos);
    CHECK(printed.find("efe:") == std::string::npos);
    CHECK_FALSE(parse_rules("dim:7 sw:x start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").ok());
}

TEST_CASE("shieldwall: OTN.md diagram 1, corner and piece close the wall", "[shieldwall]") {
    // a1 corner, b1 t, c1 T d1 T with c2 t d2 t, a moved attacker arrives on e1.
    for (const char* swf : {"y", "n"}) {
        INFO("swf:" << swf);
        Position pos = sw9(swf, "tb1 Tc1 Td1 tc2 td2 te3 Kg5", 'a');
        play(pos, "e3-e1");
        CHECK(empty_at(pos, "c1"));
        CHECK(empty_at(pos, "d1"));
        CHECK(at(pos, "b1") == ATTACKER);
        CHECK(pos.last_captured() == squares(pos, {"c1", "d1"}));
        CHECK(pos.plies_since_capture() == 0);
    }
}

TEST_CASE("shieldwall: OTN.md diagram 2, the corner closes, quirk 1 needs two edge pieces",
          "[shieldwall]") {
    for (const char* swf : {"y", "n"}) {
        INFO("swf:" << swf);
        // Only the arriving attacker on an edge: no wall is looked for.
        Position alone = sw9(swf, "Tb1 Tc1 tb2 tc2 td3 Kg5", 'a');
        CHECK(captures_of(alone, "d3-d1") == 0);
        // Another attacker on an edge (i7): b1 c1 are taken.
        Position pos = sw9(swf, "Tb1 Tc1 tb2 tc2 td3 ti7 Kg5", 'a');
        play(pos, "d3-d1");
        CHECK(pos.last_captured() == squares(pos, {"b1", "c1"}));
    }
}

TEST_CASE("shieldwall: OTN.md diagram 3, the low end after a corner is not recorded (quirk 3)",
          "[shieldwall]") {
    // b1 arrives (moved before), c1 d1 T with c2 d2 t, e1 t closes.
    Position strict = sw9("y", "Tc1 Td1 tc2 td2 te1 tb3 Kg5", 'a');
    CHECK(captures_of(strict, "b3-b1") == 0);
    Position relaxed = sw9("n", "Tc1 Td1 tc2 td2 te1 tb3 Kg5", 'a');
    play(relaxed, "b3-b1");
    CHECK(relaxed.last_captured() == squares(relaxed, {"c1", "d1"}));
}

TEST_CASE("shieldwall: swf:y, a piece on its first move never closes a wall (quirk 2)",
          "[shieldwall]") {
    // Diagram 1 with the arriving attacker on f1, a start square of Tablut's
    // attackers: it has not moved yet, so swf:y takes nothing.
    Position first = sw9("y", "tb1 Tc1 Td1 tc2 td2 tf1 Kg5", 'a');
    CHECK((first.developed() & square_bb(sq(first, "f1"))) == 0);
    CHECK(captures_of(first, "f1-e1") == 0);
    // swf:n does not ask who arrives.
    Position relaxed = sw9("n", "tb1 Tc1 Td1 tc2 td2 tf1 Kg5", 'a');
    CHECK(captures_of(relaxed, "f1-e1") == squares(relaxed, {"c1", "d1"}));
    // Once it has moved (and come back), it closes the wall.
    Position later = sw9("y", "tb1 Tc1 Td1 tc2 td2 tf1 Kg5 Th8", 'a');
    const Bitboard initially = later.developed();
    play_all(later, "f1-f3 h8-h7 f3-f1 h7-h8");
    CHECK(test(later.developed(), sq(later, "f1")));
    play(later, "f1-e1");
    CHECK(later.last_captured() == squares(later, {"c1", "d1"}));
    // Unmaking restores who has moved.
    later.unmake_move();
    later.unmake_move();
    later.unmake_move();
    CHECK(test(later.developed(), sq(later, "f3")));
    later.unmake_move();
    later.unmake_move();
    CHECK((later.developed() == initially));
}

TEST_CASE("shieldwall: a closer with its own piece inside is swallowed into the run (quirk 4)",
          "[shieldwall]") {
    for (const char* swf : {"y", "n"}) {
        INFO("swf:" << swf);
        // Diagram 2, but with an attacker inside the arriving closer (d2).
        Position swallowed = sw9(swf, "Tb1 Tc1 tb2 tc2 td2 ti7 tg1 Kg5", 'a');
        CHECK(captures_of(swallowed, "g1-d1") == 0);
        Position open = sw9(swf, "Tb1 Tc1 tb2 tc2 ti7 tg1 Kg5", 'a');
        CHECK(captures_of(open, "g1-d1") == squares(open, {"b1", "c1"}));
    }
}

TEST_CASE("shieldwall: a wall ending at a corner leaks into the next edge (quirk 5)",
          "[shieldwall]") {
    // Copenhagen: on rank 1 the attackers' wall h1 | i1 j1 | corner k1 stands
    // uncaptured. On rank 11 (the next edge scanned) d11 closes a wall from
    // the corner a11: the scan's lists still hold i1 and j1, which fall too.
    const std::string leak = "th1 Ti1 Tj1 ti2 tj2 Tb11 Tc11 tb10 tc10 td9 Kf6";
    Position pos = setup("opentafl-copenhagen", leak, 'a');
    play(pos, "d9-d11");
    CHECK(pos.last_captured() == squares(pos, {"b11", "c11", "i1", "j1"}));
    // Without the rank-1 wall only the rank-11 wall falls.
    Position plain = setup("opentafl-copenhagen", "Tb11 Tc11 tb10 tc10 td9 ti5 tk5 Kf6", 'a');
    play(plain, "d9-d11");
    CHECK(plain.last_captured() == squares(plain, {"b11", "c11"}));
}

TEST_CASE("shieldwall: swf:n captures a side's homogeneous wall when the other side moves",
          "[shieldwall]") {
    // Defenders b1 c1 d1 e1 with defenders inside c1 and d1: OpenTafl's scan
    // records c1 d1 as a defenders' wall, and its capture test asks only
    // that every wall square hold a piece not of the mover's side.
    const std::string pieces = "Tb1 Tc1 Td1 Te1 Tc2 Td2 ta5 tk5 tg9 Kf6";
    Position relaxed = setup("opentafl-copenhagen-relaxed", pieces, 'a');
    CHECK(captures_of(relaxed, "g9-g8") == squares(relaxed, {"c1", "d1"}));
    Position strict = setup("opentafl-copenhagen", pieces, 'a');
    CHECK(captures_of(strict, "g9-g8") == 0);
}

TEST_CASE("shieldwall: walls on every edge", "[shieldwall]") {
    // The same wall on each edge, mapped: `along` from file a / rank 1,
    // `depth` from the edge inward. A closer at 2, defenders at 3 and 4 with
    // attackers inside them, the arriving attacker comes to 5 from depth 3.
    const int n = 11;
    auto name = [&](int edge, int along, int depth) {
        int file = 0, rank = 0;
        switch (edge) {
        case 0:
            file = along, rank = depth;
            break;
        case 1:
            file = along, rank = n - 1 - depth;
            break;
        case 2:
            file = depth, rank = along;
            break;
        default:
            file = n - 1 - depth, rank = along;
        }
        std::string text(1, char('a' + file));
        text += std::to_string(rank + 1);
        return text;
    };
    for (const char* preset : {"opentafl-copenhagen", "opentafl-copenhagen-relaxed"})
        for (int edge = 0; edge < 4; ++edge) {
            INFO(preset << " edge " << edge);
            const std::string pieces = std::string(1, 't') + name(edge, 2, 0) + " T" +
                                       name(edge, 3, 0) + " T" + name(edge, 4, 0) + " t" +
                                       name(edge, 3, 1) + " t" + name(edge, 4, 1) + " t" +
                                       name(edge, 5, 3) + " Kf6";
            Position pos = setup(preset, pieces, 'a');
            play(pos, name(edge, 5, 3) + "-" + name(edge, 5, 0));
            CHECK(empty_at(pos, name(edge, 3, 0)));
            CHECK(empty_at(pos, name(edge, 4, 0)));
            CHECK(popcount(pos.last_captured()) == 2);
            // swf:y: the inner row closing the wall takes nothing; swf:n does.
            Position inner =
                setup(preset,
                      std::string(1, 't') + name(edge, 2, 0) + " T" + name(edge, 3, 0) + " T" +
                          name(edge, 4, 0) + " t" + name(edge, 3, 1) + " t" + name(edge, 4, 3) +
                          " t" + name(edge, 5, 0) + " Kf6",
                      'a');
            const Bitboard c = captures_of(inner, name(edge, 4, 3) + "-" + name(edge, 4, 1));
            CHECK((c != 0) == (std::string(preset) == "opentafl-copenhagen-relaxed"));
        }
}

TEST_CASE("shieldwall: defenders wall too, and the king closes a wall", "[shieldwall]") {
    // Defenders' wall on file a: the king arrives as the closer (he has
    // moved before: not on his start square).
    Position pos = setup("opentafl-copenhagen", "Ta3 ta4 ta5 Tb4 Tb5 Kc6 tk5 tk6", 'd');
    play(pos, "c6-a6");
    CHECK(pos.last_captured() == squares(pos, {"a4", "a5"}));
}

TEST_CASE("shieldwall: sw:s closes at a corner, sw:w does not", "[shieldwall]") {
    const std::string start11 =
        "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    const std::string pieces = "Tb1 Tc1 tb2 tc2 td3 tk5 Kf6";
    Position strong = rules_setup("dim:11 sw:s " + start11, pieces, 'a');
    CHECK(captures_of(strong, "d3-d1") == squares(strong, {"b1", "c1"}));
    Position weak = rules_setup("dim:11 sw:w " + start11, pieces, 'a');
    CHECK(captures_of(weak, "d3-d1") == 0);
    // sw:w with a piece at each end captures.
    Position ends = rules_setup("dim:11 sw:w " + start11, "tb1 Tc1 Td1 tc2 td2 te3 tk5 Kf6", 'a');
    CHECK(captures_of(ends, "e3-e1") == squares(ends, {"c1", "d1"}));
}

TEST_CASE("shieldwall: a king in a wall counts but is not captured", "[shieldwall]") {
    Position pos = setup("opentafl-copenhagen", "tc1 Td1 Ke1 td2 te2 tf3 tk5", 'a');
    play(pos, "f3-f1");
    CHECK(empty_at(pos, "d1"));
    CHECK(at(pos, "e1") == KING);
    CHECK(pos.last_captured() == squares(pos, {"d1"}));
    CHECK_FALSE(pos.decided().over());
    // Unmake puts the defender back.
    pos.unmake_move();
    CHECK(at(pos, "d1") == DEFENDER);
    CHECK(pos.key() == pos.compute_key());
}

TEST_CASE("shieldwall: no capture when a wall square is empty or the mover's own", "[shieldwall]") {
    for (const char* preset : {"opentafl-copenhagen", "opentafl-copenhagen-relaxed"}) {
        INFO(preset);
        // An empty square in the run.
        Position gap = setup(preset, "tc1 Td1 te2 td2 tf3 tk5 Tk9 Kf6", 'a');
        CHECK(captures_of(gap, "f3-f1") == 0);
        // An attacker inside the run (on the edge, with an attacker inside it).
        Position own = setup(preset, "tc1 Td1 te1 td2 te2 tf3 tk5 Tk9 Kf6", 'a');
        CHECK(captures_of(own, "f3-f1") == 0);
    }
}

TEST_CASE("edge fort: OTN.md diagrams", "[shieldwall]") {
    // Left: R = {d1, e1}: the defenders win.
    Position left = setup("opentafl-copenhagen", "Tc1 Kd1 Tf1 Td2 Te2 tf9 tg9 th8", 'a');
    CHECK(left.decided() == game(Winner::DEFENDERS, EndReason::EDGE_FORT));
    // Right: R = {d1, e1, e2}; e3 has three open neighbours: no win.
    Position right = setup("opentafl-copenhagen", "Tc1 Kd1 Tf1 Td2 Tf2 Te3 tf9 tg9 th8", 'a');
    CHECK(right.decided() == ONGOING);
    // With d3 T: win. Reached by a move, judged after it.
    Position closing = setup("opentafl-copenhagen", "Tc1 Kd1 Tf1 Td2 Tf2 Te3 Tc3 tf9 tg9 th8", 'd');
    play(closing, "c3-d3");
    CHECK(closing.decided() == game(Winner::DEFENDERS, EndReason::EDGE_FORT));
    CHECK(closing.result() == game(Winner::DEFENDERS, EndReason::EDGE_FORT));
    CHECK(std::string(to_string(EndReason::EDGE_FORT)) == "edge-fort");
    // An attacker next to R: no win.
    Position touched = setup("opentafl-copenhagen", "Tc1 Kd1 Tf1 Td2 te2 tf9 th8", 'a');
    CHECK(touched.decided() == ONGOING);
    // Without efe nothing ends.
    const std::string start11 =
        "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    Position off = rules_setup("dim:11 " + start11, "Tc1 Kd1 Tf1 Td2 Te2 tf9 tg9 th8", 'a');
    CHECK(off.decided() == ONGOING);
}

TEST_CASE("edge fort: a king in the defenders' wall wins even with an attacker in it",
          "[shieldwall]") {
    // The scan from the corner a1: b1 c1 empty with b2 c2 defenders inside,
    // the king d1 with d2, an attacker e1 with e2, the closer f1. The king
    // can move (c1 b1): condition 1 holds, although an attacker touches R.
    const std::string pieces = "Tb2 Tc2 Kd1 Td2 te1 Te2 Tf1 tk5 tf9";
    Position pos = setup("opentafl-copenhagen", pieces, 'a');
    CHECK(pos.decided() == game(Winner::DEFENDERS, EndReason::EDGE_FORT));
    // Quirk 1: with one attacker on an edge there is no wall, and
    // condition 2 fails (e1 touches R).
    Position alone = setup("opentafl-copenhagen", "Tb2 Tc2 Kd1 Td2 te1 Te2 Tf1 tf9", 'a');
    CHECK(alone.decided() == ONGOING);
    // A king without a move wins nothing.
    Position stuck = setup("opentafl-copenhagen", "Tc1 Kd1 Td2 te1 Te2 Tf1 tk5 tf9", 'a');
    CHECK(stuck.decided() == ONGOING);
}

TEST_CASE("shieldwall: make/unmake and the Zobrist key over long random games", "[shieldwall]") {
    std::mt19937 rng(4242);
    long wall_captures = 0;
    for (const char* preset : {"opentafl-copenhagen", "opentafl-copenhagen-relaxed"}) {
        INFO(preset);
        long plies = 0, forts = 0;
        for (int g = 0; g < 16; ++g) {
            Position pos(edition(preset));
            struct Snap {
                std::string tfen;
                uint64_t key;
                Bitboard developed;
            };
            std::vector<Snap> before;
            for (int ply = 0; ply < 300; ++ply) {
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                // Prefer moves to the edge, so that walls form.
                Move m = list.moves[rng() % list.size()];
                for (int t = 0; t < 3 && !test(pos.edition().edges, m.to()); ++t)
                    m = list.moves[rng() % list.size()];
                before.push_back({to_tfen(pos), pos.key(), pos.developed()});
                pos.make_move(m);
                REQUIRE(pos.key() == pos.compute_key());
                // A capture not next to the arrival square is a shieldwall's.
                if (pos.last_captured() & ~pos.edition().adjacent[m.to()]) ++wall_captures;
                forts += pos.decided().reason == EndReason::EDGE_FORT;
                REQUIRE((pos.developed() & ~pos.occupied()) == 0);
            }
            plies += long(before.size());
            while (!before.empty()) {
                pos.unmake_move();
                REQUIRE(to_tfen(pos) == before.back().tfen);
                REQUIRE(pos.key() == before.back().key);
                REQUIRE((pos.developed() == before.back().developed));
                before.pop_back();
            }
        }
        INFO(plies << " plies, " << wall_captures << " shieldwall captures, " << forts
                   << " edge forts");
        CHECK(plies > 16 * 100);
    }
    // Random games build walls rarely, and complete ones under swf:y more
    // rarely still; the positions above test those.
    CHECK(wall_captures > 0);
}

TEST_CASE("shieldwall: perft from the Copenhagen start, and the reply counter", "[shieldwall]") {
    for (const char* preset : {"opentafl-copenhagen", "opentafl-copenhagen-relaxed"}) {
        INFO(preset);
        Position pos(edition(preset));
        const uint64_t expect[] = {1, 116, 6788, 806344};
        for (int d = 1; d <= scaled_depth(3); ++d) {
            CHECK(perft(pos, d) == expect[d]);
            CHECK(perft_by_making(pos, d) == expect[d]);
        }
    }
}

TEST_CASE("shieldwall: reply counts equal making the moves where walls and forts happen",
          "[shieldwall]") {
    // Positions where moves capture by shieldwall or end the game by an
    // edge fort: the counter must agree with make + count + unmake.
    struct Case {
        const char* preset;
        const char* pieces;
        char side;
    };
    const Case cases[] = {
        {"opentafl-copenhagen", "th1 Ti1 Tj1 ti2 tj2 Tb11 Tc11 tb10 tc10 td9 Kf6", 'a'},
        {"opentafl-copenhagen-relaxed", "Tb1 Tc1 Td1 Te1 Tc2 Td2 ta5 tk5 tg9 Kf6", 'a'},
        {"opentafl-copenhagen", "Tc1 Kd1 Tf1 Td2 Tf2 Te3 Tc3 tf9 tg9 th8", 'd'},
        {"opentafl-copenhagen-relaxed", "tb1 Tc1 Td1 tc2 td2 te3 Kg5 tk7", 'a'},
        {"opentafl-copenhagen", "Ta3 ta4 ta5 Tb4 Tb5 Kc6 tk5 tk6", 'd'},
    };
    for (const Case& c : cases) {
        INFO(c.preset << " " << c.pieces);
        Position pos = setup(c.preset, c.pieces, c.side);
        REQUIRE_FALSE(pos.decided().over());
        MoveList list;
        generate_moves(pos, list);
        const ReplyCounter counter(pos);
        for (Move m : list) {
            pos.make_move(m);
            const int expect = count_moves(pos);
            pos.unmake_move();
            INFO(move_name(pos.edition(), m));
            CHECK(counter.replies(m) == expect);
        }
    }
}

namespace {

// A second, plain transcription of OpenTafl's walk and capture test, with
// lists shared by reference as in its code and pieces matched by code (a
// piece's id and whether it has moved), to check the engine's bitboard
// version against on random boards.
struct ModelBoard {
    int n = 0;
    std::vector<int> side;  // -1 empty, 0 attackers, 1 defenders
    std::vector<bool> king; // the king stands there
    std::vector<int> code;  // id * 2 + moved
    bool corner(int x, int y) const { return (x == 0 || x == n - 1) && (y == 0 || y == n - 1); }
    int at(int x, int y) const { return y * n + x; }
};

using ModelList = std::shared_ptr<std::vector<int>>;
struct ModelWall {
    ModelList squares, closers; // squares; closers hold codes
};

std::vector<ModelWall> model_walls(const ModelBoard& b, int us, bool strong, bool corners) {
    std::vector<ModelWall> walls;
    const int n = b.n;
    auto on_edge = [&](int s) {
        const int x = s % n, y = s / n;
        return x == 0 || y == 0 || x == n - 1 || y == n - 1;
    };
    int ours_on_edge = 0, theirs_on_edge = 0;
    for (int s = 0; s < n * n; ++s)
        if (b.side[s] >= 0 && on_edge(s)) ++(b.side[s] == us ? ours_on_edge : theirs_on_edge);
    if (ours_on_edge < 2 || theirs_on_edge < 2) return walls;
    auto own = [&](int s) { return b.side[s] == us; };
    ModelList squares = std::make_shared<std::vector<int>>();
    ModelList closers = std::make_shared<std::vector<int>>();
    for (int e = 0; e < 4; ++e) {
        std::vector<int> edge;
        for (int i = 0; i < n; ++i)
            edge.push_back(e == 0   ? b.at(i, 0)
                           : e == 1 ? b.at(i, n - 1)
                           : e == 2 ? b.at(0, i)
                                    : b.at(n - 1, i));
        bool started = false;
        int index = 0;
        for (int s : edge) {
            const int x = s % n, y = s / n;
            const int inside = e < 2 ? b.at(x, y == 0 ? 1 : n - 2) : b.at(x == 0 ? 1 : n - 2, y);
            const bool corner = corners && b.corner(x, y);
            if (!started && corner && strong) {
                started = true;
                continue;
            } else if (!started && own(s)) {
                started = true;
                closers->push_back(b.code[s]);
                continue;
            }
            if (started) {
                if (corner && strong) {
                    if (squares->size() > 1) walls.push_back({squares, closers});
                    break;
                }
                if (own(s)) {
                    if (own(edge[index + 1]) && own(inside)) {
                        closers->push_back(b.code[inside]);
                        squares->push_back(s);
                        continue;
                    } else if (b.king[s] && own(inside)) {
                        closers->push_back(b.code[inside]);
                        squares->push_back(s);
                        continue;
                    } else {
                        if (squares->size() > 1) {
                            closers->push_back(b.code[s]);
                            walls.push_back({squares, closers});
                        }
                        squares = std::make_shared<std::vector<int>>();
                        closers = std::make_shared<std::vector<int>>();
                        continue;
                    }
                }
                if (own(inside)) {
                    closers->push_back(b.code[inside]);
                    squares->push_back(s);
                } else {
                    started = false;
                    squares = std::make_shared<std::vector<int>>();
                    closers = std::make_shared<std::vector<int>>();
                }
            }
            ++index;
        }
    }
    return walls;
}

} // namespace

TEST_CASE("shieldwall: the engine's walk equals a plain transcription on random boards, and "
          "the reply counter the moves made",
          "[shieldwall]") {
    const std::vector<std::string> rules = {
        print_rules(*preset_rules("opentafl-copenhagen")),
        print_rules(*preset_rules("opentafl-copenhagen-relaxed")),
        SW9 + "swf:y " + START9,
        "dim:9 atkf:y sw:w swf:n " + START9,
        "dim:7 sw:s swf:n " + START7,
        "dim:7 sw:w swf:y cor: " + START7,
    };
    std::mt19937 rng(99);
    long compared = 0, with_captures = 0;
    for (const std::string& text : rules) {
        INFO(text);
        EditionPtr edition = rules_edition(text);
        const int n = edition->size;
        for (int trial = 0; trial < scaled(3000); ++trial) {
            // Walls, nearly complete, on one to three edges, and a few
            // pieces elsewhere in the outer two rings.
            Placement board{};
            auto edge_sq = [&](int e, int along, int depth) {
                return e == 0   ? edition->square(along, depth)
                       : e == 1 ? edition->square(along, n - 1 - depth)
                       : e == 2 ? edition->square(depth, along)
                                : edition->square(n - 1 - depth, along);
            };
            const int walls = 1 + int(rng() % 3);
            for (int w = 0; w < walls; ++w) {
                const int e = int(rng() % 4), len = 2 + int(rng() % 4);
                const int a = int(rng() % (n - len));
                const Piece own = rng() % 2 ? ATTACKER : DEFENDER;
                const Piece enemy = own == ATTACKER ? DEFENDER : ATTACKER;
                for (int i = a; i <= a + len; ++i) {
                    const unsigned r = rng() % 10;
                    board[edge_sq(e, i, 0)] = i == a || i == a + len ? (r < 5 ? own : NO_PIECE)
                                              : r < 8                ? enemy
                                              : r < 9                ? own
                                                                     : NO_PIECE;
                    board[edge_sq(e, i, 1)] = rng() % 8 ? own : NO_PIECE;
                }
            }
            const int noise = int(rng() % n);
            for (int k = 0; k < noise; ++k) {
                const int s = int(rng() % edition->num_squares);
                if (test(edition->edges | edition->neighbours(edition->edges), s) || rng() % 4 == 0)
                    board[s] = rng() % 2 ? ATTACKER : DEFENDER;
            }
            for_each_square(edition->corners, [&](Square c) { board[c] = NO_PIECE; });
            Square ks = Square(rng() % edition->num_squares);
            while (test(edition->corners, ks)) ks = Square(rng() % edition->num_squares);
            board[ks] = KING;
            auto pos =
                Position::from_placement(edition, board, rng() % 2 ? ATTACKERS : DEFENDERS, 0, 1);
            if (!pos || pos->decided().over()) continue;
            MoveList list;
            generate_moves(*pos, list);
            if (list.empty()) continue;
            const ReplyCounter counter(*pos);
            for (int pick = 0; pick < 8; ++pick) {
                // Mostly moves onto the edge or the ring inside it.
                Move m = list.moves[rng() % list.size()];
                for (int t = 0;
                     t < 6 && !test(edition->edges | edition->neighbours(edition->edges), m.to());
                     ++t)
                    m = list.moves[rng() % list.size()];
                const Side us = pos->side_to_move();
                const Piece mover = pos->piece_on(m.from());
                // The board after the move and its ordinary captures.
                auto at = [&](Square q) {
                    return q == m.to() ? mover : q == m.from() ? NO_PIECE : pos->piece_on(q);
                };
                Bitboard ordinary = 0;
                if (mover != KING || edition->king_hammer)
                    for (int d = 0; d < 4; ++d)
                        if (captures_toward(*edition, at, us, m.to(), d))
                            ordinary |= square_bb(edition->neighbour[m.to()][d]);
                ModelBoard b;
                b.n = n;
                b.side.assign(n * n, -1);
                b.king.assign(n * n, false);
                b.code.assign(n * n, 0);
                for (Square s = 0; s < n * n; ++s) {
                    const Piece p = at(s);
                    if (p == NO_PIECE || test(ordinary, s)) continue;
                    b.side[s] = side_of(p);
                    b.king[s] = p == KING;
                    b.code[s] = s * 2 + int(test(pos->developed(), s));
                }
                b.code[m.to()] = m.from() * 2 + 1; // the mover has moved now
                const int old_code = m.from() * 2 + int(test(pos->developed(), m.from()));
                const bool strong = edition->rules.shieldwall == Shieldwall::STRONG;
                const bool corners = edition->corners != 0;
                Bitboard expect = ordinary;
                const auto attackers = model_walls(b, 0, strong, corners);
                const auto defenders = model_walls(b, 1, strong, corners);
                auto judge = [&](const std::vector<ModelWall>& walls) {
                    for (const ModelWall& w : walls) {
                        if (edition->rules.shieldwall_flank) {
                            if (!test(edition->edges, m.to())) continue;
                            if (std::find(w.closers->begin(), w.closers->end(), old_code) ==
                                w.closers->end())
                                continue;
                        }
                        bool all = true;
                        for (int s : *w.squares)
                            if (b.side[s] < 0 || b.side[s] == int(us)) all = false;
                        if (!all) continue;
                        for (int s : *w.squares)
                            if (!b.king[s]) {
                                b.side[s] = -1;
                                expect |= square_bb(s);
                            }
                    }
                };
                judge(attackers);
                judge(defenders);
                Position after = *pos;
                after.make_move(m);
                INFO(to_tfen(*pos) << " " << move_name(*edition, m));
                REQUIRE((after.last_captured() == expect));
                // Bulk counting agrees after the same move.
                REQUIRE(counter.replies(m) == count_moves(after));
                ++compared;
                with_captures += (expect & ~ordinary) != 0;
            }
        }
    }
    INFO(compared << " moves compared, " << with_captures << " with shieldwall captures");
    CHECK(with_captures > scaled(100));
}

TEST_CASE("edge fort: the king's region is a flood only where he may step anywhere",
          "[shieldwall]") {
    CHECK(edition("opentafl-copenhagen")->king_steps_anywhere);
    CHECK(edition("magpie")->king_steps_anywhere); // one square at a time, but anywhere
    // Nobody stops on the empty castle in Tablut: the king cannot step back onto it.
    CHECK_FALSE(edition("tablut")->king_steps_anywhere);
}

TEST_CASE("edge fort: the engine equals a plain transcription of OpenTafl's check on random "
          "boards",
          "[shieldwall]") {
    // Copenhagen: the king passes and stops everywhere, so his moves are
    // plain slides over empty squares.
    EditionPtr copenhagen = edition("opentafl-copenhagen");
    REQUIRE(copenhagen->king_steps_anywhere);
    // The same rules judged by the walk of the king's moves the flood
    // replaces (the path of editions where some square bars him).
    Edition walk = *copenhagen;
    walk.king_steps_anywhere = false;
    const int n = copenhagen->size;
    std::mt19937 rng(7);
    long compared = 0, forts = 0;
    for (int trial = 0; trial < scaled(20000); ++trial) {
        // A king at or near an edge, defenders around him, a few attackers.
        Placement board{};
        const int along = 1 + int(rng() % (n - 2)), depth = int(rng() % 3), e = int(rng() % 4);
        auto place = [&](int a, int d) {
            a = std::clamp(a, 0, n - 1), d = std::clamp(d, 0, n - 1);
            return e == 0   ? copenhagen->square(a, d)
                   : e == 1 ? copenhagen->square(a, n - 1 - d)
                   : e == 2 ? copenhagen->square(d, a)
                            : copenhagen->square(n - 1 - d, a);
        };
        for (int a = along - 3; a <= along + 3; ++a)
            for (int d = 0; d <= depth + 2; ++d)
                if (rng() % 3 == 0) board[place(a, d)] = DEFENDER;
        const int attackers = int(rng() % 6);
        for (int k = 0; k < attackers; ++k) {
            const int s = int(rng() % copenhagen->num_squares);
            if (board[s] == NO_PIECE && (rng() % 2 || test(copenhagen->edges, s)))
                board[s] = ATTACKER;
        }
        const Square ks = place(along, depth);
        board[ks] = KING;
        for_each_square(copenhagen->corners, [&](Square c) { board[c] = NO_PIECE; });
        auto pos = Position::from_placement(copenhagen, board, ATTACKERS, 0, 1);
        if (!pos) continue;

        // The model, on a board array.
        auto occupied = [&](Square s) { return board[s] != NO_PIECE; };
        auto destinations = [&](Square from) {
            std::vector<Square> out;
            for (int d = 0; d < 4; ++d)
                for (Square s = copenhagen->neighbour[from][d]; s != NO_SQUARE && !occupied(s);
                     s = copenhagen->neighbour[s][d])
                    out.push_back(s);
            return out;
        };
        auto on_edge = [&](Square s) { return test(copenhagen->edges, s); };
        const std::vector<Square> king_moves = destinations(ks);
        bool model = false;
        {
            ModelBoard b;
            b.n = n;
            b.side.assign(n * n, -1);
            b.king.assign(n * n, false);
            b.code.assign(n * n, 0);
            for (Square s = 0; s < n * n; ++s)
                if (board[s] != NO_PIECE) {
                    b.side[s] = side_of(board[s]);
                    b.king[s] = board[s] == KING;
                    b.code[s] = s;
                }
            for (const ModelWall& w : model_walls(b, 1, true, true))
                for (int s : *w.squares)
                    if (s == ks && !king_moves.empty()) model = true;
        }
        if (!model) {
            std::vector<bool> fort(n * n, false);
            fort[ks] = true;
            std::vector<Square> todo = king_moves;
            for (Square s : todo) fort[s] = true;
            while (!todo.empty()) {
                std::vector<Square> next;
                for (Square s : todo)
                    for (Square t : destinations(s))
                        if (!fort[t]) fort[t] = true, next.push_back(t);
                todo = next;
            }
            bool ok = on_edge(ks) ? !king_moves.empty() : false;
            if (!on_edge(ks))
                for (Square s = 0; s < n * n; ++s) ok |= fort[s] && on_edge(s);
            std::vector<Square> around;
            for (Square s = 0; s < n * n && ok; ++s) {
                if (!fort[s]) continue;
                for (int d = 0; d < 4; ++d) {
                    const Square t = copenhagen->neighbour[s][d];
                    if (t == NO_SQUARE || !occupied(t)) continue;
                    if (board[t] == ATTACKER) ok = false;
                    around.push_back(t);
                }
            }
            for (Square t : around) {
                int open = 0;
                for (int d = 0; d < 4; ++d) {
                    const Square u = copenhagen->neighbour[t][d];
                    if (u != NO_SQUARE && !fort[u] &&
                        (board[u] == NO_PIECE || board[u] == ATTACKER))
                        ++open;
                }
                if (open >= 3) ok = false;
            }
            model = ok;
        }
        INFO(to_tfen(*pos));
        REQUIRE(edge_fort_escape(*copenhagen, pos->pieces(ATTACKERS), pos->pieces(DEFENDERS), ks) ==
                model);
        REQUIRE(edge_fort_escape(walk, pos->pieces(ATTACKERS), pos->pieces(DEFENDERS), ks) ==
                model);
        ++compared;
        forts += model;
    }
    INFO(compared << " boards, " << forts << " edge forts");
    CHECK(forts > scaled(500));
    CHECK(compared - forts > scaled(500));
}
