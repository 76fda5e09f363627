#include "tally.h"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "logging.h"

namespace branan::soak {

namespace {

const char* failure_name(Failure f) {
    switch (f) {
    case Failure::ILLEGAL_MOVE:
        return "illegal move";
    case Failure::TIME_LOSS:
        return "time loss";
    case Failure::HUNG:
        return "hung";
    case Failure::CRASHED:
        return "crashed";
    case Failure::BROKEN_ANSWER:
        return "broken answer";
    }
    return "?";
}

int64_t sum(const std::map<std::string, int64_t>& m) {
    int64_t s = 0;
    for (const auto& [k, v] : m) s += v;
    return s;
}

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

double percent_change(int64_t from_kb, int64_t to_kb) {
    if (from_kb <= 0 || to_kb < 0) return 0;
    return 100.0 * double(to_kb - from_kb) / double(from_kb);
}

} // namespace

void Tally::game(const std::string& part, int64_t n) {
    std::lock_guard lock(mutex_);
    parts_[part].games += n;
}

void Tally::injected(const std::string& part, const std::string& kind, int64_t n) {
    std::lock_guard lock(mutex_);
    parts_[part].injected[kind] += n;
}

void Tally::survived(const std::string& part, const std::string& kind, int64_t n) {
    std::lock_guard lock(mutex_);
    parts_[part].survived[kind] += n;
}

void Tally::failure(const std::string& part, Failure kind, const std::string& what) {
    std::lock_guard lock(mutex_);
    PartCounts& c = parts_[part];
    switch (kind) {
    case Failure::ILLEGAL_MOVE:
        ++c.illegal_moves;
        break;
    case Failure::TIME_LOSS:
        ++c.time_losses;
        break;
    case Failure::HUNG:
        ++c.hung;
        break;
    case Failure::CRASHED:
        ++c.crashed;
        break;
    case Failure::BROKEN_ANSWER:
        ++c.broken_answers;
        break;
    }
    const std::string line = part + ": " + failure_name(kind) + ": " + what;
    logger().error("soak: {}", line);
    if (failures_.size() < 200) failures_.push_back(line);
}

void Tally::watch(const std::string& label, pid_t pid, bool judged) {
    std::lock_guard lock(mutex_);
    MemoryRecord m;
    m.label = label;
    m.pid = pid;
    m.started = Clock::now();
    m.judged = judged;
    memory_.push_back(m);
}

void Tally::unwatch(pid_t pid) {
    std::lock_guard lock(mutex_);
    for (MemoryRecord& m : memory_)
        if (m.pid == pid) m.alive = false;
}

void Tally::sample_memory() {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    for (MemoryRecord& m : memory_) {
        if (!m.alive || now - m.started < std::chrono::minutes(1)) continue;
        const int64_t kb = resident_kb(m.pid);
        if (kb < 0) continue;
        if (m.first_kb < 0) m.first_kb = kb;
        if (m.settled_kb < 0 && now - m.started >= std::chrono::minutes(5)) m.settled_kb = kb;
        m.last_kb = kb;
        m.last_at = now;
    }
}

std::map<std::string, PartCounts> Tally::counts() const {
    std::lock_guard lock(mutex_);
    return parts_;
}

std::vector<MemoryRecord> Tally::memory() const {
    std::lock_guard lock(mutex_);
    return memory_;
}

std::vector<std::string> Tally::failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
}

int64_t Tally::total_failures() const {
    std::lock_guard lock(mutex_);
    int64_t n = 0;
    for (const auto& [name, c] : parts_) n += c.failures();
    for (const MemoryRecord& m : memory_) n += grew(m);
    return n;
}

int64_t resident_kb(pid_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0) {
            std::istringstream in(line.substr(6));
            int64_t kb = -1;
            in >> kb;
            return kb;
        }
    return -1;
}

double growth_percent(const MemoryRecord& m) {
    return percent_change(m.first_kb, m.last_kb);
}

double settled_growth_percent(const MemoryRecord& m) {
    return percent_change(m.settled_kb, m.last_kb);
}

bool judged_now(const MemoryRecord& m) {
    return m.judged && m.settled_kb > 0 && m.last_at - m.started > std::chrono::minutes(5);
}

bool grew(const MemoryRecord& m) {
    return judged_now(m) && growth_percent(m) > MAX_MEMORY_GROWTH_PERCENT;
}

std::string progress_line(const Tally& tally, double minutes) {
    std::ostringstream s;
    s << "soak " << fixed(minutes, 1) << " min:";
    for (const auto& [name, c] : tally.counts())
        s << " " << name << " " << c.games << " games " << sum(c.injected) << " faults "
          << c.failures() << " failures;";
    int64_t watched = 0, over = 0;
    for (const MemoryRecord& m : tally.memory()) {
        if (!judged_now(m)) continue;
        ++watched;
        over += grew(m);
    }
    s << " memory: " << watched << " processes past five minutes, " << over << " grew over "
      << fixed(MAX_MEMORY_GROWTH_PERCENT, 0) << " % since their first minute";
    return s.str();
}

