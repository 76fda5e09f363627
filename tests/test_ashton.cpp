// Ashton Tablut as the Bologna Tablut Challenge's server plays it
// (BOLOGNA.md): perft equal to the server's own checker, one position per
// rule, and a second, plain model of the server's checks (written from
// BOLOGNA.md §6.2-6.4 square by square, reading nothing of the engine's
// Edition) compared with the engine over random games: the same legal
// moves, the same board after every move and the same end.

#include <random>
#include <set>

#include "perft.h"
#include "reply_count.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

constexpr const char* ASHTON_START = "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 d 0 1";

// ---------------------------------------------------------------------
// The server's checks, as BOLOGNA.md describes them.
// ---------------------------------------------------------------------

struct ServerModel {
    // 'B' black (attackers), 'W' white soldier, 'K' king, '.' empty;
    // index rank * 9 + file, rank 0 = row 1.
    std::array<char, 81> cell{};
    bool white_to_move = true;

    static int idx(int f, int r) { return r * 9 + f; }
    static bool on(int f, int r) { return f >= 0 && r >= 0 && f < 9 && r < 9; }
    static bool throne(int f, int r) { return f == 4 && r == 4; }
    static bool camp(int f, int r) {
        static const std::set<std::pair<int, int>> camps = {
            {0, 3}, {0, 4}, {0, 5}, {1, 4}, {3, 0}, {4, 0}, {5, 0}, {4, 1},
            {8, 3}, {8, 4}, {8, 5}, {7, 4}, {3, 8}, {4, 8}, {5, 8}, {4, 7}};
        return camps.count({f, r}) > 0;
    }
    // a5, e1, i5, e9: camps that are no anvil against black soldiers.
    static bool camp_centre(int f, int r) {
        return (f == 0 && r == 4) || (f == 4 && r == 0) || (f == 8 && r == 4) || (f == 4 && r == 8);
    }
    char at(int f, int r) const { return cell[idx(f, r)]; }

    // checkMove, steps 2 to 9 (BOLOGNA.md §6.2).
    bool legal(int ff, int fr, int tf, int tr) const {
        if (throne(tf, tr) && at(tf, tr) == '.') return false;
        if (at(tf, tr) != '.') return false;
        if (camp(tf, tr) && !camp(ff, fr)) return false;
        if (camp(tf, tr) && camp(ff, fr) && std::abs(tf - ff) + std::abs(tr - fr) > 5) return false;
        if (ff == tf && fr == tr) return false;
        const char p = at(ff, fr);
        if (white_to_move ? (p != 'W' && p != 'K') : p != 'B') return false;
        if (ff != tf && fr != tr) return false;
        const int df = (tf > ff) - (tf < ff), dr = (tr > fr) - (tr < fr);
        for (int f = ff + df, r = fr + dr;; f += df, r += dr) {
            if (at(f, r) != '.' || throne(f, r)) return false;
            if (camp(f, r) && !camp(ff, fr)) return false;
            if (f == tf && r == tr) break;
        }
        return true;
    }

    std::set<std::pair<int, int>> moves() const {
        std::set<std::pair<int, int>> out;
        for (int fr = 0; fr < 9; ++fr)
            for (int ff = 0; ff < 9; ++ff)
                for (int tr = 0; tr < 9; ++tr)
                    for (int tf = 0; tf < 9; ++tf)
                        if ((ff == tf) != (fr == tr) && at(ff, fr) != '.' && legal(ff, fr, tf, tr))
                            out.insert({idx(ff, fr), idx(tf, tr)});
        return out;
    }

