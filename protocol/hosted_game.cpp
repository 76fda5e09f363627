#include "hosted_game.h"

#include <algorithm>
#include <cassert>

#include "movegen.h"

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

SearchLimits plan_host_limits(const HostClock& clock, Side us, int depth, uint64_t nodes) {
    SearchLimits limits;
    limits.depth = depth;
    limits.nodes = nodes;
    if (clock.move_limit_ms > 0) {
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
