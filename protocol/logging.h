#pragma once

// Logging through spdlog, to stderr or a file, never to stdout (stdout
// carries protocol lines only).

#include <string>

#include <spdlog/logger.h>

#include "types.h"

namespace branan {

// The program's logger: stderr at level "warn" until setup_logging says otherwise.
spdlog::logger& logger();

// `file` empty = stderr. `level`: trace, debug, info, warn, error, critical, off.
Status setup_logging(const std::string& file, const std::string& level);

} // namespace branan
