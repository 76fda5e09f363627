// The hnefatafl.org bot under a server that restarts and misbehaves. Each
// epoch (20 to 60 s) is a new fake server on the same port with a random
// set of faults; its end is a restart, which drops every connection and
// forgets the games in play, as a real restart does. Three bot processes
// (7x7, 11x11, 13x13), each two games at once, live for the whole soak.

#include <memory>
#include <thread>

#include "hnefatafl_org/hnefatafl_org_server.h"
#include "logging.h"
#include "match/process.h"
#include "parts.h"

namespace branan::soak {

namespace {

const std::string ORG_PART = "hnefatafl-org";
const std::string PASSWORD = "soak";

struct Bot {
    int size = 7;
    std::string user;
    match::ChildProcess process;
    std::string label;
    int starts = 0;
    int quiet_epochs = 0; // epochs in a row with no line from it
};

void start_bot(const SoakContext& c, Bot& b, int port) {
    ++b.starts;
    b.label = "hnefatafl-org bot " + std::to_string(b.size) + "x" + std::to_string(b.size) + " #" +
              std::to_string(b.starts);
    const std::string log = c.work_dir + "/" + b.user + "-" + std::to_string(b.starts) + ".log";
    std::string error;
    // A 60 s + 1 s clock and a node limit: a move in tens of milliseconds,
    // so the clock never runs short on a loaded machine unless Branan
    // mismanages it.
    if (!b.process.start({c.branan,
                          "--hash",
                          "8",
                          "--log-level",
                          "info",
                          "--log-file",
                          log,
                          "hnefatafl-org",
                          "--user",
                          b.user,
                          "--host",
                          "127.0.0.1",
                          "--port",
                          std::to_string(port),
                          "--create",
                          "both",
                          "--board",
                          std::to_string(b.size),
                          "--time",
                          "60000+1",
                          "--games",
                          "0",
                          "--max-games-at-once",
                          "2",
                          "--nodes",
                          "20000"},
                         "", c.work_dir + "/" + b.user + "-stderr.log", error)) {
        c.tally->failure(ORG_PART, Failure::CRASHED, b.label + " could not start: " + error);
        return;
    }
    c.tally->watch(b.label, b.process.pid());
}

// The faults of one epoch, each counted as injected.
org::ServerFaults random_faults(const SoakContext& c, std::mt19937_64& rng,
                                std::vector<std::string>& kinds) {
    org::ServerFaults f;
    auto inject = [&](const std::string& kind) {
        kinds.push_back(kind);
        c.tally->injected(ORG_PART, kind);
    };
    if (chance(rng, 0.4)) {
        f.drop_at_ply = int(pick(rng, 2, 40));
        inject("dropped connections");
        if (chance(rng, 0.5)) {
            f.busy_logins = int(pick(rng, 1, 3));
            inject("logins refused after a drop");
        }
    }
    if (chance(rng, 0.3)) f.refuse_first_move = true, inject("refused moves");
    if (chance(rng, 0.3)) f.offer_draw_at_ply = int(pick(rng, 0, 40)), inject("draw offers");
    if (chance(rng, 0.3)) f.malformed = true, inject("malformed lines");
    if (chance(rng, 0.2))
        f.overlong_line_bytes = int(pick(rng, 70'000, 2'000'000)), inject("overlong lines");
    if (chance(rng, 0.3)) f.stray_generate_move = true, inject("generate_move out of turn");
    if (chance(rng, 0.25)) {
        f.line_delay_ms = int(pick(rng, 1, 4));
        f.chunk_bytes = int(pick(rng, 1, 12));
        inject("slow lines split across packets");
    } else if (chance(rng, 0.25)) {
        f.chunk_bytes = int(pick(rng, 30, 300));
        inject("lines glued and split");
    }
    if (chance(rng, 0.1)) f.house_resigns_at_ply = int(pick(rng, 4, 60)), inject("resignations");
    return f;
}

bool is_bot(const std::string& user) {
    return user.rfind("bot", 0) == 0;
}

} // namespace

void run_hnefatafl_org_part(const SoakContext& c) {
    std::mt19937_64 rng(c.seed ^ 0x6f7267);
    std::vector<std::unique_ptr<Bot>> bots;
    for (int size : {7, 11, 13}) {
        auto b = std::make_unique<Bot>();
        b->size = size;
        b->user = "bot" + std::to_string(size);
        bots.push_back(std::move(b));
    }
    org::ServerOptions so;
    so.accounts = {{"rival", "rival"}};
    for (const auto& b : bots) so.accounts.emplace_back(b->user, PASSWORD);
    so.house = "rival";
    so.house_depth = 1;
    int port = 0;
    int64_t next_id = 1;
    bool bots_started = false;
    std::vector<std::string> previous_kinds; // survived once every bot is back after them

    while (c.running()) {
        std::vector<std::string> kinds;
        so.faults = random_faults(c, rng, kinds);
        so.port = port;
        so.first_game_id = next_id;
        org::Server server;
        Status opened = server.open(so, nullptr);
        for (int tries = 0; !opened.ok() && tries < 50 && c.running(); ++tries) {
            nap(c, 200); // the old socket may linger a moment
            opened = server.open(so, nullptr);
        }
        if (!opened.ok()) {
            logger().error("soak: the fake hnefatafl.org server cannot open port {}: {}", port,
                           opened.error());
            return;
        }
        port = server.port();
        if (!bots_started) {
            for (auto& b : bots) start_bot(c, *b, port);
            bots_started = true;
        }
        const int64_t epoch_ms = std::min<int64_t>(pick(rng, 20'000, 60'000), c.ms_left());
        std::thread serving([&] { server.run(std::max<int64_t>(epoch_ms, 1)); });
        const auto epoch_end = Clock::now() + std::chrono::milliseconds(epoch_ms);
        std::vector<int> lines(bots.size(), 0);
        while (Clock::now() < epoch_end && !*c.stop) {
            for (size_t i = 0; i < bots.size(); ++i) {
                Bot& b = *bots[i];
                std::string line;
                while (b.process.running() && ready_line(b.process, line)) ++lines[i];
                const pid_t pid = b.process.pid(); // gone once reaped
                if (b.process.running() && b.process.exited()) {
                    c.tally->unwatch(pid);
                    c.tally->failure(ORG_PART, Failure::CRASHED,
                                     b.label + " ended: " + b.process.exit_description());
                    start_bot(c, b, port);
                }
            }
            nap(c, 200);
        }
        server.stop();
        serving.join();

        const std::map<std::string, int> logins = server.logins_by_user();
        for (const org::GameReport& g : server.reports()) {
            next_id = std::max(next_id, g.id + 1);
            if (g.attacker.empty() || g.result.empty()) continue; // never started, or cut
            c.tally->game(ORG_PART);
            const std::string what = "game " + std::to_string(g.id) + " (" +
                                     std::to_string(g.board_size) + "x" +
                                     std::to_string(g.board_size) + ")";
            if (g.illegal + g.repeated_refused > 0)
                c.tally->failure(ORG_PART, Failure::ILLEGAL_MOVE,
                                 what + ": " + std::to_string(g.illegal + g.repeated_refused) +
                                     " illegal or repeated refused moves");
            if (g.declined)
                c.tally->failure(ORG_PART, Failure::BROKEN_ANSWER, what + ": a draw declined");
            const std::string loser = g.result == "attacker_wins"   ? g.defender
                                      : g.result == "defender_wins" ? g.attacker
                                                                    : "";
            if (is_bot(loser) && g.reason.find("time") != std::string::npos)
                c.tally->failure(ORG_PART, Failure::TIME_LOSS,
                                 what + ": " + loser + " " + g.reason);
        }
        // A bot that did not log in to two servers in a row has hung (each
        // epoch is a new server: the bot must reconnect to it).
        bool all_back = true;
        for (size_t i = 0; i < bots.size(); ++i) {
            Bot& b = *bots[i];
            const bool heard = logins.count(b.user) > 0;
            b.quiet_epochs = heard ? 0 : b.quiet_epochs + 1;
            if (!heard) all_back = false;
            if (b.quiet_epochs >= 2 && c.running()) {
                c.tally->failure(ORG_PART, Failure::HUNG,
                                 b.label + " did not log in to two servers in a row");
                c.tally->unwatch(b.process.pid());
                b.process.kill();
                start_bot(c, b, port);
                b.quiet_epochs = 0;
            }
        }
        if (all_back)
            for (const std::string& k : previous_kinds) c.tally->survived(ORG_PART, k);
        previous_kinds = kinds;
        if (c.running()) {
            c.tally->injected(ORG_PART, "server restarts");
            previous_kinds.push_back("server restarts");
        }
    }
    // The last server's faults: survived when every bot is still there.
    bool all_alive = true;
    for (auto& b : bots) all_alive = all_alive && b->process.running() && !b->process.exited();
    if (all_alive)
        for (const std::string& k : previous_kinds) c.tally->survived(ORG_PART, k);
    for (auto& b : bots)
        if (b->process.running()) {
            c.tally->sample_memory();
            c.tally->unwatch(b->process.pid());
            b->process.kill();
        }
}

} // namespace branan::soak
