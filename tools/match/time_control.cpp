#include "time_control.h"

#include <cmath>
#include <cstdio>

#include "adapter.h"

namespace branan::match {

namespace {

constexpr double MAX_SECONDS = 100.0 * 365 * 24 * 3600;

bool parse_seconds(const std::string& text, double& out) {
    // "12", "0.5", "1:30" (minutes:seconds)
    try {
        size_t colon = text.find(':');
        size_t used = 0;
        if (colon != std::string::npos) {
            double m = std::stod(text.substr(0, colon), &used);
            if (used != colon) return false;
            std::string rest = text.substr(colon + 1);
            double s = std::stod(rest, &used);
            if (used != rest.size()) return false;
            out = m * 60 + s;
        } else {
            out = std::stod(text, &used);
            if (used != text.size()) return false;
        }
    } catch (...) {
        return false;
    }
    // Past a century the milliseconds would no longer fit the clock's arithmetic.
    return std::isfinite(out) && out >= 0 && out <= MAX_SECONDS;
}

// Exact to the millisecond, so that a time control reads back as itself.
std::string seconds_text(int64_t ms) {
    char buf[40];
    if (ms % 1000 == 0) {
        std::snprintf(buf, sizeof buf, "%lld", (long long)(ms / 1000));
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    return s;
}

} // namespace

std::string TimeControl::to_string() const {
    std::string s;
    if (movetime_ms > 0) {
        s = "st=";
        s += seconds_text(movetime_ms);
    } else {
        if (moves > 0) s = std::to_string(moves) + "/";
        s += seconds_text(base_ms);
        if (inc_ms > 0) {
            s += '+';
            s += seconds_text(inc_ms);
        }
    }
    if (depth > 0) s += " depth=" + std::to_string(depth);
    if (nodes > 0) s += " nodes=" + std::to_string(nodes);
    return s;
}

std::optional<TimeControl> parse_time_control(const std::string& text, std::string& error) {
    TimeControl tc;
    double x = 0;
    if (text.rfind("st=", 0) == 0) {
        if (!parse_seconds(text.substr(3), x) || x <= 0) {
            error = "bad time per move '" + text + "' (expected st=SECONDS)";
            return std::nullopt;
        }
        tc.movetime_ms = int64_t(std::llround(x * 1000));
        // Under half a millisecond it would read as no time per move at all.
        if (tc.movetime_ms <= 0) {
            error = "time per move '" + text + "' is under a millisecond";
            return std::nullopt;
        }
        return tc;
    }
    std::string rest = text;
    size_t slash = rest.find('/');
    if (slash != std::string::npos) {
        try {
            size_t used = 0;
            tc.moves = std::stoi(rest.substr(0, slash), &used);
            if (used != slash || tc.moves <= 0) throw 0;
        } catch (...) {
            error = "bad moves count in time control '" + text + "'";
            return std::nullopt;
        }
        rest = rest.substr(slash + 1);
    }
    size_t plus = rest.find('+');
    std::string base = rest.substr(0, plus);
    if (!parse_seconds(base, x)) {
        error = "bad time control '" + text +
                "' (expected [MOVES/]SECONDS[+INC] or st=SECONDS, at most a century)";
        return std::nullopt;
    }
    tc.base_ms = int64_t(std::llround(x * 1000));
    if (plus != std::string::npos) {
        if (!parse_seconds(rest.substr(plus + 1), x)) {
            error = "bad increment in time control '" + text + "'";
            return std::nullopt;
        }
        tc.inc_ms = int64_t(std::llround(x * 1000));
    }
    if (!tc.valid()) {
        error = "time control '" + text + "' gives no time";
        return std::nullopt;
    }
    return tc;
}

GameClock::GameClock(const TimeControl& attackers, const TimeControl& defenders)
    : tc_{&attackers, &defenders} {
    for (int s = 0; s < 2; ++s) left_[s] = tc_[s]->movetime_ms > 0 ? -1 : tc_[s]->base_ms;
}

int64_t GameClock::allowed_ms(Side s) const {
    return tc_[s]->movetime_ms > 0 ? tc_[s]->movetime_ms : left_[s];
}

void GameClock::fill(TurnRequest& req, Side us) const {
    const TimeControl& t = *tc_[us];
    if (t.movetime_ms > 0) {
        req.movetime_ms = t.movetime_ms;
    } else {
        for (int s = 0; s < 2; ++s) {
            req.time_ms[s] = left_[s] < 0 ? tc_[s]->movetime_ms : left_[s];
            req.inc_ms[s] = tc_[s]->inc_ms;
        }
        if (t.moves > 0) req.movestogo = t.moves - moves_made_[us] % t.moves;
    }
    req.depth = t.depth;
    req.nodes = t.nodes;
}

void GameClock::charge(Side us, int64_t elapsed_ms) {
    const TimeControl& t = *tc_[us];
    if (t.movetime_ms > 0) return;
    left_[us] -= elapsed_ms;
    left_[us] += t.inc_ms;
    ++moves_made_[us];
    if (t.moves > 0 && moves_made_[us] % t.moves == 0) left_[us] += t.base_ms;
}

} // namespace branan::match
