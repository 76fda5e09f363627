#include "tune_command_line.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <boost/program_options.hpp>

#include "atomic_file.h"
#include "dataset.h"
#include "default_nets.h"
#include "extract.h"
#include "fit.h"
#include "game_stage.h"
#include "positions.h"
#include "progress.h"
#include "random_games.h"
#include "rules.h"
#include "split.h"
#include "subcommand.h"
#include "text.h"
#include "win_fit.h"

namespace po = boost::program_options;

namespace branan::tune {

namespace {

constexpr const char* USAGE =
    "Usage: branan-tune COMMAND ...\n"
    "  extract DIR_OR_FILE... -o positions.txt [--skip-opening N] [--decided-only]\n"
    "      [--every-position]\n"
    "      quiet positions of branan-match games (folders, game-NNNNN.txt, summary.jsonl)\n"
    "  fit positions.txt -o weights.txt [--set SET|auto] "
    "[--preset NAME]\n"
    "      [--start FILE] [--lambda L] [--validation F] [--epochs N] [--threads N] [--seed S]\n"
    "      [--lr X] [--l2 LAMBDA] [--patience N] [--only W1,W2...] [--k K]\n"
    "      fit the evaluation weights to the results\n"
    "  defaults weights.txt --set SET [--dir SOURCE_DIR]\n"
    "      validate a weight file and install it as eval/weights/SET.txt\n"
    "  wdl positions.txt [--preset NAME] [--validation F | --folds K] [--seed S] [--iterations N]\n"
    "      [--threads N]\n"
    "      [--shipped [--hand-made]]\n"
    "      fit the win-chance model of each edition to its games (extract --every-position)\n"
    "      and print its table row and its calibration on the games kept out\n"
    "  bench-fit N [--preset NAME] [--threads N] [--epochs N] [--seed S]\n"
    "      time extraction, traces and a fit on N positions of random games\n";

int default_threads() {
    return std::max(1, int(std::thread::hardware_concurrency()));
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Peak resident memory of this process (VmHWM), in MiB; -1 if unknown.
double peak_memory_mib() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
    return -1;
}

Result<DefaultSet> parse_set(const std::string& name) {
    if (auto set = find_default_set(name)) return *set;
    return Error{"--set: unknown default set '" + name + "' (" + default_set_names() + ")"};
}

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, f, a, b, c);
    return buf;
}

// ---- extract -------------------------------------------------------------

int cmd_extract(const std::vector<std::string>& args, std::ostream&, std::ostream& err) {
    po::options_description options("extract options");
    options.add_options()("input", po::value<std::vector<std::string>>(),
                          "inputs")("o,o", po::value<std::string>(), "output positions file")(
        "skip-opening", po::value<int>()->default_value(ExtractOptions{}.skip_opening),
        "plies skipped at the start of each game")("decided-only", po::bool_switch(),
                                                   "leave out the drawn games")(
        "every-position", po::bool_switch(),
        "every scored position, for `wdl` (no quiet filter, duplicates kept, games stopped at the "
        "ply cap left out)");
    po::positional_options_description pos;
    pos.add("input", -1);
    const po::variables_map vm = parse_subcommand(options, args, pos);
    if (!vm.count("input")) throw UsageError{"give one or more folders or files"};
    if (!vm.count("o")) throw UsageError{"give the output file with -o"};
    ExtractOptions opt;
    opt.skip_opening = vm["skip-opening"].as<int>();
    opt.decided_only = vm["decided-only"].as<bool>();
    opt.every_position = vm["every-position"].as<bool>();
    if (opt.skip_opening < 0 || opt.skip_opening > 10000)
        throw UsageError{"--skip-opening " + std::to_string(opt.skip_opening) +
                         " is out of range (0..10000)"};
    const std::string out_path = vm["o"].as<std::string>();
    if (Status st = check_writable(out_path); !st) throw UsageError{st.error()};

    Extractor ex(opt);
    for (const std::string& in : vm["input"].as<std::vector<std::string>>())
        if (Status st = ex.add_path(in); !st) throw UsageError{st.error()};
    err << "extract: " << ex.stats().summary() << "\n";
    if (ex.positions().empty())
        throw UsageError{"no positions to write (" + ex.stats().summary() + ")"};
    if (Status st = write_file_atomic(out_path, format_positions(ex.positions())); !st)
        throw UsageError{st.error()};
    err << "extract: wrote " << ex.positions().size() << " positions to " << out_path << "\n";
    return 0;
}

// ---- wdl -----------------------------------------------------------------

