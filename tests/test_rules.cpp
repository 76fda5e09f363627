// The rules of every edition of RULES.md, one TEST_CASE per rule and edition,
// each on a small position given as TFEN (built from a list of pieces).
//
// Every test checks what would differ if the rule were implemented wrong:
// the captured piece is gone AND its neighbours that must survive are there,
// the king is captured OR still on his square, the exact GameResult.

#include <algorithm>
#include <set>

#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

// The position after `move` from the position given by its pieces.
Position after(const std::string& ed, const std::string& pieces, char side, const std::string& move,
               int plies = 0) {
    Position pos = setup(ed, pieces, side, plies);
    play(pos, move);
    return pos;
}

void check_king_captured(const Position& pos) {
    CHECK(pos.king_square() == NO_SQUARE);
    CHECK(count_pieces(pos, KING) == 0);
    CHECK(pos.decided() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    CHECK(pos.result() == game(Winner::ATTACKERS, EndReason::KING_CAPTURED));
    MoveList list;
    generate_moves(pos, list);
    CHECK(list.empty());
}

void check_king_alive(const Position& pos, const std::string& square) {
    CHECK(at(pos, square) == KING);
    CHECK(pos.king_square() == sq(pos, square));
    CHECK_FALSE(pos.decided().over());
    CHECK(pos.result() == ONGOING);
}

// The squares the piece on `from` may move to, as sorted names, from the
// legal move list; also checks move_targets() agrees.
std::string targets(const Position& pos, const std::string& from) {
    const Square f = sq(pos, from);
    MoveList list;
    generate_moves(pos, list);
    std::set<std::string> names;
    Bitboard tb = 0;
    for (Move m : list)
        if (m.from() == f) {
            names.insert(square_name(pos.edition(), m.to()));
            tb |= square_bb(m.to());
        }
    CHECK((move_targets(pos, f) == tb));
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : " ") + n;
    return s;
}

bool targets_contain(const Position& pos, const std::string& from, const std::string& to) {
    return is_legal(pos, from + "-" + to) && test(move_targets(pos, sq(pos, from)), sq(pos, to));
}

// ---- rules shared by every edition, on squares away from special ones in
// both board sizes (throne d4 / e5, corners, Tablut's edge for the king) ----

void check_moving_into_sandwich_is_safe(const std::string& ed) {
    {
        Position pos = after(ed, "Kf6 Tc3 Te3 td1", 'a', "d1-d3");
        CHECK(at(pos, "d3") == ATTACKER);
        CHECK(at(pos, "c3") == DEFENDER);
        CHECK(at(pos, "e3") == DEFENDER);
        CHECK(count_pieces(pos, ATTACKER) == 1);
        CHECK(pos.plies_since_capture() == 1);
        CHECK(pos.result() == ONGOING);
    }
    {
        Position pos = after(ed, "Kf6 tc3 te3 Td1", 'd', "d1-d3");
        CHECK(at(pos, "d3") == DEFENDER);
        CHECK(at(pos, "c3") == ATTACKER);
        CHECK(at(pos, "e3") == ATTACKER);
        CHECK(pos.result() == ONGOING);
    }
    {
        // The king too may step between two attackers.
        Position pos = after(ed, "Kd2 tc3 te3", 'd', "d2-d3");
        check_king_alive(pos, "d3");
        CHECK(at(pos, "c3") == ATTACKER);
        CHECK(at(pos, "e3") == ATTACKER);
    }
}

void check_double_capture(const std::string& ed) {
    {
        Position pos = after(ed, "Kf6 tb2 Tc2 Te2 tf2 td1", 'a', "d1-d2");
        CHECK(at(pos, "c2") == NO_PIECE);
        CHECK(at(pos, "e2") == NO_PIECE);
        CHECK(at(pos, "b2") == ATTACKER);
        CHECK(at(pos, "f2") == ATTACKER);
        CHECK(at(pos, "d2") == ATTACKER);
        CHECK(count_pieces(pos, DEFENDER) == 0);
        CHECK(pos.plies_since_capture() == 0);
        CHECK(popcount(pos.last_captured()) == 2);
        check_king_alive(pos, "f6");
    }
    {
        Position pos = after(ed, "Kf6 Tb2 tc2 te2 Tf2 Td1 ta6", 'd', "d1-d2");
        CHECK(at(pos, "c2") == NO_PIECE);
        CHECK(at(pos, "e2") == NO_PIECE);
        CHECK(at(pos, "b2") == DEFENDER);
        CHECK(at(pos, "f2") == DEFENDER);
        CHECK(at(pos, "a6") == ATTACKER);
        CHECK(count_pieces(pos, ATTACKER) == 1);
        check_king_alive(pos, "f6");
    }
}

void check_triple_capture(const std::string& ed) {
    Position pos = after(ed, "Kf6 ta3 Tb3 Td3 te3 Tc4 tc5 tc1", 'a', "c1-c3");
    CHECK(at(pos, "b3") == NO_PIECE);
    CHECK(at(pos, "d3") == NO_PIECE);
    CHECK(at(pos, "c4") == NO_PIECE);
    CHECK(at(pos, "a3") == ATTACKER);
    CHECK(at(pos, "e3") == ATTACKER);
    CHECK(at(pos, "c5") == ATTACKER);
    CHECK(at(pos, "c3") == ATTACKER);
    CHECK(count_pieces(pos, DEFENDER) == 0);
    CHECK(popcount(pos.last_captured()) == 3);
    check_king_alive(pos, "f6");
    // And unmake brings all three back.
    pos.unmake_move();
    CHECK(at(pos, "b3") == DEFENDER);
    CHECK(at(pos, "d3") == DEFENDER);
    CHECK(at(pos, "c4") == DEFENDER);
    CHECK(at(pos, "c1") == ATTACKER);
    CHECK(at(pos, "c3") == NO_PIECE);
}

void check_capture_needs_the_mover(const std::string& ed) {
    // Capture is active: a sandwich made by the other side's move (the
    // victim moving in) or existing from the start captures nothing, and a
    // move elsewhere does not capture it either.
    Position pos = setup(ed, "Kf6 Tb2 tc2 Td2 tg3", 'a');
    play(pos, "g3-g4");
    CHECK(at(pos, "c2") == ATTACKER);
    CHECK(at(pos, "b2") == DEFENDER);
    CHECK(at(pos, "d2") == DEFENDER);
}

void check_king_hammer(const std::string& ed) {
    Position pos = after(ed, "Kb2 tc3 Td3 tf6", 'd', "b2-b3");
    CHECK(at(pos, "c3") == NO_PIECE);
    CHECK(at(pos, "d3") == DEFENDER);
    CHECK(at(pos, "f6") == ATTACKER);
    check_king_alive(pos, "b3");
    CHECK(pos.plies_since_capture() == 0);
}

