// branan-match between Branan and the tests' scripted engine, which
// misbehaves at a random move: it crashes, hangs, answers late, prints
// garbage or a 4 MiB line, sends an illegal move, never says hello, or
// dies in the middle of a line. The runner must end every match by itself,
// keep a record of every finished game, and score each fault as a game
// result; Branan itself must never lose by a fault.

#include <filesystem>
#include <fstream>
#include <sstream>

#include "logging.h"
#include "match/process.h"
#include "match/record.h"
#include "parts.h"

namespace branan::soak {

namespace {

const std::string MATCH_PART = "branan-match";
const char* const SCRIPTED_MODES[] = {"crash", "hang",    "slow",    "malformed", "illegal",
                                      "flood", "midline", "nohello", "random"};
const char* const MATCH_VARIANTS[] = {"brandubh", "tablut", "copenhagen"};
constexpr int MATCH_GAMES = 2;

// Reasons a game is lost by a fault rather than on the board.
bool fault_reason(const std::string& r) {
    return r == "illegal-move" || r == "crash" || r == "time-forfeit" || r == "malformed" ||
           r == "no-start" || r == "no-answer";
}

std::string read_text(const std::string& path) {
    std::ifstream f(path);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

} // namespace

void run_match_part(const SoakContext& c) {
    std::mt19937_64 rng(c.seed ^ 0x6d6174);
    int run = 0;
    while (c.running()) {
        ++run;
        const std::string mode = SCRIPTED_MODES[pick(rng, 0, std::size(SCRIPTED_MODES) - 1)];
        const std::string protocol = chance(rng, 0.5) ? "uci" : "otep";
        const std::string variant = MATCH_VARIANTS[pick(rng, 0, std::size(MATCH_VARIANTS) - 1)];
        const int after = int(pick(rng, 1, 25));
        const std::string kind = mode == "random" ? "" : mode + " (" + protocol + ")";
        const std::string dir = c.work_dir + "/match-" + std::to_string(run);
        std::filesystem::remove_all(dir);
        match::ChildProcess runner;
        std::string error;
        const std::vector<std::string> argv = {c.match,
                                               "-engine",
                                               "cmd=" + c.branan,
                                               "name=branan",
                                               "option.Hash=4",
                                               "-engine",
                                               "cmd=" + c.scripted_engine,
                                               "name=scripted",
                                               "proto=" + protocol,
                                               "arg=--mode",
                                               "arg=" + mode,
                                               "arg=--after",
                                               "arg=" + std::to_string(after),
                                               "arg=--protocol",
                                               "arg=" + protocol,
                                               "arg=--seed",
                                               "arg=" + std::to_string(run),
                                               "-variant",
                                               variant,
                                               "-games",
                                               std::to_string(MATCH_GAMES),
                                               "-tc",
                                               "2+0.05",
                                               "-maxplies",
                                               "300",
                                               "-handshake",
                                               "3000",
                                               "-out",
                                               dir,
                                               "-quiet"};
        if (!runner.start(argv, "", dir + ".stderr", error)) {
            c.tally->failure(MATCH_PART, Failure::CRASHED,
                             "branan-match could not start: " + error);
            return;
        }
        // Two games of at most 300 plies on 2 s + 0.05 s clocks, and the
        // runner's own waits: far less than this unless something hangs.
        const auto deadline = Clock::now() + std::chrono::minutes(4);
        std::string line;
        match::ChildProcess::ReadStatus st;
        // Read in short steps: at the soak's end the match is dropped.
        do {
            st = runner.read_line(
                line, std::min(deadline, Clock::now() + std::chrono::milliseconds(200)));
        } while (c.running() &&
                 (st == match::ChildProcess::ReadStatus::LINE ||
                  (st == match::ChildProcess::ReadStatus::TIMEOUT && Clock::now() < deadline)));
        if (!c.running()) {
            runner.kill(); // dropped unjudged, its fault too
            break;
        }
        if (!kind.empty()) c.tally->injected(MATCH_PART, kind);
        const std::string what = "run " + std::to_string(run) + " (" + variant + ", scripted " +
                                 mode + " after " + std::to_string(after) + ", " + protocol + ")";
        if (st == match::ChildProcess::ReadStatus::TIMEOUT) {
            runner.kill();
            c.tally->failure(MATCH_PART, Failure::HUNG,
                             what + ": branan-match still running after 4 min");
            continue;
        }
        runner.close(std::chrono::seconds(10));
        if (mode == "nohello") {
            // An engine that never finishes its handshake is refused before
            // the first game: exit code 1, with the reason.
            const bool refused =
                runner.exit_description() == "exit code 1" &&
                read_text(dir + ".stderr").find("did not start") != std::string::npos;
            if (refused) {
                c.tally->survived(MATCH_PART, kind);
                std::filesystem::remove_all(dir);
            } else {
                c.tally->failure(
                    MATCH_PART, Failure::BROKEN_ANSWER,
                    what + ": an engine that never says hello: " + runner.exit_description());
            }
            continue;
        }
        bool clean = true;
        if (runner.exit_description() != "exit code 0") {
            c.tally->failure(MATCH_PART, Failure::CRASHED,
                             what + ": branan-match ended with " + runner.exit_description());
            clean = false;
        }
        auto games = match::read_summary(dir + "/summary.jsonl");
        if (!games || games->size() != size_t(MATCH_GAMES)) {
            c.tally->failure(MATCH_PART, Failure::BROKEN_ANSWER,
                             what + ": " + (games ? std::to_string(games->size()) : "no") +
                                 " game records of " + std::to_string(MATCH_GAMES));
            continue;
        }
        for (const match::GameSummary& g : *games) {
            c.tally->game(MATCH_PART);
            const bool branan_attacks = g.attackers == "branan";
            const bool branan_lost = g.winner == (branan_attacks ? "defenders" : "attackers");
            if (branan_lost && fault_reason(g.reason)) {
                const Failure f = g.reason == "illegal-move"   ? Failure::ILLEGAL_MOVE
                                  : g.reason == "time-forfeit" ? Failure::TIME_LOSS
                                                               : Failure::BROKEN_ANSWER;
                c.tally->failure(MATCH_PART, f,
                                 what + ", game " + std::to_string(g.game) + ": Branan lost by " +
                                     g.reason + " (" + g.detail + ")");
                clean = false;
            }
        }
        if (clean && !kind.empty()) c.tally->survived(MATCH_PART, kind);
        if (clean) std::filesystem::remove_all(dir); // a failed run's records stay for a look
    }
}

} // namespace branan::soak
