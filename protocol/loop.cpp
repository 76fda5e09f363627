#include "loop.h"

#include "htp.h"
#include "line_reader.h"
#include "otep.h"
#include "text.h"
#include "uci.h"

namespace branan {

std::optional<Protocol> parse_protocol(std::string_view name) {
    if (name == "auto") return Protocol::AUTO;
    if (name == "uci") return Protocol::UCI;
    if (name == "otep") return Protocol::OTEP;
    if (name == "htp") return Protocol::HTP;
    return std::nullopt;
}

Protocol detect_protocol(std::string_view first_line) {
    const auto tokens = split_words(first_line);
    if (tokens.empty()) return Protocol::UCI;
    if (tokens[0] == "rules") return Protocol::OTEP;
    if (tokens[0][0] == '#' || (tokens[0] != "quit" && is_htp_command(tokens[0])))
        return Protocol::HTP;
    return Protocol::UCI;
}

void run_protocol(Engine& engine, Protocol protocol, std::istream& in, std::ostream& out,
                  const HtpOptions& htp, const OtepOptions& otep) {
    LineReader reader(in);
    std::string line;

    if (protocol == Protocol::OTEP) return run_otep(engine, otep, "", reader, out);
    if (protocol == Protocol::HTP) return run_htp(engine, htp, "", reader, out);
    if (protocol == Protocol::AUTO) {
        // The first non-empty line decides; the UCI loop (and its engine
        // callbacks) only exists once UCI is chosen.
        while (true) {
            const LineReader::Status st = reader.next(line);
            if (st == LineReader::Status::END) return;
            if (st == LineReader::Status::LINE && !split_words(line).empty()) break;
            if (st == LineReader::Status::TOO_LONG) {
                UciLoop(engine, out).line_too_long();
                continue;
            }
        }
        const Protocol detected = detect_protocol(line);
        if (detected == Protocol::OTEP) return run_otep(engine, otep, line, reader, out);
        if (detected == Protocol::HTP) return run_htp(engine, htp, line, reader, out);
    }
    UciLoop uci(engine, out);
    if (!line.empty() && !uci.handle_line(line)) return uci.finish();
    uci.run(reader);
}

} // namespace branan