void check_king_anvil(const std::string& ed) {
    Position pos = after(ed, "Kb3 tc3 Td1 tf6", 'd', "d1-d3");
    CHECK(at(pos, "c3") == NO_PIECE);
    CHECK(at(pos, "d3") == DEFENDER);
    CHECK(at(pos, "f6") == ATTACKER);
    check_king_alive(pos, "b3");
}

void check_edge_not_hostile_to_soldiers(const std::string& ed) {
    {
        Position pos = after(ed, "Kf6 ta4 Tb2", 'd', "b2-b4");
        CHECK(at(pos, "a4") == ATTACKER);
        CHECK(at(pos, "b4") == DEFENDER);
        CHECK(pos.result() == ONGOING);
    }
    {
        Position pos = after(ed, "Kf6 Ta4 tb2", 'a', "b2-b4");
        CHECK(at(pos, "a4") == DEFENDER);
        CHECK(at(pos, "b4") == ATTACKER);
    }
}

void check_king_elsewhere_two_attackers(const std::string& ed) {
    {
        Position pos = after(ed, "Kc6 tb6 tf6", 'a', "f6-d6");
        check_king_captured(pos);
        CHECK(at(pos, "b6") == ATTACKER);
        CHECK(at(pos, "d6") == ATTACKER);
        CHECK(at(pos, "c6") == NO_PIECE);
    }
    {
        // Vertically too.
        Position pos = after(ed, "Kc6 tc7 ta5", 'a', "a5-c5");
        check_king_captured(pos);
    }
    {
        // One attacker is not enough.
        Position pos = after(ed, "Kc6 tf6", 'a', "f6-d6");
        check_king_alive(pos, "c6");
    }
    {
        // Two attackers not on opposite sides are not enough.
        Position pos = after(ed, "Kc6 tc7 tf6", 'a', "f6-d6");
        check_king_alive(pos, "c6");
    }
    {
        // A defender does not help the attackers.
        Position pos = after(ed, "Kc6 Tb6 tf6", 'a', "f6-d6");
        check_king_alive(pos, "c6");
        CHECK(at(pos, "d6") == ATTACKER);
    }
}

// Three-fold shuffle: the four moves bring back the start position.
void check_repetition(const std::string& ed, const std::string& pieces, const char* cycle,
                      int count, GameResult at_count_by_defenders,
                      GameResult at_count_by_attackers) {
    {
        Position pos = setup(ed, pieces, 'a');
        const std::string start = to_tfen(pos).substr(0, to_tfen(pos).find(' '));
        int ply = 0;
        for (int round = 1; round < count; ++round) {
            for (int i = 0; i < 4; ++i) {
                CHECK(pos.result() == ONGOING);
                play_all(pos, std::string(cycle).substr(i * 6, 5));
                ++ply;
            }
            // The start position again, made by the defenders' move.
            CHECK(to_tfen(pos).substr(0, to_tfen(pos).find(' ')) == start);
            CHECK(pos.occurrences() == round + 1);
        }
        CHECK(pos.result() == at_count_by_defenders);
        CHECK_FALSE(pos.decided().over());
    }
    {
        // The position after the attackers' first move, from TFEN (so the
        // start position is not in the history), repeated by them.
        Position first = setup(ed, pieces, 'a');
        play_all(first, std::string(cycle).substr(0, 5));
        Position pos = tfen(ed, to_tfen(first));
        CHECK(pos.occurrences() == 1);
        for (int round = 1; round < count; ++round) {
            for (int i = 1; i <= 4; ++i) {
                CHECK(pos.result() == ONGOING);
                play_all(pos, std::string(cycle).substr((i % 4) * 6, 5));
            }
            CHECK(pos.occurrences() == round + 1);
        }
        CHECK(pos.result() == at_count_by_attackers);
    }
}

void check_no_capture_limit(const std::string& ed) {
    // 119 plies without a capture: one more non-capturing ply draws.
    {
        Position pos = setup(ed, "Kb5 tf2", 'a', 118);
        play(pos, "f2-f3");
        CHECK(pos.plies_since_capture() == 119);
        CHECK(pos.result() == ONGOING);
        play(pos, "b5-b4");
        CHECK(pos.plies_since_capture() == 120);
        CHECK(pos.result() == game(Winner::DRAW, EndReason::MOVE_LIMIT));
        CHECK_FALSE(pos.decided().over());
    }
    {
        // Read from TFEN: 119 is still playing, 120 is a draw.
        CHECK(setup(ed, "Kb5 tf2", 'a', 119).result() == ONGOING);
        CHECK(setup(ed, "Kb5 tf2", 'a', 120).result() == game(Winner::DRAW, EndReason::MOVE_LIMIT));
    }
    {
        // A capture on the 120th ply resets the count.
        Position pos = setup(ed, "Kb5 te1 Tf3 tg3", 'a', 119);
        play(pos, "e1-e3");
        CHECK(at(pos, "f3") == NO_PIECE);
        CHECK(pos.plies_since_capture() == 0);
        CHECK(pos.result() == ONGOING);
    }
}

void check_no_capture_limit_absent(const std::string& ed) {
    Position pos = setup(ed, "Kb5 tf2", 'a', 119);
    play(pos, "f2-f3");
    CHECK(pos.plies_since_capture() == 120);
    CHECK(pos.result() == ONGOING);
    CHECK(setup(ed, "Kb5 tf2", 'a', 5000).result() == ONGOING);
}

// Repetition is checked before the no-capture limit: the third occurrence
// that lands on the 120th ply is a draw by repetition.
void check_repetition_before_limit(const std::string& ed, const std::string& pieces,
                                   const std::string& cycle) {
    Position pos = setup(ed, pieces, 'a', 112);
    play_all(pos, cycle + " " + cycle.substr(0, cycle.rfind(' ')));
    CHECK(pos.plies_since_capture() == 119);
    CHECK(pos.result() == ONGOING);
    play_all(pos, cycle.substr(cycle.rfind(' ') + 1));
    CHECK(pos.plies_since_capture() == 120);
    CHECK(pos.occurrences() == 3);
    CHECK(pos.result() == game(Winner::DRAW, EndReason::REPETITION));
}

void check_no_moves(const std::string& ed, const std::string& blocked_attacker, GameResult expect_a,
                    const std::string& surrounded_king, GameResult expect_d) {
    {
        Position pos = setup(ed, blocked_attacker, 'a');
        MoveList list;
        generate_moves(pos, list);
        CHECK(list.empty());
        CHECK_FALSE(has_legal_move(pos));
        CHECK(count_moves(pos) == 0);
        CHECK_FALSE(pos.decided().over());
        CHECK(pos.result() == expect_a);
    }
    {
        // The same placement with the defenders to move is not over.
        Position pos = setup(ed, blocked_attacker, 'd');
        CHECK(pos.result() == ONGOING);
    }
    {
        Position pos = setup(ed, surrounded_king, 'd');
        CHECK(count_moves(pos) == 0);
        CHECK_FALSE(pos.decided().over());
        CHECK(pos.result() == expect_d);
    }
}

