#include "evaluate.h"

namespace branan {

Value evaluate(const Position& pos, const EvalParams& params) {
    const Value att = popcount(pos.pieces(ATTACKER)) * params.attacker;
    const Value def = popcount(pos.pieces(DEFENDER)) * params.defender;
    const Value score = att - def;
    return pos.side_to_move() == ATTACKERS ? score : -score;
}

} // namespace branan
