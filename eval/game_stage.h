#pragma once

// Where a position's game stands, as a win-chance model reads it
// (win_chance.h): pieces on the board and at the edition's start, per side,
// the plies played against the rules' ply limit, and the side to move.

#include "position.h"
#include "win_chance.h"

namespace branan {

inline GameStage stage_of(const Position& pos) {
    const Position start(pos.edition_ptr());
    GameStage m;
    m.attackers = popcount(pos.pieces(ATTACKERS));
    m.defenders = popcount(pos.pieces(DEFENDERS));
    m.attackers_start = popcount(start.pieces(ATTACKERS));
    m.defenders_start = popcount(start.pieces(DEFENDERS));
    m.ply = pos.plies_played();
    m.ply_limit = pos.edition().rules.draw_ply;
    m.to_move = pos.side_to_move();
    return m;
}

} // namespace branan
