#pragma once

// How the search turns threads into speed: the bench positions of one
// edition per board size, each searched to a fixed depth from an empty table
// with 1, 2, 4, ... threads. Time to depth is what Lazy SMP buys; nodes per
// second alone would hide helpers that repeat the main thread's work.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace branan {

struct SmpBenchConfig {
    std::vector<int> threads;         // empty: 1, 2, 4, ... up to the machine's cores
    std::vector<std::string> presets; // empty: brandubh, tablut, copenhagen
    int depth = 0;                    // 0: each board size's own (smp_bench_depth)
    int hash_mb = 64;
};

// One board size at one thread count, medians over its positions.
struct SmpBenchRow {
    std::string preset;
    int size = 0; // the board's side
    int threads = 0;
    int depth = 0;
    int positions = 0;
    double time_ms = 0; // median time to reach the depth
    double speedup = 0; // median over positions of (1 thread's time / this time)
    double nps = 0;     // median nodes per second
    uint64_t nodes = 0; // all positions together
};

// The depth a board size is searched to when the config gives none: 1 to 3
// million nodes a position from one thread (under a second a position on
// one core of the 2-core development machine).
int smp_bench_depth(int size);

// The thread counts used when the config gives none.
std::vector<int> smp_bench_thread_counts(int cores);

// The presets that have bench positions to measure, in the bench's order.
std::vector<std::string> smp_bench_presets();

// Runs the measurement on a fresh engine; `row` sees each row as it is
// finished (the 1-thread rows first, which the speedups divide by: a list
// without 1 gets it added).
std::vector<SmpBenchRow> smp_bench(const SmpBenchConfig& config,
                                   const std::function<void(const SmpBenchRow&)>& row = nullptr);

} // namespace branan
