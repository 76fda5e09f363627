#include "hosted_game.h"

#include <algorithm>
#include <cassert>

#include "movegen.h"
#include "timeman.h"

namespace branan {

void HostedGame::start(Position pos) {
    pos_.emplace(std::move(pos));
    refused_.clear();
}

void HostedGame::play(Move m) {
    assert(pos_ && is_legal(*pos_, m));
    pos_->make_move(m);
    refused_.clear();
}

void HostedGame::undo() {
    assert(pos_ && pos_->game_ply() > 0);
    pos_->unmake_move();
    refused_.clear();
}

void HostedGame::refuse(Move m) {
    if (!refused(m)) refused_.push_back(m);
}

bool HostedGame::refused(Move m) const {
    return std::find(refused_.begin(), refused_.end(), m) != refused_.end();
}

std::vector<Move> HostedGame::searchable() const {
    std::vector<Move> out;
    if (!pos_) return out;
    MoveList list;
    generate_moves(*pos_, list);
    for (Move m : list)
        if (!refused(m)) out.push_back(m);
    return out;
}

bool HostedGame::has_searchable() const {
    return !searchable().empty();
}

void HostedGame::restrict(SearchLimits& limits) const {
    if (any_refused()) limits.searchmoves = searchable();
}

Move HostedGame::pick(Move best) const {
    const std::vector<Move> moves = searchable();
    if (moves.empty()) return MOVE_NONE;
    return std::find(moves.begin(), moves.end(), best) != moves.end() ? best : moves.front();
}

Status HostedGame::give_to(Engine& engine) const {
    assert(pos_);
    return engine.set_position(*pos_);
}

namespace {

// What is kept back of a period: a twentieth of it, at least this much.
constexpr int64_t PERIOD_MARGIN_DIVISOR = 20;
constexpr int64_t PERIOD_MARGIN_MIN_MS = 50;

// The share of an overtime period kept back for the host's own delays (its
// JVM, its reader), on top of the engine's Move Overhead.
int64_t period_margin_ms(int64_t period_ms) {
    return std::max(PERIOD_MARGIN_MIN_MS, period_ms / PERIOD_MARGIN_DIVISOR);
}

// The time of one move on a clock with overtime periods (`clock.timed`).
void plan_overtime(const HostClock& clock, Side us, SearchLimits& limits) {
    const HostClock::Overtime& ot = *clock.overtime;
    const int64_t left = clock.left_ms[us], inc = clock.inc_ms[us];
    const bool periods_follow = ot.periods[us] > 0 && ot.period_ms > 0;
    if (ot.in_period[us] || (left == 0 && periods_follow)) {
        const int64_t period = ot.in_period[us] ? left : ot.period_ms + inc;
        limits.movetime_ms = std::max<int64_t>(1, period - period_margin_ms(period));
        return;
    }
    // Aimed at (the time manager aims at half the budget and stops early on
    // a stable best move), with at most twice that: an 11x11 depth can take
    // five times the last, and a limit that far off would spend the main
    // time in a few moves.
    const int64_t share = left / MOVES_TO_GO_GUESS + inc * 3 / 4;
    const int64_t period =
        periods_follow ? std::max<int64_t>(0, ot.period_ms - period_margin_ms(ot.period_ms)) : 0;
    limits.budget_ms = std::max<int64_t>(1, std::min(left * 3 / 4 + period, 2 * (share + period)));
}

} // namespace

SearchLimits plan_host_limits(const HostClock& clock, Side us, int depth, uint64_t nodes) {
    SearchLimits limits;
    limits.depth = depth;
    limits.nodes = nodes;
    if (clock.timed && clock.overtime) {
        plan_overtime(clock, us, limits);
    } else if (clock.move_limit_ms > 0) {
        limits.budget_ms = std::max<int64_t>(1, clock.move_limit_ms - clock.margin_ms);
    } else if (clock.timed) {
        for (Side s : {ATTACKERS, DEFENDERS}) {
            limits.time_ms[s] = std::max<int64_t>(1, clock.left_ms[s] - clock.margin_ms);
            limits.inc_ms[s] = clock.inc_ms[s];
        }
        limits.time_ms[us] = std::max<int64_t>(1, limits.time_ms[us] / std::max(1, clock.sharing));
    } else if (!depth && !nodes) {
        (clock.untimed_is_budget ? limits.budget_ms : limits.movetime_ms) = clock.untimed_ms;
    }
    return limits;
}

} // namespace branan