// A row of eval/win_chance.cpp's table, for the hand-made evaluation (a
// net's row takes the net's hash in place of the 0).
std::string model_row(const std::string& name, const WinModel& m) {
    char buf[500];
    std::snprintf(buf, sizeof buf,
                  "{\"%s\", 0, {{%.1f, %.1f, %.1f, %.1f}, %s, {%.4f, %.4f, %.4f}, {%.4f, %.4f, "
                  "%.4f}, {%.4f, %.4f}, %.1f, {%.1f, %.4f, %.4f, %.1f, %.4f, %.4f}, {%d, %d}",
                  name.c_str(), m.offset[0], m.offset[1], m.offset[2], m.offset[3],
                  m.draws ? "true" : "false", m.margin[0], m.margin[1], m.margin[2], m.spread[0],
                  m.spread[1], m.spread[2], m.skew[0], m.skew[1], m.tempo, m.depth[0], m.depth[1],
                  m.depth[2], m.depth[3], m.depth[4], m.depth[5], m.depth_range[0],
                  m.depth_range[1]);
    std::string row = buf;
    if (m.stalls) {
        std::snprintf(buf, sizeof buf, ", true, {%.4f, %.4f, %.4f, %.4f}", m.stall[0], m.stall[1],
                      m.stall[2], m.stall[3]);
        row += buf;
    }
    return row + "}},";
}

// The calibration table of docs/win-chances.md; returns the largest gap in
// a bucket of 200 positions or more, in points.
double print_calibration(std::ostream& out, const std::vector<CalibrationBucket>& buckets,
                         bool draws) {
    out << "\n| predicted win | positions | predicted | observed | gap |"
        << (draws ? " predicted draw | observed draw |" : "") << "\n";
    out << "|---|---|---|---|---|" << (draws ? "---|---|" : "") << "\n";
    double worst = 0;
    for (size_t i = 0; i < buckets.size(); ++i) {
        const CalibrationBucket& b = buckets[i];
        if (!b.positions) continue;
        const double gap = 100 * (b.observed_win - b.predicted_win);
        if (b.positions >= 200) worst = std::max(worst, std::abs(gap));
        out << fmt("| %.0f-", 10.0 * double(i)) << fmt("%.0f %% | ", 10.0 * double(i + 1))
            << b.positions
            << fmt(" | %.1f %% | %.1f %% | ", 100 * b.predicted_win, 100 * b.observed_win)
            << fmt("%+.1f |", gap)
            << (draws ? fmt(" %.1f %% | %.1f %% |", 100 * b.predicted_draw, 100 * b.observed_draw)
                      : std::string())
            << "\n";
    }
    out << fmt("\nlargest gap in a bucket of 200 positions or more: %.1f points\n\n", worst);
    return worst;
}

// Buckets of several folds as one: their means weighted by their positions.
void pool_buckets(std::vector<CalibrationBucket>& into, const std::vector<CalibrationBucket>& add) {
    if (into.size() < add.size()) into.resize(add.size());
    for (size_t i = 0; i < add.size(); ++i) {
        CalibrationBucket& b = into[i];
        const CalibrationBucket& a = add[i];
        const double n = double(b.positions + a.positions);
        if (n == 0) continue;
        auto mix = [&](double x, double y) {
            return (x * double(b.positions) + y * double(a.positions)) / n;
        };
        b.predicted_win = mix(b.predicted_win, a.predicted_win);
        b.observed_win = mix(b.observed_win, a.observed_win);
        b.predicted_draw = mix(b.predicted_draw, a.predicted_draw);
        b.observed_draw = mix(b.observed_draw, a.observed_draw);
        b.positions += a.positions;
    }
}

// The calibration by the depth of the scores' searches: a model is only
// as good as its worst depth.
struct DepthBand {
    int lo, hi;
};
constexpr DepthBand DEPTH_BANDS[] = {{1, 4}, {5, 7}, {8, 10}, {11, 14}, {15, 1000000}};
struct BandTally {
    std::vector<CalibrationBucket> buckets;
    double loss = 0; // summed over the positions
    size_t positions = 0;
};
using DepthTallies = std::array<BandTally, std::size(DEPTH_BANDS)>;

bool has_depths(const std::vector<WinSample>& samples) {
    return std::any_of(samples.begin(), samples.end(),
                       [](const WinSample& s) { return s.depth > 0; });
}

void tally_depths(DepthTallies& into, const WinModel& model,
                  const std::vector<WinSample>& samples) {
    for (size_t b = 0; b < std::size(DEPTH_BANDS); ++b) {
        std::vector<WinSample> band;
        for (const WinSample& s : samples)
            if (s.depth >= DEPTH_BANDS[b].lo && s.depth <= DEPTH_BANDS[b].hi) band.push_back(s);
        if (band.empty()) continue;
        into[b].loss += win_model_loss(model, band) * double(band.size());
        into[b].positions += band.size();
        pool_buckets(into[b].buckets, calibrate(model, band));
    }
}

