#pragma once

// The schedule of a match: which engines play which game, with which sides
// and opening, in what order (cutechess's round-robin tournament). Every
// pair of engines (in -engine order) meets `games` times a round; the
// sides alternate within an encounter, so under -repeat the two games of a
// pair share one opening with the sides swapped.

#include <cstdint>
#include <vector>

namespace branan::match {

struct ScheduledGame {
    int64_t number = 0;        // 1, 2, ...: the order the games are handed out
    int64_t round = 0;         // from 1
    int first = 0, second = 0; // the engines (indices in -engine order), first < second
    int attackers = 0, defenders = 0;
    int64_t opening = 0; // the opening book's slot
    int64_t pair = -1;   // under -repeat: the pair this game is half of
    bool operator==(const ScheduledGame&) const = default;
};

// Rounds, then engine pairs (0-1, 0-2, ..., 1-2, ...), then the encounter's
// games. The first engine attacks in the encounter's even games (0, 2, ...).
// Openings are numbered across the whole match: one per game, or one per
// pair of games under -repeat (an odd last game gets one of its own).
std::vector<ScheduledGame> make_schedule(int engines, int rounds, int games, bool repeat);

} // namespace branan::match