// The defenders capture the last attacker.
Position capture_last_attacker(const std::string& ed) {
    Position pos = setup(ed, "Kf6 tb3 Tb2 Tc4", 'd');
    play(pos, "c4-b4");
    CHECK(at(pos, "b3") == NO_PIECE);
    CHECK(at(pos, "b2") == DEFENDER);
    CHECK(at(pos, "b4") == DEFENDER);
    CHECK(count_pieces(pos, ATTACKER) == 0);
    return pos;
}

// ---- Brandubh family (7x7, throne d4, corners) ----

void check_brandubh_corners_hostile_to_soldiers(const std::string& ed) {
    {
        Position pos = after(ed, "Kf6 ta2 Tb3 te2", 'd', "b3-a3");
        CHECK(at(pos, "a2") == NO_PIECE);
        CHECK(at(pos, "a3") == DEFENDER);
        CHECK(at(pos, "e2") == ATTACKER);
        CHECK(pos.plies_since_capture() == 0);
    }
    {
        Position pos = after(ed, "Kf6 Ta2 tb3 te2", 'a', "b3-a3");
        CHECK(at(pos, "a2") == NO_PIECE);
        CHECK(at(pos, "a3") == ATTACKER);
    }
    {
        // Along the bottom edge against g1.
        Position pos = after(ed, "Kb6 Tf1 te3 tb2", 'a', "e3-e1");
        CHECK(at(pos, "f1") == NO_PIECE);
        CHECK(at(pos, "e1") == ATTACKER);
    }
}

void check_brandubh_empty_throne_hostile_to_soldiers(const std::string& ed) {
    {
        Position pos = after(ed, "Kb2 td5 Tf6 tg2", 'd', "f6-d6");
        CHECK(at(pos, "d5") == NO_PIECE);
        CHECK(at(pos, "d6") == DEFENDER);
        CHECK(at(pos, "g2") == ATTACKER);
    }
    {
        Position pos = after(ed, "Kb2 Te4 tf1", 'a', "f1-f4");
        CHECK(at(pos, "e4") == NO_PIECE);
        CHECK(at(pos, "f4") == ATTACKER);
        check_king_alive(pos, "b2");
    }
    {
        // A soldier may safely move next to the empty throne.
        Position pos = after(ed, "Kb2 Td6 tf5", 'a', "f5-d5");
        CHECK(at(pos, "d5") == ATTACKER);
        CHECK(at(pos, "d6") == DEFENDER);
    }
}

void check_brandubh_occupied_throne_not_hostile_to_defenders(const std::string& ed) {
    Position pos = after(ed, "Kd4 Te4 tf1", 'a', "f1-f4");
    CHECK(at(pos, "e4") == DEFENDER);
    CHECK(at(pos, "f4") == ATTACKER);
    check_king_alive(pos, "d4");
    // ...while an attacker there is taken against the king (the king is armed).
    Position pos2 = after(ed, "Kd4 te4 Tf1 tb6", 'd', "f1-f4");
    CHECK(at(pos2, "e4") == NO_PIECE);
    CHECK(at(pos2, "f4") == DEFENDER);
}

void check_brandubh_restricted_squares(const std::string& ed) {
    {
        // Soldiers never stop on the throne, but cross it when empty.
        Position pos = setup(ed, "Kb6 td2 Tc4 tf6", 'a');
        CHECK(targets(pos, "d2") == "a2 b2 c2 d1 d3 d5 d6 d7 e2 f2 g2");
        auto bad = parse_legal_move(pos, "d2-d4");
        REQUIRE_FALSE(bad.ok());
        CHECK_THAT(bad.error(), Catch::Contains("d4"));
        Position d = setup(ed, "Kb6 td2 Tc4 tf6", 'd');
        CHECK(targets(d, "c4") == "a4 b4 c1 c2 c3 c5 c6 c7 e4 f4 g4");
    }
    {
        // Only the king stops on a corner.
        Position pos = setup(ed, "Kb5 ta3 Tc7 tf2", 'a');
        CHECK(targets(pos, "a3") == "a2 a4 a5 a6 b3 c3 d3 e3 f3 g3");
        Position d = setup(ed, "Kb5 ta3 Tc7 tf2", 'd');
        CHECK(targets(d, "c7") == "b7 c1 c2 c3 c4 c5 c6 d7 e7 f7");
        Position k = setup(ed, "Ka4 tf2", 'd');
        CHECK(targets(k, "a4") == "a1 a2 a3 a5 a6 a7 b4 c4 d4 e4 f4 g4");
    }
    {
        // Nobody crosses the occupied throne.
        Position pos = setup(ed, "Kd4 td2 Tb2", 'a');
        CHECK(targets(pos, "d2") == "c2 d1 d3 e2 f2 g2");
        CHECK_FALSE(targets_contain(pos, "d2", "d5"));
        CHECK_FALSE(targets_contain(pos, "d2", "d6"));
    }
}

void check_brandubh_king_returns_to_throne(const std::string& ed) {
    Position pos = setup(ed, "Kd4 tg2 Tb6", 'd');
    play(pos, "d4-d5");
    CHECK(at(pos, "d4") == NO_PIECE);
    play(pos, "g2-g3");
    CHECK(targets_contain(pos, "d5", "d4"));
    // and crosses it when empty
    CHECK(targets_contain(pos, "d5", "d1"));
    play(pos, "d5-d4");
    check_king_alive(pos, "d4");
}

void check_brandubh_king_against_corner(const std::string& ed) {
    {
        Position pos = after(ed, "Kb7 tc3", 'a', "c3-c7");
        check_king_captured(pos);
        CHECK(at(pos, "c7") == ATTACKER);
    }
    {
        Position pos = after(ed, "Ka6 te5", 'a', "e5-a5");
        check_king_captured(pos);
    }
    {
        Position pos = after(ed, "Kf1 tc1", 'a', "c1-e1");
        check_king_captured(pos);
    }
}

void check_brandubh_king_against_edge(const std::string& ed) {
    {
        Position pos = after(ed, "Ka4 tb1", 'a', "b1-b4");
        check_king_alive(pos, "a4");
        CHECK(at(pos, "b4") == ATTACKER);
    }
    {
        Position pos = after(ed, "Kd1 tg2", 'a', "g2-d2");
        check_king_alive(pos, "d1");
    }
    {
        // Two attackers along the edge do capture him.
        Position pos = after(ed, "Ka4 ta3 ta6", 'a', "a6-a5");
        check_king_captured(pos);
    }
}

