#pragma once

// Square names: a file letter from 'a' and a rank number from 1, "a1" being
// square 0 on a board of any size. The one writer and reader of them, for the rules
// strings and for the notation above them (which also has an Edition; rules
// do not).

#include <string>
#include <string_view>

#include "types.h"

namespace branan {

inline std::string square_text(int size, Square s) {
    std::string name(1, char('a' + s % size));
    name += std::to_string(s / size + 1);
    return name;
}

// The square a name gives on a board of `size`; "bad square '...'" if none.
Result<Square> parse_square_text(int size, std::string_view text);

} // namespace branan
