#include "adapter.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>

#include "coordinates.h"
#include "hnefatafl_org_coordinates.h"
#include "rules.h"

namespace branan::match {

// ---------------------------------------------------------------- common

namespace {

std::mutex debug_mutex;

// The most plies an opponent's turn sent as one `opponent-move` may have: a
// berserk chain captures at each ply but its last, so its length is bounded
// by the pieces; more new plies than this are sent as a position instead.
constexpr int MAX_CHAIN_PLIES = 64;

std::vector<std::string> words(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    std::string w;
    while (in >> w) out.push_back(w);
    return out;
}

// The process and the line traffic shared by both protocols.
class ProcessAdapter : public EngineAdapter {
  public:
    ProcessAdapter(EngineConfig config, const AbortFlag& abort, std::chrono::milliseconds hs)
        : config_(std::move(config)), abort_(abort), handshake_(hs) {}
    ~ProcessAdapter() override { proc_.kill(); }

    const EngineConfig& config() const override { return config_; }
    bool alive() override { return proc_.running() && !proc_.exited(); }
    std::string exit_description() override {
        proc_.exited();
        return proc_.exit_description();
    }
    void quit() override {
        if (!proc_.running()) return;
        send(quit_command());
        proc_.close(std::chrono::milliseconds(300));
    }

  protected:
    virtual std::string quit_command() const = 0;

    bool spawn(std::string& error) {
        std::vector<std::string> argv{config_.cmd};
        argv.insert(argv.end(), config_.args.begin(), config_.args.end());
        std::string err_path = config_.stderr_path.empty() ? "/dev/null" : config_.stderr_path;
        if (config_.debug && config_.stderr_path.empty()) err_path.clear(); // inherit
        if (!proc_.start(argv, config_.dir, err_path, error)) return false;
        return true;
    }

    bool send(const std::string& line) {
        if (config_.debug) {
            std::lock_guard lock(debug_mutex);
            std::cerr << config_.name << " < " << line << "\n";
        }
        return proc_.write_line(line);
    }

    enum class Got { LINE, TIMEOUT, END, ABORTED };
    // One line before the deadline, waking up now and then for the abort flag.
    Got receive(std::string& line, Clock::time_point deadline) {
        while (true) {
            if (abort_.stop.load()) return Got::ABORTED;
            auto slice = std::min(deadline, Clock::now() + std::chrono::milliseconds(50));
            auto r = proc_.read_line(line, slice);
            if (r == ChildProcess::ReadStatus::LINE) {
                if (config_.debug) {
                    std::lock_guard lock(debug_mutex);
                    std::cerr << config_.name << " > " << line << "\n";
                }
                return Got::LINE;
            }
            if (r == ChildProcess::ReadStatus::END) return Got::END;
            if (Clock::now() >= deadline) return Got::TIMEOUT;
        }
    }

    // receive() during a turn: END at once if the request could not be sent;
    // records the time taken since t0 and marks an abort in the reply.
    Got receive_turn(bool sent, std::string& line, Clock::time_point deadline, Clock::time_point t0,
                     TurnReply& reply) {
        const Got g = sent ? receive(line, deadline) : Got::END;
        reply.elapsed_ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
        if (g == Got::ABORTED) reply.status = TurnReply::Status::ABORTED;
        return g;
    }

    // Reads until a line whose first word is `word`; false on timeout/end.
    bool wait_for(const std::string& word, std::chrono::milliseconds timeout, std::string& error,
                  std::string* found = nullptr) {
        auto deadline = Clock::now() + timeout;
        std::string line;
        while (true) {
            Got g = receive(line, deadline);
            if (g == Got::LINE) {
                auto w = words(line);
                if (!w.empty() && w[0] == word) {
                    if (found) *found = line;
                    return true;
                }
                on_other_line(w);
                continue;
            }
            if (g == Got::TIMEOUT)
                error = "no '" + word + "' within " + std::to_string(timeout.count()) + " ms";
            else if (g == Got::END) {
                const std::string how = exit_description();
                error = how == "exit code 127"
                            ? "could not run '" + config_.cmd + "' (exit code 127)"
                            : "the engine exited while we waited for '" + word + "' (" + how + ")";
            } else
                error = "aborted";
            return false;
        }
    }
    virtual void on_other_line(const std::vector<std::string>& w) { (void)w; }

