#include "hnefatafl_org_search.h"

namespace branan::org {

BotSearch::BotSearch() {
    engine_.on_info([this](const SearchInfo& info) {
        std::lock_guard lock(mutex_);
        if (info.multipv == 1) info_ = info;
    });
    engine_.on_bestmove([this](const BestMove& b) {
        std::lock_guard lock(mutex_);
        best_ = b;
        done_ = true;
    });
}

BotSearch::~BotSearch() {
    stop();
    engine_.on_info(nullptr);
    engine_.on_bestmove(nullptr);
}

Status BotSearch::start(const BotGame& g, const SearchLimits& limits) {
    if (g.edition->rules != engine_.position().edition().rules)
        if (Status st = engine_.set_rules(g.edition->rules); !st) return st;
    if (Status st = g.game.give_to(engine_); !st) return st;
    {
        std::lock_guard lock(mutex_);
        done_ = false;
        info_ = {};
        best_ = {};
    }
    game_ = g.id;
    plies_ = g.plies();
    started_ = Clock::now();
    if (Status st = engine_.go(limits); !st) return st;
    running_ = true;
    return {};
}

void BotSearch::stop() {
    if (!running_) return;
    engine_.stop();
    engine_.wait();
    running_ = false;
}

std::optional<BotSearch::Done> BotSearch::finished() {
    if (!running_) return std::nullopt;
    Done d;
    {
        std::lock_guard lock(mutex_);
        if (!done_) return std::nullopt;
        d.best = best_;
        d.info = info_;
    }
    engine_.wait();
    running_ = false;
    d.game = game_;
    d.plies = plies_;
    d.ms = ms_since(started_);
    return d;
}

} // namespace branan::org