void print_report(std::ostream& out, const Tally& tally, double minutes, uint64_t seed,
                  bool markdown) {
    const auto counts = tally.counts();
    // A table in either form: Markdown pipes, or padded columns.
    auto row = [&](const std::vector<std::string>& cells, const std::vector<int>& widths) {
        if (markdown) {
            out << "|";
            for (const std::string& c : cells) out << " " << c << " |";
        } else {
            for (size_t i = 0; i < cells.size(); ++i)
                out << std::left << std::setw(widths[i]) << cells[i]
                    << (i + 1 < cells.size() ? " " : "");
        }
        out << "\n";
    };
    auto rule = [&](size_t n) {
        if (!markdown) return;
        out << "|";
        for (size_t i = 0; i < n; ++i) out << "---|";
        out << "\n";
    };
    out << (markdown ? "### " : "") << "Soak of " << fixed(minutes, 1) << " minutes (seed " << seed
        << ")\n\n";
    const std::vector<int> w1 = {14, 6, 8, 9, 8, 6, 5, 8, 8};
    row({"part", "games", "faults", "survived", "illegal", "time", "hung", "crashed", "broken"},
        w1);
    rule(w1.size());
    auto part_row = [&](const std::string& name, const PartCounts& c) {
        row({name, std::to_string(c.games), std::to_string(sum(c.injected)),
             std::to_string(sum(c.survived)), std::to_string(c.illegal_moves),
             std::to_string(c.time_losses), std::to_string(c.hung), std::to_string(c.crashed),
             std::to_string(c.broken_answers)},
            w1);
    };
    PartCounts total;
    for (const auto& [name, c] : counts) {
        part_row(name, c);
        total.games += c.games;
        total.illegal_moves += c.illegal_moves;
        total.time_losses += c.time_losses;
        total.hung += c.hung;
        total.crashed += c.crashed;
        total.broken_answers += c.broken_answers;
        for (const auto& [k, v] : c.injected) total.injected[k] += v;
        for (const auto& [k, v] : c.survived) total.survived[k] += v;
    }
    part_row("all", total);

    out << "\n" << (markdown ? "Faults by kind:\n\n" : "faults by kind:\n");
    const std::vector<int> w2 = {14, 30, 9, 9};
    row({"part", "fault", "injected", "survived"}, w2);
    rule(w2.size());
    for (const auto& [name, c] : counts)
        for (const auto& [kind, n] : c.injected) {
            auto s = c.survived.find(kind);
            row({name, kind, std::to_string(n),
                 std::to_string(s == c.survived.end() ? 0 : s->second)},
                w2);
        }

    out << "\n"
        << (markdown ? "Resident memory (KiB) of every process that lived past a minute: one "
                       "minute after its start, five minutes after, and at its end; judged, once "
                       "it has lived five minutes, by its growth from the one-minute "
                       "reading:\n\n"
                     : "resident memory (KiB) at 1 and 5 minutes and at the end; judged from 1:\n");
    const std::vector<int> w3 = {26, 8, 9, 9, 9, 9, 9, 12};
    row({"process", "minutes", "at 1", "at 5", "end", "from 1", "from 5", "memory"}, w3);
    rule(w3.size());
    for (const MemoryRecord& m : tally.memory()) {
        if (m.first_kb < 0) continue; // gone within its first minute
        const double lived = std::chrono::duration<double>(m.last_at - m.started).count() / 60.0;
        const bool settled = m.settled_kb > 0;
        row({m.label, fixed(lived, 1), std::to_string(m.first_kb),
             settled ? std::to_string(m.settled_kb) : "", std::to_string(m.last_kb),
             fixed(growth_percent(m), 1) + " %",
             settled ? fixed(settled_growth_percent(m), 1) + " %" : "",
             !m.judged        ? "not judged"
             : !judged_now(m) ? "too short"
             : grew(m)        ? "GREW"
                              : "flat"},
            w3);
    }
    out << (markdown ? "\nNot judged: the soak's own process (the fake servers, not Branan) and "
                       "the racing GUI's engines (their Hash changes at random).\n"
                     : "(not judged: the soak itself, and the racing GUI's engines, whose Hash "
                       "changes)\n");

    const auto failures = tally.failures();
    out << "\n" << (markdown ? "Failures: " : "failures: ") << tally.total_failures() << "\n";
    for (const std::string& f : failures) out << (markdown ? "- " : "  ") << f << "\n";
}

} // namespace branan::soak
