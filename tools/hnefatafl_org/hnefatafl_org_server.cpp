#include "hnefatafl_org_server.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include <unistd.h>

#include "clock.h"
#include "hnefatafl_org_coordinates.h"
#include "movegen.h"
#include "notation.h"
#include "text.h"

namespace branan::org {

namespace {

const char* winner_text(Side s) {
    return s == ATTACKERS ? "attacker_wins" : "defender_wins";
}

// Lines no server sends, for a bot to survive (ServerFaults::malformed).
const std::vector<std::string>& malformed_lines() {
    static const std::vector<std::string> lines = {
        "game",
        "game x play attacker a1 a2",
        "= game_time {not json",
        "= join_game a b",
        "game 99999 play attacker z0 z99",
        "request_draw",
        "= game_over",
        "= resume_game_json [1,2",
        "= draw",
        "? game",
        "= \xe2\x98\xba unicode \xc3\xa9",
        std::string(3000, 'x'),
    };
    return lines;
}

} // namespace

struct Server::Connection {
    Socket socket;
    std::string out; // lines to send: each event's lines leave in one write
    LineBuffer lines{64 * 1024};
    std::string user;
    bool logged_in = false;
};

struct Server::Game {
    GameReport r;
    std::string creator, challenger;
    Side creator_role = ATTACKERS;
    bool rated = false;
    bool running = false, over = false;
    EditionPtr edition;
    std::optional<Position> pos;
    std::vector<std::string> branan_moves;
    std::array<int64_t, 2> ms_left{};
    Clock::time_point clock_at;
    std::array<int, 2> conn{0, 0}; // where each player's pushes go (0: none, the house)
    bool refused_once = false;
    std::optional<Move> refused_move;
    std::optional<Side> offer_by;
    Clock::time_point house_ready;

