// Win chances and calibrated scores (eval/win_chance.h): the conversion of
// every fitted edition is monotonic, symmetric in the side to move, maps
// the calibrated 0 to an even game and +100 to 75 %; the right fit is found
// for each edition; the fit itself (branan-tune wdl) finds a model it is
// shown games of.

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "edition.h"
#include "engine.h"
#include "game_stage.h"
#include "rules.h"
#include "test_helpers.h"
#include "tune/win_fit.h"

using namespace branan;

namespace {

// GameStage at the start and with pieces taken, for every board the presets
// have.
std::vector<GameStage> stages_of(const Rules& rules) {
    auto edition = Edition::make(rules);
    REQUIRE(edition.ok());
    const GameStage start = stage_of(Position(*edition));
    std::vector<GameStage> out = {start};
    GameStage fewer = start;
    fewer.attackers = std::max(1, start.attackers / 2);
    fewer.defenders = std::max(1, start.defenders / 3);
    out.push_back(fewer);
    GameStage lone = start;
    lone.attackers = 2;
    lone.defenders = 1;
    out.push_back(lone);
    if (start.ply_limit > 0) {
        GameStage late = fewer;
        late.ply = start.ply_limit - 3;
        out.push_back(late);
    }
    // Each with the defenders to move too.
    const size_t n = out.size();
    for (size_t i = 0; i < n; ++i) {
        GameStage other = out[i];
        other.to_move = other.to_move == ATTACKERS ? DEFENDERS : ATTACKERS;
        out.push_back(other);
    }
    return out;
}

WinChances mirrored(const WinChances& c) {
    return {c.loss, c.draw, c.win};
}

// Runs `check(model, curve)` for every preset's model, and every
// compiled-in net's, at each of its stages, for scores of a shallow, the
// model's own and a deep search.
template <class Check>
void for_each_curve(Check&& check) {
    std::vector<std::pair<std::string, uint64_t>> fits;
    for (const Preset& preset : presets()) fits.emplace_back(preset.name, 0);
    for (const NnueNetPtr& net : testutil::shipped_nets())
        fits.emplace_back(*preset_of(*parse_rules(net->rules)), net->hash);
    for (const auto& fit : fits) {
        auto rules = preset_rules(fit.first);
        REQUIRE(rules.ok());
        const WinModel& model = win_model_for(*rules, fit.second);
        for (const GameStage& stage : stages_of(*rules)) {
            for (int depth : {2, WIN_MODEL_DEPTH, 30}) {
                INFO(fit.first << (fit.second ? " (net)" : "") << " with " << stage.attackers
                               << " attackers, " << stage.defenders << " defenders, ply "
                               << stage.ply << ", depth " << depth);
                check(model, WinCurve(model, stage).at_depth(depth));
            }
        }
    }
}

} // namespace

TEST_CASE("win chances: monotonic, symmetric in the side to move, summing to 1000",
          "[win-chance]") {
    for_each_curve([](const WinModel& model, const WinCurve& curve) {
        for (Side stm : {ATTACKERS, DEFENDERS}) {
            WinChances last{-1, 0, 1001};
            double last_expected = -1;
            Value last_cp = -VALUE_EVAL_MAX - 1;
            for (Value raw = -5000; raw <= 5000; raw += 25) {
                const WinChances c = curve.chances(raw, stm);
                CHECK(c.win + c.draw + c.loss == 1000);
                CHECK(c.win >= 0);
                CHECK(c.draw >= 0);
                CHECK(c.loss >= 0);
                if (!model.draws) CHECK(c.draw == 0);
                CHECK(c.win >= last.win);
                CHECK(c.loss <= last.loss);
                const double e = curve.expected(raw, stm);
                CHECK(e > last_expected - 1e-12);
                const Value cp = curve.calibrated(raw, stm);
                CHECK(cp >= last_cp);
                last = c;
                last_expected = e;
                last_cp = cp;
                // The same position read from the other side.
                const Side other = stm == ATTACKERS ? DEFENDERS : ATTACKERS;
                CHECK(curve.chances(-raw, other) == mirrored(c));
                CHECK(curve.calibrated(-raw, other) == -cp);
                CHECK(std::abs(curve.expected(-raw, other) - (1 - e)) < 1e-9);
            }
            // Far enough, the result is all but certain: a win, or where the
            // ply limit may come first, a win or a draw.
            const Side opponent = stm == ATTACKERS ? DEFENDERS : ATTACKERS;
            const WinChances ahead = curve.chances(VALUE_EVAL_MAX, stm);
            const WinChances behind = curve.chances(-VALUE_EVAL_MAX, stm);
            CHECK(ahead.win >= std::lround(1000 * (1 - curve.stalled(stm))) - 10);
            CHECK(ahead.loss <= 10);
            CHECK(behind.loss >= std::lround(1000 * (1 - curve.stalled(opponent))) - 10);
            CHECK(behind.win <= 10);
            if (!model.stalls) CHECK(ahead.win >= 990);
        }
    });
}

