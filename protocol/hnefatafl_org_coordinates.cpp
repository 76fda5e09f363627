#include "hnefatafl_org_coordinates.h"

#include "text.h"

namespace branan {

std::string org_square_name(int size, Square s) {
    const char base = size == 13 ? 'A' : 'a';
    std::string name = size == 7 ? "0" : "";
    name += char(base + s % size);
    name += std::to_string(s / size + 1);
    return name;
}

Result<Square> parse_org_square(int size, std::string_view text) {
    const Error invalid{"play: invalid coordinate"};
    // The form the name has: 0 + lowercase (7), lowercase (11), uppercase (13).
    int form = 11;
    if (!text.empty() && text[0] == '0') {
        form = 7;
        text.remove_prefix(1);
    } else if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') {
        form = 13;
    }
    if (form != size || text.size() < 2) return invalid;
    const char base = size == 13 ? 'A' : 'a';
    const int file = text[0] - base;
    if (file < 0 || file >= size) return invalid;
    auto rank = parse_integer(text.substr(1), 1, size);
    // A sign is not part of a square name.
    if (!rank || text[1] == '+' || text[1] == '-') return invalid;
    return Square(int(*rank - 1) * size + file);
}

} // namespace branan
