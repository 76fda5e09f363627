#include "commands.h"

#include <chrono>
#include <cstdio>

#include "display.h"
#include "notation.h"
#include "perft.h"
#include "text.h"

namespace branan {

namespace {

int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

uint64_t per_second(uint64_t nodes, int64_t ms) {
    return ms > 0 ? uint64_t(double(nodes) * 1000.0 / double(ms)) : nodes * 1000;
}

// "+0.35", "-1.20", "#3", "#-2"
std::string human_score(const SearchInfo& info) {
    char buf[32];
    if (info.mate)
        std::snprintf(buf, sizeof buf, "#%d", info.mate);
    else
        std::snprintf(buf, sizeof buf, "%+.2f", info.score / 100.0);
    return buf;
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

std::string json_string(std::string_view text) {
    std::string s = "\"";
    for (char ch : text) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            s += '\\';
            s += char(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            s += buf;
        } else {
            s += char(c);
        }
    }
    return s + "\"";
}

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

int run_analyze(Engine& engine, const AnalyzeOptions& o, LineWriter& out, std::ostream& err) {
    int limits_given = (o.depth > 0) + (o.movetime_ms > 0) + (o.nodes > 0);
    if (limits_given > 1) {
        err << "branan analyze: error: give at most one of --depth, --movetime, --nodes\n";
        return 2;
    }
    std::vector<std::string> moves;
    for (std::string_view m : split_words(o.moves)) moves.emplace_back(m);
    if (Status st = engine.set_position(o.fen, moves); !st) {
        err << "branan analyze: error: " << st.error() << "\n";
        return 1;
    }
    if (o.multipv > 0) {
        if (Status st = engine.set_option("MultiPV", std::to_string(o.multipv)); !st) {
            err << "branan analyze: error: --multipv: " << st.error() << "\n";
            return 2;
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
        std::string line = "{\"type\":\"position\",\"fen\":" + json_string(tfen) + ",\"side\":\"" +
                           (pos.side_to_move() == ATTACKERS ? "attackers" : "defenders") +
                           "\",\"rules\":" + json_string(engine.rules_string()) + ",\"result\":";
        line += result.over() ? "{\"winner\":\"" + std::string(to_string(result.winner)) +
                                    "\",\"reason\":\"" + to_string(result.reason) + "\"}"
                              : std::string("null");
        out.line(line + "}");
    } else {
        for (const std::string& l : describe_position(pos, engine.rules_string())) out.line(l);
    }

    auto print_info = [&](const SearchInfo& info) {
        std::string pv;
        for (Move m : info.pv) {
            if (!pv.empty()) pv += ' ';
            pv += move_name(*edition, m);
        }
        if (o.json) {
            std::string line = "{\"type\":\"info\",\"depth\":" + std::to_string(info.depth) +
                               ",\"seldepth\":" + std::to_string(info.seldepth) +
                               ",\"multipv\":" + std::to_string(info.multipv) + ",\"score\":{";
            line += info.mate ? "\"mate\":" + std::to_string(info.mate)
                              : "\"cp\":" + std::to_string(info.score);
            line += std::string(",\"bound\":\"") +
                    (info.bound == Bound::LOWER   ? "lower"
                     : info.bound == Bound::UPPER ? "upper"
                                                  : "exact") +
                    "\"}";
            line += ",\"nodes\":" + std::to_string(info.nodes) +
                    ",\"nps\":" + std::to_string(info.nps) +
                    ",\"hashfull\":" + std::to_string(info.hashfull) +
                    ",\"time\":" + std::to_string(info.time_ms) + ",\"pv\":[";
            for (size_t i = 0; i < info.pv.size(); ++i) {
                if (i) line += ',';
                line += json_string(move_name(*edition, info.pv[i]));
            }
            out.line(line + "]}");
        } else {
            char multipv[16] = "";
            if (info.multipv > 1) std::snprintf(multipv, sizeof multipv, "#%d ", info.multipv);
            char head[128];
            std::snprintf(head, sizeof head, "depth %3d/%-3d %s%-7s nodes %12llu  %11s  pv ",
                          info.depth, info.seldepth, multipv, human_score(info).c_str(),
                          (unsigned long long)info.nodes, human_speed(info.nps).c_str());
            out.line(head + pv);
        }
    };
    auto outcome = engine.search_to_end(limits, print_info);
    if (!outcome) {
        err << "branan analyze: error: " << outcome.error() << "\n";
        return 1;
    }
    const BestMove best = outcome->best;

    const std::string best_text = best.best.is_none() ? "(none)" : move_name(*edition, best.best);
    const std::string ponder_text = best.ponder.is_none() ? "" : move_name(*edition, best.ponder);
    if (o.json) {
        out.line("{\"type\":\"bestmove\",\"move\":" +
                 (best.best.is_none() ? std::string("null") : json_string(best_text)) +
                 ",\"ponder\":" +
                 (ponder_text.empty() ? std::string("null") : json_string(ponder_text)) + "}");
    } else {
        out.line("Best move: " + best_text +
                 (ponder_text.empty() ? "" : " (ponder " + ponder_text + ")"));
    }
    return 0;
}

} // namespace branan