void check_brandubh_king_escapes_to_corner(const std::string& ed) {
    {
        Position pos = after(ed, "Kb7 tf2", 'd', "b7-a7");
        CHECK(pos.decided() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
        CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
        MoveList list;
        generate_moves(pos, list);
        CHECK(list.empty());
    }
    for (const char* corner : {"a1", "g1", "g7"}) {
        Position pos = setup(ed, "Kd2 tb6", 'd');
        const std::string c = corner;
        // Walk to the corner's rank or file first, then into the corner.
        if (c == "a1") play_all(pos, "d2-d1 b6-b5 d1-a1");
        if (c == "g1") play_all(pos, "d2-d1 b6-b5 d1-g1");
        if (c == "g7") play_all(pos, "d2-g2 b6-b5 g2-g7");
        CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
    }
    {
        // An edge square that is not a corner is not an escape.
        Position pos = after(ed, "Kb6 tf2", 'd', "b6-a6");
        check_king_alive(pos, "a6");
    }
}

const char* const B_CYCLE = "f2-f3 b5-b4 f3-f2 b4-b5";
const char* const T_CYCLE = "f2-f3 c5-c4 f3-f2 c4-c5";

// ---- Tablut family (9x9, castle e5, edge escape) ----

void check_tablut_king_on_castle(const std::string& ed) {
    {
        Position pos = after(ed, "Ke5 td5 tf5 te4 tg6", 'a', "g6-e6");
        check_king_captured(pos);
        CHECK(at(pos, "d5") == ATTACKER);
        CHECK(at(pos, "f5") == ATTACKER);
        CHECK(at(pos, "e4") == ATTACKER);
        CHECK(at(pos, "e6") == ATTACKER);
    }
    {
        Position pos = after(ed, "Ke5 td5 tf5 Te4 tg6", 'a', "g6-e6");
        check_king_alive(pos, "e5");
        CHECK(at(pos, "e4") == DEFENDER);
    }
    {
        Position pos = after(ed, "Ke5 td5 th5", 'a', "h5-f5");
        check_king_alive(pos, "e5");
    }
    {
        Position pos = after(ed, "Ke5 td5 tf5 tg6", 'a', "g6-e6");
        check_king_alive(pos, "e5");
    }
}

void check_tablut_king_next_to_castle(const std::string& ed) {
    {
        Position pos = after(ed, "Ke4 td4 tf4 th3", 'a', "h3-e3");
        check_king_captured(pos);
        CHECK(at(pos, "d4") == ATTACKER);
        CHECK(at(pos, "f4") == ATTACKER);
        CHECK(at(pos, "e3") == ATTACKER);
    }
    {
        // Each of the four squares next to the castle.
        Position p2 = after(ed, "Kd5 td6 td4 ta5", 'a', "a5-c5");
        check_king_captured(p2);
        Position p3 = after(ed, "Kf5 tf6 tf4 ti5", 'a', "i5-g5");
        check_king_captured(p3);
        Position p4 = after(ed, "Ke6 td6 tf6 tb7", 'a', "b7-e7");
        check_king_captured(p4);
    }
    {
        // Two attackers across the line are not enough next to the castle.
        Position pos = after(ed, "Ke4 td4 th4", 'a', "h4-f4");
        check_king_alive(pos, "e4");
        CHECK(at(pos, "d4") == ATTACKER);
        CHECK(at(pos, "f4") == ATTACKER);
    }
    {
        // Nor one attacker against the castle.
        Position pos = after(ed, "Ke4 th3", 'a', "h3-e3");
        check_king_alive(pos, "e4");
    }
    {
        // Three attackers with a defender instead of the empty castle... the
        // castle is the fourth wall only: three attackers and a defender on
        // the fourth side do not capture.
        Position pos = after(ed, "Ke4 td4 Te3 th4", 'a', "h4-f4");
        check_king_alive(pos, "e4");
    }
}

void check_tablut_empty_castle_hostile_to_soldiers(const std::string& ed) {
    {
        Position pos = after(ed, "Kc3 te6 Tg7 tb8", 'd', "g7-e7");
        CHECK(at(pos, "e6") == NO_PIECE);
        CHECK(at(pos, "e7") == DEFENDER);
        CHECK(at(pos, "b8") == ATTACKER);
    }
    {
        Position pos = after(ed, "Kc3 Te6 tg7", 'a', "g7-e7");
        CHECK(at(pos, "e6") == NO_PIECE);
        CHECK(at(pos, "e7") == ATTACKER);
        check_king_alive(pos, "c3");
    }
    {
        Position pos = after(ed, "Kc3 Tf5 ti5 tb8", 'd', "c3-c4");
        play(pos, "i5-g5");
        CHECK(at(pos, "f5") == NO_PIECE);
    }
}

void check_tablut_occupied_castle_not_hostile_to_defenders(const std::string& ed) {
    Position pos = after(ed, "Ke5 Te6 tg7", 'a', "g7-e7");
    CHECK(at(pos, "e6") == DEFENDER);
    CHECK(at(pos, "e7") == ATTACKER);
    check_king_alive(pos, "e5");
    // ...while an attacker there is taken against the king (the king is armed).
    Position pos2 = after(ed, "Ke5 te6 Tg7 tb2", 'd', "g7-e7");
    CHECK(at(pos2, "e6") == NO_PIECE);
    CHECK(at(pos2, "e7") == DEFENDER);
    check_king_alive(pos2, "e5");
}

void check_tablut_corners_are_ordinary(const std::string& ed) {
    {
        Position pos = after(ed, "Kc5 ta2 Tb3", 'd', "b3-a3");
        CHECK(at(pos, "a2") == ATTACKER);
        CHECK(at(pos, "a3") == DEFENDER);
    }
    {
        Position pos = after(ed, "Kc5 Ta2 tb3", 'a', "b3-a3");
        CHECK(at(pos, "a2") == DEFENDER);
    }
    {
        // Soldiers stop on corners.
        Position pos = setup(ed, "Kc5 ta3 Td9", 'a');
        CHECK(targets_contain(pos, "a3", "a1"));
        CHECK(targets_contain(pos, "a3", "a9"));
        Position d = setup(ed, "Kc5 ta3 Td9", 'd');
        CHECK(targets_contain(d, "d9", "a9"));
        CHECK(targets_contain(d, "d9", "i9"));
        // And an attacker on a corner is captured like anywhere on the edge.
        Position c = after(ed, "Kc5 ta1 Tc1 Tb3", 'd', "b3-b1");
        CHECK(at(c, "a1") == ATTACKER);
        Position e = after(ed, "Kc5 tb1 Tc2 Ta3", 'd', "c2-c1");
        CHECK(at(e, "b1") == ATTACKER); // a1 is empty and not hostile
    }
}

void check_tablut_soldiers_restricted_on_castle(const std::string& ed) {
    Position pos = setup(ed, "Kc3 te8 Tb5", 'a');
    CHECK(targets(pos, "e8") == "a8 b8 c8 d8 e1 e2 e3 e4 e6 e7 e9 f8 g8 h8 i8");
    auto bad = parse_legal_move(pos, "e8-e5");
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.error(), Catch::Contains("e5"));
    Position d = setup(ed, "Kc3 te8 Tb5", 'd');
    CHECK(targets(d, "b5") == "a5 b1 b2 b3 b4 b6 b7 b8 b9 c5 d5 f5 g5 h5 i5");
    // Nobody crosses the occupied castle.
    Position occ = setup(ed, "Ke5 te8 Tb2", 'a');
    CHECK_FALSE(targets_contain(occ, "e8", "e4"));
}

