#pragma once

// OpenTafl's edge-fort escape (efe:y), as its code judges it after every
// move (GameState.checkVictoryInternal, step 6 of the end-of-game order in
// OTN.md, after "no defender has room" and before encirclement).

#include "edition.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// Whether the defenders win by an edge fort, from the pieces alone
// (`defenders` includes the king on `king`). Either
//  1. the shieldwall scan, defenders walling, finds a wall holding the king
//     and he has a legal move (the other wall squares are not looked at); or
//  2. R, the king's square and every square he reaches by successive moves
//     of his own (the others standing still), touches the edge (or he stands
//     on it with a legal move); no attacker stands next to R; and no
//     defender next to R has three or more neighbours outside R that are
//     not held by defenders (OpenTafl's static test that none can be taken).
bool edge_fort_escape(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king);

// The exit fort as hnefatafl-rs checks it (efr:r, HNEFATAFL.md 1.3): the
// king stands on an edge square and has an empty neighbour; R, his square
// and the empty squares connected to it, holds no corner and touches no
// attacker; and every defender next to R is safe on both axes: on each, one
// neighbour is off the board, in R (an empty throne excepted: it is
// hostile) or a defender.
bool exit_fort(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king);

// The exit fort as hnefatafl.org's code checks it (efr:g, HNEFATAFL.md 1.3):
// the king stands on an edge square and has an empty neighbour; a walk from
// his neighbours through empty squares (corners and throne included)
// reaches no attacker; and every defender it reaches (the king too, reached
// back from his empty neighbours) has a defender or the board's end on one
// side of the axis across the step that reached it first, an empty square
// never counting. The walk goes last in, first out, from the king's
// neighbours pushed north, west, south, east, so which step reaches a piece
// first, and with it the result, can depend on the edge. With at most one
// attacker on the board the pieces are not tested.
bool reached_exit_fort(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king);

} // namespace BRANAN_BOARD_NS
} // namespace branan
