#include "playout.h"

#include "evaluate.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"

namespace branan::tune {

std::string random_game_record(const VariantPtr& variant, std::mt19937_64& rng, int max_plies) {
    Position pos(variant);
    const EvalParams params = default_params(variant->rules);
    std::string plies;
    int n = 0;
    GameResult result;
    while (true) {
        result = pos.result();
        if (result.over() || n >= max_plies) break;
        MoveList moves;
        generate_moves(pos, moves);
        const Move m = moves.moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)];
        plies += std::to_string(++n) + (pos.side_to_move() == ATTACKERS ? " a " : " d ") +
                 move_record(pos, m) + " 1ms score=" + std::to_string(evaluate(pos, params)) + "\n";
        pos.make_move(m);
    }
    const Winner w = result.over() ? result.winner : Winner::DRAW;
    std::string out = "# branan-match game record 1\n";
    out += "Rules: " + print_rules(variant->rules) + "\n";
    out += "Start: " + to_tfen(Position(variant)) + "\n";
    out += std::string("Result: ") +
           (w == Winner::ATTACKERS   ? "attackers"
            : w == Winner::DEFENDERS ? "defenders"
                                     : "draw") +
           "\n";
    out +=
        std::string("Reason: ") + (result.over() ? to_string(result.reason) : "max-plies") + "\n";
    out += "Plies: " + std::to_string(n) + "\n";
    out += "Final: " + to_tfen(pos) + "\n\n";
    return out + plies;
}

std::vector<Position> random_positions(const VariantPtr& variant, std::mt19937_64& rng,
                                       size_t count, int max_plies) {
    std::vector<Position> out;
    out.reserve(count);
    while (out.size() < count) {
        Position pos(variant);
        for (int ply = 0; ply < max_plies && out.size() < count; ++ply) {
            if (pos.result().over()) break;
            Position copy = pos;
            copy.clear_history();
            out.push_back(std::move(copy));
            MoveList moves;
            generate_moves(pos, moves);
            pos.make_move(
                moves.moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
        }
    }
    return out;
}

} // namespace branan::tune