    // Plays a legal move; returns 'W' (white wins), 'B' (black wins) or 0.
    // The king stays on the board when captured, as on the server.
    char play(int ff, int fr, int tf, int tr) {
        const char p = at(ff, fr);
        cell[idx(tf, tr)] = p;
        cell[idx(ff, fr)] = '.';
        static const int DF[4] = {0, 1, 0, -1}, DR[4] = {1, 0, -1, 0};
        char result = 0;
        if (white_to_move) {
            for (int d = 0; d < 4; ++d) {
                const int af = tf + DF[d], ar = tr + DR[d], bf = af + DF[d], br = ar + DR[d];
                if (!on(bf, br) || at(af, ar) != 'B') continue;
                const char b = at(bf, br);
                if (b == 'W' || b == 'K' || throne(bf, br) ||
                    (camp(bf, br) && !camp_centre(bf, br)))
                    cell[idx(af, ar)] = '.';
            }
            const bool edge = tf == 0 || tr == 0 || tf == 8 || tr == 8;
            if (p == 'K' && edge) result = 'W';
        } else {
            for (int d = 0; d < 4; ++d) {
                const int af = tf + DF[d], ar = tr + DR[d], bf = af + DF[d], br = ar + DR[d];
                if (!on(af, ar)) continue;
                if (at(af, ar) == 'W' && on(bf, br) &&
                    (at(bf, br) == 'B' || throne(bf, br) || camp(bf, br)))
                    cell[idx(af, ar)] = '.';
                if (at(af, ar) != 'K') continue;
                auto black = [&](int f, int r) { return on(f, r) && at(f, r) == 'B'; };
                if (throne(af, ar)) {
                    if (black(4, 3) && black(3, 4) && black(5, 4) && black(4, 5)) result = 'B';
                } else if (std::abs(af - 4) + std::abs(ar - 4) == 1) {
                    bool all = true;
                    for (int e = 0; e < 4; ++e) {
                        const int cf = af + DF[e], cr = ar + DR[e];
                        if (!throne(cf, cr) && !black(cf, cr)) all = false;
                    }
                    if (all) result = 'B';
                } else if (on(bf, br) && (black(bf, br) || camp(bf, br))) {
                    result = 'B';
                }
            }
        }
        white_to_move = !white_to_move;
        return result;
    }
};

ServerModel model_of(const Position& pos) {
    ServerModel m;
    for (int s = 0; s < 81; ++s) {
        const Piece p = pos.piece_on(s);
        m.cell[s] = p == ATTACKER ? 'B' : p == DEFENDER ? 'W' : p == KING ? 'K' : '.';
    }
    m.white_to_move = pos.side_to_move() == DEFENDERS;
    return m;
}

std::set<std::pair<int, int>> engine_moves(const Position& pos) {
    MoveList list;
    generate_moves(pos, list);
    std::set<std::pair<int, int>> out;
    for (Move m : list) out.insert({m.from(), m.to()});
    return out;
}

} // namespace

TEST_CASE("ashton: perft from the start equals the server's own checker", "[ashton]") {
    Position pos = tfen("ashton", ASHTON_START);
    CHECK(to_tfen(Position(edition("ashton"))) == ASHTON_START);
    CHECK(pos.side_to_move() == DEFENDERS); // white moves first
    CHECK(perft(pos, 1) == 56);
    CHECK(perft(pos, 2) == 4408);
    CHECK(perft(pos, 3) == 248456);
    CHECK(perft(pos, 4) == 19159224);
}

