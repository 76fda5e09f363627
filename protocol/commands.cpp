#include "commands.h"

#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "display.h"
#include "notation.h"
#include "perft.h"
#include "text.h"

namespace branan {

namespace {

// Keys in the order written: the lines read as the docs show them.
using Json = nlohmann::ordered_json;

const char* bound_name(Bound b) {
    return b == Bound::LOWER ? "lower" : b == Bound::UPPER ? "upper" : "exact";
}

int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

uint64_t per_second(uint64_t nodes, int64_t ms) {
    return ms > 0 ? uint64_t(double(nodes) * 1000.0 / double(ms)) : nodes * 1000;
}

std::string human_speed(uint64_t nps) {
    char buf[32];
    if (nps >= 10'000'000)
        std::snprintf(buf, sizeof buf, "%.1f Mn/s", nps / 1e6);
    else if (nps >= 10'000)
        std::snprintf(buf, sizeof buf, "%.0f kn/s", nps / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%llu n/s", (unsigned long long)nps);
    return buf;
}

} // namespace

std::vector<std::string> perft_lines(const Engine& engine, int depth, bool timing) {
    std::vector<std::string> lines;
    const int64_t start = now_ms();
    uint64_t total = 0;
    for (const auto& [move, count] : engine.perft_divide(depth)) {
        lines.push_back(move_name(engine.position().edition(), move) + ": " +
                        std::to_string(count));
        total += count;
    }
    const int64_t elapsed = now_ms() - start;
    lines.push_back("Nodes searched: " + std::to_string(total));
    if (timing) {
        lines.push_back("Time (ms): " + std::to_string(elapsed));
        lines.push_back("Nodes/second: " + std::to_string(per_second(total, elapsed)));
    }
    return lines;
}

std::vector<std::string> bench_lines(const Engine& engine, int depth, int hash_mb, int threads) {
    const Engine::BenchResult r = engine.bench(depth, hash_mb, threads);
    return {"Nodes searched: " + std::to_string(r.nodes), "Time (ms): " + std::to_string(r.time_ms),
            "Nodes/second: " + std::to_string(r.nps)};
}

std::string smp_bench_header() {
    return "board variant        threads depth positions  time to depth speedup     nodes/s";
}

std::string smp_bench_line(const SmpBenchRow& r, bool json) {
    if (json)
        return Json{{"variant", r.preset},      {"size", r.size},
                    {"threads", r.threads},     {"depth", r.depth},
                    {"positions", r.positions}, {"time_ms", r.time_ms},
                    {"speedup", r.speedup},     {"nps", r.nps},
                    {"nodes", r.nodes}}
            .dump();
    char buf[160];
    const std::string board = std::to_string(r.size) + "x" + std::to_string(r.size);
    std::snprintf(buf, sizeof buf, "%-5s %-14s %7d %5d %9d %11.1f ms %7.2f %9.2f M", board.c_str(),
                  r.preset.c_str(), r.threads, r.depth, r.positions, r.time_ms, r.speedup,
                  r.nps / 1e6);
    return buf;
}

int run_analyze(Engine& engine, const AnalyzeOptions& o, LineWriter& out, std::ostream& err) {
    int limits_given = (o.depth > 0) + (o.movetime_ms > 0) + (o.nodes > 0);
    if (limits_given > 1) {
        err << "branan analyze: error: give at most one of --depth, --movetime, --nodes\n";
        return EXIT_BAD_INPUT;
    }
    std::vector<std::string> moves;
    for (std::string_view m : split_words(o.moves)) moves.emplace_back(m);
    if (Status st = engine.set_position(o.fen, moves); !st) {
        err << "branan analyze: error: " << st.error() << "\n";
        return EXIT_BAD_INPUT;
    }
    if (o.multipv > 0) {
        if (Status st = engine.set_option("MultiPV", std::to_string(o.multipv)); !st) {
            err << "branan analyze: error: --multipv: " << st.error() << "\n";
            return EXIT_BAD_INPUT;
        }
    }
    SearchLimits limits;
    limits.depth = o.depth;
    limits.movetime_ms = o.movetime_ms;
    limits.nodes = o.nodes;
    if (!limits_given) limits.depth = ANALYZE_DEFAULT_DEPTH;

    const Position& pos = engine.position();
    const EditionPtr edition = pos.edition_ptr();
    const std::string tfen = to_tfen(pos);
    const GameResult result = pos.result();
    if (o.json) {
        Json line = {{"type", "position"},
                     {"fen", tfen},
                     {"side", pos.side_to_move() == ATTACKERS ? "attackers" : "defenders"},
                     {"rules", engine.rules_string()},
                     {"result", nullptr}};
        if (result.over())
            line["result"] = {{"winner", to_string(result.winner)},
                              {"reason", to_string(result.reason)}};
        out.line(line.dump());
    } else {
        for (const std::string& l : describe_position(pos, engine.rules_string())) out.line(l);
    }

    const bool draws = engine.win_curve().draws();
    auto print_info = [&](const SearchInfo& info) {
        std::string pv;
        for (Move m : info.pv) {
            if (!pv.empty()) pv += ' ';
            pv += move_name(*edition, m);
        }
        if (o.json) {
            Json score = info.mate ? Json{{"mate", info.mate}} : Json{{"cp", info.cp}};
            score["raw"] = info.score;
            score["bound"] = bound_name(info.bound);
            Json moves = Json::array();
            for (Move m : info.pv) moves.push_back(move_name(*edition, m));
            const Json line = {{"type", "info"},
                               {"depth", info.depth},
                               {"seldepth", info.seldepth},
                               {"multipv", info.multipv},
                               {"score", score},
                               {"wdl", {info.wdl.win, info.wdl.draw, info.wdl.loss}},
                               {"nodes", info.nodes},
                               {"nps", info.nps},
                               {"hashfull", info.hashfull},
                               {"time", info.time_ms},
                               {"pv", moves}};
            out.line(line.dump());
        } else {
            char multipv[16] = "";
            if (info.multipv > 1) std::snprintf(multipv, sizeof multipv, "#%d ", info.multipv);
            char head[160];
            std::snprintf(head, sizeof head, "depth %3d/%-3d %s%-7s %-*s nodes %12llu  %11s  pv ",
                          info.depth, info.seldepth, multipv,
                          score_text(info.cp, info.mate).c_str(), draws ? 22 : 10,
                          win_chance_text(info.wdl, draws).c_str(), (unsigned long long)info.nodes,
                          human_speed(info.nps).c_str());
            out.line(head + pv);
        }
    };
    auto outcome = engine.search_to_end(limits, print_info);
    if (!outcome) {
        err << "branan analyze: error: " << outcome.error() << "\n";
        return EXIT_FAILURE_AT_RUN_TIME;
    }
    const BestMove best = outcome->best;

    const std::string best_text = best.best.is_none() ? "(none)" : move_name(*edition, best.best);
    const std::string ponder_text = best.ponder.is_none() ? "" : move_name(*edition, best.ponder);
    if (o.json) {
        const Json line = {{"type", "bestmove"},
                           {"move", best.best.is_none() ? Json(nullptr) : Json(best_text)},
                           {"ponder", ponder_text.empty() ? Json(nullptr) : Json(ponder_text)}};
        out.line(line.dump());
    } else {
        out.line("Best move: " + best_text +
                 (ponder_text.empty() ? "" : " (ponder " + ponder_text + ")"));
    }
    return EXIT_OK;
}

} // namespace branan