void print_depths(std::ostream& out, const DepthTallies& tallies) {
    out << "by the depth of the score's search:\n\n"
        << "| depth | positions | log-loss | largest gap (buckets of 200+) |\n|---|---|---|---|\n";
    for (size_t b = 0; b < std::size(DEPTH_BANDS); ++b) {
        const BandTally& t = tallies[b];
        if (!t.positions) continue;
        double worst = 0;
        for (const CalibrationBucket& k : t.buckets)
            if (k.positions >= 200)
                worst = std::max(worst, 100 * std::abs(k.observed_win - k.predicted_win));
        const DepthBand& d = DEPTH_BANDS[b];
        out << "| " << d.lo << (d.hi > 100 ? "+" : "-" + std::to_string(d.hi)) << " | "
            << t.positions << fmt(" | %.4f | %.1f |\n", t.loss / double(t.positions), worst);
    }
    out << "\n";
}

bool has_draws(const std::vector<WinSample>& samples) {
    return std::any_of(samples.begin(), samples.end(),
                       [](const WinSample& s) { return s.result == 0.5; });
}

// How the row the engine reads these rules with predicts the positions'
// games (games it was not fitted on, or searched deeper): no fit.
void print_shipped_calibration(const std::string& name, const std::vector<PositionLine>& group,
                               bool hand_made, RulesCache& rules, std::ostream& out) {
    auto edition = rules.get(name);
    if (!edition) throw UsageError{edition.error()};
    const Rules& r = (*edition)->rules;
    const NnueNetPtr net = hand_made ? nullptr : default_net(r);
    const uint64_t hash = net ? net->hash : 0;
    const WinModel& model = win_model_for(r, hash);
    auto samples = win_samples(group, rules);
    if (!samples) throw UsageError{samples.error()};
    std::set<int64_t> games;
    for (const PositionLine& line : group)
        if (line.game) games.insert(*line.game);
    out << "## " << name << "\n\n";
    out << "positions: " << samples->size() << " (" << games.size()
        << " games); no fit: the row shipped for " << win_model_source(r, hash) << "\n";
    out << fmt("log-loss: %.4f\n", win_model_loss(model, *samples));
    print_calibration(out, calibrate(model, *samples), model.draws);
    if (has_depths(*samples)) {
        DepthTallies depths;
        tally_depths(depths, model, *samples);
        print_depths(out, depths);
    }
}