TEST_CASE("win chances: the calibrated 0 is an even game, +100 an expected score of 75 %",
          "[win-chance]") {
    for_each_curve([](const WinModel& model, const WinCurve& curve) {
        // The even game reads 0 for the attackers, and the same
        // position read by the defenders too.
        const Value even = Value(std::lround(curve.even()));
        CHECK(std::abs(curve.calibrated(even, ATTACKERS)) <= 1);
        CHECK(std::abs(curve.calibrated(-even, DEFENDERS)) <= 1);
        CHECK(std::abs(curve.expected(even, ATTACKERS) - 0.5) < 0.003);
        if (!model.draws) {
            const WinChances c = curve.chances(even, ATTACKERS);
            CHECK(std::abs(c.win - c.loss) <= 2);
        }
        // The first raw score that reads +100 (and +200) has the expected
        // score of 75 % (and 90 %), for either side to move; late in a game
        // the ply limit may draw, no score reaches them (stalls).
        for (Side stm : {ATTACKERS, DEFENDERS}) {
            for (const auto& [cp, score] : {std::pair{100, 0.75}, std::pair{200, 0.9}}) {
                if (model.stalls && curve.calibrated(VALUE_EVAL_MAX, stm) < cp) {
                    CHECK(curve.expected(VALUE_EVAL_MAX, stm) < score);
                    CHECK(curve.stalled(stm) > 2 * (1 - score) - 0.01);
                    continue;
                }
                Value lo = -VALUE_EVAL_MAX, raw = VALUE_EVAL_MAX; // calibrated rises
                while (lo + 1 < raw) {
                    const Value mid = (lo + raw) / 2;
                    (curve.calibrated(mid, stm) < cp ? lo : raw) = mid;
                }
                REQUIRE(curve.calibrated(raw, stm) >= cp);
                REQUIRE(curve.calibrated(raw - 1, stm) < cp);
                CHECK(std::abs(curve.expected(raw, stm) - score) < 0.003);
            }
        }
    });
}

TEST_CASE("win chances: wins and losses the search found are certain", "[win-chance]") {
    const WinCurve curve(win_model_for(*preset_rules("tablut")),
                         stages_of(*preset_rules("tablut"))[0]);
    CHECK(curve.chances(VALUE_WIN - 5, DEFENDERS) == WinChances{1000, 0, 0});
    CHECK(curve.chances(-(VALUE_WIN - 8), ATTACKERS) == WinChances{0, 0, 1000});
    // A win score is no evaluation: it is shown as it is (as a mate).
    CHECK(curve.calibrated(VALUE_WIN - 5, ATTACKERS) == VALUE_WIN - 5);
}

