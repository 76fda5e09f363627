// Search tests: forced wins with the exact distance, the only defence, the
// transposition table, limits, stop, game-end rules inside the search,
// determinism, bench.

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "context.h"
#include "engine.h"
#include "notation.h"
#include "test_helpers.h"
#include "text.h"
#include "thread_pool.h"
#include "tt.h"

using namespace branan;

namespace {

struct SearchRun {
    std::vector<SearchInfo> infos;
    BestMove best;
    int64_t ms = 0;
};

SearchRun search_with(Engine& e, const SearchLimits& lim) {
    SearchRun r;
    std::mutex m;
    e.on_info([&](const SearchInfo& i) {
        std::lock_guard lock(m);
        r.infos.push_back(i);
    });
    e.on_bestmove([&](const BestMove& b) {
        std::lock_guard lock(m);
        r.best = b;
    });
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(e.go(lim));
    e.wait();
    r.ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    return r;
}

SearchLimits depth_limit(int d) {
    SearchLimits l;
    l.depth = d;
    return l;
}

// A depth-3 search with `only` as the only root move, after `moves` from `tfen`.
std::pair<SearchRun, Move> search_only(Engine& e, const char* tfen,
                                       const std::vector<std::string>& moves, const char* only) {
    REQUIRE(e.set_position(tfen, moves));
    auto m = parse_legal_move(e.position(), only);
    REQUIRE(m);
    SearchLimits l = depth_limit(3);
    l.searchmoves = {*m};
    return {search_with(e, l), *m};
}

// An independent check of forced wins: plain AND-OR search over
// Position::result(), no pruning, no table.
bool mover_won(const GameResult& r, Side mover) {
    return (r.winner == Winner::ATTACKERS && mover == ATTACKERS) ||
           (r.winner == Winner::DEFENDERS && mover == DEFENDERS);
}
// After `m`, can the side that played it force a win within k more plies
// (k = 0: m itself wins)?
bool move_wins(Position& pos, Move m, int k);
bool side_wins(Position& pos, int k) { // side to move wins within k plies
    MoveList list;
    generate_moves(pos, list);
    for (Move m : list)
        if (move_wins(pos, m, k - 1)) return true;
    return false;
}
bool move_wins(Position& pos, Move m, int k) {
    const Side us = pos.side_to_move();
    pos.make_move(m);
    bool ok;
    const GameResult r = pos.result();
    if (r.over()) {
        ok = mover_won(r, us);
    } else if (k < 2) {
        ok = false;
    } else {
        ok = true;
        MoveList replies;
        generate_moves(pos, replies);
        for (Move m2 : replies) {
            pos.make_move(m2);
            const GameResult r2 = pos.result();
            const bool good = r2.over() ? mover_won(r2, us) : side_wins(pos, k - 2 + 1);
            pos.unmake_move();
            if (!good) {
                ok = false;
                break;
            }
        }
    }
    pos.unmake_move();
    return ok;
}

struct WinCase {
    const char* preset;
    const char* tfen;
    int moves; // the side to move wins in exactly this many moves
};

// Found by a random generator and checked by the AND-OR solver above (it
// reruns in the test): defenders escape in 1, 2, 3; attackers capture the
// king in 1, 2.
const WinCase WIN_CASES[] = {
    {"brandubh", "5T1/4t2/KT5/1T5/7/1t1t1t1/1t5 d 0 1", 1},
    {"brandubh", "7/ttt2tT/7/1T5/2t4/4T2/3K3 d 0 1", 1},
    {"brandubh", "7/tt4t/2T4/7/1Tt4/1t1K3/3T3 d 0 1", 2},
    {"brandubh", "3t3/7/2KT3/T6/3t3/3t3/1Ttt3 d 0 1", 2},
    {"brandubh", "7/1T4t/7/4t2/1t1T1Kt/3T3/1t5 d 0 1", 3},
    {"brandubh", "7/1T1T2t/7/4tKt/7/t5t/5T1 d 0 1", 3},
    {"brandubh", "7/K3T2/5t1/2t4/5tT/3tT2/4t2 a 0 1", 1},
    {"brandubh", "3t3/2t4/tt5/K3TT1/1t5/7/3T3 a 0 1", 1},
    {"brandubh", "7/2t2K1/2Ttt2/6t/4tT1/7/3T3 a 0 1", 2},
    {"brandubh", "7/5T1/7/t5t/5TK/3T2t/1tt4 a 0 1", 2},
    {"brandubh-house", "5T1/4t2/KT5/1T5/7/1t1t1t1/1t5 d 0 1", 1},
    {"brandubh-house", "7/tt4t/2T4/7/1Tt4/1t1K3/3T3 d 0 1", 2},
    {"brandubh-house", "7/1T1T2t/7/4tKt/7/t5t/5T1 d 0 1", 3},
    {"brandubh-house", "3t3/2t4/tt5/K3TT1/1t5/7/3T3 a 0 1", 1},
    {"brandubh-house", "7/2t2K1/2Ttt2/6t/4tT1/7/3T3 a 0 1", 2},
    {"tablut", "9/4t1T2/4T4/9/7K1/1T2t4/9/2t2tt2/9 d 0 1", 1},
    {"tablut", "9/2t1t4/9/3t5/1TK3TT1/2t6/6t2/9/9 d 0 1", 2},
    {"tablut", "9/9/3t1T3/2T1tKt2/9/5t3/2T6/2t6/9 d 0 1", 2},
    {"tablut", "9/9/3t5/5t3/1T1K2T2/4t4/3T5/2t2t3/9 d 0 1", 3},
    {"tablut", "9/1T4t2/2T6/3t5/1T4Kt1/9/6t2/5t3/9 d 0 1", 3},
    {"tablut", "9/9/1T4Kt1/5t3/5t3/5T3/6t2/3T3t1/9 a 0 1", 1},
    {"tablut", "9/9/1Tt6/3Kt1t2/9/1T7/2T4t1/7t1/9 a 0 1", 1},
    {"tablut", "9/2tt5/9/1tKT1T1t1/3T5/9/9/2t6/9 a 0 1", 2},
    {"tablut", "9/9/2t1t4/3tKt3/9/4Tt3/3T5/3T5/9 a 0 1", 2},
    {"tablut-house", "9/9/2t1K4/9/1t7/3t5/4t4/1T3TTt1/9 d 0 1", 1},
    {"tablut-house", "9/9/3T5/1t1Kt1T2/9/3t3T1/3t5/3t5/9 d 0 1", 2},
    {"tablut-house", "9/9/3t3t1/1t1Kt2T1/5tT2/3T5/9/9/9 d 0 1", 3},
    {"tablut-house", "9/9/4t4/6t2/5tt2/3T1KT2/4tT3/9/9 d 0 1", 3},
    {"tablut-house", "9/9/1Tt6/3Kt1t2/9/1T7/2T4t1/7t1/9 a 0 1", 1},
    {"tablut-house", "9/9/9/5T3/5T1T1/2t1tK3/7t1/2t2t3/9 a 0 1", 2},
};

struct BlockCase {
    const char* preset;
    const char* tfen;
    const char* only_move; // every other move loses at once
};

const BlockCase BLOCK_CASES[] = {
    {"brandubh", "5t1/1t1t2t/7/2t1T2/7/6T/2T1K2 a 0 1", "f7-f1"},
    {"brandubh", "2KT3/t2tt2/7/Ttt4/6T/7/7 a 0 1", "b4-b7"},
    {"brandubh", "1t5/t3TT1/1t5/1t5/1T5/1Kt4/7 d 0 1", "b3-a3"},
    {"brandubh", "2t4/5T1/1t5/7/5t1/1KT4/1tT2t1 d 0 1", "b2-b3"},
    {"brandubh-house", "7/5t1/6T/t4Kt/2T1Tt1/3t3/7 d 0 1", "f4-d4"},
    {"tablut", "9/2T4t1/5t3/1T1t1K3/5t3/9/4t1T2/9/9 a 0 1", "h8-h6"},
    {"tablut", "9/6T2/9/3t5/5Tt2/4TK3/5t3/2t1t4/9 a 0 1", "g5-g4"},
    {"tablut", "9/9/9/2T4T1/9/3tT4/1t2Kt3/3tt4/9 d 0 1", "e3-d3"},
    {"tablut", "9/1t7/3t5/9/2T6/1t7/1tK1T4/2t2T3/9 d 0 1", "c3-d3"},
    {"tablut-house", "9/4t4/9/2T6/2KT3t1/9/1tt2T3/6t2/9 a 0 1", "b3-b5"},
    {"tablut-house", "9/3tT4/9/1T1Kt4/3t1t3/2t1T4/9/9/9 d 0 1", "d6-c6"},
};

} // namespace