int cmd_wdl(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description options("wdl options");
    options.add_options()("positions", po::value<std::string>(), "positions file")(
        "preset", po::value<std::string>(), "fit only the positions of this rules field")(
        "validation", po::value<double>()->default_value(0.2), "share of games kept out")(
        "folds", po::value<int>()->default_value(0),
        "cross-validation: the calibration of every game, each kept out of the fit of its fold "
        "(2..20); the row is fitted on every game")("seed", po::value<uint64_t>()->default_value(1),
                                                    "seed of the split")(
        "iterations", po::value<int>()->default_value(WinFitOptions{}.iterations),
        "optimiser steps")("threads", po::value<int>()->default_value(default_threads()),
                           "fits run at once (with --folds: the row's and the folds')")(
        "shipped", po::bool_switch(),
        "no fit: the calibration of every position by the row the engine "
        "reads these rules with (its compiled-in net's, where it has one)")(
        "hand-made", po::bool_switch(), "with --shipped: the hand-made evaluation's row");
    po::positional_options_description pos;
    pos.add("positions", 1);
    const po::variables_map vm = parse_subcommand(options, args, pos);
    if (!vm.count("positions")) throw UsageError{"give the positions file"};
    const double share = vm["validation"].as<double>();
    if (!(share > 0 && share < 1))
        throw UsageError{"--validation " + fmt("%g", share) + " is out of range (0 < F < 1)"};
    const int folds = vm["folds"].as<int>();
    if (folds != 0 && (folds < 2 || folds > 20))
        throw UsageError{"--folds " + std::to_string(folds) + " is out of range (2..20)"};
    WinFitOptions fit_options;
    fit_options.iterations = vm["iterations"].as<int>();
    if (fit_options.iterations < 1 || fit_options.iterations > 1000000)
        throw UsageError{"--iterations " + std::to_string(fit_options.iterations) +
                         " is out of range (1..1000000)"};
    const int threads = vm["threads"].as<int>();
    if (threads < 1 || threads > 1024)
        throw UsageError{"--threads " + std::to_string(threads) + " is out of range (1..1024)"};
    if (vm["hand-made"].as<bool>() && !vm["shipped"].as<bool>())
        throw UsageError{"--hand-made goes with --shipped"};
    auto lines = read_positions_file(vm["positions"].as<std::string>());
    if (!lines) throw UsageError{lines.error()};
    std::map<std::string, std::vector<PositionLine>> by_rules;
    for (PositionLine& line : *lines)
        if (!vm.count("preset") || line.rules == vm["preset"].as<std::string>())
            by_rules[line.rules].push_back(std::move(line));
    if (by_rules.empty()) throw UsageError{"no positions to fit"};

    RulesCache rules;
    if (vm["shipped"].as<bool>()) {
        for (const auto& [name, group] : by_rules)
            print_shipped_calibration(name, group, vm["hand-made"].as<bool>(), rules, out);
        return 0;
    }
    const uint64_t seed = vm["seed"].as<uint64_t>();
    for (const auto& [name, group] : by_rules) {
        // The row's fit: every game with --folds, else the games not kept out.
        const std::vector<ValidationSplit> splits =
            folds ? split_folds(group, folds, seed)
                  : std::vector<ValidationSplit>{split_validation(group, share, seed)};
        auto all = win_samples(group, rules);
        if (!all) throw UsageError{all.error()};
        const bool draws = has_draws(*all);
        std::vector<WinSample> fitted_samples;
        if (!folds) {
            auto train = win_samples(splits[0].train, rules);
            if (!train) throw UsageError{train.error()};
            fitted_samples = std::move(*train);
        } else {
            fitted_samples = *all;
        }
        // The kept-out games of each split, and with --folds the fits of the
        // other folds: independent fits, run at once on the threads.
        std::vector<std::vector<WinSample>> held_out(splits.size()),
            fold_train(folds ? splits.size() : 0);
        for (size_t f = 0; f < splits.size(); ++f) {
            auto samples = win_samples(splits[f].validation, rules);
            if (!samples) throw UsageError{samples.error()};
            held_out[f] = std::move(*samples);
            if (folds) {
                auto train = win_samples(splits[f].train, rules);
                if (!train) throw UsageError{train.error()};
                fold_train[f] = std::move(*train);
            }
        }
        err << "wdl: " << name << ": fitting " << fitted_samples.size() << " positions"
            << (folds ? ", and " + std::to_string(folds) + " folds" : std::string()) << "...\n";
        // Fit 0 is the row's; fit f + 1 is fold f's.
        std::vector<WinFitResult> fits(1 + fold_train.size());
        std::atomic<size_t> next{0};
        std::mutex report;
        const std::string& rules_name = name; // a structured binding is not captured
        auto worker = [&] {
            for (size_t i; (i = next++) < fits.size();) {
                fits[i] =
                    fit_win_model(i == 0 ? fitted_samples : fold_train[i - 1], draws, fit_options);
                const std::lock_guard lock(report);
                // The row is ready before the folds' check: say so at once.
                if (i == 0)
                    err << "wdl: " << rules_name
                        << ": row: " << model_row(rules_name, fits[0].model) << "\n";
                else
                    err << "wdl: " << rules_name << ": fold " << i << " of " << folds
                        << " fitted\n";
            }
        };
        std::vector<std::thread> pool;
        for (int t = 1; t < std::min<int>(threads, int(fits.size())); ++t)
            pool.emplace_back(worker);
        worker();
        for (std::thread& t : pool) t.join();
        const WinFitResult& fit = fits[0];

        // The calibration: of the kept-out games, or pooled over the folds.
        std::vector<CalibrationBucket> buckets;
        DepthTallies depths;
        double kept_out_loss = 0;
        size_t kept_out = 0;
        for (size_t f = 0; f < splits.size(); ++f) {
            const WinModel& model = folds ? fits[f + 1].model : fit.model;
            kept_out_loss += win_model_loss(model, held_out[f]) * double(held_out[f].size());
            kept_out += held_out[f].size();
            pool_buckets(buckets, calibrate(model, held_out[f]));
            tally_depths(depths, model, held_out[f]);
        }
        out << "## " << name << "\n\n";
        if (folds)
            out << "positions: " << fitted_samples.size() << " fitted (" << splits[0].games
                << " games); calibration: every position, kept out of its fold's fit (" << folds
                << " folds); draws: " << (draws ? "yes" : "no") << "\n";
        else
            out << "positions: " << fitted_samples.size() << " fitted ("
                << splits[0].games - splits[0].validation_games << " games), " << kept_out
                << " kept out (" << splits[0].validation_games
                << " games); draws: " << (draws ? "yes" : "no") << "\n";
        out << "row: " << model_row(name, fit.model) << "\n";
        out << fmt("log-loss: fitted %.4f, kept out %.4f\n", fit.loss,
                   kept_out ? kept_out_loss / double(kept_out) : 0.0);
        auto edition = rules.get(name);
        if (edition) {
            const Position start(*edition);
            const WinCurve curve(fit.model, stage_of(start));
            out << fmt("at the start: an even game at %+.0f cp raw (attackers' view); raw 0 reads "
                       "%+.0f calibrated for the attackers\n",
                       curve.even(), curve.calibrated(0, ATTACKERS));
        }
        print_calibration(out, buckets, draws);
        if (has_depths(*all)) print_depths(out, depths);
    }
    return 0;
}

