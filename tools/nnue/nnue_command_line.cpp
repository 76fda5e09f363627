#include "nnue_command_line.h"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "generate.h"
#include "nnue.h"
#include "nnue_net.h"
#include "rules.h"
#include "training_data.h"
#include "tune/progress.h"
#include "tune/subcommand.h"

namespace branan::nnue {

namespace {

namespace po = boost::program_options;
using tune::parse_subcommand;
using tune::UsageError;

const char* const USAGE =
    "usage: branan-nnue COMMAND ...\n"
    "  gen --preset NAME -o FILE [--games N] [--nodes N | --depth D] [--threads T] [--seed S]\n"
    "      [--book FILE] [--random-plies K] [--max-plies N] [--hash MB]\n"
    "      [--eval-file FILE | --hand-made]\n"
    "      training positions by self-play, appended to FILE; run again to resume\n"
    "  info FILE\n"
    "      what a training data file holds\n"
    "  eval NET DATA [--count N]\n"
    "      the net's evaluation (engine's integers) of the data file's first N positions\n";

int cmd_gen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool tty) {
    GenerateSpec spec;
    int64_t nodes = int64_t(spec.nodes);
    po::options_description options("gen options");
    options.add_options()("preset", po::value(&spec.preset)->required(),
                          "edition")("o,o", po::value<std::string>()->required(), "data file")(
        "games", po::value(&spec.games)->default_value(spec.games),
        "games")("nodes", po::value(&nodes), "nodes a move")("depth", po::value(&spec.depth),
                                                             "depth a move")(
        "threads", po::value(&spec.threads)->default_value(spec.threads),
        "games at once")("seed", po::value(&spec.seed)->default_value(spec.seed),
                         "seed")("book", po::value(&spec.book), "openings, one line of moves each")(
        "random-plies", po::value(&spec.random_plies)->default_value(spec.random_plies),
        "random plies after the opening, 0 to K")(
        "max-plies", po::value(&spec.max_plies)->default_value(spec.max_plies),
        "plies after the opening before a draw")(
        "hash", po::value(&spec.hash_mb)->default_value(spec.hash_mb), "table MiB per thread")(
        "eval-file", po::value(&spec.eval_file), "a net or weight file to search with")(
        "hand-made", po::bool_switch(&spec.hand_made), "the hand-made evaluation, not a net");
    const po::variables_map vm = parse_subcommand(options, args, {});
    if (vm.count("depth") && !vm.count("nodes")) nodes = 0;
    if (nodes < 0) throw UsageError{"--nodes must not be negative"};
    spec.nodes = uint64_t(nodes);
    if (spec.depth < 0 || spec.depth > 64) throw UsageError{"--depth must be 1 to 64"};
    if (spec.threads < 1 || spec.threads > 1024) throw UsageError{"--threads must be 1 to 1024"};
    if (spec.random_plies < 0 || spec.random_plies > 100)
        throw UsageError{"--random-plies must be 0 to 100"};
    if (spec.max_plies < 1 || spec.max_plies > 10000)
        throw UsageError{"--max-plies must be 1 to 10000"};
    if (spec.hash_mb < 1 || spec.hash_mb > 65536) throw UsageError{"--hash must be 1 to 65536"};
    const std::string path = vm["o"].as<std::string>();
    std::mutex mutex;
    std::optional<tune::Progress> live;
    auto report = generate(spec, path, [&](int64_t done, int64_t total, uint64_t positions) {
        std::lock_guard lock(mutex);
        if (!live) live.emplace(err, "gen", total, tty);
        live->update(done, std::to_string(positions) + " positions");
    });
    if (!report) throw UsageError{report.error()};
    if (live) live->finish();
    out << "games played " << report->games_played << ", already in the file "
        << report->games_skipped << "; positions written " << report->positions_written
        << ", in the file " << report->positions_in_file << "\n";
    return 0;
}

int cmd_info(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    if (args.size() != 1) throw UsageError{"give one data file"};
    std::set<uint32_t> games;
    uint64_t results[3] = {}, attackers = 0;
    double sum = 0, sum_sq = 0;
    auto scan = scan_data_file(args[0], [&](const TrainingPosition& p) {
        games.insert(p.game);
        ++results[p.result + 1];
        attackers += p.side_to_move == ATTACKERS;
        sum += p.score;
        sum_sq += double(p.score) * p.score;
    });
    if (!scan) throw UsageError{scan.error()};
    const DataHeader& h = scan->header;
    const double n = double(std::max<uint64_t>(1, scan->positions));
    const double mean = sum / n;
    char line[200];
    out << "board: " << h.size << "x" << h.size
        << (h.symmetric ? ", the eight symmetries keep the rules" : ", not symmetric") << "\n";
    out << "rules: " << h.rules << "\n";
    out << "spec: " << h.spec << "\n";
    out << "positions: " << scan->positions << " from " << games.size() << " games\n";
    std::snprintf(line, sizeof line,
                  "side to move: attackers %.1f %%; result for it: win %.1f %%, draw %.1f %%, "
                  "loss %.1f %%\n",
                  100 * attackers / n, 100 * results[2] / n, 100 * results[1] / n,
                  100 * results[0] / n);
    out << line;
    std::snprintf(line, sizeof line, "score: mean %.1f, deviation %.1f centi-soldiers\n", mean,
                  std::sqrt(std::max(0.0, sum_sq / n - mean * mean)));
    out << line;
    if (scan->partial_bytes)
        out << "a record cut short at the end: " << scan->partial_bytes
            << " bytes (gen drops it when it resumes)\n";
    return 0;
}

int cmd_eval(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    std::vector<std::string> files;
    int64_t count = 256;
    po::options_description options("eval options");
    options.add_options()("files", po::value(&files), "net and data")(
        "count", po::value(&count)->default_value(count), "positions");
    po::positional_options_description positional;
    positional.add("files", -1);
    parse_subcommand(options, args, positional);
    if (files.size() != 2) throw UsageError{"give a net file and a data file"};
    if (count < 1) throw UsageError{"--count must be at least 1"};
    auto net = read_nnue_file(files[0]);
    if (!net) throw UsageError{net.error()};
    auto header = read_data_header(files[1]);
    if (!header) throw UsageError{header.error()};
    auto rules = parse_rules(header->rules);
    if (!rules) throw UsageError{files[1] + ": its rules: " + rules.error()};
    auto made = Edition::make(*rules);
    if (!made) throw UsageError{files[1] + ": its rules: " + made.error()};
    const EditionPtr edition = *made;
    if (Status st = nnue_fits(**net, *edition); !st) throw UsageError{files[0] + ": " + st.error()};
    int64_t index = 0;
    std::string error;
    auto scan = scan_data_file(files[1], [&](const TrainingPosition& p) {
        if (index >= count || !error.empty()) return;
        Placement board{};
        std::copy_n(p.pieces.begin(), edition->size * edition->size, board.begin());
        auto pos = Position::from_placement(edition, board, p.side_to_move, 0, 1);
        if (!pos) {
            error = "position " + std::to_string(index) + ": " + pos.error();
            return;
        }
        out << index++ << " " << nnue_evaluate(**net, *pos) << "\n";
    });
    if (!scan) throw UsageError{scan.error()};
    if (!error.empty()) throw UsageError{files[1] + ": " + error};
    return 0;
}

} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool tty) {
    return tune::run_subcommand(
        "branan-nnue", USAGE,
        {{"gen", [&](const auto& rest) { return cmd_gen(rest, out, err, tty); }},
         {"info", [&](const auto& rest) { return cmd_info(rest, out, err); }},
         {"eval", [&](const auto& rest) { return cmd_eval(rest, out, err); }}},
        args, out, err);
}

} // namespace branan::nnue
