#include <thread>

#include "parts.h"

namespace branan::soak {

void nap(const SoakContext& c, int64_t ms) {
    const auto until = Clock::now() + std::chrono::milliseconds(ms);
    while (!*c.stop && Clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min<int64_t>(ms, 50)));
}

bool ready_line(match::ChildProcess& child, std::string& line) {
    return child.read_line(line, Clock::now() + std::chrono::milliseconds(1)) == ReadStatus::LINE;
}

int64_t pick(std::mt19937_64& rng, int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

bool chance(std::mt19937_64& rng, double p) {
    return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}

} // namespace branan::soak
