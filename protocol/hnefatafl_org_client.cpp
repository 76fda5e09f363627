#include "hnefatafl_org_client.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "clock.h"
#include "hnefatafl_org_connection.h"
#include "hnefatafl_org_coordinates.h"
#include "hnefatafl_org_game.h"
#include "hnefatafl_org_search.h"
#include "logging.h"
#include "notation.h"
#include "text.h"

namespace branan {

namespace {

using namespace org;

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

using Game = BotGame;

enum class Command { NONE, NEW_GAME, JOIN, PLAY, RESIGN, DRAW_ACCEPT, RESUME };

struct Outgoing {
    Command command = Command::NONE;
    int64_t game = -1;
    std::string line;
    Move move;
};

// The games and the commands: what the server's lines mean for each game,
// one command in flight at a time, and what to send when a search ends. The
// connection (hnefatafl_org_connection.h) and the search
// (hnefatafl_org_search.h) are its two parts.
class Bot {
  public:
    Bot(const HnefataflOrgOptions& o, std::ostream& out, std::ostream& err)
        : o_(o), out_(out), err_(err), server_(o, [this] { forget_connection(); }) {}

    int run() {
        if (o_.user.empty()) return fail(2, "no user name (--user)");
        if (o_.create[ATTACKERS] || o_.create[DEFENDERS])
            if (auto e = server_edition(o_.board_size); !e)
                return fail(2, "--board " + std::to_string(o_.board_size) + ": " + e.error());
        if (o_.hash_mb > 0)
            if (Status st = search_.set_option("Hash", std::to_string(o_.hash_mb)); !st)
                return fail(2, st.error());
        if (o_.threads > 0)
            if (Status st = search_.set_option("Threads", std::to_string(o_.threads)); !st)
                return fail(2, st.error());
        next_new_role_ = o_.create[ATTACKERS] ? ATTACKERS : DEFENDERS;
        logger().info("hnefatafl-org: {} at {}:{}, {} game(s), at most {} at once", o_.user,
                      o_.host, o_.port, o_.games, o_.max_games_at_once);

        int failures = 0;
        int backoff = o_.backoff_ms;
        while (true) {
            if (!server_.is_open()) {
                if (failures > 0) {
                    // The server's own delay after failed logins, when it names one.
                    const int64_t wait =
                        std::max<int64_t>(backoff, server_.retry_at_ms() - utc_now_ms());
                    logger().info("hnefatafl-org: reconnecting in {} ms", wait);
                    wait_for_search_or(wait);
                    backoff = std::min(backoff * 2, o_.backoff_max_ms);
                }
                if (failures > o_.max_reconnects)
                    return fail(1, "cannot reach the server after " + std::to_string(failures) +
                                       " attempts: " + server_.last_error());
                const Login login = server_.login([this] { collect_search(); });
                if (login.outcome == LoginOutcome::FATAL) {
                    fail(2, login.error);
                    return finish(2);
                }
                if (login.outcome == LoginOutcome::RETRY) {
                    ++failures;
                    continue;
                }
                failures = 0;
                backoff = o_.backoff_ms;
                after_login();
            }
            if (o_.games > 0 && finished_ >= o_.games && !search_.running()) return finish(0);
            step();
        }
    }

  private:
    // ------------------------------------------------------------ plumbing

    int fail(int status, const std::string& message) {
        logger().info("hnefatafl-org: error: {}", message);
        err_ << "branan hnefatafl-org: error: " << message << "\n" << std::flush;
        return status;
    }

    int finish(int status) {
        search_.stop();
        if (server_.is_open() && status == 0) send_line("logout");
        return status;
    }

    bool send_line(const std::string& line) { return server_.send(line); }

    // The connection is gone: what was sent on it is lost, and each game
    // is resumed on the next one.
    void forget_connection() {
        in_flight_ = {};
        queue_.clear();
        for (auto& [id, g] : games_) {
            g.synced = false;
            g.resume_queued = false;
        }
    }

    // Sleeps `ms` without leaving a finished search unattended.
    void wait_for_search_or(int64_t ms) {
        const auto until = Clock::now() + std::chrono::milliseconds(ms);
        while (Clock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            collect_search();
        }
    }

    void after_login() {
        send_line(std::string("software_id branan-") + BRANAN_VERSION);
        // Re-attach every game first: until then its pushes go to the old
        // connection (HNEFATAFL.md 4.8.6).
        for (auto& [id, g] : games_)
            if (g.state == GameState::RUNNING) queue_resume(g);
    }

