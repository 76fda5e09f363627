#include "bologna_server.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "judge.h"
#include "notation.h"
#include "rules.h"

namespace branan::bologna {

namespace {

const char* side_word(Side s) {
    return s == DEFENDERS ? "white" : "black";
}

} // namespace

int GameReport::plies() const {
    return int(
        std::count_if(moves.begin(), moves.end(), [](const ServerMove& m) { return m.legal; }));
}

Server::~Server() {
    close_players();
    for (int& fd : listen_)
        if (fd >= 0) close(fd), fd = -1;
}

Status Server::open(const ServerOptions& options, std::ostream* log) {
    o_ = options;
    log_ = log;
    auto rules = preset_rules("ashton");
    if (!rules) return Error{rules.error()};
    auto edition = Edition::make(*rules);
    if (!edition) return Error{edition.error()};
    edition_ = *edition;
    if (!o_.start.empty())
        if (auto start = parse_tfen(edition_, o_.start); !start)
            return Error{"the start position: " + start.error()};
    auto white = listen_loopback(o_.white_port);
    if (!white) return Error{white.error()};
    listen_[DEFENDERS] = *white;
    auto black = listen_loopback(o_.black_port);
    if (!black) return Error{black.error()};
    listen_[ATTACKERS] = *black;
    white_port_ = local_port(listen_[DEFENDERS]);
    black_port_ = local_port(listen_[ATTACKERS]);
    return {};
}

void Server::log(const std::string& line) {
    if (log_) *log_ << line << "\n" << std::flush;
}

void Server::close_players() {
    for (int& fd : player_)
        if (fd >= 0) close(fd), fd = -1;
}

// After sending something broken: give the players time to see it and
// close their end, as a real server would sit waiting for a move.
void Server::linger() {
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    for (int fd : player_) {
        if (fd < 0) continue;
        char buf[256];
        while (Clock::now() < deadline) {
            pollfd p{fd, POLLIN, 0};
            if (poll(&p, 1, 100) > 0 && recv(fd, buf, sizeof buf, 0) <= 0) break;
        }
    }
    close_players();
}

bool Server::send_frame(int fd, const std::string& payload) {
    ServerFaults f = o_.faults;
    if (f.slow_states >= 0 && states_sent_ > f.slow_states) f.delay_ms = f.chunk_bytes = 0;
    if (f.delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(f.delay_ms));
    const std::string frame = encode_frame(payload);
    std::string error;
    if (f.chunk_bytes <= 0) return write_all(fd, frame, 10'000, error);
    for (size_t at = 0; at < frame.size(); at += size_t(f.chunk_bytes)) {
        if (at > 0 && f.chunk_pause_ms > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(f.chunk_pause_ms));
        if (!write_all(fd, std::string_view(frame).substr(at, size_t(f.chunk_bytes)), 10'000,
                       error))
            return false;
    }
    return true;
}

bool Server::send_state(const Placement& board, Turn turn, GameReport& report) {
    using Kind = ServerFaults::Kind;
    const ServerFaults& f = o_.faults;
    const int index = states_sent_++;
    std::string json = state_json(*edition_, board, turn);
    const Kind fault = f.kind != Kind::NONE && index == f.at_state ? f.kind : Kind::NONE;
    auto broken = [&](const std::string& what) {
        report.reason = "fault injected: " + what;
        log("fault: " + what + " (state " + std::to_string(index) + ")");
    };
    switch (fault) {
    case Kind::NONE:
        break;
    case Kind::CLOSE:
        broken("connections closed instead of a state");
        close_players();
        return false;
    case Kind::TRUNCATE: {
        broken("truncated frame");
        const std::string frame = encode_frame(json);
        std::string error;
        for (int fd : {player_[DEFENDERS], player_[ATTACKERS]})
            write_all(fd, std::string_view(frame).substr(0, frame.size() / 2), 10'000, error);
        close_players();
        return false;
    }
    case Kind::BAD_LENGTH: {
        broken("negative frame length");
        std::string error;
        for (int fd : {player_[DEFENDERS], player_[ATTACKERS]})
            write_all(fd, std::string("\xff\xff\xff\xfb", 4), 10'000, error);
        linger();
        return false;
    }
    case Kind::BAD_JSON:
        json = json.substr(0, json.size() / 3);
        break;
    case Kind::WRONG_SHAPE:
        json = "[\"WHITE\"]";
        break;
    case Kind::BAD_CELL:
        json.replace(json.find("\"EMPTY\""), 7, "\"EMTPY\"");
        break;
    case Kind::WRONG_SIZE:
        json.replace(json.find("[[") + 1, json.find("],[") + 2 - json.find("[[") - 1, "");
        break;
    case Kind::IMPOSSIBLE: {
        // One white soldier more than the board has: no move adds a piece.
        Placement b = board;
        for (Square s : {edition_->square(2, 2), edition_->square(6, 6), edition_->square(2, 6)})
            if (b[s] == NO_PIECE) {
                b[s] = DEFENDER;
                break;
            }
        json = state_json(*edition_, b, turn);
        break;
    }
    }
    for (int fd : {player_[DEFENDERS], player_[ATTACKERS]})
        if (!send_frame(fd, json)) {
            report.reason = "a player's connection failed while the state was sent";
            log(report.reason);
            close_players();
            return false;
        }
    if (fault != Kind::NONE) {
        broken(fault == Kind::BAD_JSON      ? "bad JSON"
               : fault == Kind::WRONG_SHAPE ? "a state of the wrong shape"
               : fault == Kind::BAD_CELL    ? "an unknown cell name"
               : fault == Kind::WRONG_SIZE  ? "a board of the wrong size"
                                            : "an impossible state");
        linger();
        return false;
    }
    return true;
}

GameReport Server::run() {
    GameReport report;
    const int time_ms = o_.time_s * 1000;
    // Accept a player and read its name, as Server.run does: white first.
    auto join = [&](Side side, std::string& name) {
        std::string error;
        player_[side] = accept_within(listen_[side], o_.accept_timeout_ms, error);
        if (player_[side] < 0) {
            report.reason = std::string("no ") + side_word(side) + " player: " + error;
            return false;
        }
        FrameRead frame = read_frame(player_[side], time_ms);
        if (frame.status != FrameStatus::OK) {
            report.reason = std::string("no name from ") + side_word(side) + ": " + frame.payload;
            return false;
        }
        auto parsed = parse_name(frame.payload);
        if (!parsed) {
            // Gson throws outside the error handling: the server exits.
            report.reason = std::string("bad name from ") + side_word(side) + ": " + parsed.error();
            return false;
        }
        name = *parsed;
        log(std::string(side_word(side)) + " player: " + name);
        return true;
    };
    auto end = [&](GameReport& r) {
        log("result " + (r.result.empty() ? std::string("none") : r.result) + " (" + r.reason +
            ")");
        close_players();
        return r;
    };
    if (!join(DEFENDERS, report.white_name) || !join(ATTACKERS, report.black_name))
        return end(report);

    Position pos = o_.start.empty() ? Position(edition_) : *parse_tfen(edition_, o_.start);
    std::vector<uint64_t> window; // positions remembered for repetition (§5)
    if (!send_state(board_of(pos), turn_of(pos.side_to_move()), report)) return end(report);
    while (true) {
        const Side side = pos.side_to_move();
        const auto asked = Clock::now();
        FrameRead frame = read_frame(player_[side], time_ms);
        if (frame.status == FrameStatus::TIMEOUT) {
            report.reason = std::string(side_word(side)) + " ran out of time (no result is sent)";
            return end(report);
        }
        if (frame.status != FrameStatus::OK) {
            report.reason = std::string(side_word(side)) + "'s connection: " + frame.payload;
            return end(report);
        }
        ServerMove record{side, frame.payload, ms_since(asked), true, ""};
        if (!is_json_object(frame.payload)) {
            // Gson throws outside the error handling: the server dies.
            report.reason =
                std::string(side_word(side)) + " sent a frame that is not a JSON object";
            return end(report);
        }
        auto m = parse_move_json(*edition_, frame.payload);
        Status legal = m ? server_check(pos, *m) : Status(Error{m.error()});
        char took[32];
        std::snprintf(took, sizeof took, "%.3f s", double(record.ms) / 1000);
        if (!legal) {
            record.legal = false;
            record.error = legal.error();
            report.moves.push_back(record);
            ++report.illegal[side];
            log("ply " + std::to_string(pos.game_ply() + 1) + " " + side_word(side) + " " +
                frame.payload + " " + took + " ILLEGAL: " + legal.error());
            if (report.illegal[side] > o_.errors) {
                report.reason = std::string(side_word(side)) + " made an illegal move";
                if (o_.jar_2020) {
                    report.reason += " (2020 jar: no final state sent)";
                    return end(report);
                }
                report.result = side == DEFENDERS ? "BLACKWIN" : "WHITEWIN";
                send_state(board_of(pos), side == DEFENDERS ? Turn::BLACKWIN : Turn::WHITEWIN,
                           report);
                return end(report);
            }
            if (!send_state(board_of(pos), turn_of(side), report)) return end(report);
            continue;
        }
        record.move = move_name(*edition_, *m);
        report.moves.push_back(record);
        log("ply " + std::to_string(pos.game_ply() + 1) + " " + side_word(side) + " " +
            record.move + " " + took);
        const Square king = pos.king_square();
        pos.make_move(*m);
        Placement board = board_of(pos);
        Turn turn = turn_of(pos.side_to_move());
        const GameResult decided = pos.decided();
        if (decided.reason == EndReason::KING_CAPTURED) {
            board[king] = KING; // the server only sets the turn
            turn = Turn::BLACKWIN;
            report.reason = "king captured";
        } else if (decided.reason == EndReason::KING_ESCAPED) {
            turn = Turn::WHITEWIN;
            report.reason = "king on the edge";
        } else {
            // GameAshtonTablut.checkMove: a capture empties the list; the
            // second occurrence draws; -c N keeps the last N+1.
            if (pos.last_captured()) window.clear();
            if (std::find(window.begin(), window.end(), pos.key()) != window.end()) {
                turn = Turn::DRAW;
                report.reason = "repetition";
            } else {
                if (o_.cache >= 0 && int(window.size()) > o_.cache) window.erase(window.begin());
                window.push_back(pos.key());
            }
        }
        if (is_final(turn)) report.result = to_string(turn);
        if (!send_state(board, turn, report)) {
            report.result.clear();
            return end(report);
        }
        if (is_final(turn)) return end(report);
    }
}

} // namespace branan::bologna