// ---- fit -----------------------------------------------------------------

struct FitRun {
    std::vector<PositionLine> lines;
    DefaultSet set{}; // set by each command
    EvalParams start;
    double validation = 0.1, lambda = 0;
    std::optional<double> k; // given (--k); else fitted to the results
    uint64_t seed = 1;
    FitOptions fit;
    bool tty = false;
};

// Splits, traces, fits; returns the rounded weights. Reports on err.
Result<EvalParams> run_fit(const FitRun& r, std::ostream& err) {
    // The validation set: a fixed share of the positions, whole games when
    // the lines name them, chosen by the seed.
    const ValidationSplit parts = split_validation(r.lines, r.validation, r.seed);
    const std::vector<PositionLine>& train_lines = parts.train;
    const std::vector<PositionLine>& val_lines = parts.validation;
    if (train_lines.empty()) return Error{"no training positions left after the validation split"};
    if (parts.by_game)
        err << "fit: validation split by game: " << parts.validation_games << " of " << parts.games
            << " games\n";
    else
        err << "fit: validation split by position (the positions file names no games)\n";
    if (std::count(r.fit.frozen.begin(), r.fit.frozen.end(), true)) {
        std::string names;
        for (int i = 0; i < PARAM_COUNT; ++i)
            if (!r.fit.frozen[i])
                names += (names.empty() ? "" : ", ") + std::string(param_table()[i].name);
        err << "fit: only " << names << " move (--only); every other weight stays at the start\n";
    }

    auto t0 = std::chrono::steady_clock::now();
    RulesCache rules;
    auto train = build_traces(train_lines, rules, r.fit.threads);
    if (!train) return Error{train.error()};
    auto val = build_traces(val_lines, rules, r.fit.threads);
    if (!val) return Error{val.error()};
    const size_t bytes = train->bytes() + val->bytes();
    const double per_position = double(bytes) / double(r.lines.size());
    err << "fit: traces of " << train->size() << " training and " << val->size()
        << " validation positions in " << format_seconds(seconds_since(t0)) << ", "
        << fmt("%.1f MiB (%.0f bytes a position, %.1f non-zero coefficients on average)",
               double(bytes) / (1 << 20), per_position,
               double(train->entries.size() + val->entries.size()) / double(r.lines.size()))
        << "\n";

    const Weights start = to_weights(r.start);
    t0 = std::chrono::steady_clock::now();
    const double k = r.k ? *r.k : fit_k(*train, start, r.fit.threads);
    err << "fit: K = " << fmt("%.6g", k)
        << " (a 100 centi-soldier lead = " << fmt("%.1f%%", 100 * sigmoid(100 * k))
        << " expected score), "
        << (r.k ? std::string("given (--k)") : "fitted in " + format_seconds(seconds_since(t0)))
        << "\n";
    set_targets(*train, k, r.lambda);
    set_targets(*val, k, r.lambda);

    auto losses = [&](const Weights& w) {
        const LossGrad t = loss_and_gradient(*train, w, k, r.fit.threads, false);
        std::string s = fmt("train %.6f", t.loss);
        s += val->size() ? fmt(" validation %.6f", loss(*val, w, k, r.fit.threads))
                         : std::string(" validation -");
        s += " (" + std::to_string(t.clamped) + " training positions at the clamp)";
        return s;
    };
    err << "fit: before: " << losses(start) << "\n";

    if (r.fit.l2 > 0)
        err << "fit: L2 toward the start weights, lambda " << fmt("%g", r.fit.l2)
            << fmt(" (a Gaussian prior of %.3g centi-soldiers on each weight's change)",
                   1 / std::sqrt(2 * r.fit.l2))
            << "\n";

    Progress bar(err, "fit", r.fit.epochs, r.tty);
    t0 = std::chrono::steady_clock::now();
    const FitResult fitted = fit_weights(*train, val->size() ? &*val : nullptr, start, k, r.fit,
                                         [&](int epoch, double tl, double vl) {
                                             std::string note =
                                                 fmt("epoch %.0f train %.6f", epoch, tl);
                                             if (!std::isnan(vl))
                                                 note += fmt(" validation %.6f", vl);
                                             bar.update(epoch, note, !r.tty);
                                         });
    bar.finish("done in " + format_seconds(seconds_since(t0)));
    if (val->size()) {
        err << "fit: " << fitted.epochs_run << " epochs run"
            << (fitted.epochs_run < r.fit.epochs ? " (stopped: " + std::to_string(r.fit.patience) +
                                                       " epochs without a lower validation loss)"
                                                 : std::string())
            << "; kept the weights after epoch " << fitted.best_epoch
            << fmt(" (validation %.6f; start %.6f)", fitted.best_validation,
                   fitted.start_validation)
            << "\n";
        if (fitted.start_kept)
            err << "fit: the rounded weights are no better than the start on validation: "
                   "the start weights are written\n";
    }
    const EvalParams result = fitted.rounded;
    err << "fit: after (rounded): " << losses(to_weights(result)) << "\n";
    return result;
}

