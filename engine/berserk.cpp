#include "berserk.h"

#include <cstdlib>

namespace branan {
inline namespace BRANAN_BOARD_NS {
namespace berserk {

Jump jump_of(const Position& pos, Square s) {
    const Rules& r = pos.edition().rules;
    if (pos.piece_on(s) == KING) return r.king_jump;
    if (test(pos.knights(), s)) return r.knight_jump;
    if (test(pos.commanders(), s)) return r.commander_jump;
    return Jump::NONE;
}

bool is_jump(const Position& pos, Move m) {
    const Edition& edition = pos.edition();
    const int df = std::abs(edition.file[m.to()] - edition.file[m.from()]);
    const int dr = std::abs(edition.rank[m.to()] - edition.rank[m.from()]);
    if (df + dr != 2 || (df && dr)) return false;
    return pos.piece_on((m.from() + m.to()) / 2) != NO_PIECE;
}

bool jump_takes(const Position& pos, Move m) {
    return jump_of(pos, m.from()) == Jump::CAPTURE && is_jump(pos, m);
}

namespace {

// Whether square s counts against `victim` (OpenTafl's isSpaceHostileTo): an
// enemy piece (the king only where he is armed as an anvil), else what the
// square's kind says, empty or held by a friend.
bool hostile_to(const Position& pos, Square s, Piece victim) {
    const Edition& edition = pos.edition();
    const Piece q = pos.piece_on(s);
    if (q == NO_PIECE) return test(edition.hostile_empty[victim], s);
    if (side_of(q) != side_of(victim)) return q != KING || edition.king_anvil;
    return test(edition.hostile_occupied[victim], s);
}

} // namespace

bool captured_by(const Position& pos, Square victim_sq, Piece capturer, bool special, Square to,
                 Square from) {
    const Edition& edition = pos.edition();
    const Piece victim = pos.piece_on(victim_sq);
    if (victim == NO_PIECE || side_of(victim) == side_of(capturer)) return false;
    if (capturer == KING && !edition.king_hammer) return false;
    auto against = [&](Square s) { return s == to || hostile_to(pos, s, victim); };
    const bool strong = victim == KING && test(edition.king_strong, victim_sq);
    const bool commanded = edition.commanded[side_of(capturer)];
    if (strong && (edition.edge_captures_king || !commanded)) {
        // Four sides; with ks:m the board's edge is no side.
        for (int d = 0; d < 4; ++d) {
            const Square c = edition.neighbour[victim_sq][d];
            if (c == NO_SQUARE ? !edition.edge_captures_king : !against(c)) return false;
        }
        return true;
    }
    // A sandwich on the line of the move.
    const bool on_file = edition.file[victim_sq] == edition.file[to];
    const Square a = edition.neighbour[victim_sq][on_file ? SOUTH : WEST];
    const Square b = edition.neighbour[victim_sq][on_file ? NORTH : EAST];
    if (a == NO_SQUARE || b == NO_SQUARE || !against(a) || !against(b)) return false;
    // A jumper does not capture against itself on an ordinary square.
    if ((a == to && b == from && !test(edition.special_squares, b)) ||
        (b == to && a == from && !test(edition.special_squares, a)))
        return false;
    if (!strong) return true;
    // A strong king against commanders: commanders, knights or hostile
    // corners on both sides, the throne nowhere.
    if (test(edition.throne, a) || test(edition.throne, b) || test(edition.throne, victim_sq))
        return false;
    int count = special; // the capturer counts once more (OpenTafl reads it twice)
    for (Square s : {a, b}) {
        count += test(edition.corners, s) && hostile_to(pos, s, victim);
        count += pos.is_special(s);
    }
    return count >= 2;
}

bool move_captures(const Position& pos, Move m) {
    const Edition& edition = pos.edition();
    const Square from = m.from(), to = m.to();
    if (jump_takes(pos, m)) return true;
    const Piece p = pos.piece_on(from);
    const bool special = pos.is_special(from);
    for (int d = 0; d < 4; ++d) {
        const Square s = edition.neighbour[to][d];
        if (s != NO_SQUARE && captured_by(pos, s, p, special, to, from)) return true;
    }
    return false;
}

bool continues_chain(const Position& pos, Square s) {
    switch (pos.edition().rules.berserk) {
    case Berserk::NONE:
        return false;
    case Berserk::MOVE: {
        bool any = false;
        for_each_target(pos, s, [&](Square) { any = true; });
        return any;
    }
    case Berserk::CAPTURE: {
        bool any = false;
        for_each_target(pos, s, [&](Square to) { any = any || move_captures(pos, Move(s, to)); });
        return any;
    }
    }
    return false;
}

} // namespace berserk
} // namespace BRANAN_BOARD_NS
} // namespace branan