TEST_CASE("win chances: each edition reads its scores with its own fit, else its set's",
          "[win-chance]") {
    for (const char* own : {"brandubh", "tablut", "copenhagen", "hnefatafl-org"})
        CHECK(win_model_source(*preset_rules(own)) == own);
    // Same weight sets, no fit of their own.
    CHECK(win_model_source(*preset_rules("opentafl-tablut")) == "tablut");
    CHECK(win_model_source(*preset_rules("fetlar")) == "copenhagen");
    CHECK(win_model_source(*preset_rules("opentafl-brandub")) == "brandubh");
    // A rules string equal to a preset's is that preset.
    const Rules tablut = *preset_rules("tablut");
    CHECK(win_model_source(*parse_rules(print_rules(tablut))) == "tablut");
    // A net of no fit (a user's) reads with the hand-made evaluation's.
    CHECK(win_model_source(tablut, 12345) == "tablut");
    // Every compiled-in net has a fit of its own: it has its own scale.
    for (const NnueNetPtr& net : testutil::shipped_nets()) {
        auto rules = parse_rules(net->rules);
        REQUIRE(rules.ok());
        const auto preset = preset_of(*rules);
        REQUIRE(preset);
        CHECK(win_model_source(*rules, net->hash) == *preset + " (its net)");
        CHECK(&win_model_for(*rules, net->hash) != &win_model_for(*rules));
    }
}

TEST_CASE("win chances: the engine's reports carry them, calibrated unless Raw Scores",
          "[win-chance]") {
    Engine engine;
    REQUIRE(engine.set_preset("copenhagen"));
    SearchLimits limits;
    limits.depth = 3;
    engine.new_game();
    auto calibrated = engine.search_to_end(limits);
    REQUIRE(calibrated.ok());
    const SearchInfo& info = calibrated->last;
    // Read at the depth of the search that gave them.
    REQUIRE(info.depth == 3);
    const WinCurve curve = engine.win_curve().at_depth(3);
    CHECK(info.cp == curve.calibrated(info.score, ATTACKERS));
    CHECK(info.wdl == curve.chances(info.score, ATTACKERS));
    CHECK(info.wdl.win + info.wdl.draw + info.wdl.loss == 1000);
    REQUIRE(engine.set_option("Raw Scores", "true"));
    engine.new_game();
    auto raw = engine.search_to_end(limits);
    REQUIRE(raw.ok());
    CHECK(raw->last.cp == raw->last.score);
    CHECK(raw->last.score == info.score); // the search itself is the same
}

TEST_CASE("win chances: a score is read at the depth it was searched to", "[win-chance]") {
    WinModel model;
    model.offset = {-200, 100, 50, 0};
    model.draws = true;
    model.margin = {std::log(80.0), 0.2, 0};
    model.spread = {std::log(150.0), -0.1, 0};
    model.skew = {0.2, 0};
    model.depth = {40, 0.3, -0.25, -15, 0.1, 0.05};
    const GameStage stage{20, 10, 24, 13, 0, 0};
    const WinCurve base(model, stage);
    // Unknown depth and the model's own depth read as the base curve.
    for (int depth : {0, -3, WIN_MODEL_DEPTH})
        for (double s : {-500.0, 0.0, 250.0}) {
            CHECK(base.at_depth(depth).attackers(s).win == Approx(base.attackers(s).win));
            CHECK(base.at_depth(depth).attackers(s).draw == Approx(base.attackers(s).draw));
        }
    // Depth 27: each term moved by its coefficients times h = ln(27 / 10)
    // and h^2.
    const double h = std::log(27.0 / WIN_MODEL_DEPTH);
    WinModel moved = model;
    moved.depth = {};
    moved.offset[0] += 40 * h - 15 * h * h;
    moved.margin[0] += 0.3 * h + 0.1 * h * h;
    moved.spread[0] += -0.25 * h + 0.05 * h * h;
    const WinCurve deep = base.at_depth(27), want(moved, stage);
    CHECK(deep.even() == Approx(want.even()));
    for (double s : {-500.0, -100.0, 0.0, 250.0}) {
        CHECK(deep.attackers(s).win == Approx(want.attackers(s).win));
        CHECK(deep.attackers(s).loss == Approx(want.attackers(s).loss));
        CHECK(deep.attackers(s).win != Approx(base.attackers(s).win));
    }
    // Outside the depths the fit saw, a score reads at the nearest one.
    WinModel ranged = model;
    ranged.depth_range = {3, 20};
    const WinCurve r(ranged, stage);
    for (double s : {-300.0, 80.0}) {
        CHECK(r.at_depth(40).attackers(s).win == base.at_depth(20).attackers(s).win);
        CHECK(r.at_depth(1).attackers(s).win == base.at_depth(3).attackers(s).win);
        CHECK(r.at_depth(12).attackers(s).win == base.at_depth(12).attackers(s).win);
        CHECK(r.at_depth(0).attackers(s).win == base.attackers(s).win);
    }
    // An unknown depth is WIN_MODEL_DEPTH, within the range too.
    WinModel shallow = model;
    shallow.depth_range = {2, 6};
    const WinCurve sh(shallow, stage);
    CHECK(sh.attackers(-40).win == base.at_depth(6).attackers(-40).win);
    CHECK(sh.at_depth(0).attackers(-40).win == base.at_depth(6).attackers(-40).win);
    // A model without depth terms reads every depth alike.
    WinModel flat = model;
    flat.depth = {};
    const WinCurve f(flat, stage);
    CHECK(f.at_depth(3).attackers(120).win == f.at_depth(40).attackers(120).win);
}