int cmd_fit(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool tty) {
    po::options_description options("fit options");
    options.add_options()("positions", po::value<std::string>(),
                          "positions file")("o,o", po::value<std::string>(), "output weight file")(
        "set", po::value<std::string>()->default_value("auto"),
        "default set")("preset", po::value<std::string>(), "only positions of this preset")(
        "start", po::value<std::string>(), "start weights (EvalFile)")(
        "lambda", po::value<double>()->default_value(0.0),
        "share of the engine score")("k", po::value<double>(), "K, given instead of fitted")(
        "validation", po::value<double>()->default_value(0.1), "validation share")(
        "epochs", po::value<int>()->default_value(FitOptions{}.epochs),
        "epochs")("threads", po::value<int>()->default_value(default_threads()),
                  "threads")("seed", po::value<uint64_t>()->default_value(1), "seed of the split")(
        "lr", po::value<double>()->default_value(FitOptions{}.lr), "learning rate")(
        "l2", po::value<double>()->default_value(FitOptions{}.l2),
        "L2 toward the start")("patience", po::value<int>()->default_value(FitOptions{}.patience),
                               "epochs without a lower validation loss before stopping (0: never)")(
        "only", po::value<std::string>(), "fit only these weights (comma-separated names)");
    po::positional_options_description pos;
    pos.add("positions", 1);
    const po::variables_map vm = parse_subcommand(options, args, pos);
    if (!vm.count("positions")) throw UsageError{"give the positions file"};
    if (!vm.count("o")) throw UsageError{"give the output file with -o"};
    FitRun r;
    r.tty = tty;
    r.lambda = vm["lambda"].as<double>();
    if (!(r.lambda >= 0 && r.lambda <= 1))
        throw UsageError{"--lambda " + fmt("%g", r.lambda) + " is out of range (0..1)"};
    if (vm.count("k")) {
        r.k = vm["k"].as<double>();
        if (!(*r.k >= K_MIN && *r.k <= K_MAX))
            throw UsageError{"--k " + fmt("%g", *r.k) + " is out of range (" + fmt("%g", K_MIN) +
                             ".." + fmt("%g", K_MAX) + ")"};
    }
    r.validation = vm["validation"].as<double>();
    if (!(r.validation > 0 && r.validation < 1))
        throw UsageError{"--validation " + fmt("%g", r.validation) +
                         " is out of range (0 < fraction < 1)"};
    r.fit.epochs = vm["epochs"].as<int>();
    if (r.fit.epochs < 1 || r.fit.epochs > 1000000)
        throw UsageError{"--epochs " + std::to_string(r.fit.epochs) +
                         " is out of range (1..1000000)"};
    r.fit.threads = vm["threads"].as<int>();
    if (r.fit.threads < 1 || r.fit.threads > 1024)
        throw UsageError{"--threads " + std::to_string(r.fit.threads) +
                         " is out of range (1..1024)"};
    r.fit.lr = vm["lr"].as<double>();
    if (!(r.fit.lr > 0 && r.fit.lr <= 10000))
        throw UsageError{"--lr " + fmt("%g", r.fit.lr) + " is out of range (0 < lr <= 10000)"};
    r.fit.l2 = vm["l2"].as<double>();
    if (!(r.fit.l2 >= 0 && r.fit.l2 <= 1e6))
        throw UsageError{"--l2 " + fmt("%g", r.fit.l2) + " is out of range (0..1e6)"};
    r.fit.patience = vm["patience"].as<int>();
    if (r.fit.patience < 0 || r.fit.patience > 1000000)
        throw UsageError{"--patience " + std::to_string(r.fit.patience) +
                         " is out of range (0..1000000)"};
    if (vm.count("only")) {
        // Every weight frozen but those named.
        r.fit.frozen.fill(true);
        int named = 0;
        for (std::string_view name : split(vm["only"].as<std::string>(), ',')) {
            if (name.empty()) continue;
            auto id = find_param(name);
            if (!id) throw UsageError{"--only: unknown weight '" + std::string(name) + "'"};
            r.fit.frozen[*id] = false;
            ++named;
        }
        if (!named) throw UsageError{"--only: give one weight name or more"};
    }
    r.seed = vm["seed"].as<uint64_t>();
    const std::string set_name = vm["set"].as<std::string>();
    std::optional<DefaultSet> set;
    if (set_name != "auto") {
        auto s = parse_set(set_name);
        if (!s) throw UsageError{s.error()};
        set = *s;
    }
    std::optional<std::string> preset;
    if (vm.count("preset")) {
        preset = vm["preset"].as<std::string>();
        auto rules = preset_rules(*preset);
        if (!rules) throw UsageError{"--preset: " + rules.error()};
        if (!set) set = default_set_for(*rules);
    }
    const std::string out_path = vm["o"].as<std::string>();
    if (Status st = check_writable(out_path); !st) throw UsageError{st.error()};

    const std::string in_path = vm["positions"].as<std::string>();
    auto lines = read_positions_file(in_path);
    if (!lines) throw UsageError{lines.error()};

    // The default set of each position's rules (the choice evaluate's
    // defaults make); with --set auto the most common one is fitted.
    RulesCache rules;
    std::vector<DefaultSet> sets(lines->size());
    std::vector<int64_t> per_set(all_default_sets().size());
    for (size_t i = 0; i < lines->size(); ++i) {
        auto edition = rules.get((*lines)[i].rules);
        if (!edition)
            throw UsageError{in_path + ": position " + std::to_string(i + 1) + ": " +
                             edition.error()};
        sets[i] = default_set_for((*edition)->rules);
        ++per_set[int(sets[i])];
    }
    if (!set) set = DefaultSet(std::max_element(per_set.begin(), per_set.end()) - per_set.begin());
    r.set = *set;
    int64_t other_preset = 0, other_set = 0;
    for (size_t i = 0; i < lines->size(); ++i) {
        if (preset && (*lines)[i].rules != *preset)
            ++other_preset;
        else if (sets[i] != r.set)
            ++other_set;
        else
            r.lines.push_back((*lines)[i]);
    }
    err << "fit: " << lines->size() << " positions in " << in_path << "; fitting the '"
        << default_set_name(r.set) << "' set on " << r.lines.size() << " (skipped: " << other_set
        << " whose rules use another default set";
    if (preset) err << ", " << other_preset << " of other rules than " << *preset;
    err << ")\n";
    if (r.lines.empty()) throw UsageError{"no positions to fit in " + in_path};

    r.start = default_params(r.set);
    if (vm.count("start")) {
        auto p = load_params_file(vm["start"].as<std::string>(), r.start);
        if (!p) throw UsageError{"--start: " + p.error()};
        r.start = *p;
    }

    auto fitted = run_fit(r, err);
    if (!fitted) throw UsageError{fitted.error()};
    if (Status st = write_file_atomic(out_path, save_params(*fitted)); !st)
        throw UsageError{st.error()};
    err << "fit: wrote " << out_path << "\n";
    // The weights that moved.
    const auto& table = param_table();
    for (int i = 0; i < PARAM_COUNT; ++i)
        if (fitted->w[i] != r.start.w[i])
            out << table[i].name << " " << r.start.w[i] << " -> " << fitted->w[i] << "\n";
    return 0;
}

