#include "bologna_codec.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <poll.h>
#include <sys/socket.h>

#include <nlohmann/json.hpp>

#include "notation.h"
#include "socket.h"

namespace branan::bologna {

namespace {
using Clock = SocketClock;
} // namespace

// ------------------------------------------------------------------ framing

std::string encode_frame(std::string_view payload) {
    const uint32_t n = uint32_t(payload.size());
    std::string out;
    out.reserve(4 + payload.size());
    out += char((n >> 24) & 0xFF);
    out += char((n >> 16) & 0xFF);
    out += char((n >> 8) & 0xFF);
    out += char(n & 0xFF);
    out += payload;
    return out;
}

FrameRead read_frame(int fd, int timeout_ms) {
    const bool forever = timeout_ms < 0;
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    // Reads exactly `want` bytes into buf; `what` names the part for errors.
    auto read_exact = [&](char* buf, size_t want, const char* what, FrameRead& r) {
        size_t got = 0;
        while (got < want) {
            pollfd p{fd, POLLIN, 0};
            const int ready = poll(&p, 1, poll_ms(forever, deadline));
            if (ready < 0 && errno == EINTR) continue;
            if (ready < 0) {
                r = {FrameStatus::IO_ERROR, "cannot read from the socket: " + errno_text()};
                return false;
            }
            if (ready == 0) {
                r = {FrameStatus::TIMEOUT, "no complete frame within " +
                                               std::to_string(timeout_ms) + " ms (" +
                                               std::to_string(got) + " of " + std::to_string(want) +
                                               " " + what + " bytes received)"};
                return false;
            }
            const ssize_t n = recv(fd, buf + got, want - got, 0);
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (n < 0) {
                r = {FrameStatus::IO_ERROR, "cannot read from the socket: " + errno_text()};
                return false;
            }
            if (n == 0) {
                if (got == 0 && std::string_view(what) == "length")
                    r = {FrameStatus::CLOSED, "the connection was closed"};
                else
                    r = {FrameStatus::TRUNCATED,
                         "truncated frame: the connection was closed after " + std::to_string(got) +
                             " of " + std::to_string(want) + " " + what + " bytes"};
                return false;
            }
            got += size_t(n);
        }
        return true;
    };
    FrameRead r;
    unsigned char head[4];
    if (!read_exact(reinterpret_cast<char*>(head), 4, "length", r)) return r;
    const int32_t length = int32_t(uint32_t(head[0]) << 24 | uint32_t(head[1]) << 16 |
                                   uint32_t(head[2]) << 8 | head[3]);
    if (length < 0 || length > MAX_FRAME_BYTES)
        return {FrameStatus::BAD_LENGTH, "bad frame length " + std::to_string(length) +
                                             " (expected 0.." + std::to_string(MAX_FRAME_BYTES) +
                                             ")"};
    std::string payload(size_t(length), '\0');
    if (!read_exact(payload.data(), payload.size(), "payload", r)) return r;
    return {FrameStatus::OK, std::move(payload)};
}

// ------------------------------------------------------------------ messages

const char* to_string(Turn t) {
    switch (t) {
    case Turn::WHITE:
        return "WHITE";
    case Turn::BLACK:
        return "BLACK";
    case Turn::WHITEWIN:
        return "WHITEWIN";
    case Turn::BLACKWIN:
        return "BLACKWIN";
    default:
        return "DRAW";
    }
}

Result<State> parse_state(const Edition& edition, std::string_view text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return Error{std::string("bad JSON: ") + e.what()};
    }
    if (!j.is_object()) return Error{"bad state: not a JSON object"};
    auto turn_it = j.find("turn");
    if (turn_it == j.end() || !turn_it->is_string()) return Error{"bad state: no \"turn\" string"};
    State st;
    const std::string turn = turn_it->get<std::string>();
    static constexpr Turn turns[] = {Turn::WHITE, Turn::BLACK, Turn::WHITEWIN, Turn::BLACKWIN,
                                     Turn::DRAW};
    bool known = false;
    for (Turn t : turns)
        if (turn == to_string(t)) st.turn = t, known = true;
    if (!known) return Error{"bad state: unknown turn \"" + turn + "\""};
    auto board_it = j.find("board");
    if (board_it == j.end() || !board_it->is_array()) return Error{"bad state: no \"board\" array"};
    const nlohmann::json& rows = *board_it;
    const int n = edition.size;
    if (int(rows.size()) != n)
        return Error{"bad state: the board has " + std::to_string(rows.size()) + " rows, not " +
                     std::to_string(n)};
    for (int r = 0; r < n; ++r) {
        const nlohmann::json& row = rows[size_t(r)];
        if (!row.is_array() || int(row.size()) != n)
            return Error{"bad state: row " + std::to_string(r + 1) + " is not an array of " +
                         std::to_string(n) + " cells"};
        for (int f = 0; f < n; ++f) {
            const Square s = edition.square(f, r);
            const nlohmann::json& cell = row[size_t(f)];
            const std::string name = cell.is_string() ? cell.get<std::string>() : cell.dump();
            if (name == "EMPTY")
                st.board[s] = NO_PIECE;
            else if (name == "WHITE")
                st.board[s] = DEFENDER;
            else if (name == "BLACK")
                st.board[s] = ATTACKER;
            else if (name == "KING")
                st.board[s] = KING;
            else if (name == "THRONE" && test(edition.throne, s))
                st.board[s] = NO_PIECE;
            else if (name == "THRONE")
                return Error{"bad state: THRONE on " + square_name(edition, s) +
                             ", which is not the throne"};
            else
                return Error{"bad state: unknown cell '" + name.substr(0, 40) + "' on " +
                             square_name(edition, s)};
        }
    }
    return st;
}