TEST_CASE("win chances: a share of each side's wins stalls at the ply limit", "[win-chance]") {
    WinModel model;
    model.offset = {-100, 0, 0, 0};
    model.draws = true;
    model.margin = {std::log(60.0), 0, 0};
    model.spread = {std::log(120.0), 0, 0};
    model.stalls = true;
    model.stall = {-3, 4, -6, 7};
    const auto sigmoid = [](double x) { return 1 / (1 + std::exp(-x)); };
    for (int ply : {0, 50, 90}) {
        const GameStage stage{20, 10, 24, 13, ply, 100};
        const double p = ply / 100.0;
        const WinCurve curve(model, stage);
        CHECK(curve.stalled(ATTACKERS) == Approx(sigmoid(-3 + 4 * p)));
        CHECK(curve.stalled(DEFENDERS) == Approx(sigmoid(-6 + 7 * p)));
        // However far ahead, a side wins only the games that do not stall;
        // the rest are drawn.
        const WinCurve::Probabilities far = curve.attackers(20000), lost = curve.attackers(-20000);
        CHECK(far.win == Approx(1 - curve.stalled(ATTACKERS)).margin(1e-9));
        CHECK(far.draw == Approx(curve.stalled(ATTACKERS)).margin(1e-9));
        CHECK(lost.loss == Approx(1 - curve.stalled(DEFENDERS)).margin(1e-9));
        CHECK(lost.draw == Approx(curve.stalled(DEFENDERS)).margin(1e-9));
        // Anywhere, each side's win is the stall-free model's times its
        // share that does not stall.
        WinModel free = model;
        free.stalls = false;
        const WinCurve plain(free, stage);
        for (double s : {-400.0, -100.0, 0.0, 300.0}) {
            const WinCurve::Probabilities a = curve.attackers(s), b = plain.attackers(s);
            CHECK(a.win == Approx(b.win * (1 - curve.stalled(ATTACKERS))));
            CHECK(a.loss == Approx(b.loss * (1 - curve.stalled(DEFENDERS))));
            CHECK(a.win + a.draw + a.loss == Approx(1));
        }
        // The even game moves to where the two stalled sides score alike.
        CHECK(curve.expected(Value(std::lround(curve.even())), ATTACKERS) ==
              Approx(0.5).margin(0.003));
        if (ply > 0) CHECK(curve.even() != Approx(plain.even()).margin(0.5));
    }
    // Later in the game, more stalls.
    CHECK(WinCurve(model, {20, 10, 24, 13, 90, 100}).attackers(20000).win <
          WinCurve(model, {20, 10, 24, 13, 10, 100}).attackers(20000).win);
    // Only with draws: a draw-free model predicts none.
    WinModel no_draws = model;
    no_draws.draws = false;
    const WinCurve nd(no_draws, {20, 10, 24, 13, 90, 100});
    CHECK(nd.stalled(ATTACKERS) == 0);
    CHECK(nd.attackers(20000).draw == 0);
}

