// Move ordering (search/movepick.h): the order the search and the
// quiescence search take their moves in, move by move. The order is part of
// the bench signature; these cases pin it where a change is easiest to
// make unawares (ties, and the swaps of the one-by-one picks).

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "movepick.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

struct Picked {
    std::vector<std::string> moves; // "f1-f5*": the star marks a move given as not quiet
    std::vector<Move> raw;
};

Picked drain(const Position& pos, MovePicker& picker) {
    Picked out;
    bool quiet = true;
    for (Move m; (m = picker.next(quiet));) {
        out.moves.push_back(move_name(pos.edition(), m) + (quiet ? "" : "*"));
        out.raw.push_back(m);
    }
    return out;
}

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    size_t p = 0;
    while (p < text.size()) {
        size_t q = text.find(' ', p);
        if (q == std::string::npos) q = text.size();
        if (q > p) out.push_back(text.substr(p, q - p));
        p = q + 1;
    }
    return out;
}

// Every legal move exactly once.
void check_all_moves_once(const Position& pos, std::vector<Move> picked) {
    MoveList list;
    generate_moves(pos, list);
    std::vector<Move> all(list.begin(), list.end());
    auto by_raw = [](Move a, Move b) { return a.raw() < b.raw(); };
    std::sort(all.begin(), all.end(), by_raw);
    std::sort(picked.begin(), picked.end(), by_raw);
    CHECK(picked == all);
}

// Brandubh. Attackers to move: f1-f5 captures two (e5 against d5, f6
// against f7), a4-c4 captures one (c3 against c2); the other 28 moves are
// quiet. Defenders to move: five captures, eight king moves, 31 others.
Position sample(char side) {
    return setup("brandubh", "Kd4 ta4 tc2 Tc3 td5 Te5 tf7 Tf6 tf1 Tb6", side);
}

struct Ordering {
    int16_t history[MAX_SQUARES * MAX_SQUARES] = {};
    Move killers[2] = {MOVE_NONE, MOVE_NONE};
    void set_history(const Position& pos, const std::string& move, int value) {
        history[hist_index(legal(pos, move))] = int16_t(value);
    }
};

} // namespace

TEST_CASE("movepick: table move, captures, killers, history, ties", "[search][movepick]") {
    const Position pos = sample('a');
    Ordering o;
    o.killers[0] = legal(pos, "d5-d6");
    o.killers[1] = legal(pos, "f7-c7");
    o.set_history(pos, "a4-a5", 300);
    o.set_history(pos, "c2-c1", 200);
    o.set_history(pos, "f7-e7", -50);
    o.set_history(pos, "a4-c4", 5000); // a capture: its history does not count
    MovePicker picker(pos, legal(pos, "c2-e2"), o.killers, o.history);
    const Picked got = drain(pos, picker);
    // The table move; the capture of two, of one; the killers, the newer
    // first; history. The three first picks swap their move with the one at
    // their place (f1-b1, f1-c1 and f1-d1, in generation order the first
    // three), and the rest keep that order among equals: f1-b1, f1-c1 and
    // f1-d1 come where the picks were. Negative history last.
    CHECK(got.moves == words("c2-e2 f1-f5* a4-c4* d5-d6 f7-c7 a4-a5 c2-c1 "
                             "f1-e1 f1-f2 f1-f3 f1-f4 f1-b1 c2-a2 c2-b2 c2-d2 c2-f2 c2-g2 "
                             "a4-b4 f1-c1 a4-a2 a4-a3 a4-a6 d5-a5 d5-b5 d5-c5 f1-d1 d5-d7 "
                             "f7-b7 f7-d7 f7-e7"));
    check_all_moves_once(pos, got.raw);
}

TEST_CASE("movepick: without a table move or killers the captures lead", "[search][movepick]") {
    const Position pos = sample('a');
    Ordering o;
    MovePicker picker(pos, MOVE_NONE, o.killers, o.history);
    const Picked got = drain(pos, picker);
    CHECK(got.moves == words("f1-f5* a4-c4* f1-d1 f1-e1 f1-f2 f1-f3 f1-f4 f1-b1 c2-a2 c2-b2 "
                             "c2-d2 c2-e2 c2-f2 c2-g2 c2-c1 a4-b4 f1-c1 a4-a2 a4-a3 a4-a5 a4-a6 "
                             "d5-a5 d5-b5 d5-c5 d5-d6 d5-d7 f7-b7 f7-c7 f7-d7 f7-e7"));
    check_all_moves_once(pos, got.raw);
}

TEST_CASE("movepick: a capturing table move comes once, an illegal one never",
          "[search][movepick]") {
    const Position pos = sample('a');
    Ordering o;
    {
        MovePicker picker(pos, legal(pos, "a4-c4"), o.killers, o.history);
        const Picked got = drain(pos, picker);
        REQUIRE(got.moves.size() >= 2);
        CHECK(got.moves[0] == "a4-c4*");
        CHECK(got.moves[1] == "f1-f5*");
        check_all_moves_once(pos, got.raw);
    }
    // A table entry of another position: blocked, the opponent's piece, an
    // empty square. Each is skipped, the rest as without a table move.
    MovePicker plain(pos, MOVE_NONE, o.killers, o.history);
    const Picked want = drain(pos, plain);
    for (const char* bad : {"f1-f7", "c3-c4", "b2-b3"}) {
        INFO(bad);
        auto m = parse_move(pos.edition(), bad);
        REQUIRE(m.ok());
        MovePicker picker(pos, *m, o.killers, o.history);
        CHECK(drain(pos, picker).moves == want.moves);
    }
}