void check_tablut_king_escapes_on_edge(const std::string& ed) {
    for (const char* m : {"c5-a5", "c5-c9", "c5-c1"}) {
        Position pos = after(ed, "Kc5 th2", 'd', m);
        CHECK(pos.decided() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
        CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
        CHECK(count_moves(pos) == 0);
    }
    {
        Position pos = after(ed, "Kh5 tb2", 'd', "h5-i5");
        CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
    }
    {
        Position p2 = setup(ed, "Kh8 tb5", 'd');
        play_all(p2, "h8-h7 b5-b4 h7-i7");
        CHECK(p2.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
        // Corners are edge squares too (a king can only stand there from TFEN).
        for (const char* c : {"a1", "i1", "a9", "i9"}) {
            INFO(c);
            Position pos = setup(ed, std::string("K") + c + " tb5", 'a');
            CHECK(pos.decided() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
            CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
        }
    }
    {
        // One step short of the edge is still playing.
        Position pos = after(ed, "Kc5 th2", 'd', "c5-b5");
        check_king_alive(pos, "b5");
    }
}

void check_tablut_edge_never_captures_king(const std::string& ed) {
    {
        // One step from the edge: one attacker does not capture him against it.
        Position pos = after(ed, "Kb3 th3 tc8", 'a', "h3-c3");
        check_king_alive(pos, "b3");
        CHECK(at(pos, "c3") == ATTACKER);
    }
    {
        // Stepping onto the edge between two attackers is safe: he escapes.
        Position pos = after(ed, "Kb5 ta4 ta6 th2", 'd', "b5-a5");
        CHECK(at(pos, "a5") == KING);
        CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
    }
}

void check_tablut_king_hammer_against_castle(const std::string& ed) {
    Position pos = after(ed, "Kg3 tf5 tb2", 'd', "g3-g5");
    CHECK(at(pos, "f5") == NO_PIECE);
    CHECK(at(pos, "b2") == ATTACKER);
    check_king_alive(pos, "g5");
}

} // namespace

// ============================== brandubh ==============================

TEST_CASE("line_reach: every start square and line occupancy, against a walk", "[rules]") {
    // The slides of move generation: the squares before the first occupied
    // one on each side (bit MAX_SIZE, a wall, always stops the way up).
    long wrong = 0;
    for (int from = 0; from < MAX_SIZE; ++from)
        for (unsigned occ = 0; occ < (1u << (MAX_SIZE + 1)); ++occ) {
            unsigned want = 0;
            for (int s = from + 1; s < MAX_SIZE && !((occ >> s) & 1); ++s) want |= 1u << s;
            for (int s = from - 1; s >= 0 && !((occ >> s) & 1); --s) want |= 1u << s;
            wrong += line_reach(from, occ) != want;
        }
    CHECK(wrong == 0);
    CHECK(line_reach(5, 0) == ((1u << MAX_SIZE) - 1 - (1u << 5))); // every square but the start
    CHECK(line_reach(5, 1u << 11) == 0x7DFu);                      // 11 squares and the wall
    CHECK(line_reach(5, (1u << 3) | (1u << 8)) == 0xD0u);          // squares 4, 6 and 7
    CHECK(line_reach(0, 1u << 1) == 0u);                           // blocked at once
}

TEST_CASE("line_moves: the short lines' table and the bit operations agree", "[rules]") {
    // Every line of a board up to SHORT_LINE squares carries its wall bit
    // (bit `size`); the table and line_reach must give the same slides
    // there, and both ways (TABLE, BITS) the same moves.
    long wrong = 0;
    for (int size = 3; size <= SHORT_LINE; ++size)
        for (int from = 0; from < size; ++from)
            for (unsigned occ = 0; occ < (1u << size); ++occ) {
                if (!((occ >> from) & 1)) continue; // the piece stands on its square
                const unsigned line = occ | (1u << size);
                wrong += SHORT_LINE_REACH.at[from][line] != line_reach(from, line);
                Edition::LineMasks m;
                m.wall = LineBits(1u << size);
                m.no_stop = LineBits(occ >> 1 & 0x5);
                m.stop_not_pass = LineBits(1u << (size - 1));
                wrong +=
                    line_moves<Reach::TABLE>(from, occ, m) != line_moves<Reach::BITS>(from, occ, m);
            }
    CHECK(wrong == 0);
    CHECK(SHORT_LINE_REACH.at[3][(1u << 3) | (1u << 7)] == 0x77u); // 7 squares: all but d
}

TEST_CASE("brandubh: king on the throne needs four attackers", "[rules]") {
    const std::string ed = "brandubh";
    {
        Position pos = after(ed, "Kd4 tc4 te4 td3 tf5", 'a', "f5-d5");
        check_king_captured(pos);
        CHECK(at(pos, "c4") == ATTACKER);
        CHECK(at(pos, "e4") == ATTACKER);
        CHECK(at(pos, "d3") == ATTACKER);
        CHECK(at(pos, "d5") == ATTACKER);
    }
    {
        // Two attackers on opposite sides do not capture him on the throne.
        Position pos = after(ed, "Kd4 tc4 tg4", 'a', "g4-e4");
        check_king_alive(pos, "d4");
        CHECK(at(pos, "c4") == ATTACKER);
        CHECK(at(pos, "e4") == ATTACKER);
    }
    {
        // Three attackers and a defender do not either.
        Position pos = after(ed, "Kd4 tc4 te4 Td3 tf5", 'a', "f5-d5");
        check_king_alive(pos, "d4");
        CHECK(at(pos, "d3") == DEFENDER);
    }
    {
        // Nor three attackers and an empty square.
        Position pos = after(ed, "Kd4 tc4 te4 tf5", 'a', "f5-d5");
        check_king_alive(pos, "d4");
    }
}

TEST_CASE("brandubh: king next to the throne is captured by two attackers across the other line",
          "[rules]") {
    const std::string ed = "brandubh";
    {
        Position pos = after(ed, "Kd5 tc5 tg5", 'a', "g5-e5");
        check_king_captured(pos);
        CHECK(at(pos, "c5") == ATTACKER);
        CHECK(at(pos, "e5") == ATTACKER);
    }
    {
        Position pos = after(ed, "Ke4 te3 tg5", 'a', "g5-e5");
        check_king_captured(pos);
    }
}

TEST_CASE("brandubh: the empty throne gives no threat to the king next to it", "[rules]") {
    const std::string ed = "brandubh";
    {
        Position pos = after(ed, "Kd5 tg6", 'a', "g6-d6");
        check_king_alive(pos, "d5");
        CHECK(at(pos, "d6") == ATTACKER);
    }
    {
        // An attacker arriving on b4 with the empty throne d4 behind the king.
        Position pos = after(ed, "Kc4 tb1", 'a', "b1-b4");
        check_king_alive(pos, "c4");
    }
}

TEST_CASE("brandubh: king elsewhere is captured by two attackers on opposite sides", "[rules]") {
    check_king_elsewhere_two_attackers("brandubh");
}

TEST_CASE("brandubh: king is captured by one attacker against a corner", "[rules]") {
    check_brandubh_king_against_corner("brandubh");
}

TEST_CASE("brandubh: the board edge does not help capture the king", "[rules]") {
    check_brandubh_king_against_edge("brandubh");
}

TEST_CASE("brandubh: corners are hostile to attackers and defenders", "[rules]") {
    check_brandubh_corners_hostile_to_soldiers("brandubh");
}

TEST_CASE("brandubh: the empty throne is hostile to attackers and defenders", "[rules]") {
    check_brandubh_empty_throne_hostile_to_soldiers("brandubh");
}

TEST_CASE("brandubh: the occupied throne is not hostile to defenders", "[rules]") {
    check_brandubh_occupied_throne_not_hostile_to_defenders("brandubh");
}

TEST_CASE("brandubh: the board edge is not hostile to soldiers", "[rules]") {
    check_edge_not_hostile_to_soldiers("brandubh");
}

TEST_CASE("brandubh: soldiers may not stop on the throne or a corner, may cross the empty throne",
          "[rules]") {
    check_brandubh_restricted_squares("brandubh");
}

TEST_CASE("brandubh: the king may leave and return to the throne", "[rules]") {
    check_brandubh_king_returns_to_throne("brandubh");
}

TEST_CASE("brandubh: moving into a sandwich is safe", "[rules]") {
    check_moving_into_sandwich_is_safe("brandubh");
}

TEST_CASE("brandubh: only the moving piece captures", "[rules]") {
    check_capture_needs_the_mover("brandubh");
}

TEST_CASE("brandubh: one move captures two soldiers", "[rules]") {
    check_double_capture("brandubh");
}

TEST_CASE("brandubh: one move captures three soldiers", "[rules]") {
    check_triple_capture("brandubh");
}

TEST_CASE("brandubh: the king captures as the hammer", "[rules]") {
    check_king_hammer("brandubh");
    // against a corner and against the empty throne
    Position c = after("brandubh", "Kc2 tb1 tf6", 'd', "c2-c1");
    CHECK(at(c, "b1") == NO_PIECE);
    check_king_alive(c, "c1");
    Position t = after("brandubh", "Kf2 te4 tb6", 'd', "f2-f4");
    CHECK(at(t, "e4") == NO_PIECE);
    check_king_alive(t, "f4");
}

TEST_CASE("brandubh: the king is an anvil", "[rules]") {
    check_king_anvil("brandubh");
}

TEST_CASE("brandubh: the king escapes on a corner only", "[rules]") {
    check_brandubh_king_escapes_to_corner("brandubh");
}

TEST_CASE("brandubh: the third occurrence loses for the player who made it", "[rules]") {
    check_repetition("brandubh", "Kb5 tf2", B_CYCLE, 3,
                     game(Winner::ATTACKERS, EndReason::REPETITION),
                     game(Winner::DEFENDERS, EndReason::REPETITION));
}

TEST_CASE("brandubh: no draw by the no-capture limit", "[rules]") {
    check_no_capture_limit_absent("brandubh");
}

TEST_CASE("brandubh: a side with no legal move loses", "[rules]") {
    check_no_moves("brandubh", "Kf6 ta2 Ta3 Tb2", game(Winner::DEFENDERS, EndReason::NO_MOVES),
                   "Kd4 tc4 te4 td3 td5", game(Winner::ATTACKERS, EndReason::NO_MOVES));
}

TEST_CASE("brandubh: capturing every attacker is not a win by itself", "[rules]") {
    Position pos = capture_last_attacker("brandubh");
    CHECK_FALSE(pos.decided().over());
    // The attackers then have no move, and a side with no move loses.
    CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::NO_MOVES));
}

