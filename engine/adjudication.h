#pragma once

// hnefatafl.org's adjudication (cne:y, HNEFATAFL.md 1.6): after a move that
// leaves the game on, the attackers win when its heuristics say the king can
// no longer escape. It is a rule of that site's games, not a judgement of
// ours, so it is read exactly as its code reads it, quirks included.

#include "edition.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// Whether the defenders "cannot escape", from the pieces alone (`defenders`
// includes the king on `king`):
//  1. the king stands on an edge square not next to a corner, the two
//     squares on each side of him along the edge are attackers (a corner
//     among them is skipped and counts as one more attacker, A below), then
//     if A > 5 the two squares straight inward from him are attackers; and
//     either fewer than 2 defender soldiers remain, or A > 7 and the two
//     squares inward from one of his edge neighbours are attackers; or
//  2. every corner is closed (the two squares next to it along both edges
//     are attackers, or a flood from its neighbours reaches no defender) and
//     then: fewer than 4 defender soldiers and at least 13 attackers; or
//     fewer than 6 defender soldiers and every edge has at most 3 open
//     squares in one run; or every edge has at most 2 open squares in one
//     run (open: neither an attacker nor sealed by a corner's closing).
bool cannot_escape(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king);

} // namespace BRANAN_BOARD_NS
} // namespace branan
