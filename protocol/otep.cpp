#include "otep.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

#include "display.h"
#include "hosted_game.h"
#include "logging.h"
#include "movegen.h"
#include "notation.h"
#include "otep_clock.h"
#include "output.h"
#include "text.h"

namespace branan {

namespace {

// The longest `analyze` read as asked, in seconds (about 35 years).
constexpr int64_t MAX_ANALYSIS_S = int64_t(1) << 30;
// `analyze N 0` still searches this long.
constexpr int64_t MIN_ANALYSIS_MS = 100;

std::optional<Side> to_side(std::string_view s) {
    if (s == "attackers") return ATTACKERS;
    if (s == "defenders") return DEFENDERS;
    return std::nullopt;
}

class OtepLoop {
  public:
    OtepLoop(Engine& engine, const OtepOptions& options, std::ostream& out)
        : engine_(engine), options_(options), writer_(out) {
        game_.start(engine_.position());
        engine_.on_info([this](const SearchInfo& info) { on_info(info); });
        engine_.on_bestmove([this](const BestMove& best) { on_bestmove(best); });
    }
    ~OtepLoop() {
        stop_search(true);
        engine_.on_info(nullptr);
        engine_.on_bestmove(nullptr);
    }

    void hello() { send("hello"); }
    void line_too_long() {
        message("line longer than " + std::to_string(MAX_LINE_LENGTH) + " bytes ignored");
    }

    // Every line out, as every line in, is logged at debug level: OpenTafl
    // never shows what the engine prints, so a log file is the only trace.
    void send(const std::string& line) {
        logger().debug("otep >> {}", printable(line, 1000));
        writer_.line(line);
    }

    // Returns false when the session is over (goodbye).
    bool handle(std::string_view line) {
        logger().debug("otep << {}", printable(line, 1000));
        const auto w = split_words(line);
        if (w.empty()) return true;
        const std::string_view cmd = w[0];
        const std::string_view rest = line.substr(line.find(cmd) + cmd.size());
        if (cmd == "goodbye") return false;
        if (cmd == "rules")
            cmd_rules(rest);
        else if (cmd == "position")
            cmd_position(w);
        else if (cmd == "side")
            cmd_side(w);
        else if (cmd == "clock")
            cmd_clock(w);
        else if (cmd == "play")
            cmd_play(w);
        else if (cmd == "move")
            cmd_move_ack(w);
        else if (cmd == "opponent-move")
            cmd_opponent_move(w);
        else if (cmd == "error")
            cmd_error(w);
        else if (cmd == "analyze")
            cmd_analyze(w);
        else if (cmd == "finish")
            cmd_finish();
        else
            message("unknown command '" + printable(cmd) + "'");
        return true;
    }

    // Always waits, even when the engine no longer says it is searching: a
    // search that has just finished may still be inside on_bestmove, and the
    // loop must not go on (or be destroyed) under its feet.
    void stop_search(bool silent) {
        {
            std::lock_guard lock(mutex_);
            if (silent) mode_ = Mode::NONE;
        }
        engine_.stop();
        engine_.wait();
    }

  private:
    enum class Mode { NONE, PLAY, ANALYZE };

    void message(const std::string& text) {
        logger().info("otep: {}", text);
        send("error 0 " + text);
    }

    Side side_of_turn() const { return game_.position().side_to_move(); }

    // Whether a position record shows the game's board.
    bool is_game_board(std::string_view record) const {
        auto board = parse_opentafl_placement(game_.position().size(), record);
        if (!board) return false;
        for (Square s = 0; s < game_.position().edition().num_squares; ++s)
            if ((*board)[s] != game_.position().placed_piece(s)) return false;
        return true;
    }

    // Rebuilds the game from a position record: a board without a past, so
    // the history (repetitions, the no-capture count, the defenders' ban)
    // starts again from it. Only when the host's board is not the game's.
    bool resync(std::string_view record, Side to_move) {
        auto pos = parse_opentafl_position(engine_.position().edition_ptr(), record, to_move);
        if (!pos) {
            message(pos.error());
            return false;
        }
        game_.start(*pos);
        return true;
    }

    void cmd_rules(std::string_view rest) {
        stop_search(true);
        const auto w = split_words(rest);
        if (w.empty()) return message("rules: missing rules string");
        std::string text(rest.substr(rest.find(w[0])));
        while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
        // OpenTafl reads hostility lists by side; so do we, for its strings.
        if (Status st = engine_.set_rules(text, RulesReading::BY_SIDE); !st) {
            // Rules we cannot play: give up cleanly rather than play wrong.
            send("error -1 unsupported rules: " + printable(st.error(), 200));
            return;
        }
        engine_.new_game();
        game_.start(engine_.position());
        clock_ = {};
        clock_fresh_ = false;
        std::lock_guard lock(mutex_);
        increment_ms_ = 0;
        last_turn_ = {};
    }

