#pragma once

// Choosing and running a protocol loop over stdin/stdout-like streams.

#include <istream>
#include <optional>
#include <ostream>
#include <string_view>

#include "engine.h"
#include "htp.h"
#include "otep.h"

namespace branan {

enum class Protocol { AUTO, UCI, OTEP, HTP };

std::optional<Protocol> parse_protocol(std::string_view name); // auto, uci, otep, htp

// The protocol a session speaks, from its first non-empty line: OTEP hosts
// start with `rules ...`, HTP drivers with one of its command names (quit
// aside, which both understand) or a `#` comment, everything else is UCI.
Protocol detect_protocol(std::string_view first_line);

// Runs the chosen loop until quit/goodbye or the end of input; any search
// is stopped before it returns.
// `htp`: how the HTP loop thinks in untimed games; `otep`: the OTEP loop's
// fixed depth, if any.
void run_protocol(Engine& engine, Protocol protocol, std::istream& in, std::ostream& out,
                  const HtpOptions& htp = {}, const OtepOptions& otep = {});

} // namespace branan
