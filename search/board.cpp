#include "board.h"

namespace branan {

Result<std::unique_ptr<BoardGame>> make_board_game(const Rules& rules) {
    switch (board_bits(rules.size)) {
    case 128:
        return make_board_game_128(rules);
    case 256:
        return make_board_game_256(rules);
    default:
        return make_board_game_384(rules);
    }
}

} // namespace branan
