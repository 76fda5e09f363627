#include "skill.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <string_view>

namespace branan {

namespace {

// Nodes a move: 50 at level 0, doubling every two levels (36,000 at 19).
constexpr double LEVEL_0_NODES = 50;
// The expected score given away at which a candidate's weight falls by e,
// at level 0; it shrinks with the square of the levels left.
constexpr double LEVEL_0_TEMPERATURE = 0.15;

// The ladder: the Elo of levels 0, 4, ..., 20 of each measured edition
// (docs/levels.md has the matches), played with the hand-made evaluation
// (net 0) or with the compiled-in net of that hash.
constexpr int LADDER_STEP = 4;
struct LadderRow {
    std::string_view preset;
    uint64_t net;
    std::array<int, MAX_SKILL_LEVEL / LADDER_STEP + 1> elo;
};
const LadderRow LADDERS[] = {
    {"brandubh", 0, {771, 799, 1038, 1296, 1662, 2000}},
    {"brandubh", 0x09f731aa9ac74ce3, {973, 1013, 1339, 1578, 1797, 2000}},
    {"tablut", 0, {1015, 1084, 1164, 1456, 1720, 2000}},
    {"tablut", 0x751d077ab58cee0c, {980, 1020, 1094, 1451, 1705, 2000}},
    {"copenhagen", 0, {1038, 1080, 1154, 1389, 1641, 2000}},
    {"copenhagen", 0x60963c38849c2109, {1228, 1264, 1294, 1417, 1637, 2000}},
    {"hnefatafl-org", 0x2e20de1669c0051e, {1104, 1125, 1142, 1298, 1628, 2000}},
};

const LadderRow* measured(std::string_view preset, uint64_t net) {
    for (const LadderRow& row : LADDERS)
        if (row.preset == preset && row.net == net) return &row;
    return nullptr;
}

// The measured edition nearest to `rules`: the same preset (with the net
// that evaluates, where it was measured with it), else the one of the same
// board size class.
const LadderRow& ladder_for(const Rules& rules, uint64_t net) {
    if (auto preset = preset_of(rules)) {
        if (net != 0)
            if (const LadderRow* row = measured(*preset, net)) return *row;
        if (const LadderRow* row = measured(*preset, 0)) return *row;
    }
    const std::string_view nearest = rules.size <= 7   ? "brandubh"
                                     : rules.size <= 9 ? "tablut"
                                                       : "copenhagen";
    const LadderRow* row = measured(nearest, 0);
    assert(row);
    return row ? *row : LADDERS[0];
}

} // namespace

Skill::Skill(double level) : level_(std::clamp(level, 0.0, double(MAX_SKILL_LEVEL))) {}

Skill Skill::from_options(bool limit_strength, int elo, int skill_level, const Rules& rules,
                          uint64_t net) {
    return Skill(limit_strength ? level_for_elo(elo, rules, net) : double(skill_level));
}

uint64_t Skill::nodes() const {
    return uint64_t(std::lround(LEVEL_0_NODES * std::pow(2.0, level_ / 2)));
}

std::vector<double> Skill::weights(const std::vector<double>& expected) const {
    std::vector<double> w(expected.size(), 0.0);
    if (expected.empty()) return w;
    if (!limited()) {
        w[0] = 1;
        return w;
    }
    const double left = 1 - level_ / MAX_SKILL_LEVEL;
    const double t = LEVEL_0_TEMPERATURE * left * left;
    const double best = *std::max_element(expected.begin(), expected.end());
    double sum = 0;
    for (size_t i = 0; i < expected.size(); ++i) sum += w[i] = std::exp((expected[i] - best) / t);
    for (double& x : w) x /= sum;
    return w;
}

size_t Skill::pick(const std::vector<double>& expected, std::mt19937_64& rng) const {
    const std::vector<double> w = weights(expected);
    std::discrete_distribution<size_t> draw(w.begin(), w.end());
    return draw(rng);
}

int elo_of_level(double level, const Rules& rules, uint64_t net) {
    const LadderRow& row = ladder_for(rules, net);
    const double x = std::clamp(level, 0.0, double(MAX_SKILL_LEVEL)) / LADDER_STEP;
    const size_t i = std::min(size_t(x), row.elo.size() - 2);
    const double f = x - double(i);
    return int(std::lround(row.elo[i] + f * (row.elo[i + 1] - row.elo[i])));
}

double level_for_elo(int elo, const Rules& rules, uint64_t net) {
    const LadderRow& row = ladder_for(rules, net);
    if (elo <= row.elo.front()) return 0;
    if (elo >= row.elo.back()) return MAX_SKILL_LEVEL;
    size_t i = 0;
    while (row.elo[i + 1] < elo) ++i;
    const double f = double(elo - row.elo[i]) / double(row.elo[i + 1] - row.elo[i]);
    return LADDER_STEP * (double(i) + f);
}

} // namespace branan
