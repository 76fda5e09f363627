#pragma once

// Text formats: TFEN (our position string), OpenTafl position and move
// records, and move text. Every parser returns an Error naming what was
// wrong and where; none of them touches an existing Position.

#include <string>
#include <string_view>

#include "movegen.h"
#include "placement.h"
#include "position.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// TFEN: ranks from the top down separated by '/', 't' attacker, 'T'
// defender, 'K' king ('c' 'n' 'C' 'N' OpenTafl's commanders and knights),
// digits for runs of empty squares; then the side to
// move 'a' or 'd', plies since the last capture and the move number (both
// optional: 0 and 1).
Result<Position> parse_tfen(EditionPtr edition, std::string_view text);
std::string to_tfen(const Position& pos);

// OpenTafl position record: "/row/row/.../", rank 1 first, no side to move.
Result<Position> parse_opentafl_position(EditionPtr edition, std::string_view text, Side to_move);
std::string to_opentafl_position(const Position& pos);

std::string square_name(const Edition& edition, Square s);
Result<Square> parse_square(const Edition& edition, std::string_view text);

// "d1-c1"
std::string move_name(const Edition& edition, Move m);
// Reads "d1-c1", "d1c1" and OpenTafl move records ("e5-e8xe9/d8+",
// Berserk's "Nb5^=b3xcb4"): piece letters, the jump and chain marks, the
// capture and king suffixes are accepted and ignored. Checks the squares are
// on the board, not that the move is legal.
Result<Move> parse_move(const Edition& edition, std::string_view text);
// As parse_move, and the move must be legal in pos.
Result<Move> parse_legal_move(const Position& pos, std::string_view text);
// Whether `m` is legal in `pos`, and if not why, in the words of
// parse_legal_move.
Status check_move(const Position& pos, Move m);
// OpenTafl move record of a legal move: "e5-e8xe9/d8" plus "++" if the king
// is captured or "--" if he escapes. Berserk's records name commanders and
// knights by their letter ("Ne5-b5xcb6"), mark a jump '^' and a chain's
// later move '=' ("Nb5^=b3xb4").
std::string move_record(const Position& before, Move m);

// The move an OpenTafl move record (a game record's ply) names in `before`, the record checked
// against what the move does there. Both ways of writing a king's capture
// are read: ours (engine/notation.h move_record: the king's square left out
// of the captures, "++" after them) and OpenTafl's, which lists the king's
// square among the captures or after "++", with or without the piece's
// letter ('K'). OpenTafl's letter before a king's move and its "+" and "-"
// (a threatened king, an open route) are read too. An error says what is
// wrong: the move itself (not legal here), or a record whose captures or
// end are not the move's (the record the rules give is quoted).
Result<Move> read_record_move(const Position& before, std::string_view written);

} // namespace BRANAN_BOARD_NS
} // namespace branan