// ---- defaults ------------------------------------------------------------

#ifndef BRANAN_SOURCE_DIR
#define BRANAN_SOURCE_DIR "."
#endif

int cmd_defaults(const std::vector<std::string>& args, std::ostream&, std::ostream& err) {
    po::options_description options("defaults options");
    options.add_options()("file", po::value<std::string>(),
                          "weight file")("set", po::value<std::string>(), "default set")(
        "dir", po::value<std::string>()->default_value(BRANAN_SOURCE_DIR), "source folder");
    po::positional_options_description pos;
    pos.add("file", 1);
    const po::variables_map vm = parse_subcommand(options, args, pos);
    if (!vm.count("file")) throw UsageError{"give the weight file"};
    if (!vm.count("set")) throw UsageError{"give --set " + default_set_names()};
    auto set = parse_set(vm["set"].as<std::string>());
    if (!set) throw UsageError{set.error()};
    // Every weight must be in the file: a default set is complete.
    auto params = load_params_file(vm["file"].as<std::string>());
    if (!params) throw UsageError{params.error()};
    const std::string target =
        vm["dir"].as<std::string>() + "/eval/weights/" + default_set_name(*set) + ".txt";
    if (Status st = write_file_atomic(target, save_params(*params)); !st)
        throw UsageError{st.error()};
    err << "defaults: wrote " << target << " (rebuild to compile it in; check `branan bench`)\n";
    return 0;
}

