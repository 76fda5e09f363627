// A scripted GUI that races UCI commands at Branan. Commands go out in
// batches, with random pauses, whether or not a search runs: `position`,
// `go` (nodes, movetime, depth or infinite), `stop`, `isready`,
// `ucinewgame`, and in the racing GUI `setoption` Hash and Threads and
// `quit`. An `isready` follows each command Branan may refuse ("not while
// searching"), so the GUI knows from the `readyok`s which ones it refused
// and which position each accepted `go` searches. Every `bestmove` must
// answer exactly one accepted `go`, in order, with a legal move of that
// `go`'s position, and every `isready` gets its `readyok`.

#include <deque>
#include <optional>

#include "logging.h"
#include "match/process.h"
#include "movegen.h"
#include "notation.h"
#include "parts.h"
#include "rules.h"
#include "text.h"

namespace branan::soak {

namespace {

const char* const UCI_VARIANTS[] = {"brandubh", "tablut", "copenhagen", "hnefatafl-org-13"};
constexpr auto READY_WAIT = std::chrono::seconds(20);  // readyok on a loaded machine
constexpr auto SEARCH_WAIT = std::chrono::seconds(45); // a bounded go's bestmove
constexpr auto STOP_WAIT = std::chrono::seconds(10);   // the bestmove after stop

struct Search {
    EditionPtr edition;
    std::vector<std::string> moves; // from the start
    bool infinite = false;
    Clock::time_point sent;
    std::string command;
};

struct Command {
    std::string text;
    std::string refusable; // the name Branan uses when it refuses it; empty: never refused
    size_t prefix = 0;     // position: how many moves of the line
    bool go = false, infinite = false, variant = false;
    std::string variant_name;
};

class UciGui {
  public:
    UciGui(const SoakContext& c, bool racing)
        : c_(c), racing_(racing), part_(racing ? "uci (racing)" : "uci"),
          rng_(c.seed ^ (racing ? 0x726163 : 0x756369)) {}

    void run() {
        while (c_.running()) {
            if (!start()) {
                nap(c_, 1000);
                continue;
            }
            new_line("brandubh");
            bool alive = true;
            while (alive && c_.running()) {
                if (chance(rng_, 0.08))
                    alive = calm_variant_change();
                else if (racing_ && chance(rng_, 0.02))
                    alive = quit(); // always false: a new process follows
                else
                    alive = batch();
                if (alive) alive = check_overdue();
            }
            if (alive) finish();
        }
    }

  private:
    bool start() {
        ++starts_;
        label_ = std::string("uci") + (racing_ ? " racing" : "") + " #" + std::to_string(starts_);
        std::string error;
        if (!p_.start({c_.branan, "--log-level", "info", "--log-file",
                       c_.work_dir + "/" + part_file() + ".log"},
                      "", c_.work_dir + "/" + part_file() + "-stderr.log", error)) {
            c_.tally->failure(part_, Failure::CRASHED, label_ + " could not start: " + error);
            return false;
        }
        c_.tally->watch(label_, p_.pid(), !racing_);
        outstanding_.clear();
        send("uci");
        if (!wait_for("uciok", READY_WAIT)) return false;
        // A fixed Hash for the GUI whose memory is judged.
        if (!racing_) send("setoption name Hash value 16");
        return true;
    }
    std::string part_file() const { return racing_ ? "uci-racing" : "uci"; }

    void send(const std::string& line) {
        if (!p_.write_line(line)) logger().debug("soak: {}: write failed: {}", label_, line);
    }

    // Reads one line; END means the process is gone (counted as a crash).
    ReadStatus read(std::string& line, Clock::time_point deadline) {
        const ReadStatus st = p_.read_line(line, deadline);
        if (st == ReadStatus::END) gone("its output ended");
        return st;
    }

    void gone(const std::string& why) {
        if (!p_.running()) return;
        c_.tally->unwatch(p_.pid()); // before the pid is reaped
        p_.close(std::chrono::seconds(2));
        c_.tally->failure(part_, Failure::CRASHED,
                          label_ + ": " + why + " (" + p_.exit_description() + ")");
    }