    const std::string& player(Side s) const { return s == ATTACKERS ? r.attacker : r.defender; }
};

Server::Server() = default;

Server::~Server() {
    if (listen_fd_ >= 0) close(listen_fd_);
}

Status Server::open(const ServerOptions& options, std::ostream* log) {
    o_ = options;
    log_ = log;
    next_game_ = o_.first_game_id;
    auto fd = listen_loopback(o_.port);
    if (!fd) return Error{fd.error()};
    listen_fd_ = *fd;
    port_ = local_port(listen_fd_);
    for (const NewGame& ng : o_.open_games) {
        auto g = std::make_unique<Game>();
        g->r.id = next_game_++;
        g->creator = o_.accounts.empty() ? "" : o_.accounts.front().first;
        g->creator_role = ng.role;
        g->rated = ng.rated;
        g->r.time = ng.time;
        g->r.board_size = ng.board_size;
        games_[g->r.id] = std::move(g);
    }
    return {};
}

void Server::log(const std::string& line) {
    if (log_) *log_ << line << "\n";
}

std::vector<GameReport> Server::reports() const {
    std::vector<GameReport> out;
    for (const auto& [id, g] : games_) {
        GameReport r = g->r;
        r.final_ms_left = g->ms_left;
        out.push_back(r);
    }
    return out;
}

void Server::run(int64_t ms) {
    const auto start = Clock::now();
    while (!stop_ && (ms <= 0 || ms_since(start) < ms)) {
        accept_connections();
        read_connections();
        flush();
        clock_watch();
        house_turns();
        flush();
    }
    for (auto& [id, c] : connections_) c->socket.reset();
    connections_.clear();
    // Closed, so that a client still trying connects to nothing.
    close(listen_fd_);
    listen_fd_ = -1;
}

void Server::accept_connections() {
    std::string error;
    const int fd = accept_within(listen_fd_, 0, error);
    if (fd < 0) return;
    const int id = next_connection_++;
    connections_[id] = std::make_unique<Connection>();
    connections_[id]->socket.reset(fd);
    log("connection " + std::to_string(id) + " opened");
}

void Server::read_connections() {
    std::vector<int> ids;
    for (const auto& [id, c] : connections_) ids.push_back(id);
    if (ids.empty()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        return;
    }
    for (int id : ids) {
        auto it = connections_.find(id);
        if (it == connections_.end()) continue;
        std::string error;
        const ReadStatus st = read_some(it->second->socket.fd(), 1, it->second->lines, error);
        if (st == ReadStatus::CLOSED || st == ReadStatus::ERROR) {
            close_connection(id);
            continue;
        }
        std::string line;
        while (connections_.count(id) && connections_[id]->lines.next(line)) on_line(id, line);
    }
}

void Server::close_connection(int conn) {
    auto it = connections_.find(conn);
    if (it == connections_.end()) return;
    log("connection " + std::to_string(conn) + " closed");
    connections_.erase(it);
}

int Server::connection_of(const std::string& user) const {
    int found = 0;
    for (const auto& [id, c] : connections_)
        if (c->logged_in && c->user == user) found = id;
    return found;
}

void Server::send(int conn, const std::string& line) {
    auto it = connections_.find(conn);
    if (it == connections_.end()) return;
    if (o_.faults.line_delay_ms > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(o_.faults.line_delay_ms));
    // An overlong fault's line is logged by its start only.
    log("S" + std::to_string(conn) + ": " +
        (line.size() > 4096 ? line.substr(0, 4096) + "..." : line));
    it->second->out += line + "\n";
}

void Server::flush() {
    std::vector<int> ids;
    for (const auto& [id, c] : connections_)
        if (!c->out.empty()) ids.push_back(id);
    for (int id : ids) {
        Connection& c = *connections_[id];
        const std::string bytes = std::move(c.out);
        c.out.clear();
        std::string error;
        bool ok = true;
        const size_t piece =
            o_.faults.chunk_bytes > 0 ? size_t(o_.faults.chunk_bytes) : bytes.size();
        for (size_t at = 0; ok && at < bytes.size(); at += piece) {
            ok = write_all(c.socket.fd(), std::string_view(bytes).substr(at, piece), 5000, error);
            if (o_.faults.chunk_bytes > 0 && o_.faults.line_delay_ms > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        if (!ok) close_connection(id);
    }
}

void Server::send_player(Game& g, Side s, const std::string& line) {
    if (g.conn[s]) send(g.conn[s], line);
}

void Server::on_line(int conn, const std::string& line) {
    Connection& c = *connections_[conn];
    const bool secret = !c.logged_in;
    log("C" + std::to_string(conn) + ": " + (secret ? "(login line)" : line));
    if (!secret) received_.push_back(line);
    for (char ch : line)
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t') return close_connection(conn);
    const auto w = split_words(line);
    if (w.empty()) return close_connection(conn); // an empty line ends the session
    if (!c.logged_in) return on_login(conn, w);
    on_command(conn, line, w);
}

void Server::on_login(int conn, const std::vector<std::string_view>& w) {
    if (w.size() < 3 || (w[1] != "login" && w[1] != "create_account"))
        return send(conn, "? login _");
    received_.push_back(std::string(w[0]) + " " + std::string(w[1]) + " " + std::string(w[2]));
    if (w[0] != o_.version_id) return send(conn, "? login wrong_version");
    const std::string user(w[2]);
    std::string password;
    for (size_t i = 3; i < w.size(); ++i) password += (i > 3 ? " " : "") + std::string(w[i]);
    auto account = std::find_if(o_.accounts.begin(), o_.accounts.end(),
                                [&](const auto& a) { return a.first == user; });
    if (account == o_.accounts.end())
        return send(conn, "? login multiple_possible_errors account_not_in_database");
    if (account->second != password)
        return send(conn, "? login multiple_possible_errors wrong_password");
    if (busy_left_ > 0 || connection_of(user)) {
        busy_left_ = std::max(0, busy_left_ - 1);
        return send(conn, "? login multiple_possible_errors logged_in_already");
    }
    Connection& c = *connections_[conn];
    c.user = user;
    c.logged_in = true;
    ++logins_;
    ++logins_by_user_[user];
    send(conn, "= login");
    send(conn, "= initialize_display ([],Users({}),false,false)");
    send(conn, "= tournament_status {\"players\":[],\"tournament\":null}");
    send(conn, "version 6.2.3");
    if (o_.faults.malformed)
        send(conn, malformed_lines()[malformed_sent_++ % malformed_lines().size()]);
    std::string created;
    for (const auto& [id, g] : games_) {
        if (g->over) continue;
        const std::string size = "\"_" + std::to_string(g->r.board_size) + "\"";
        created +=
            std::string(created.empty() ? "" : ",") + "[" + std::to_string(id) +
            ",null,{\"id\":" + std::to_string(id) + ",\"board_size\":" + size +
            ",\"game_over\":false,\"challenge_accepted\":" + (g->running ? "true" : "false") + "}]";
    }
    send(conn, "= games_updated {\"created\":[" + created + "],\"removed\":[],\"updated\":{}}");
    for (const auto& [id, g] : games_)
        if (g->running && !g->over)
            for (Side s : {ATTACKERS, DEFENDERS})
                if (g->player(s) == user)
                    send(conn, "game " + std::to_string(id) + " generate_move " + role_name(s));
}

void Server::on_command(int conn, const std::string& line, const std::vector<std::string_view>& w) {
    const std::string user = connections_[conn]->user;
    const std::string cmd(w[0]);
    auto game_arg = [&](size_t i) -> Game* {
        if (w.size() <= i) return nullptr;
        auto id = parse_integer(w[i], 0, int64_t(1) << 53);
        if (!id) return nullptr;
        auto it = games_.find(*id);
        return it == games_.end() ? nullptr : it->second.get();
    };
    if (cmd == "ping") return send(conn, "= ping");
    if (cmd == "software_id") return;
    if (cmd == "logout") return close_connection(conn);
    if (cmd == "new_game") {
        const size_t at = line.find("new_game") + 8;
        auto ng = parse_new_game_json(std::string_view(line).substr(at));
        if (!ng) return; // the server answers nothing
        auto g = std::make_unique<Game>();
        g->r.id = next_game_++;
        g->creator = user;
        g->creator_role = ng->role;
        g->rated = ng->rated;
        g->r.time = ng->time;
        g->r.board_size = ng->board_size;
        g->house_ready = Clock::now() + std::chrono::milliseconds(o_.house_delay_ms);
        const int64_t id = g->r.id;
        games_[id] = std::move(g);
        return send(conn, "= new_game " + std::to_string(id));
    }
    if (cmd == "join_game") {
        Game* g = game_arg(1);
        if (!g || g->running || g->over || g->challenger.empty())
            return send(conn, "? join_game unknown error");
        return start_game(*g);
    }
    if (cmd == "game") {
        Game* g = game_arg(1);
        if (!g || !g->running || g->over || w.size() < 5) return send(conn, "? game unknown error");
        return on_play(conn, *g, w);
    }
    if (cmd == "resume_game_json") {
        Game* g = game_arg(1);
        if (!g || !g->running || g->over) return; // no reply at all (4.8.4)
        for (Side s : {ATTACKERS, DEFENDERS})
            if (g->player(s) == user) g->conn[s] = conn;
        ResumedGame rg;
        rg.id = g->r.id;
        rg.attacker = g->r.attacker;
        rg.defender = g->r.defender;
        rg.board_size = g->r.board_size;
        rg.start = start_text(Position(g->edition));
        rg.time = g->r.time;
        rg.ms_left = g->ms_left;
        rg.last_move_utc = utc_text(utc_now_ms() - ms_since(g->clock_at));
        rg.moves = g->r.moves;
        rg.rated = g->rated;
        send(conn, "= resume_game_json " + resume_game_json(rg));
        if (g->offer_by)
            for (Side s : {ATTACKERS, DEFENDERS})
                if (g->player(s) == user && s != *g->offer_by)
                    send(conn, "request_draw " + std::to_string(g->r.id) + " " + role_name(s));
        return;
    }
    if (cmd == "draw") {
        Game* g = game_arg(1);
        if (!g || !g->running || g->over || w.size() < 3) return send(conn, "? draw unknown error");
        if (w[2] == "accept") {
            send_player(*g, ATTACKERS, "= draw accept");
            send_player(*g, DEFENDERS, "= draw accept");
            return end_game(*g, "draw", "draw agreed");
        }
        g->r.declined = true;
        send_player(*g, ATTACKERS, "= draw decline");
        send_player(*g, DEFENDERS, "= draw decline");
        return end_game(*g, "", "dropped by the server after a draw decline");
    }
    if (cmd == "request_draw") {
        Game* g = game_arg(1);
        if (!g || !g->running || g->over || w.size() < 3)
            return send(conn, "? request_draw unknown error");
        send(conn, "= request_draw");
        const auto role = parse_role(w[2]);
        if (role) {
            g->offer_by = *role;
            send_player(*g, ~*role,
                        "request_draw " + std::to_string(g->r.id) + " " + role_name(*role));
        }
        return;
    }
    send(conn, "? " + printable(cmd) + " unknown error");
}

std::string Server::game_time_line(const Game& g) const {
    return "= game_time " + game_time_json({g.r.id, g.ms_left});
}

void Server::start_game(Game& g) {
    auto edition = server_edition(g.r.board_size);
    if (!edition) {
        log("game " + std::to_string(g.r.id) + " cannot start: " + edition.error());
        g.over = true;
        return;
    }
    g.edition = *edition;
    g.pos.emplace(g.edition);
    g.running = true;
    (g.creator_role == ATTACKERS ? g.r.attacker : g.r.defender) = g.creator;
    (g.creator_role == ATTACKERS ? g.r.defender : g.r.attacker) = g.challenger;
    for (Side s : {ATTACKERS, DEFENDERS})
        g.conn[s] = is_house(g.player(s)) ? 0 : connection_of(g.player(s));
    g.ms_left = {g.r.time.ms, g.r.time.ms};
    g.clock_at = Clock::now();
    g.house_ready = Clock::now() + std::chrono::milliseconds(o_.house_delay_ms);
    JoinGame j{g.r.attacker, g.r.defender, g.rated, g.r.time, g.r.board_size};
    for (Side s : {ATTACKERS, DEFENDERS}) send_player(g, s, "= join_game " + join_game_words(j));
    const Side first = g.pos->side_to_move();
    send_player(g, first, "game " + std::to_string(g.r.id) + " generate_move " + role_name(first));
    log("game " + std::to_string(g.r.id) + " started: " + g.r.attacker + " (attacker) against " +
        g.r.defender + " (defender), " + to_string(g.r.time) + ", " +
        std::to_string(g.r.board_size) + "x" + std::to_string(g.r.board_size));
}

void Server::charge_clock(Game& g) {
    if (!g.r.time.timed) return;
    g.ms_left[g.pos->side_to_move()] -= ms_since(g.clock_at);
    g.clock_at = Clock::now();
}

void Server::on_play(int conn, Game& g, const std::vector<std::string_view>& w) {
    const std::string user = connections_[conn]->user;
    const auto role = parse_role(w[3]);
    if (!role || g.player(*role) != user)
        return send(conn, "? game play: you didn't select a role");
    const std::string id = std::to_string(g.r.id);
    if (w[4] == "resigns") {
        send_player(g, ~*role, "game " + id + " play " + role_name(*role) + " resigns ");
        send_player(g, ATTACKERS, "= game_over " + id + " " + winner_text(~*role));
        send_player(g, DEFENDERS, "= game_over " + id + " " + winner_text(~*role));
        return end_game(g, winner_text(~*role), std::string(role_name(*role)) + " resigned");
    }
    if (g.pos->side_to_move() != *role) {
        ++g.r.illegal;
        return send(conn, "? game play: it isn't your turn");
    }
    if (w.size() < 6) return send(conn, "? game unknown error");
    // The clock steps before the move is judged (the server's order).
    charge_clock(g);
    if (g.r.time.timed) {
        g.r.min_ms_left[*role] = std::min(g.r.min_ms_left[*role], g.ms_left[*role]);
        if (g.ms_left[*role] <= 0) {
            // The move is not made, but still forwarded (HNEFATAFL.md 4.8.8).
            if (w.size() >= 6)
                send_player(g, ~*role,
                            "game " + id + " play " + role_name(*role) + " " + std::string(w[4]) +
                                " " + std::string(w[5]));
            send_player(g, ATTACKERS, "= game_over " + id + " " + winner_text(~*role));
            send_player(g, DEFENDERS, "= game_over " + id + " " + winner_text(~*role));
            return end_game(g, winner_text(~*role),
                            std::string(role_name(*role)) + " lost on time");
        }
        g.ms_left[*role] += int64_t(g.r.time.add_s) * 1000;
    }
    auto from = parse_org_square(g.edition->size, w[4]);
    auto to = parse_org_square(g.edition->size, w[5]);
    if (!from || !to) {
        ++g.r.illegal;
        return send(conn, "? game message: play: invalid coordinate");
    }
    const Move m(*from, *to);
    if (g.refused_move == m) ++g.r.repeated_refused;
    auto legal = parse_legal_move(*g.pos, move_name(*g.edition, m));
    if (legal && o_.faults.refuse_first_move && !g.refused_once) {
        g.refused_once = true;
        g.refused_move = m;
        ++g.r.refused;
        if (o_.faults.stray_error_first) send(conn, "? game");
        return send(conn, "? game play: you already reached that position");
    }
    if (!legal) {
        ++g.r.illegal;
        log("illegal: " + legal.error());
        return send(conn, "? game play: you have to play through empty locations");
    }
    make_move(g, m, std::string(w[4]), std::string(w[5]), conn);
}

void Server::make_move(Game& g, Move m, const std::string& from, const std::string& to,
                       int mover_conn) {
    const Side mover = g.pos->side_to_move();
    const std::string id = std::to_string(g.r.id);
    g.r.moves.push_back(move_text(*g.pos, m));
    g.branan_moves.push_back(move_name(*g.edition, m));
    g.pos->make_move(m);
    g.refused_move.reset();
    g.offer_by.reset(); // any move clears an offer
    const int ply = int(g.r.moves.size());

    std::string result, reason;
    const GameResult gr = g.pos->result();
    if (gr.winner == Winner::DRAW) {
        result = "draw";
        reason = to_string(gr.reason);
    } else if (gr.over()) {
        result = winner_text(gr.winner == Winner::ATTACKERS ? ATTACKERS : DEFENDERS);
        reason = to_string(gr.reason);
    } else if (o_.faults.draw_ply > 0 && ply >= o_.faults.draw_ply) {
        result = "draw";
        reason = "the ply limit";
    } else if (o_.faults.adjudicate_at_ply >= 0 && ply >= o_.faults.adjudicate_at_ply) {
        result = "attacker_wins";
        reason = "the defenders cannot escape (adjudicated)";
    }
    const std::string move_line =
        "game " + id + " play " + role_name(mover) + " " + from + " " + to;
    if (!result.empty()) {
        send_player(g, ~mover, move_line);
        const std::string end =
            result == "draw" ? "= draw accept" : "= game_over " + id + " " + result;
        send_player(g, ATTACKERS, end);
        send_player(g, DEFENDERS, end);
        for (Side s : {ATTACKERS, DEFENDERS})
            send_player(g, s, "= text_game (username:\"server\",timestamp:\"\",content:\"\")");
        return end_game(g, result, reason);
    }
    if (mover_conn) {
        if (g.r.time.timed) send(mover_conn, game_time_line(g));
        send(mover_conn, "= game");
        if (o_.faults.stray_generate_move) {
            send(mover_conn, "game " + id + " generate_move " + role_name(mover));
            ++g.r.stray_generate_moves;
        }
    }
    if (o_.faults.malformed && g.conn[~mover])
        send(g.conn[~mover], malformed_lines()[malformed_sent_++ % malformed_lines().size()]);
    if (o_.faults.overlong_line_bytes > 0 && g.conn[~mover]) {
        send(g.conn[~mover], std::string(size_t(o_.faults.overlong_line_bytes), 'y'));
        ++g.r.overlong_lines;
    }
    send_player(g, ~mover, move_line);
    send_player(g, ~mover, "game " + id + " generate_move " + role_name(~mover));
    if (g.r.time.timed) send_player(g, ~mover, game_time_line(g));
    const bool slow = o_.house_slow_plies <= 0 || ply <= o_.house_slow_plies;
    g.house_ready = Clock::now() + std::chrono::milliseconds(slow ? o_.house_delay_ms : 0);

    if (is_house(g.player(mover)) && o_.faults.offer_draw_at_ply >= 0 &&
        ply >= o_.faults.offer_draw_at_ply) {
        g.offer_by = mover;
        send_player(g, ~mover, "request_draw " + id + " " + role_name(mover));
    }
    if (o_.faults.drop_at_ply >= 0 && !dropped_ && ply >= o_.faults.drop_at_ply) {
        dropped_ = true;
        busy_left_ = o_.faults.busy_logins;
        for (Side s : {ATTACKERS, DEFENDERS})
            if (g.conn[s]) {
                log("dropping connection " + std::to_string(g.conn[s]));
                close_connection(g.conn[s]);
            }
    }
}

void Server::end_game(Game& g, const std::string& result, const std::string& reason) {
    g.over = true;
    g.r.result = result;
    g.r.reason = reason;
    std::string line = "game " + std::to_string(g.r.id) +
                       " over: " + (result.empty() ? "no result" : result) + " (" + reason +
                       ") after " + std::to_string(g.r.moves.size()) + " plies";
    if (g.r.time.timed)
        line += ", clocks " + std::to_string(g.ms_left[ATTACKERS]) + " / " +
                std::to_string(g.ms_left[DEFENDERS]) + " ms";
    log(line);
}

void Server::clock_watch() {
    for (auto& [id, gp] : games_) {
        Game& g = *gp;
        if (!g.running || g.over || !g.r.time.timed) continue;
        const Side s = g.pos->side_to_move();
        if (g.ms_left[s] - ms_since(g.clock_at) > 0) continue;
        charge_clock(g);
        const std::string ids = std::to_string(id);
        send_player(g, ~s, "game " + ids + " play " + role_name(s) + " resigns ");
        send_player(g, ATTACKERS, "= game_over " + ids + " " + winner_text(~s));
        send_player(g, DEFENDERS, "= game_over " + ids + " " + winner_text(~s));
        end_game(g, winner_text(~s), std::string(role_name(s)) + " ran out of time");
    }
}

void Server::house_turns() {
    if (o_.house.empty()) return;
    for (auto& [id, gp] : games_) {
        Game& g = *gp;
        if (g.over || Clock::now() < g.house_ready) continue;
        if (!g.running) {
            // Challenge every game of another account once its creator is here.
            const int creator = connection_of(g.creator);
            if (g.challenger.empty() && !is_house(g.creator) && creator) {
                g.challenger = o_.house;
                send(creator, "= challenge_requested " + std::to_string(id));
            }
            continue;
        }
        const Side s = g.pos->side_to_move();
        if (!is_house(g.player(s))) continue;
        const int ply = int(g.r.moves.size());
        if (o_.faults.house_resigns_at_ply >= 0 && ply >= o_.faults.house_resigns_at_ply) {
            charge_clock(g);
            const std::string ids = std::to_string(id);
            send_player(g, ~s, "game " + ids + " play " + role_name(s) + " resigns ");
            send_player(g, ~s, "= game_over " + ids + " " + winner_text(~s));
            end_game(g, winner_text(~s), std::string(role_name(s)) + " (the house) resigned");
            continue;
        }
        const std::string rules = print_rules(g.edition->rules);
        if (rules != house_engine_.rules_string()) (void)house_engine_.set_rules(rules);
        (void)house_engine_.set_position("", g.branan_moves);
        SearchLimits limits;
        limits.depth = o_.house_depth;
        limits.nodes = o_.house_nodes;
        BestMove best;
        house_engine_.on_bestmove([&](const BestMove& b) { best = b; });
        if (house_engine_.go(limits)) house_engine_.wait();
        house_engine_.on_bestmove(nullptr);
        Move m = best.best;
        if (m.is_none()) {
            MoveList moves;
            generate_moves(*g.pos, moves);
            if (moves.empty()) continue;
            m = moves.moves[0];
        }
        charge_clock(g);
        if (g.r.time.timed) g.ms_left[s] += int64_t(g.r.time.add_s) * 1000;
        make_move(g, m, org_square_name(g.edition->size, m.from()),
                  org_square_name(g.edition->size, m.to()), 0);
    }
}

} // namespace branan::org
