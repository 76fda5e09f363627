// branan-hnefatafl-org-server: the fake hnefatafl.org server (server.h) for
// local games: listens on 127.0.0.1, lets the accounts log in, and has its
// house player (Branan's engine at a fixed depth) challenge and play every
// game created; writes every line to the log until stopped (Ctrl-C) or
// --seconds have passed.

#include <fstream>
#include <iostream>
#include <string>

#include <boost/program_options.hpp>

#include "hnefatafl_org/hnefatafl_org_server.h"

namespace po = boost::program_options;

int main(int argc, char* argv[]) {
    po::options_description options("branan-hnefatafl-org-server options");
    options.add_options()("help,h", "print this help and exit")(
        "port", po::value<int>()->default_value(49152), "port on 127.0.0.1 (0 = any free port)")(
        "user", po::value<std::string>()->default_value("branan"), "the account to serve")(
        "password", po::value<std::string>()->default_value("secret"), "its password (a test one)")(
        "house-depth", po::value<int>()->default_value(3), "the house player's search depth")(
        "seconds", po::value<int>()->default_value(0), "stop after this long (0 = never)")(
        "log-file", po::value<std::string>(), "write the log here (default: stderr)");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "branan-hnefatafl-org-server: error: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "Usage: branan-hnefatafl-org-server [options]\n\n" << options;
        return 0;
    }
    branan::org::ServerOptions o;
    o.port = vm["port"].as<int>();
    o.accounts = {{vm["user"].as<std::string>(), vm["password"].as<std::string>()},
                  {"rival", "rival"}};
    o.house_depth = vm["house-depth"].as<int>();
    std::ofstream file;
    std::ostream* log = &std::cerr;
    if (vm.count("log-file")) {
        file.open(vm["log-file"].as<std::string>());
        if (!file) {
            std::cerr << "branan-hnefatafl-org-server: error: cannot write "
                      << vm["log-file"].as<std::string>() << "\n";
            return 1;
        }
        log = &file;
    }
    branan::org::Server server;
    if (branan::Status st = server.open(o, log); !st) {
        std::cerr << "branan-hnefatafl-org-server: error: " << st.error() << "\n";
        return 1;
    }
    std::cout << "listening on 127.0.0.1:" << server.port() << std::endl;
    server.run(int64_t(vm["seconds"].as<int>()) * 1000);
    return 0;
}
