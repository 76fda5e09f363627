#pragma once

// Placements as text, for boards of any size: TFEN's fields and OpenTafl's
// position records. What makes them a Position is in notation.h.

#include <string>
#include <string_view>

#include "types.h"

namespace branan {

// A piece's letter in TFEN and OpenTafl records: t T K, and OpenTafl's
// commanders and knights c n (attackers) C N (defenders). NO_PIECE for any
// other letter.
Piece piece_of_letter(char c);
char letter_of_piece(Piece p);
// Whether c is one of OpenTafl's piece letters, those we play and those we
// refuse (k m g, M G): what its records may put before a square.
bool is_opentafl_piece_letter(char c);

// The fields of a TFEN (see notation.h): checked for form and size only.
struct TfenFields {
    Placement board{};
    Side side = ATTACKERS;
    int plies_since_capture = 0;
    int fullmove = 1;
};
Result<TfenFields> parse_tfen_fields(int size, std::string_view text);

// One rank as TFEN and OpenTafl records write it: letters and runs of
// empty squares.
std::string placement_row(int size, const Placement& board, int rank);

// The placement alone from an OpenTafl record (used for rules' start key).
Result<Placement> parse_opentafl_placement(int size, std::string_view text);
std::string to_opentafl_position_record(int size, const Placement& board);

} // namespace branan
