#pragma once

// The hnefatafl.org bot's one search at a time: the engine, the result its
// search thread reports, and the game and ply it was for, so that the bot
// can tell a result that the game has moved past.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "clock.h"
#include "engine.h"
#include "hnefatafl_org_game.h"

namespace branan::org {

class BotSearch {
  public:
    BotSearch();
    // Stops a running search.
    ~BotSearch();

    Status set_option(const std::string& name, const std::string& value) {
        return engine_.set_option(name, value);
    }

    // Searches `g`'s position (its rules and history handed to the engine).
    Status start(const BotGame& g, const SearchLimits& limits);
    bool running() const { return running_; }
    // Stops a running search and waits for it.
    void stop();

    struct Done {
        int64_t game = -1;
        int plies = 0; // the game's plies when the search started
        BestMove best;
        SearchInfo info; // the last line of the principal variation
        int64_t ms = 0;
    };
    // The search that has ended, once; nothing while it runs.
    std::optional<Done> finished();

  private:
    Engine engine_;
    std::mutex mutex_; // the search thread's report
    bool done_ = false;
    SearchInfo info_;
    BestMove best_;

    bool running_ = false;
    int64_t game_ = -1;
    int plies_ = 0;
    Clock::time_point started_;
};

} // namespace branan::org
