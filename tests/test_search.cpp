// Search tests: forced wins with the exact distance, the transposition
// table, limits, stop, game-end rules inside the search, determinism.

#include <catch2/catch.hpp>

#include <chrono>
#include <mutex>

#include "engine.h"
#include "notation.h"

using namespace branan;

namespace {

struct Run {
    std::vector<SearchInfo> infos;
    BestMove best;
};

Run run(Engine& e, const SearchLimits& lim) {
    Run r;
    std::mutex m;
    e.on_info([&](const SearchInfo& i) {
        std::lock_guard lock(m);
        r.infos.push_back(i);
    });
    e.on_bestmove([&](const BestMove& b) {
        std::lock_guard lock(m);
        r.best = b;
    });
    REQUIRE(e.go(lim));
    e.wait();
    return r;
}

SearchLimits depth_limit(int d) {
    SearchLimits l;
    l.depth = d;
    return l;
}

} // namespace

TEST_CASE("search: start positions give a legal move", "[search]") {
    for (const char* v : {"brandubh", "tablut"}) {
        Engine e;
        REQUIRE(e.set_variant(v));
        REQUIRE(e.set_position("", {}));
        Run r = run(e, depth_limit(3));
        REQUIRE(!r.infos.empty());
        MoveList list;
        generate_moves(e.position(), list);
        CHECK(list.contains(r.best.best));
    }
}