// ---- bench-fit -----------------------------------------------------------

int cmd_bench_fit(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                  bool tty) {
    po::options_description options("bench-fit options");
    options.add_options()("count", po::value<int64_t>(), "positions")(
        "preset", po::value<std::string>()->default_value("brandubh"),
        "preset")("threads", po::value<int>()->default_value(default_threads()),
                  "threads")("epochs", po::value<int>()->default_value(FitOptions{}.epochs),
                             "epochs")("seed", po::value<uint64_t>()->default_value(1), "seed");
    po::positional_options_description pos;
    pos.add("count", 1);
    const po::variables_map vm = parse_subcommand(options, args, pos);
    if (!vm.count("count")) throw UsageError{"give the number of positions"};
    const int64_t count = vm["count"].as<int64_t>();
    if (count < 100 || count > 100000000)
        throw UsageError{"N " + std::to_string(count) + " is out of range (100..1e8)"};
    const std::string preset = vm["preset"].as<std::string>();
    auto rules = preset_rules(preset);
    if (!rules) throw UsageError{"--preset: " + rules.error()};
    auto edition = Edition::make(*rules);
    if (!edition) throw UsageError{"--preset: " + edition.error()};
    FitRun r;
    r.tty = tty;
    r.fit.threads = vm["threads"].as<int>();
    r.fit.epochs = vm["epochs"].as<int>();
    if (r.fit.threads < 1 || r.fit.threads > 1024 || r.fit.epochs < 1)
        throw UsageError{"--threads 1..1024 and --epochs >= 1"};
    r.seed = vm["seed"].as<uint64_t>();
    r.set = default_set_for(*rules);
    r.start = default_params(r.set);

    // Random games written as branan-match records and read back by the
    // extractor: the same parsing, replay and filters as real data.
    auto t0 = std::chrono::steady_clock::now();
    std::mt19937_64 rng(r.seed);
    Extractor ex(ExtractOptions{});
    Progress bar(err, "games", count, tty);
    int64_t games = 0;
    while (int64_t(ex.positions().size()) < count) {
        const std::string record = random_game_record(*edition, rng);
        const std::string name = "random game " + std::to_string(++games);
        if (Status st =
                ex.add_record(record, [&](int n) { return name + ":" + std::to_string(n); });
            !st)
            throw UsageError{st.error()};
        bar.update(int64_t(ex.positions().size()));
    }
    bar.finish();
    const double extract_s = seconds_since(t0);
    r.lines.assign(ex.positions().begin(), ex.positions().begin() + count);
    err << "bench-fit: " << ex.stats().summary() << "\n";

    t0 = std::chrono::steady_clock::now();
    auto fitted = run_fit(r, err);
    if (!fitted) throw UsageError{fitted.error()};
    const double fit_s = seconds_since(t0);
    out << "positions " << count << " (" << preset << "), threads " << r.fit.threads << ", epochs "
        << r.fit.epochs << "\n";
    out << fmt("random games and extraction: %.2f s (%.1f us a position)\n", extract_s,
               1e6 * extract_s / double(count));
    out << fmt("traces, K and fit: %.2f s\n", fit_s);
    out << fmt("peak memory (VmHWM): %.0f MiB\n", peak_memory_mib());
    return 0;
}

} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool tty) {
    return run_subcommand(
        "branan-tune", USAGE,
        {{"extract", [&](const auto& rest) { return cmd_extract(rest, out, err); }},
         {"fit", [&](const auto& rest) { return cmd_fit(rest, out, err, tty); }},
         {"defaults", [&](const auto& rest) { return cmd_defaults(rest, out, err); }},
         {"bench-fit", [&](const auto& rest) { return cmd_bench_fit(rest, out, err, tty); }},
         {"wdl", [&](const auto& rest) { return cmd_wdl(rest, out, err); }}},
        args, out, err);
}

} // namespace branan::tune