TEST_CASE("win fit: finds the model its games were drawn from", "[win-chance][tune]") {
    // Games drawn from a known model with draws and a bias; the fit sees
    // only scores, material and results.
    WinModel truth;
    truth.offset = {-250, 120, 60, 0};
    truth.draws = true;
    truth.margin = {std::log(90.0), 0.3, 0.8};
    truth.spread = {std::log(180.0), -0.2, 0};
    truth.skew = {0.3, 0};
    truth.tempo = 45;
    truth.depth = {60, 0.4, -0.3, -20, 0.15, 0.1};
    // A ply limit: a share of the wins stalls, more of the defenders'.
    truth.stalls = true;
    truth.stall = {-3, 2, -2.5, 3};
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> score(-900, 600);
    std::uniform_int_distribution<int> attackers(4, 24), defenders(2, 13), ply(0, 100);
    std::uniform_int_distribution<int> depth(2, 30);
    std::uniform_real_distribution<double> draw(0, 1);
    std::vector<tune::WinSample> samples;
    for (int i = 0; i < 20000; ++i) {
        tune::WinSample s;
        s.stage = {attackers(rng), defenders(rng), 24, 13, ply(rng), 100};
        s.score = score(rng);
        s.stm = i % 2 ? ATTACKERS : DEFENDERS;
        s.stage.to_move = s.stm;
        s.depth = depth(rng);
        const WinCurve::Probabilities p =
            WinCurve(truth, s.stage).at_depth(s.depth).attackers(s.score);
        const double x = draw(rng);
        s.result = x < p.win ? 1 : x < p.win + p.draw ? 0.5 : 0;
        samples.push_back(s);
    }
    tune::WinFitOptions options;
    options.iterations = 1500;
    options.lr = 0.03;
    const tune::WinFitResult fit = tune::fit_win_model(samples, true, options);
    CHECK(fit.model.draws);
    CHECK(fit.model.stalls);
    // Within what 20,000 results can tell, and no worse than the truth.
    CHECK(fit.loss <= tune::win_model_loss(truth, samples) + 1e-3);
    CHECK(fit.model.tempo == Approx(truth.tempo).margin(25));
    CHECK(fit.model.depth[0] == Approx(truth.depth[0]).margin(25));
    CHECK(fit.model.depth[1] == Approx(truth.depth[1]).margin(0.2));
    CHECK(fit.model.depth[2] == Approx(truth.depth[2]).margin(0.12));
    // The depths it saw, from the first to the last percentile.
    CHECK(fit.model.depth_range == std::array<int, 2>{2, 30});
    for (const auto& [m, d] : {std::pair{GameStage{24, 13, 24, 13, 0, 100}, 4},
                               std::pair{GameStage{10, 5, 24, 13, 70, 100, DEFENDERS}, 20}}) {
        const WinCurve got = WinCurve(fit.model, m).at_depth(d),
                       want = WinCurve(truth, m).at_depth(d);
        CHECK(got.even() == Approx(want.even()).margin(40));
        for (Side winner : {ATTACKERS, DEFENDERS})
            CHECK(got.stalled(winner) == Approx(want.stalled(winner)).margin(0.05));
        for (double s : {-600.0, -200.0, 0.0, 300.0}) {
            const WinCurve::Probabilities g = got.attackers(s), w = want.attackers(s);
            CHECK(g.win == Approx(w.win).margin(0.04));
            CHECK(g.draw == Approx(w.draw).margin(0.04));
        }
    }
    // Its calibration on the same games: every full bucket close.
    for (const tune::CalibrationBucket& b : tune::calibrate(fit.model, samples))
        if (b.positions >= 500) CHECK(std::abs(b.observed_win - b.predicted_win) < 0.05);
}
