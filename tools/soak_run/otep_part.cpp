// A scripted OpenTafl host: games with Branan over OTEP on a clock, the
// host playing random moves, and at random points the host's habits and
// faults: a legal move refused (`error 2`), an analysis request in the
// middle of a game, a game ended while Branan thinks (`finish 0`), and
// `goodbye` at any point. Every `play` must be answered by exactly one
// legal `move` before Branan's clock runs out; no `move` may come unasked.

#include "logging.h"
#include "match/process.h"
#include "movegen.h"
#include "notation.h"
#include "parts.h"
#include "rules.h"
#include "text.h"

namespace branan::soak {

namespace {

const std::string OTEP_PART = "otep";
const char* const OTEP_VARIANTS[] = {"brandubh", "opentafl-tablut", "opentafl-copenhagen"};
constexpr int64_t START_MS = 8000, INCREMENT_MS = 200; // Branan's clock
constexpr auto SLACK = std::chrono::seconds(10);       // a loaded machine's delay

class OtepHost {
  public:
    explicit OtepHost(const SoakContext& c) : c_(c), rng_(c.seed ^ 0x6f7465) {}

    void run() {
        while (c_.running()) {
            if (!start()) {
                nap(c_, 1000);
                continue;
            }
            bool alive = true;
            while (alive && c_.running()) alive = game();
            if (alive) bye(false);
        }
    }

  private:
    bool start() {
        ++starts_;
        label_ = "otep #" + std::to_string(starts_);
        std::string error;
        if (!p_.start({c_.branan, "--protocol", "otep", "--hash", "8", "--log-level", "info",
                       "--log-file", c_.work_dir + "/otep.log"},
                      "", c_.work_dir + "/otep-stderr.log", error)) {
            c_.tally->failure(OTEP_PART, Failure::CRASHED, label_ + " could not start: " + error);
            return false;
        }
        c_.tally->watch(label_, p_.pid());
        std::string line;
        const auto deadline = Clock::now() + SLACK;
        while (true) {
            const ReadStatus st = p_.read_line(line, deadline);
            if (st != ReadStatus::LINE) return failed(st, "no hello");
            if (line == "hello") return true;
        }
    }

    bool failed(ReadStatus st, const std::string& what) {
        if (st == ReadStatus::TIMEOUT) {
            c_.tally->failure(OTEP_PART, Failure::HUNG, label_ + ": " + what);
            c_.tally->unwatch(p_.pid());
            p_.kill();
        } else {
            c_.tally->unwatch(p_.pid()); // before the pid is reaped
            p_.close(std::chrono::seconds(2));
            c_.tally->failure(OTEP_PART, Failure::CRASHED,
                              label_ + ": " + what + ": output ended (" + p_.exit_description() +
                                  ")");
        }
        return false;
    }

    void send(const std::string& line) { p_.write_line(line); }

    std::string side_word(Side s) const { return s == ATTACKERS ? "attackers" : "defenders"; }

    // One game; false when the process is gone (quit or failure).
    bool game() {
        const std::string variant = OTEP_VARIANTS[pick(rng_, 0, std::size(OTEP_VARIANTS) - 1)];
        const Rules rules = *preset_rules(variant);
        Position pos(*Edition::make(rules));
        const Side engine = chance(rng_, 0.5) ? ATTACKERS : DEFENDERS;
        send("rules " + print_rules(rules));
        int64_t clock_ms = START_MS;
        bool refused = false; // a legal move was refused: the next answer survives it
        while (!pos.result().over()) {
            if (!c_.running()) return true;
            if (chance(rng_, 0.004)) return bye(true);
            if (chance(rng_, 0.01)) {
                c_.tally->injected(OTEP_PART, "game ended by the host");
                send("finish 0");
                c_.tally->survived(OTEP_PART, "game ended by the host");
                return true;
            }
            if (chance(rng_, 0.02) && !analysis(pos)) return false;
            if (pos.side_to_move() != engine) {
                MoveList list;
                generate_moves(pos, list);
                const Move m = list.moves[pick(rng_, 0, list.size() - 1)];
                const std::string name = move_name(pos.edition(), m);
                pos.make_move(m);
                send("opponent-move " + name + " " + to_opentafl_position(pos));
                continue;
            }
            const std::string opp =
                "clock " + std::to_string(engine == ATTACKERS ? clock_ms : START_MS) + " " +
                std::to_string(engine == DEFENDERS ? clock_ms : START_MS) + " 0 0 0";
            send(opp);
            const auto asked = Clock::now();
            send("play " + side_word(engine));
            if (chance(rng_, 0.01)) return bye(true); // goodbye while it thinks
            std::string move;
            if (!await_move(move, asked + std::chrono::milliseconds(clock_ms) + SLACK))
                return false;
            clock_ms -=
                std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - asked).count();
            if (clock_ms <= 0)
                c_.tally->failure(OTEP_PART, Failure::TIME_LOSS,
                                  label_ + ": out of time in " + variant + " at " + to_tfen(pos));
            clock_ms = std::max<int64_t>(clock_ms, 0) + INCREMENT_MS;
            auto m = parse_legal_move(pos, move);
            if (m && refused) {
                c_.tally->survived(OTEP_PART, "legal move refused");
                refused = false;
            }
            if (!m) {
                c_.tally->failure(OTEP_PART, Failure::ILLEGAL_MOVE,
                                  label_ + ": move " + move + " in " + to_tfen(pos));
                send("finish 0");
                return true;
            }
            MoveList replies;
            generate_moves(pos, replies);
            if (replies.size() > 1 && chance(rng_, 0.03)) {
                // A host that refuses a legal move: Branan must find another
                // answer to the play that follows.
                c_.tally->injected(OTEP_PART, "legal move refused");
                send("error 2");
                refused = true;
                continue; // the same turn again: clock and play
            }
            pos.make_move(*m);
            if (!pos.result().over()) send("move " + to_opentafl_position(pos));
        }
        c_.tally->game(OTEP_PART);
        const Winner w = pos.result().winner;
        send(std::string("finish ") + (w == Winner::DRAW        ? "1"
                                       : w == Winner::ATTACKERS ? "2"
                                                                : "3"));
        return true;
    }

