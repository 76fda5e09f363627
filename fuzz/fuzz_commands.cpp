// libFuzzer target: the protocol's command parser. Each input line goes
// through the parsers (position, go, setoption, numbers) and then through a
// real UciLoop, except the commands that would search or count for long
// (go, perft, bench) and options that allocate memory (Hash, Threads):
// those are parsed only. Any crash, sanitizer report or malformed output
// line is a finding.

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine.h"
#include "text.h"
#include "uci.h"

using namespace branan;

namespace {

void check_output(const std::string& text) {
    // Every line whole: ends in '\n', no '\r'.
    if (!text.empty() && text.back() != '\n') std::abort();
    if (text.find('\r') != std::string::npos) std::abort();
}

bool runnable(const std::vector<std::string_view>& tokens, std::string_view line,
              const std::vector<OptionInfo>& options) {
    if (tokens.empty()) return true;
    const std::string_view cmd = tokens[0];
    if (cmd == "go" || cmd == "perft" || cmd == "bench" || cmd == "quit") return false;
    if (cmd == "setoption") {
        auto so = uci::parse_setoption(line.substr(size_t(cmd.data() + cmd.size() - line.data())));
        if (so) {
            const OptionInfo* o = uci::find_option(options, so->name);
            if (o && (o->name == "Hash" || o->name == "Threads" || o->name == "EvalFile"))
                return false;
        }
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static Engine engine; // reused: building one per input would dominate the run
    static const std::vector<OptionInfo> options = engine.options();
    const std::string input(reinterpret_cast<const char*>(data), size);

    std::ostringstream out;
    {
        UciLoop loop(engine, out);
        size_t start = 0;
        while (start <= input.size()) {
            size_t end = input.find('\n', start);
            if (end == std::string::npos) end = input.size();
            const std::string_view line(input.data() + start, end - start);
            start = end + 1;

            const auto tokens = split_words(line);
            if (!tokens.empty()) {
                const std::vector<std::string_view> args(tokens.begin() + 1, tokens.end());
                (void)uci::parse_position(args);
                (void)uci::parse_go(args, engine.position());
                (void)uci::parse_setoption(line);
                (void)parse_integer(tokens[0], -1000, 1000);
            }
            if (runnable(tokens, line, options)) loop.handle_line(line);
        }
    }
    check_output(out.str());
    // Leave the engine as a fresh session would find it.
    (void)engine.set_preset("brandubh");
    return 0;
}
