#include "quiet.h"

#include "movegen.h"

namespace branan::tune {

PositionKind classify(Position& pos) {
    if (pos.result().over()) return PositionKind::DECIDED;
    MoveList moves;
    generate_moves(pos, moves);
    bool capture = false;
    for (Move m : moves) {
        pos.make_move(m);
        // decided(): king captured or escaped, no attackers left, no room
        // or encirclement: the wins by the pieces, which the evaluation's
        // escape and capture-threat terms price. Repetition and move limits
        // are not tactics of the position.
        const bool ends = pos.decided().over();
        capture = capture || pos.last_captured() != 0;
        pos.unmake_move();
        if (ends) return PositionKind::WIN_IN_ONE;
    }
    return capture ? PositionKind::CAPTURE : PositionKind::QUIET;
}

const char* to_string(PositionKind kind) {
    switch (kind) {
    case PositionKind::QUIET:
        return "quiet";
    case PositionKind::DECIDED:
        return "decided";
    case PositionKind::WIN_IN_ONE:
        return "win in one";
    case PositionKind::CAPTURE:
        return "capture";
    }
    return "?";
}

} // namespace branan::tune
