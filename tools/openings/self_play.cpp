#include "self_play.h"

#include "notation.h"

namespace branan::book {

Winner play_game(Engine& attackers, uint64_t attackers_nodes, Engine& defenders,
                 uint64_t defenders_nodes, const EditionPtr& edition,
                 const std::vector<std::string>& opening, int max_plies) {
    Position pos(edition);
    std::vector<std::string> moves;
    for (const std::string& text : opening) {
        auto m = parse_legal_move(pos, text);
        if (!m) return Winner::NONE; // not an opening of this edition
        pos.make_move(*m);
        moves.push_back(text);
    }
    attackers.new_game();
    defenders.new_game();
    for (int ply = 0; ply < max_plies; ++ply) {
        const GameResult r = pos.result();
        if (r.over()) return r.winner;
        const bool atk = pos.side_to_move() == ATTACKERS;
        Engine& engine = atk ? attackers : defenders;
        Move best = MOVE_NONE;
        engine.on_info([](const SearchInfo&) {});
        engine.on_bestmove([&best](const BestMove& bm) { best = bm.best; });
        if (!engine.set_position("", moves)) return Winner::NONE;
        SearchLimits limits;
        limits.nodes = atk ? attackers_nodes : defenders_nodes;
        engine.go(limits);
        engine.wait();
        if (best == MOVE_NONE) return Winner::NONE; // result() says why; not expected here
        moves.push_back(move_name(*edition, best));
        pos.make_move(best);
    }
    const GameResult r = pos.result();
    return r.over() ? r.winner : Winner::DRAW;
}

bool PairResult::split() const {
    return (first == Winner::ATTACKERS && second == Winner::DEFENDERS) ||
           (first == Winner::DEFENDERS && second == Winner::ATTACKERS);
}

PairResult play_pair(Engine& a, Engine& b, uint64_t nodes, const EditionPtr& edition,
                     const std::vector<std::string>& opening, int max_plies) {
    const uint64_t more = nodes + nodes / 4;
    PairResult r;
    r.first = play_game(a, nodes, b, more, edition, opening, max_plies);
    r.second = play_game(b, more, a, nodes, edition, opening, max_plies);
    return r;
}

} // namespace branan::book
