// The Bologna client against the fake Bologna server: Branan plays both
// sides, one game after another; most games are broken by the server at a
// random state (a truncated or malformed frame, a closed connection, an
// impossible board) or slowed down. Each client must end by itself soon
// after its game ends, never by a signal, and never send an illegal move.

#include <atomic>
#include <thread>

#include "bologna/bologna_server.h"
#include "logging.h"
#include "match/process.h"
#include "parts.h"

namespace branan::soak {

namespace {

const std::string BOLOGNA_PART = "bologna";
using Kind = bologna::ServerFaults::Kind;

struct FaultKind {
    Kind kind;
    const char* name;
};
const FaultKind BOLOGNA_FAULTS[] = {
    {Kind::TRUNCATE, "truncated frame"},     {Kind::BAD_JSON, "frame not JSON"},
    {Kind::WRONG_SHAPE, "JSON not a state"}, {Kind::BAD_CELL, "unknown cell name"},
    {Kind::WRONG_SIZE, "eight rows"},        {Kind::BAD_LENGTH, "negative frame length"},
    {Kind::IMPOSSIBLE, "impossible board"},  {Kind::CLOSE, "connection closed"},
};

} // namespace

void run_bologna_part(const SoakContext& c) {
    std::mt19937_64 rng(c.seed ^ 0x626f6c);
    int game = 0;
    while (c.running()) {
        ++game;
        bologna::ServerOptions so;
        so.time_s = 6;
        so.accept_timeout_ms = 20'000;
        std::vector<std::string> kinds;
        bool breaking = false;
        if (chance(rng, 0.6)) {
            const FaultKind& k = BOLOGNA_FAULTS[pick(rng, 0, std::size(BOLOGNA_FAULTS) - 1)];
            so.faults.kind = k.kind;
            so.faults.at_state = int(pick(rng, 0, 60));
            kinds.push_back(k.name);
            breaking = true;
        }
        if (chance(rng, 0.25)) {
            so.faults.delay_ms = int(pick(rng, 1, 30));
            so.faults.chunk_bytes = int(pick(rng, 1, 24));
            so.faults.chunk_pause_ms = int(pick(rng, 0, 3));
            so.faults.slow_states = int(pick(rng, 4, 40));
            kinds.push_back("slow frames in pieces");
        }

        bologna::Server server;
        if (Status st = server.open(so, nullptr); !st.ok()) {
            logger().error("soak: the fake Bologna server cannot open: {}", st.error());
            nap(c, 1000);
            continue;
        }
        match::ChildProcess players[2];
        const char* sides[2] = {"white", "black"};
        const int ports[2] = {server.white_port(), server.black_port()};
        for (int i = 0; i < 2; ++i) {
            std::string error;
            const std::string name = std::string("bologna-") + sides[i];
            players[i].start({c.branan,
                              "--hash",
                              "4",
                              "--log-level",
                              "info",
                              "--log-file",
                              c.work_dir + "/" + name + ".log",
                              "bologna",
                              "--side",
                              sides[i],
                              "--port",
                              std::to_string(ports[i]),
                              "--time",
                              "6",
                              "--nodes",
                              "8000",
                              "--connect-timeout",
                              "10",
                              "--name",
                              name},
                             "", c.work_dir + "/" + name + "-stderr.log", error);
        }
        // The clients' output is read (and dropped) while they play, so a
        // full pipe never stops them.
        auto drain = [&] {
            std::string line;
            for (match::ChildProcess& p : players)
                while (p.running() && ready_line(p, line)) {}
        };
        bologna::GameReport report;
        std::atomic<bool> over{false};
        std::thread serving([&] {
            report = server.run();
            over = true;
        });
        while (!over) {
            drain();
            // At the soak's end the game is dropped: the server sees its
            // players go and ends it.
            if (!c.running())
                for (match::ChildProcess& p : players) p.kill();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        serving.join();
        if (!c.running()) break; // dropped unjudged, faults and all
        for (const std::string& k : kinds) c.tally->injected(BOLOGNA_PART, k);
        // Each client must see the end and exit on its own.
        const auto deadline = Clock::now() + std::chrono::seconds(20);
        bool clean = true;
        for (int i = 0; i < 2; ++i) {
            while (players[i].running() && !players[i].exited() && Clock::now() < deadline) {
                drain();
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            const std::string who = std::string(sides[i]) + " client, game " + std::to_string(game);
            if (players[i].running() && !players[i].exited()) {
                players[i].kill();
                c.tally->failure(BOLOGNA_PART, Failure::HUNG,
                                 who + ": still running 20 s after the game ended (" +
                                     report.reason + ")");
                clean = false;
            } else if (players[i].exit_description().rfind("signal", 0) == 0) {
                c.tally->failure(BOLOGNA_PART, Failure::CRASHED,
                                 who + ": " + players[i].exit_description());
                clean = false;
            }
        }
        if (!report.result.empty()) c.tally->game(BOLOGNA_PART);
        const int illegal = report.illegal[0] + report.illegal[1];
        if (illegal > 0) {
            c.tally->failure(BOLOGNA_PART, Failure::ILLEGAL_MOVE,
                             "game " + std::to_string(game) + ": " + std::to_string(illegal) +
                                 " illegal moves (" + report.reason + ")");
            clean = false;
        }
        // Out of time after a broken state is the client waiting for a
        // state that never came; out of time otherwise is a loss.
        if (!breaking && report.reason.find("ran out of time") != std::string::npos) {
            c.tally->failure(BOLOGNA_PART, Failure::TIME_LOSS,
                             "game " + std::to_string(game) + ": " + report.reason);
            clean = false;
        }
        if (clean)
            for (const std::string& k : kinds) c.tally->survived(BOLOGNA_PART, k);
    }
}

} // namespace branan::soak
