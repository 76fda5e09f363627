#pragma once

// The search's side of a game, on the board width its size needs
// (engine/bitboard.h): made once when the rules are set, given the game at
// every position the engine is told, and asked for the search threads. The
// Engine facade keeps the game for the protocols on the widest board and
// hands the search its game here, so the hot code of a 7x7 game runs on a
// 128-bit board and that of a 19x19 game on a 384-bit one.

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "context.h"
#include "game_record.h"
#include "history.h"
#include "rules.h"

namespace branan {

class BoardGame {
  public:
    virtual ~BoardGame() = default;
    // The game to search: the position after the record's moves, with the
    // history they make. Unchanged on an error.
    virtual Status set_game(const GameRecord& record) = 0;
    // A search thread over the game, the root moves left to the caller.
    virtual std::unique_ptr<SearchThread> make_thread(SearchContext& ctx, int id,
                                                      History& history) const = 0;
    // The table's move in the position after `move` if it is legal there.
    virtual Move table_reply(const TranspositionTable& tt, Move move) const = 0;
    // The static evaluation of the game's position (eval/evaluate.h).
    virtual Value evaluate(const EvalParams& params) const = 0;
    // perft (engine/perft.h) of the game's position, per root move.
    virtual std::vector<std::pair<Move, uint64_t>> perft_divide(int depth) const = 0;
    // The board width this game runs on: 128, 256 or 384 bits.
    virtual int bits() const = 0;
};

// A game of these rules at their start position, on its board width.
Result<std::unique_ptr<BoardGame>> make_board_game(const Rules& rules);

// One per width (search/board_game.cpp, compiled once per width).
Result<std::unique_ptr<BoardGame>> make_board_game_128(const Rules& rules);
Result<std::unique_ptr<BoardGame>> make_board_game_256(const Rules& rules);
Result<std::unique_ptr<BoardGame>> make_board_game_384(const Rules& rules);

} // namespace branan