    // ------------------------------------------------------------ the loop

    void step() {
        collect_search();
        forget_finished_games();
        check_in_flight_timeout();
        if (!server_.is_open()) return;
        if (in_flight_.command == Command::NONE) {
            if (!queue_.empty()) {
                Outgoing next = std::move(queue_.front());
                queue_.pop_front();
                issue(std::move(next));
            } else {
                accept_waiting_challenge();
                // One command in flight at a time (replies carry no game id).
                if (in_flight_.command == Command::NONE) maybe_create_game();
            }
        }
        if (!search_.running()) maybe_start_search();
        const ReadStatus r = server_.read(search_.running() ? 10 : 50);
        if (r == ReadStatus::CLOSED || r == ReadStatus::ERROR) return;
        std::string line;
        while (server_.next_line(line)) handle(line);
    }

    // Handles the lines already received, without waiting.
    void drain() {
        // A search that ends while the bot logs in leaves the login's
        // answer to the login.
        std::string line;
        while (server_.logged_in()) {
            const ReadStatus r = server_.read(0);
            while (server_.next_line(line)) handle(line);
            if (r != ReadStatus::DATA) return;
        }
    }

    void issue(Outgoing c) {
        if (c.command == Command::RESUME)
            if (auto it = games_.find(c.game); it != games_.end()) it->second.resume_queued = false;
        if (c.command == Command::PLAY || c.command == Command::RESIGN ||
            c.command == Command::DRAW_ACCEPT) {
            // A move decided before the game changed (ended, resynced) is stale.
            auto it = games_.find(c.game);
            if (it == games_.end() || it->second.state != GameState::RUNNING || !it->second.synced)
                return;
        }
        assert(in_flight_.command == Command::NONE);
        if (c.command == Command::PLAY) unanswered_play_.reset();
        if (!send_line(c.line)) return;
        in_flight_ = std::move(c);
        in_flight_sent_ = Clock::now();
    }

    void queue_resume(Game& g) {
        if (g.resume_queued) return;
        g.resume_queued = true;
        g.synced = false;
        // Before anything else: the game's pushes are lost until it is done.
        queue_.push_front({Command::RESUME, g.id, "resume_game_json " + std::to_string(g.id), {}});
    }

    void check_in_flight_timeout() {
        if (in_flight_.command == Command::NONE || ms_since(in_flight_sent_) < o_.reply_timeout_ms)
            return;
        const Outgoing c = in_flight_;
        in_flight_ = {};
        auto it = games_.find(c.game);
        if (c.command == Command::RESUME) {
            // No reply: the server no longer runs the game (HNEFATAFL.md 4.8.4).
            if (it != games_.end() && it->second.state != GameState::OVER)
                end_game(it->second, "over (the server no longer runs it)", "");
            return;
        }
        logger().warn("hnefatafl-org: no reply to `{}` within {} ms", c.line, o_.reply_timeout_ms);
        if (it != games_.end() && it->second.state == GameState::RUNNING) queue_resume(it->second);
    }

    int active_games() const {
        int n = 0;
        for (const auto& [id, g] : games_) n += g.state != GameState::OVER;
        return n;
    }

    bool wants_more_games() const { return o_.games <= 0 || started_ < o_.games; }

    void maybe_create_game() {
        if (!o_.create[ATTACKERS] && !o_.create[DEFENDERS]) return;
        if (!wants_more_games() || active_games() >= o_.max_games_at_once) return;
        NewGame g;
        g.role = next_new_role_;
        g.rated = o_.rated;
        g.time = o_.time;
        g.board_size = o_.board_size;
        if (o_.create[ATTACKERS] && o_.create[DEFENDERS]) next_new_role_ = ~next_new_role_;
        new_game_role_ = g.role;
        ++started_;
        issue({Command::NEW_GAME, -1, "new_game " + new_game_json(g), {}});
    }

    void accept_waiting_challenge() {
        while (!challenges_.empty() && active_games() - pending_games() < o_.max_games_at_once) {
            const int64_t id = challenges_.front();
            challenges_.pop_front();
            auto it = games_.find(id);
            if (finished_ids_.count(id)) continue;
            if (it != games_.end() && it->second.state != GameState::PENDING) continue;
            if (it == games_.end() && !wants_more_games()) continue;
            issue({Command::JOIN, id, "join_game " + std::to_string(id), {}});
            return;
        }
    }

