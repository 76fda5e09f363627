#pragma once

// The one-shot commands of the command line (analyze, perft, bench,
// smp-bench) and the text they share with the protocol loop's own commands.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "engine.h"
#include "output.h"
#include "smp_bench.h"

namespace branan {

// Divide: "<move>: <count>" per root move, then "Nodes searched: <total>";
// with `timing`, also the time and the nodes per second.
std::vector<std::string> perft_lines(const Engine& engine, int depth, bool timing);

// The bench of the search: "Nodes searched: N", "Nodes/second: N" and the
// time. depth 0 = the bench's default depth; a fresh engine of `hash_mb`
// and `threads` searches (`engine` is not touched).
std::vector<std::string> bench_lines(const Engine& engine, int depth, int hash_mb = 16,
                                     int threads = 1);

// smp-bench's table (search/smp_bench.h): a header, then a line a row; or
// one JSON object a row.
std::string smp_bench_header();
std::string smp_bench_line(const SmpBenchRow& row, bool json);

struct AnalyzeOptions {
    std::string fen;   // empty: the start position
    std::string moves; // space-separated move texts
    int depth = 0;
    int64_t movetime_ms = 0;
    uint64_t nodes = 0;
    int multipv = 0; // 0 = the engine's MultiPV
    bool json = false;
};
// The default when no limit is given.
constexpr int ANALYZE_DEFAULT_DEPTH = 8;

// Prints the board, one line per completed depth, then the best move (or
// one JSON object per line). Errors go to `err`; returns the exit status.
int run_analyze(Engine& engine, const AnalyzeOptions& options, LineWriter& out, std::ostream& err);

} // namespace branan