TEST_CASE("movepick: king moves come after captures, before killers", "[search][movepick]") {
    const Position pos = sample('d');
    Ordering o;
    o.killers[0] = legal(pos, "c3-c4");
    o.killers[1] = legal(pos, "b6-b7");
    o.set_history(pos, "d4-d2", 100); // among king moves, history decides
    o.set_history(pos, "f6-f5", 90);
    MovePicker picker(pos, MOVE_NONE, o.killers, o.history);
    const Picked got = drain(pos, picker);
    REQUIRE(got.moves.size() == 44);
    CHECK(std::vector<std::string>(got.moves.begin(), got.moves.begin() + 16) ==
          words("c3-c5* e5-e1* e5-e7* b6-d6* f6-d6* d4-d2 d4-b4 d4-c4 d4-e4 d4-f4 d4-g4 d4-d1 "
                "d4-d3 c3-c4 b6-b7 f6-f5"));
    check_all_moves_once(pos, got.raw);
}

TEST_CASE("movepick: quiescence without a threat gives only the captures", "[search][movepick]") {
    for (char side : {'a', 'd'}) {
        INFO(side);
        const Position pos = sample(side);
        MovePicker picker(pos, PickKind::CAPTURES);
        const Picked got = drain(pos, picker);
        // By capturing square (lowest first), two captured before one.
        CHECK(got.moves ==
              words(side == 'a' ? "f1-f5* a4-c4*" : "e5-e1* c3-c5* f6-d6* b6-d6* e5-e7*"));
        for (Move m : got.raw) CHECK(tactics::move_effect(pos, m).captures > 0);
    }
}

TEST_CASE("movepick: quiescence against a king capture gives every move", "[search][movepick]") {
    const Position pos = sample('d');
    MovePicker picker(pos, PickKind::EVASIONS);
    const Picked got = drain(pos, picker);
    // Captures, then king moves, then the rest, each picked by a swap with
    // the move at its place: equals do not keep their generation order.
    CHECK(got.moves ==
          words("c3-c5* e5-e1* e5-e7* b6-d6* f6-d6* d4-b4 d4-c4 d4-e4 d4-f4 d4-g4 d4-d1 d4-d2 "
                "d4-d3 e5-e2 e5-e3 e5-e4 e5-e6 c3-d3 b6-a6 b6-c6 c3-e3 b6-e6 b6-b1 b6-b2 b6-b3 "
                "b6-b4 b6-b5 b6-b7 f6-c6 c3-f3 f6-e6 f6-g6 f6-f2 f6-f3 f6-f4 f6-f5 c3-g3 c3-c4 "
                "c3-a3 c3-c6 c3-c7 e5-f5 e5-g5 c3-b3"));
    check_all_moves_once(pos, got.raw);
}

TEST_CASE("movepick: quiescence against an escape gives the blocks", "[search][movepick]") {
    // The king on a4 has a free line to a1 (a6 closes the way to a7): c2-a2
    // and e3-a3 stand in it (a1 itself is a corner no attacker may enter),
    // by square, lowest first. f7 and a6 have other moves only.
    const Position pos = setup("brandubh", "Ka4 ta6 tc2 te3 tf7 Tf6", 'a');
    const Bitboard escapes = tactics::king_escapes(pos);
    REQUIRE(popcount(escapes) == 1);
    MovePicker picker(pos, PickKind::BLOCKS, tactics::escape_paths(pos, escapes));
    CHECK(drain(pos, picker).moves == words("c2-a2 e3-a3"));
}

// The staged picker (captures, king moves and killers listed first, the rest
// only when they run out) gives the full list's order move for move, with
// peeks between the picks as the search makes them: random games in the
// 11x11 editions, 13x13, 19x19 and the small boards, random history,
// killers (legal or not, captures, king moves) and table moves.
TEST_CASE("movepick: the staged picker gives the full list's order", "[search][movepick]") {
    std::mt19937 rng(2212);
    for (const char* preset : {"copenhagen", "opentafl-copenhagen", "fetlar", "hnefatafl-org",
                               "hnefatafl-org-13", "alea-evangelii", "brandubh", "tablut"}) {
        INFO(preset);
        for (int game = 0; game < 12; ++game) {
            Position pos(edition(preset));
            for (int ply = 0; ply < 80 && !pos.decided().over(); ++ply) {
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                Ordering o;
                for (Move m : list)
                    if (rng() % 3) o.history[hist_index(m)] = int16_t(int(rng() % 2001) - 1000);
                auto any = [&]() { return list.moves[rng() % list.size()]; };
                const Move killer_pool[] = {any(), any(), MOVE_NONE, Move(0, 1)};
                o.killers[0] = killer_pool[rng() % 4];
                o.killers[1] = rng() % 4 ? killer_pool[rng() % 4] : o.killers[0];
                const Move tt = rng() % 2 ? any() : MOVE_NONE;
                MovePicker full(pos, tt, o.killers, o.history, false);
                MovePicker staged(pos, tt, o.killers, o.history, true);
                bool qf = false, qs = false;
                int n = 0;
                Move peeked[2];
                for (;;) {
                    const Move a = full.next(qf), b = staged.next(qs);
                    REQUIRE(a == b);
                    // A peek, when it finds a move, finds the next one.
                    for (Move p : peeked)
                        if (p) REQUIRE(p == a);
                    if (!a) break;
                    REQUIRE(qf == qs);
                    REQUIRE(full.quiet_from_here(qf) == staged.quiet_from_here(qs));
                    peeked[0] = rng() % 2 ? full.peek() : MOVE_NONE;
                    peeked[1] = rng() % 2 ? staged.peek() : MOVE_NONE;
                    ++n;
                }
                CHECK(n == list.size());
                pos.make_move(any());
            }
        }
    }
}
