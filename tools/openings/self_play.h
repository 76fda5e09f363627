#pragma once

// Self-play games from an opening with the real engine, as the fast matches
// play them (tools/tune/generate, the strength tests): each side searches a
// fixed number of nodes a move, so a game is a pure function of the opening
// and the node counts. The book maker keeps an opening only when a pair of
// such games (sides swapped) is won once by each side: the search's score
// alone says "level" of positions the defenders then win in nearly every
// fast game.

#include <cstdint>
#include <string>
#include <vector>

#include "engine.h"

namespace branan::book {

// One game from the start position and `opening`, `attackers` searching
// attackers_nodes a move and `defenders` defenders_nodes; both engines start
// it fresh (new_game). A draw when max_plies plies pass after the opening.
Winner play_game(Engine& attackers, uint64_t attackers_nodes, Engine& defenders,
                 uint64_t defenders_nodes, const EditionPtr& edition,
                 const std::vector<std::string>& opening, int max_plies);

struct PairResult {
    Winner first = Winner::NONE;  // `a` (nodes) attacked, `b` (nodes + nodes / 4) defended
    Winner second = Winner::NONE; // the sides swapped
    // One win for each side: the games of a match from this opening can
    // tell two engines apart.
    bool split() const;
};

// The pair as branan-match plays it with -repeat and two engines at `nodes`
// and 25 % more (so the two games differ).
PairResult play_pair(Engine& a, Engine& b, uint64_t nodes, const EditionPtr& edition,
                     const std::vector<std::string>& opening, int max_plies);

} // namespace branan::book
