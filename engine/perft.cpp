#include "perft.h"

#include "reply_count.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return uint64_t(count_moves(pos));
    MoveList list;
    generate_moves(pos, list);
    uint64_t nodes = 0;
    // The repetition ban depends on the boards before, and special moves are
    // not in the line tables: counted move by move.
    if (depth == 2 && !pos.edition().rules.defender_repetition_ban &&
        !pos.edition().special_moves && !pos.edition().line_counts.empty()) {
        // Bulk count: the replies to each move, without making it.
        if (list.empty()) return 0;
        const ReplyCounter counter(pos);
        for (Move m : list) nodes += uint64_t(counter.replies(m));
        return nodes;
    }
    for (Move m : list) {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    return nodes;
}

uint64_t perft_turns(Position& pos, int depth) {
    if (depth <= 0) return 1;
    MoveList list;
    generate_moves(pos, list);
    uint64_t nodes = 0;
    for (Move m : list) {
        pos.make_move(m);
        // An open chain is the same turn.
        nodes += perft_turns(pos, pos.berserker() == NO_SQUARE ? depth - 1 : depth);
        pos.unmake_move();
    }
    return nodes;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth) {
    std::vector<std::pair<Move, uint64_t>> out;
    if (depth <= 0) return out;
    MoveList list;
    generate_moves(pos, list);
    for (Move m : list) {
        pos.make_move(m);
        out.emplace_back(m, perft(pos, depth - 1));
        pos.unmake_move();
    }
    return out;
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
