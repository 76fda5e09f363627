#pragma once

// Squares as hnefatafl.org writes them (its Vertex, HNEFATAFL.md 4.4): file
// letter and rank number from a1 at the bottom left, like ours, but the
// letters' case and a prefix say the board size: 11x11 lowercase (`d1`),
// 13x13 uppercase (`D1`), 7x7 `0` then lowercase (`0d1`). Shared by the HTP
// engine loop, the hnefatafl.org bot client and branan-match's HTP adapter.

#include <string>
#include <string_view>

#include "types.h"

namespace branan {

// The site's name of square `s` on a board of `size` (7, 11 or 13).
std::string org_square_name(int size, Square s);

// The square a site name gives on a board of `size`. The site reads the
// size from the name's form; a name of another size's form is refused here
// (the site would read a different square, or index past its board).
// Errors read "play: invalid coordinate", the site's own words.
Result<Square> parse_org_square(int size, std::string_view text);

} // namespace branan
