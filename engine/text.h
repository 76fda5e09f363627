#pragma once

// Reading and quoting text, for every reader of text in the project
// (notation, rules strings, evaluation files, options, protocol lines).
// Each helper exists once here; callers add their own context to errors.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace branan {

// The pieces between separators: n separators give n + 1 pieces, empty ones
// included ("a,,b" gives "a", "", "b"; "" gives one empty piece).
std::vector<std::string_view> split(std::string_view text, char sep);

// The words: runs of characters other than ASCII white space (space, tab,
// \r, \n, \v, \f); empty words are never returned.
std::vector<std::string_view> split_words(std::string_view text);

// A whole token as a decimal integer from lo to hi: an optional sign, then
// digits and nothing else. The error says "'TOKEN' is not a number" or
// "'TOKEN' is out of range (LO..HI)"; callers prefix what was being read.
Result<int64_t> parse_integer(std::string_view text, int64_t lo, int64_t hi);

// ASCII case-insensitive equality (option names, protocol words).
bool iequals(std::string_view a, std::string_view b);

// Text from outside made safe to quote in an error message: characters
// other than printable ASCII become '?', and at most `max` characters are
// kept ("..." marks the cut).
std::string printable(std::string_view text, size_t max = 40);
// Appends `word` to `out`, after `separator` unless `out` is empty
// (a space-separated list built word by word).
void append_word(std::string& out, std::string_view word, char separator = ' ');
// printable(text) between single quotes: "'TOKEN'".
std::string single_quoted(std::string_view text, size_t max = 40);

} // namespace branan