std::string state_json(const Edition& edition, const Placement& board, Turn turn) {
    std::string out = "{\"board\":[";
    for (int r = 0; r < edition.size; ++r) {
        out += r ? ",[" : "[";
        for (int f = 0; f < edition.size; ++f) {
            const Square s = edition.square(f, r);
            const char* cell = board[s] == ATTACKER      ? "BLACK"
                               : board[s] == DEFENDER    ? "WHITE"
                               : board[s] == KING        ? "KING"
                               : test(edition.throne, s) ? "THRONE"
                                                         : "EMPTY";
            out += f ? ",\"" : "\"";
            out += cell;
            out += '"';
        }
        out += ']';
    }
    return out + "],\"turn\":\"" + to_string(turn) + "\"}";
}

Placement board_of(const Position& pos) {
    Placement b{};
    for (Square s = 0; s < pos.edition().num_squares; ++s) b[s] = pos.piece_on(s);
    return b;
}

std::string move_json(const Edition& edition, Move m, Side mover) {
    return "{\"from\":\"" + square_name(edition, m.from()) + "\",\"to\":\"" +
           square_name(edition, m.to()) + "\",\"turn\":\"" + to_string(turn_of(mover)) + "\"}";
}

Result<Move> parse_move_json(const Edition& edition, std::string_view text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return Error{std::string("bad JSON: ") + e.what()};
    }
    if (!j.is_object()) return Error{"bad move: not a JSON object"};
    Square squares[2];
    const char* keys[2] = {"from", "to"};
    for (int i = 0; i < 2; ++i) {
        auto it = j.find(keys[i]);
        if (it == j.end() || !it->is_string())
            return Error{std::string("bad move: no \"") + keys[i] + "\" string"};
        std::string name = it->get<std::string>();
        // The server wants exactly two characters and lower-cases the letter.
        if (name.size() != 2)
            return Error{std::string("bad move: \"") + keys[i] + "\" is not two characters"};
        name[0] = char(std::tolower(static_cast<unsigned char>(name[0])));
        auto sq = parse_square(edition, name);
        if (!sq) return Error{std::string("bad move: \"") + keys[i] + "\": " + sq.error()};
        squares[i] = *sq;
    }
    if (squares[0] == squares[1]) return Error{"bad move: from and to are the same square"};
    return Move(squares[0], squares[1]);
}

bool is_json_object(std::string_view text) {
    try {
        return nlohmann::json::parse(text).is_object();
    } catch (const nlohmann::json::exception&) {
        return false;
    }
}

std::string name_json(std::string_view name) {
    // dump() escapes quotes and control characters; replace keeps bad UTF-8
    // from throwing.
    return nlohmann::json(std::string(name))
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<std::string> parse_name(std::string_view text) {
    std::string name;
    try {
        nlohmann::json j = nlohmann::json::parse(text);
        if (!j.is_string()) return Error{"the name is not a JSON string"};
        name = j.get<std::string>();
    } catch (const nlohmann::json::exception&) {
        // Gson reads a single bare word as a string.
        const bool word = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
        });
        if (!word) return Error{"the name is neither a JSON string nor a single word"};
        name = std::string(text);
    }
    std::string clean;
    for (size_t i = 0; i < name.size() && i < 10; ++i)
        if (std::isalnum(static_cast<unsigned char>(name[i]))) clean += name[i];
    return clean;
}

// ------------------------------------------------------------------ rules

Result<Move> find_move(const Position& before, const Placement& after) {
    Position p = before;
    MoveList legal;
    generate_moves(before, legal);
    for (Move m : legal) {
        p.make_move(m);
        Placement shown = board_of(p);
        // The server leaves a captured king on his square.
        if (p.king_square() == NO_SQUARE && before.king_square() != NO_SQUARE)
            shown[before.king_square()] = KING;
        const bool same = shown == after;
        p.unmake_move();
        if (same) return m;
    }
    return Error{"no legal move of the " +
                 std::string(before.side_to_move() == DEFENDERS ? "white" : "black") +
                 " side from the previous position gives the board received"};
}

} // namespace branan::bologna