    int pending_games() const {
        int n = 0;
        for (const auto& [id, g] : games_) n += g.state == GameState::PENDING;
        return n;
    }

    // ------------------------------------------------------------ lines

    void handle(const std::string& line) {
        const auto w = split_words(line);
        if (w.empty()) return;
        if (w[0] == "game" && w.size() >= 3) return on_game_push(line, w);
        if (w[0] == "request_draw" && w.size() >= 3) return on_draw_offer(w);
        if (w[0] == "=" && w.size() >= 2) return on_reply(line, w);
        if (w[0] == "?" && w.size() >= 2) return on_error(line, w);
        if (w[0] == "version") return;
        ignore(line, "not a line the bot knows");
    }

    void ignore(const std::string& line, const std::string& why) {
        logger().warn("hnefatafl-org: ignored `{}` ({})", printable(line, 120), why);
    }

    // A bot that runs for days plays thousands of games: a finished one is
    // dropped once nothing waits on it, and only its id is kept (the most
    // recent FINISHED_IDS_KEPT), so a late line about it is not taken for
    // a new game.
    static constexpr size_t FINISHED_IDS_KEPT = 4096;
    void forget_finished_games() {
        for (auto it = games_.begin(); it != games_.end();) {
            const int64_t id = it->first;
            const bool waited_on =
                move_pending(id) || std::any_of(queue_.begin(), queue_.end(),
                                                [id](const Outgoing& c) { return c.game == id; });
            if (it->second.state != GameState::OVER || waited_on) {
                ++it;
                continue;
            }
            finished_ids_.insert(id);
            if (finished_ids_.size() > FINISHED_IDS_KEPT)
                finished_ids_.erase(finished_ids_.begin());
            it = games_.erase(it);
        }
    }

    // The game of an id; a game the bot does not know yet only if `add`.
    Game* game_of(std::string_view id_text, bool add) {
        auto id = parse_integer(id_text, 0, int64_t(1) << 53);
        if (!id || finished_ids_.count(*id)) return nullptr;
        auto it = games_.find(*id);
        if (it != games_.end()) return &it->second;
        if (!add) return nullptr;
        Game& g = games_[*id];
        g.id = *id;
        return &g;
    }

    void on_game_push(const std::string& line, const std::vector<std::string_view>& w) {
        Game* g = game_of(w[1], w[2] == "generate_move");
        if (!g) return ignore(line, "a game the bot does not know");
        if (w[2] == "generate_move") {
            const auto role = w.size() >= 4 ? parse_role(w[3]) : std::nullopt;
            if (!role) return ignore(line, "bad role");
            if (g->state == GameState::OVER) return;
            if (g->state == GameState::PENDING && !g->has_position()) {
                // A game from before this run (sent at login): its role is
                // the account's (4.8.2); the rest comes with the resume.
                g->ours = *role;
                g->state = GameState::RUNNING;
                ++started_;
            }
            if (!g->synced) queue_resume(*g);
            return; // whose turn it is comes from the moves, not from this line
        }
        if (w[2] != "play" || w.size() < 5) return ignore(line, "unknown game line");
        const auto role = parse_role(w[3]);
        if (!role) return ignore(line, "bad role");
        if (g->state != GameState::RUNNING || !g->synced || !g->has_position()) return;
        if (w[4] == "resigns") {
            end_game(*g, *role == g->ours ? "lost" : "won",
                     std::string(*role == ATTACKERS ? "defender" : "attacker") +
                         "_wins (resignation)");
            return;
        }
        if (*role == g->ours) return; // not a move for us to follow
        if (w.size() < 6) return ignore(line, "a move needs two squares");
        auto m = g->opponent_move(*role, w[4], w[5]);
        if (!m) {
            // The server judged it legal: the bot lost track; ask the server.
            logger().warn("hnefatafl-org: game {}: cannot follow `{}` ({}); resynchronising", g->id,
                          printable(line, 80), m.error());
            queue_resume(*g);
            return;
        }
        apply_move(*g, *m);
    }

    void apply_move(Game& g, Move m) {
        logger().info("hnefatafl-org: game {}: {} {}", g.id, role_name(g.position().side_to_move()),
                      move_name(*g.edition, m));
        g.apply(m);
    }

