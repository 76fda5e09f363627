// The board widths (engine/bitboard.h): the rules core, the evaluation and
// the search are compiled once per width, and a game runs on the narrowest
// that holds it. Every width that holds a board must play it alike: the
// same moves, perft, evaluation and search tree, node for node.

#include <catch2/catch.hpp>

#include <random>

#include "board.h"
#include "engine.h"
#include "movegen.h"
#include "notation.h"
#include "test_helpers.h"
#include "thread_pool.h"

using namespace branan;

namespace {

std::vector<std::unique_ptr<BoardGame>> widths_for(const Rules& rules) {
    std::vector<std::unique_ptr<BoardGame>> out;
    using Make = Result<std::unique_ptr<BoardGame>> (*)(const Rules&);
    const std::pair<int, Make> makers[] = {
        {128, make_board_game_128}, {256, make_board_game_256}, {384, make_board_game_384}};
    for (const auto& [bits, make] : makers) {
        if (rules.size > max_board_size(bits)) continue;
        auto b = make(rules);
        REQUIRE(b.ok());
        out.push_back(std::move(*b));
    }
    return out;
}

// A fixed-depth search of the game on one board, by the engine's own
// thread pool: its node count and move.
std::pair<uint64_t, Move> search_on(const BoardGame& board, const Position& pos, int depth,
                                    const EvalParams& params) {
    TranspositionTable tt;
    tt.resize(4);
    ThreadPool pool;
    SearchSetup setup;
    setup.limits.depth = depth;
    setup.tt = &tt;
    setup.params = &params;
    BestMove best;
    setup.on_bestmove = [&](const BestMove& b) { best = b; };
    REQUIRE(pool.start(board, pos, std::move(setup)));
    pool.wait();
    return {pool.last_nodes(), best.best};
}

} // namespace

TEST_CASE("board widths: every width that holds a board plays it alike", "[widths][long]") {
    std::mt19937 rng(2026);
    int compared = 0;
    for (const Preset& preset : presets()) {
        INFO(preset.name);
        auto rules = preset_rules(preset.name);
        REQUIRE(rules.ok());
        auto boards = widths_for(*rules);
        CHECK(boards.front()->bits() == board_bits(rules->size));
        if (boards.size() < 2) continue;
        auto edition = Edition::make(*rules);
        REQUIRE(edition.ok());
        const EvalParams params = default_params(*rules);
        for (int game = 0; game < testutil::scaled(3); ++game) {
            Position pos(*edition);
            const int plies = 10 + int(rng() % 40);
            for (int ply = 0; ply < plies; ++ply) {
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                pos.make_move(list.moves[rng() % list.size()]);
            }
            INFO(to_tfen(pos));
            const GameRecord record = pos.record();
            for (auto& b : boards) REQUIRE(b->set_game(record));
            const auto divide = boards.front()->perft_divide(2);
            const Value eval = boards.front()->evaluate(params);
            CHECK(eval == evaluate(pos, params));
            const int depth = testutil::SANITIZED ? 3 : 5;
            const auto searched = search_on(*boards.front(), pos, depth, params);
            for (size_t i = 1; i < boards.size(); ++i) {
                INFO("width " << boards[i]->bits());
                CHECK(boards[i]->perft_divide(2) == divide);
                CHECK(boards[i]->evaluate(params) == eval);
                CHECK(search_on(*boards[i], pos, depth, params) == searched);
            }
            ++compared;
        }
    }
    CHECK(compared >= testutil::scaled(20));
}
