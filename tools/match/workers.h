#pragma once

// The workers of a match (cutechess's game manager): threads that take the
// scheduled games in order, each playing its games with its own engine
// processes (started when first needed, restarted after a crash or a
// hang), and hand every finished game back.

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "adapter.h"
#include "game.h"
#include "openings.h"
#include "schedule.h"

namespace branan::match {

// Stops the games of every match (from a signal handler: it only sets a
// flag, which holds until clear_interrupt()).
void interrupt_matches();
void clear_interrupt();
bool interrupted();

// A finished game as a worker hands it back.
struct PlayedGame {
    const ScheduledGame& game;
    const Opening& opening;
    const GameOutcome& outcome;
};

class Workers {
  public:
    // `rules`: the match's preset or rules string, set in every engine at
    // its start.
    Workers(const std::vector<EngineConfig>& engines, GameSetup rules, int count,
            std::chrono::milliseconds handshake);
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;

    // Starts every engine once before the first game: the error names the
    // first that does not start.
    Status start_engines();
    // Plays the schedule. `base` is every game's configuration but the
    // opening, which `book` gives for the game's slot. `done` is called for
    // each finished game, one call at a time, in the order the games end;
    // it returns false to stop the match (the games still being played are
    // abandoned). Returns when the schedule is played, `done` has stopped
    // it, or the match is interrupted.
    void run(const std::vector<ScheduledGame>& schedule, const GameConfig& base,
             const OpeningBook& book, const std::function<bool(const PlayedGame&)>& done);

  private:
    using Slots = std::vector<std::unique_ptr<EngineAdapter>>; // by engine
    // The engine's process in `slot`, started or restarted if need be; false
    // with `error` when it does not start.
    bool ensure_started(std::unique_ptr<EngineAdapter>& slot, int engine, std::string& error);

    const std::vector<EngineConfig>& engines_;
    GameSetup rules_;
    std::chrono::milliseconds handshake_;
    AbortFlag abort_;
    std::vector<Slots> slots_; // by worker
};

} // namespace branan::match
