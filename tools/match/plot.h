#pragma once

// `branan-match plot`: the Elo estimate of the first engine pair of a
// summary, with its 95% interval, after every game, as an SVG file.

#include <string>
#include <vector>

#include "record.h"

namespace branan::match {

// The SVG text; `error` when there is nothing to draw.
bool plot_svg(const std::vector<GameSummary>& games, std::string& svg, std::string& error);

} // namespace branan::match
