#pragma once

// The text a person reads: the board, the evaluation and the help, shared
// by the protocol loop's own commands and the command line.

#include <string>
#include <vector>

#include "engine.h"

namespace branan {

// `d`: a board diagram with coordinates, throne, corners and camps marked,
// then Fen, Key, Rules and Result lines.
std::vector<std::string> describe_position(const Position& pos, const std::string& rules_string);
// `eval`: the evaluation of the position, term by term when the eval
// library offers it.
std::vector<std::string> describe_eval(const Engine& engine);
// The win chances for a person: "win 61.2%", and the draws where the
// edition has them ("win 38.0% draw 24.5%").
std::string win_chance_text(const WinChances& wdl, bool draws);
// A score as a person reads it: "+0.35", "-1.20", "#3" (a win in 3 moves),
// "#-2".
std::string score_text(Value cp, int mate);
// The `help` text.
std::vector<std::string> help_lines();

} // namespace branan
