#include "progress.h"

#include <cstdio>
#include <unistd.h>

namespace branan::tune {

bool stderr_is_terminal() {
    return ::isatty(STDERR_FILENO) == 1;
}

std::string format_seconds(double s) {
    char buf[32];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%.1fs", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%dm%02ds", int(s) / 60, int(s) % 60);
    else
        std::snprintf(buf, sizeof buf, "%dh%02dm", int(s) / 3600, int(s) % 3600 / 60);
    return buf;
}

Progress::Progress(std::ostream& out, std::string label, int64_t total, bool tty)
    : out_(out), label_(std::move(label)), total_(total), tty_(tty),
      start_(std::chrono::steady_clock::now()), last_print_(start_) {}

std::string Progress::line(int64_t done, const std::string& note) const {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double frac = total_ > 0 ? double(done) / double(total_) : 1.0;
    constexpr int WIDTH = 24;
    const int filled = int(frac * WIDTH + 1e-9);
    // (Built in place: "[" + std::string makes GCC 12 warn falsely, -Wrestrict.)
    std::string bar(WIDTH + 2, '.');
    bar.front() = '[';
    bar.back() = ']';
    for (int i = 0; i < filled; ++i) bar[1 + i] = '#';
    char buf[160];
    const double eta = done > 0 ? elapsed * double(total_ - done) / double(done) : 0;
    std::snprintf(buf, sizeof buf, "%s %s %lld/%lld %3.0f%% elapsed %s ETA %s", label_.c_str(),
                  bar.c_str(), (long long)done, (long long)total_, 100 * frac,
                  format_seconds(elapsed).c_str(), done > 0 ? format_seconds(eta).c_str() : "?");
    std::string s = buf;
    if (!note.empty()) s += "  " + note;
    return s;
}

void Progress::update(int64_t done, const std::string& note, bool force) {
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_print_).count();
    if (tty_) {
        // Rewriting is cheap, but not 100,000 times a second.
        if (!force && printed_ && since < 0.1) return;
        out_ << "\r\033[K" << line(done, note) << std::flush;
    } else {
        if (!force && printed_ && since < 5.0) return;
        out_ << line(done, note) << "\n" << std::flush;
    }
    printed_ = true;
    last_print_ = now;
}

void Progress::finish(const std::string& note) {
    if (tty_)
        out_ << "\r\033[K" << line(total_, note) << "\n" << std::flush;
    else
        out_ << line(total_, note) << "\n" << std::flush;
}

} // namespace branan::tune
