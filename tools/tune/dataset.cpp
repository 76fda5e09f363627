#include "dataset.h"

#include <cmath>
#include <thread>

#include "notation.h"

namespace branan::tune {

size_t TraceSet::bytes() const {
    return begin.capacity() * sizeof(uint32_t) + entries.capacity() * sizeof(TraceEntry) +
           (result.capacity() + score.capacity() + target.capacity()) * sizeof(float);
}

bool TraceSet::add(const EvalTrace& t, double res, std::optional<int> sc) {
    for (int id = 0; id < PARAM_COUNT; ++id) {
        const int c = t.coef[id][ATTACKERS] - t.coef[id][DEFENDERS];
        if (c == 0) continue;
        if (c < INT16_MIN || c > INT16_MAX) return false;
        entries.push_back({int16_t(c), uint8_t(id)});
    }
    begin.push_back(uint32_t(entries.size()));
    result.push_back(float(res));
    score.push_back(sc ? float(*sc) : NAN);
    target.push_back(float(res));
    return true;
}

void TraceSet::append(const TraceSet& o) {
    const uint32_t base = uint32_t(entries.size());
    entries.insert(entries.end(), o.entries.begin(), o.entries.end());
    for (size_t i = 1; i < o.begin.size(); ++i) begin.push_back(base + o.begin[i]);
    result.insert(result.end(), o.result.begin(), o.result.end());
    score.insert(score.end(), o.score.begin(), o.score.end());
    target.insert(target.end(), o.target.begin(), o.target.end());
}

std::array<int64_t, PARAM_COUNT> TraceSet::usage() const {
    std::array<int64_t, PARAM_COUNT> n{};
    for (const TraceEntry& e : entries) ++n[e.id];
    return n;
}

Result<TraceSet> build_traces(const std::vector<PositionLine>& lines, RulesCache& rules,
                              int threads) {
    // The cache is filled here, on one thread; the workers only read.
    std::vector<EditionPtr> editions(lines.size());
    for (size_t i = 0; i < lines.size(); ++i) {
        auto edition = rules.get(lines[i].rules);
        if (!edition) return Error{"position " + std::to_string(i + 1) + ": " + edition.error()};
        editions[i] = *edition;
    }
    threads = std::max(1, std::min<int>(threads, int(lines.size() / 256) + 1));
    std::vector<TraceSet> parts(threads);
    std::vector<std::string> errors(threads);
    std::vector<std::thread> pool;
    const size_t n = lines.size();
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            const size_t from = n * t / threads, to = n * (t + 1) / threads;
            TraceSet& part = parts[t];
            part.entries.reserve((to - from) * 20);
            for (size_t i = from; i < to; ++i) {
                auto pos = parse_tfen(editions[i], lines[i].tfen);
                if (!pos) {
                    errors[t] = "position " + std::to_string(i + 1) + " '" + lines[i].tfen +
                                "': " + pos.error();
                    return;
                }
                if (!part.add(trace(*pos), lines[i].result, lines[i].score)) {
                    errors[t] = "position " + std::to_string(i + 1) +
                                ": a coefficient does not fit in 16 bits";
                    return;
                }
            }
        });
    }
    for (auto& th : pool) th.join();
    for (const std::string& e : errors)
        if (!e.empty()) return Error{e};
    TraceSet out = std::move(parts[0]);
    for (int t = 1; t < threads; ++t) out.append(parts[t]);
    out.entries.shrink_to_fit();
    return out;
}

void set_targets(TraceSet& set, double k, double lambda) {
    for (size_t i = 0; i < set.size(); ++i) {
        const double r = set.result[i];
        const double s = set.score[i];
        set.target[i] =
            std::isnan(s) ? float(r) : float((1 - lambda) * r + lambda / (1 + std::exp(-k * s)));
    }
}

Weights to_weights(const EvalParams& p) {
    Weights w;
    for (int i = 0; i < PARAM_COUNT; ++i) w[i] = p.w[i];
    return w;
}

} // namespace branan::tune
