#include "text.h"

#include <charconv>

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

Result<int64_t> parse_integer(std::string_view text, int64_t lo, int64_t hi) {
    const char* first = text.data();
    const char* last = text.data() + text.size();
    // from_chars takes '-' but not '+'.
    if (!text.empty() && text[0] == '+') {
        ++first;
        if (first != last && *first == '-') return Error{single_quoted(text) + " is not a number"};
    }
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec == std::errc::invalid_argument || ptr != last)
        return Error{single_quoted(text) + " is not a number"};
    if (ec == std::errc::result_out_of_range || v < lo || v > hi)
        return Error{single_quoted(text) + " is out of range (" + std::to_string(lo) + ".." +
                     std::to_string(hi) + ")"};
    return v;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i])) return false;
    }
    return true;
}

std::string printable(std::string_view text, size_t max) {
    std::string out;
    for (char c : text.substr(0, max)) out += (c >= 32 && c < 127) ? c : '?';
    if (text.size() > max) out += "...";
    return out;
}

void append_word(std::string& out, std::string_view word, char separator) {
    if (!out.empty()) out += separator;
    out += word;
}

std::string single_quoted(std::string_view text, size_t max) {
    std::string out = "'";
    out += printable(text, max);
    out += '\'';
    return out;
}

const char* to_string(Winner w) {
    switch (w) {
    case Winner::ATTACKERS:
        return "attackers";
    case Winner::DEFENDERS:
        return "defenders";
    case Winner::DRAW:
        return "draw";
    case Winner::NONE:
        break;
    }
    return "ongoing";
}

const char* to_string(EndReason r) {
    switch (r) {
    case EndReason::KING_CAPTURED:
        return "king-captured";
    case EndReason::KING_ESCAPED:
        return "king-escaped";
    case EndReason::NO_ATTACKERS:
        return "no-attackers";
    case EndReason::REPETITION:
        return "repetition";
    case EndReason::MOVE_LIMIT:
        return "move-limit";
    case EndReason::NO_MOVES:
        return "no-moves";
    case EndReason::ENCIRCLED:
        return "encircled";
    case EndReason::NO_DEFENDER_ROOM:
        return "no-defender-room";
    case EndReason::EDGE_FORT:
        return "edge-fort";
    case EndReason::CANNOT_ESCAPE:
        return "cannot-escape";
    case EndReason::PLY_LIMIT:
        return "ply-limit";
    case EndReason::NONE:
        break;
    }
    return "none";
}

} // namespace branan