    // The `move` that answers a play; other lines are fine but a second
    // move is not (seen at the next read).
    bool await_move(std::string& move, Clock::time_point deadline) {
        std::string line;
        while (true) {
            const ReadStatus st = p_.read_line(line, deadline);
            if (st != ReadStatus::LINE) return failed(st, "no move before its clock ran out");
            if (line.rfind("move ", 0) == 0) {
                move = line.substr(5);
                return unasked_moves();
            }
            other(line);
        }
    }

    // Lines already there after a move: none may be another move.
    bool unasked_moves() {
        std::string line;
        while (ready_line(p_, line)) {
            if (line.rfind("move ", 0) == 0)
                c_.tally->failure(OTEP_PART, Failure::BROKEN_ANSWER,
                                  label_ + ": a move nobody asked for: " + line);
            else
                other(line);
        }
        return true;
    }

    void other(const std::string& line) {
        if (line.rfind("status ", 0) == 0 || line.rfind("analysis ", 0) == 0 ||
            line.rfind("simple-moves", 0) == 0)
            return;
        if (line.rfind("error ", 0) == 0 || line == "rules" || line == "position" ||
            line == "side" || line == "clock") {
            c_.tally->failure(OTEP_PART, Failure::BROKEN_ANSWER,
                              label_ + ": " + printable(line, 120));
            return;
        }
        c_.tally->failure(OTEP_PART, Failure::BROKEN_ANSWER,
                          label_ + ": an unexpected line: " + printable(line, 120));
    }

    // An analysis of the game's position in the middle of it, as OpenTafl's
    // analysis window asks: lines within the time, then the game goes on.
    bool analysis(const Position& pos) {
        c_.tally->injected(OTEP_PART, "analysis in a game");
        send("position " + to_opentafl_position(pos));
        send("side " + side_word(pos.side_to_move()));
        send("analyze 2 1");
        const auto deadline = Clock::now() + std::chrono::seconds(1) + SLACK;
        std::string line;
        while (true) {
            const ReadStatus st = p_.read_line(line, deadline);
            if (st != ReadStatus::LINE) return failed(st, "no analysis within its second");
            if (line.rfind("analysis ", 0) == 0) break;
            if (line.rfind("move ", 0) == 0)
                c_.tally->failure(OTEP_PART, Failure::BROKEN_ANSWER,
                                  label_ + ": a move to an analysis: " + line);
            else
                other(line);
        }
        unasked_moves();
        c_.tally->survived(OTEP_PART, "analysis in a game");
        return true;
    }

    // goodbye: the process must end at once, with exit code 0.
    bool bye(bool random) {
        if (random) c_.tally->injected(OTEP_PART, "goodbye at a random point");
        send("goodbye");
        std::string line;
        const auto deadline = Clock::now() + SLACK;
        while (p_.read_line(line, deadline) == ReadStatus::LINE) {}
        c_.tally->unwatch(p_.pid()); // before the pid is reaped
        p_.close(std::chrono::seconds(1));
        if (p_.exit_description() != "exit code 0")
            c_.tally->failure(OTEP_PART, Failure::HUNG,
                              label_ + ": after goodbye: " + p_.exit_description());
        else if (random)
            c_.tally->survived(OTEP_PART, "goodbye at a random point");
        return false;
    }

    const SoakContext& c_;
    std::mt19937_64 rng_;
    match::ChildProcess p_;
    int starts_ = 0;
    std::string label_;
};

} // namespace

void run_otep_part(const SoakContext& c) {
    OtepHost host(c);
    host.run();
}

} // namespace branan::soak
