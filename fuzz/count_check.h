#pragma once

// A check both rules-core fuzz targets run: the counts perft uses without
// making moves (count_moves and ReplyCounter) equal the moves generated
// after making each move. Aborts on a difference.

#include <cstdlib>

#include "movegen.h"
#include "reply_count.h"

namespace branan::fuzzcheck {

inline void check_counts(Position& pos) {
    MoveList moves;
    generate_moves(pos, moves);
    if (count_moves(pos) != moves.size()) std::abort();
    // Boards above LINE_COUNT_MAX_SIZE have no line tables and no
    // ReplyCounter, special moves (Berserk) are not in them, and the
    // defenders' repetition ban depends on the boards before: perft counts
    // their moves one by one, as the ReplyCounter's contract asks.
    if (moves.empty() || pos.edition().line_counts.empty() || pos.edition().special_moves ||
        pos.edition().rules.defender_repetition_ban)
        return;
    const ReplyCounter counter(pos);
    for (Move m : moves) {
        pos.make_move(m);
        MoveList replies;
        generate_moves(pos, replies);
        const bool same = count_moves(pos) == replies.size();
        pos.unmake_move();
        if (!same || counter.replies(m) != replies.size()) std::abort();
    }
}

} // namespace branan::fuzzcheck
