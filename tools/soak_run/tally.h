#pragma once

// What the soak counts, shared by its parts (each on its own thread): per
// part, the games, the faults injected and survived by kind, and the
// failures the soak exists to find (illegal moves sent, time losses, hung
// or crashed processes, protocol answers that break a rule), plus the
// resident memory of each long-running process. Thread-safe.

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <sys/types.h>
#include <vector>

namespace branan::soak {

using Clock = std::chrono::steady_clock;

// The counters of one part. The failure counters must end at 0.
struct PartCounts {
    int64_t games = 0;
    std::map<std::string, int64_t> injected; // faults by kind
    std::map<std::string, int64_t> survived; // of those, survived
    int64_t illegal_moves = 0;               // moves sent by Branan that the judge refused
    int64_t time_losses = 0;                 // games Branan lost on its clock
    int64_t hung = 0;                        // Branan processes that stopped answering
    int64_t crashed = 0;                     // Branan processes that died unasked
    int64_t broken_answers = 0;              // an answer missing, doubled or unasked
    int64_t failures() const {
        return illegal_moves + time_losses + hung + crashed + broken_answers;
    }
};

// One process whose memory is watched: its resident set one minute after
// it started (warm-up over: the hash and tables are touched), five minutes
// after, and at its end. It is judged, once it has lived five minutes, by
// its growth from the one-minute reading: memory that rarer paths take (a
// resumed game, an overlong line, a deep search) must be given back.
struct MemoryRecord {
    std::string label;
    pid_t pid = -1;
    Clock::time_point started;
    int64_t first_kb = -1;   // at one minute
    int64_t settled_kb = -1; // at five minutes
    int64_t last_kb = -1;    // at the latest reading
    Clock::time_point last_at;
    bool judged = true; // false: not Branan, or its memory changes by design (Hash at random)
    bool alive = true;
};

enum class Failure { ILLEGAL_MOVE, TIME_LOSS, HUNG, CRASHED, BROKEN_ANSWER };

class Tally {
  public:
    void game(const std::string& part, int64_t n = 1);
    void injected(const std::string& part, const std::string& kind, int64_t n = 1);
    void survived(const std::string& part, const std::string& kind, int64_t n = 1);
    // Counts a failure and keeps its description (the first 200 of them)
    // for the report; each is also logged at once.
    void failure(const std::string& part, Failure kind, const std::string& what);

    // Memory: a process to watch from now on, and its end (the last
    // reading stays).
    void watch(const std::string& label, pid_t pid, bool judged = true);
    void unwatch(pid_t pid);
    // Reads every live watched process's resident set (/proc/PID/status).
    void sample_memory();

    std::map<std::string, PartCounts> counts() const;
    std::vector<MemoryRecord> memory() const;
    std::vector<std::string> failures() const;
    int64_t total_failures() const;

  private:
    mutable std::mutex mutex_;
    std::map<std::string, PartCounts> parts_;
    std::vector<MemoryRecord> memory_;
    std::vector<std::string> failures_;
};

// Resident set of a process in KiB, or -1 when it cannot be read.
int64_t resident_kb(pid_t pid);

// Memory growth of a watched process in per cent, from its first reading
// (one minute) or from its five-minute reading to its last. A process is
// judged once it has lived five minutes, by the first: growth over the
// bound is a failure.
constexpr double MAX_MEMORY_GROWTH_PERCENT = 5.0;
double growth_percent(const MemoryRecord& m);
double settled_growth_percent(const MemoryRecord& m);
bool judged_now(const MemoryRecord& m);
bool grew(const MemoryRecord& m);

// The report: a table per part, faults by kind, memory, failures. As
// Markdown (`markdown`) or plain text for the terminal.
void print_report(std::ostream& out, const Tally& tally, double minutes, uint64_t seed,
                  bool markdown);
// One line for the per-minute progress on stderr.
std::string progress_line(const Tally& tally, double minutes);

} // namespace branan::soak