TEST_CASE("search: start positions give a legal move", "[search]") {
    for (const char* preset : {"brandubh", "tablut"}) {
        Engine e;
        REQUIRE(e.set_preset(preset));
        REQUIRE(e.set_position("", {}));
        SearchRun r = search_with(e, depth_limit(3));
        REQUIRE(!r.infos.empty());
        MoveList list;
        generate_moves(e.position(), list);
        CHECK(list.contains(r.best.best));
        CHECK(r.infos.back().depth == 3);
        CHECK(!r.infos.back().pv.empty());
    }
}

TEST_CASE("search: forced wins with the shortest distance", "[search][long]") {
    for (const WinCase& c : WIN_CASES) {
        INFO(c.preset << " " << c.tfen);
        Engine e;
        REQUIRE(e.set_preset(c.preset));
        REQUIRE(e.set_position(c.tfen, {}));
        Position pos = e.position();
        // The position is what it claims (independent solver).
        REQUIRE(side_wins(pos, 2 * c.moves - 1));
        if (c.moves > 1) REQUIRE(!side_wins(pos, 2 * c.moves - 3));

        SearchRun r = search_with(e, depth_limit(2 * c.moves + 1));
        REQUIRE(!r.infos.empty());
        CHECK(r.infos.back().mate == c.moves);
        CHECK(r.infos.back().score == VALUE_WIN - (2 * c.moves - 1));
        CHECK(move_wins(pos, r.best.best, 2 * c.moves - 2));

        // The loser's view: one move later, a loss in moves - 1.
        if (c.moves >= 2) {
            REQUIRE(e.set_position(c.tfen, {move_name(pos.edition(), r.best.best)}));
            SearchRun r2 = search_with(e, depth_limit(2 * c.moves));
            REQUIRE(!r2.infos.empty());
            CHECK(r2.infos.back().mate == -(c.moves - 1));
        }
    }
}