TEST_CASE("ashton: the engine and the server's checks agree over random games", "[ashton]") {
    std::mt19937 rng(20261201);
    int plies = 0, games = 0, captured = 0, escaped = 0;
    while (games < 150) {
        Position pos(edition("ashton"));
        ServerModel model = model_of(pos);
        for (int ply = 0; ply < 300; ++ply) {
            INFO("game " << games << " ply " << ply << " " << to_tfen(pos));
            const auto expect = model.moves();
            REQUIRE(engine_moves(pos) == expect);
            REQUIRE(count_moves(pos) == int(expect.size()));
            if (expect.empty()) break;
            auto it = expect.begin();
            std::advance(it, std::uniform_int_distribution<int>(0, int(expect.size()) - 1)(rng));
            const auto [from, to] = *it;
            const char server = model.play(from % 9, from / 9, to % 9, to / 9);
            pos.make_move(Move(from, to));
            ++plies;
            const GameResult r = pos.decided();
            if (server == 'B') {
                REQUIRE(r == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
                ++captured;
                break;
            }
            if (server == 'W') {
                REQUIRE(r == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
                ++escaped;
                break;
            }
            REQUIRE_FALSE(r.over());
            REQUIRE(model_of(pos).cell == model.cell);
        }
        ++games;
    }
    CHECK(plies > 3000);
    CHECK(captured > 10);
    CHECK(escaped > 10);
}

TEST_CASE("ashton: make/unmake and the Zobrist key over long random games", "[ashton]") {
    std::mt19937 rng(7);
    for (int g = 0; g < 20; ++g) {
        Position pos(edition("ashton"));
        std::vector<std::string> boards{to_tfen(pos)};
        for (int ply = 0; ply < 400; ++ply) {
            MoveList list;
            generate_moves(pos, list);
            // Avoid the moves that end the game, so games last.
            std::vector<Move> quiet;
            for (Move m : list) {
                pos.make_move(m);
                if (!pos.decided().over()) quiet.push_back(m);
                pos.unmake_move();
            }
            if (quiet.empty()) break;
            pos.make_move(quiet[std::uniform_int_distribution<size_t>(0, quiet.size() - 1)(rng)]);
            REQUIRE(pos.key() == pos.compute_key());
            boards.push_back(to_tfen(pos));
        }
        while (pos.game_ply() > 0) {
            REQUIRE(to_tfen(pos) == boards[pos.game_ply()]);
            pos.unmake_move();
            REQUIRE(pos.key() == pos.compute_key());
        }
        REQUIRE(to_tfen(pos) == boards[0]);
    }
}

TEST_CASE("ashton: an attacker in a camp moves within and through its own camp", "[ashton]") {
    // d1 vacated: e1-d1; b5 empty: a5-c5 passes it; d1-g1 passes e1 and f1;
    // e2-e1 within the camp (BOLOGNA.md §6.2, each checked on the server).
    Position pos = setup("ashton", "Ke5 te1 ta5 tf1 te2 Tc3", 'a');
    CHECK(is_legal(pos, "e1-d1"));
    CHECK(is_legal(pos, "a5-c5"));
    CHECK(is_legal(pos, "a5-b5"));
    CHECK(is_legal(pos, "a5-a4"));
    Position p2 = setup("ashton", "Ke5 td1 Tc3", 'a');
    CHECK(is_legal(p2, "d1-g1"));
    CHECK(is_legal(p2, "d1-e1"));
    CHECK(is_legal(p2, "d1-f1"));
    Position p3 = setup("ashton", "Ke5 te2 Tc3", 'a');
    CHECK(is_legal(p3, "e2-e1"));
    CHECK(is_legal(p3, "e2-e3"));
}

TEST_CASE("ashton: nobody enters or crosses a camp from outside", "[ashton]") {
    // An attacker that has left the camps never comes back.
    Position pos = setup("ashton", "Ke5 tc4 tb6 Tc2 Tg6", 'a');
    CHECK_FALSE(is_legal(pos, "c4-a4"));
    CHECK(is_legal(pos, "c4-b4")); // b4 is no camp
    CHECK_FALSE(is_legal(pos, "b6-b5"));
    CHECK_FALSE(is_legal(pos, "b6-b4")); // across b5
    // Defenders and the king never enter or cross one.
    Position d = setup("ashton", "Kg4 Tc2 Tg6 tc7", 'd');
    CHECK(is_legal(d, "c2-c1")); // c1 is an ordinary edge square
    CHECK_FALSE(is_legal(d, "g4-i4"));
    CHECK(is_legal(d, "g4-h4"));
    CHECK_FALSE(is_legal(d, "g6-i6"));
    Position k = setup("ashton", "Kc2 Tg6 tc7", 'd');
    CHECK_FALSE(is_legal(k, "c2-e2"));
    CHECK_FALSE(is_legal(k, "c2-g2")); // across e2
    CHECK(is_legal(k, "c2-d2"));
}

TEST_CASE("ashton: no camp-to-camp move across the board", "[ashton]") {
    // a4-i4 over an empty row 4 lands in another camp.
    Position pos = setup("ashton", "Ke5 ta4 Tc7", 'a');
    CHECK_FALSE(is_legal(pos, "a4-i4"));
    CHECK(is_legal(pos, "a4-h4"));
    Position q = setup("ashton", "Kc7 td1", 'a');
    CHECK_FALSE(is_legal(q, "d1-d9"));
    CHECK(is_legal(q, "d1-d8"));
}

TEST_CASE("ashton: nobody stops on or passes over the throne", "[ashton]") {
    Position pos = setup("ashton", "Ke5 Te3 tc3", 'd');
    play(pos, "e5-d5");
    play(pos, "c3-c2");
    CHECK_FALSE(is_legal(pos, "d5-e5")); // the king never returns
    CHECK_FALSE(is_legal(pos, "e3-e5"));
    CHECK_FALSE(is_legal(pos, "e3-e6")); // not over the empty throne
    CHECK_FALSE(is_legal(pos, "e3-e7"));
    CHECK(is_legal(pos, "e3-e4"));
    Position k = setup("ashton", "Kd5 Tc2 tg7", 'd');
    CHECK_FALSE(is_legal(k, "d5-f5")); // the king does not cross it either
    CHECK_FALSE(is_legal(k, "d5-e5"));
}

TEST_CASE("ashton: captures of attackers: camps are anvils, except their outer middle squares",
          "[ashton]") {
    // An attacker outside the camps is captured against a camp square
    // (d2 against d1, empty or occupied).
    Position pos = setup("ashton", "Ke5 td2 Tf3", 'd');
    play(pos, "f3-d3");
    CHECK(at(pos, "d2") == NO_PIECE);
    Position occupied = setup("ashton", "Ke5 td2 td1 Tf3", 'd');
    play(occupied, "f3-d3");
    CHECK(at(occupied, "d2") == NO_PIECE);
    // Not against a5, e1, i5, e9: b5 stays (a5 empty), and e2 stays (e1).
    Position b5 = setup("ashton", "Ke6 tb5 Tc7", 'd');
    play(b5, "c7-c5");
    CHECK(at(b5, "b5") == ATTACKER);
    Position e2 = setup("ashton", "Kc7 te2 Tg3", 'd');
    play(e2, "g3-e3");
    CHECK(at(e2, "e2") == ATTACKER);
    // b5 falls to two defenders along the edge-parallel line.
    Position pair = setup("ashton", "Kc7 tb5 Tb4 Tc6", 'd');
    play(pair, "c6-b6");
    CHECK(at(pair, "b5") == NO_PIECE);
    // Against the throne, empty or holding the king, and against the king.
    Position throne = setup("ashton", "Ke5 te6 Tg7", 'd');
    play(throne, "g7-e7");
    CHECK(at(throne, "e6") == NO_PIECE);
    Position king = setup("ashton", "Kc4 tc5 Tg6", 'd');
    play(king, "g6-c6");
    CHECK(at(king, "c5") == NO_PIECE);
    // The edge is never hostile.
    Position edge = setup("ashton", "Ke5 tb1 Tc3", 'd');
    play(edge, "c3-c1");
    CHECK(at(edge, "b1") == ATTACKER);
}

TEST_CASE("ashton: captures of defenders: camps and the throne, the king on it included",
          "[ashton]") {
    // A defender is captured against its own king on the throne (BOLOGNA.md §8.1).
    Position pos = setup("ashton", "Ke5 Te4 tc3", 'a');
    play(pos, "c3-e3");
    CHECK(at(pos, "e4") == NO_PIECE);
    CHECK(at(pos, "e5") == KING);
    // Against any camp square, empty or occupied.
    Position c = setup("ashton", "Kc7 Tb4 tc2", 'a');
    play(c, "c2-c4");
    CHECK(at(c, "b4") == NO_PIECE); // against a4
    Position d = setup("ashton", "Kc7 Td2 td1 tg3", 'a');
    play(d, "g3-d3");
    CHECK(at(d, "d2") == NO_PIECE); // against d1, occupied
    Position f = setup("ashton", "Kc7 Tf2 tg5", 'a');
    play(f, "g5-g2");
    CHECK(at(f, "f2") == NO_PIECE); // against e2
    // The edge is never hostile.
    Position edge = setup("ashton", "Kc7 Tb1 tc3", 'a');
    play(edge, "c3-c1");
    CHECK(at(edge, "b1") == DEFENDER);
}

TEST_CASE("ashton: king captures on, next to and away from the throne and next to camps",
          "[ashton]") {
    // On the throne: four attackers.
    Position four = setup("ashton", "Ke5 te4 td5 tf5 tc6", 'a');
    play(four, "c6-e6");
    CHECK(four.decided() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    Position three = setup("ashton", "Ke5 te4 td5 tc6", 'a');
    play(three, "c6-e6");
    CHECK_FALSE(three.decided().over());
    // Next to the throne: the three other sides.
    Position beside = setup("ashton", "Ke4 td4 tf4 tc3", 'a');
    play(beside, "c3-e3");
    CHECK(beside.decided() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    Position two = setup("ashton", "Ke4 td4 tc3", 'a');
    play(two, "c3-e3");
    CHECK_FALSE(two.decided().over());
    // Elsewhere: two attackers, or one and a camp square (d1 behind d2;
    // b5 behind c5, empty or occupied).
    Position pair = setup("ashton", "Kc6 tc7 tc2", 'a');
    play(pair, "c2-c5");
    CHECK(pair.decided() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    Position across = setup("ashton", "Kc6 tc7 td2", 'a');
    play(across, "d2-d6");
    CHECK_FALSE(across.decided().over()); // d6 and c7 are not on one line through him
    Position d2 = setup("ashton", "Kd2 tg3", 'a');
    play(d2, "g3-d3");
    CHECK(d2.decided() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    Position c5 = setup("ashton", "Kc5 tg5 Tc7", 'a');
    CHECK_FALSE(is_legal(c5, "g5-d5")); // e5 is in the way
    Position c5b = setup("ashton", "Kc5 td7 Tg7", 'a');
    play(c5b, "d7-d5");
    CHECK(c5b.decided() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    Position c5c = setup("ashton", "Kc5 tb5 td7 Tg7", 'a');
    play(c5c, "d7-d5");
    CHECK(c5c.decided() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
}

TEST_CASE("ashton: the king wins on any edge square", "[ashton]") {
    Position pos = setup("ashton", "Kc5 tg7", 'd');
    play(pos, "c5-c9");
    CHECK(pos.decided() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
    Position corner = setup("ashton", "Kb2 tg7", 'd');
    play(corner, "b2-b1");
    CHECK(corner.decided() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
}

TEST_CASE("ashton: the second occurrence of a position draws, within the server's window",
          "[ashton]") {
    // A four-ply cycle: the start position comes back after four plies.
    const std::string cycle = "c5-c4 b3-b2 c4-c5 b2-b3";
    Position pos = setup("ashton", "Kc5 tb3 Tg7", 'd');
    play_all(pos, cycle);
    CHECK(pos.result() == game(Winner::DRAW, EndReason::REPETITION));
    // The server's -c N compares with the last N + 1 positions: repw:N+1.
    // -c 2 does not see a four-ply cycle, -c 3 does (BOLOGNA.md §5).
    std::string rules;
    for (const Preset& p : presets())
        if (std::string(p.name) == "ashton") rules = p.rules;
    REQUIRE(rules.find("repw:0") != std::string::npos);
    const std::string pieces = "Kc5 tb3 Tg7";
    auto with_span = [&](int span) {
        std::string r = rules;
        r.replace(r.find("repw:0"), 6, "repw:" + std::to_string(span));
        Position p = rules_setup(r, pieces, 'd');
        play_all(p, cycle);
        return p.result();
    };
    CHECK(with_span(3) == ONGOING);
    CHECK(with_span(4) == game(Winner::DRAW, EndReason::REPETITION));
    CHECK(with_span(0) == game(Winner::DRAW, EndReason::REPETITION));
}

TEST_CASE("ashton: a side with no legal move loses, positions out of a camp are refused",
          "[ashton]") {
    // The king alone, walled in by attackers he cannot capture.
    Position pos = setup("ashton", "Kc3 tb3 td3 tc4 tc2 tg7", 'd');
    CHECK(pos.result() == game(Winner::ATTACKERS, EndReason::NO_MOVES));
    // An attacker may stand in a camp, a defender or the king may not.
    CHECK(parse_tfen(edition("ashton"), make_tfen(9, "Ke5 ta4", 'a')).ok());
    auto bad = parse_tfen(edition("ashton"), make_tfen(9, "Ke5 Ta4", 'a'));
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.error(), Catch::Contains("a4"));
}

TEST_CASE("ashton: the rules string round-trips and camps need no code path", "[ashton]") {
    auto r = preset_rules("ashton");
    REQUIRE(r.ok());
    auto again = parse_rules(print_rules(*r));
    REQUIRE(again.ok());
    CHECK(*again == *r);
    CHECK(r->camps.size() == 16);
    // Each key prints on its own (campu without camps, found by fuzzing).
    auto users_only =
        parse_rules("dim:9 campu:t start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/");
    REQUIRE(users_only.ok());
    CHECK(parse_rules(print_rules(*users_only)).value() == *users_only);
    CHECK(r->camp_users == PieceSet(1 << ATTACKER));
    // Bad camp keys name what is wrong.
    auto bad =
        parse_rules("dim:9 camp:z1, start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/");
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.error(), Catch::Contains("camp"));
    auto badu =
        parse_rules("dim:9 campu:x start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/");
    REQUIRE_FALSE(badu.ok());
    CHECK_THAT(badu.error(), Catch::Contains("campu"));
    auto badw =
        parse_rules("dim:9 repw:-1 start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/");
    REQUIRE_FALSE(badw.ok());
    CHECK_THAT(badw.error(), Catch::Contains("repw"));
}
