#pragma once

// A position as an SVG picture, for any board from 7x7 to 19x19: the
// squares (the throne, the king's exits, Ashton's camps marked), the pieces
// of each side (the king, OpenTafl's commanders and knights by their
// letters), the coordinates, arrows for moves, highlighted squares, and
// crosses on the squares of pieces just taken. No fonts or files outside:
// the text is drawn in the viewer's sans-serif.

#include <string>
#include <vector>

#include "position.h"

namespace branan {

struct DiagramArrow {
    Square from = NO_SQUARE, to = NO_SQUARE;
    std::string colour = "#2a7a2a";
};

struct DiagramOptions {
    std::vector<DiagramArrow> arrows;
    std::vector<Square> highlights;
    std::vector<Square> captured; // drawn as crosses
    bool coordinates = true;
    // The picture's width in CSS pixels (the viewBox scales it); 0: its
    // natural size, 40 a square.
    int width = 0;
    std::string id; // an id for the <svg> element (HTML pages); empty: none
};

// Arrow colours: the move played and the engine's best move.
inline constexpr const char* PLAYED_ARROW = "#c0392b";
inline constexpr const char* BEST_ARROW = "#2a7a2a";

std::string board_svg(const Position& pos, const DiagramOptions& options);

// The squares the last move of `pos` took pieces from (the king's, if he
// was taken).
std::vector<Square> last_captures(const Position& pos);

} // namespace branan