TEST_CASE("search: finds the only defence", "[search]") {
    for (const BlockCase& c : BLOCK_CASES) {
        INFO(c.preset << " " << c.tfen);
        Engine e;
        REQUIRE(e.set_preset(c.preset));
        REQUIRE(e.set_position(c.tfen, {}));
        SearchRun r = search_with(e, depth_limit(4));
        CHECK(move_name(e.position().edition(), r.best.best) == c.only_move);
        // Not lost within two moves (a longer loss may exist).
        CHECK((r.infos.back().mate >= 0 || r.infos.back().mate <= -3));
    }
}

// Copenhagen positions (found by a random generator) where the defenders
// win in 4 by a race of escape threats, each of which the attackers must
// block at once.
const WinCase ESCAPE_RACES[] = {
    {"copenhagen", "9t1/1T1tt6/4t2t1t1/11/9T1/3t2T1t2/2t3t4/3t6t/11/1T5Kt2/4t6 d 0 1", 4},
    {"copenhagen", "8t2/2t8/t3T6/11/3Kt6/3t2t4/1T6t1t/t10/2t6T1/5T5/8T2 d 0 1", 4},
};

TEST_CASE("search: on 11x11 a node that must block an escape is searched a ply deeper",
          "[search]") {
    struct Restore {
        ~Restore() { search_tuning().escape_extension = true; }
    } restore;
    for (const WinCase& c : ESCAPE_RACES) {
        INFO(c.preset << " " << c.tfen);
        Engine e;
        REQUIRE(e.set_preset(c.preset));
        // The depths below are those of these weights' move order.
        REQUIRE(e.set_option("EvalFile", testutil::CORNER_LARGE_ROUND4));
        REQUIRE(e.set_position(c.tfen, {}));
        // Without the extension the same win shows one ply later: depth 3
        // alone does not see it, depth 4 does.
        search_tuning().escape_extension = false;
        const SearchRun plain3 = search_with(e, depth_limit(3));
        const SearchRun plain4 = search_with(e, depth_limit(4));
        REQUIRE(!plain3.infos.empty());
        REQUIRE(!plain4.infos.empty());
        CHECK(plain3.infos.back().mate == 0);
        CHECK(plain4.infos.back().mate == c.moves);

        search_tuning().escape_extension = true;
        const SearchRun extended = search_with(e, depth_limit(3));
        REQUIRE(!extended.infos.empty());
        CHECK(extended.infos.back().mate == c.moves);
        CHECK(extended.best.best == plain4.best.best);
    }
}

TEST_CASE("search: the root's late quiet moves are reduced on 11x11 and larger only", "[search]") {
    struct Restore {
        ~Restore() { search_tuning().root_reductions = true; }
    } restore;
    // Nodes to complete depth 7 from the start, one thread, a fresh table.
    auto nodes_to_depth = [](const char* preset, bool reduce) {
        search_tuning().root_reductions = reduce;
        Engine e;
        REQUIRE(e.set_preset(preset));
        const SearchRun r = search_with(e, depth_limit(7));
        REQUIRE(!r.infos.empty());
        CHECK(r.infos.back().depth == 7);
        CHECK(is_legal(e.position(), r.best.best));
        return r.infos.back().nodes;
    };
    for (const char* preset : {"copenhagen", "fetlar"}) {
        INFO(preset);
        CHECK(nodes_to_depth(preset, true) < nodes_to_depth(preset, false));
    }
    for (const char* preset : {"brandubh", "tablut"}) {
        INFO(preset);
        CHECK(nodes_to_depth(preset, true) == nodes_to_depth(preset, false));
    }
}

