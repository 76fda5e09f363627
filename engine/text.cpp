#include "text.h"

namespace branan {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

} // namespace

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> out;
    size_t pos = 0;
    while (true) {
        const size_t next = text.find(sep, pos);
        if (next == std::string_view::npos) {
            out.push_back(text.substr(pos));
            return out;
        }
        out.push_back(text.substr(pos, next - pos));
        pos = next + 1;
    }
}

std::vector<std::string_view> split_words(std::string_view text) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_space(text[i])) ++i;
        size_t end = i;
        while (end < text.size() && !is_space(text[end])) ++end;
        if (end > i) out.push_back(text.substr(i, end - i));
        i = end;
    }
    return out;
}

} // namespace branan
