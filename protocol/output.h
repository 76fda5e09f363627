#pragma once

// Output of the protocol loops and one-shot commands: whole lines, each
// ended by "\n" and flushed at once, never interleaved (the search reports
// from its own threads).

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

} // namespace branan