    void on_draw_offer(const std::vector<std::string_view>& w) {
        auto id = parse_integer(w[1], 0, int64_t(1) << 53);
        if (!id) return;
        auto it = games_.find(*id);
        if (it == games_.end() || it->second.state != GameState::RUNNING) return;
        logger().info("hnefatafl-org: game {}: draw offered", *id);
        it->second.draw_offered = true;
    }

    void on_reply(const std::string& line, const std::vector<std::string_view>& w) {
        const std::string_view what = w[1];
        // The JSON of a reply: the rest of the line after "= what ".
        auto rest = [&]() {
            const size_t at = line.find(what) + what.size();
            return std::string_view(line).substr(std::min(at, line.size()));
        };
        if (what == "game_time") {
            auto t = parse_game_time_json(rest());
            if (!t) return ignore(line, t.error());
            auto it = games_.find(t->id);
            if (it == games_.end()) return;
            it->second.ms_left = t->ms_left;
            it->second.clock_at = Clock::now();
            return;
        }
        if (what == "game") {
            if (in_flight_.command == Command::PLAY) {
                if (Game* g = in_flight_game()) apply_move(*g, in_flight_.move);
                in_flight_ = {};
            }
            return;
        }
        if (what == "game_over" && w.size() >= 4) {
            auto id = parse_integer(w[2], 0, int64_t(1) << 53);
            if (!id) return ignore(line, "bad game id");
            auto it = games_.find(*id);
            if (in_flight_.game == *id &&
                (in_flight_.command == Command::PLAY || in_flight_.command == Command::RESIGN)) {
                if (in_flight_.command == Command::PLAY && it != games_.end())
                    apply_move(it->second, in_flight_.move);
                in_flight_ = {};
            }
            if (it == games_.end() || it->second.state == GameState::OVER) return;
            const std::optional<Side> winner = w[3] == "attacker_wins"   ? ATTACKERS
                                               : w[3] == "defender_wins" ? DEFENDERS
                                                                         : std::optional<Side>();
            if (!winner) return ignore(line, "unknown result");
            end_game(it->second, *winner == it->second.ours ? "won" : "lost", std::string(w[3]));
            return;
        }
        if (what == "draw") {
            if (w.size() < 3 || w[2] != "accept") return; // "= draw decline"
            return on_draw_accepted();
        }
        if (what == "new_game" && w.size() >= 3) {
            auto id = parse_integer(w[2], 0, int64_t(1) << 53);
            if (!id) return ignore(line, "bad game id");
            if (in_flight_.command == Command::NEW_GAME) in_flight_ = {};
            Game& g = games_[*id];
            g.id = *id;
            g.created = true;
            g.ours = new_game_role_;
            g.size = o_.board_size;
            logger().info("hnefatafl-org: game {} created ({}, {}x{}, {})", *id, role_name(g.ours),
                          g.size, g.size, to_string(o_.time));
            return;
        }
        if (what == "challenge_requested" && w.size() >= 3) return on_challenge(line, w[2]);
        if (what == "join_game") return on_join(line, w);
        if (what == "resume_game_json") return on_resume(line, rest());
        if (what == "games_updated") {
            for (auto [id, size] : games_updated_sizes(rest())) sizes_[id] = size;
            // Only the newest games matter for a challenge; the map stays bounded.
            while (sizes_.size() > FINISHED_IDS_KEPT) sizes_.erase(sizes_.begin());
            return;
        }
        if (what == "join_game_pending" || what == "decline_game" || what == "leave_game" ||
            what == "request_draw") {
            if (in_flight_.command != Command::NONE && in_flight_.command != Command::PLAY)
                in_flight_ = {};
            return;
        }
        // initialize_display, email, texts, tournament_status, users_updated,
        // text_game, ping, login...: nothing the bot uses.
    }

    Game* in_flight_game() {
        auto it = games_.find(in_flight_.game);
        return it == games_.end() ? nullptr : &it->second;
    }

    void on_draw_accepted() {
        // No game id (4.8.3): the game of the command in flight, else the
        // one at the ply limit, else the only one running; else ask.
        Game* g = nullptr;
        if (in_flight_.command == Command::PLAY || in_flight_.command == Command::DRAW_ACCEPT) {
            g = in_flight_game();
            if (g && in_flight_.command == Command::PLAY && g->state == GameState::RUNNING)
                apply_move(*g, in_flight_.move);
            in_flight_ = {};
        }
        std::vector<Game*> running;
        for (auto& [id, game] : games_)
            if (game.state == GameState::RUNNING) running.push_back(&game);
        if (!g)
            for (Game* r : running)
                if (r->has_position() && r->synced && r->position().result().winner == Winner::DRAW)
                    g = r;
        if (!g && running.size() == 1) g = running.front();
        if (!g) {
            logger().warn("hnefatafl-org: a draw with no game id; asking the server which game");
            for (Game* r : running) queue_resume(*r);
            return;
        }
        if (g->state == GameState::RUNNING) end_game(*g, "draw", "draw");
    }