TEST_CASE("search: the table's 16-bit moves on every board size", "[search]") {
    // Every move of every square, both ways, packs and unpacks to itself.
    for (int size : {7, 11, 13, 15, 16, 19}) {
        int checked = 0;
        for (Square from = 0; from < size * size; ++from)
            for (Square to = 0; to < size * size; ++to) {
                if (from == to || (from / size != to / size && from % size != to % size)) continue;
                const Move m(from, to);
                const uint16_t packed = pack_move(m, size);
                REQUIRE(packed != 0);
                REQUIRE(unpack_move(packed, size) == m);
                ++checked;
            }
        CHECK(checked == size * size * 2 * (size - 1));
    }
    CHECK(pack_move(MOVE_NONE, 19) == 0);
    CHECK(unpack_move(0, 19) == MOVE_NONE);
    // Up to 11x11 a packed move is the from-to pair in a byte each, as the
    // table held it before larger boards came.
    CHECK(pack_move(Move(3, 120), 11) == (3 | 120 << 8));
}

TEST_CASE("search: transposition table store, probe, bounds, win scores", "[search]") {
    TranspositionTable tt;
    tt.resize(1);
    const uint64_t key = 0x123456789abcdef0ull;
    bool found = true;
    TTEntry* e = tt.probe(key, found);
    CHECK_FALSE(found);
    tt.store(e, key, 42, Bound::LOWER, 7, pack_move(Move(3, 10), 7), -5);
    e = tt.probe(key, found);
    REQUIRE(found);
    CHECK(e->value() == 42);
    CHECK(e->bound() == Bound::LOWER);
    CHECK(e->depth() == 7);
    CHECK(e->move(7) == Move(3, 10));
    CHECK(e->eval() == -5);
    // Another key of the same bucket does not hit.
    tt.probe(key ^ 0xFFFFFFFFull, found);
    CHECK_FALSE(found);
    // A shallower non-exact store keeps the deeper value but takes a move.
    tt.store(e, key, 7, Bound::UPPER, 2, 0, -5);
    e = tt.probe(key, found);
    CHECK(e->depth() == 7);
    CHECK(e->move(7) == Move(3, 10));
    tt.store(e, key, 9, Bound::EXACT, 3, pack_move(Move(4, 11), 7), 0);
    e = tt.probe(key, found);
    CHECK(e->bound() == Bound::EXACT);
    CHECK(e->value() == 9);
    CHECK(e->move(7) == Move(4, 11));
    CHECK(tt.hashfull() >= 0);
    tt.clear();
    tt.probe(key, found);
    CHECK_FALSE(found);

    // Win scores: stored relative to the node, read back relative to the root.
    const Value win_at_ply_9 = VALUE_WIN - 9; // found 4 plies below a node at ply 5
    CHECK(value_to_tt(win_at_ply_9, 5) == VALUE_WIN - 4);
    CHECK(value_from_tt(VALUE_WIN - 4, 2) == VALUE_WIN - 6);
    CHECK(value_to_tt(-win_at_ply_9, 5) == -(VALUE_WIN - 4));
    CHECK(value_from_tt(-(VALUE_WIN - 4), 2) == -(VALUE_WIN - 6));
    CHECK(value_to_tt(123, 5) == 123);
    CHECK(value_from_tt(-123, 5) == -123);
}

TEST_CASE("search: obeys depth, nodes and movetime", "[search]") {
    Engine e;
    REQUIRE(e.set_preset("tablut"));
    SECTION("depth") {
        SearchRun r = search_with(e, depth_limit(4));
        CHECK(r.infos.back().depth == 4);
    }
    SECTION("nodes") {
        SearchLimits l;
        l.nodes = 20000;
        search_with(e, l);
        CHECK(e.last_search_nodes() >= 20000);
        CHECK(e.last_search_nodes() <= 20100);
    }
    SECTION("movetime") {
        SearchLimits l;
        l.movetime_ms = 300;
        SearchRun r = search_with(e, l);
        CHECK(r.ms >= 200);
        CHECK(r.ms <= 800);
        CHECK(r.best.best);
    }
    SECTION("clock") {
        SearchLimits l;
        l.time_ms[ATTACKERS] = 1000;
        l.time_ms[DEFENDERS] = 1000;
        SearchRun r = search_with(e, l);
        CHECK(r.ms <= 800);
        CHECK(r.best.best);
    }
    SECTION("budget: never past it") {
        REQUIRE(e.set_preset("ashton"));
        SearchLimits l;
        l.budget_ms = 600;
        SearchRun r = search_with(e, l);
        CHECK(r.ms <= 1000); // the hard limit, with room for a loaded machine
        CHECK(r.best.best);
        CHECK_FALSE(r.infos.empty());
    }
    SECTION("budget: a proven win takes little of it") {
        REQUIRE(e.set_position("9/1K7/9/9/9/9/9/9/8t d 0 1", {}));
        SearchLimits l;
        l.budget_ms = 20000;
        SearchRun r = search_with(e, l);
        CHECK(r.ms < 5000);
        CHECK(r.infos.back().mate == 1);
    }
    SECTION("searchmoves") {
        SearchLimits l = depth_limit(3);
        auto m = parse_legal_move(e.position(), "a4-a3");
        REQUIRE(m);
        l.searchmoves.push_back(*m);
        SearchRun r = search_with(e, l);
        CHECK(r.best.best == *m);
    }
}

