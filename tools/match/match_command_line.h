#pragma once

// The match command line, in cutechess-cli's conventions: options start
// with one '-', and engine/opening/SPRT settings are key=value words that
// follow their option:
//   -engine cmd=PATH [name=NAME] [proto=uci|otep] [dir=DIR] [arg=WORD ...]
//           [option.NAME=VALUE ...] [tc=TC] [st=SECONDS] [depth=N] [nodes=N]
//           [stderr=FILE]                       (two or more)
//   -each KEY=VALUE ...                         (the same keys, for every engine)
//   -variant PRESET | -rules STRING
//   -tc [MOVES/]SECONDS[+INC] | -tc st=SECONDS
//   -games N  -rounds N  -repeat  -concurrency N
//   -openings file=PATH [format=tfen|moves] [order=random|sequential]
//   -openings random [plies=N] [depth=N] [margin=CP]
//   -srand N  -sprt elo0=A elo1=B alpha=X beta=Y
//   -maxplies N  -resign movecount=N score=CP
//   -out DIR  -timemargin MS  -handshake MS  -graceful MS  -debug  -quiet

#include <optional>
#include <string>
#include <vector>

#include "match.h"

namespace branan::match {

// Parses the arguments (without the program name). Error text on failure.
Status parse_command_line(const std::vector<std::string>& args, MatchConfig& config);
const char* usage();
// Takes "-sprt elo0=A elo1=B [alpha=X beta=Y]" out of args, when there (for
// merge, which reports the LLR of the games it reads).
Status take_sprt(std::vector<std::string>& args, std::optional<SprtParams>& sprt);

} // namespace branan::match
