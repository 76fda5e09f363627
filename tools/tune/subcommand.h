#pragma once

// What the tools' subcommand lines share (branan-tune, branan-nnue): a
// usage error thrown up to the command's dispatcher, which prints it with
// the command's name and exits 2, the options parsed by
// Boost.Program_options, and the dispatcher itself.

#include <boost/program_options.hpp>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace branan::tune {

struct UsageError {
    std::string message;
};

inline boost::program_options::variables_map
parse_subcommand(const boost::program_options::options_description& options,
                 const std::vector<std::string>& args,
                 const boost::program_options::positional_options_description& positional) {
    namespace po = boost::program_options;
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
    return vm;
}

// One subcommand: its name and what runs it on the arguments after the name.
struct Subcommand {
    std::string_view name;
    std::function<int(const std::vector<std::string>&)> run;
};

// Runs the subcommand args[0] names on the rest. No arguments print the usage
// to err (exit 2), help prints it to out (exit 0); an unknown name, a
// UsageError or an option Boost refuses is printed as "TOOL COMMAND: what"
// (exit 2).
inline int run_subcommand(std::string_view tool, std::string_view usage,
                          const std::vector<Subcommand>& commands,
                          const std::vector<std::string>& args, std::ostream& out,
                          std::ostream& err) {
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? err : out) << usage;
        return args.empty() ? 2 : 0;
    }
    const std::string& name = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const Subcommand& command : commands) {
        if (command.name != name) continue;
        try {
            return command.run(rest);
        } catch (const UsageError& e) {
            err << tool << " " << name << ": " << e.message << "\n";
        } catch (const boost::program_options::error& e) {
            err << tool << " " << name << ": " << e.what() << "\n";
        }
        return 2;
    }
    err << tool << ": unknown command '" << name << "'\n" << usage;
    return 2;
}

} // namespace branan::tune
