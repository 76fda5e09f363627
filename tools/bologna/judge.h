#pragma once

// The fake server's judge: the Bologna server's move check transcribed on
// its own (see server_check), not read from the rules data.

#include <vector>

#include "position.h"

namespace branan::bologna {

// The server's own move check (GameAshtonTablut.checkMove, BOLOGNA.md §6.2)
// written out as the server orders it, independently of the rules core's
// move generation, so that the fake server judges as the real one does and
// the tests can hold the rules core against it. A piece may stop on or pass a camp square
// only if it starts on one, and never goes from camp to camp more than 5
// squares. The camps are the rules' camp squares (camp:), the throne the
// rules' throne. Names the server's exception when the move is refused.
Status server_check(const Position& pos, Move m);
// Every move of the side to move that server_check accepts, in square order.
std::vector<Move> server_moves(const Position& pos);

} // namespace branan::bologna
