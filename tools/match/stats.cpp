#include "stats.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace branan::match {

namespace {
constexpr double Z95 = 1.959963984540054; // the 97.5% quantile of the standard normal
}

double elo_from_score(double s) {
    if (s <= 0) return -std::numeric_limits<double>::infinity();
    if (s >= 1) return std::numeric_limits<double>::infinity();
    return -400.0 * std::log10(1.0 / s - 1.0);
}

double score_from_elo(double elo) {
    return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

Moments moments(const Trinomial& t) {
    Moments m;
    m.samples = t.games();
    if (m.samples == 0) return m;
    const double n = double(m.samples);
    const double x[3] = {0.0, 0.5, 1.0};
    double mean = 0;
    for (int i = 0; i < 3; ++i) mean += x[i] * double(t.n[i]) / n;
    double var = 0;
    for (int i = 0; i < 3; ++i) var += double(t.n[i]) / n * (x[i] - mean) * (x[i] - mean);
    m.mean = mean;
    m.variance = var;
    return m;
}

Moments moments(const Pentanomial& p) {
    Moments m;
    m.samples = p.pairs();
    if (m.samples == 0) return m;
    const double n = double(m.samples);
    double mean = 0;
    for (int i = 0; i < 5; ++i) mean += (i / 4.0) * double(p.n[i]) / n;
    double var = 0;
    for (int i = 0; i < 5; ++i) var += double(p.n[i]) / n * (i / 4.0 - mean) * (i / 4.0 - mean);
    m.mean = mean;
    m.variance = var;
    return m;
}

EloEstimate estimate(const Moments& m) {
    EloEstimate e;
    if (m.samples == 0) return e;
    e.valid = true;
    e.score = m.mean;
    e.elo = elo_from_score(m.mean);
    const double se = std::sqrt(m.variance / double(m.samples));
    e.lower = elo_from_score(m.mean - Z95 * se);
    e.upper = elo_from_score(m.mean + Z95 * se);
    e.error = (e.upper - e.lower) / 2.0;
    return e;
}

double los(const Trinomial& t) {
    const double w = double(t.wins()), l = double(t.losses());
    if (w + l == 0) return 0.5;
    return 0.5 * (1.0 + std::erf((w - l) / std::sqrt(2.0 * (w + l))));
}

double SprtParams::lower_bound() const {
    return std::log(beta / (1.0 - alpha));
}
double SprtParams::upper_bound() const {
    return std::log((1.0 - beta) / alpha);
}

double llr(const Moments& m, double elo0, double elo1) {
    if (m.samples == 0 || m.variance <= 0) return 0;
    const double s0 = score_from_elo(elo0), s1 = score_from_elo(elo1);
    return double(m.samples) * (s1 - s0) * (2.0 * m.mean - s0 - s1) / (2.0 * m.variance);
}

SprtDecision sprt_decision(double value, const SprtParams& p) {
    if (value >= p.upper_bound()) return SprtDecision::H1;
    if (value <= p.lower_bound()) return SprtDecision::H0;
    return SprtDecision::CONTINUE;
}

const char* to_string(SprtDecision d) {
    switch (d) {
    case SprtDecision::H0:
        return "H0 accepted";
    case SprtDecision::H1:
        return "H1 accepted";
    case SprtDecision::CONTINUE:
        break;
    }
    return "continue";
}

namespace {
std::string num(double x) {
    if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
    if (std::isnan(x)) return "nan";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f", std::abs(x) < 0.05 ? 0.0 : x);
    return buf;
}
} // namespace

std::string format_elo(const EloEstimate& e) {
    if (!e.valid) return "Elo n/a";
    std::string s = "Elo " + num(e.elo);
    if (std::isfinite(e.error)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " +- %.1f", e.error);
        s += buf;
    } else {
        s += " +- inf";
    }
    s += " [" + num(e.lower) + ", " + num(e.upper) + "]";
    return s;
}

} // namespace branan::match
