#pragma once

// OpenTafl's shieldwall capture (sw, swf), as its code judges it in a game
// (GameState.moveTaflman, BoardImpl.detectShieldwallPositionsForSide,
// GameState.checkShieldwallPositionForCaptures; see OTN.md and docs/rules.md,
// "Shieldwall and edge forts"). The scan also serves the edge-fort escape.
//
// A wall is a run of edge squares, each with a walling piece directly
// inside it, closed at both ends by a walling piece or (sw:s) a corner. The
// scan is OpenTafl's single left-to-right walk over the four edges with its
// quirks, not a clean definition: the capture rule is whatever that walk
// finds.

#include "edition.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// The board as the scan reads it: each side's pieces (the king among the
// defenders) and the king's square as a board.
struct EdgeBoard {
    Bitboard side[2] = {0, 0};
    Bitboard kings = 0;
};

// One wall the scan recorded: `squares` are the enclosed edge squares
// (OpenTafl's surroundedSpaces), `closers` the squares of the walling pieces
// recorded with it (surroundingTaflmen): the pieces inside the run, the high
// end, and the low end only when no run was open on reaching it.
struct Wall {
    Bitboard squares = 0;
    Bitboard closers = 0;
};

// At most 4 walls closed by corners and 4 per edge closed by pieces (each
// encloses two squares and has a closer), with room to spare.
constexpr int MAX_WALLS = 32;

struct WallList {
    Wall walls[MAX_WALLS];
    int count = 0;
};

// The walls of side `us` (OpenTafl's detectShieldwallPositionsForSide with
// `us` as the surrounders), in the order the scan records them.
void find_walls(const Edition& edition, const EdgeBoard& b, Side us, WallList& out);

// The squares shieldwalls capture after a move of `mover` to `to`, read
// from the board after the move and its ordinary captures. `developed`:
// whether the moving piece had moved before (swf:y, see docs/rules.md). Every
// square returned holds a soldier of the side not moving. With swr:r and
// swr:g the rule is hnefatafl-rs's or hnefatafl.org's (edge_wall_captures),
// not the scan's.
Bitboard shieldwall_captures(const Edition& edition, const EdgeBoard& b, Side mover, Square to,
                             bool developed);

// The shieldwall as hnefatafl-rs checks it (HNEFATAFL.md 1.2): the mover,
// on an edge square, closes a run of two or more enemy pieces (the king
// among them) along that edge, each with a piece of the mover's inside it,
// whose far end is a piece of the mover's or (sw:s) a corner. The run's
// pieces but the king are captured. None of the scan's quirks. hnefatafl-rs
// looks toward file a / rank 1 first and at the other side only if there is
// no wall there; hnefatafl.org (swr:g) takes the walls on both sides.
Bitboard edge_wall_captures(const Edition& edition, const EdgeBoard& b, Side mover, Square to);

} // namespace BRANAN_BOARD_NS
} // namespace branan
