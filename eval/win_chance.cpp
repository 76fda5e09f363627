#include "win_chance.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string_view>

#include "params.h"

namespace branan {

namespace {

double sigmoid(double x) {
    return 1 / (1 + std::exp(-x));
}

// The fits of `branan-tune wdl` (docs/win-chances.md has the recipe, the
// games and the calibration tables). Rows are presets, read with the
// hand-made evaluation (net 0) or with the compiled-in net of that hash:
// a net has a scale of its own.
struct WinModelRow {
    std::string_view preset;
    uint64_t net;
    WinModel model;
};
// clang-format off
const WinModelRow WIN_MODELS[] = {
    {"brandubh", 0, {{238.6, -360.0, -154.7, 0.0}, false, {0.0000, 0.0000, 0.0000}, {4.7392, 0.5083, 0.0000}, {0.0000, 0.0000}}},
    {"brandubh", 0x09f731aa9ac74ce3, {{-284.4, 276.4, -185.5, 0.0}, false, {0.0000, 0.0000, 0.0000}, {4.3241, 0.3762, 0.0000}, {0.0000, 0.0000}, -22.3, {-121.8, 0.0000, -0.5964, -38.8, 0.0000, -0.1151}, {2, 14}}},
    {"tablut", 0, {{-475.8, 403.3, 65.3, 0.0}, true, {5.4843, -0.5013, 0.0000}, {5.3954, 0.2124, 0.0000}, {-0.0372, 0.0000}, -36.0, {-171.4, 0.6244, -0.6455, -91.5, 0.3936, -0.1715}, {1, 10}}},
    {"tablut", 0x751d077ab58cee0c, {{-106.2, 162.5, -166.7, 0.0}, true, {7.0530, -2.2262, 0.0000}, {5.5602, -0.3022, 0.0000}, {-0.0448, 0.0000}, -28.8, {-121.1, 0.4754, -0.9102, -70.4, 0.3301, -0.1975}, {1, 10}}},
    {"copenhagen", 0, {{428.4, -737.1, -137.2, 0.0}, false, {0.0000, 0.0000, 0.0000}, {5.1497, 0.2023, 0.0000}, {0.0000, 0.0000}, -18.9, {-173.3, 0.0000, 0.0505, -97.3, 0.0000, 0.1511}, {2, 8}}},
    {"copenhagen", 0x60963c38849c2109, {{408.8, -61.9, 187.4, 0.0}, false, {0.0000, 0.0000, 0.0000}, {5.4225, 0.7785, 0.0000}, {0.0000, 0.0000}, -12.1, {-227.5, 0.0000, -0.2996, 305.7, 0.0000, 0.0962}, {2, 8}}},
    {"hnefatafl-org", 0, {{-2060.2, 1330.7, -19.6, 308.5}, true, {2.6918, 2.5490, 3.3826}, {4.6498, 0.7081, 0.3825}, {0.3582, 0.3612}, -18.9, {-188.3, 0.1547, -0.3754, -66.0, 0.1382, -0.0869}, {1, 10}, true, {-2.5566, 2.9137, -12.6199, 14.8629}}},
    {"hnefatafl-org", 0x2e20de1669c0051e, {{-1652.5, 1780.3, -962.7, 344.3}, true, {2.1999, 3.5225, 3.3272}, {4.5237, 1.1420, -0.0255}, {0.1606, 0.3983}, -31.9, {-287.8, 0.1936, -0.4913, -123.7, 0.1614, -0.0513}, {1, 11}, true, {-2.8902, 3.0895, -33.6097, 37.7484}}},
};
// clang-format on

// Rules without a fit of their own read their scores with the fit of the
// edition whose weight set they share: the same evaluation, so the same
// scale (the bias of other armies is only roughly the same).
struct SetReference {
    std::string_view set;
    std::string_view preset;
};
const SetReference SET_REFERENCES[] = {
    {"edge", "tablut"},
    {"corner_large", "copenhagen"},
    {"corner_weak", "brandubh"},
    {"corner", "brandubh"},
};

const WinModelRow* fitted(std::string_view preset, uint64_t net = 0) {
    for (const WinModelRow& row : WIN_MODELS)
        if (row.preset == preset && row.net == net) return &row;
    return nullptr;
}

const WinModelRow& row_for(const Rules& rules, uint64_t net) {
    if (auto preset = preset_of(rules)) {
        if (net != 0)
            if (const WinModelRow* row = fitted(*preset, net)) return *row;
        if (const WinModelRow* row = fitted(*preset)) return *row;
    }
    const std::string_view set = default_set_name(default_set_for(rules));
    for (const SetReference& ref : SET_REFERENCES)
        if (ref.set == set) {
            const WinModelRow* row = fitted(ref.preset);
            assert(row && "a set's reference edition has no fit");
            if (row) return *row;
        }
    return WIN_MODELS[0];
}

} // namespace

// Shares of the start's (1 where a side starts with none).
StageShares stage_shares(const GameStage& s) {
    StageShares out;
    if (s.attackers_start > 0) out.attackers = double(s.attackers) / s.attackers_start;
    if (s.defenders_start > 0) out.defenders = double(s.defenders) / s.defenders_start;
    const int start = s.attackers_start + s.defenders_start;
    if (start > 0) out.all = double(s.attackers + s.defenders) / start;
    if (s.ply_limit > 0) out.ply = std::clamp(double(s.ply) / s.ply_limit, 0.0, 1.0);
    return out;
}

WinCurve::WinCurve(const WinModel& model, const GameStage& stage) {
    const StageShares x = stage_shares(stage);
    base_offset_ = model.offset[0] + model.offset[1] * x.attackers + model.offset[2] * x.defenders +
                   model.offset[3] * x.ply + (stage.to_move == DEFENDERS ? model.tempo : 0);
    draws_ = model.draws;
    base_log_margin_ = model.margin[0] + model.margin[1] * x.all + model.margin[2] * x.ply;
    base_log_spread_ = model.spread[0] + model.spread[1] * x.all + model.spread[2] * x.ply;
    log_skew_ = model.draws ? model.skew[0] + model.skew[1] * x.ply : 0;
    depth_ = model.depth;
    depth_range_ = model.depth_range;
    if (model.draws && model.stalls) {
        stall_attackers_ = sigmoid(model.stall[0] + model.stall[1] * x.ply);
        stall_defenders_ = sigmoid(model.stall[2] + model.stall[3] * x.ply);
    }
    settle(depth_term(0, depth_range_));
}

double depth_term(int depth, const std::array<int, 2>& range) {
    if (depth <= 0) depth = WIN_MODEL_DEPTH;
    if (range[1] > 0) depth = std::clamp(depth, range[0], range[1]);
    return std::log(double(depth) / WIN_MODEL_DEPTH);
}

WinCurve WinCurve::at_depth(int depth) const {
    WinCurve curve = *this;
    curve.settle(depth_term(depth, depth_range_));
    return curve;
}

void WinCurve::settle(double h) {
    const double h2 = h * h;
    offset_ = base_offset_ + depth_[0] * h + depth_[3] * h2;
    margin_ = draws_ ? std::exp(base_log_margin_ + depth_[1] * h + depth_[4] * h2) : 0;
    spread_ = std::exp(base_log_spread_ + depth_[2] * h + depth_[5] * h2);
    defender_spread_ = spread_ * std::exp(log_skew_);
    // Where the expected score is one half: the offset when the two sides
    // convert alike, else found by bisection (it rises with the score).
    even_ = offset_;
    if (defender_spread_ != spread_ || stall_attackers_ != stall_defenders_) {
        double lo = offset_ - 1e5, hi = offset_ + 1e5;
        for (int i = 0; i < 80; ++i) {
            const double mid = (lo + hi) / 2;
            const Probabilities p = attackers(mid);
            (p.win + p.draw / 2 < 0.5 ? lo : hi) = mid;
        }
        even_ = (lo + hi) / 2;
    }
}

WinCurve::Probabilities WinCurve::attackers(double raw_attackers) const {
    const double u = raw_attackers - offset_;
    const double a = (u - margin_) / spread_, b = (-u - margin_) / defender_spread_;
    const double sa = sigmoid(a), sb = sigmoid(b);
    Probabilities p;
    p.win = (1 - stall_attackers_) * sa;
    p.loss = (1 - stall_defenders_) * sb;
    // 1 - win - loss, from the smaller side (1 - sigmoid(a) = sigmoid(-a)):
    // far from the even game 1 - win keeps no digits of the other two. No
    // draws at all where the model has none.
    p.draw = sa > 0.5 ? sigmoid(-a) + stall_attackers_ * sa - p.loss
                      : sigmoid(-b) + stall_defenders_ * sb - p.win;
    // With unequal spreads the two can overlap far from the even game,
    // where draws are out of the question anyway.
    if (p.draw < 0 || margin_ == 0) {
        const double sum = p.win + p.loss;
        p.win /= sum;
        p.loss /= sum;
        p.draw = 0;
    }
    return p;
}

WinChances WinCurve::chances(Value raw, Side stm) const {
    if (raw >= VALUE_WIN_MAX_PLY) return {1000, 0, 0};
    if (raw <= -VALUE_WIN_MAX_PLY) return {0, 0, 1000};
    const Probabilities p = attackers(attackers_view(raw, stm));
    const double win = stm == ATTACKERS ? p.win : p.loss;
    const double loss = stm == ATTACKERS ? p.loss : p.win;
    WinChances c;
    c.win = int(std::lround(1000 * win));
    c.loss = margin_ > 0 ? int(std::lround(1000 * loss)) : 1000 - c.win;
    if (c.win + c.loss > 1000) (c.win > c.loss ? c.win : c.loss) = 1000 - std::min(c.win, c.loss);
    c.draw = 1000 - c.win - c.loss;
    return c;
}

Value WinCurve::calibrated(Value raw, Side stm) const {
    if (raw >= VALUE_WIN_MAX_PLY || raw <= -VALUE_WIN_MAX_PLY) return raw;
    // ln(E / (1 - E)) from each side's share, not from 1 - E: far from
    // the even game 1 - E loses its digits, and the two sides' readings of
    // one position would round apart.
    const Probabilities p = attackers(attackers_view(raw, stm));
    const double ours = (stm == ATTACKERS ? p.win : p.loss) + p.draw / 2;
    const double theirs = (stm == ATTACKERS ? p.loss : p.win) + p.draw / 2;
    const double cp = 100 *
                      (std::log(std::max(ours, 1e-300)) - std::log(std::max(theirs, 1e-300))) /
                      std::log(CALIBRATED_UNIT_SCORE / (1 - CALIBRATED_UNIT_SCORE));
    return Value(std::lround(std::clamp(cp, -double(VALUE_EVAL_MAX), double(VALUE_EVAL_MAX))));
}

double WinCurve::expected(Value raw, Side stm) const {
    if (raw >= VALUE_WIN_MAX_PLY) return 1;
    if (raw <= -VALUE_WIN_MAX_PLY) return 0;
    const Probabilities p = attackers(attackers_view(raw, stm));
    const double attackers_score = p.win + p.draw / 2;
    return stm == ATTACKERS ? attackers_score : 1 - attackers_score;
}

const WinModel& win_model_for(const Rules& rules, uint64_t net) {
    return row_for(rules, net).model;
}

std::string win_model_source(const Rules& rules, uint64_t net) {
    const WinModelRow& row = row_for(rules, net);
    return std::string(row.preset) + (row.net != 0 ? " (its net)" : "");
}

} // namespace branan
