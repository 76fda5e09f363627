#pragma once

// A bounded line reader: a line longer than the limit is skipped without
// ever being held in memory whole, and reported as too long.

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace branan {

constexpr size_t MAX_LINE_LENGTH = 64 * 1024; // bytes, without the "\n"

class LineReader {
  public:
    enum class Status { LINE, TOO_LONG, END };

    explicit LineReader(std::istream& in, size_t max_length = MAX_LINE_LENGTH);
    // LINE: `line` holds the next line without its "\n" (and without a
    // trailing "\r"). TOO_LONG: the line was longer than the limit and has
    // been skipped; `line` is empty. END: no more input.
    Status next(std::string& line);

  private:
    std::istream& in_;
    size_t max_length_;
    std::vector<char> buffer_;
};

} // namespace branan
