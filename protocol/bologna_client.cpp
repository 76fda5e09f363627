#include "bologna_client.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include <unistd.h>

#include "bologna_codec.h"
#include "clock.h"
#include "engine.h"
#include "hosted_game.h"
#include "logging.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"
#include "socket.h"

namespace branan {

namespace {

using namespace bologna;
const char* side_name(Side s) {
    return s == DEFENDERS ? "white" : "black";
}

// A connection to the server, tried again while its port stays closed
// (the organisers may start the players before the server) until wait_ms
// has passed, with a pause from 50 ms doubling to 1 s; one attempt when
// wait_ms is 0.
Result<int> connect_retrying(const std::string& host, int port, int attempt_ms, int wait_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    int pause_ms = 50;
    for (int attempts = 1;; ++attempts) {
        const int limit = wait_ms > 0 ? std::clamp(ms_until(deadline), 1, attempt_ms) : attempt_ms;
        auto fd = connect_to(host, port, limit);
        if (fd || wait_ms <= 0) return fd;
        const int left = ms_until(deadline);
        if (left == 0)
            return Error{fd.error() + " (still closed after " + std::to_string(wait_ms) +
                         " ms of --connect-timeout, " + std::to_string(attempts) +
                         " attempts: is the server running, at this address?)"};
        const int pause = std::min(pause_ms, left);
        logger().debug("bologna: {}; attempt {} failed, next in {} ms", fd.error(), attempts,
                       pause);
        std::this_thread::sleep_for(std::chrono::milliseconds(pause));
        pause_ms = std::min(pause_ms * 2, 1000);
    }
}

} // namespace

Result<Rules> bologna_rules(int cache) {
    auto rules = preset_rules("ashton");
    if (!rules) return Error{"this build has no 'ashton' rules preset: " + rules.error()};
    rules->repetition_span = cache >= 0 ? cache + 1 : 0;
    return rules;
}

namespace {

class Client {
  public:
    Client(const BolognaClientOptions& o, std::ostream& out, std::ostream& err)
        : o_(o), out_(out), err_(err) {}

    int run() {
        auto rules = bologna_rules(o_.cache);
        if (!rules) return fail(rules.error());
        if (Status st = engine_.set_rules(*rules); !st)
            return fail("the rules for --cache " + std::to_string(o_.cache) + ": " + st.error());
        // First, so that a game's log says which rules it was played by.
        logger().info("Branan {} bologna client, rules {}", BRANAN_VERSION, engine_.rules_string());
        if (o_.hash_mb > 0)
            if (Status st = engine_.set_option("Hash", std::to_string(o_.hash_mb)); !st)
                return fail(st.error());
        if (o_.threads > 0)
            if (Status st = engine_.set_option("Threads", std::to_string(o_.threads)); !st)
                return fail(st.error());
        engine_.new_game();
        edition_ = engine_.position().edition_ptr();

        const int port = o_.port > 0            ? o_.port
                         : o_.side == DEFENDERS ? BOLOGNA_WHITE_PORT
                                                : BOLOGNA_BLACK_PORT;
        auto fd = connect_retrying(o_.host, port, o_.connect_attempt_ms, o_.connect_timeout_ms);
        if (!fd) return fail(fd.error());
        socket_.reset(*fd);
        logger().info("bologna: connected to {}:{} as {}", o_.host, port, side_name(o_.side));
        if (!send(name_json(o_.name))) return 1;

        const int read_timeout =
            o_.read_timeout_ms > 0 ? o_.read_timeout_ms : 300'000 + 2 * o_.time_s * 1000 + 30'000;
        while (true) {
            FrameRead frame = read_frame(socket_.fd(), read_timeout);
            switch (frame.status) {
            case FrameStatus::OK:
                break;
            case FrameStatus::CLOSED:
                return on_close("");
            case FrameStatus::IO_ERROR: // a reset: closed all the same
                return on_close(" (" + frame.payload + ")");
            case FrameStatus::TRUNCATED:
            case FrameStatus::BAD_LENGTH:
                return fail("malformed data from the server: " + frame.payload);
            case FrameStatus::TIMEOUT:
                return fail("no message from the server: " + frame.payload);
            default:
                return fail(frame.payload);
            }
            logger().debug("bologna: received {}", frame.payload);
            if (std::optional<int> done = on_state(frame.payload)) return *done;
        }
    }

