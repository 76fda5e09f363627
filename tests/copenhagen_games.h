#pragma once

// Copenhagen test material shared by the readings' tests (test_copenhagen,
// test_hnefatafl_org): the three middlegame positions of HNEFATAFL.md 3.2
// as the moves of their games, and helpers that ask what one move does.

#include "perft.h"
#include "test_helpers.h"
#include "text.h"

namespace branan::testutil {

// The moves of a game as HNEFATAFL.md writes them ("b5-b2xc2"): the
// captures after 'x' are left to the engine.
inline void play_game(Position& pos, const std::string& moves) {
    for (std::string_view word : split_words(moves))
        play(pos, std::string(word.substr(0, word.find('x'))));
}

// HNEFATAFL.md 3.2: P1 (game 180 before ply 18), P2 (game 56 before ply
// 48), P3 (game 222 before ply 40), from the start.
inline const char* const P1 =
    "h1-h3 d6-d3 f2-c2 f4-i4 g1-i1 e5-b5 b6-c6 f5-c5 a7-c7 f6-f2 j6-j2 f2-d2 "
    "d1-b1 b5-b2xc2 e1-c1 d2-c2 a5-b5";
inline const char* const P2 =
    "h1-j1 f4-i4 g1-i1 h6-h9 j6-j10 g5-g2 f2-b2 g6-g3 k6-i6 f5-j5 k4-k3 f6-h6 i6-i10 g2-k2 "
    "k5-k4 g3-j3 a4-a3 f7-f3 j10-j9 h6-k6 i1-i3xj3 k2-i2xi3 f1-i1 i2-k2 k3-j3 k2-j2 j3-k3 "
    "j5-j3 h11-h10 h9-h2 e1-h1 e5-h5 h10-h8 e6-j6 g11-g8 f3-i3 e11-e8xf8 j6-j4 a3-h3xh2 "
    "g7-g3xh3 i10-i6 e7-e2 h1-h2 k6-k5 i1-i2 g3-g1 i2-i1";
inline const char* const P3 =
    "a8-c8 f4-c4 d1-d3 h6-h3 f2-j2 g5-j5 j6-j10 f5-i5 f1-f2 e5-e3 d3-c3 f6-f3 f2-i2 f3-f2 "
    "c3-c2 d6-d1 b6-b3 f2-f1xe1 c2-c1 f1-f2 c1-c2 e6-d6 f10-b10 d1-c1 b3-c3 c4-d4 a4-b4 "
    "f2-e2 a5-a3 f7-f1 b4-b2 d4-d2 k4-f4 g6-g2 c3-d3 h3-f3 h11-h3 g2-f2 i2-g2";

inline Position from_start(const char* preset, const char* moves) {
    Position pos(edition(preset));
    play_game(pos, moves);
    return pos;
}

inline Bitboard squares(const Position& pos, std::initializer_list<const char*> names) {
    Bitboard b = 0;
    for (const char* n : names) b |= square_bb(sq(pos, n));
    return b;
}

// What the move captures in pos, by making and unmaking it.
inline Bitboard captures_of(Position& pos, const std::string& move) {
    pos.make_move(legal(pos, move));
    const Bitboard c = pos.last_captured();
    pos.unmake_move();
    return c;
}

// The result after the move (the move is unmade again).
inline GameResult result_after(Position& pos, const std::string& move) {
    pos.make_move(legal(pos, move));
    const GameResult r = pos.result();
    pos.unmake_move();
    return r;
}

// Perft from P1, P2, P3 to depth 3 under a preset equals `nodes` (per
// position, depths 0-3); depth 2 is also counted by making every move.
inline void check_middlegame_perft(const char* preset, const uint64_t (&nodes)[3][4]) {
    const char* const games[] = {P1, P2, P3};
    for (int i = 0; i < 3; ++i) {
        INFO(preset << " P" << i + 1);
        Position pos = from_start(preset, games[i]);
        REQUIRE(pos.side_to_move() == DEFENDERS);
        REQUIRE_FALSE(pos.result().over());
        for (int d = 1; d <= 3; ++d) {
            INFO("depth " << d);
            CHECK(perft(pos, d) == nodes[i][d]);
        }
        CHECK(perft_by_making(pos, 2) == nodes[i][2]);
    }
}

inline const GameResult FORT{Winner::DEFENDERS, EndReason::EDGE_FORT};
inline const GameResult ENCIRCLEMENT{Winner::ATTACKERS, EndReason::ENCIRCLED};

} // namespace branan::testutil
