#include "thread_pool.h"

#include <algorithm>
#include <cassert>

#include "evaluate.h"
#include "movegen.h"

namespace branan {

namespace {

// The rest of the turn after `rm`'s move when it opens a berserk chain
// (engine/berserk.h): the principal variation while the chain stays open,
// then, where the search's line stops inside the chain (at its horizon),
// the continuation the evaluation likes best. Sets the move to ponder on
// after the turn.
void complete_chain(const Position& root, const RootMove& rm, const EvalParams& params,
                    BestMove& best) {
    Position pos = root;
    pos.make_move(rm.move);
    const bool pv_ok = !rm.pv.empty() && rm.pv[0] == rm.move;
    size_t i = 1;
    while (pos.berserker() != NO_SQUARE) {
        Move next = MOVE_NONE;
        if (pv_ok && i < rm.pv.size() && is_legal(pos, rm.pv[i])) {
            next = rm.pv[i++];
        } else {
            i = rm.pv.size();
            const Side us = pos.side_to_move();
            Value top = -VALUE_INFINITE;
            MoveList list;
            generate_moves(pos, list);
            for (Move m : list) {
                pos.make_move(m);
                const Value v =
                    pos.side_to_move() == us ? evaluate(pos, params) : -evaluate(pos, params);
                pos.unmake_move();
                if (v > top) top = v, next = m;
            }
        }
        assert(next);
        best.chain.push_back(next);
        pos.make_move(next);
    }
    best.ponder = pv_ok && i < rm.pv.size() ? rm.pv[i] : MOVE_NONE;
}

RootMove make_root_move(Move m) {
    RootMove rm;
    rm.move = m;
    rm.pv.assign(1, m);
    return rm;
}

// The root moves: the searchmoves that are legal, or every move when none is.
std::vector<RootMove> root_moves(const Position& pos, const std::vector<Move>& searchmoves) {
    MoveList list;
    generate_moves(pos, list);
    std::vector<RootMove> root;
    for (Move m : list)
        if (searchmoves.empty() ||
            std::find(searchmoves.begin(), searchmoves.end(), m) != searchmoves.end())
            root.push_back(make_root_move(m));
    if (root.empty())
        for (Move m : list) root.push_back(make_root_move(m));
    return root;
}

// How a position without moves stands for its side to move: the game's
// result where it is over, else what having no move means in these rules.
SearchInfo no_move_report(const Position& pos) {
    const GameResult over = pos.result();
    const Side stm = pos.side_to_move();
    Winner w = over.winner;
    if (!over.over())
        w = !pos.edition().rules.no_moves_loses ? Winner::DRAW
            : stm == ATTACKERS                  ? Winner::DEFENDERS
                                                : Winner::ATTACKERS;
    SearchInfo info;
    info.score = end_value(w, stm, 0);
    return info;
}

// Which root move a level below full strength plays: one of the first
// Skill::CANDIDATES lines the search completed, drawn by their win chances.
size_t skill_choice(const SearchThread& thread, const SearchSetup& setup, Side us) {
    std::vector<double> expected;
    const WinCurve curve = setup.curve.at_depth(thread.completed_depth);
    for (size_t i = 0; i < thread.root_moves.size() && i < size_t(Skill::CANDIDATES); ++i) {
        const RootMove& rm = thread.root_moves[i];
        // Lines the search had no time for are not candidates.
        if (rm.score == -VALUE_INFINITE) break;
        expected.push_back(curve.expected(rm.score, us));
    }
    if (expected.size() < 2) return 0;
    std::mt19937_64 rng(setup.seed);
    return setup.skill.pick(expected, rng);
}

// Each voter's weight is its depth times its score above the lowest score
// plus this (centi-soldiers), so the lowest still counts by its depth.
constexpr Value VOTE_SCORE_BASE = 20;

} // namespace

const SearchThread& best_thread(const SearchContext& ctx, bool vote) {
    auto has_line = [](const SearchThread& t) {
        return t.completed_depth > 0 && !t.root_moves.empty();
    };
    const SearchThread* chosen = ctx.workers[0].get();
    if (!vote) {
        for (const auto& w : ctx.workers)
            if (w->completed_depth > chosen->completed_depth && !w->root_moves.empty())
                chosen = w.get();
        return *chosen;
    }
    // Each thread votes for its first move with its depth, weighted by how
    // far its score stands above the lowest: a move that several threads
    // found, deep and well scored, beats one thread's deepest guess.
    Value lowest = VALUE_INFINITE;
    for (const auto& w : ctx.workers)
        if (has_line(*w)) lowest = std::min(lowest, w->root_moves[0].score);
    std::vector<std::pair<Move, int64_t>> votes;
    auto votes_of = [&](Move m) -> int64_t& {
        for (auto& [move, n] : votes)
            if (move == m) return n;
        return votes.emplace_back(m, 0).second;
    };
    for (const auto& w : ctx.workers)
        if (has_line(*w))
            votes_of(w->root_moves[0].move) +=
                int64_t(w->root_moves[0].score - lowest + VOTE_SCORE_BASE) * w->completed_depth;
    for (const auto& w : ctx.workers) {
        if (!has_line(*w)) continue;
        if (!has_line(*chosen)) {
            chosen = w.get();
            continue;
        }
        const Value ours = chosen->root_moves[0].score, theirs = w->root_moves[0].score;
        // A proven result: the quickest win, or the slowest loss.
        if (is_win_score(ours)) {
            if (theirs > ours) chosen = w.get();
        } else if (theirs >= VALUE_WIN_MAX_PLY ||
                   (theirs > -VALUE_WIN_MAX_PLY &&
                    votes_of(w->root_moves[0].move) > votes_of(chosen->root_moves[0].move))) {
            chosen = w.get();
        }
    }
    return *chosen;
}

BestMove best_move_of(const SearchThread& thread, const Position& pos, const BoardGame& board,
                      const TranspositionTable& tt, const EvalParams& params, size_t index) {
    BestMove best;
    const RootMove& rm = thread.root_moves[index];
    best.best = rm.move;
    if (pos.edition().rules.berserk != Berserk::NONE)
        complete_chain(pos, rm, params, best);
    else if (rm.pv.size() > 1 && rm.pv[0] == rm.move)
        best.ponder = rm.pv[1];
    else
        best.ponder = board.table_reply(tt, rm.move);
    return best;
}

ThreadPool::~ThreadPool() {
    stop();
    join();
}

void ThreadPool::set_size(int threads) {
    assert(threads >= 1);
    threads_ = threads;
    while (int(histories_.size()) < threads_) {
        histories_.push_back(std::make_unique<History>());
        histories_.back()->clear();
    }
}

void ThreadPool::clear() {
    for (auto& h : histories_) h->clear();
}

Status ThreadPool::start(const BoardGame& board, const Position& pos, SearchSetup setup) {
    if (running_) return Error{"a search is already running"};
    if (thread_.joinable() && thread_.get_id() == std::this_thread::get_id())
        return Error{"go from inside the bestmove callback is not supported"};
    join();
    set_size(threads_);
    board_ = &board;
    pos_.emplace(pos);
    setup_ = std::move(setup);
    ctx_ = std::make_unique<SearchContext>();
    SearchContext& c = *ctx_;
    c.start = Clock::now();
    c.limits = setup_.limits;
    c.tt = setup_.tt;
    c.params = setup_.params;
    c.net = setup_.net;
    c.multipv = setup_.multipv;
    c.pondering = setup_.limits.ponder;
    c.on_info = setup_.on_info;
    c.time.init(c.limits, pos.side_to_move(), setup_.move_overhead_ms);
    c.tt->new_search();
    const std::vector<RootMove> root = root_moves(pos, setup_.limits.searchmoves);
    for (int i = 0; i < threads_; ++i) {
        c.workers.push_back(board.make_thread(c, i, *histories_[i]));
        c.workers.back()->root_moves = root;
    }
    running_ = true;
    {
        std::lock_guard lock(mutex_);
        done_ = false;
    }
    thread_ = std::thread([this] { main_search(); });
    return {};
}

void ThreadPool::main_search() {
    SearchContext& c = *ctx_;
    BestMove best;
    // A game already over by repetition or the move limit still gets a
    // move if there is one (the caller decides what to do with it); only a
    // position without moves has none.
    SearchThread& main = *c.workers[0];
    auto hold_while_infinite = [&] {
        while (!c.stop && (c.limits.infinite || c.pondering))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    if (main.root_moves.empty()) {
        if (c.on_info) c.on_info(no_move_report(*pos_));
        hold_while_infinite();
    } else {
        std::vector<std::thread> helpers;
        for (size_t i = 1; i < c.workers.size(); ++i)
            helpers.emplace_back([&c, i] { c.workers[i]->run(); });
        main.run();
        hold_while_infinite();
        c.stop = true;
        for (auto& t : helpers) t.join();
        const bool vote = c.multipv == 1 && !setup_.skill.limited();
        const SearchThread& chosen = best_thread(c, vote);
        // The last line a host sees is the one whose move is played.
        if (&chosen != &main && c.on_info)
            c.on_info(c.line_info(chosen.root_moves[0], chosen.completed_depth, 1));
        const size_t index =
            setup_.skill.limited() ? skill_choice(chosen, setup_, pos_->side_to_move()) : 0;
        best = best_move_of(chosen, *pos_, *board_, *setup_.tt, *setup_.params, index);
    }
    last_nodes_ = c.total_nodes();
    running_ = false;
    if (setup_.on_bestmove) setup_.on_bestmove(best);
    {
        std::lock_guard lock(mutex_);
        done_ = true;
    }
    cv_.notify_all();
}

void ThreadPool::stop() {
    if (running_ && ctx_) ctx_->stop = true;
}

void ThreadPool::ponderhit() {
    if (running_ && ctx_) {
        ctx_->timer_origin_ms = ctx_->elapsed_ms();
        ctx_->pondering = false;
    }
}

void ThreadPool::join() {
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return done_; });
    }
    if (thread_.joinable()) thread_.join();
}

void ThreadPool::wait() {
    if (thread_.joinable() && thread_.get_id() == std::this_thread::get_id()) return;
    join();
}

} // namespace branan
