#pragma once

// What a search is asked (SearchLimits) and what it reports (SearchInfo,
// BestMove), for every board width.

#include <cstdint>
#include <vector>

#include "types.h"
#include "value.h"
#include "win_chance.h"

namespace branan {

// What `go` may say. Zero / empty means "not given".
struct SearchLimits {
    int depth = 0;
    uint64_t nodes = 0;
    int64_t movetime_ms = 0;
    // A hard limit for this move with nothing carried over (a per-move time
    // limit such as the Bologna server's): the search never goes past it,
    // and takes only part of it when the move is forced, proven or stable.
    int64_t budget_ms = 0;
    int64_t time_ms[2] = {-1, -1}; // remaining clock per side (index Side); -1 = no clock
    int64_t inc_ms[2] = {0, 0};
    int movestogo = 0;
    int mate = 0; // search for a win in this many moves
    bool infinite = false;
    bool ponder = false;
    std::vector<Move> searchmoves; // restrict the root to these
};

enum class Bound : uint8_t { NONE = 0, UPPER = 1, LOWER = 2, EXACT = 3 };

// Reported after every completed depth (one per MultiPV line).
struct SearchInfo {
    int depth = 0;
    int seldepth = 0;
    int multipv = 1;
    Value score = 0; // from the side to move, centi-soldiers (the evaluation's scale)
    int mate = 0;    // != 0: win (>0) or loss (<0) in this many moves
    // What a host shows, filled by the Engine facade: the score on the
    // edition's calibrated scale (eval/win_chance.h; the raw score with the
    // Raw Scores option), and the win chances of the side to move.
    Value cp = 0;
    WinChances wdl;
    Bound bound = Bound::EXACT;
    uint64_t nodes = 0;
    uint64_t nps = 0;
    int hashfull = 0; // per mille
    int64_t time_ms = 0;
    std::vector<Move> pv;
};

struct BestMove {
    Move best;   // MOVE_NONE when the side to move has no move
    Move ponder; // may be MOVE_NONE
    // The rest of the turn when `best` opens a berserk chain: the moves the
    // same side makes after it (engine/berserk.h), each legal in turn.
    std::vector<Move> chain;
};

} // namespace branan
