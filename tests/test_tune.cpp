// branan-tune (tools/tune): the compiled-in default weights, extraction of
// positions from game records, the traces and the fit, and the command line.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <unistd.h>

#include "atomic_file.h"
#include "default_nets.h"
#include "default_weights.h"
#include "evaluate.h"
#include "test_helpers.h"
#include "text.h"
#include "tune/dataset.h"
#include "tune/extract.h"
#include "tune/fit.h"
#include "tune/penalty.h"
#include "tune/positions.h"
#include "tune/progress.h"
#include "tune/quiet.h"
#include "tune/random_games.h"
#include "tune/split.h"
#include "tune/tune_command_line.h"
#include "tune/win_fit.h"
#include "win_chance.h"

using namespace branan;
using namespace branan::tune;
using namespace branan::testutil;
namespace fs = std::filesystem;

namespace {

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

struct CliRun {
    int status;
    std::string out, err;
};

CliRun run_tune(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int status = tune::run(args, out, err, false);
    return {status, out.str(), err.str()};
}

// A game record as branan-match writes it, from a start TFEN and the moves
// (written with the rules core's move records), with optional scores.
std::string record(const std::string& preset, const std::string& start,
                   const std::vector<std::string>& moves, const std::string& result,
                   const std::vector<std::optional<int>>& scores = {},
                   const std::string& reason = "max-plies") {
    Position pos = tfen(preset, start);
    std::string plies;
    for (size_t i = 0; i < moves.size(); ++i) {
        const Move m = legal(pos, moves[i]);
        plies += std::to_string(i + 1) + (pos.side_to_move() == ATTACKERS ? " a " : " d ") +
                 move_record(pos, m) + " 10ms";
        if (i < scores.size() && scores[i]) plies += " score=" + std::to_string(*scores[i]);
        plies += "\n";
        pos.make_move(m);
    }
    return "# branan-match game record 1\nRun: test\nGame: 1\nRules: " +
           print_rules(edition(preset)->rules) + "\nVariant: " + preset + "\nStart: " + start +
           "\nResult: " + result + "\nReason: " + reason +
           "\nPlies: " + std::to_string(moves.size()) + "\nFinal: " + to_tfen(pos) + "\n\n" + plies;
}

auto where(const std::string& name) {
    return [name](int n) { return name + ":" + std::to_string(n); };
}

// `count` positions taken along games of uniformly random moves (every
// position of each game until it ends or `max_plies`), undecided ones only.
std::vector<Position> random_positions(const EditionPtr& edition, std::mt19937_64& rng,
                                       size_t count, int max_plies = 120) {
    std::vector<Position> out;
    out.reserve(count);
    while (out.size() < count) {
        Position pos(edition);
        for (int ply = 0; ply < max_plies && out.size() < count; ++ply) {
            if (pos.result().over()) break;
            Position copy = pos;
            copy.clear_history();
            out.push_back(std::move(copy));
            MoveList moves;
            generate_moves(pos, moves);
            pos.make_move(
                moves.moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
        }
    }
    return out;
}

// Random positions of a preset as a trace set, each labelled with
// sigmoid(k * eval) of the weights `truth` (a soft label).
TraceSet labelled_set(const std::string& preset, size_t n, uint64_t seed, const EvalParams& truth,
                      double k) {
    std::mt19937_64 rng(seed);
    TraceSet set;
    for (const Position& pos : random_positions(edition(preset), rng, n)) {
        const EvalTrace t = trace(pos);
        const double e = (pos.side_to_move() == ATTACKERS ? 1 : -1) * evaluate(pos, truth);
        REQUIRE(set.add(t, sigmoid(k * e), std::nullopt));
    }
    return set;
}

} // namespace

TEST_CASE("tune: the compiled-in defaults are the weight files", "[tune]") {
    for (DefaultSet set : all_default_sets()) {
        const std::string path =
            std::string(BRANAN_SOURCE_DIR) + "/eval/weights/" + default_set_name(set) + ".txt";
        INFO(path);
        const std::string text = read_file(path);
        REQUIRE_FALSE(text.empty());
        // Built from the file as it is now (CMake re-configures on a change).
        CHECK(embedded_weights(set) == text);
        // It parses (a file that does not would stop every program at start).
        auto parsed = load_params(text);
        INFO((parsed ? std::string("ok") : parsed.error()));
        REQUIRE(parsed.ok());
        CHECK(*parsed == default_params(set));
        // The files are exactly what save_params (and so the tuner) writes.
        CHECK(save_params(*parsed) == text);
        for (int i = 0; i < PARAM_COUNT; ++i)
            CHECK(parsed->w[i] == param_table()[i].default_in(set));
    }
    // Spot checks against the files: the sets differ where they should.
    const EvalParams corner = default_params("corner");
    const EvalParams weak = default_params("corner_weak");
    const EvalParams edge = default_params("edge");
    const EvalParams large = default_params("corner_large");
    CHECK(corner != weak);
    CHECK(corner != edge);
    CHECK(weak != edge);
    CHECK(corner[FORT_KING_ON_EDGE] == 0);
    CHECK(large[FORT_KING_ON_EDGE] == 37);
}

// The hand-set Brandubh weights from before the first tuning round: a fixed
// vector for the fitting tests (the shipped defaults move with tuning).
EvalParams reference_weights() {
    auto p =
        load_params_file(std::string(BRANAN_SOURCE_DIR) + "/tests/data/tune/reference-weights.txt");
    REQUIRE(p.ok());
    return *p;
}

TEST_CASE("tune: classify finds decided, won-in-one and capture positions", "[tune]") {
    Position start = tfen("brandubh", BRANDUBH_START);
    CHECK(classify(start) == PositionKind::QUIET);
    CHECK(to_tfen(start) == BRANDUBH_START); // left as it was
    // a4-c4 captures c3 against c2.
    Position capture = tfen("brandubh", "7/7/7/t2K3/2T4/2t4/7 a 0 1");
    CHECK(classify(capture) == PositionKind::CAPTURE);
    // The king on a4, defenders to move: a7 and a1 are open.
    Position escape = tfen("brandubh", "7/7/7/K6/7/7/3t3 d 0 1");
    CHECK(classify(escape) == PositionKind::WIN_IN_ONE);
    // ... attackers to move: they cannot stop both, but nothing ends this move.
    Position threat = tfen("brandubh", "7/7/7/K6/7/7/3t3 a 0 1");
    CHECK(classify(threat) == PositionKind::QUIET);
    // House Brandubh: no attackers left is a defenders' win.
    Position decided = tfen("brandubh-house", "7/7/7/3K3/3T3/7/7 a 0 1");
    CHECK(classify(decided) == PositionKind::DECIDED);
}

TEST_CASE("tune: extraction writes exactly the quiet positions of a record", "[tune]") {
    const std::string text = record("brandubh", BRANDUBH_START, {"d7-c7", "d5-e5", "c7-c6"},
                                    "attackers", {30, 20, std::nullopt});
    Position pos = tfen("brandubh", BRANDUBH_START);
    play(pos, "d7-c7");
    const std::string after1 = to_tfen(pos);
    play(pos, "d5-e5");
    const std::string after2 = to_tfen(pos);
    {
        Extractor ex(ExtractOptions{0});
        REQUIRE(ex.add_record(text, where("g")).ok());
        const std::string out = format_positions(ex.positions());
        // Scores are turned to the attackers' view: the defenders' +20 is -20.
        CHECK(out == std::string(POSITIONS_HEADER) +
                         "\n# TFEN <tab> rules <tab> result for the attackers [<tab> score=CP, "
                         "attackers' view [<tab> depth=D]] [<tab> game=N]\n"
                         "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1\tbrandubh\t1\tscore=30\tgame=1\n" +
                         after1 + "\tbrandubh\t1\tscore=-20\tgame=1\n" + after2 +
                         "\tbrandubh\t1\tgame=1\n");
        CHECK(ex.stats().kept == 3);
        CHECK(ex.stats().plies == 3);
    }
    {
        // A score's depth, where the record has one, goes with it.
        std::string deep = text;
        const size_t at = deep.find(" score=20");
        REQUIRE(at != std::string::npos);
        deep.insert(at + 9, " depth=6");
        Extractor ex(ExtractOptions{0});
        REQUIRE(ex.add_record(deep, where("g")).ok());
        REQUIRE(ex.positions().size() == 3);
        CHECK_FALSE(ex.positions()[0].depth);
        CHECK(ex.positions()[1].score == -20);
        CHECK(ex.positions()[1].depth == 6);
        CHECK_FALSE(ex.positions()[2].depth);
    }
    {
        // The opening filter: the first two plies are skipped.
        Extractor ex(ExtractOptions{2});
        REQUIRE(ex.add_record(text, where("g")).ok());
        REQUIRE(ex.positions().size() == 1);
        CHECK(ex.positions()[0] == PositionLine{after2, "brandubh", 1, std::nullopt, 1});
        CHECK(ex.stats().opening == 2);
    }
    {
        // Duplicates: the same game again, and a draw from the same start
        // (same placements with other counters count as the same).
        Extractor ex(ExtractOptions{0});
        REQUIRE(ex.add_record(text, where("g1")).ok());
        REQUIRE(ex.add_record(text, where("g2")).ok());
        REQUIRE(ex.add_record(record("brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 5 9", {"d7-c7"},
                                     "draw"),
                              where("g3"))
                    .ok());
        CHECK(ex.positions().size() == 3);
        CHECK(ex.stats().duplicates == 4);    // 3 of g2, the start of g3
        CHECK(ex.positions()[0].result == 1); // the first occurrence is kept
        // Each kept position names its game: the three so far are g1's, game
        // 1 of those read; a new position of the fourth game is game 4.
        CHECK(ex.positions()[0].game == 1);
        CHECK(ex.positions()[2].game == 1);
        REQUIRE(ex.add_record(record("brandubh", BRANDUBH_START, {"d7-e7", "d5-e5"}, "defenders"),
                              where("g4"))
                    .ok());
        REQUIRE(ex.positions().size() == 4);
        CHECK(ex.positions()[3].game == 4);
        CHECK(ex.stats().games == 4);
    }
    {
        // Capture, win in one, forfeit.
        Extractor ex(ExtractOptions{0});
        REQUIRE(
            ex.add_record(record("brandubh", "7/7/7/t2K3/2T4/2t4/7 a 0 1", {"a4-c4"}, "attackers"),
                          where("capture"))
                .ok());
        REQUIRE(ex.add_record(record("brandubh", "7/7/7/K6/7/7/3t3 d 0 1", {"a4-a7"}, "defenders",
                                     {}, "king-escaped"),
                              where("escape"))
                    .ok());
        REQUIRE(ex.add_record(record("brandubh", BRANDUBH_START, {"d7-c7"}, "defenders", {},
                                     "illegal-move"),
                              where("forfeit"))
                    .ok());
        CHECK(ex.positions().empty());
        CHECK(ex.stats().capture == 1);
        CHECK(ex.stats().win_in_one == 1);
        CHECK(ex.stats().forfeits == 1);
        CHECK(ex.stats().games == 3);
    }
    {
        // Decided games only: the draw is left out, whole, and counted.
        const std::string draw = record("brandubh", BRANDUBH_START, {"d7-e7", "d5-e5"}, "draw");
        ExtractOptions decided{0};
        decided.decided_only = true;
        Extractor ex(decided);
        REQUIRE(ex.add_record(draw, where("draw")).ok());
        REQUIRE(ex.add_record(text, where("won")).ok());
        CHECK(ex.stats().draws == 1);
        CHECK(ex.stats().games == 2);
        REQUIRE(ex.positions().size() == 3);
        for (const PositionLine& p : ex.positions()) CHECK(p.result == 1);
        CHECK(ex.stats().summary().find("1 draws skipped") != std::string::npos);
        // By default the draw counts as half a point.
        Extractor all(ExtractOptions{0});
        REQUIRE(all.add_record(draw, where("draw")).ok());
        CHECK(all.stats().draws == 0);
        REQUIRE_FALSE(all.positions().empty());
        CHECK(all.positions()[0].result == 0.5);
    }
    {
        // Rules that are no preset are written in full.
        const std::string rules = print_rules(edition("brandubh")->rules);
        std::string custom = text;
        const std::string changed = rules.substr(0, rules.find("nocap:0")) + "nocap:200" +
                                    rules.substr(rules.find("nocap:0") + 7);
        custom.replace(custom.find(rules), rules.size(), changed);
        Extractor ex(ExtractOptions{0});
        REQUIRE(ex.add_record(custom, where("g")).ok());
        REQUIRE(ex.positions().size() == 3);
        CHECK(ex.positions()[0].rules == changed);
        RulesCache cache;
        CHECK(cache.get(changed).ok());
    }
}

TEST_CASE("tune: records that do not replay are refused with their line", "[tune]") {
    const std::string good = record("brandubh", BRANDUBH_START, {"d7-c7", "d5-e5"}, "draw");
    // The ply lines start after the header (17 lines here with the blank one).
    const auto lines = split(good, '\n');
    int first_ply = 0;
    while (!lines[first_ply].empty()) ++first_ply;
    first_ply += 2; // 1-based line of ply 1
    auto error_of = [](const std::string& text) {
        Extractor ex(ExtractOptions{0});
        Status st = ex.add_record(text, where("game-00007.txt"));
        if (!st) CHECK(ex.positions().empty()); // nothing of a bad record is kept
        return st.ok() ? std::string("ok") : st.error();
    };
    auto replace = [&](std::string from, std::string to) {
        std::string t = good;
        REQUIRE(t.find(from) != std::string::npos);
        t.replace(t.find(from), from.size(), to);
        return t;
    };
    const std::string ply2 = "game-00007.txt:" + std::to_string(first_ply + 1) + ":";
    CHECK(error_of(replace("2 d d5-e5", "2 d d5-d7")).find(ply2) == 0); // illegal
    CHECK(error_of(replace("2 d d5-e5", "2 d d5-e5xe6")).find("by the rules") !=
          std::string::npos); // a capture that did not happen
    CHECK(error_of(replace("2 d d5-e5", "2 a d5-e5")).find(ply2) == 0); // wrong side
    CHECK(error_of(replace("2 d d5-e5", "3 d d5-e5")).find(ply2) == 0); // numbering
    CHECK(error_of(replace("2 d d5-e5 10ms", "2 d d5-e5 10ms score=x")).find(ply2) == 0);
    CHECK(error_of(replace("2 d d5-e5 10ms", "2 d")).find(ply2) == 0);
    CHECK(error_of(replace("Rules: ", "Rulez: ")).find("no 'Rules:'") != std::string::npos);
    CHECK(error_of(replace("Result: draw", "Result: maybe")).find("result must be") !=
          std::string::npos);
    CHECK(error_of(replace("Plies: 2", "Plies: 3")).find("Plies") != std::string::npos);
    CHECK(error_of(replace("Final: ", "Final: 7/")).find("Final") != std::string::npos);
    CHECK(error_of(replace("Start: 3t3", "Start: 3t4")).find("game-00007.txt:") == 0);
    CHECK(error_of(good) == "ok");
}

TEST_CASE("tune: extraction reads game folders, summaries and merged summaries alike", "[tune]") {
    const std::string data = std::string(BRANAN_SOURCE_DIR) + "/tests/data/tune";
    Extractor folders(ExtractOptions{});
    REQUIRE(folders.add_path(data + "/brandubh").ok());
    REQUIRE(folders.add_path(data + "/tablut").ok());
    CHECK(folders.stats().games == 8);
    CHECK_FALSE(folders.positions().empty());

    Extractor summaries(ExtractOptions{});
    REQUIRE(summaries.add_path(data + "/brandubh/summary.jsonl").ok());
    REQUIRE(summaries.add_path(data + "/tablut/summary.jsonl").ok());
    CHECK(summaries.positions() == folders.positions());

    // A merged summary beside the match folders (as `branan-match merge`
    // writes it: the lines of both, record names relative to each match).
    TempDir dir("merged");
    fs::copy(data, dir.path, fs::copy_options::recursive);
    write_file(dir / "all.jsonl", read_file(data + "/brandubh/summary.jsonl") +
                                      read_file(data + "/tablut/summary.jsonl"));
    Extractor merged(ExtractOptions{});
    Status st = merged.add_path(dir / "all.jsonl");
    INFO(st.error());
    REQUIRE(st.ok());
    CHECK(merged.positions() == folders.positions());

    // A summary line whose record cannot be found.
    write_file(dir / "bad.jsonl",
               "{\"run\":\"nope\",\"game\":3,\"engine1\":\"a\",\"engine2\":\"b\","
               "\"score1\":1,\"record\":\"game-00003.txt\"}\n");
    Extractor bad(ExtractOptions{});
    st = bad.add_path(dir / "bad.jsonl");
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().find("bad.jsonl:1") != std::string::npos);
    CHECK(st.error().find("no game record") != std::string::npos);
    // The same run's records twice under the folder: which one is meant?
    fs::copy(data + "/brandubh", dir / "copy", fs::copy_options::recursive);
    st = Extractor(ExtractOptions{}).add_path(dir / "all.jsonl");
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().find("two game records") != std::string::npos);
    write_file(dir / "bad2.jsonl", "{\"run\":\"x\",\n");
    CHECK_FALSE(Extractor(ExtractOptions{}).add_path(dir / "bad2.jsonl").ok());

    // Summary lines are read by match/record.h: escapes undone, numbers read.
    auto fields = match::parse_json_line(
        R"({"run":"x\ty\"z","game":12 ,"engine1":"line\nnext","engine2":"b","score1":0.5})");
    REQUIRE(fields.ok());
    CHECK(fields->run == "x\ty\"z");
    CHECK(fields->game == 12);
    CHECK(fields->engine1 == "line\nnext");
}

