#include <chrono>

#include "engine.h"

namespace branan {

const std::vector<Engine::BenchPosition>& Engine::bench_positions() {
    static const std::vector<BenchPosition> table = {
        {"brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1"},
        {"tablut", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1"},
    };
    return table;
}

int Engine::default_bench_depth() {
    return 6;
}

Engine::BenchResult Engine::bench(int depth, int hash_mb, int threads) const {
    if (depth <= 0) depth = default_bench_depth();
    Engine e;
    e.set_option("Hash", std::to_string(hash_mb));
    e.set_option("Threads", std::to_string(threads));
    BenchResult r;
    const auto t0 = std::chrono::steady_clock::now();
    for (const BenchPosition& bp : bench_positions()) {
        e.set_variant(bp.preset);
        e.new_game();
        e.set_position(bp.tfen, {});
        SearchLimits lim;
        lim.depth = depth;
        e.go(lim);
        e.wait();
        r.nodes += e.last_search_nodes();
    }
    r.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
    r.nps = r.time_ms > 0 ? r.nodes * 1000 / uint64_t(r.time_ms) : r.nodes * 1000;
    return r;
}

} // namespace branan