TEST_CASE("search: stop is prompt and go/position while searching are refused", "[search]") {
    Engine e;
    REQUIRE(e.set_preset("tablut"));
    SearchLimits l;
    l.infinite = true;
    BestMove best;
    std::atomic<bool> got{false};
    e.on_bestmove([&](const BestMove& b) {
        best = b;
        got = true;
    });
    REQUIRE(e.go(l));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(e.searching());
    CHECK_FALSE(got);
    CHECK_FALSE(e.go(l));
    CHECK_FALSE(e.set_position("", {}));
    const auto t0 = std::chrono::steady_clock::now();
    e.stop();
    e.wait();
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    CHECK(got);
    CHECK(ms < 500); // generous: sanitizer builds run this too
    CHECK(best.best);
    CHECK_FALSE(e.searching());
}

TEST_CASE("search: replacing a callback waits for a search still inside on_bestmove", "[search]") {
    // searching() turns false before on_bestmove runs. A protocol loop that
    // tore down its callbacks in that window used to destroy them (and the
    // loop they point to) under the search thread: branan died after an
    // OTEP goodbye sent right after our move (a CI failure under load).
    Engine e;
    REQUIRE(e.set_preset("brandubh"));
    std::atomic<bool> entered{false}, finished{false};
    e.on_bestmove([&](const BestMove&) {
        entered = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        finished = true;
    });
    REQUIRE(e.go(depth_limit(1)));
    while (!entered) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    CHECK_FALSE(e.searching()); // the window this test is about
    e.on_bestmove(nullptr);
    CHECK(finished);
    e.on_info(nullptr);
}

TEST_CASE("search: ponder waits for ponderhit, then keeps the clock", "[search]") {
    Engine e;
    REQUIRE(e.set_preset("brandubh"));
    SearchLimits l;
    l.ponder = true;
    l.time_ms[ATTACKERS] = l.time_ms[DEFENDERS] = 2000;
    std::atomic<bool> got{false};
    e.on_bestmove([&](const BestMove&) { got = true; });
    REQUIRE(e.go(l));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK_FALSE(got); // pondering never stops on time
    const auto t0 = std::chrono::steady_clock::now();
    e.ponderhit();
    e.wait();
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    CHECK(got);
    CHECK(ms < 2500);
}

TEST_CASE("search: mate limit stops at a short enough win", "[search]") {
    Engine e;
    REQUIRE(e.set_preset("tablut"));
    REQUIRE(e.set_position("9/9/3t5/5t3/1T1K2T2/4t4/3T5/2t2t3/9 d 0 1", {}));
    SearchLimits l;
    l.mate = 3;
    SearchRun r = search_with(e, l);
    CHECK(r.infos.back().mate == 3);
}

TEST_CASE("search: repetition rules change the result", "[search]") {
    // A cycle of four moves played twice: the defenders' next d5-d6 would
    // make the position occur for the third time.
    const char* tfen = "7/7/3T3/t2K3/7/7/5t1 a 0 1";
    const std::vector<std::string> cycle = {"a4-a5", "d5-d6", "a5-a4", "d6-d5",
                                            "a4-a5", "d5-d6", "a5-a4"};
    // The search with d6-d5 as the only root move, in an edition.
    auto search_back = [&](Engine& e, const char* preset) {
        REQUIRE(e.set_preset(preset));
        return search_only(e, tfen, cycle, "d6-d5");
    };
    // brandubh: the third occurrence loses for the player who makes it.
    {
        Engine e;
        const auto [r, back] = search_back(e, "brandubh");
        CHECK(r.infos.back().mate == -1);
        SearchRun free = search_with(e, depth_limit(3));
        CHECK(free.best.best != back);
        CHECK(free.infos.back().mate >= 0);
    }
    // brandubh-house: a third occurrence draws.
    {
        Engine e;
        const auto [r, back] = search_back(e, "brandubh-house");
        CHECK(r.infos.back().mate == 0);
        CHECK(r.infos.back().score == 0);
    }
}