// =========================== brandubh-house ===========================

TEST_CASE("brandubh-house: seed example e7-e4 captures the king on the throne", "[rules]") {
    Position pos = after("brandubh-house", "Kd4 tc4 te7", 'a', "e7-e4");
    check_king_captured(pos);
    CHECK(at(pos, "c4") == ATTACKER);
    CHECK(at(pos, "e4") == ATTACKER);
    CHECK(move_record(setup("brandubh-house", "Kd4 tc4 te7", 'a'),
                      legal(setup("brandubh-house", "Kd4 tc4 te7", 'a'), "e7-e4")) == "e7-e4++");
}

TEST_CASE("brandubh-house: king on the throne is captured by two attackers vertically", "[rules]") {
    Position pos = after("brandubh-house", "Kd4 td3 tg6", 'a', "g6-d6");
    CHECK(pos.king_square() == sq(pos, "d4")); // d6 is not next to him
    Position p2 = after("brandubh-house", "Kd4 td3 tg5", 'a', "g5-d5");
    check_king_captured(p2);
    // one attacker is not enough
    Position p3 = after("brandubh-house", "Kd4 tg5", 'a', "g5-d5");
    check_king_alive(p3, "d4");
}

TEST_CASE("brandubh-house: king next to the empty throne is captured by one attacker", "[rules]") {
    {
        Position pos = after("brandubh-house", "Kd5 tg6", 'a', "g6-d6");
        check_king_captured(pos);
        CHECK(at(pos, "d6") == ATTACKER);
    }
    {
        Position pos = after("brandubh-house", "Kc4 tb1", 'a', "b1-b4");
        check_king_captured(pos);
    }
    {
        // two attackers across the other line also capture him there
        Position pos = after("brandubh-house", "Kd5 tc5 tg5", 'a', "g5-e5");
        check_king_captured(pos);
    }
}

TEST_CASE("brandubh-house: king elsewhere is captured by two attackers on opposite sides",
          "[rules]") {
    check_king_elsewhere_two_attackers("brandubh-house");
}

TEST_CASE("brandubh-house: king is captured by one attacker against a corner", "[rules]") {
    check_brandubh_king_against_corner("brandubh-house");
}

TEST_CASE("brandubh-house: the board edge does not help capture the king", "[rules]") {
    check_brandubh_king_against_edge("brandubh-house");
}

TEST_CASE("brandubh-house: corners are hostile to attackers and defenders", "[rules]") {
    check_brandubh_corners_hostile_to_soldiers("brandubh-house");
}

TEST_CASE("brandubh-house: the empty throne is hostile to attackers and defenders", "[rules]") {
    check_brandubh_empty_throne_hostile_to_soldiers("brandubh-house");
}

TEST_CASE("brandubh-house: the occupied throne is not hostile to defenders", "[rules]") {
    check_brandubh_occupied_throne_not_hostile_to_defenders("brandubh-house");
}

TEST_CASE("brandubh-house: the board edge is not hostile to soldiers", "[rules]") {
    check_edge_not_hostile_to_soldiers("brandubh-house");
}

