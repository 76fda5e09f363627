#include "smp_bench.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <thread>

#include "engine.h"

namespace branan {

namespace {

double median(std::vector<double> v) {
    assert(!v.empty());
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

int smp_bench_depth(int size) {
    if (size <= 7) return 18;
    if (size <= 9) return 13;
    return 12;
}

std::vector<int> smp_bench_thread_counts(int cores) {
    std::vector<int> counts;
    for (int t = 1; t < cores; t *= 2) counts.push_back(t);
    counts.push_back(std::max(cores, 1));
    return counts;
}

std::vector<std::string> smp_bench_presets() {
    std::vector<std::string> names;
    for (const Engine::BenchPosition& bp : Engine::bench_positions())
        if (!bp.endgame && std::find(names.begin(), names.end(), bp.preset) == names.end())
            names.emplace_back(bp.preset);
    return names;
}

std::vector<SmpBenchRow> smp_bench(const SmpBenchConfig& config,
                                   const std::function<void(const SmpBenchRow&)>& row) {
    std::vector<int> threads = config.threads;
    if (threads.empty())
        threads = smp_bench_thread_counts(int(std::thread::hardware_concurrency()));
    if (std::find(threads.begin(), threads.end(), 1) == threads.end()) threads.push_back(1);
    std::sort(threads.begin(), threads.end());
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    std::vector<std::string> presets = config.presets;
    if (presets.empty()) presets = {"brandubh", "tablut", "copenhagen"};

    Engine e;
    e.set_option("Hash", std::to_string(config.hash_mb));
    std::vector<SmpBenchRow> rows;
    for (const std::string& preset : presets) {
        std::vector<const Engine::BenchPosition*> set;
        for (const Engine::BenchPosition& bp : Engine::bench_positions())
            if (bp.preset == preset && !bp.endgame) set.push_back(&bp);
        if (set.empty()) continue;
        e.set_preset(preset);
        std::vector<double> one_thread_ms; // per position: what the speedups divide
        for (int t : threads) {
            e.set_option("Threads", std::to_string(t));
            SmpBenchRow r;
            r.preset = preset;
            r.threads = t;
            r.positions = int(set.size());
            std::vector<double> times, ratios, speeds;
            for (const Engine::BenchPosition* bp : set) {
                e.new_game();
                const Status placed = e.set_position(bp->tfen, {});
                assert(placed);
                (void)placed;
                r.size = e.position().edition().size;
                r.depth = config.depth > 0 ? config.depth : smp_bench_depth(r.size);
                SearchLimits lim;
                lim.depth = r.depth;
                const auto t0 = std::chrono::steady_clock::now();
                e.go(lim);
                e.wait();
                const std::chrono::duration<double, std::milli> took =
                    std::chrono::steady_clock::now() - t0;
                const double ms = std::max(took.count(), 0.001);
                const uint64_t nodes = e.last_search_nodes();
                if (t == 1) one_thread_ms.push_back(ms);
                times.push_back(ms);
                ratios.push_back(one_thread_ms[times.size() - 1] / ms);
                speeds.push_back(double(nodes) * 1000.0 / ms);
                r.nodes += nodes;
            }
            r.time_ms = median(times);
            r.speedup = median(ratios);
            r.nps = median(speeds);
            rows.push_back(r);
            if (row) row(r);
        }
    }
    return rows;
}

} // namespace branan