    void cmd_position(const std::vector<std::string_view>& w) {
        stop_search(true);
        if (w.size() < 2) return message("position: missing position record");
        // A record carries the board only: when it is the game's board (a
        // resumed game, a reminder), the game's history stays.
        if (is_game_board(w[1])) return;
        resync(w[1], side_of_turn());
    }

    void cmd_side(const std::vector<std::string_view>& w) {
        stop_search(true);
        auto side = w.size() >= 2 ? to_side(w[1]) : std::nullopt;
        if (!side) return message("side: expected attackers or defenders");
        if (*side != side_of_turn()) resync(to_opentafl_position(game_.position()), *side);
    }

    void cmd_clock(const std::vector<std::string_view>& w) {
        auto c = parse_otep_clock(w);
        if (!c) return message(c.error());
        clock_ = *c;
        clock_fresh_ = true;
    }

    // Learns the increment from our main time at this turn and the last,
    // when the host said both and we were in main time at both.
    void follow_clock(Side us) {
        const bool in_main = clock_fresh_ && !clock_.in_overtime[us] && clock_.ms[us] > 0;
        {
            std::lock_guard lock(mutex_);
            if (in_main && last_turn_.main_ms > 0 && last_turn_.side == us &&
                last_turn_.used_ms >= 0)
                increment_ms_ =
                    infer_increment_ms(last_turn_.main_ms, last_turn_.used_ms, clock_.ms[us]);
            last_turn_ = {us, in_main ? clock_.ms[us] : 0, -1, std::chrono::steady_clock::now()};
        }
        clock_fresh_ = false;
    }

    void cmd_play(const std::vector<std::string_view>& w) {
        stop_search(true);
        auto side = w.size() >= 2 ? to_side(w[1]) : std::nullopt;
        if (!side) return message("play: expected attackers or defenders");
        if (*side != side_of_turn()) {
            logger().warn("otep: asked to play {} but {} are to move here; following the host",
                          w[1], side_of_turn() == ATTACKERS ? "attackers" : "defenders");
            resync(to_opentafl_position(game_.position()), *side);
        }
        follow_clock(*side);
        // The host asks for each move of a berserk chain in turn: the rest
        // of the turn the search chose goes out as it is asked for.
        Move next = MOVE_NONE;
        {
            std::lock_guard lock(mutex_);
            if (!chain_.empty() && game_.position().berserker() == chain_.front().from() &&
                is_legal(game_.position(), chain_.front()) && !game_.refused(chain_.front()))
                next = chain_.front();
            chain_.clear();
            if (next) {
                sent_move_ = next;
                last_turn_.used_ms = 0;
            }
        }
        if (next) return send("move " + move_name(game_.position().edition(), next));
        // One line: an earlier `analyze` may have asked for more.
        engine_.set_option("MultiPV", "1");
        SearchLimits limits = plan_host_limits(host_clock(clock_, *side, increment_ms_), *side);
        if (options_.depth > 0) limits = fixed_depth();
        game_.restrict(limits);
        start(Mode::PLAY, limits);
    }

    void cmd_analyze(const std::vector<std::string_view>& w) {
        stop_search(true);
        if (w.size() < 3) return message("analyze: expected <count> <seconds>");
        auto count = parse_integer(w[1], 1, INT64_MAX);
        auto seconds = parse_integer(w[2], 0, MAX_ANALYSIS_S);
        if (!count || !seconds) return message("analyze: expected <count> <seconds>");
        engine_.set_option("MultiPV", std::to_string(std::min<int64_t>(*count, 32)));
        SearchLimits limits;
        // The search keeps back the Move Overhead from it.
        limits.movetime_ms = std::max<int64_t>(*seconds * 1000, MIN_ANALYSIS_MS);
        if (options_.depth > 0) limits = fixed_depth();
        start(Mode::ANALYZE, limits);
    }

    SearchLimits fixed_depth() const {
        SearchLimits limits;
        limits.depth = options_.depth;
        return limits;
    }

    void start(Mode mode, const SearchLimits& limits) {
        if (Status st = game_.give_to(engine_); !st) return message(st.error());
        {
            std::lock_guard lock(mutex_);
            mode_ = mode;
            lines_.clear();
            edition_ = game_.position().edition_ptr();
        }
        if (Status st = engine_.go(limits); !st) message(st.error());
    }

    void cmd_move_ack(const std::vector<std::string_view>& w) {
        // Our move was accepted; the record is the board after it.
        Move m;
        {
            std::lock_guard lock(mutex_);
            m = sent_move_;
            sent_move_ = MOVE_NONE;
        }
        if (m && check_move(game_.position(), m)) game_.play(m);
        if (w.size() >= 2 && !is_game_board(w[1])) {
            logger().warn("otep: board after our move differs from the host's; resynchronising");
            resync(w[1], side_of_turn());
        }
    }

