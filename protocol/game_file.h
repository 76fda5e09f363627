#pragma once

// A whole game read from a file, in every format Branan reads or writes,
// for `branan review`:
//   - branan-match's game record (engine/match_record.h), the opening's
//     moves included;
//   - OpenTafl's game file: `[key:value]` tag lines (the rules in `rules`),
//     a blank line, then numbered turns "1. e1-e4 d5-d2xc2", comments in
//     brackets after a turn ("[first|second]");
//   - a move list as hnefatafl.org and the Federation write games, "1. d1-d3
//     e6-e3x" (a bare 'x' or the squares taken after it), in our square
//     names or hnefatafl.org's (`0d1`, `D1`);
//   - a UCI-style `position startpos|fen TFEN [moves ...]` line;
//   - a TFEN on the first line and the moves after it.
// The formats that name no rules take the caller's (--variant, --rules).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "position.h"

namespace branan {

enum class GameFormat { BRANAN_MATCH, OPENTAFL, MOVE_LIST, POSITION_LINE, TFEN_AND_MOVES };
const char* to_string(GameFormat f);

// A game as its file writes it: nothing is replayed yet.
struct GameText {
    GameFormat format = GameFormat::MOVE_LIST;
    std::string rules; // the rules string the file gives; empty: the caller's
    std::string start; // TFEN; empty: the rules' start position
    struct WrittenMove {
        std::string text;
        int line = 0; // in the file, from 1
    };
    std::vector<WrittenMove> moves;
    // What the file says of the game besides (players, result, date), in
    // its order, under its own names.
    std::vector<std::pair<std::string, std::string>> tags;
};

// The file's text; its format is told by its first lines.
Result<GameText> parse_game_text(std::string_view text);

// A game replayed: the start position and each move, every move checked
// (legal, and where the text lists captures or the game's end, those the
// rules give).
struct ReplayedGame {
    Position start;
    std::vector<Move> moves;
};
// Refused with the ply (from 1) and line of the first move that is not
// legal, and why; nothing is returned half-replayed.
Result<ReplayedGame> replay_game(const GameText& game, EditionPtr edition);

} // namespace branan
