// branan-bologna-server: the fake Bologna Tablut Challenge server
// (server.h) for a local game: listens on 127.0.0.1, plays one game of
// Ashton Tablut between the two players that connect, writes the game log
// and exits.

#include <fstream>
#include <iostream>
#include <string>

#include <boost/program_options.hpp>

#include "bologna/bologna_server.h"

namespace po = boost::program_options;

int main(int argc, char* argv[]) {
    po::options_description options("branan-bologna-server options");
    options.add_options()("help,h", "print this help and exit")(
        "time,t", po::value<int>()->default_value(60), "seconds per move (and per name)")(
        "cache,c", po::value<int>()->default_value(-1),
        "repetition window (-1 = every position since the last capture)")(
        "errors,e", po::value<int>()->default_value(0), "illegal moves a player may make")(
        "white-port", po::value<int>()->default_value(5800), "white's port (0 = any free port)")(
        "black-port", po::value<int>()->default_value(5801), "black's port (0 = any free port)")(
        "jar-2020", "as the 2020 Server.jar: no final state after a losing illegal move")(
        "start", po::value<std::string>(), "start from this position (TFEN; tests)")(
        "log-file", po::value<std::string>(), "write the game log here (default: stderr)");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "branan-bologna-server: error: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "Usage: branan-bologna-server [options]\n\n" << options;
        return 0;
    }
    branan::bologna::ServerOptions o;
    o.time_s = vm["time"].as<int>();
    o.cache = vm["cache"].as<int>();
    o.errors = std::max(0, vm["errors"].as<int>());
    o.white_port = vm["white-port"].as<int>();
    o.black_port = vm["black-port"].as<int>();
    o.jar_2020 = vm.count("jar-2020") > 0;
    if (vm.count("start")) o.start = vm["start"].as<std::string>();
    if (o.time_s < 1 || o.cache < -1 || o.white_port < 0 || o.white_port > 65535 ||
        o.black_port < 0 || o.black_port > 65535) {
        std::cerr << "branan-bologna-server: error: -t must be >= 1, -c >= -1, ports 0..65535\n";
        return 2;
    }
    std::ofstream file;
    std::ostream* log = &std::cerr;
    if (vm.count("log-file")) {
        file.open(vm["log-file"].as<std::string>());
        if (!file) {
            std::cerr << "branan-bologna-server: error: cannot write "
                      << vm["log-file"].as<std::string>() << "\n";
            return 1;
        }
        log = &file;
    }
    branan::bologna::Server server;
    if (branan::Status st = server.open(o, log); !st) {
        std::cerr << "branan-bologna-server: error: " << st.error() << "\n";
        return 1;
    }
    std::cout << "listening on 127.0.0.1: white " << server.white_port() << ", black "
              << server.black_port() << std::endl;
    const branan::bologna::GameReport report = server.run();
    std::cout << "result " << (report.result.empty() ? "none" : report.result) << " ("
              << report.reason << "), " << report.plies() << " plies" << std::endl;
    return report.result.empty() ? 1 : 0;
}