    void cmd_opponent_move(const std::vector<std::string_view>& w) {
        stop_search(true);
        if (w.size() < 2) return message("opponent-move: missing moves");
        std::string_view list = w[1];
        const Side before = side_of_turn();
        bool in_sync = true;
        int count = 0;
        for (std::string_view text : split(list, '|')) {
            if (text.empty()) continue;
            ++count;
            if (in_sync) {
                auto m = parse_legal_move(game_.position(), text);
                if (m) {
                    game_.play(*m);
                } else {
                    logger().warn("otep: opponent move {}: {}", printable(text), m.error());
                    in_sync = false;
                }
            }
        }
        // Out of step, the side to move is a guess: a move each, each turn
        // (a berserk chain, one turn of several, only comes in step).
        const Side to_move = in_sync ? side_of_turn() : count % 2 ? ~before : before;
        game_.clear_refused();
        if (w.size() >= 3 && (!in_sync || !is_game_board(w[2]))) {
            logger().warn("otep: board after the opponent's move differs; resynchronising");
            resync(w[2], to_move);
        }
    }

    void cmd_error(const std::vector<std::string_view>& w) {
        auto code = parse_integer(w.size() >= 2 ? w[1] : "", INT64_MIN, INT64_MAX);
        std::lock_guard lock(mutex_);
        if (code && *code == 2 && sent_move_) {
            // Illegal by the host's rules: never offer it again here.
            game_.refuse(sent_move_);
            logger().warn("otep: host rejected {}",
                          move_name(game_.position().edition(), sent_move_));
        } else {
            logger().warn("otep: host error {}", w.size() >= 2 ? std::string(w[1]) : "?");
        }
        sent_move_ = MOVE_NONE;
    }

    // The game is over; the host may start another or say goodbye.
    void cmd_finish() { stop_search(true); }

    void on_info(const SearchInfo& info) {
        std::lock_guard lock(mutex_);
        if (mode_ == Mode::NONE || !edition_ || info.pv.empty()) return;
        std::string pv;
        for (Move m : info.pv) append_word(pv, move_name(*edition_, m));
        if (mode_ == Mode::ANALYZE) {
            if (int(lines_.size()) < info.multipv) lines_.resize(info.multipv);
            lines_[info.multipv - 1] = info;
        }
        if (info.multipv != 1) return;
        std::string score =
            info.mate ? "win in " + std::to_string(info.mate) + " moves"
                      : std::to_string(info.cp) + " (" +
                            win_chance_text(info.wdl, win_model_for(edition_->rules).draws) + ")";
        if (info.mate < 0) score = "loss in " + std::to_string(-info.mate) + " moves";
        send("status depth " + std::to_string(info.depth) + " score " + score + " nodes " +
             std::to_string(info.nodes) + " pv " + pv);
    }

    void on_bestmove(const BestMove& best) {
        std::lock_guard lock(mutex_);
        const Mode mode = mode_;
        mode_ = Mode::NONE;
        if (mode == Mode::PLAY) {
            if (!best.best) {
                send("error 0 no legal move");
                return;
            }
            sent_move_ = best.best;
            chain_ = best.chain;
            last_turn_.used_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::steady_clock::now() - last_turn_.started)
                                     .count();
            send("move " + move_name(*edition_, best.best));
        } else if (mode == Mode::ANALYZE) {
            std::string text = "analysis " + std::to_string(lines_.size());
            for (const SearchInfo& info : lines_) {
                std::string moves;
                for (Move m : info.pv) append_word(moves, move_name(*edition_, m), '|');
                const Value eval =
                    info.mate ? (info.mate > 0 ? VALUE_WIN : -VALUE_WIN) - info.mate : info.cp;
                append_word(text, moves.empty() ? std::string("-") : moves);
                append_word(text, std::to_string(eval));
            }
            send(text);
        }
    }

    Engine& engine_;
    const OtepOptions options_;
    LineWriter writer_;
    HostedGame game_;
    OtepClock clock_;
    bool clock_fresh_ = false; // a clock line came since the last play

    std::mutex mutex_; // guards what the search callbacks touch
    Mode mode_ = Mode::NONE;
    Move sent_move_;
    std::vector<Move> chain_; // the rest of the turn after sent_move_ (berserk)
    EditionPtr edition_;
    std::vector<SearchInfo> lines_;
    // Our last turn, to learn the increment the host never sends.
    struct Turn {
        Side side = ATTACKERS;
        int64_t main_ms = 0;  // our main time then, 0 if in overtime
        int64_t used_ms = -1; // until our move was sent; -1 = not sent
        std::chrono::steady_clock::time_point started;
    } last_turn_;
    int64_t increment_ms_ = 0;
};

} // namespace

void run_otep(Engine& engine, const OtepOptions& options, const std::string& first_line,
              LineReader& reader, std::ostream& out) {
    OtepLoop loop(engine, options, out);
    // Say hello at once: the host starts its clock with the process.
    loop.hello();
    if (!first_line.empty() && !loop.handle(first_line)) return;
    std::string line;
    while (true) {
        const LineReader::Status st = reader.next(line);
        if (st == LineReader::Status::END) break;
        if (st == LineReader::Status::TOO_LONG) {
            loop.line_too_long();
            continue;
        }
        if (!loop.handle(line)) break;
    }
    loop.stop_search(true);
}

} // namespace branan