TEST_CASE("tune: positions lines round trip and bad lines are refused", "[tune]") {
    const PositionLine p{BRANDUBH_START, "brandubh", 0.5, -42, std::nullopt};
    auto back = parse_position_line(format_position_line(p));
    REQUIRE(back.ok());
    CHECK(*back == p);
    const PositionLine q{BRANDUBH_START, "tablut", 0, std::nullopt, std::nullopt};
    CHECK(*parse_position_line(format_position_line(q)) == q);
    CHECK_FALSE(parse_position_line(BRANDUBH_START).ok());
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t2").ok());
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tscore=abc").ok());
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\t\t1").ok());
    // game=N, after the score or alone; once, and 1 or more.
    const PositionLine g{BRANDUBH_START, "brandubh", 1, 7, 12};
    CHECK(format_position_line(g) == BRANDUBH_START + "\tbrandubh\t1\tscore=7\tgame=12");
    CHECK(*parse_position_line(format_position_line(g)) == g);
    const PositionLine h{BRANDUBH_START, "brandubh", 0, std::nullopt, 3};
    CHECK(*parse_position_line(format_position_line(h)) == h);
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tgame=0").ok());
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tgame=x").ok());
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tgame=1\tscore=3").ok());
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tgame=1\tgame=2").ok());
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tply=4").ok());
    // depth=D, right after the score only; 1 or more.
    PositionLine d{BRANDUBH_START, "brandubh", 1, 7, 12};
    d.depth = 9;
    CHECK(format_position_line(d) == BRANDUBH_START + "\tbrandubh\t1\tscore=7\tdepth=9\tgame=12");
    CHECK(*parse_position_line(format_position_line(d)) == d);
    d.game.reset();
    CHECK(*parse_position_line(format_position_line(d)) == d);
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tdepth=9").ok());
    CHECK_FALSE(parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tscore=7\tdepth=0").ok());
    CHECK_FALSE(
        parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tscore=7\tgame=1\tdepth=9").ok());
    CHECK_FALSE(
        parse_position_line(BRANDUBH_START + "\tbrandubh\t1\tscore=7\tdepth=9\tdepth=9").ok());
}

TEST_CASE("tune: the validation split keeps each game on one side", "[tune]") {
    // 40 games of 1 to 9 positions each.
    std::vector<PositionLine> lines;
    for (int64_t g = 1; g <= 40; ++g)
        for (int64_t i = 0; i <= g % 9; ++i)
            lines.push_back({BRANDUBH_START, "brandubh", g % 2 ? 1.0 : 0.0, int(i), g});
    const ValidationSplit split = split_validation(lines, 0.25, 5);
    REQUIRE(split.by_game);
    CHECK(split.games == 40);
    CHECK(split.train.size() + split.validation.size() == lines.size());
    std::set<int64_t> train_games, val_games;
    for (const auto& p : split.train) train_games.insert(*p.game);
    for (const auto& p : split.validation) val_games.insert(*p.game);
    CHECK(int64_t(val_games.size()) == split.validation_games);
    for (int64_t g : val_games) CHECK(train_games.count(g) == 0);
    // About the share: the last game taken overshoots by less than a game.
    const double target = 0.25 * double(lines.size());
    CHECK(double(split.validation.size()) >= target);
    CHECK(double(split.validation.size()) < target + 9);
    // The seed decides; the same seed gives the same split.
    CHECK(split_validation(lines, 0.25, 5).validation == split.validation);
    CHECK(split_validation(lines, 0.25, 6).validation != split.validation);

    // A file that does not name every game is split by position.
    lines[3].game.reset();
    const ValidationSplit loose = split_validation(lines, 0.25, 5);
    CHECK_FALSE(loose.by_game);
    CHECK(loose.validation.size() == size_t(std::llround(0.25 * double(lines.size()))));
    CHECK(loose.train.size() + loose.validation.size() == lines.size());
}

TEST_CASE("tune: the folds of a cross-validation keep out every game once", "[tune]") {
    std::vector<PositionLine> lines;
    for (int64_t g = 1; g <= 23; ++g)
        for (int64_t i = 0; i <= g % 5; ++i)
            lines.push_back({BRANDUBH_START, "brandubh", g % 2 ? 1.0 : 0.0, int(i), g});
    const std::vector<ValidationSplit> folds = split_folds(lines, 5, 3);
    REQUIRE(folds.size() == 5);
    std::map<int64_t, int> kept_out; // game -> the folds that keep it out
    size_t held = 0;
    int64_t games_out = 0;
    for (const ValidationSplit& f : folds) {
        CHECK(f.by_game);
        CHECK(f.games == 23);
        CHECK(f.train.size() + f.validation.size() == lines.size());
        std::set<int64_t> train_games, val_games;
        for (const auto& p : f.train) train_games.insert(*p.game);
        for (const auto& p : f.validation) val_games.insert(*p.game);
        CHECK(int64_t(val_games.size()) == f.validation_games);
        for (int64_t g : val_games) {
            CHECK(train_games.count(g) == 0);
            ++kept_out[g];
        }
        held += f.validation.size();
        games_out += f.validation_games;
        CHECK((f.validation_games == 4 || f.validation_games == 5));
    }
    CHECK(held == lines.size());
    CHECK(games_out == 23);
    CHECK(kept_out.size() == 23);
    for (const auto& [game, times] : kept_out) CHECK(times == 1);
    CHECK(split_folds(lines, 5, 3)[2].validation == folds[2].validation);
    CHECK(split_folds(lines, 5, 4)[2].validation != folds[2].validation);
}

TEST_CASE("tune: stored coefficients give the evaluation from the attackers' view", "[tune]") {
    std::mt19937_64 rng(11);
    for (const char* preset : EDITIONS) {
        const EvalParams params = default_params(edition(preset)->rules);
        const Weights w = to_weights(params);
        TraceSet set;
        const std::vector<Position> positions = random_positions(edition(preset), rng, 300);
        for (const Position& pos : positions) REQUIRE(set.add(trace(pos), 1, std::nullopt));
        int defenders_to_move = 0;
        for (size_t i = 0; i < positions.size(); ++i) {
            const Position& pos = positions[i];
            const int sign = pos.side_to_move() == ATTACKERS ? 1 : -1;
            defenders_to_move += sign < 0;
            const double raw = set.raw_eval(i, w);
            const double clamped = std::clamp(raw, -double(VALUE_EVAL_MAX), double(VALUE_EVAL_MAX));
            INFO(preset << " " << to_tfen(pos));
            CHECK(clamped == sign * evaluate(pos, params));
        }
        CHECK(defenders_to_move > 50);
        // A position good for the defenders (a free line, attackers to move)
        // is negative here, whoever is to move.
    }
    Position p = tfen("brandubh", "7/7/7/K6/7/7/3t3 a 0 1");
    TraceSet one;
    REQUIRE(one.add(trace(p), 0, 100));
    CHECK(one.raw_eval(0, to_weights(default_params("corner"))) < -1000);
    p = tfen("brandubh", "7/7/7/K6/7/7/3t3 d 0 1");
    REQUIRE(one.add(trace(p), 0, std::nullopt));
    CHECK(one.raw_eval(1, to_weights(default_params("corner"))) < -1000);
    // The target mixes the result and the score's probability (attackers'
    // view); without a score it is the result.
    set_targets(one, 0.01, 0.25);
    CHECK(one.target[0] == Approx(0.75 * 0 + 0.25 * sigmoid(1.0)));
    CHECK(one.target[1] == 0);
}

TEST_CASE("tune: the gradient equals finite differences", "[tune]") {
    const EvalParams truth = default_params("corner");
    TraceSet set = labelled_set("brandubh", 400, 5, truth, 0.004);
    // Targets away from the model (random results), so the gradient is not 0.
    std::mt19937_64 rng(9);
    for (float& t : set.target) t = float(std::uniform_int_distribution<int>(0, 2)(rng)) / 2;
    Weights w = to_weights(truth);
    for (int i = 0; i < PARAM_COUNT; ++i) w[i] += 0.37 * (i % 5) - 0.5;
    const double k = 0.004;
    const LossGrad lg = loss_and_gradient(set, w, k, 2, true);
    CHECK(lg.clamped == 0);
    const auto usage = set.usage();
    int checked = 0;
    for (int i = 0; i < PARAM_COUNT; ++i) {
        const double h = 1e-3;
        Weights a = w, b = w;
        a[i] += h;
        b[i] -= h;
        const double fd = (loss(set, a, k, 1) - loss(set, b, k, 1)) / (2 * h);
        INFO(param_table()[i].name << " analytic " << lg.grad[i] << " numeric " << fd);
        CHECK(lg.grad[i] == Approx(fd).epsilon(1e-5).margin(1e-10));
        checked += usage[i] > 0 && std::abs(fd) > 1e-7;
    }
    CHECK(checked >= 15);
    // One thread or two: the same sums.
    const LossGrad one = loss_and_gradient(set, w, k, 1, true);
    CHECK(one.loss == Approx(lg.loss).epsilon(1e-12));

    // With the L2 penalty toward a start: the objective's gradient against
    // central differences of the objective, every weight (the unused ones
    // have the penalty's gradient only).
    Weights start = to_weights(truth);
    for (int i = 0; i < PARAM_COUNT; ++i) start[i] += 3.0 * (i % 3) - 2.5;
    const L2Penalty penalty{2.0, start, set.size()};
    auto objective_value = [&](const Weights& x) { return loss(set, x, k, 1) + penalty.value(x); };
    const LossGrad og = objective(set, w, k, 2, penalty);
    CHECK(og.loss == Approx(objective_value(w)).epsilon(1e-12));
    CHECK(penalty.value(w) > 0.01 * lg.loss); // large enough to be seen
    int penalised = 0;
    for (int i = 0; i < PARAM_COUNT; ++i) {
        const double h = 1e-3;
        Weights a = w, b = w;
        a[i] += h;
        b[i] -= h;
        const double fd = (objective_value(a) - objective_value(b)) / (2 * h);
        INFO(param_table()[i].name << " analytic " << og.grad[i] << " numeric " << fd);
        CHECK(og.grad[i] == Approx(fd).epsilon(1e-5).margin(1e-10));
        // The penalty's part: 2 lambda / N (w - start).
        const double part = og.grad[i] - lg.grad[i];
        CHECK(part == Approx(2 * 2.0 / 400 * (w[i] - start[i])).epsilon(1e-9).margin(1e-12));
        penalised += std::abs(part) > 1e-4;
    }
    CHECK(penalised >= PARAM_COUNT / 2);
    // lambda 0 is the cross-entropy alone.
    const LossGrad plain = objective(set, w, k, 2, L2Penalty{0, start, set.size()});
    CHECK(plain.loss == lg.loss);
    CHECK(plain.grad == lg.grad);
}

TEST_CASE("tune: regularisation and early stopping on a small noisy set", "[tune]") {
    // 300 training positions labelled with a coin toss of sigmoid(K * eval)
    // of weights near the start: a fit of 33 weights to so few noisy results
    // overfits. The validation set (4000 positions, soft labels, the
    // expected loss) measures it.
    EvalParams truth = default_params("corner");
    for (int i = 0; i < PARAM_COUNT; ++i) truth.w[i] += (i % 2 ? 3 : -3);
    const double k = 0.005;
    TraceSet train = labelled_set("brandubh", 300, 31, truth, k);
    std::mt19937_64 rng(17);
    for (size_t i = 0; i < train.size(); ++i) {
        const float coin = std::bernoulli_distribution(train.result[i])(rng) ? 1 : 0;
        train.result[i] = train.target[i] = coin;
    }
    const TraceSet validation = labelled_set("brandubh", 4000, 32, truth, k);
    const Weights start = to_weights(default_params("corner"));
    FitOptions options;
    options.epochs = 400;
    options.threads = 2;
    auto validation_loss = [&](const Weights& w) { return loss(validation, w, k, 2); };
    const double at_start = validation_loss(start);

    // Unregularised, every epoch: worse than the start on validation.
    const FitResult plain = fit_weights(train, nullptr, start, k, options, nullptr);
    const double plain_loss = validation_loss(plain.weights);
    CHECK(plain.epochs_run == options.epochs);
    CHECK(plain_loss > at_start + 0.01);

    // L2 (a prior of 10 centi-soldiers): better than unregularised on
    // validation, and no worse than the start by more than 0.002.
    options.l2 = 0.005;
    const FitResult l2 = fit_weights(train, nullptr, start, k, options, nullptr);
    const double l2_loss = validation_loss(l2.weights);
    INFO("validation: start " << at_start << " unregularised " << plain_loss << " l2 " << l2_loss);
    CHECK(l2_loss < plain_loss - 0.005);
    CHECK(l2_loss < at_start + 0.002);
    // A strong prior (lambda 5: 0.3 centi-soldiers) keeps every weight within
    // 3 centi-soldiers of the start.
    options.l2 = 5;
    const FitResult strong = fit_weights(train, nullptr, start, k, options, nullptr);
    for (int i = 0; i < PARAM_COUNT; ++i) {
        INFO(param_table()[i].name << " start " << start[i] << " fitted " << strong.weights[i]);
        CHECK(std::abs(strong.weights[i] - start[i]) <= 3);
    }

    // Early stopping, unregularised: the best epoch by validation loss is
    // kept, the fit stops 30 epochs after it, and the rounded weights are
    // no worse than the start on validation.
    options.l2 = 0;
    options.patience = 30;
    const FitResult early = fit_weights(train, &validation, start, k, options, nullptr);
    INFO("best epoch " << early.best_epoch << " of " << early.epochs_run << ", validation "
                       << early.best_validation << " rounded " << early.rounded_validation);
    CHECK(early.epochs_run < options.epochs);
    CHECK(early.epochs_run == early.best_epoch + options.patience);
    CHECK(early.start_validation == Approx(at_start).epsilon(1e-12));
    CHECK(early.best_validation == Approx(validation_loss(early.weights)).epsilon(1e-12));
    CHECK(early.best_validation <= at_start);
    CHECK(early.rounded_validation <= at_start);
    CHECK(early.rounded_validation ==
          Approx(validation_loss(to_weights(early.rounded))).epsilon(1e-12));
    CHECK(validation_loss(to_weights(early.rounded)) < plain_loss);
    // Without patience the same path runs on: its best is the same or later
    // and lower.
    options.patience = 0;
    const FitResult full = fit_weights(train, &validation, start, k, options, nullptr);
    CHECK(full.epochs_run == options.epochs);
    CHECK(full.best_epoch >= early.best_epoch);
    CHECK(full.best_validation <= early.best_validation);

    // When nothing beats the start on validation, the start is returned:
    // validation labels made with the start weights, so that the start is
    // their optimum.
    const TraceSet start_labels = labelled_set("brandubh", 2000, 33, default_params("corner"), k);
    const FitResult kept = fit_weights(train, &start_labels, start, k, options, nullptr);
    CHECK(kept.best_epoch == 0);
    CHECK(kept.start_kept);
    CHECK(kept.rounded == default_params("corner"));
    CHECK(kept.rounded_validation == kept.start_validation);
}

TEST_CASE("tune: clamped positions are constants", "[tune]") {
    // One position whose evaluation is past the clamp with these weights.
    TraceSet set;
    EvalTrace t;
    t.coef[ESCAPE_ROUTE_TO_MOVE][DEFENDERS] = 6; // 6 x 4000 > 20000 for the defenders
    t.coef[KING_MOBILITY][DEFENDERS] = 3;
    REQUIRE(set.add(t, 1, std::nullopt)); // yet the attackers won
    Weights w = to_weights(default_params("corner"));
    const double k = 0.003;
    const LossGrad lg = loss_and_gradient(set, w, k, 1, true);
    CHECK(lg.clamped == 1);
    for (double g : lg.grad) CHECK(g == 0);
    // The loss is that of the clamp value, and a small change of a weight
    // does not move it.
    CHECK(lg.loss == Approx(std::log1p(std::exp(k * VALUE_EVAL_MAX))));
    Weights w2 = w;
    w2[KING_MOBILITY] += 5;
    CHECK(loss(set, w2, k, 1) == lg.loss);
    // Under the clamp the gradient is back.
    w[ESCAPE_ROUTE_TO_MOVE] = 1000;
    const LossGrad free = loss_and_gradient(set, w, k, 1, true);
    CHECK(free.clamped == 0);
    CHECK(free.grad[ESCAPE_ROUTE_TO_MOVE] > 0); // raising it lowers the attackers' eval further
}

TEST_CASE("tune: frozen weights stay at the start, the free ones move", "[tune]") {
    EvalParams truth = reference_weights();
    truth[KING_MOBILITY] += 20;
    TraceSet set = labelled_set("brandubh", 2000, 8, truth, 0.005);
    FitOptions options;
    options.epochs = 300;
    options.threads = 2;
    options.frozen.fill(true);
    options.frozen[KING_MOBILITY] = false;
    const Weights start = to_weights(reference_weights());
    const Weights w = fit_weights(set, nullptr, start, 0.005, options, nullptr).weights;
    for (int i = 0; i < PARAM_COUNT; ++i)
        if (i != KING_MOBILITY) CHECK(w[i] == start[i]);
    // The free weight finds the truth (every other weight is right).
    CHECK(w[KING_MOBILITY] == Approx(truth[KING_MOBILITY]).margin(2));
}

TEST_CASE("tune: K is found again from labels made with it", "[tune]") {
    const EvalParams truth = default_params("corner");
    TraceSet set = labelled_set("brandubh", 3000, 3, truth, 0.006);
    // fit_k fits to `result`: the soft labels are the results here.
    CHECK(fit_k(set, to_weights(truth), 2) == Approx(0.006).epsilon(0.01));
}

TEST_CASE("tune: the fit recovers the weights that made the labels", "[tune]") {
    // Positions of random Brandubh games labelled with sigmoid(K * eval) of
    // known weights; the fit starts from the reference weights, 10 to 40 %
    // away on every weight.
    EvalParams truth = reference_weights();
    // The edge-fort and shieldwall weights (0 here) count nothing in Brandubh;
    // the king's room and the lone king's mobility (0 here, 11x11 weights)
    // are left as they are.
    const int changes[] = {30, -20, 4,  3, 0, 0, 0, 20, 10, 5,   15, 0, -10, 5,  20, 0, 4, 2,  0, 6,
                           5,  -10, 10, 6, 0, 0, 0, 0,  8,  -10, 5,  0, -12, 10, 0,  0, 1, -1, -6};
    static_assert(std::size(changes) == PARAM_COUNT);
    for (int i = 0; i < PARAM_COUNT; ++i) truth.w[i] += changes[i];
    const double k = 0.005;
    TraceSet train = labelled_set("brandubh", 10000, 21, truth, k);
    const EvalParams start = reference_weights();
    FitOptions options;
    options.epochs = 1500;
    options.lr = 10.0;
    options.threads = 2;
    const Weights fitted =
        fit_weights(train, nullptr, to_weights(start), k, options, nullptr).weights;
    const auto usage = train.usage();
    // The loss reaches that of the truth (the labels' own entropy).
    CHECK(loss(train, fitted, k, 2) == Approx(loss(train, to_weights(truth), k, 2)).epsilon(1e-4));
    // Every weight that at least 2 % of the positions exercise is found
    // within 2 centi-soldiers (or 10 %); the rare ones may stay put (random
    // games seldom make escape forks or capture threats).
    int recovered = 0;
    for (int i = 0; i < PARAM_COUNT; ++i) {
        const double share = double(usage[i]) / double(train.size());
        INFO(param_table()[i].name << ": truth " << truth.w[i] << " start " << start.w[i]
                                   << " fitted " << fitted[i] << " used in " << 100 * share
                                   << " %");
        if (share < 0.02) continue;
        CHECK(std::abs(fitted[i] - truth.w[i]) <= std::max(2.0, 0.1 * std::abs(truth.w[i])));
        ++recovered;
    }
    CHECK(recovered >= 20);
}

TEST_CASE("tune: extract and fit from the command line", "[tune]") {
    const std::string data = std::string(BRANAN_SOURCE_DIR) + "/tests/data/tune";
    TempDir dir("cli");
    const std::string positions = dir / "positions.txt";
    CliRun r = run_tune(
        {"extract", data + "/brandubh", data + "/tablut", "-o", positions, "--skip-opening", "0"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    auto lines = read_positions_file(positions);
    REQUIRE(lines.ok());
    CHECK(lines->size() >= 10);
    for (const PositionLine& p : *lines) CHECK(p.game.has_value());
    // One of the Tablut games is a draw: --decided-only leaves it out.
    const std::string decided = dir / "decided.txt";
    CliRun d = run_tune({"extract", data + "/tablut", "-o", decided, "--decided-only"});
    INFO(d.err);
    REQUIRE(d.status == 0);
    CHECK(d.err.find("1 draws skipped") != std::string::npos);
    auto decided_lines = read_positions_file(decided);
    REQUIRE(decided_lines.ok());
    REQUIRE_FALSE(decided_lines->empty());
    for (const PositionLine& p : *decided_lines) CHECK(p.result != 0.5);

    // With game numbers the split is by game: 3 Tablut games, 1 held out.
    const std::string weights = dir / "weights.txt";
    r = run_tune({"fit", positions, "-o", weights, "--epochs", "2", "--validation", "0.2"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("validation split by game: 1 of 3 games") != std::string::npos);

    // The fits below split by position (the same lines without game
    // numbers): with 3 games a held-out game decides too much for a test.
    for (PositionLine& p : *lines) p.game.reset();
    write_file(positions, format_positions(*lines));

    // Fit the Tablut positions (edge set); the Brandubh ones are skipped.
    r = run_tune({"fit", positions, "-o", weights, "--epochs", "20", "--threads", "2", "--lambda",
                  "0.5", "--validation", "0.2"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("validation split by position") != std::string::npos);
    CHECK(r.err.find("fitting the 'edge' set") != std::string::npos);
    CHECK(r.err.find("whose rules use another default set") != std::string::npos);
    CHECK(r.err.find("before: train") != std::string::npos);
    CHECK(r.err.find("after (rounded): train") != std::string::npos);
    CHECK(r.err.find("epoch 20 train") != std::string::npos);
    CHECK(r.err.find('\r') == std::string::npos); // not a terminal: plain lines
    // The output is a complete EvalFile in save_params form.
    auto fitted = load_params_file(weights);
    INFO((fitted ? std::string("ok") : fitted.error()));
    REQUIRE(fitted.ok());
    CHECK(read_file(weights) == save_params(*fitted));
    // Only the weights the data exercises can move; one of them did.
    CHECK(*fitted != default_params("edge"));
    CHECK((*fitted)[ESCAPE_ROUTE_TO_MOVE] == default_params("edge")[ESCAPE_ROUTE_TO_MOVE]);

    // The same seed gives the same weights; --preset picks the positions.
    const std::string again = dir / "again.txt";
    r = run_tune({"fit", positions, "-o", again, "--epochs", "20", "--threads", "1", "--lambda",
                  "0.5", "--validation", "0.2", "--preset", "tablut"});
    REQUIRE(r.status == 0);
    CHECK(read_file(again) == read_file(weights));
    CHECK(r.err.find("of other rules than tablut") != std::string::npos);

    // --l2 and --patience: reported; the written weights are those of the
    // best epoch, no worse than the start on validation.
    r = run_tune({"fit", positions, "-o", again, "--epochs", "50", "--threads", "1", "--l2",
                  "0.005", "--patience", "5", "--validation", "0.3"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("L2 toward the start weights, lambda 0.005 (a Gaussian prior of 10 "
                     "centi-soldiers") != std::string::npos);
    CHECK(r.err.find("kept the weights after epoch") != std::string::npos);

    // --start: a partial EvalFile over the defaults.
    write_file(dir / "start.txt", "king_mobility = 7\n");
    r = run_tune({"fit", positions, "-o", again, "--epochs", "1", "--start", dir / "start.txt",
                  "--set", "corner"});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.err.find("fitting the 'corner' set") != std::string::npos);

    // --only: the named weights may move; every other stays at the start.
    r = run_tune({"fit", positions, "-o", again, "--epochs", "50", "--validation", "0.2",
                  "--lambda", "0.5", "--only", "attacker_mobility,defender_mobility"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("fit: only attacker_mobility, defender_mobility move") != std::string::npos);
    auto only = load_params_file(again);
    REQUIRE(only.ok());
    for (int i = 0; i < PARAM_COUNT; ++i)
        if (i != ATTACKER_MOBILITY && i != DEFENDER_MOBILITY)
            CHECK((*only)[ParamId(i)] == default_params("edge")[ParamId(i)]);

    // --k: K given, not fitted. The same fit as `weights` above but for K
    // (the thread count does not change a fit) moves the weights otherwise.
    r = run_tune({"fit", positions, "-o", again, "--epochs", "20", "--threads", "1", "--lambda",
                  "0.5", "--validation", "0.2", "--k", "0.002"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("fit: K = 0.002 (a 100 centi-soldier lead = 55.0% expected score), given "
                     "(--k)") != std::string::npos);
    CHECK(read_file(again) != read_file(weights));

    // Progress on a terminal rewrites one line.
    std::ostringstream tty;
    Progress bar(tty, "x", 10, true);
    bar.update(5, "", true);
    bar.finish();
    CHECK(tty.str().find('\r') != std::string::npos);
}

TEST_CASE("tune: wdl --shipped reads the positions with the row the engine uses", "[tune]") {
    const std::string data = std::string(BRANAN_SOURCE_DIR) + "/tests/data/tune";
    TempDir dir("wdl-shipped");
    const std::string positions = dir / "positions.txt";
    CliRun r = run_tune({"extract", data + "/brandubh", data + "/tablut", "-o", positions,
                         "--skip-opening", "0", "--every-position"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    auto lines = read_positions_file(positions);
    REQUIRE(lines.ok());
    std::vector<PositionLine> tablut;
    for (const PositionLine& p : *lines)
        if (p.rules == "tablut") tablut.push_back(p);
    tune::RulesCache cache;
    auto samples = tune::win_samples(tablut, cache);
    REQUIRE(samples.ok());
    REQUIRE(samples->size() >= 20);
    // These records say no depth; a line's depth goes with its score.
    CHECK((*samples)[0].depth == 0);
    PositionLine deep = *std::find_if(tablut.begin(), tablut.end(),
                                      [](const PositionLine& p) { return p.score.has_value(); });
    deep.depth = 12;
    auto deep_sample = tune::win_samples({deep}, cache);
    REQUIRE(deep_sample.ok());
    REQUIRE(deep_sample->size() == 1);
    CHECK((*deep_sample)[0].depth == 12);
    // No fit: the log-loss is the compiled-in row's on every position,
    // which for Tablut is its shipped net's.
    const NnueNetPtr tablut_net = default_net(edition("tablut")->rules);
    REQUIRE(tablut_net);
    const double loss =
        tune::win_model_loss(win_model_for(edition("tablut")->rules, tablut_net->hash), *samples);
    REQUIRE(loss != tune::win_model_loss(win_model_for(edition("tablut")->rules), *samples));

    r = run_tune({"wdl", positions, "--shipped"});
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("no fit: the row shipped for tablut (its net)\n") != std::string::npos);
    char expected[40];
    std::snprintf(expected, sizeof expected, "log-loss: %.4f\n", loss);
    CHECK(r.out.find(expected) != std::string::npos);
    CHECK(r.out.find("row: ") == std::string::npos);
    // Brandubh's default evaluation is its net, and so is its row; the
    // hand-made evaluation's on request.
    CHECK(r.out.find("no fit: the row shipped for brandubh (its net)\n") != std::string::npos);
    r = run_tune({"wdl", positions, "--shipped", "--hand-made", "--preset", "brandubh"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("no fit: the row shipped for brandubh\n") != std::string::npos);
    CHECK(r.out.find("## tablut") == std::string::npos);

    r = run_tune({"wdl", positions, "--hand-made"});
    CHECK(r.status == 2);
    CHECK(r.err.find("--hand-made goes with --shipped") != std::string::npos);
}

TEST_CASE("tune: wdl --folds prints the same on one thread as on several", "[tune]") {
    const std::string data = std::string(BRANAN_SOURCE_DIR) + "/tests/data/tune";
    TempDir dir("wdl-threads");
    const std::string positions = dir / "positions.txt";
    REQUIRE(run_tune({"extract", data + "/tablut", "-o", positions, "--skip-opening", "0",
                      "--every-position"})
                .status == 0);
    const CliRun one =
        run_tune({"wdl", positions, "--folds", "3", "--iterations", "50", "--threads", "1"});
    const CliRun four =
        run_tune({"wdl", positions, "--folds", "3", "--iterations", "50", "--threads", "4"});
    INFO(one.err << four.err);
    REQUIRE(one.status == 0);
    REQUIRE(four.status == 0);
    CHECK(one.out.find("3 folds") != std::string::npos);
    CHECK(one.out == four.out);
    // The row is said on the error stream as soon as it is fitted, before the check.
    const size_t row = one.out.find("row: ");
    REQUIRE(row != std::string::npos);
    const std::string row_line = one.out.substr(row, one.out.find('\n', row) - row);
    CHECK(four.err.find(row_line) != std::string::npos);
    CHECK(four.err.find("fold 3 of 3 fitted") != std::string::npos);

    const CliRun none = run_tune({"wdl", positions, "--threads", "0"});
    CHECK(none.status == 2);
    CHECK(none.err.find("--threads 0 is out of range") != std::string::npos);
}

TEST_CASE("tune: bad input exits 2 naming what, and writes nothing", "[tune]") {
    const std::string data = std::string(BRANAN_SOURCE_DIR) + "/tests/data/tune";
    TempDir dir("errors");
    const std::string positions = dir / "positions.txt";
    REQUIRE(
        run_tune({"extract", data + "/tablut", "-o", positions, "--skip-opening", "0"}).status ==
        0);
    const std::string out = dir / "out.txt";
    auto fails = [&](const std::vector<std::string>& args, const std::string& says) {
        const CliRun r = run_tune(args);
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(r.err.find(says) != std::string::npos);
        CHECK_FALSE(fs::exists(out));
    };
    // The command line.
    fails({}, "Usage");
    fails({"nonsense"}, "unknown command 'nonsense'");
    fails({"fit", positions, "-o", out, "--no-such-option"}, "no-such-option");
    fails({"fit", positions}, "-o");
    fails({"extract", "-o", out}, "folders or files");
    // --validation out of range (0 < v < 1), and the other numbers.
    for (const char* v : {"0", "1", "1.5", "-0.1"})
        fails({"fit", positions, "-o", out, "--validation", v}, "--validation");
    fails({"fit", positions, "-o", out, "--validation", "x"}, "validation");
    fails({"fit", positions, "-o", out, "--lambda", "2"}, "--lambda");
    fails({"fit", positions, "-o", out, "--epochs", "0"}, "--epochs");
    fails({"fit", positions, "-o", out, "--threads", "0"}, "--threads");
    fails({"fit", positions, "-o", out, "--lr", "0"}, "--lr");
    fails({"fit", positions, "-o", out, "--l2", "-1"}, "--l2");
    fails({"fit", positions, "-o", out, "--l2", "nan"}, "--l2");
    fails({"fit", positions, "-o", out, "--patience", "-1"}, "--patience");
    for (const char* k : {"0", "0.5", "-0.01", "nan"})
        fails({"fit", positions, "-o", out, "--k", k},
              "--k " + std::string(k) + " is out of range");
    fails({"fit", positions, "-o", out, "--k", "x"}, "k");
    fails({"fit", positions, "-o", out, "--only", "king_mobility,no_such_weight"},
          "--only: unknown weight 'no_such_weight'");
    fails({"fit", positions, "-o", out, "--only", ","}, "--only");
    fails({"fit", positions, "-o", out, "--set", "middle"}, "unknown default set 'middle'");
    // Unknown presets.
    fails({"fit", positions, "-o", out, "--preset", "chess"}, "unknown preset 'chess'");
    fails({"bench-fit", "1000", "--preset", "chess"}, "unknown preset 'chess'");
    write_file(dir / "unknown-rules.txt", BRANDUBH_START + "\tchess\t1\n");
    fails({"fit", dir / "unknown-rules.txt", "-o", out}, "unknown preset 'chess'");
    // An EvalFile with an unknown weight as --start.
    write_file(dir / "start.txt", "king_mobility = 7\nqueen_power = 3\n");
    fails({"fit", positions, "-o", out, "--start", dir / "start.txt"},
          "line 2: unknown evaluation weight 'queen_power'");
    // An empty data set, and one with nothing of the preset asked for.
    write_file(dir / "empty.txt", std::string(POSITIONS_HEADER) + "\n");
    fails({"fit", dir / "empty.txt", "-o", out}, "no positions to fit");
    fails({"fit", positions, "-o", out, "--preset", "brandubh"}, "no positions to fit");
    // A malformed positions file names its line.
    write_file(dir / "bad.txt", std::string(POSITIONS_HEADER) + "\n" + BRANDUBH_START +
                                    "\tbrandubh\t1\n" + BRANDUBH_START + "\tbrandubh\n");
    fails({"fit", dir / "bad.txt", "-o", out}, "bad.txt:3:");
    fails({"fit", dir / "missing.txt", "-o", out}, "missing.txt");
    // An output path that cannot be written.
    fails({"fit", positions, "-o", dir / "no/such/folder/w.txt"}, "cannot write");
    fails({"fit", positions, "-o", dir.path.string()}, "it is a folder");
    fails({"extract", data + "/tablut", "-o", dir / "no/such/w.txt"}, "cannot write");
    // Records: malformed, not replaying, missing.
    fs::create_directories(dir / "games");
    write_file(dir / "games/game-00001.txt",
               record("brandubh", BRANDUBH_START, {"d7-c7", "d5-e5"}, "draw"));
    std::string broken = record("brandubh", BRANDUBH_START, {"d7-c7", "d5-e5"}, "draw");
    broken.replace(broken.find("2 d d5-e5"), 9, "2 d d5-d7");
    write_file(dir / "games/game-00002.txt", broken);
    fails({"extract", dir / "games", "-o", out}, "game-00002.txt:");
    fails({"extract", dir / "games", "-o", out}, "move 'd5-d7'");
    fails({"extract", dir / "nothing-here", "-o", out}, "no such file or folder");
    fs::create_directories(dir / "empty-folder");
    fails({"extract", dir / "empty-folder", "-o", out}, "no game records");
    fs::remove(dir / "games/game-00002.txt");
    fails({"extract", dir / "games", "-o", out, "--skip-opening", "50"}, "no positions to write");
    fails({"extract", dir / "games", "-o", out, "--skip-opening", "-1"}, "--skip-opening");
    CHECK(run_tune({"extract", dir / "games", "-o", out, "--skip-opening", "0"}).status == 0);
    CHECK(fs::exists(out));
}

TEST_CASE("tune: defaults installs a validated weight file", "[tune]") {
    TempDir dir("defaults");
    fs::create_directories(dir / "eval/weights");
    const std::string target = dir / "eval/weights/edge.txt";
    write_file(target, "old\n");
    EvalParams p = default_params("edge");
    p[KING_MOBILITY] = 9;
    write_file(dir / "tuned.txt", save_params(p));
    // A partial file is no default set; a bad set name; a missing file.
    write_file(dir / "partial.txt", "king_mobility = 9\n");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"defaults", dir / "partial.txt", "--set", "edge", "--dir", dir.path.string()},
             {"defaults", dir / "tuned.txt", "--set", "edges", "--dir", dir.path.string()},
             {"defaults", dir / "missing.txt", "--set", "edge", "--dir", dir.path.string()},
             {"defaults", dir / "tuned.txt", "--dir", dir.path.string()}}) {
        const CliRun r = run_tune(args);
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(read_file(target) == "old\n");
    }
    const CliRun r =
        run_tune({"defaults", dir / "tuned.txt", "--set", "edge", "--dir", dir.path.string()});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(read_file(target) == save_params(p));
    // No temporary file is left beside it.
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir / "eval/weights"))
        files += bool(e.path().filename().string().size());
    CHECK(files == 1);
}

TEST_CASE("tune: atomic writes replace the file whole or leave it", "[tune]") {
    TempDir dir("atomic");
    const std::string path = dir / "f.txt";
    REQUIRE(write_file_atomic(path, "one\n").ok());
    CHECK(read_file(path) == "one\n");
    REQUIRE(write_file_atomic(path, "two\n").ok());
    CHECK(read_file(path) == "two\n");
    CHECK_FALSE(write_file_atomic(dir / "none/f.txt", "x").ok());
    CHECK_FALSE(check_writable("").ok());
}