    void on_challenge(const std::string& line, std::string_view id_text) {
        auto id = parse_integer(id_text, 0, int64_t(1) << 53);
        if (!id) return ignore(line, "bad game id");
        auto it = games_.find(*id);
        const bool ours = it != games_.end() && it->second.created;
        if (!ours && !o_.accept_challenges) {
            logger().info("hnefatafl-org: challenge to game {} not accepted (not created by this "
                          "run; --accept-challenges accepts it)",
                          *id);
            return;
        }
        const int size = ours ? it->second.size : sizes_.count(*id) ? sizes_[*id] : 0;
        if (!server_edition(size)) {
            logger().info("hnefatafl-org: challenge to game {} not accepted: {}", *id,
                          size ? server_edition(size).error()
                               : std::string("its board size is unknown"));
            return;
        }
        if (std::find(challenges_.begin(), challenges_.end(), *id) == challenges_.end())
            challenges_.push_back(*id);
    }

    void on_join(const std::string& line, const std::vector<std::string_view>& w) {
        auto j = parse_join_game(std::vector<std::string_view>(w.begin() + 2, w.end()));
        if (!j) return ignore(line, j.error());
        if (in_flight_.command != Command::JOIN) return ignore(line, "no join_game in flight");
        const int64_t id = in_flight_.game;
        in_flight_ = {};
        Game& g = games_[id];
        g.id = id;
        if (Status st = g.start(*j, o_.user); !st) {
            logger().warn("hnefatafl-org: game {} cannot be played: {}", id, st.error());
            g.state = GameState::OVER;
            return;
        }
        if (!g.created) ++started_;
        logger().info("hnefatafl-org: game {} started: {} as {} against {}, {}", id, o_.user,
                      role_name(g.ours), g.opponent, to_string(g.time));
    }

    void on_resume(const std::string& line, std::string_view json) {
        auto r = parse_resume_game_json(json);
        if (in_flight_.command == Command::RESUME) in_flight_ = {};
        if (!r) return ignore(line, r.error());
        auto it = games_.find(r->id);
        if (it == games_.end()) return ignore(line, "a game the bot does not know");
        Game& g = it->second;
        std::string note;
        auto resigned = g.resume(*r, o_.user, utc_now_ms(), note);
        if (!resigned) {
            logger().warn("hnefatafl-org: game {} cannot be played: {}", g.id, resigned.error());
            if (!g.has_position()) g.state = GameState::OVER;
            return;
        }
        if (!note.empty())
            logger().warn("hnefatafl-org: game {}: the server's moves do not replay ({}); "
                          "playing on from the board they give, without its history",
                          g.id, note);
        logger().info("hnefatafl-org: game {} resumed: {} as {} against {}, {} plies", g.id,
                      o_.user, role_name(g.ours), g.opponent, g.plies());
        if (*resigned) {
            // The side to move resigned (its clock ran out or it gave up).
            const Side loser = g.position().side_to_move();
            end_game(g, loser == g.ours ? "lost" : "won",
                     std::string(loser == ATTACKERS ? "defender" : "attacker") + "_wins");
        }
    }