    void hung(const std::string& why) {
        c_.tally->failure(part_, Failure::HUNG, label_ + ": " + why);
        c_.tally->unwatch(p_.pid());
        p_.kill();
    }

    bool wait_for(const std::string& want, std::chrono::seconds wait) {
        const auto deadline = Clock::now() + wait;
        std::string line;
        while (true) {
            const ReadStatus st = read(line, deadline);
            if (st == ReadStatus::END) return false;
            if (st == ReadStatus::TIMEOUT) {
                hung("no " + want + " in " + std::to_string(wait.count()) + " s");
                return false;
            }
            if (line == want) return true;
            if (!take(line)) return false;
        }
    }

    // Handles a line outside the one awaited: a bestmove, an info line, a
    // refusal. False when it breaks the protocol badly enough to stop.
    bool take(const std::string& line) {
        if (line.rfind("bestmove ", 0) == 0) {
            bestmoves_.push_back(line.substr(9));
            return true;
        }
        const std::string refusal_tail = ": not while searching (send stop first)";
        const std::string error_head = "info string error: ";
        if (line.rfind(error_head, 0) == 0) {
            const std::string rest = line.substr(error_head.size());
            if (rest.size() > refusal_tail.size() &&
                rest.compare(rest.size() - refusal_tail.size(), refusal_tail.size(),
                             refusal_tail) == 0) {
                refusals_.push_back(rest.substr(0, rest.size() - refusal_tail.size()));
                return true;
            }
            c_.tally->failure(part_, Failure::BROKEN_ANSWER,
                              label_ + ": an error to a valid command: " + line);
            return true;
        }
        if (line.rfind("info ", 0) == 0 || line.rfind("id ", 0) == 0 ||
            line.rfind("option ", 0) == 0)
            return true;
        c_.tally->failure(part_, Failure::BROKEN_ANSWER,
                          label_ + ": an unexpected line: " + printable(line, 120));
        return true;
    }

    // A random game of the variant: the positions the GUI sends are its
    // prefixes (never a finished game's end).
    void new_line(const std::string& variant) {
        variant_ = variant;
        edition_ = *Edition::make(*preset_rules(variant));
        line_.clear();
        Position pos(edition_);
        const int plies = int(pick(rng_, 0, 60));
        for (int i = 0; i < plies && !pos.result().over(); ++i) {
            MoveList list;
            generate_moves(pos, list);
            if (list.empty()) break;
            const Move m = list.moves[pick(rng_, 0, list.size() - 1)];
            line_.push_back(move_name(*edition_, m));
            pos.make_move(m);
        }
        if (pos.result().over() && !line_.empty()) line_.pop_back();
        current_ = 0;
    }

    std::string position_text(size_t prefix) const {
        std::string s = "position startpos";
        if (prefix) s += " moves";
        for (size_t i = 0; i < prefix; ++i) s += " " + line_[i];
        return s;
    }