    EngineConfig config_;
    const AbortFlag& abort_;
    std::chrono::milliseconds handshake_;
    ChildProcess proc_;
};

// ---------------------------------------------------------------- UCI-style

class UciAdapter : public ProcessAdapter {
  public:
    using ProcessAdapter::ProcessAdapter;

    bool start(const GameSetup& rules, std::string& error) override {
        if (!spawn(error)) return false;
        send("uci");
        if (!wait_for("uciok", handshake_, error)) return false;
        send_rules(rules);
        for (const auto& [name, value] : config_.options)
            send("setoption name " + name + " value " + value);
        send("isready");
        return ready(error);
    }

    bool new_game(const GameSetup& setup, std::string& error) override {
        root_ = setup.root_tfen.empty() ? "startpos" : "fen " + setup.root_tfen;
        send_rules(setup);
        send("ucinewgame");
        send("isready");
        return ready(error);
    }

    TurnReply play(const TurnRequest& r) override {
        TurnReply reply;
        std::string pos = "position " + root_;
        if (!r.moves.empty()) {
            pos += " moves";
            for (const std::string& m : r.moves) pos += " " + m;
        }
        std::string go = "go";
        if (r.movetime_ms > 0) {
            go += " movetime " + std::to_string(r.movetime_ms);
        } else {
            go += " atime " + std::to_string(std::max<int64_t>(0, r.time_ms[ATTACKERS]));
            go += " dtime " + std::to_string(std::max<int64_t>(0, r.time_ms[DEFENDERS]));
            go += " ainc " + std::to_string(r.inc_ms[ATTACKERS]);
            go += " dinc " + std::to_string(r.inc_ms[DEFENDERS]);
            if (r.movestogo > 0) go += " movestogo " + std::to_string(r.movestogo);
        }
        if (r.depth > 0) go += " depth " + std::to_string(r.depth);
        if (r.nodes > 0) go += " nodes " + std::to_string(r.nodes);
        auto t0 = Clock::now();
        bool sent = send(pos) && send(go);
        std::string line;
        while (true) {
            const Got g = receive_turn(sent, line, r.deadline, t0, reply);
            if (g == Got::ABORTED) return reply;
            if (g == Got::TIMEOUT) {
                reply.status = TurnReply::Status::TIMEOUT;
                return reply;
            }
            if (g == Got::END) {
                reply.status = TurnReply::Status::CRASHED;
                return reply;
            }
            auto w = words(line);
            if (w.empty()) continue;
            if (w[0] == "info") {
                read_info(w, reply);
                continue;
            }
            if (w[0] == "bestmove") {
                if (w.size() < 2 || w[1] == "(none)" || w[1] == "none" || w[1] == "0000") {
                    reply.status = TurnReply::Status::MALFORMED;
                    reply.line = line;
                    return reply;
                }
                reply.move = w[1];
                reply.line = line;
                return reply;
            }
            // Anything else (unknown words) is ignored, as UCI asks.
        }
    }

    bool recover(std::chrono::milliseconds grace) override {
        if (!alive()) return false;
        send("stop");
        send("isready");
        std::string error;
        return wait_for("readyok", grace, error);
    }

  private:
    std::string quit_command() const override { return "quit"; }

    void send_rules(const GameSetup& setup) {
        if (!setup.preset.empty())
            send("setoption name Variant value " + setup.preset);
        else
            send("setoption name Rules value " + setup.rules);
    }

    // Waits for `readyok`; false as well when the engine refused a setting
    // sent before it (Branan answers one with `info string error: ...`).
    bool ready(std::string& error) {
        refused_.clear();
        if (!wait_for("readyok", handshake_, error)) return false;
        if (refused_.empty()) return true;
        error = "refused a setting: " + refused_;
        return false;
    }
    void on_other_line(const std::vector<std::string>& w) override {
        if (!refused_.empty() || w.size() < 3 || w[0] != "info" || w[1] != "string" ||
            w[2] != "error:")
            return;
        for (size_t i = 3; i < w.size(); ++i) refused_ += (refused_.empty() ? "" : " ") + w[i];
    }

