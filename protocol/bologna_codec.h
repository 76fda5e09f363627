#pragma once

// The Bologna Tablut Challenge server's wire format (../shared/BOLOGNA.md):
// length-prefixed frames on a socket, the JSON state and move messages and
// their mapping to Branan's positions and moves, and the server's own move
// check for Ashton's camps. Shared by the client (bologna_client.h) and the
// fake server of the tests (tools/bologna/). Every error a peer can cause
// comes back as a value naming what was wrong; nothing throws.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"
#include "socket.h"

namespace branan::bologna {

// ------------------------------------------------------------------ framing

// A frame is a 4-byte big-endian signed length, then that many bytes of
// UTF-8 JSON. The server sets no limit; a state is about 1 KB, so anything
// over a MiB is garbage, not a message.
constexpr int32_t MAX_FRAME_BYTES = 1 << 20;

std::string encode_frame(std::string_view payload);

enum class FrameStatus : uint8_t {
    OK,
    CLOSED,    // the peer closed the connection between frames
    TRUNCATED, // the peer closed the connection inside a frame
    BAD_LENGTH,
    TIMEOUT,
    IO_ERROR,
};

struct FrameRead {
    FrameStatus status = FrameStatus::OK;
    std::string payload; // the frame (OK) or what went wrong (otherwise)
};

// Reads exactly one frame from a socket, looping on partial reads. The
// deadline covers the whole frame; timeout_ms < 0 waits for ever.
FrameRead read_frame(int fd, int timeout_ms);

// ------------------------------------------------------------------ messages

// The `turn` field of a state.
enum class Turn : uint8_t { WHITE, BLACK, WHITEWIN, BLACKWIN, DRAW };

const char* to_string(Turn t);
// White = defenders, black = attackers.
constexpr Turn turn_of(Side s) {
    return s == DEFENDERS ? Turn::WHITE : Turn::BLACK;
}
constexpr Side side_of(Turn t) {
    return t == Turn::WHITE ? DEFENDERS : ATTACKERS;
}
constexpr bool is_final(Turn t) {
    return t == Turn::WHITEWIN || t == Turn::BLACKWIN || t == Turn::DRAW;
}

// A state message as Branan squares: board[s] for s = rank * size + file.
// THRONE reads as an empty square.
struct State {
    Placement board{};
    Turn turn = Turn::WHITE;
};

// board[0] is rank 1, each row runs from file a; the cells are the enum
// names EMPTY, WHITE, BLACK, KING, THRONE (THRONE only on the throne).
Result<State> parse_state(const Edition& edition, std::string_view json);
// The server's compact form; an empty throne is written THRONE.
std::string state_json(const Edition& edition, const Placement& board, Turn turn);
// The board of a position as the server shows it.
Placement board_of(const Position& pos);

// {"from":"d1","to":"c1","turn":"WHITE"}
std::string move_json(const Edition& edition, Move m, Side mover);
// A move message: a JSON object with `from` and `to`, two characters each,
// column letter (either case) and row digit. `turn` and other fields are
// ignored, as the server ignores them.
Result<Move> parse_move_json(const Edition& edition, std::string_view json);
// Whether the text is a JSON object at all (anything else kills the server).
bool is_json_object(std::string_view json);

// The name frame: a quoted JSON string.
std::string name_json(std::string_view name);
// The server's reading of a name frame: a JSON string, or one bare word
// (Gson is lenient); cleaned to the letters and digits of its first 10
// characters. An error is what makes the real server exit.
Result<std::string> parse_name(std::string_view json);

// ------------------------------------------------------------------ rules

// The move of the side to move in `before` that gives the board `after`
// (king captures compared with the king still on his square, as the server
// shows him), or an error when no legal move gives it. The rules core is
// the judge: the ashton preset plays exactly the server's moves.
Result<Move> find_move(const Position& before, const Placement& after);

} // namespace branan::bologna
