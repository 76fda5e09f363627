#include "workers.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "notation.h"

namespace branan::match {

namespace {

std::atomic<bool> g_interrupted{false};

// The game that an engine which could not be started loses (a draw when
// neither starts).
GameOutcome no_start(const GameConfig& config, const bool failed[2], const std::string names[2],
                     const std::string errors[2]) {
    GameOutcome outcome;
    auto pos = opening_position(config.edition, config.opening);
    outcome.start_tfen = outcome.final_tfen = pos ? to_tfen(*pos) : "";
    outcome.reason = "no-start";
    outcome.winner = failed[0] && failed[1] ? Winner::DRAW
                     : failed[0]            ? Winner::DEFENDERS
                                            : Winner::ATTACKERS;
    for (int s = 0; s < 2; ++s)
        if (failed[s])
            outcome.detail += (outcome.detail.empty() ? "" : "; ") + names[s] +
                              " could not be started: " + errors[s];
    return outcome;
}

} // namespace

void interrupt_matches() {
    g_interrupted.store(true);
}

void clear_interrupt() {
    g_interrupted.store(false);
}

bool interrupted() {
    return g_interrupted.load();
}

Workers::Workers(const std::vector<EngineConfig>& engines, GameSetup rules, int count,
                 std::chrono::milliseconds handshake)
    : engines_(engines), rules_(std::move(rules)), handshake_(handshake), slots_(size_t(count)) {
    for (Slots& s : slots_) s.resize(engines.size());
}

Status Workers::start_engines() {
    // The first worker keeps them for its games.
    for (size_t i = 0; i < engines_.size(); ++i) {
        auto a = make_adapter(engines_[i], abort_, handshake_);
        std::string error;
        if (!a->start(rules_, error))
            return Error{"engine '" + engines_[i].name + "' did not start: " + error};
        slots_[0][i] = std::move(a);
    }
    return {};
}

bool Workers::ensure_started(std::unique_ptr<EngineAdapter>& slot, int engine, std::string& error) {
    if (slot && !slot->alive()) slot.reset();
    if (slot) return true;
    slot = make_adapter(engines_[size_t(engine)], abort_, handshake_);
    if (slot->start(rules_, error)) return true;
    if (error.empty()) error = "did not start";
    slot.reset();
    return false;
}

void Workers::run(const std::vector<ScheduledGame>& schedule, const GameConfig& base,
                  const OpeningBook& book, const std::function<bool(const PlayedGame&)>& done) {
    std::atomic<int64_t> next{0};
    std::mutex mutex; // one `done` at a time
    auto worker = [&](Slots& slots) {
        while (!abort_.stop.load() && !interrupted()) {
            const int64_t k = next.fetch_add(1);
            if (k >= int64_t(schedule.size())) break;
            const ScheduledGame& game = schedule[size_t(k)];
            const int ids[2] = {game.attackers, game.defenders};
            bool failed[2];
            std::string errors[2];
            for (int s = 0; s < 2; ++s)
                failed[s] = !ensure_started(slots[size_t(ids[s])], ids[s], errors[s]);
            GameConfig config = base;
            config.opening = book.get(game.opening);
            if (abort_.stop.load() || interrupted()) break;
            GameOutcome outcome;
            if (failed[0] || failed[1]) {
                const std::string names[2] = {engines_[size_t(ids[0])].name,
                                              engines_[size_t(ids[1])].name};
                outcome = no_start(config, failed, names, errors);
            } else {
                EngineAdapter* players[2] = {slots[size_t(ids[0])].get(),
                                             slots[size_t(ids[1])].get()};
                outcome = play_game(config, players, abort_);
                if (outcome.aborted) break;
                for (int s = 0; s < 2; ++s)
                    if (outcome.restart[s]) slots[size_t(ids[s])].reset(); // killed
            }
            std::lock_guard lock(mutex);
            // A game that ended while another's `done` stopped the match is
            // abandoned too: handing it back would change a decided result.
            if (abort_.stop.load()) break;
            if (!done(PlayedGame{game, config.opening, outcome})) abort_.stop.store(true);
        }
        for (auto& a : slots)
            if (a) a->quit();
    };

    // Relays a Ctrl-C (interrupt_matches) to the adapters' abort flag.
    std::atomic<bool> finished{false};
    std::thread watcher([&] {
        while (!finished.load()) {
            if (interrupted()) abort_.stop.store(true);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    std::vector<std::thread> threads;
    for (Slots& slots : slots_) threads.emplace_back(worker, std::ref(slots));
    for (std::thread& t : threads) t.join();
    finished.store(true);
    watcher.join();
}

} // namespace branan::match
