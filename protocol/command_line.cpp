#include "command_line.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <iostream>

#include <unistd.h>

#include <boost/program_options.hpp>

#include "bologna_client.h"
#include "clock.h"
#include "commands.h"
#include "engine.h"
#include "hnefatafl_org_command.h"
#include "htp_referee.h"
#include "logging.h"
#include "loop.h"
#include "output.h"
#include "review_command.h"
#include "text.h"
#include "uci.h"

namespace po = boost::program_options;

namespace branan {

namespace {

constexpr const char* USAGE_HEAD =
    "Usage: branan [options] [command]\n"
    "\n"
    "With no command, branan speaks the UCI-style protocol on stdin/stdout.\n"
    "Commands (each runs once and exits):\n";
constexpr const char* USAGE_EXIT =
    "\nExit status: 0 done, 1 a failure at run time (a server that cannot be\n"
    "reached, a connection lost), 2 bad input (the command line, a position, a\n"
    "file or a login refused).\n";

struct UsageError {
    std::string message;
};

po::variables_map parse(const po::options_description& options,
                        const std::vector<std::string>& args,
                        const po::positional_options_description* positional = nullptr) {
    po::variables_map vm;
    po::command_line_parser parser(args);
    parser.options(options);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    po::notify(vm);
    return vm;
}

// The value of option `name`, refused outside lo..hi; the error calls it
// `label` when given (for a positional argument), else --name.
template <typename T>
T checked(const po::variables_map& vm, const char* name, T lo, T hi, const char* label = nullptr) {
    const T v = vm[name].as<T>();
    if (v < lo || v > hi)
        throw UsageError{(label ? std::string(label) : "--" + std::string(name)) + " " +
                         std::to_string(v) + " is out of range (" + std::to_string(lo) + ".." +
                         std::to_string(hi) + ")"};
    return v;
}

// An engine option the global options set: the flag that set it, the
// option's name and value.
struct EngineSetting {
    const char* flag;
    std::string name, value;
};

// What a command is given: the engine set up from the global options, the
// command's own arguments, the global options, the engine settings they
// made, and the streams.
struct CommandRun {
    Engine& engine;
    const std::vector<std::string>& args;
    const po::variables_map& global;
    const std::vector<EngineSetting>& settings;
    std::ostream& out;
    std::ostream& err;
};

int cmd_analyze(const CommandRun& run) {
    const auto& [engine, args, global, settings, out, err] = run;
    po::options_description options("analyze options");
    options.add_options()("fen", po::value<std::string>(),
                          "position (TFEN); default: the start position")(
        "moves", po::value<std::string>(), "moves played from the position, space-separated")(
        "depth", po::value<int>(), "search to this depth")("movetime", po::value<int64_t>(),
                                                           "search this many milliseconds")(
        "nodes", po::value<int64_t>(), "search this many nodes")(
        "multipv", po::value<int>(), "report this many best lines")("json",
                                                                    "one JSON object per line");
    const po::variables_map vm = parse(options, args);
    AnalyzeOptions o;
    if (vm.count("fen")) o.fen = vm["fen"].as<std::string>();
    if (vm.count("moves")) o.moves = vm["moves"].as<std::string>();
    if (vm.count("depth")) o.depth = checked(vm, "depth", 1, uci::MAX_GO_DEPTH);
    if (vm.count("movetime")) o.movetime_ms = checked<int64_t>(vm, "movetime", 1, MAX_TIME_MS);
    if (vm.count("nodes")) o.nodes = uint64_t(checked<int64_t>(vm, "nodes", 1, int64_t(1) << 62));
    if (vm.count("multipv")) o.multipv = checked(vm, "multipv", 1, 500);
    o.json = vm.count("json") > 0;
    LineWriter writer(out);
    return run_analyze(engine, o, writer, err);
}

int cmd_perft(const CommandRun& run) {
    const auto& [engine, args, global, settings, out, err] = run;
    po::options_description options("perft options");
    options.add_options()("depth", po::value<int>(), "depth")(
        "fen", po::value<std::string>(), "position (TFEN); default: the start position");
    po::positional_options_description positional;
    positional.add("depth", 1);
    const po::variables_map vm = parse(options, args, &positional);
    if (!vm.count("depth")) throw UsageError{"perft: the depth is missing (branan perft N)"};
    const int depth = checked(vm, "depth", 1, uci::MAX_PERFT_DEPTH, "perft depth");
    if (vm.count("fen")) {
        if (Status st = engine.set_position(vm["fen"].as<std::string>(), {}); !st) {
            err << "branan perft: error: " << st.error() << "\n";
            return EXIT_BAD_INPUT;
        }
    }
    LineWriter writer(out);
    for (const std::string& l : perft_lines(engine, depth, true)) writer.line(l);
    return EXIT_OK;
}

int cmd_bench(const CommandRun& run) {
    const auto& [engine, args, global, settings, out, err] = run;
    po::options_description options("bench options");
    options.add_options()("depth", po::value<int>(), "depth (default: the bench's own)");
    const po::variables_map vm = parse(options, args);
    const int depth = vm.count("depth") ? checked(vm, "depth", 1, uci::MAX_GO_DEPTH) : 0;
    // --hash and --threads were checked when they were set on `engine`.
    const int hash = global.count("hash") ? int(global["hash"].as<int64_t>()) : 16;
    const int threads = global.count("threads") ? int(global["threads"].as<int64_t>()) : 1;
    LineWriter writer(out);
    for (const std::string& l : bench_lines(engine, depth, hash, threads)) writer.line(l);
    return EXIT_OK;
}

int cmd_smp_bench(const CommandRun& run) {
    const auto& [engine, args, global, settings, out, err] = run;
    po::options_description options("smp-bench options");
    options.add_options()("depth", po::value<int>(),
                          "search every position to this depth (default: each board size's own)")(
        "variants", po::value<std::string>(),
        "comma-separated presets (default: brandubh,tablut,copenhagen)")("json",
                                                                         "one JSON object per row");
    const po::variables_map vm = parse(options, args);
    SmpBenchConfig c;
    if (vm.count("depth")) c.depth = checked(vm, "depth", 1, uci::MAX_GO_DEPTH);
    // --hash and --threads were checked when they were set on `engine`:
    // --threads T measures 1, 2, 4, ... up to T.
    if (global.count("hash")) c.hash_mb = int(global["hash"].as<int64_t>());
    if (global.count("threads"))
        c.threads = smp_bench_thread_counts(int(global["threads"].as<int64_t>()));
    if (vm.count("variants")) {
        const std::vector<std::string> known = smp_bench_presets();
        for (std::string_view name : split(vm["variants"].as<std::string>(), ',')) {
            if (std::find(known.begin(), known.end(), name) == known.end()) {
                std::string list;
                for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
                throw UsageError{"--variants: no bench positions for " + single_quoted(name) +
                                 " (" + list + ")"};
            }
            c.presets.emplace_back(name);
        }
    }
    const bool json = vm.count("json") > 0;
    LineWriter writer(out);
    if (!json) writer.line(smp_bench_header());
    smp_bench(c, [&](const SmpBenchRow& r) { writer.line(smp_bench_line(r, json)); });
    return EXIT_OK;
}

int cmd_review(const CommandRun& run) {
    const auto& [engine, args, global, settings, out, err] = run;
    po::options_description options("review options");
    options.add_options()("game", po::value<std::string>(), "the game's file")(
        "depth", po::value<int>(), "search each position to this depth")(
        "movetime", po::value<int64_t>(), "search each position this many milliseconds")(
        "nodes", po::value<int64_t>(), "search each position this many nodes")(
        "from", po::value<int>(), "the first ply to review (from 1)")("to", po::value<int>(),
                                                                      "the last ply to review")(
        "format", po::value<std::string>(),
        "text, json or html (default: -o's extension, else text)")(
        "output,o", po::value<std::string>(), "write the review to this file (default: stdout)");
    po::positional_options_description positional;
    positional.add("game", 1);
    const po::variables_map vm = parse(options, args, &positional);
    if (!vm.count("game"))
        throw UsageError{"review: the game's file is missing (branan review GAME)"};
    ReviewCommand c;
    c.game_path = vm["game"].as<std::string>();
    if (vm.count("output")) c.output = vm["output"].as<std::string>();
    c.format = review_format_of_path(c.output);
    if (vm.count("format")) {
        const std::string f = vm["format"].as<std::string>();
        if (f == "text")
            c.format = ReviewFormat::TEXT;
        else if (f == "json")
            c.format = ReviewFormat::JSON;
        else if (f == "html")
            c.format = ReviewFormat::HTML;
        else
            throw UsageError{"--format '" + printable(f) + "' is not text, json or html"};
    }
    if (vm.count("depth")) c.depth = checked(vm, "depth", 1, uci::MAX_GO_DEPTH);
    if (vm.count("movetime")) c.movetime_ms = checked<int64_t>(vm, "movetime", 1, MAX_TIME_MS);
    if (vm.count("nodes")) c.nodes = uint64_t(checked<int64_t>(vm, "nodes", 1, int64_t(1) << 62));
    if (vm.count("from")) c.from_ply = checked(vm, "from", 1, 1 << 20);
    if (vm.count("to")) c.to_ply = checked(vm, "to", 1, 1 << 20);
    // --threads was checked when it was set on `engine`: here it counts the
    // positions searched at once, each on one thread.
    if (global.count("threads")) c.threads = int(global["threads"].as<int64_t>());
    for (const EngineSetting& st : settings) c.settings.emplace_back(st.name, st.value);
    c.progress = &err == &std::cerr && isatty(STDERR_FILENO);
    return run_review(engine, c, out, err);
}

int cmd_diagram(const CommandRun& run) {
    const auto& [engine, args, global, settings, out, err] = run;
    po::options_description options("diagram options");
    options.add_options()("fen", po::value<std::string>(),
                          "position (TFEN); default: the start position")(
        "moves", po::value<std::string>(), "moves played from the position, space-separated")(
        "arrow", po::value<std::vector<std::string>>(),
        "an arrow, d1-d3 (may be repeated)")("highlight", po::value<std::vector<std::string>>(),
                                             "squares to highlight, e5,e6 (may be repeated)")(
        "width", po::value<int>(), "the picture's width in pixels (default: 40 a square)")(
        "no-coordinates", "leave out the files' letters and the ranks' numbers")(
        "output,o", po::value<std::string>(), "write the SVG to this file (default: stdout)");
    const po::variables_map vm = parse(options, args);
    DiagramCommand c;
    if (vm.count("fen")) c.fen = vm["fen"].as<std::string>();
    if (vm.count("moves")) c.moves = vm["moves"].as<std::string>();
    if (vm.count("arrow")) c.arrows = vm["arrow"].as<std::vector<std::string>>();
    if (vm.count("highlight")) c.highlights = vm["highlight"].as<std::vector<std::string>>();
    if (vm.count("width")) c.width = checked(vm, "width", 16, 10000);
    c.coordinates = !vm.count("no-coordinates");
    if (vm.count("output")) c.output = vm["output"].as<std::string>();
    return run_diagram(engine, c, out, err);
}

// Either the named options or the organisers' launch form, as their
// runmyplayer.sh starts every player: SIDE SECONDS ADDRESS
// (`branan bologna WHITE 60 127.0.0.1`), or both where they do not clash.
int cmd_bologna(const CommandRun& run) {
    const auto& [engine, args, global, settings, out, err] = run;
    po::options_description options("bologna options");
    options.add_options()("side", po::value<std::string>(),
                          "white (defenders) or black (attackers)")(
        "host", po::value<std::string>(), "the server's address (default 127.0.0.1)")(
        "port", po::value<int>(), "the server's port (default 5800 white, 5801 black)")(
        "name", po::value<std::string>()->default_value("Branan"), "the player's name")(
        "time", po::value<int>(), "the server's time per move (-t), seconds (default 60)")(
        "margin", po::value<int>()->default_value(3000),
        "milliseconds kept back from the time per move")(
        "cache", po::value<int>()->default_value(-1),
        "the server's repetition window (-c; -1 = every position since a capture)")(
        "depth", po::value<int>(), "search to this depth (within the time)")(
        "nodes", po::value<int64_t>(), "search this many nodes (within the time)")(
        "connect-timeout", po::value<int>()->default_value(0),
        "seconds to keep trying while the server's port is closed (0 = one attempt)");
    po::options_description hidden;
    hidden.add_options()("words", po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description positional;
    positional.add("words", -1);
    const po::variables_map vm = parse(all, args, &positional);
    // The Ashton rules are the server's; a global --variant or --rules would
    // be silently ignored.
    if (!global["variant"].defaulted() || global.count("rules"))
        throw UsageError{"bologna plays the server's Ashton rules: --variant and --rules do not "
                         "apply (--cache sets its repetition window)"};

    std::vector<std::string> words;
    if (vm.count("words")) words = vm["words"].as<std::vector<std::string>>();
    if (words.size() > 3)
        throw UsageError{"bologna: unexpected word '" + printable(words[3]) +
                         "' (the launch form is SIDE SECONDS ADDRESS, e.g. WHITE 60 127.0.0.1)"};
    // A value from the launch form or from its named option, not both.
    auto either = [&](size_t word, const char* name) -> std::optional<std::string> {
        const bool named = vm.count(name) > 0;
        if (word < words.size() && named)
            throw UsageError{"bologna: '" + printable(words[word]) + "' and --" + name +
                             " both give the " + name};
        if (word < words.size()) return words[word];
        if (named) {
            if (std::string(name) == "time") return std::to_string(vm[name].as<int>());
            return vm[name].as<std::string>();
        }
        return std::nullopt;
    };

    BolognaClientOptions o;
    const std::optional<std::string> side = either(0, "side");
    if (!side)
        throw UsageError{"bologna: the side is missing (--side white|black, or WHITE|BLACK)"};
    if (iequals(*side, "white"))
        o.side = DEFENDERS;
    else if (iequals(*side, "black"))
        o.side = ATTACKERS;
    else
        throw UsageError{"--side '" + printable(*side) + "' is neither white nor black"};
    if (const std::optional<std::string> time = either(1, "time")) {
        auto seconds = parse_integer(*time, 1, 86400);
        if (!seconds)
            throw UsageError{"--time " + printable(*time) +
                             ": not a number of seconds in 1..86400 (" + seconds.error() + ")"};
        o.time_s = int(*seconds);
    }
    if (const std::optional<std::string> host = either(2, "host")) o.host = *host;
    if (vm.count("port")) o.port = checked(vm, "port", 1, 65535);
    o.name = vm["name"].as<std::string>();
    o.margin_ms = checked(vm, "margin", 0, 86400 * 1000);
    if (o.margin_ms >= o.time_s * 1000)
        throw UsageError{"--margin " + std::to_string(o.margin_ms) +
                         " ms leaves no time of --time " + std::to_string(o.time_s) + " s"};
    o.cache = checked(vm, "cache", -1, 1 << 30);
    if (vm.count("depth")) o.depth = checked(vm, "depth", 1, uci::MAX_GO_DEPTH);
    if (vm.count("nodes")) o.nodes = uint64_t(checked<int64_t>(vm, "nodes", 1, int64_t(1) << 62));
    o.connect_timeout_ms = checked(vm, "connect-timeout", 0, 86400) * 1000;
    // --hash and --threads were checked when they were set on the CLI's engine.
    if (global.count("hash")) o.hash_mb = int(global["hash"].as<int64_t>());
    if (global.count("threads")) o.threads = int(global["threads"].as<int64_t>());
    return run_bologna_client(o, out, err);
}

int cmd_hnefatafl_org(const CommandRun& run) {
    const auto& [engine, args, global, settings, out, err] = run;
    return run_hnefatafl_org_command(
        args, global.count("hash") ? int(global["hash"].as<int64_t>()) : 0,
        global.count("threads") ? int(global["threads"].as<int64_t>()) : 0, out, err);
}

// The one-shot commands: name, usage lines for --help, what runs them.
// The clients (`logs_rules` false) log the rules they play, the server's,
// as their first line themselves.
struct CommandRow {
    std::string_view name;
    const char* usage;
    int (*run)(const CommandRun&);
    bool logs_rules = true;
};
const CommandRow COMMANDS[] = {
    {"analyze",
     "  analyze [--fen TFEN] [--moves \"m1 m2 ...\"] [--depth N | --movetime MS | --nodes N]\n"
     "          [--multipv K] [--json]     search a position, one line per depth\n",
     cmd_analyze},
    {"review",
     "  review GAME [--depth N | --movetime MS | --nodes N] [--from PLY] [--to PLY]\n"
     "          [--format text|json|html] [-o FILE]\n"
     "                                     grade every move of a game (docs/review.md);\n"
     "                                     --threads T reviews T positions at once\n",
     cmd_review},
    {"diagram",
     "  diagram [--fen TFEN] [--moves \"m1 m2 ...\"] [--arrow d1-d3] [--highlight e5,e6]\n"
     "          [--width PX] [--no-coordinates] [-o FILE]\n"
     "                                     an SVG picture of a position\n",
     cmd_diagram},
    {"perft", "  perft N [--fen TFEN]               move path counts per root move, total, speed\n",
     cmd_perft},
    {"bench",
     "  bench [--depth N] [--hash MB] [--threads N]\n"
     "                                     search the bench positions\n",
     cmd_bench},
    {"smp-bench",
     "  smp-bench [--depth N] [--variants LIST] [--json]   (--threads T: 1, 2, 4, ... up to T)\n"
     "                                     time to a fixed depth and speed by thread count\n"
     "                                     (docs/benchmarks.md)\n",
     cmd_smp_bench},
    {"bologna",
     "  bologna --side white|black [--host H] [--port P] [--name NAME] [--time S]\n"
     "          [--margin MS] [--cache N] [--depth N | --nodes N] [--connect-timeout S]\n"
     "  bologna WHITE|BLACK SECONDS ADDRESS [options]   (the organisers' launch form)\n"
     "                                     play one game on a Bologna Tablut Challenge server\n"
     "                                     (Ashton rules; see docs/bologna.md)\n",
     cmd_bologna, false},
    {"hnefatafl-org", HNEFATAFL_ORG_USAGE, cmd_hnefatafl_org, false},
};

const CommandRow* find_command(std::string_view name) {
    for (const CommandRow& c : COMMANDS)
        if (c.name == name) return &c;
    return nullptr;
}

std::string command_names() {
    std::string names;
    for (const CommandRow& c : COMMANDS) {
        if (!names.empty()) names += ", ";
        names += c.name;
    }
    return names;
}

} // namespace

int run_cli(int argc, const char* const argv[], std::istream& in, std::ostream& out,
            std::ostream& err) {
    const std::string htp_movetime_help = "HTP, untimed games: milliseconds per move (default " +
                                          std::to_string(UNTIMED_MOVE_MS) + ")";
    std::string preset_names;
    for (const Preset& p : presets())
        preset_names += (preset_names.empty() ? "" : ", ") + std::string(p.name);
    const std::string preset_help = "preset: " + preset_names;
    po::options_description global("Options");
    global.add_options()("help,h", "print this help and exit")("version",
                                                               "print the version and exit")(
        "variant", po::value<std::string>()->default_value(std::string(default_preset_name())),
        preset_help.c_str())("rules", po::value<std::string>(),
                             "rules string (OpenTafl notation plus our keys); overrides --variant")(
        "hash", po::value<int64_t>(), "transposition table size in MB")(
        "threads", po::value<int64_t>(), "search threads")("eval-file", po::value<std::string>(),
                                                           "evaluation weights file or net file")(
        "level", po::value<int>(), "play at this level, 0-20 (Skill Level; 20: full strength)")(
        "elo", po::value<int>(),
        "play at this Elo of the measured ladder (UCI_LimitStrength with UCI_Elo; docs/levels.md)")(
        "option", po::value<std::vector<std::string>>(),
        "NAME=VALUE: set an engine option (as `uci` lists them), for every protocol and "
        "command; may be repeated")("protocol", po::value<std::string>()->default_value("auto"),
                                    "auto, uci, otep or htp")(
        "referee", po::value<std::string>(),
        "with --protocol htp: play one game through hnefatafl.org's local referee at "
        "HOST[:PORT] (port 49152 by default)")("htp-movetime", po::value<int64_t>(),
                                               htp_movetime_help.c_str())(
        "htp-depth", po::value<int>(), "HTP, untimed games: search to this depth instead")(
        "otep-depth", po::value<int>(),
        "OTEP: search every move to this depth, whatever the clock (reproducible games)")(
        "log-file", po::value<std::string>(), "log to this file instead of stderr")(
        "log-level", po::value<std::string>()->default_value("warn"),
        "trace, debug, info, warn, error, critical, off");
    po::options_description hidden;
    hidden.add_options()("command",
                         po::value<std::string>())("args", po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(global).add(hidden);
    po::positional_options_description positional;
    positional.add("command", 1).add("args", -1);

    try {
        const po::parsed_options parsed = po::command_line_parser(argc, argv)
                                              .options(all)
                                              .positional(positional)
                                              .allow_unregistered()
                                              .run();
        po::variables_map vm;
        po::store(parsed, vm);
        po::notify(vm);

        if (vm.count("help")) {
            out << USAGE_HEAD;
            for (const CommandRow& c : COMMANDS) out << c.usage;
            out << "\n"
                << global << USAGE_EXIT << "\ndocs/protocol.md lists the protocol commands.\n";
            return EXIT_OK;
        }
        if (vm.count("version")) {
            out << "Branan " BRANAN_VERSION "\n";
            return EXIT_OK;
        }
        // The command's own options and arguments: everything the global
        // parser did not take, in order, after the command word.
        std::vector<std::string> rest =
            po::collect_unrecognized(parsed.options, po::include_positional);
        std::string command;
        if (vm.count("command")) {
            command = vm["command"].as<std::string>();
            auto it = std::find(rest.begin(), rest.end(), command);
            // A word before the command that no option took is not understood.
            if (it != rest.begin() && it != rest.end())
                throw UsageError{"unknown option '" + printable(rest.front()) + "'"};
            if (it != rest.end()) rest.erase(rest.begin(), it + 1);
        } else if (!rest.empty()) {
            throw UsageError{"unknown option '" + printable(rest.front()) + "'"};
        }
        const CommandRow* row = command.empty() ? nullptr : find_command(command);
        if (!command.empty() && !row)
            throw UsageError{"unknown command " + single_quoted(command) + " (" + command_names() +
                             ")"};

        const std::string log_file = vm.count("log-file") ? vm["log-file"].as<std::string>() : "";
        if (Status st = setup_logging(log_file, vm["log-level"].as<std::string>()); !st)
            throw UsageError{st.error()};
        const std::optional<Protocol> protocol = parse_protocol(vm["protocol"].as<std::string>());
        if (!protocol)
            throw UsageError{"unknown protocol '" + printable(vm["protocol"].as<std::string>()) +
                             "' (auto, uci, otep, htp)"};
        if (vm.count("referee") && *protocol != Protocol::HTP)
            throw UsageError{"--referee needs --protocol htp"};
        HtpOptions htp;
        if (vm.count("htp-movetime"))
            htp.movetime_ms = checked<int64_t>(vm, "htp-movetime", 1, MAX_TIME_MS);
        if (vm.count("htp-depth")) htp.depth = checked(vm, "htp-depth", 1, uci::MAX_GO_DEPTH);
        OtepOptions otep;
        if (vm.count("otep-depth")) otep.depth = checked(vm, "otep-depth", 1, uci::MAX_GO_DEPTH);

        Engine engine;
        auto apply = [&](const char* what, Status st) {
            if (!st) throw UsageError{std::string(what) + ": " + st.error()};
        };
        apply("--variant", engine.set_preset(vm["variant"].as<std::string>()));
        if (vm.count("rules")) apply("--rules", engine.set_rules(vm["rules"].as<std::string>()));
        // The settings in the order given here, kept for the engines a
        // command makes of its own (the review's threads).
        std::vector<EngineSetting> settings;
        if (vm.count("hash"))
            settings.push_back({"--hash", "Hash", std::to_string(vm["hash"].as<int64_t>())});
        if (vm.count("eval-file"))
            settings.push_back({"--eval-file", "EvalFile", vm["eval-file"].as<std::string>()});
        if (vm.count("level"))
            settings.push_back({"--level", "Skill Level", std::to_string(vm["level"].as<int>())});
        if (vm.count("elo")) {
            settings.push_back({"--elo", "UCI_Elo", std::to_string(vm["elo"].as<int>())});
            settings.push_back({"--elo", "UCI_LimitStrength", "true"});
        }
        if (vm.count("option"))
            for (const std::string& setting : vm["option"].as<std::vector<std::string>>()) {
                const size_t eq = setting.find('=');
                if (eq == std::string::npos || eq == 0)
                    throw UsageError{"--option " + single_quoted(setting) + ": not NAME=VALUE"};
                settings.push_back({"--option", setting.substr(0, eq), setting.substr(eq + 1)});
            }
        if (vm.count("threads"))
            apply("--threads",
                  engine.set_option("Threads", std::to_string(vm["threads"].as<int64_t>())));
        for (const EngineSetting& st : settings)
            apply(st.flag, engine.set_option(st.name, st.value));
        if (!row || row->logs_rules)
            logger().info("Branan {} started, rules {}", BRANAN_VERSION, engine.rules_string());
        if (row) return row->run({engine, rest, vm, settings, out, err});
        if (vm.count("referee")) {
            std::string host = vm["referee"].as<std::string>();
            int port = HTP_REFEREE_PORT;
            if (const size_t colon = host.rfind(':');
                colon != std::string::npos && host.find(':') == colon) {
                auto p = parse_integer(std::string_view(host).substr(colon + 1), 1, 65535);
                if (!p) throw UsageError{"--referee: the port " + p.error()};
                port = int(*p);
                host.erase(colon);
            }
            if (host.empty()) throw UsageError{"--referee: the host is missing"};
            return run_htp_referee_client(engine, htp, host, port, out, err);
        }
        run_protocol(engine, *protocol, in, out, htp, otep);
        return EXIT_OK;
    } catch (const po::error& e) {
        err << "branan: error: " << e.what() << "\n(branan --help lists the options)\n";
        return EXIT_BAD_INPUT;
    } catch (const UsageError& e) {
        err << "branan: error: " << e.message << "\n(branan --help lists the options)\n";
        return EXIT_BAD_INPUT;
    }
}

} // namespace branan
