#pragma once

// What the tools' subcommand lines share (branan-tune, branan-nnue): a
// usage error thrown up to the command's dispatcher, which prints it with
// the command's name and exits 2, and the options parsed by
// Boost.Program_options.

#include <boost/program_options.hpp>
#include <string>
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

} // namespace branan::tune