    Command random_command() {
        Command cmd;
        const int r = int(pick(rng_, 0, racing_ ? 99 : 79));
        if (r < 25) {
            cmd.prefix = size_t(pick(rng_, 0, int64_t(line_.size())));
            cmd.text = position_text(cmd.prefix);
            cmd.refusable = "position";
        } else if (r < 50) {
            cmd.go = true;
            cmd.refusable = "go";
            const int kind = int(pick(rng_, 0, 9));
            if (kind < 3)
                cmd.text = "go nodes " + std::to_string(pick(rng_, 200, 60'000));
            else if (kind < 6)
                cmd.text = "go movetime " + std::to_string(pick(rng_, 5, 150));
            else if (kind < 9)
                cmd.text = "go depth " + std::to_string(pick(rng_, 1, 5));
            else
                cmd.text = "go infinite", cmd.infinite = true;
        } else if (r < 62) {
            cmd.text = "stop";
        } else if (r < 72) {
            cmd.text = "isready";
        } else if (r < 80) {
            cmd.text = "ucinewgame";
            cmd.refusable = "ucinewgame";
        } else if (r < 90) {
            cmd.text = "setoption name Threads value " + std::to_string(pick(rng_, 1, 3));
            cmd.refusable = "setoption";
        } else {
            cmd.text = "setoption name Hash value " + std::to_string(pick(rng_, 1, 64));
            cmd.refusable = "setoption";
        }
        return cmd;
    }

    bool batch() {
        std::vector<Command> cmds;
        const int n = int(pick(rng_, 1, 6));
        for (int i = 0; i < n; ++i) cmds.push_back(random_command());
        c_.tally->injected(part_, "commands racing a search", n);
        if (!run_commands(cmds)) return false;
        c_.tally->survived(part_, "commands racing a search", n);
        return true;
    }

    // Sends the commands, with random pauses; an `isready` follows each
    // one Branan may refuse, and one ends them all. Every line up to the
    // last `readyok` is read: a refusal belongs to the refusable command
    // before the first `isready` still unanswered, so the GUI knows which
    // were refused. Then the accepted ones are played on the GUI's model.
    bool run_commands(const std::vector<Command>& cmds) {
        std::vector<int> segment_command; // per isready sent: the refusable command before it
        int pending = -1;
        auto ready = [&] {
            send("isready");
            segment_command.push_back(pending);
            pending = -1;
        };
        for (size_t i = 0; i < cmds.size(); ++i) {
            send(cmds[i].text);
            if (cmds[i].text == "isready") {
                segment_command.push_back(pending);
                pending = -1;
            }
            if (!cmds[i].refusable.empty()) {
                pending = int(i);
                ready();
            }
            if (chance(rng_, 0.5)) nap(c_, pick(rng_, 0, 30));
        }
        ready();
        std::vector<bool> refused(cmds.size(), false);
        size_t answered = 0;
        const auto deadline = Clock::now() + READY_WAIT;
        std::string line;
        while (answered < segment_command.size()) {
            const ReadStatus st = read(line, deadline);
            if (st == ReadStatus::END) return false;
            if (st == ReadStatus::TIMEOUT) {
                hung("no readyok in " + std::to_string(READY_WAIT.count()) + " s");
                return false;
            }
            if (line == "readyok") {
                ++answered;
                continue;
            }
            take(line);
            for (const std::string& name : refusals_) {
                const int i = segment_command[answered];
                if (i < 0 || cmds[size_t(i)].refusable != name || refused[size_t(i)])
                    c_.tally->failure(part_, Failure::BROKEN_ANSWER,
                                      label_ + ": a refusal of " + name + " that was not sent");
                else
                    refused[size_t(i)] = true;
            }
            refusals_.clear();
        }
        for (size_t i = 0; i < cmds.size(); ++i) {
            const Command& cmd = cmds[i];
            if (cmd.refusable.empty() || refused[i]) continue;
            if (cmd.variant) new_line(cmd.variant_name);
            if (cmd.text.rfind("position ", 0) == 0) current_ = cmd.prefix;
            if (cmd.go) {
                Search s;
                s.edition = edition_;
                s.moves.assign(line_.begin(), line_.begin() + long(current_));
                s.infinite = cmd.infinite;
                s.sent = Clock::now();
                s.command = cmd.text;
                outstanding_.push_back(std::move(s));
            }
        }
        settle();
        return true;
    }

    // Every bestmove seen answers the oldest accepted go still open.
    void settle() {
        for (const std::string& text : bestmoves_) {
            if (outstanding_.empty()) {
                c_.tally->failure(part_, Failure::BROKEN_ANSWER,
                                  label_ + ": bestmove " + text + " answers no go");
                continue;
            }
            const Search s = outstanding_.front();
            outstanding_.pop_front();
            Position pos(s.edition);
            for (const std::string& m : s.moves) pos.make_move(*parse_legal_move(pos, m));
            const std::string move = text.substr(0, text.find(' '));
            c_.tally->game(part_);
            if (!parse_legal_move(pos, move))
                c_.tally->failure(part_, Failure::ILLEGAL_MOVE,
                                  label_ + ": bestmove " + move + " after " + s.command + " from " +
                                      to_tfen(pos));
        }
        bestmoves_.clear();
    }

    // A go that should have ended is stopped; no answer to stop is a hang.
    // An infinite search is stopped after a few seconds.
    bool check_overdue() {
        bool stop = false;
        for (const Search& s : outstanding_) {
            const auto age = Clock::now() - s.sent;
            if (s.infinite ? age > std::chrono::seconds(3) : age > SEARCH_WAIT) stop = true;
            if (!s.infinite && age > SEARCH_WAIT)
                c_.tally->failure(part_, Failure::HUNG,
                                  label_ + ": " + s.command + " unanswered after " +
                                      std::to_string(SEARCH_WAIT.count()) + " s");
        }
        if (!stop) return true;
        return drain_searches();
    }

    // stop, then every open go's bestmove.
    bool drain_searches() {
        send("stop");
        const auto deadline = Clock::now() + STOP_WAIT;
        std::string line;
        while (outstanding_.size() > bestmoves_.size()) {
            const ReadStatus st = read(line, deadline);
            if (st == ReadStatus::END) return false;
            if (st == ReadStatus::TIMEOUT) {
                hung("no bestmove " + std::to_string(STOP_WAIT.count()) + " s after stop");
                return false;
            }
            take(line);
        }
        settle();
        return true;
    }

    // The variant changes only when no search runs (a GUI sets up a game
    // between searches); the position follows it.
    bool calm_variant_change() {
        if (!drain_searches()) return false;
        const std::string v = UCI_VARIANTS[pick(rng_, 0, std::size(UCI_VARIANTS) - 1)];
        Command set;
        set.text = "setoption name Variant value " + v;
        set.refusable = "setoption";
        set.variant = true;
        set.variant_name = v;
        c_.tally->injected(part_, "variant changes");
        if (!run_commands({set})) return false;
        c_.tally->survived(part_, "variant changes");
        return true;
    }

    // quit at a random point, a search running or not: the process must
    // end at once, with exit code 0.
    bool quit() {
        c_.tally->injected(part_, "quit at a random point");
        if (chance(rng_, 0.5)) send(chance(rng_, 0.5) ? "go infinite" : "go depth 30");
        send("quit");
        const auto deadline = Clock::now() + std::chrono::seconds(10);
        std::string line;
        while (p_.read_line(line, deadline) == ReadStatus::LINE) {}
        c_.tally->unwatch(p_.pid()); // before the pid is reaped
        p_.close(std::chrono::seconds(1));
        if (p_.exit_description() != "exit code 0") {
            c_.tally->failure(part_, Failure::HUNG,
                              label_ + ": after quit: " + p_.exit_description());
            return false;
        }
        c_.tally->survived(part_, "quit at a random point");
        outstanding_.clear();
        bestmoves_.clear();
        return false;
    }

    // The soak's end: every open go answered, then quit.
    void finish() {
        if (!drain_searches()) return;
        c_.tally->sample_memory();
        send("quit");
        c_.tally->unwatch(p_.pid()); // before the pid is reaped
        p_.close(std::chrono::seconds(10));
        if (p_.exit_description() != "exit code 0")
            c_.tally->failure(part_, Failure::HUNG,
                              label_ + ": at the end: " + p_.exit_description());
    }

    const SoakContext& c_;
    const bool racing_;
    const std::string part_;
    std::mt19937_64 rng_;
    match::ChildProcess p_;
    int starts_ = 0;
    std::string label_;
    std::string variant_;
    EditionPtr edition_;
    std::vector<std::string> line_;
    size_t current_ = 0;
    std::deque<Search> outstanding_;
    std::vector<std::string> bestmoves_;
    std::vector<std::string> refusals_;
};

} // namespace

void run_uci_part(const SoakContext& c, bool racing) {
    UciGui gui(c, racing);
    gui.run();
}

} // namespace branan::soak
