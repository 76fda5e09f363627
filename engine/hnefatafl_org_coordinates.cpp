#include "hnefatafl_org_coordinates.h"

#include <cctype>

#include "coordinates.h"

namespace branan {

std::string org_square_name(int size, Square s) {
    std::string name = square_text(size, s);
    if (size == 13) name[0] = char(std::toupper(static_cast<unsigned char>(name[0])));
    if (size == 7) name.insert(0, 1, '0');
    return name;
}

Result<Square> parse_org_square(int size, std::string_view text) {
    const Error invalid{"play: invalid coordinate"};
    // The form the name has: 0 + lowercase (7), lowercase (11), uppercase (13).
    int form = 11;
    if (!text.empty() && text[0] == '0') {
        form = 7;
        text.remove_prefix(1);
    } else if (!text.empty() && std::isupper(static_cast<unsigned char>(text[0]))) {
        form = 13;
    }
    if (form != size || text.empty()) return invalid;
    std::string ours(text);
    ours[0] = char(std::tolower(static_cast<unsigned char>(ours[0])));
    auto s = parse_square_text(size, ours);
    if (!s) return invalid;
    return *s;
}

} // namespace branan
