#include "walk.h"

#include <random>

#include "hash.h"
#include "movegen.h"
#include "notation.h"

namespace branan::book {

Walk random_walk(const EditionPtr& edition, uint64_t seed, int64_t index, int min_plies,
                 int max_plies) {
    std::mt19937_64 rng(splitmix64(splitmix64(seed) ^ splitmix64(uint64_t(index) + 1)));
    const int span = max_plies - min_plies + 1;
    const int plies = min_plies + int(rng() % uint64_t(span));
    Walk walk;
    Position pos(edition);
    for (int i = 0; i < plies; ++i) {
        MoveList list;
        generate_moves(pos, list);
        if (list.empty()) {
            walk.outcome = Walk::Outcome::GAME_OVER;
            break;
        }
        const Move m = list.moves[rng() % uint64_t(list.size())];
        walk.moves.push_back(move_name(*edition, m));
        pos.make_move(m);
        if (pos.result().over()) {
            walk.outcome = Walk::Outcome::GAME_OVER;
            break;
        }
    }
    walk.key = pos.key();
    walk.side_to_move = pos.side_to_move();
    return walk;
}

} // namespace branan::book