    static void read_info(const std::vector<std::string>& w, TurnReply& reply) {
        int depth = 0;
        bool scored = false;
        for (size_t i = 1; i + 1 < w.size(); ++i) {
            try {
                if (w[i] == "depth") depth = std::max(0, std::stoi(w[i + 1]));
                if (w[i] == "score" && i + 2 < w.size()) {
                    int v = std::stoi(w[i + 2]);
                    if (w[i + 1] == "cp") reply.score_cp = v;
                    if (w[i + 1] == "mate" || w[i + 1] == "win")
                        reply.score_cp = v > 0 ? 100000 - v : -100000 - v;
                    scored = w[i + 1] == "cp" || w[i + 1] == "mate" || w[i + 1] == "win";
                }
            } catch (...) {}
        }
        if (scored) reply.score_depth = depth;
    }

    std::string root_ = "startpos";
    std::string refused_; // the first refusal since the last `isready`
};

// ---------------------------------------------------------------- OpenTafl

class OtepAdapter : public ProcessAdapter {
  public:
    using ProcessAdapter::ProcessAdapter;

    // OTEP sends the rules with every game (new_game).
    bool start(const GameSetup&, std::string& error) override {
        if (!spawn(error)) return false;
        return wait_for("hello", handshake_, error);
    }

    bool new_game(const GameSetup& setup, std::string& error) override {
        setup_ = setup;
        known_moves_ = -1;
        if (!send("rules " + setup.rules)) {
            error = "the engine has gone (" + exit_description() + ")";
            return false;
        }
        return true;
    }

    TurnReply play(const TurnRequest& r) override {
        TurnReply reply;
        request_ = &r;
        bool sent = true;
        const int known = known_moves_, now = int(r.moves.size());
        if (known >= 0 && now == known) {
            // Our own berserk chain goes on: the engine knows the board.
        } else if (known >= 0 && now > known && now - known <= MAX_CHAIN_PLIES) {
            // The opponent's turn, a chain's plies joined by '|'.
            std::string turn;
            for (int i = known; i < now; ++i) turn += (turn.empty() ? "" : "|") + r.move_records[i];
            sent = send("opponent-move " + turn + " " + r.position_opentafl);
        } else {
            sent = send_position();
        }
        sent = sent && send_clock();
        sent = sent && send(std::string("play ") + side_word(r.to_move));
        auto t0 = Clock::now();
        std::string line;
        while (true) {
            const Got g = receive_turn(sent, line, r.deadline, t0, reply);
            if (g == Got::ABORTED) break;
            if (g == Got::TIMEOUT) {
                reply.status = TurnReply::Status::TIMEOUT;
                break;
            }
            if (g == Got::END) {
                reply.status = TurnReply::Status::CRASHED;
                break;
            }
            auto w = words(line);
            if (w.empty()) continue;
            if (w[0] == "move") {
                if (w.size() != 2) {
                    reply.status = TurnReply::Status::MALFORMED;
                    reply.line = line;
                } else {
                    reply.move = w[1];
                    reply.line = line;
                    known_moves_ = int(r.moves.size()) + 1;
                }
                break;
            }
            if (w[0] == "error" && w.size() >= 2 && w[1] == "-1") { // the engine gives up
                reply.status = TurnReply::Status::MALFORMED;
                reply.line = line;
                break;
            }
            if (w.size() == 1) { // bare requests: send it again
                if (w[0] == "rules") send("rules " + setup_.rules);
                if (w[0] == "position" || w[0] == "side") send_position();
                if (w[0] == "clock") send_clock();
            }
            if (w[0] == "analysis") { // "analysis n m1|m2 eval"
                try {
                    if (w.size() >= 4) reply.score_cp = std::stoi(w[3]);
                } catch (...) {}
            }
            // status, error 0, simple-moves: nothing to do
        }
        request_ = nullptr;
        return reply;
    }

    void move_accepted(const std::string& position_opentafl) override {
        send("move " + position_opentafl);
    }