TEST_CASE("search: on 11x11 under tfr:w the attackers' repetition beside a corner is their loss",
          "[search]") {
    // Every corner shut by three attackers, the king walled in by his own
    // men, a defender and an attacker shuttling far from him; the
    // attackers' k7-k6 repeats the position for the second time. Beside a
    // corner (c3) that is scored as the attackers' loss; in the middle
    // (d7), or where a repetition draws, it is an ordinary position.
    const char* beside_corner = "2t5t2/1t7t1/t4T4t/11/11/10t/11/2T8/tTKT6t/1tT6t1/2t5t2 d 0 1";
    const char* middle = "2t5t2/1t7t1/t4T4t/3T7/2TKT6/3T6t/11/11/t9t/1t7t1/2t5t2 d 0 1";
    const std::vector<std::string> cycle = {"f9-g9", "k6-k7", "g9-f9"};
    auto mate_after = [&](Engine& e, const char* tfen, const std::vector<std::string>& moves,
                          const char* last) {
        const auto [r, m] = search_only(e, tfen, moves, last);
        REQUIRE(!r.infos.empty());
        CHECK(r.best.best == m);
        return r.infos.back().mate;
    };
    Engine e;
    REQUIRE(e.set_preset("opentafl-copenhagen"));
    CHECK(mate_after(e, beside_corner, cycle, "k7-k6") == -1);
    e.new_game();
    CHECK(mate_after(e, middle, cycle, "k7-k6") == 0);
    // Without the repetition the same position is no loss.
    e.new_game();
    REQUIRE(e.set_position(beside_corner, {}));
    CHECK(search_with(e, depth_limit(3)).infos.back().mate == 0);
    // When the defenders made the cycle's first repetition (g9-f9), they
    // make its first third one: the attackers' k6-k7 is no loss.
    e.new_game();
    const char* attackers_first = "2t5t2/1t7t1/t4T4t/11/11/10t/11/2T8/tTKT6t/1tT6t1/2t5t2 a 0 1";
    CHECK(mate_after(e, attackers_first, {"k6-k7", "f9-g9", "k7-k6", "g9-f9"}, "k6-k7") == 0);

    Rules draws = *preset_rules("opentafl-copenhagen");
    draws.repetition = RepetitionOutcome::DRAW;
    Engine d;
    REQUIRE(d.set_rules(print_rules(draws)));
    CHECK(mate_after(d, beside_corner, cycle, "k7-k6") == 0);
}

TEST_CASE("search: the no-capture limit draws before a slow escape", "[search]") {
    // Escape in 2 (tablut-house), then the same with 118 plies since the
    // last capture: the attackers' reply reaches 120 and draws first.
    const char* fresh = "9/9/2t6/9/9/1tK3t2/2t6/9/9 d 0 1";
    const char* late = "9/9/2t6/9/9/1tK3t2/2t6/9/9 d 118 1";
    Engine e;
    REQUIRE(e.set_preset("tablut-house"));
    REQUIRE(e.set_position(late, {}));
    {
        Position p = e.position();
        REQUIRE_FALSE(side_wins(p, 3));
    }
    REQUIRE(e.set_position(fresh, {}));
    {
        Position p = e.position();
        REQUIRE(side_wins(p, 3));
    }
    CHECK(search_with(e, depth_limit(4)).infos.back().mate == 2);
    e.new_game();
    REQUIRE(e.set_position(late, {}));
    CHECK(search_with(e, depth_limit(4)).infos.back().mate != 2);
    // An escape in 1 still wins: the king's escape decides first.
    e.new_game();
    REQUIRE(e.set_position("9/9/2t1K4/9/1t7/3t5/4t4/1T3TTt1/9 d 119 1", {}));
    CHECK(search_with(e, depth_limit(2)).infos.back().mate == 1);
}

TEST_CASE("search: no legal move loses or draws per the edition", "[search]") {
    // The king alone, walled in on the throne: the defenders cannot move.
    {
        Engine e;
        REQUIRE(e.set_preset("brandubh"));
        REQUIRE(e.set_position("7/7/3t3/2tKt2/3t3/7/7 d 0 1", {}));
        SearchRun r = search_with(e, depth_limit(3));
        CHECK_FALSE(r.best.best);
        REQUIRE(!r.infos.empty());
        CHECK(r.infos.back().score < -VALUE_WIN_MAX_PLY);
    }
    {
        Engine e;
        REQUIRE(e.set_preset("tablut"));
        REQUIRE(e.set_position("9/9/9/4t4/3tKt3/4t4/9/9/9 d 0 1", {}));
        SearchRun r = search_with(e, depth_limit(3));
        CHECK_FALSE(r.best.best);
        REQUIRE(!r.infos.empty());
        CHECK(r.infos.back().score == 0);
    }
}

