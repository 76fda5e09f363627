#pragma once

// The one clock every part reads (steady: never set back), the helpers that
// turn it into milliseconds, and the limits of a time that input may give.

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace branan {

using Clock = std::chrono::steady_clock;

// The longest time any input may give, in milliseconds (about 35 years):
// room for any clock, small enough that sums of a few never overflow.
constexpr int64_t MAX_TIME_MS = int64_t(1) << 40;

// What a host's move gets when its game has no clock and no limit was set.
constexpr int64_t UNTIMED_MOVE_MS = 5000;

inline int64_t ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// Milliseconds since the Unix epoch, by the wall clock (what servers write).
inline int64_t utc_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Milliseconds left until `deadline`, 0 once it has passed.
inline int ms_until(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return int(std::clamp<int64_t>(left, 0, 1 << 30));
}

} // namespace branan