    void on_error(const std::string& line, const std::vector<std::string_view>& w) {
        const Outgoing c = in_flight_;
        if (w[1] == "game" && (c.command == Command::PLAY || c.command == Command::RESIGN)) {
            in_flight_ = {};
            Game* g = in_flight_game_of(c);
            if (!g) return;
            const bool out_of_step =
                contains(line, "isn't your turn") || contains(line, "didn't select a role");
            if (c.command == Command::PLAY && w.size() >= 3 &&
                (w[2] == "play:" || w[2] == "message:") && !out_of_step) {
                // Refused: another move, never the same one again.
                logger().warn("hnefatafl-org: game {}: the server refused {} ({})", g->id,
                              move_name(*g->edition, c.move), printable(line, 120));
                g->game.refuse(c.move);
                return;
            }
            // "? game unknown error": a bad id or a finished game.
            logger().warn("hnefatafl-org: game {}: `{}` refused ({}); asking the server", g->id,
                          c.line, printable(line, 120));
            if (c.command == Command::PLAY) unanswered_play_ = {c, g->plies()};
            queue_resume(*g);
            return;
        }
        if (late_refusal(line, w)) return;
        if (w[1] == "join_game" && c.command == Command::JOIN) {
            in_flight_ = {};
            logger().warn("hnefatafl-org: cannot join game {}: {}", c.game, printable(line, 120));
            return;
        }
        logger().warn("hnefatafl-org: the server says `{}`", printable(line, 120));
        if (c.command == Command::NONE || w[1] != command_word(c.command)) return;
        in_flight_ = {};
        // `? draw ...`: the game is not what the bot thinks; ask.
        if (Game* g = in_flight_game_of(c);
            g && c.command == Command::DRAW_ACCEPT && g->state == GameState::RUNNING)
            queue_resume(*g);
    }

    // A move's own refusal (`? game play: ...`) that comes after another
    // error line was taken for its answer (a server that sends a stray
    // `? game`): the move is refused in its game, if the game is still where
    // the move was made, so that it is not sent again.
    bool late_refusal(const std::string& line, const std::vector<std::string_view>& w) {
        if (in_flight_.command != Command::NONE || !unanswered_play_ || w.size() < 3 ||
            w[1] != "game" || (w[2] != "play:" && w[2] != "message:"))
            return false;
        const auto [c, plies] = *unanswered_play_;
        unanswered_play_.reset();
        auto it = games_.find(c.game);
        if (it == games_.end() || it->second.state != GameState::RUNNING ||
            !it->second.has_position() || it->second.plies() != plies ||
            !check_move(it->second.position(), c.move))
            return false;
        logger().warn("hnefatafl-org: game {}: the server refused {} ({}), after another answer",
                      c.game, move_name(*it->second.edition, c.move), printable(line, 120));
        it->second.game.refuse(c.move);
        return true;
    }

    // The first word of a command's line, which its `?` reply repeats.
    static std::string_view command_word(Command c) {
        switch (c) {
        case Command::NEW_GAME:
            return "new_game";
        case Command::JOIN:
            return "join_game";
        case Command::PLAY:
        case Command::RESIGN:
            return "game";
        case Command::DRAW_ACCEPT:
            return "draw";
        case Command::RESUME:
            return "resume_game_json";
        default:
            return "";
        }
    }

    Game* in_flight_game_of(const Outgoing& c) {
        auto it = games_.find(c.game);
        return it == games_.end() ? nullptr : &it->second;
    }

    void end_game(Game& g, const std::string& outcome, const std::string& result) {
        if (g.state == GameState::OVER) return;
        g.state = GameState::OVER;
        ++finished_;
        const std::string summary = "game " + std::to_string(g.id) + " " + outcome +
                                    (result.empty() ? "" : " (" + result + ")") + ": " + o_.user +
                                    " as " + role_name(g.ours) + " against " +
                                    (g.opponent.empty() ? "?" : g.opponent) + ", " +
                                    std::to_string(g.plies()) + " plies, " + g.clock_text();
        logger().info("hnefatafl-org: {}", summary);
        out_ << summary << "\n" << std::flush;
    }

    // ------------------------------------------------------------ search

    bool move_pending(int64_t id) const {
        if (in_flight_.game == id && in_flight_.command != Command::NONE) return true;
        for (const Outgoing& c : queue_)
            if (c.game == id && c.command != Command::RESUME) return true;
        return false;
    }

    void maybe_start_search() {
        Game* best = nullptr;
        int waiting = 0;
        for (auto& [id, g] : games_) {
            if (!g.our_turn() || move_pending(id)) continue;
            ++waiting;
            // The most urgent first: the least time on its clock.
            if (!best || (g.time.timed &&
                          (!best->time.timed || g.clock_now(g.ours) < best->clock_now(best->ours))))
                best = &g;
        }
        if (!best) return;
        start_search(*best, waiting - 1);
    }