TEST_CASE("search: one thread and a node limit are deterministic", "[search]") {
    auto once = [] {
        Engine e;
        REQUIRE(e.set_preset("brandubh"));
        SearchLimits l;
        l.nodes = 30000;
        SearchRun r = search_with(e, l);
        std::vector<std::string> lines;
        for (const SearchInfo& i : r.infos) {
            std::string s = std::to_string(i.depth) + " " + std::to_string(i.score) + " " +
                            std::to_string(i.nodes);
            for (Move m : i.pv) append_word(s, std::to_string(m.raw()));
            lines.push_back(s);
        }
        lines.push_back(std::to_string(r.best.best.raw()));
        return std::make_pair(lines, e.last_search_nodes());
    };
    auto a = once();
    auto b = once();
    CHECK(a == b);
}

TEST_CASE("search: bench signature is reproducible", "[search]") {
    Engine e;
    const auto a = e.bench(3);
    const auto b = e.bench(3);
    CHECK(a.nodes > 0);
    CHECK(a.nodes == b.nodes);
    CHECK(Engine::bench_positions().size() >= 32);
}

TEST_CASE("search: options", "[search]") {
    Engine e;
    auto opts = e.options();
    auto has = [&](const char* n) {
        for (auto& o : opts)
            if (o.name == n) return true;
        return false;
    };
    for (const char* n : {"Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "UCI_ShowWDL",
                          "Raw Scores", "UCI_LimitStrength", "UCI_Elo", "Skill Level", "Variant",
                          "Rules", "EvalFile", "Clear Hash"})
        CHECK(has(n));
    CHECK(e.set_option("Hash", "4"));
    CHECK_FALSE(e.set_option("Hash", "0"));
    CHECK_FALSE(e.set_option("Hash", "x"));
    CHECK(e.set_option("Clear Hash", ""));
    CHECK(e.set_option("Variant", "tablut"));
    CHECK(e.position().edition().rules.size == 9);
    CHECK_FALSE(e.set_option("Nonsense", "1"));
    // Every evaluation weight is a spin option, listed apart from the
    // player's options.
    const auto weights = e.weight_options();
    REQUIRE(weights.size() == param_table().size());
    for (size_t i = 0; i < weights.size(); ++i) {
        CHECK(weights[i].name == param_table()[i].name);
        CHECK(weights[i].type == OptionInfo::Type::SPIN);
        CHECK_FALSE(has(param_table()[i].name));
    }
    const ParamInfo& w = param_table()[0];
    CHECK(e.set_option(w.name, std::to_string(w.min)));
    CHECK(e.eval_params()[ParamId(0)] == w.min);
    CHECK_FALSE(e.set_option(w.name, std::to_string(int64_t(w.max) + 1)));
    CHECK_FALSE(e.set_option("EvalFile", "/nonexistent/weights.txt"));

    // MultiPV: one line per rank, best first.
    CHECK(e.set_option("MultiPV", "3"));
    SearchRun r = search_with(e, depth_limit(3));
    std::vector<SearchInfo> last;
    for (const SearchInfo& i : r.infos)
        if (i.depth == 3) last.push_back(i);
    REQUIRE(last.size() == 3);
    for (int k = 0; k < 3; ++k) {
        CHECK(last[k].multipv == k + 1);
        REQUIRE(!last[k].pv.empty());
        if (k > 0) {
            CHECK(last[k].score <= last[k - 1].score);
            CHECK(last[k].pv[0] != last[k - 1].pv[0]);
        }
    }
    CHECK(r.best.best == last[0].pv[0]);

    // Threads: a Lazy SMP search still returns a legal move.
    CHECK(e.set_option("Threads", "2"));
    CHECK(e.set_option("MultiPV", "1"));
    SearchRun t = search_with(e, depth_limit(5));
    MoveList list;
    generate_moves(e.position(), list);
    CHECK(list.contains(t.best.best));
}

