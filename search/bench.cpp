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
        {"brandubh", "7/1T4t/7/4t2/1t1T1Kt/3T3/1t5 d 0 1", true},
        {"brandubh", "7/2t2K1/2Ttt2/6t/4tT1/7/3T3 a 0 1", true},
        {"brandubh", "2t4/5T1/1t5/7/5t1/1KT4/1tT2t1 d 0 1", true},
        {"brandubh-house", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1"},
        {"brandubh-house", "3t3/3t3/3T3/ttTKTtt/3T3/1t5/5t1 a 4 3"},
        {"brandubh-house", "3t3/3t1t1/2T4/t3K1t/3T3/5t1/1t1t3 a 3 5"},
        {"brandubh-house", "4T2/1t5/7/1tK2t1/3t3/1t4t/1T5 a 1 9"},
        {"brandubh-house", "3t3/T2t3/4T2/1T4t/7/7/1t1tK2 a 0 13"},
        {"brandubh-house", "7/1T4t/7/4t2/1t1T1Kt/3T3/1t5 d 0 1", true},
        {"brandubh-house", "7/2t2K1/2Ttt2/6t/4tT1/7/3T3 a 0 1", true},
        {"brandubh-house", "2t4/5T1/1t5/7/5t1/1KT4/1tT2t1 d 0 1", true},
        {"tablut", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1"},
        {"tablut", "3ttt3/4t4/t3T4/4T3t/ttTTKTTtt/t3T3t/4T4/4t4/4tt3 a 2 3"},
        {"tablut", "3ttt3/4t4/1T7/t3T3t/t2TKTTtt/t3T3t/9/9/tt1tt3t a 3 5"},
        {"tablut", "t3tt3/9/2T1T4/t1T5t/ttT1K2tt/t2t5/6T2/4t4/4tt2t a 6 9"},
        {"tablut", "4tt3/8t/9/t4T1t1/tt1K1T2t/t4T1tt/2t6/4t4/t8 a 2 13"},
        {"tablut", "9/9/3t5/5t3/1T1K2T2/4t4/3T5/2t2t3/9 d 0 1", true},
        {"tablut", "9/2tt5/9/1tKT1T1t1/3T5/9/9/2t6/9 a 0 1", true},
        {"tablut", "9/6T2/9/3t5/5Tt2/4TK3/5t3/2t1t4/9 a 0 1", true},
        {"tablut-house", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1"},
        {"tablut-house", "3ttt3/4t4/t3T4/4T3t/ttTTKTTtt/t3T3t/4T4/4t4/4tt3 a 2 3"},
        {"tablut-house", "3ttt3/4t4/1T7/t3T3t/t2TKTTtt/t3T3t/9/9/tt1tt3t a 3 5"},
        {"tablut-house", "t3tt3/9/2T1T4/t1T5t/ttT1K2tt/t2t5/6T2/4t4/4tt2t a 6 9"},
        {"tablut-house", "4tt3/8t/9/t4T1t1/tt1K1T2t/t4T1tt/2t6/4t4/t8 a 2 13"},
        {"tablut-house", "9/9/3t5/5t3/1T1K2T2/4t4/3T5/2t2t3/9 d 0 1", true},
        {"tablut-house", "9/2tt5/9/1tKT1T1t1/3T5/9/9/2t6/9 a 0 1", true},
        {"tablut-house", "9/6T2/9/3t5/5Tt2/4TK3/5t3/2t1t4/9 a 0 1", true},
        {"copenhagen",
         "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1"},
        {"copenhagen",
         "3t1t5/5t5/4t6/3tTTt3t/2t1TT1t2t/tt2TKT2tt/t2T1TT1t2/2T4t3/t1T3t4/1t3t1t3/3Tt3t2 a 30 16"},
        {"copenhagen", "2t5t2/1t7t1/t1t7t/3tTTt4/2t1TTt4/1t3KTt3/t2T1TT1t2/4T2t3/t1T1T1t3t/1t3t3t1/"
                       "3Tt3t2 a 56 29"},
        {"copenhagen",
         "2tTKtt4/1t2t2t3/t1T1t1t4/4T2t3/t3T1TTt2/1t4TT1t1/t7T1t/1T9/t2T6t/1t5t1t1/2t5t2 d 44 32"},
        {"fetlar", "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1"},
        {"fetlar",
         "4tt5/5t5/3t2tt3/2T2t5/t3TTt4/t1tT1K1t2t/1t2TT2t2/7T1t1/t3T6/1t2t1t4/3t1t1t3 a 11 19"},
        {"fetlar",
         "2t3tt3/1t1t1t5/2TT3t2T/3T5t1/8t1t/t4KT2t1/tt2T5t/1t5T2t/T1t8/3t1t5/4t1tt3 a 11 32"},
        {"fetlar",
         "2t1T1tt3/1t1t6t/t1TT3t3/3T5tt/6T1t2/9t1/1t8t/tt6T1t/T1t2K1t3/3t1t5/4t1t4 a 7 37"},
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
