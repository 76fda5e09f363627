#include <chrono>

#include "engine.h"

namespace branan {

const std::vector<Engine::BenchPosition>& Engine::bench_positions() {
    // Per edition: the start, openings and middlegames (from playouts),
    // then endgames with forced wins or a single saving move.
    static const std::vector<BenchPosition> table = {
        {"brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1"},
        {"brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/1t5/5t1 a 4 3"},
        {"brandubh", "3t3/3t1t1/2T4/t3K1t/3T3/5t1/1t1t3 a 3 5"},
        {"brandubh", "4T2/1t5/7/1tK2t1/3t3/1t4t/1T5 a 1 9"},
        {"brandubh", "3t3/T2t3/4T2/1T4t/7/7/1t1tK2 a 0 13"},
        {"brandubh", "7/1T4t/7/4t2/1t1T1Kt/3T3/1t5 d 0 1"},
        {"brandubh", "7/2t2K1/2Ttt2/6t/4tT1/7/3T3 a 0 1"},
        {"brandubh", "2t4/5T1/1t5/7/5t1/1KT4/1tT2t1 d 0 1"},
        {"brandubh-house", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1"},
        {"brandubh-house", "3t3/3t3/3T3/ttTKTtt/3T3/1t5/5t1 a 4 3"},
        {"brandubh-house", "3t3/3t1t1/2T4/t3K1t/3T3/5t1/1t1t3 a 3 5"},
        {"brandubh-house", "4T2/1t5/7/1tK2t1/3t3/1t4t/1T5 a 1 9"},
        {"brandubh-house", "3t3/T2t3/4T2/1T4t/7/7/1t1tK2 a 0 13"},
        {"brandubh-house", "7/1T4t/7/4t2/1t1T1Kt/3T3/1t5 d 0 1"},
        {"brandubh-house", "7/2t2K1/2Ttt2/6t/4tT1/7/3T3 a 0 1"},
        {"brandubh-house", "2t4/5T1/1t5/7/5t1/1KT4/1tT2t1 d 0 1"},
        {"tablut", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1"},
        {"tablut", "3ttt3/4t4/t3T4/4T3t/ttTTKTTtt/t3T3t/4T4/4t4/4tt3 a 2 3"},
        {"tablut", "3ttt3/4t4/1T7/t3T3t/t2TKTTtt/t3T3t/9/9/tt1tt3t a 3 5"},
        {"tablut", "t3tt3/9/2T1T4/t1T5t/ttT1K2tt/t2t5/6T2/4t4/4tt2t a 6 9"},
        {"tablut", "4tt3/8t/9/t4T1t1/tt1K1T2t/t4T1tt/2t6/4t4/t8 a 2 13"},
        {"tablut", "9/9/3t5/5t3/1T1K2T2/4t4/3T5/2t2t3/9 d 0 1"},
        {"tablut", "9/2tt5/9/1tKT1T1t1/3T5/9/9/2t6/9 a 0 1"},
        {"tablut", "9/6T2/9/3t5/5Tt2/4TK3/5t3/2t1t4/9 a 0 1"},
        {"tablut-house", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1"},
        {"tablut-house", "3ttt3/4t4/t3T4/4T3t/ttTTKTTtt/t3T3t/4T4/4t4/4tt3 a 2 3"},
        {"tablut-house", "3ttt3/4t4/1T7/t3T3t/t2TKTTtt/t3T3t/9/9/tt1tt3t a 3 5"},
        {"tablut-house", "t3tt3/9/2T1T4/t1T5t/ttT1K2tt/t2t5/6T2/4t4/4tt2t a 6 9"},
        {"tablut-house", "4tt3/8t/9/t4T1t1/tt1K1T2t/t4T1tt/2t6/4t4/t8 a 2 13"},
        {"tablut-house", "9/9/3t5/5t3/1T1K2T2/4t4/3T5/2t2t3/9 d 0 1"},
        {"tablut-house", "9/2tt5/9/1tKT1T1t1/3T5/9/9/2t6/9 a 0 1"},
        {"tablut-house", "9/6T2/9/3t5/5Tt2/4TK3/5t3/2t1t4/9 a 0 1"},
    };
    return table;
}

int Engine::default_bench_depth() {
    return 11;
}

Engine::BenchResult Engine::bench(int depth, int hash_mb, int threads) const {
    if (depth <= 0) depth = default_bench_depth();
    Engine e;
    e.set_option("Hash", std::to_string(hash_mb));
    e.set_option("Threads", std::to_string(threads));
    BenchResult r;
    const auto t0 = std::chrono::steady_clock::now();
    for (const BenchPosition& bp : bench_positions()) {
        e.set_preset(bp.preset);
        e.new_game();
        e.set_position(bp.tfen, {});
        SearchLimits lim;
        lim.depth = depth;
        e.go(lim);
        e.wait();
        r.nodes += e.last_search_nodes();
    }
    r.time_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    r.nps = r.time_ms > 0 ? r.nodes * 1000 / uint64_t(r.time_ms) : r.nodes * 1000;
    return r;
}

} // namespace branan