    void game_over(Winner winner) override {
        int code = winner == Winner::DRAW        ? 1
                   : winner == Winner::ATTACKERS ? 2
                   : winner == Winner::DEFENDERS ? 3
                                                 : 0;
        send("finish " + std::to_string(code));
    }

    bool recover(std::chrono::milliseconds) override { return false; } // no `stop` in OTEP

  private:
    std::string quit_command() const override { return "goodbye"; }
    static const char* side_word(Side s) { return s == ATTACKERS ? "attackers" : "defenders"; }

    bool send_position() {
        if (!request_) return true;
        return send("position " + request_->position_opentafl) &&
               send(std::string("side ") + side_word(request_->to_move));
    }
    bool send_clock() {
        if (!request_) return true;
        if (request_->movetime_ms > 0) {
            // A fixed time per move, said the OTEP way: each side is inside an
            // overtime period ('*') of that length.
            const std::string ms = std::to_string(request_->movetime_ms) + "*";
            return send("clock " + ms + " " + ms + " " +
                        std::to_string(request_->movetime_ms / 1000) + " 1 1");
        }
        if (request_->time_ms[0] < 0) return true;
        return send("clock " + std::to_string(std::max<int64_t>(0, request_->time_ms[0])) + " " +
                    std::to_string(std::max<int64_t>(0, request_->time_ms[1])) + " 0 0 0");
    }

    GameSetup setup_;
    int known_moves_ = -1; // moves since the root that the engine has seen, -1: none
    const TurnRequest* request_ = nullptr;
};

// ---------------------------------------------------------------- HTP

// hnefatafl.org's Hnefatafl Text Protocol (docs/htp.md): the engine keeps
// the game itself, so each turn sends the moves it has not seen with
// `play ROLE FROM TO`, then `generate_move`, which plays the engine's move
// there too. Replies are `= ...` or `? ...` (then an empty line); anything
// else (the site engine's debug lines) is skipped. The engine knows its
// clock only from `time_settings fischer MINUTES ADD_SECONDS`: other time
// controls are sent as `un-timed` and the engine thinks its own default.
class HtpAdapter : public ProcessAdapter {
  public:
    using ProcessAdapter::ProcessAdapter;

    // HTP sends the rules with every game (new_game).
    bool start(const GameSetup&, std::string& error) override {
        if (!config_.options.empty()) {
            error = "HTP engines take no options (option." + config_.options.front().first + ")";
            return false;
        }
        if (!spawn(error)) return false;
        return command("protocol_version", handshake_, error);
    }

    bool new_game(const GameSetup& setup, std::string& error) override {
        auto rules = parse_rules(setup.rules);
        if (!rules) {
            error = rules.error();
            return false;
        }
        if (!setup.root_tfen.empty()) {
            error = "HTP engines play from the start position only (no openings)";
            return false;
        }
        size_ = rules->size;
        root_side_ = setup.root_side;
        known_moves_ = 0;
        const TimeControl& tc = config_.tc;
        std::string time = "time_settings un-timed";
        if (tc.movetime_ms == 0 && tc.moves == 0 && tc.base_ms > 0 && tc.base_ms % 60000 == 0 &&
            tc.inc_ms % 1000 == 0)
            time = "time_settings fischer " + std::to_string(tc.base_ms / 60000) + " " +
                   std::to_string(tc.inc_ms / 1000);
        // The site's own first mover: defenders on 7x7, attackers otherwise.
        const Side site_first = size_ == 7 ? DEFENDERS : ATTACKERS;
        if (!command("board_size " + std::to_string(size_), handshake_, error) ||
            !command(time, handshake_, error))
            return false;
        if (root_side_ != site_first &&
            !command(std::string("first_move ") + role(root_side_), handshake_, error))
            return false;
        return true;
    }

