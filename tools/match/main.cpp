// branan-match: plays matches between tafl engines (see cli.h, match.h),
// and merges or plots their summaries.

#include <algorithm>
#include <csignal>
#include <fstream>
#include <iostream>
#include <set>
#include <unistd.h>

#include "match.h"
#include "match_command_line.h"
#include "plot.h"
#include "printer.h"
#include "workers.h"

using namespace branan;
using namespace branan::match;

namespace {

void on_signal(int) {
    interrupt_matches();
}

// Pulls "-o FILE" out of the arguments.
std::string take_output(std::vector<std::string>& args) {
    std::string out;
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "-o" || args[i] == "-out") {
            out = args[i + 1];
            args.erase(args.begin() + long(i), args.begin() + long(i) + 2);
            break;
        }
    return out;
}

int merge(std::vector<std::string> args) {
    std::string out_path = take_output(args);
    std::optional<SprtParams> sprt;
    if (Status st = take_sprt(args, sprt); !st) {
        std::cerr << "branan-match merge: " << st.error() << "\n" << usage();
        return 2;
    }
    if (args.empty()) {
        std::cerr << "branan-match merge: give one or more summary files\n" << usage();
        return 2;
    }
    std::vector<GameSummary> all;
    std::set<std::pair<std::string, int64_t>> seen;
    size_t duplicates = 0;
    for (const std::string& path : args) {
        auto games = read_summary(path);
        if (!games) {
            std::cerr << "branan-match merge: " << games.error() << "\n";
            return EXIT_BAD_INPUT;
        }
        for (GameSummary& g : *games) {
            if (!seen.insert({g.run, g.game}).second) {
                ++duplicates;
                continue;
            }
            all.push_back(std::move(g));
        }
    }
    std::ofstream file;
    std::ostream* out = &std::cout;
    if (!out_path.empty()) {
        file.open(out_path);
        if (!file) {
            std::cerr << "branan-match merge: cannot write '" << out_path << "'\n";
            return EXIT_FAILURE_AT_RUN_TIME;
        }
        out = &file;
    }
    for (const GameSummary& g : all) *out << to_json_line(g) << "\n";
    out->flush();
    std::vector<std::string> names;
    bool penta = false;
    for (const GameSummary& g : all) penta = penta || g.pair >= 0;
    for (const GameSummary& g : all)
        for (const std::string& n : {g.engine1, g.engine2})
            if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    auto pairs = tally(all, names);
    std::cerr << "merged " << all.size() << " games from " << args.size() << " files";
    if (duplicates) std::cerr << " (" << duplicates << " duplicate lines dropped)";
    std::cerr << "\n";
    print_tables(std::cerr, pairs, names, penta, sprt);
    return 0;
}

int plot(std::vector<std::string> args) {
    std::string out_path = take_output(args);
    if (args.size() != 1) {
        std::cerr << "branan-match plot: give one summary file\n" << usage();
        return 2;
    }
    if (out_path.empty()) {
        out_path = args[0];
        auto dot = out_path.rfind(".jsonl");
        if (dot != std::string::npos) out_path.erase(dot);
        out_path += ".svg";
    }
    auto games = read_summary(args[0]);
    std::string error, svg;
    if (!games) error = games.error();
    if (!games) {
        std::cerr << "branan-match plot: " << error << "\n";
        return EXIT_BAD_INPUT;
    }
    // A summary that holds nothing to draw (one side only, say) was read
    // fine: the plot fails, not the input.
    if (!plot_svg(*games, svg, error)) {
        std::cerr << "branan-match plot: " << error << "\n";
        return EXIT_FAILURE_AT_RUN_TIME;
    }
    std::ofstream file(out_path);
    file << svg;
    if (!file) {
        std::cerr << "branan-match plot: cannot write '" << out_path << "'\n";
        return EXIT_FAILURE_AT_RUN_TIME;
    }
    std::cout << "wrote " << out_path << "\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-help" || args[0] == "--help" || args[0] == "-h") {
        std::cout << usage();
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "merge") return merge({args.begin() + 1, args.end()});
    if (args[0] == "plot") return plot({args.begin() + 1, args.end()});

    MatchConfig config;
    Status s = parse_command_line(args, config);
    if (s) s = prepare(config);
    if (!s) {
        std::cerr << "branan-match: " << s.error() << "\n" << usage();
        return 2;
    }
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    MatchResult r = run_match(config, std::cout, isatty(STDOUT_FILENO));
    if (!r.ok) {
        std::cerr << "branan-match: " << r.error << "\n";
        return 1;
    }
    return r.interrupted ? 130 : 0;
}
