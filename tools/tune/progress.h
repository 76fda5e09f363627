#pragma once

// A progress line on stderr: a bar, the count, the rate and the time left.
// On a terminal it rewrites itself in place ('\r'); otherwise (a log file, a
// pipe) it prints plain lines, at most one every few seconds, so logs stay
// readable.

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace branan::tune {

class Progress {
  public:
    // `tty`: rewrite in place. Use stderr_is_terminal() for the real stream.
    Progress(std::ostream& out, std::string label, int64_t total, bool tty);
    // Reports `done` of total, with `note` after the bar (e.g. the losses).
    // `force`: print even if the last line is recent (plain mode).
    void update(int64_t done, const std::string& note = "", bool force = false);
    // The final line (a newline on a terminal).
    void finish(const std::string& note = "");

  private:
    std::string line(int64_t done, const std::string& note) const;

    std::ostream& out_;
    std::string label_;
    int64_t total_;
    bool tty_;
    std::chrono::steady_clock::time_point start_, last_print_;
    bool printed_ = false;
};

bool stderr_is_terminal();
// "1m05s", "3.2s"
std::string format_seconds(double seconds);

} // namespace branan::tune