    void start_search(Game& g, int others_waiting) {
        if (!g.game.has_searchable()) {
            logger().warn("hnefatafl-org: game {}: no move left that the server accepts; resigning",
                          g.id);
            queue_.push_back(
                {Command::RESIGN,
                 g.id,
                 "game " + std::to_string(g.id) + " play " + role_name(g.ours) + " resigns _",
                 {}});
            return;
        }
        HostClock clock;
        clock.timed = g.time.timed;
        for (Side s : {ATTACKERS, DEFENDERS}) {
            clock.left_ms[s] = g.clock_now(s);
            clock.inc_ms[s] = int64_t(g.time.add_s) * 1000;
        }
        clock.margin_ms = o_.margin_ms;
        // Games waiting behind this one run their clocks meanwhile: the
        // clock is shared among them as if each had only its part.
        clock.sharing = 1 + others_waiting;
        clock.untimed_ms = UNTIMED_GAME_MOVE_MS;
        clock.untimed_is_budget = true;
        SearchLimits limits = plan_host_limits(clock, g.ours, o_.depth, o_.nodes);
        g.game.restrict(limits);
        if (Status st = search_.start(g, limits); !st)
            logger().warn("hnefatafl-org: game {}: {}", g.id, st.error());
    }

    // Sends (queues) the move of a search that has ended, unless its game
    // has moved on.
    void collect_search() {
        const std::optional<BotSearch::Done> done = search_.finished();
        if (!done) return;
        const SearchInfo& info = done->info;
        // What has arrived meanwhile first (a draw offer, the game's end).
        drain();
        auto it = games_.find(done->game);
        if (it == games_.end()) return;
        Game& g = it->second;
        if (!g.our_turn() || g.plies() != done->plies || move_pending(g.id)) return;
        const Move m = g.game.pick(done->best.best);
        logger().info("hnefatafl-org: game {}: {} after {} ms (depth {}, score {}, mate {}, "
                      "nodes {})",
                      g.id, move_name(*g.edition, m), done->ms, info.depth, info.score, info.mate,
                      info.nodes);
        const std::string game = "game " + std::to_string(g.id) + " ";
        const bool lost = info.mate < 0;
        if (g.draw_offered && (lost || dead_drawn(g, info))) {
            logger().info("hnefatafl-org: game {}: accepting the draw offer", g.id);
            queue_.push_back(
                {Command::DRAW_ACCEPT, g.id, "draw " + std::to_string(g.id) + " accept", {}});
            return;
        }
        if (lost) {
            logger().info("hnefatafl-org: game {}: the search proves the loss; resigning", g.id);
            queue_.push_back(
                {Command::RESIGN, g.id, game + "play " + role_name(g.ours) + " resigns _", {}});
            return;
        }
        queue_.push_back({Command::PLAY, g.id,
                          game + "play " + role_name(g.ours) + " " +
                              org_square_name(g.edition->size, m.from()) + " " +
                              org_square_name(g.edition->size, m.to()),
                          m});
    }

    // A draw is the best the search sees: no better score with the
    // ply-limit draw (the server's 133rd ply) within its horizon.
    static bool dead_drawn(const Game& g, const SearchInfo& info) {
        const int limit = g.edition->rules.draw_ply;
        if (limit <= 0 || info.mate != 0 || info.score > 0) return false;
        return limit - g.plies() <= info.depth + 1;
    }

    // An untimed game on the server has a person waiting at the other
    // end, who can wait a little longer than a host's untimed move.
    static constexpr int64_t UNTIMED_GAME_MOVE_MS = 2 * UNTIMED_MOVE_MS;

    const HnefataflOrgOptions& o_;
    std::ostream& out_;
    std::ostream& err_;
    ServerConnection server_;
    BotSearch search_;

    std::map<int64_t, Game> games_;
    std::set<int64_t> finished_ids_; // games dropped once over
    // A move answered by an error that named no move, and its game's plies
    // then: its own refusal may still come (late_refusal).
    std::optional<std::pair<Outgoing, int>> unanswered_play_;
    std::map<int64_t, int> sizes_; // board sizes from games_updated
    std::deque<int64_t> challenges_;
    std::deque<Outgoing> queue_;
    Outgoing in_flight_;
    Clock::time_point in_flight_sent_;
    Side next_new_role_ = ATTACKERS;
    Side new_game_role_ = ATTACKERS;
    int started_ = 0;  // games created or joined
    int finished_ = 0; // games ended
};

} // namespace

int run_hnefatafl_org_bot(const HnefataflOrgOptions& options, std::ostream& out,
                          std::ostream& err) {
    return Bot(options, out, err).run();
}

} // namespace branan
