// branan-soak: an hour (or N minutes) under fire. Every long-running mode of
// Branan at once, each against a peer that misbehaves at random times (see
// parts.h), with a progress line on stderr every minute and a report at the
// end. Exit status 0 when nothing failed: no illegal move, no time loss, no
// hung or crashed process, no broken answer, and flat memory.
//
//   branan-soak --branan PATH --match PATH --scripted-engine PATH
//               [--minutes N] [--seed S] [--work-dir DIR] [--report FILE]
//               [--parts hnefatafl-org,bologna,match,uci,otep]
//
// tools/soak builds the programs and passes their paths.

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <boost/program_options.hpp>

#include "logging.h"
#include "match/process.h"
#include "parts.h"

namespace po = boost::program_options;
using namespace branan;
using namespace branan::soak;

namespace {

const char* const PART_NAMES[] = {"hnefatafl-org", "bologna", "match", "uci", "otep"};

volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_interrupt(int) {
    interrupted = 1;
}

int usage(const std::string& error, const po::options_description& options) {
    std::cerr << "branan-soak: " << error << "\n" << options << "\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    po::options_description options("branan-soak options");
    options.add_options()("help,h", "print this help")(
        "minutes", po::value<double>()->default_value(60),
        "how long")("seed", po::value<uint64_t>(), "the random seed (default: from the clock)")(
        "branan", po::value<std::string>(),
        "the engine's binary")("match", po::value<std::string>(), "branan-match")(
        "scripted-engine", po::value<std::string>(), "the tests' scripted engine")(
        "work-dir", po::value<std::string>(), "logs and records (default: a new /tmp folder)")(
        "report", po::value<std::string>(), "also write the report as Markdown to this file")(
        "parts", po::value<std::string>()->default_value("hnefatafl-org,bologna,match,uci,otep"),
        "the parts to run, comma-separated");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        return usage(e.what(), options);
    }
    if (vm.count("help")) {
        std::cout << options << "\n";
        return 0;
    }
    for (const char* need : {"branan", "match", "scripted-engine"})
        if (!vm.count(need)) return usage(std::string("--") + need + " is missing", options);
    const double minutes = vm["minutes"].as<double>();
    if (!(minutes > 0 && minutes <= 24 * 60)) return usage("--minutes: 0 to 1440", options);
    std::set<std::string> parts;
    {
        std::istringstream in(vm["parts"].as<std::string>());
        std::string p;
        while (std::getline(in, p, ',')) {
            if (std::find(std::begin(PART_NAMES), std::end(PART_NAMES), p) == std::end(PART_NAMES))
                return usage("--parts: unknown part '" + p + "'", options);
            parts.insert(p);
        }
    }

    SoakContext c;
    c.branan = vm["branan"].as<std::string>();
    c.match = vm["match"].as<std::string>();
    c.scripted_engine = vm["scripted-engine"].as<std::string>();
    for (const std::string* bin : {&c.branan, &c.match, &c.scripted_engine})
        if (!std::filesystem::exists(*bin)) return usage("no such program: " + *bin, options);
    if (vm.count("work-dir")) {
        c.work_dir = vm["work-dir"].as<std::string>();
        std::filesystem::create_directories(c.work_dir);
    } else {
        char dir[] = "/tmp/branan-soak-XXXXXX";
        if (!mkdtemp(dir)) return usage("cannot make a folder in /tmp", options);
        c.work_dir = dir;
    }
    c.seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : std::random_device{}();
    if (Status st = setup_logging(c.work_dir + "/soak.log", "info"); !st.ok())
        return usage(st.error(), options);
    Tally tally;
    std::atomic<bool> stop{false};
    c.tally = &tally;
    c.stop = &stop;
    const auto start = Clock::now();
    c.end = start + std::chrono::milliseconds(int64_t(minutes * 60'000));
    match::ignore_sigpipe();
    // The bots read their password from the environment, never a log.
    setenv("BRANAN_PASSWORD", "soak", 1);
    std::cerr << "soak: " << minutes << " minutes, seed " << c.seed << ", logs in " << c.work_dir
              << "\n";

    // The harness itself (the fake servers, their house player): shown,
    // not judged, as it is not Branan.
    tally.watch("soak (the fake servers)", getpid(), false);
    std::vector<std::thread> threads;
    if (parts.count("hnefatafl-org")) threads.emplace_back([&] { run_hnefatafl_org_part(c); });
    if (parts.count("bologna")) threads.emplace_back([&] { run_bologna_part(c); });
    if (parts.count("match")) threads.emplace_back([&] { run_match_part(c); });
    if (parts.count("uci")) {
        threads.emplace_back([&] { run_uci_part(c, false); });
        threads.emplace_back([&] { run_uci_part(c, true); });
    }
    if (parts.count("otep")) threads.emplace_back([&] { run_otep_part(c); });

    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count() / 60; };
    auto next_minute = start + std::chrono::minutes(1);
    // Ctrl-C or a kill ends the soak early with the report so far.
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    while (Clock::now() < c.end && !interrupted) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (Clock::now() >= next_minute) {
            tally.sample_memory();
            std::cerr << progress_line(tally, elapsed()) << "\n";
            next_minute += std::chrono::minutes(1);
        }
    }
    if (interrupted) std::cerr << "soak: interrupted after " << int(elapsed() * 60) << " seconds\n";
    tally.sample_memory();
    // Each part drops what it was doing (a game, a match, a batch) without
    // counting it and ends.
    stop = true;
    for (std::thread& t : threads) t.join();

    print_report(std::cout, tally, elapsed(), c.seed, false);
    if (vm.count("report")) {
        std::ofstream f(vm["report"].as<std::string>());
        print_report(f, tally, elapsed(), c.seed, true);
    }
    return tally.total_failures() == 0 ? 0 : 1;
}