TEST_CASE("search: a weight set as an option outlives a change of rules", "[search]") {
    // A match runner sends its options once, then the Variant at every game.
    Engine e;
    REQUIRE(e.set_option("Variant", "brandubh"));
    const auto id = find_param("king_room_shrunk");
    REQUIRE(id);
    REQUIRE(e.set_option("king_room_shrunk", "37"));
    REQUIRE(e.set_option("Variant", "copenhagen"));
    CHECK(e.eval_params()[*id] == 37);
    // The other weights are the new rules' own.
    EvalParams expected = default_params(e.position().edition().rules);
    expected[*id] = 37;
    CHECK(e.eval_params() == expected);
    REQUIRE(e.set_option("Variant", "tablut"));
    CHECK(e.eval_params()[*id] == 37);
    // A rejected value leaves the weight as it was, across rules too.
    CHECK_FALSE(e.set_option("king_room_shrunk", "100000"));
    REQUIRE(e.set_option("Variant", "copenhagen"));
    CHECK(e.eval_params() == expected);
    // An EvalFile (here: none) replaces every weight set before it.
    REQUIRE(e.set_option("EvalFile", ""));
    CHECK(e.eval_params() == default_params(e.position().edition().rules));
    REQUIRE(e.set_option("Variant", "brandubh"));
    CHECK(e.eval_params() == default_params(e.position().edition().rules));
}

TEST_CASE("search: set_position is all or nothing", "[search]") {
    Engine e;
    REQUIRE(e.set_preset("brandubh"));
    const std::string before = to_tfen(e.position());
    CHECK_FALSE(e.set_position("", {"d6-d5", "zz"}));
    CHECK(to_tfen(e.position()) == before);
    CHECK_FALSE(e.set_position("not a tfen", {}));
    CHECK(to_tfen(e.position()) == before);
}

namespace {

// A thread as the vote sees it: the first move and score of its last
// completed iteration.
struct VoterThread : SearchThread {
    VoterThread(Move m, Value score, int depth) {
        RootMove rm;
        rm.move = m;
        rm.score = score;
        rm.pv.assign(1, m);
        root_moves.push_back(rm);
        completed_depth = depth;
    }
    void run() override {}
};

const SearchThread& chosen_of(const std::vector<std::tuple<Move, Value, int>>& threads,
                              SearchContext& ctx, bool vote = true) {
    ctx.workers.clear();
    for (const auto& [m, v, d] : threads)
        ctx.workers.push_back(std::make_unique<VoterThread>(m, v, d));
    return best_thread(ctx, vote);
}

size_t index_of(const SearchContext& ctx, const SearchThread& t) {
    for (size_t i = 0; i < ctx.workers.size(); ++i)
        if (ctx.workers[i].get() == &t) return i;
    return ctx.workers.size();
}

} // namespace

TEST_CASE("search: Lazy SMP plays the move its threads vote for", "[search]") {
    const Move a(1, 2), b(3, 4), c(5, 6);
    SearchContext ctx;
    // Alone, the main thread is chosen.
    CHECK(index_of(ctx, chosen_of({{a, 10, 12}}, ctx)) == 0);
    // Two threads that agree on b at depth 12 outvote the deepest, on a at 13.
    CHECK(index_of(ctx, chosen_of({{a, 10, 13}, {b, 10, 12}, {b, 10, 12}}, ctx)) == 1);
    // Without the vote (several lines, a level), the deepest is chosen.
    CHECK(index_of(ctx, chosen_of({{a, 10, 13}, {b, 10, 12}, {b, 10, 12}}, ctx, false)) == 0);
    // The score weighs: one deep thread far above two that agree wins.
    CHECK(index_of(ctx, chosen_of({{a, 400, 13}, {b, 10, 12}, {b, 10, 12}}, ctx)) == 0);
    CHECK(index_of(ctx, chosen_of({{c, -50, 12}, {a, 10, 12}, {b, 30, 12}}, ctx)) == 2);
    // Equal votes keep the main thread.
    CHECK(index_of(ctx, chosen_of({{a, 10, 12}, {b, 10, 12}}, ctx)) == 0);
    // A proven win beats any number of votes, and the quickest win is played.
    CHECK(index_of(ctx, chosen_of({{a, 10, 14}, {a, 10, 14}, {b, mate_in(9), 9}}, ctx)) == 2);
    CHECK(index_of(ctx, chosen_of({{a, mate_in(9), 12}, {b, mate_in(5), 10}}, ctx)) == 1);
    // Facing a proven loss, the thread that holds out longest, or that sees
    // no loss, is played.
    CHECK(index_of(ctx, chosen_of({{a, mated_in(4), 12}, {b, mated_in(8), 10}}, ctx)) == 1);
    CHECK(index_of(ctx, chosen_of({{a, mated_in(4), 12}, {b, -300, 8}}, ctx)) == 1);
    // A thread without a completed iteration has no vote.
    CHECK(index_of(ctx, chosen_of({{a, 10, 12}, {b, 10, 0}, {b, 10, 0}}, ctx)) == 0);
    CHECK(index_of(ctx, chosen_of({{a, 10, 0}, {b, 10, 3}}, ctx)) == 1);
}