TEST_CASE("brandubh-house: soldiers may not stop on the throne or a corner, may cross the empty "
          "throne",
          "[rules]") {
    check_brandubh_restricted_squares("brandubh-house");
}

TEST_CASE("brandubh-house: the king may leave and return to the throne", "[rules]") {
    check_brandubh_king_returns_to_throne("brandubh-house");
}

TEST_CASE("brandubh-house: moving into a sandwich is safe", "[rules]") {
    check_moving_into_sandwich_is_safe("brandubh-house");
    // The king too may step next to the empty throne with an attacker opposite.
    Position pos = after("brandubh-house", "Kd6 tc5 te5", 'd', "d6-d5");
    check_king_alive(pos, "d5");
}

TEST_CASE("brandubh-house: only the moving piece captures", "[rules]") {
    check_capture_needs_the_mover("brandubh-house");
}

TEST_CASE("brandubh-house: one move captures two soldiers", "[rules]") {
    check_double_capture("brandubh-house");
}

TEST_CASE("brandubh-house: one move captures three soldiers", "[rules]") {
    check_triple_capture("brandubh-house");
}

TEST_CASE("brandubh-house: the king captures as the hammer", "[rules]") {
    check_king_hammer("brandubh-house");
    Position c = after("brandubh-house", "Kc2 tb1 tf6", 'd', "c2-c1");
    CHECK(at(c, "b1") == NO_PIECE);
    Position t = after("brandubh-house", "Kf2 te4 tb6", 'd', "f2-f4");
    CHECK(at(t, "e4") == NO_PIECE);
}

TEST_CASE("brandubh-house: the king is an anvil", "[rules]") {
    check_king_anvil("brandubh-house");
}

TEST_CASE("brandubh-house: the king escapes on a corner only", "[rules]") {
    check_brandubh_king_escapes_to_corner("brandubh-house");
}

TEST_CASE("brandubh-house: the escape is checked before the last attacker's capture", "[rules]") {
    Position pos = after("brandubh-house", "Ka5 tb7 Tc7", 'd', "a5-a7");
    CHECK(at(pos, "b7") == NO_PIECE);
    CHECK(count_pieces(pos, ATTACKER) == 0);
    CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
}

TEST_CASE("brandubh-house: the third occurrence of a position draws", "[rules]") {
    check_repetition("brandubh-house", "Kb5 tf2", B_CYCLE, 3,
                     game(Winner::DRAW, EndReason::REPETITION),
                     game(Winner::DRAW, EndReason::REPETITION));
}

TEST_CASE("brandubh-house: 120 plies without a capture draw, 119 do not", "[rules]") {
    check_no_capture_limit("brandubh-house");
}

TEST_CASE("brandubh-house: repetition is checked before the no-capture limit", "[rules]") {
    check_repetition_before_limit("brandubh-house", "Kb5 tf2", B_CYCLE);
}

TEST_CASE("brandubh-house: a side with no legal move loses", "[rules]") {
    check_no_moves("brandubh-house", "Kf6 ta2 Ta3 Tb2",
                   game(Winner::DEFENDERS, EndReason::NO_MOVES), "Kd4 tc4 te4 td3 td5",
                   game(Winner::ATTACKERS, EndReason::NO_MOVES));
}

TEST_CASE("brandubh-house: the defenders win when every attacker is captured", "[rules]") {
    Position pos = capture_last_attacker("brandubh-house");
    CHECK(pos.decided() == game(Winner::DEFENDERS, EndReason::NO_ATTACKERS));
    CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::NO_ATTACKERS));
    CHECK(count_moves(pos) == 0);
}

// =============================== tablut ===============================

TEST_CASE("tablut: king on the castle needs four attackers", "[rules]") {
    check_tablut_king_on_castle("tablut");
}

TEST_CASE("tablut: king next to the castle needs three attackers and the castle", "[rules]") {
    check_tablut_king_next_to_castle("tablut");
}

TEST_CASE("tablut: king elsewhere is captured by two attackers on opposite sides", "[rules]") {
    check_king_elsewhere_two_attackers("tablut");
}

TEST_CASE("tablut: the empty castle is hostile to attackers and defenders", "[rules]") {
    check_tablut_empty_castle_hostile_to_soldiers("tablut");
}

TEST_CASE("tablut: the occupied castle is not hostile to defenders", "[rules]") {
    check_tablut_occupied_castle_not_hostile_to_defenders("tablut");
}

TEST_CASE("tablut: the board edge is not hostile to soldiers", "[rules]") {
    check_edge_not_hostile_to_soldiers("tablut");
}

TEST_CASE("tablut: corners are ordinary squares", "[rules]") {
    check_tablut_corners_are_ordinary("tablut");
}

TEST_CASE("tablut: soldiers may not stop on the castle, may cross it when empty", "[rules]") {
    check_tablut_soldiers_restricted_on_castle("tablut");
}

TEST_CASE("tablut: the king may not return to the castle, may cross it", "[rules]") {
    Position pos = setup("tablut", "Ke5 tb2", 'd');
    CHECK_FALSE(targets_contain(pos, "e5", "e5"));
    play(pos, "e5-e6");
    play(pos, "b2-b3");
    CHECK_FALSE(targets_contain(pos, "e6", "e5"));
    CHECK(targets_contain(pos, "e6", "e4"));
    CHECK(targets_contain(pos, "e6", "e2"));
    auto bad = parse_legal_move(pos, "e6-e5");
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.error(), Catch::Contains("e5"));
    // from the side as well
    Position p2 = setup("tablut", "Kc5 tb2", 'd');
    CHECK(targets(p2, "c5") == "a5 b5 c1 c2 c3 c4 c6 c7 c8 c9 d5 f5 g5 h5 i5");
}

TEST_CASE("tablut: moving into a sandwich is safe", "[rules]") {
    check_moving_into_sandwich_is_safe("tablut");
}

TEST_CASE("tablut: only the moving piece captures", "[rules]") {
    check_capture_needs_the_mover("tablut");
}

TEST_CASE("tablut: one move captures two soldiers", "[rules]") {
    check_double_capture("tablut");
}

TEST_CASE("tablut: one move captures three soldiers", "[rules]") {
    check_triple_capture("tablut");
}

TEST_CASE("tablut: the king captures as the hammer", "[rules]") {
    check_king_hammer("tablut");
    check_tablut_king_hammer_against_castle("tablut");
}

TEST_CASE("tablut: the king is an anvil", "[rules]") {
    check_king_anvil("tablut");
}

TEST_CASE("tablut: the board edge does not help capture the king", "[rules]") {
    check_tablut_edge_never_captures_king("tablut");
}

TEST_CASE("tablut: the king escapes on any edge square", "[rules]") {
    check_tablut_king_escapes_on_edge("tablut");
}

TEST_CASE("tablut: the second occurrence of a position draws", "[rules]") {
    check_repetition("tablut", "Kc5 tf2", T_CYCLE, 2, game(Winner::DRAW, EndReason::REPETITION),
                     game(Winner::DRAW, EndReason::REPETITION));
}