  private:
    int fail(const std::string& message) {
        // The message goes to `err` once; the log (a file, perhaps) keeps it
        // at a level that does not print it a second time on stderr.
        logger().info("bologna: error: {}", message);
        err_ << "branan bologna: error: " << message << "\n" << std::flush;
        return 1;
    }

    bool send(const std::string& json) {
        std::string error;
        if (!write_all(socket_.fd(), encode_frame(json), 10'000, error)) {
            fail("cannot send to the server: " + error);
            return false;
        }
        logger().debug("bologna: sent {}", json);
        return true;
    }

    // Handles one state; a value when the game is over (the exit status).
    std::optional<int> on_state(const std::string& json) {
        const Clock::time_point received = Clock::now();
        auto state = parse_state(*edition_, json);
        if (!state) return fail("malformed data from the server: " + state.error());
        if (Status st = follow(*state); !st)
            return fail("impossible state from the server: " + st.error());
        if (is_final(state->turn)) {
            const Turn ours = turn_of(o_.side);
            const char* outcome = state->turn == Turn::DRAW ? "draw"
                                  : (state->turn == Turn::WHITEWIN) == (ours == Turn::WHITE)
                                      ? "won"
                                      : "lost";
            return report(state->turn, outcome);
        }
        if (side_of(state->turn) != o_.side) return std::nullopt;
        const Move m = choose_move(received);
        last_sent_ = m;
        if (!send(move_json(*edition_, m, o_.side))) return 1;
        last_move_ms_ = ms_since(received);
        return std::nullopt;
    }

    int report(Turn result, const std::string& outcome) {
        logger().info("bologna: game over, {} after {} plies", to_string(result),
                      game_.started() ? game_.position().game_ply() : 0);
        out_ << "result " << to_string(result) << " (we played " << side_name(o_.side) << ": "
             << outcome << ")\n"
             << std::flush;
        return 0;
    }

    // The server closed without a final state. Every server does so when
    // the side to move runs out of time, and the 2020 Server.jar also after
    // an illegal move: both lose by the server's rules. So the close is the
    // side to move's loss when that side had no legal move (whatever it
    // sent was illegal), and presumably when it is the opponent (a crash of
    // the server at that moment looks the same, hence "presumed"). With us
    // to move and a legal move sent, nothing can be told: an error.
    int on_close(const std::string& detail) {
        const std::string closed = "the server closed the connection" + detail;
        if (!game_.started())
            return fail(closed +
                        " before the first state, with no result (likely: the other player did "
                        "not connect or sent a name the server could not read, or the server "
                        "stopped)");
        const Side mover = game_.position().side_to_move();
        MoveList moves;
        generate_moves(game_.position(), moves);
        const bool stuck = moves.empty();
        const Turn winner = ~mover == DEFENDERS ? Turn::WHITEWIN : Turn::BLACKWIN;
        const std::string no_final = "; the server closed without a final state";
        if (mover == o_.side && stuck) {
            logger().info("bologna: {} with us to move and no legal move: lost", closed);
            return report(winner, "lost: we had no legal move" + no_final);
        }
        if (stuck) {
            logger().info("bologna: {} with {} to move and no legal move: won", closed,
                          side_name(mover));
            return report(winner, std::string("won: ") + side_name(mover) + " had no legal move" +
                                      no_final);
        }
        if (mover != o_.side) {
            logger().warn("bologna: {} with {} to move: presumed won (not confirmed by the server)",
                          closed, side_name(mover));
            return report(winner, std::string("won: the server closed without a final state "
                                              "with ") +
                                      side_name(mover) + " to move; presumed, as " +
                                      side_name(mover) + "'s illegal move or time-out loses");
        }
        const std::string sent = last_sent_
                                     ? ", after we sent " + move_name(*edition_, last_sent_) +
                                           " in " + std::to_string(last_move_ms_) + " ms of the " +
                                           std::to_string(o_.time_s) + " s allowed"
                                     : "";
        return fail(closed + " with us to move" + sent +
                    ", with no result. Likely causes: our move arrived late (the server counts "
                    "the network too), the server judged it illegal (the 2020 Server.jar sends "
                    "no final state after an illegal move), the other player's connection "
                    "failed, or the server stopped");
    }

    // Brings the game to the state received: the first state, the same state
    // again (the server repeats it after a tolerated illegal move), or the
    // one move that leads to it.
    Status follow(const State& st) {
        const bool final = is_final(st.turn);
        if (!game_.started()) {
            Position start(edition_);
            if (st.board == board_of(start) &&
                (final || side_of(st.turn) == start.side_to_move())) {
                game_.start(start);
            } else {
                // Joining a game already under way: no history before it.
                const Side to_move = final ? start.side_to_move() : side_of(st.turn);
                auto p = Position::from_placement(edition_, st.board, to_move, 0, 1);
                if (!p) return Error{"the first board: " + p.error()};
                game_.start(std::move(*p));
            }
            return {};
        }
        const Position& pos = game_.position();
        if (st.board == board_of(pos)) {
            if (final) return {}; // the board before an illegal move, and its loser
            if (side_of(st.turn) != pos.side_to_move())
                return Error{"the same board with the other side to move"};
            if (pos.side_to_move() == o_.side && last_sent_) {
                logger().warn("bologna: the server refused {} and asks again",
                              move_name(*edition_, last_sent_));
                game_.refuse(last_sent_);
            }
            return {};
        }
        auto m = find_move(pos, st.board);
        if (!m) return Error{m.error()};
        logger().info("bologna: {} played {}", side_name(pos.side_to_move()),
                      move_name(*edition_, *m));
        game_.play(*m);
        last_sent_ = MOVE_NONE;
        if (!final && side_of(st.turn) != pos.side_to_move())
            return Error{std::string("the turn says ") + to_string(st.turn) + " after a " +
                         side_name(~pos.side_to_move()) + " move"};
        return {};
    }

    // The move to send: the search's choice among the legal moves the
    // server has not refused (it refuses none of the rules core's moves;
    // should it, under -e > 0, the move is not sent twice).
    Move choose_move(Clock::time_point received) {
        if (!game_.has_searchable()) {
            // The server has no rule for a side that cannot move: any move
            // loses, and sending one ends the game sooner than the clock.
            logger().warn("bologna: no legal move; sending a null move");
            const Square k = game_.position().king_square();
            const Square s = o_.side == DEFENDERS && k != NO_SQUARE ? k : 0;
            return Move(s, s == 0 ? 1 : 0);
        }
        if (Status st = game_.give_to(engine_); !st) {
            logger().warn("bologna: {}", st.error());
            return game_.searchable().front();
        }
        HostClock clock;
        clock.move_limit_ms = int64_t(o_.time_s) * 1000;
        clock.margin_ms = o_.margin_ms;
        SearchLimits limits = plan_host_limits(clock, o_.side, o_.depth, o_.nodes);
        game_.restrict(limits);

        auto outcome = engine_.search_to_end(limits);
        if (!outcome) logger().warn("bologna: {}", outcome.error());
        const BestMove best = outcome ? outcome->best : BestMove{};
        const SearchInfo last = outcome ? outcome->last : SearchInfo{};
        const int64_t elapsed = ms_since(received);
        const Move m = game_.pick(best.best);
        logger().info("bologna: playing {} after {} ms (depth {}, score {}, nodes {})",
                      move_name(*edition_, m), elapsed, last.depth, last.score, last.nodes);
        return m;
    }

    const BolognaClientOptions& o_;
    std::ostream& out_;
    std::ostream& err_;
    Engine engine_;
    EditionPtr edition_;
    Socket socket_;
    HostedGame game_;
    Move last_sent_ = MOVE_NONE;
    int64_t last_move_ms_ = 0; // from the state received to our move sent
};

} // namespace

int run_bologna_client(const BolognaClientOptions& options, std::ostream& out, std::ostream& err) {
    return Client(options, out, err).run();
}

} // namespace branan
