#include "judge.h"

#include <cstdlib>
#include <string>

#include "notation.h"

namespace branan::bologna {

Status server_check(const Position& pos, Move m) {
    const Edition& edition = pos.edition();
    const Square from = m.from(), to = m.to();
    if (from < 0 || from >= edition.num_squares || to < 0 || to >= edition.num_squares)
        return Error{"BoardException: off the board"};
    Bitboard camps = 0;
    for (Square s : edition.rules.camps) camps |= square_bb(s);
    const bool from_camp = test(camps, from), to_camp = test(camps, to);
    const int df = edition.file_of(to) - edition.file_of(from),
              dr = edition.rank_of(to) - edition.rank_of(from);
    if (test(edition.throne, to) && pos.piece_on(to) == NO_PIECE)
        return Error{"ThroneException: nobody lands on the empty throne"};
    if (pos.piece_on(to) != NO_PIECE) return Error{"OccupitedException: the square is occupied"};
    if (to_camp && !from_camp)
        return Error{"CitadelException: only a piece on a camp may enter a camp"};
    if (to_camp && from_camp && (std::abs(df) > 5 || std::abs(dr) > 5))
        return Error{"CitadelException: no move from camp to camp across the board"};
    if (from == to) return Error{"StopException: the piece does not move"};
    const Piece p = pos.piece_on(from);
    if (p == NO_PIECE || side_of(p) != pos.side_to_move())
        return Error{"PawnException: no piece of the side to move on the origin"};
    if (df != 0 && dr != 0) return Error{"DiagonalException: the move is not along a line"};
    const int step = df ? (df > 0 ? 1 : -1) : (dr > 0 ? edition.size : -edition.size);
    for (Square s = from + step;; s += step) {
        if (pos.piece_on(s) != NO_PIECE || test(edition.throne, s))
            return Error{"ClimbingException: the way is blocked on " + square_name(edition, s)};
        if (test(camps, s) && !from_camp)
            return Error{"ClimbingCitadelException: the way crosses the camp " +
                         square_name(edition, s)};
        if (s == to) break;
    }
    return {};
}

std::vector<Move> server_moves(const Position& pos) {
    const Edition& edition = pos.edition();
    std::vector<Move> moves;
    for_each_square(pos.pieces(pos.side_to_move()), [&](Square from) {
        for (Square to = 0; to < edition.num_squares; ++to) {
            if (to == from || (edition.file_of(to) != edition.file_of(from) &&
                               edition.rank_of(to) != edition.rank_of(from)))
                continue;
            if (server_check(pos, Move(from, to)).ok()) moves.push_back(Move(from, to));
        }
    });
    return moves;
}

} // namespace branan::bologna