TEST_CASE("tablut: no draw by the no-capture limit", "[rules]") {
    check_no_capture_limit_absent("tablut");
}

TEST_CASE("tablut: a side with no legal move draws", "[rules]") {
    check_no_moves("tablut", "Kc5 ta1 Ta2 Tb1", game(Winner::DRAW, EndReason::NO_MOVES),
                   "Kd4 tc4 te4 td3 td5", game(Winner::DRAW, EndReason::NO_MOVES));
}

TEST_CASE("tablut: capturing every attacker is not a win by itself", "[rules]") {
    Position pos = capture_last_attacker("tablut");
    CHECK_FALSE(pos.decided().over());
    // The attackers then have no move, which is a draw in this edition.
    CHECK(pos.result() == game(Winner::DRAW, EndReason::NO_MOVES));
}

// ============================ tablut-house ============================

TEST_CASE("tablut-house: seed example b8-b9 wins", "[rules]") {
    Position pos = setup("tablut-house", "Kb8 ti1", 'd');
    CHECK(pos.result() == ONGOING);
    CHECK(move_record(pos, legal(pos, "b8-b9")) == "b8-b9--");
    play(pos, "b8-b9");
    CHECK(pos.decided() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
    CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
}

TEST_CASE("tablut-house: king on the throne needs four attackers", "[rules]") {
    check_tablut_king_on_castle("tablut-house");
}

TEST_CASE("tablut-house: king next to the throne needs three attackers and the throne", "[rules]") {
    check_tablut_king_next_to_castle("tablut-house");
}

TEST_CASE("tablut-house: king elsewhere is captured by two attackers on opposite sides",
          "[rules]") {
    check_king_elsewhere_two_attackers("tablut-house");
}

TEST_CASE("tablut-house: the empty throne is hostile to attackers and defenders", "[rules]") {
    check_tablut_empty_castle_hostile_to_soldiers("tablut-house");
}

TEST_CASE("tablut-house: the occupied throne is not hostile to defenders", "[rules]") {
    check_tablut_occupied_castle_not_hostile_to_defenders("tablut-house");
}

TEST_CASE("tablut-house: the board edge is not hostile to soldiers", "[rules]") {
    check_edge_not_hostile_to_soldiers("tablut-house");
}

TEST_CASE("tablut-house: corners are ordinary squares", "[rules]") {
    check_tablut_corners_are_ordinary("tablut-house");
}

TEST_CASE("tablut-house: soldiers may not stop on the throne, may cross it when empty", "[rules]") {
    check_tablut_soldiers_restricted_on_castle("tablut-house");
}

TEST_CASE("tablut-house: the king may return to the throne", "[rules]") {
    Position pos = setup("tablut-house", "Ke5 tb2", 'd');
    play(pos, "e5-e6");
    play(pos, "b2-b3");
    CHECK(targets_contain(pos, "e6", "e5"));
    CHECK(targets_contain(pos, "e6", "e4"));
    play(pos, "e6-e5");
    check_king_alive(pos, "e5");
    Position p3 = setup("tablut-house", "Kc5 tb2", 'd');
    CHECK(targets(p3, "c5") == "a5 b5 c1 c2 c3 c4 c6 c7 c8 c9 d5 e5 f5 g5 h5 i5");
}

TEST_CASE("tablut-house: moving into a sandwich is safe", "[rules]") {
    check_moving_into_sandwich_is_safe("tablut-house");
}

TEST_CASE("tablut-house: only the moving piece captures", "[rules]") {
    check_capture_needs_the_mover("tablut-house");
}

TEST_CASE("tablut-house: one move captures two soldiers", "[rules]") {
    check_double_capture("tablut-house");
}

TEST_CASE("tablut-house: one move captures three soldiers", "[rules]") {
    check_triple_capture("tablut-house");
}

TEST_CASE("tablut-house: the king captures as the hammer", "[rules]") {
    check_king_hammer("tablut-house");
    check_tablut_king_hammer_against_castle("tablut-house");
}

TEST_CASE("tablut-house: the king is an anvil", "[rules]") {
    check_king_anvil("tablut-house");
}

TEST_CASE("tablut-house: the board edge does not help capture the king", "[rules]") {
    check_tablut_edge_never_captures_king("tablut-house");
}

TEST_CASE("tablut-house: the king escapes on any edge square, corners included", "[rules]") {
    check_tablut_king_escapes_on_edge("tablut-house");
}

TEST_CASE("tablut-house: the escape is checked before the last attacker's capture", "[rules]") {
    Position pos = after("tablut-house", "Kc7 td9 Te9", 'd', "c7-c9");
    CHECK(at(pos, "d9") == NO_PIECE);
    CHECK(count_pieces(pos, ATTACKER) == 0);
    CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::KING_ESCAPED));
}

TEST_CASE("tablut-house: the third occurrence of a position draws", "[rules]") {
    check_repetition("tablut-house", "Kc5 tf2", T_CYCLE, 3,
                     game(Winner::DRAW, EndReason::REPETITION),
                     game(Winner::DRAW, EndReason::REPETITION));
}

TEST_CASE("tablut-house: 120 plies without a capture draw, 119 do not", "[rules]") {
    check_no_capture_limit("tablut-house");
}

TEST_CASE("tablut-house: repetition is checked before the no-capture limit", "[rules]") {
    check_repetition_before_limit("tablut-house", "Kc5 tf2", T_CYCLE);
}

TEST_CASE("tablut-house: a side with no legal move loses", "[rules]") {
    check_no_moves("tablut-house", "Kc5 ta1 Ta2 Tb1", game(Winner::DEFENDERS, EndReason::NO_MOVES),
                   "Kd4 tc4 te4 td3 td5", game(Winner::ATTACKERS, EndReason::NO_MOVES));
}

TEST_CASE("tablut-house: the defenders win when every attacker is captured", "[rules]") {
    Position pos = capture_last_attacker("tablut-house");
    CHECK(pos.decided() == game(Winner::DEFENDERS, EndReason::NO_ATTACKERS));
    CHECK(pos.result() == game(Winner::DEFENDERS, EndReason::NO_ATTACKERS));
}

// ====================== every edition: end order ======================

TEST_CASE("every edition: the no-capture limit is checked before no legal move", "[rules]") {
    for (const char* ed : {"brandubh-house", "tablut-house"}) {
        INFO(ed);
        const std::string blocked =
            std::string(ed) == "brandubh-house" ? "Kf6 ta2 Ta3 Tb2" : "Kc5 ta1 Ta2 Tb1";
        CHECK(setup(ed, blocked, 'a', 120).result() == game(Winner::DRAW, EndReason::MOVE_LIMIT));
        CHECK(setup(ed, blocked, 'a', 119).result() ==
              game(Winner::DEFENDERS, EndReason::NO_MOVES));
    }
}