    TurnReply play(const TurnRequest& r) override {
        TurnReply reply;
        const auto t0 = Clock::now();
        std::string line;
        // The moves the engine has not seen (the opponent's), one by one.
        for (size_t i = size_t(known_moves_); i < r.moves.size(); ++i) {
            const Side mover = i % 2 ? ~root_side_ : root_side_;
            const Got g = exchange("play " + std::string(role(mover)) + " " + site_move(r.moves[i]),
                                   r.deadline, t0, line, reply);
            if (g != Got::LINE) return reply;
            if (line[0] == '?') {
                reply.status = TurnReply::Status::MALFORMED;
                reply.line = line;
                return reply;
            }
        }
        known_moves_ = int(r.moves.size());
        const Got g = exchange("generate_move", r.deadline, t0, line, reply);
        if (g != Got::LINE) return reply;
        // "= play attacker d1 d3, score: S, delay milliseconds: T, loops: N"
        auto w = words(line);
        for (std::string& word : w)
            if (!word.empty() && word.back() == ',') word.pop_back();
        if (w.size() < 5 || w[0] != "=" || w[1] != "play") {
            reply.status = TurnReply::Status::MALFORMED;
            reply.line = line;
            return reply;
        }
        reply.move = our_square(w[3]) + "-" + our_square(w[4]);
        reply.line = line;
        for (size_t i = 5; i + 1 < w.size(); ++i)
            if (w[i] == "score:") try {
                    reply.score_cp = std::stoi(w[i + 1]);
                } catch (...) {}
        known_moves_ = int(r.moves.size()) + 1;
        return reply;
    }

    bool recover(std::chrono::milliseconds) override { return false; } // no `stop` in HTP

  private:
    std::string quit_command() const override { return "quit"; }
    static const char* role(Side s) { return s == ATTACKERS ? "attacker" : "defender"; }

    // Squares as the site writes them (hnefatafl_org_coordinates.h). A
    // name that does not read is passed on as it is, for the referee to
    // refuse.
    std::string site_square(const std::string& sq) const {
        auto s = parse_square_text(size_, sq);
        return s ? org_square_name(size_, *s) : sq;
    }
    std::string our_square(const std::string& sq) const {
        auto s = parse_org_square(size_, sq);
        return s ? square_text(size_, *s) : sq;
    }
    std::string site_move(const std::string& move) const {
        const size_t dash = move.find('-');
        if (dash == std::string::npos) return move;
        return site_square(move.substr(0, dash)) + " " + site_square(move.substr(dash + 1));
    }

    // Sends a command and reads its reply line (`=` or `?`); anything else
    // before it is skipped.
    Got exchange(const std::string& text, Clock::time_point deadline, Clock::time_point t0,
                 std::string& line, TurnReply& reply) {
        const bool sent = send(text);
        while (true) {
            const Got g = receive_turn(sent, line, deadline, t0, reply);
            if (g == Got::TIMEOUT) reply.status = TurnReply::Status::TIMEOUT;
            if (g == Got::END) reply.status = TurnReply::Status::CRASHED;
            if (g != Got::LINE) return g;
            if (!line.empty() && (line[0] == '=' || line[0] == '?')) return g;
        }
    }

    // A set-up command that must succeed.
    bool command(const std::string& text, std::chrono::milliseconds timeout, std::string& error) {
        TurnReply reply;
        std::string line;
        const Got g = exchange(text, Clock::now() + timeout, Clock::now(), line, reply);
        if (g == Got::LINE && line[0] == '=') return true;
        if (g == Got::LINE)
            error = "'" + text + "': " + line;
        else if (g == Got::END)
            error = "the engine exited after '" + text + "' (" + exit_description() + ")";
        else if (g == Got::TIMEOUT)
            error = "no answer to '" + text + "' within " + std::to_string(timeout.count()) + " ms";
        else
            error = "aborted";
        return false;
    }

    int size_ = 11;
    Side root_side_ = ATTACKERS;
    int known_moves_ = 0; // moves since the root that the engine has seen
};

} // namespace

std::unique_ptr<EngineAdapter> make_adapter(const EngineConfig& config, const AbortFlag& abort,
                                            std::chrono::milliseconds handshake_timeout) {
    if (config.proto == "otep")
        return std::make_unique<OtepAdapter>(config, abort, handshake_timeout);
    if (config.proto == "htp")
        return std::make_unique<HtpAdapter>(config, abort, handshake_timeout);
    return std::make_unique<UciAdapter>(config, abort, handshake_timeout);
}

} // namespace branan::match
