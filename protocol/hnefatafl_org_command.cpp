#include "hnefatafl_org_command.h"

#include <cstdlib>
#include <fstream>

#include <boost/program_options.hpp>

#include "hnefatafl_org_client.h"
#include "line_reader.h"
#include "text.h"

namespace po = boost::program_options;

namespace branan {

namespace {

struct Usage {
    std::string message;
};

int number(const po::variables_map& vm, const char* name, int64_t lo, int64_t hi) {
    const std::string text = vm[name].as<std::string>();
    auto v = parse_integer(text, lo, hi);
    if (!v) throw Usage{"--" + std::string(name) + ": " + v.error()};
    return int(*v);
}

// The first line of the file, without its line end; never echoed. The
// file may be a pipe: a line past the bound is refused, not held.
std::string read_password(const std::string& path) {
    constexpr size_t MAX_PASSWORD = 4096;
    std::ifstream f(path);
    if (!f) throw Usage{"--password-file: cannot read " + printable(path, 200)};
    LineReader reader(f, MAX_PASSWORD);
    std::string line;
    if (reader.next(line) == LineReader::Status::TOO_LONG)
        throw Usage{"--password-file: its first line is longer than " +
                    std::to_string(MAX_PASSWORD) + " bytes"};
    return line;
}

} // namespace

int run_hnefatafl_org_command(const std::vector<std::string>& args, int hash_mb, int threads,
                              std::ostream& out, std::ostream& err) {
    po::options_description options("hnefatafl-org options");
    options.add_options()("user", po::value<std::string>(), "the bot's account")(
        "password-file", po::value<std::string>(), "a file whose first line is the password")(
        "host", po::value<std::string>()->default_value(org::DEFAULT_HOST),
        "the server")("port", po::value<std::string>(), "its port (49152)")(
        "version-id", po::value<std::string>()->default_value(org::VERSION_ID),
        "the server's version id")("create", po::value<std::string>(),
                                   "create games: attacker, defender or both (in turn)")(
        "board", po::value<std::string>(), "board size of the games created: 7, 11 or 13")(
        "time", po::value<std::string>(), "clock of the games created: MS+S or untimed")(
        "rated", "create rated games")("accept-challenges",
                                       "also accept challenges to games not created by this run")(
        "games", po::value<std::string>(), "exit after this many games (default 1; 0 = never)")(
        "max-games-at-once", po::value<std::string>(),
        "games at once (default 1)")("depth", po::value<std::string>(), "search at most this deep")(
        "nodes", po::value<std::string>(), "search at most this many nodes")(
        "margin", po::value<std::string>(), "milliseconds kept back from the clock (1000)");
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(args).options(options).run(), vm);
        po::notify(vm);
        HnefataflOrgOptions o;
        if (!vm.count("user")) throw Usage{"hnefatafl-org: --user is missing"};
        o.user = vm["user"].as<std::string>();
        if (vm.count("password-file")) {
            o.password = read_password(vm["password-file"].as<std::string>());
        } else if (const char* env = std::getenv("BRANAN_PASSWORD")) {
            o.password = env;
        } else {
            throw Usage{"hnefatafl-org: no password (--password-file FILE, or the environment "
                        "variable BRANAN_PASSWORD)"};
        }
        o.host = vm["host"].as<std::string>();
        if (vm.count("port")) o.port = number(vm, "port", 1, 65535);
        o.version_id = vm["version-id"].as<std::string>();
        if (vm.count("create")) {
            const std::string c = vm["create"].as<std::string>();
            if (c != "attacker" && c != "defender" && c != "both")
                throw Usage{"--create '" + printable(c) + "': attacker, defender or both"};
            o.create[ATTACKERS] = c != "defender";
            o.create[DEFENDERS] = c != "attacker";
        }
        if (vm.count("board")) {
            o.board_size = number(vm, "board", 1, 99);
            if (auto e = org::server_edition(o.board_size); !e)
                throw Usage{"--board " + std::to_string(o.board_size) + ": " + e.error()};
        }
        if (vm.count("time")) {
            auto t = org::parse_time_control(vm["time"].as<std::string>());
            if (!t) throw Usage{"--time: " + t.error()};
            o.time = *t;
        }
        o.rated = vm.count("rated") > 0;
        o.accept_challenges = vm.count("accept-challenges") > 0;
        if (vm.count("games")) o.games = number(vm, "games", 0, 1 << 30);
        if (vm.count("max-games-at-once"))
            o.max_games_at_once = number(vm, "max-games-at-once", 1, 1000);
        if (vm.count("depth")) o.depth = number(vm, "depth", 1, 200);
        if (vm.count("nodes")) o.nodes = uint64_t(number(vm, "nodes", 1, 1 << 30));
        if (vm.count("margin")) o.margin_ms = number(vm, "margin", 0, 600'000);
        o.hash_mb = hash_mb;
        o.threads = threads;
        return run_hnefatafl_org_bot(o, out, err);
    } catch (const po::error& e) {
        err << "branan: error: " << e.what() << "\n(branan --help lists the options)\n";
        return 2;
    } catch (const Usage& e) {
        err << "branan: error: " << e.message << "\n(branan --help lists the options)\n";
        return 2;
    }
}

} // namespace branan
