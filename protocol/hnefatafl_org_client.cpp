#include "hnefatafl_org_client.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "clock.h"
#include "engine.h"
#include "hnefatafl_org_coordinates.h"
#include "hnefatafl_org_game.h"
#include "logging.h"
#include "movegen.h"
#include "notation.h"
#include "socket.h"
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

enum class LoginOutcome { OK, RETRY, FATAL };

class Bot {
  public:
    Bot(const HnefataflOrgOptions& o, std::ostream& out, std::ostream& err)
        : o_(o), out_(out), err_(err) {}

    int run() {
        if (o_.user.empty()) return fail(2, "no user name (--user)");
        if (o_.create[ATTACKERS] || o_.create[DEFENDERS])
            if (auto e = server_edition(o_.board_size); !e)
                return fail(2, "--board " + std::to_string(o_.board_size) + ": " + e.error());
        if (o_.hash_mb > 0)
            if (Status st = engine_.set_option("Hash", std::to_string(o_.hash_mb)); !st)
                return fail(2, st.error());
        if (o_.threads > 0)
            if (Status st = engine_.set_option("Threads", std::to_string(o_.threads)); !st)
                return fail(2, st.error());
        engine_.on_info([this](const SearchInfo& info) {
            std::lock_guard lock(search_mutex_);
            if (info.multipv == 1) search_info_ = info;
        });
        engine_.on_bestmove([this](const BestMove& b) {
            std::lock_guard lock(search_mutex_);
            search_best_ = b;
            search_done_ = true;
        });
        next_new_role_ = o_.create[ATTACKERS] ? ATTACKERS : DEFENDERS;
        logger().info("hnefatafl-org: {} at {}:{}, {} game(s), at most {} at once", o_.user,
                      o_.host, o_.port, o_.games, o_.max_games_at_once);

        int failures = 0;
        int backoff = o_.backoff_ms;
        while (true) {
            if (!socket_.is_open()) {
                if (failures > 0) {
                    // The server's own delay after failed logins, when it names one.
                    const int64_t wait = std::max<int64_t>(backoff, retry_at_ms_ - utc_now_ms());
                    logger().info("hnefatafl-org: reconnecting in {} ms", wait);
                    wait_for_search_or(wait);
                    backoff = std::min(backoff * 2, o_.backoff_max_ms);
                }
                if (failures > o_.max_reconnects)
                    return fail(1, "cannot reach the server after " + std::to_string(failures) +
                                       " attempts: " + last_error_);
                const LoginOutcome login = connect_and_login();
                if (login == LoginOutcome::FATAL) return finish(2);
                if (login == LoginOutcome::RETRY) {
                    ++failures;
                    continue;
                }
                failures = 0;
                backoff = o_.backoff_ms;
                after_login();
            }
            if (o_.games > 0 && finished_ >= o_.games && !searching_) return finish(0);
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
        if (searching_) {
            engine_.stop();
            engine_.wait();
        }
        engine_.on_info(nullptr);
        engine_.on_bestmove(nullptr);
        if (socket_.is_open() && status == 0) send_line("logout");
        return status;
    }

    // Sends one line; `shown` is what the log says instead (the login line
    // with its password masked).
    bool send_line(const std::string& line, const std::string& shown = "") {
        if (!socket_.is_open()) return false;
        std::string error;
        if (!write_all(socket_.fd(), line + "\n", 10'000, error)) {
            logger().warn("hnefatafl-org: cannot send: {}", error);
            disconnect(error);
            return false;
        }
        logger().debug("hnefatafl-org: sent {}", shown.empty() ? line : shown);
        return true;
    }

    void disconnect(const std::string& why) {
        if (!socket_.is_open()) return;
        logger().warn("hnefatafl-org: connection lost: {}", why);
        last_error_ = why;
        socket_.reset();
        lines_.clear();
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
            if (searching_) collect_search();
        }
    }

    LoginOutcome connect_and_login() {
        auto fd = connect_to(o_.host, o_.port, o_.connect_timeout_ms);
        if (!fd) {
            last_error_ = fd.error();
            logger().warn("hnefatafl-org: {}", fd.error());
            return LoginOutcome::RETRY;
        }
        socket_.reset(*fd);
        // As the site's own bot does: a server gone silent is noticed.
        set_keepalive(socket_.fd(), 30);
        lines_.clear();
        logger().info("hnefatafl-org: connected to {}:{}", o_.host, o_.port);
        const std::string head = o_.version_id + " login " + o_.user;
        if (!send_line(head + " " + o_.password, head + " ********")) return LoginOutcome::RETRY;
        const auto deadline = Clock::now() + std::chrono::milliseconds(o_.reply_timeout_ms);
        while (Clock::now() < deadline) {
            std::string line;
            while (lines_.next(line)) {
                logger().debug("hnefatafl-org: received {}", line);
                const auto w = split_words(line);
                if (w.size() >= 2 && w[0] == "=" && w[1] == "login") {
                    logger().info("hnefatafl-org: logged in as {}", o_.user);
                    logged_in_once_ = true;
                    return LoginOutcome::OK;
                }
                if (w.size() >= 2 && w[0] == "?" && w[1] == "login") return login_refused(line, w);
            }
            std::string error;
            const int left = int(std::max<int64_t>(
                1, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                       .count()));
            const ReadStatus r = read_some(socket_.fd(), std::min(left, 50), lines_, error);
            if (r == ReadStatus::CLOSED || r == ReadStatus::ERROR) {
                disconnect("during the login: " + error);
                return LoginOutcome::RETRY;
            }
            if (searching_) collect_search();
        }
        disconnect("no answer to the login within " + std::to_string(o_.reply_timeout_ms) + " ms");
        return LoginOutcome::RETRY;
    }

    LoginOutcome login_refused(const std::string& line, const std::vector<std::string_view>& w) {
        auto has = [&](std::string_view word) {
            return std::find(w.begin(), w.end(), word) != w.end();
        };
        const std::string shown = printable(line, 200);
        socket_.reset();
        lines_.clear();
        if (has("wrong_version")) {
            fail(2, "the server refuses the version id " + o_.version_id + " (`" + shown +
                        "`): its version changed; pass the current one with "
                        "--version-id (HNEFATAFL.md 4.2)");
            return LoginOutcome::FATAL;
        }
        const bool busy = has("logged_in_already") || has("retried_too_soon");
        const bool refused = has("wrong_password") || has("account_not_in_database");
        for (size_t i = 0; i + 1 < w.size(); ++i)
            if (w[i] == "retried_too_soon")
                if (auto at = parse_utc_ms(w[i + 1])) retry_at_ms_ = *at + 1000;
        if (busy && !refused) {
            last_error_ = "login: " + shown;
            logger().warn("hnefatafl-org: the server says {}; retrying", shown);
            return LoginOutcome::RETRY;
        }
        if (!refused && logged_in_once_) {
            // The same account and password worked before on this run: an
            // unexplained refusal after a drop is the old session still open.
            last_error_ = "login: " + shown;
            logger().warn("hnefatafl-org: the server says {} after a reconnect; retrying", shown);
            return LoginOutcome::RETRY;
        }
        fail(2, "the server refuses the login of " + o_.user + " (`" + shown +
                    "`): a wrong password, an account that does not exist or a name it does not "
                    "accept");
        return LoginOutcome::FATAL;
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
        if (searching_) collect_search();
        check_in_flight_timeout();
        if (!socket_.is_open()) return;
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
        if (!searching_) maybe_start_search();
        std::string error;
        const ReadStatus r = read_some(socket_.fd(), searching_ ? 10 : 50, lines_, error);
        if (r == ReadStatus::CLOSED || r == ReadStatus::ERROR) {
            disconnect(error);
            return;
        }
        std::string line;
        while (socket_.is_open() && lines_.next(line)) {
            logger().debug("hnefatafl-org: received {}", line);
            handle(line);
        }
    }

    // Handles the lines already received, without waiting.
    void drain() {
        std::string error, line;
        while (socket_.is_open()) {
            const ReadStatus r = read_some(socket_.fd(), 0, lines_, error);
            if (r == ReadStatus::CLOSED || r == ReadStatus::ERROR) disconnect(error);
            while (socket_.is_open() && lines_.next(line)) {
                logger().debug("hnefatafl-org: received {}", line);
                handle(line);
            }
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

    // The game of an id; a game the bot does not know yet only if `add`.
    Game* game_of(std::string_view id_text, bool add) {
        auto id = parse_integer(id_text, 0, int64_t(1) << 53);
        if (!id) return nullptr;
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
            queue_resume(*g);
            return;
        }
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
        if (g.game.pick(MOVE_NONE) == MOVE_NONE) {
            logger().warn("hnefatafl-org: game {}: no move left that the server accepts; resigning",
                          g.id);
            queue_.push_back(
                {Command::RESIGN,
                 g.id,
                 "game " + std::to_string(g.id) + " play " + role_name(g.ours) + " resigns _",
                 {}});
            return;
        }
        if (g.edition->rules != engine_.position().edition().rules)
            if (Status st = engine_.set_rules(g.edition->rules); !st) {
                logger().warn("hnefatafl-org: game {}: {}", g.id, st.error());
                return;
            }
        if (Status st = g.game.give_to(engine_); !st) {
            logger().warn("hnefatafl-org: game {}: {}", g.id, st.error());
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
        {
            std::lock_guard lock(search_mutex_);
            search_done_ = false;
            search_info_ = {};
            search_best_ = {};
        }
        search_game_ = g.id;
        search_plies_ = g.plies();
        search_started_ = Clock::now();
        if (Status st = engine_.go(limits); !st) {
            logger().warn("hnefatafl-org: game {}: {}", g.id, st.error());
            return;
        }
        searching_ = true;
    }

    void collect_search() {
        BestMove best;
        SearchInfo info;
        {
            std::lock_guard lock(search_mutex_);
            if (!search_done_) return;
            best = search_best_;
            info = search_info_;
        }
        engine_.wait();
        searching_ = false;
        // What has arrived meanwhile first (a draw offer, the game's end).
        drain();
        auto it = games_.find(search_game_);
        if (it == games_.end()) return;
        Game& g = it->second;
        if (!g.our_turn() || g.plies() != search_plies_ || move_pending(g.id)) return;
        const Move m = g.game.pick(best.best);
        logger().info("hnefatafl-org: game {}: {} after {} ms (depth {}, score {}, mate {}, "
                      "nodes {})",
                      g.id, move_name(*g.edition, m), ms_since(search_started_), info.depth,
                      info.score, info.mate, info.nodes);
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
    Engine engine_;
    Socket socket_;
    LineBuffer lines_;
    std::string last_error_;
    bool logged_in_once_ = false;
    int64_t retry_at_ms_ = 0; // UTC: the server's retried_too_soon time

    std::map<int64_t, Game> games_;
    std::map<int64_t, int> sizes_; // board sizes from games_updated
    std::deque<int64_t> challenges_;
    std::deque<Outgoing> queue_;
    Outgoing in_flight_;
    Clock::time_point in_flight_sent_;
    Side next_new_role_ = ATTACKERS;
    Side new_game_role_ = ATTACKERS;
    int started_ = 0;  // games created or joined
    int finished_ = 0; // games ended

    std::mutex search_mutex_;
    bool search_done_ = false;
    SearchInfo search_info_;
    BestMove search_best_;
    bool searching_ = false;
    int64_t search_game_ = -1;
    int search_plies_ = 0;
    Clock::time_point search_started_;
};

} // namespace

int run_hnefatafl_org_bot(const HnefataflOrgOptions& options, std::ostream& out,
                          std::ostream& err) {
    return Bot(options, out, err).run();
}

} // namespace branan
