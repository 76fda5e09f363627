#include "random_games.h"

#include "evaluate.h"
#include "match/record.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"

namespace branan::tune {

std::string random_game_record(const EditionPtr& edition, std::mt19937_64& rng, int max_plies) {
    Position pos(edition);
    const EvalParams params = default_params(edition->rules);
    match::GameOutcome game;
    game.start_tfen = to_tfen(pos);
    GameResult result;
    while (true) {
        result = pos.result();
        if (result.over() || int(game.plies.size()) >= max_plies) break;
        MoveList moves;
        generate_moves(pos, moves);
        const Move m = moves.moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)];
        game.plies.push_back({pos.side_to_move(), move_record(pos, m), 1, evaluate(pos, params)});
        pos.make_move(m);
    }
    game.winner = result.over() ? result.winner : Winner::DRAW;
    game.reason = result.over() ? to_string(result.reason) : "max-plies";
    game.final_tfen = to_tfen(pos);
    match::EngineConfig engine;
    engine.name = "random";
    match::RecordHeader header;
    header.rules = print_rules(edition->rules);
    header.engines[0] = header.engines[1] = &engine;
    return match::format_record(header, game);
}

} // namespace branan::tune
