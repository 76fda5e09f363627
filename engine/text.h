#pragma once

// Splitting text into pieces, for every reader of text in the project
// (notation, rules strings, evaluation files, protocol lines). The pieces
// point into the text.

#include <string_view>
#include <vector>

namespace branan {

// The pieces between separators: n separators give n + 1 pieces, empty ones
// included ("a,,b" gives "a", "", "b"; "" gives one empty piece).
std::vector<std::string_view> split(std::string_view text, char sep);

// The words: runs of characters other than ASCII white space (space, tab,
// \r, \n, \v, \f); empty words are never returned.
std::vector<std::string_view> split_words(std::string_view text);

} // namespace branan
