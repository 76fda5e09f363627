#pragma once

// Choosing and running a protocol loop over stdin/stdout-like streams.

#include <istream>
#include <optional>
#include <ostream>
#include <string_view>

#include "engine.h"

namespace branan {

enum class Protocol { AUTO, UCI, OTEP };

std::optional<Protocol> parse_protocol(std::string_view name); // auto, uci, otep

// The protocol a session speaks, from its first non-empty line: OTEP hosts
// start with `rules ...`, everything else is UCI.
Protocol detect_protocol(std::string_view first_line);

// Runs the chosen loop until quit/goodbye or the end of input; any search
// is stopped before it returns.
void run_protocol(Engine& engine, Protocol protocol, std::istream& in, std::ostream& out);

} // namespace branan
