#pragma once

// The positions file: the tuner's data set, one position per line.
//
//   # branan-tune positions 1
//   <TFEN> TAB <rules> TAB <result> [TAB score=<cp> [TAB depth=<d>]] [TAB game=<n>]
//
// rules: a preset name when the game's rules equal that preset's, else the
// full rules string. result: the game's result for the attackers (1 win,
// 0.5 draw, 0 loss). score: the score the engine to move reported for this
// position, turned to the attackers' view (engine scores are from the side
// to move). depth: the depth that score was searched to, where the record
// says. game: which game of the extraction the position comes from
// (1, 2, ...), so the fit can keep a game's positions together when it
// splits off the validation set. Fields are separated by tabs because TFEN and rules strings
// contain spaces. '#' lines and blank lines are ignored.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"

namespace branan::tune {

struct PositionLine {
    std::string tfen;
    std::string rules;           // preset name or full rules string
    double result = 0;           // attackers' view: 1, 0.5 or 0
    std::optional<int> score;    // centi-soldiers, attackers' view
    std::optional<int64_t> game; // the game of the extraction it comes from
    std::optional<int> depth{};  // of the search that gave the score
    bool operator==(const PositionLine&) const = default;
};

std::string format_position_line(const PositionLine& p);
// One data line (not a comment); the error says what is wrong in it.
Result<PositionLine> parse_position_line(std::string_view line);

constexpr std::string_view POSITIONS_HEADER = "# branan-tune positions 1";
std::string format_positions(const std::vector<PositionLine>& lines);
// Errors name the file and line.
Result<std::vector<PositionLine>> read_positions_file(const std::string& path);

// The Edition of a rules field (preset name or rules string), built once.
class RulesCache {
  public:
    Result<EditionPtr> get(const std::string& rules);

  private:
    std::map<std::string, EditionPtr> cache_;
};

} // namespace branan::tune
