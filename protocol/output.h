#pragma once

// Output of the protocol loops and one-shot commands: whole lines, each
// ended by "\n" and flushed at once, never interleaved (the search reports
// from its own threads). Also the helpers that make user input safe to echo.

#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

namespace branan {

class LineWriter {
  public:
    explicit LineWriter(std::ostream& out) : out_(out) {}
    // Writes `text` and "\n", then flushes. Any '\n' or '\r' inside becomes
    // a space, so one call is always exactly one line.
    void line(std::string_view text);

  private:
    std::mutex mutex_;
    std::ostream& out_;
};

// User input made safe to quote in a message: non-printable bytes become
// '?', and at most `max` characters are kept ("..." marks a cut).
std::string printable(std::string_view text, size_t max = 40);

} // namespace branan
