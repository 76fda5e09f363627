#include "coordinates.h"

#include "text.h"

namespace branan {

Result<Square> parse_square_text(int size, std::string_view text) {
    auto bad = [&] { return Error{"bad square '" + printable(text) + "'"}; };
    if (text.size() < 2 || text[0] < 'a' || text[0] >= 'a' + size) return bad();
    auto rank = parse_integer(text.substr(1), 1, size);
    if (!rank || text[1] < '0' || text[1] > '9') return bad();
    return Square((*rank - 1) * size + (text[0] - 'a'));
}

} // namespace branan
