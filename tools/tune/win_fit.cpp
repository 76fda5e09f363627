#include "win_fit.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "game_stage.h"
#include "notation.h"

namespace branan::tune {

namespace {

// The fit works in soldiers (scores / 100) so that every parameter moves
// on the same scale; the model is written back in centi-soldiers.
constexpr double UNIT = 100;
// offset 0..3, margin 4..6, spread 7..9, skew 10..11, tempo 12, depth 13..18,
// stall 19..22
constexpr int PARAMS = 23;

double sigmoid(double x) {
    return 1 / (1 + std::exp(-x));
}

// The fit reads the stalls' log-odds as c + k (p - STALL_CENTRE): with p
// from 0, c and k move together and the steps crawl.
constexpr double STALL_CENTRE = 0.5;

WinModel to_model(const std::array<double, PARAMS>& p, bool draws, bool stalls) {
    WinModel m;
    m.offset = {p[0] * UNIT, p[1] * UNIT, p[2] * UNIT, p[3] * UNIT};
    m.draws = draws;
    m.margin = draws ? std::array<double, 3>{p[4] + std::log(UNIT), p[5], p[6]}
                     : std::array<double, 3>{0, 0, 0};
    m.spread = {p[7] + std::log(UNIT), p[8], p[9]};
    if (draws) m.skew = {p[10], p[11]};
    m.tempo = p[12] * UNIT;
    m.depth = {p[13] * UNIT, draws ? p[14] : 0, p[15], p[16] * UNIT, draws ? p[17] : 0, p[18]};
    m.stalls = stalls;
    if (stalls)
        m.stall = {p[19] - STALL_CENTRE * p[20], p[20], p[21] - STALL_CENTRE * p[22], p[22]};
    return m;
}

struct Prepared {
    double s, a, d, t, p, y;
    double defenders_move; // 1 where the defenders are to move
    double h;              // depth_term of its depth
};

// The first and last percentile of the samples' known depths ({0, 0}
// where none is known).
std::array<int, 2> depth_range(const std::vector<WinSample>& samples) {
    std::vector<int> depths;
    for (const WinSample& s : samples)
        if (s.depth > 0) depths.push_back(s.depth);
    if (depths.empty()) return {0, 0};
    std::sort(depths.begin(), depths.end());
    const size_t last = depths.size() - 1;
    return {depths[last / 100], depths[last - last / 100]};
}

} // namespace

Result<std::vector<WinSample>> win_samples(const std::vector<PositionLine>& lines,
                                           RulesCache& rules) {
    std::vector<WinSample> out;
    out.reserve(lines.size());
    for (const PositionLine& line : lines) {
        // Scores of wins found by the search (branan-match writes them as
        // +-(100000 - N)) say nothing about the evaluation's scale.
        if (!line.score || std::abs(*line.score) >= VALUE_EVAL_MAX) continue;
        auto edition = rules.get(line.rules);
        if (!edition) return Error{edition.error()};
        auto pos = parse_tfen(*edition, line.tfen);
        if (!pos) return Error{"position '" + line.tfen + "': " + pos.error()};
        out.push_back({double(*line.score), stage_of(*pos), pos->side_to_move(), line.result,
                       line.depth.value_or(0)});
    }
    return out;
}

double win_model_loss(const WinModel& model, const std::vector<WinSample>& samples) {
    double sum = 0;
    for (const WinSample& s : samples) {
        const WinCurve curve = WinCurve(model, s.stage).at_depth(s.depth);
        const WinCurve::Probabilities p = curve.attackers(s.score);
        const double q = s.result == 1 ? p.win : s.result == 0 ? p.loss : p.draw;
        sum -= std::log(std::max(q, 1e-12));
    }
    return samples.empty() ? 0 : sum / double(samples.size());
}

WinFitResult fit_win_model(const std::vector<WinSample>& samples, bool draws,
                           const WinFitOptions& options) {
    // Depths read as the curve reads them, within the range the fit sees.
    const std::array<int, 2> range = depth_range(samples);
    // Games a ply limit draws: a share of each side's wins stalls.
    const bool stalls =
        draws && std::any_of(samples.begin(), samples.end(),
                             [](const WinSample& s) { return s.stage.ply_limit > 0; });
    std::vector<Prepared> data;
    data.reserve(samples.size());
    for (const WinSample& s : samples) {
        if (!draws && s.result == 0.5) continue; // a draw-free model cannot explain one
        const StageShares x = stage_shares(s.stage);
        data.push_back({s.score / UNIT, x.attackers, x.defenders, x.all, x.ply, s.result,
                        s.stage.to_move == DEFENDERS ? 1.0 : 0.0, depth_term(s.depth, range)});
    }
    // Start: no bias, draws half a soldier wide, a soldier and a half
    // decides, about 2 % of the wins stalled.
    std::array<double, PARAMS> p{};
    p[4] = std::log(0.5);
    p[7] = std::log(1.5);
    if (stalls) p[19] = p[21] = -4;
    std::array<double, PARAMS> m1{}, m2{};
    const double n = std::max<double>(1, double(data.size()));
    constexpr double B1 = 0.9, B2 = 0.999, EPS = 1e-8;
    for (int it = 1; it <= options.iterations; ++it) {
        std::array<double, PARAMS> g{};
        for (const Prepared& x : data) {
            const double h2 = x.h * x.h;
            const double u = x.s - (p[0] + p[1] * x.a + p[2] * x.d + p[3] * x.p +
                                    p[12] * x.defenders_move + p[13] * x.h + p[16] * h2);
            const double m =
                draws ? std::exp(p[4] + p[5] * x.t + p[6] * x.p + p[14] * x.h + p[17] * h2) : 0;
            const double w = std::exp(p[7] + p[8] * x.t + p[9] * x.p + p[15] * x.h + p[18] * h2);
            const double v = draws ? w * std::exp(p[10] + p[11] * x.p) : w;
            const double pw = (u - m) / w, ql = (-u - m) / v;
            const double W = sigmoid(pw), L = sigmoid(ql);
            const double pc = x.p - STALL_CENTRE;
            const double qa = stalls ? sigmoid(p[19] + p[20] * pc) : 0;
            const double qd = stalls ? sigmoid(p[21] + p[22] * pc) : 0;
            // d(-log likelihood) / d pw, d ql, and d the stalls' log-odds.
            double dp = 0, dq = 0, dqa = 0, dqd = 0;
            if (x.y == 1) {
                dp = -(1 - W);
                dqa = qa;
            } else if (x.y == 0) {
                dq = -(1 - L);
                dqd = qd;
            } else {
                // Bounded: where the two spreads overlap, W + L passes 1.
                const double D = std::max(1 - (1 - qa) * W - (1 - qd) * L, 1e-3);
                dp = (1 - qa) * W * (1 - W) / D;
                dq = (1 - qd) * L * (1 - L) / D;
                dqa = -W * qa * (1 - qa) / D;
                dqd = -L * qd * (1 - qd) / D;
            }
            const double du = dp / w - dq / v;
            const double dm = -(dp / w + dq / v);
            // d / d log w (v moves with w), and d / d skew.
            const double dlogw = -(dp * pw + dq * ql);
            const double dskew = -dq * ql;
            g[0] -= du;
            g[1] -= du * x.a;
            g[2] -= du * x.d;
            g[3] -= du * x.p;
            g[12] -= du * x.defenders_move;
            g[13] -= du * x.h;
            g[16] -= du * h2;
            if (draws) {
                g[4] += dm * m;
                g[5] += dm * m * x.t;
                g[6] += dm * m * x.p;
                g[14] += dm * m * x.h;
                g[17] += dm * m * h2;
            }
            g[7] += dlogw;
            g[8] += dlogw * x.t;
            g[9] += dlogw * x.p;
            g[15] += dlogw * x.h;
            g[18] += dlogw * h2;
            if (draws) {
                g[10] += dskew;
                g[11] += dskew * x.p;
            }
            if (stalls) {
                g[19] += dqa;
                g[20] += dqa * pc;
                g[21] += dqd;
                g[22] += dqd * pc;
            }
        }
        const double c1 = 1 - std::pow(B1, it), c2 = 1 - std::pow(B2, it);
        for (int i = 0; i < PARAMS; ++i) {
            const double gi = g[i] / n;
            m1[i] = B1 * m1[i] + (1 - B1) * gi;
            m2[i] = B2 * m2[i] + (1 - B2) * gi * gi;
            p[i] -= options.lr * (m1[i] / c1) / (std::sqrt(m2[i] / c2) + EPS);
        }
    }
    WinFitResult r;
    r.model = to_model(p, draws, stalls);
    r.model.depth_range = range;
    r.loss = win_model_loss(r.model, samples);
    return r;
}

std::vector<CalibrationBucket> calibrate(const WinModel& model,
                                         const std::vector<WinSample>& samples) {
    std::vector<CalibrationBucket> buckets(10);
    for (const WinSample& s : samples) {
        const WinCurve curve = WinCurve(model, s.stage).at_depth(s.depth);
        const WinCurve::Probabilities p = curve.attackers(s.score);
        const bool attackers = s.stm == ATTACKERS;
        const double win = attackers ? p.win : p.loss;
        const double won = attackers ? s.result == 1 : s.result == 0;
        CalibrationBucket& b = buckets[std::min(9, int(win * 10))];
        ++b.positions;
        b.predicted_win += win;
        b.observed_win += won;
        b.predicted_draw += p.draw;
        b.observed_draw += s.result == 0.5;
    }
    for (CalibrationBucket& b : buckets) {
        if (!b.positions) continue;
        const double k = double(b.positions);
        b.predicted_win /= k;
        b.observed_win /= k;
        b.predicted_draw /= k;
        b.observed_draw /= k;
    }
    return buckets;
}

} // namespace branan::tune
