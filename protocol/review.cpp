#include "review.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

#include "clock.h"
#include "movegen.h"
#include "notation.h"

namespace branan {

const char* to_string(Grade g) {
    switch (g) {
    case Grade::BEST:
        return "best";
    case Grade::GOOD:
        return "good";
    case Grade::INACCURACY:
        return "inaccuracy";
    case Grade::MISTAKE:
        return "mistake";
    case Grade::BLUNDER:
        return "blunder";
    }
    return "?";
}

Grade grade_of(double drop, bool engine_move) {
    if (engine_move) return Grade::BEST;
    if (drop >= BLUNDER_DROP) return Grade::BLUNDER;
    if (drop >= MISTAKE_DROP) return Grade::MISTAKE;
    if (drop >= INACCURACY_DROP) return Grade::INACCURACY;
    return Grade::GOOD;
}

double move_accuracy(double drop) {
    return std::clamp(103.1668 * std::exp(-0.04354 * std::max(0.0, drop)) - 3.1669, 0.0, 100.0);
}

namespace {

double expected_of(const WinChances& w) {
    return (w.win + w.draw / 2.0) / 1000.0;
}

// The mover's win chances turned to the other side's.
WinChances flipped(const WinChances& w) {
    return {w.loss, w.draw, w.win};
}

// The verdict on a position whose game is over, from its side to move.
PositionVerdict verdict_of_end(const Position& pos) {
    PositionVerdict v;
    v.searched = true;
    const GameResult r = pos.result();
    const Winner mine = pos.side_to_move() == ATTACKERS ? Winner::ATTACKERS : Winner::DEFENDERS;
    if (r.winner == Winner::DRAW) {
        v.wdl = {0, 1000, 0};
    } else if (r.winner == mine) {
        v.wdl = {1000, 0, 0};
        v.mate = 1; // won: shown as a win, not a number
    } else {
        v.wdl = {0, 0, 1000};
        v.mate = -1;
    }
    v.expected = expected_of(v.wdl);
    return v;
}

// Which moves of `pos` end the game at once in the mover's favour, and
// whether one of them is the king's escape.
struct ImmediateWins {
    bool any = false, escape = false;
};
ImmediateWins immediate_wins(const Position& pos) {
    ImmediateWins w;
    MoveList moves;
    generate_moves(pos, moves);
    const Winner mine = pos.side_to_move() == ATTACKERS ? Winner::ATTACKERS : Winner::DEFENDERS;
    Position after = pos;
    for (Move m : moves) {
        after.make_move(m);
        const GameResult r = after.result();
        after.unmake_move();
        if (r.winner != mine) continue;
        w.any = true;
        if (r.reason == EndReason::KING_ESCAPED) w.escape = true;
    }
    return w;
}

bool ends_in_win_for(const Position& before, Move m) {
    Position after = before;
    after.make_move(m);
    const Winner mine = before.side_to_move() == ATTACKERS ? Winner::ATTACKERS : Winner::DEFENDERS;
    return after.result().winner == mine;
}

// One searching engine and the positions it has been given.
struct Searcher {
    Engine* engine = nullptr;
    std::unique_ptr<Engine> owned;
};

Status set_up(Engine& e, const std::string& rules, const ReviewOptions& o) {
    if (Status st = e.set_rules(rules); !st) return Error{"the rules: " + st.error()};
    for (const auto& [name, value] : o.settings)
        if (Status st = e.set_option(name, value); !st) return Error{name + ": " + st.error()};
    // One search thread each (the positions are the parallel work), and the
    // second best line for "only move".
    const std::pair<std::string, std::string> own[] = {{"Threads", "1"}, {"MultiPV", "2"}};
    for (const auto& [name, value] : own)
        if (Status st = e.set_option(name, value); !st) return Error{name + ": " + st.error()};
    e.new_game();
    return {};
}

std::string limits_text(const SearchLimits& l) {
    if (l.depth) return "depth " + std::to_string(l.depth);
    if (l.movetime_ms) return "movetime " + std::to_string(l.movetime_ms) + " ms";
    if (l.nodes) return "nodes " + std::to_string(l.nodes);
    return "unlimited";
}

} // namespace

Result<Review> review_game(Engine& engine, const std::string& rules, const ReplayedGame& game,
                           const ReviewOptions& o) {
    const int n = int(game.moves.size());
    const int from = std::max(1, o.from_ply);
    const int to = o.to_ply > 0 ? std::min(o.to_ply, n) : n;
    if (from > n)
        return Error{"--from " + std::to_string(from) + ": the game has " + std::to_string(n) +
                     " plies"};
    if (to < from)
        return Error{"--to " + std::to_string(to) + " is before --from " + std::to_string(from)};

    // The positions before each ply, from the one before ply `from` to the
    // one after ply `to`, each with the game's history.
    std::vector<Position> positions;
    Position pos = game.start;
    for (int ply = 1; ply <= to; ++ply) {
        if (ply >= from) positions.push_back(pos);
        pos.make_move(game.moves[size_t(ply - 1)]);
    }
    positions.push_back(pos);
    Position final_pos = pos;
    for (int ply = to + 1; ply <= n; ++ply) final_pos.make_move(game.moves[size_t(ply - 1)]);

    Review review;
    review.rules = rules;
    review.edition = preset_of(game.start.edition().rules).value_or("custom");
    review.start_fen = to_tfen(game.start);
    review.final_fen = to_tfen(final_pos);
    review.game_plies = n;
    review.result = final_pos.result();
    review.limits = limits_text(o.limits);
    review.draws = engine.win_curve().draws();

    const int total = int(positions.size());
    std::vector<PositionVerdict> verdicts(size_t(total), PositionVerdict{});
    const int threads = std::clamp(o.threads, 1, std::max(1, total));
    review.threads = threads;
    std::vector<Searcher> searchers(static_cast<size_t>(threads));
    searchers[0].engine = &engine;
    for (int t = 1; t < threads; ++t) {
        searchers[size_t(t)].owned = std::make_unique<Engine>();
        searchers[size_t(t)].engine = searchers[size_t(t)].owned.get();
    }
    for (Searcher& s : searchers)
        if (Status st = set_up(*s.engine, rules, o); !st) return Error{st.error()};

    // Positions are taken in order, so that each engine's table holds the
    // game's nearby positions, and a stopped review is a prefix, nearly.
    std::atomic<int> next{0}, done{0};
    std::atomic<bool> stopping{false};
    std::mutex failure_mutex;
    std::string failure;
    auto interrupted = [&] { return o.interrupt && o.interrupt->load(); };
    auto work = [&](Engine& e) {
        while (!stopping) {
            const int i = next++;
            if (i >= total) return;
            const Position& p = positions[size_t(i)];
            PositionVerdict v;
            if (p.result().over()) {
                v = verdict_of_end(p);
            } else {
                if (Status st = e.set_position(p); !st) {
                    std::lock_guard lock(failure_mutex);
                    failure = "ply " + std::to_string(from + i) + ": " + st.error();
                    stopping = true;
                    return;
                }
                // The latest report of each of the two lines.
                std::array<SearchInfo, 2> latest{};
                auto outcome = e.search_to_end(o.limits, [&](const SearchInfo& info) {
                    // Reports come from the one search thread, in order.
                    if (info.multipv == 1 || info.multipv == 2)
                        latest[size_t(info.multipv - 1)] = info;
                });
                if (!outcome) {
                    std::lock_guard lock(failure_mutex);
                    failure = "ply " + std::to_string(from + i) + ": " + outcome.error();
                    stopping = true;
                    return;
                }
                if (stopping || interrupted()) return; // a search cut short is not a verdict
                v.searched = true;
                v.best = outcome->best.best;
                // The line of the move played as best: the first line, unless
                // a search stopped within an iteration reported the second
                // line's move last as its best.
                const bool second_is_best = !latest[1].pv.empty() && latest[1].pv[0] == v.best &&
                                            (latest[0].pv.empty() || latest[0].pv[0] != v.best);
                const SearchInfo& last = second_is_best ? latest[1] : outcome->last;
                const SearchInfo& other = second_is_best ? latest[0] : latest[1];
                v.line = last.pv;
                if (v.line.empty() || v.line[0] != v.best) v.line = {v.best};
                v.cp = last.cp;
                v.mate = last.mate;
                v.wdl = last.wdl;
                v.expected = expected_of(last.wdl);
                if (!other.pv.empty()) v.second_expected = expected_of(other.wdl);
                v.depth = last.depth;
                v.nodes = e.last_search_nodes();
            }
            verdicts[size_t(i)] = std::move(v);
            ++done;
        }
    };
    const Clock::time_point start = Clock::now();
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work, std::ref(*searchers[size_t(t)].engine));
    std::thread first(work, std::ref(engine));
    // This thread watches: progress, and the interrupt, which stops the
    // searches under way.
    while (done < total && !stopping) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (o.progress) o.progress(done, total, ms_since(start));
        if (interrupted()) {
            stopping = true;
            for (Searcher& s : searchers) s.engine->stop();
        }
        // Every search has ended once the last position is taken and done.
        if (next >= total && done >= total) break;
    }
    // A stop may come just before a search starts: keep stopping until all end.
    while (stopping && std::any_of(searchers.begin(), searchers.end(),
                                   [](const Searcher& s) { return s.engine->searching(); })) {
        for (Searcher& s : searchers) s.engine->stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    first.join();
    for (std::thread& t : pool) t.join();
    if (!failure.empty()) return Error{failure};
    review.time_ms = ms_since(start);
    if (o.progress) o.progress(done, total, review.time_ms);

    // The plies, while both their positions have a verdict.
    double largest = 0;
    std::array<double, 2> accuracy_sum{};
    for (int i = 0; i + 1 < total; ++i) {
        const PositionVerdict& before = verdicts[size_t(i)];
        const PositionVerdict& after = verdicts[size_t(i + 1)];
        if (!before.searched || !after.searched) {
            review.complete = false;
            break;
        }
        const Position& p = positions[size_t(i)];
        const Move played = game.moves[size_t(from - 1 + i)];
        PlyReview r;
        r.ply = from + i;
        r.mover = p.side_to_move();
        r.fen = to_tfen(p);
        r.played = played;
        r.record = move_record(p, played);
        r.best = before.best;
        r.line = before.line;
        r.cp_before = before.cp;
        r.mate_before = before.mate;
        r.wdl_before = before.wdl;
        r.win_before = before.expected;
        // After a berserk chain's capture the same side moves again.
        const bool same_side = positions[size_t(i + 1)].side_to_move() == r.mover;
        r.cp_after = same_side ? after.cp : Value(-after.cp);
        r.mate_after = same_side ? after.mate : -after.mate;
        r.wdl_after = same_side ? after.wdl : flipped(after.wdl);
        r.win_after = same_side ? after.expected : 1 - after.expected;
        const ImmediateWins wins = immediate_wins(p);
        const bool won_by_move = ends_in_win_for(p, played);
        // As good as the engine's move: the move itself, a move that wins at
        // once, or one that keeps a forced win no longer than the engine's.
        const bool engine_move =
            played == before.best || won_by_move ||
            (before.mate > 0 && r.mate_after > 0 && r.mate_after < before.mate);
        r.drop = engine_move ? 0 : std::max(0.0, 100 * (r.win_before - r.win_after));
        r.grade = grade_of(r.drop, engine_move);
        r.only_move = before.second_expected >= 0 &&
                      100 * (before.expected - before.second_expected) >= BLUNDER_DROP;
        r.missed_escape = wins.escape && !won_by_move;
        r.missed_win = !r.missed_escape && !won_by_move &&
                       (wins.any || (before.mate > 0 && r.mate_after <= 0));
        r.depth = before.depth;
        r.nodes = before.nodes;
        SideReview& side = review.sides[r.mover];
        side.moves++;
        side.grades[size_t(r.grade)]++;
        accuracy_sum[r.mover] += move_accuracy(r.drop);
        if (r.drop >= INACCURACY_DROP && r.drop > largest) {
            largest = r.drop;
            review.turning_point = r.ply;
        }
        review.plies.push_back(std::move(r));
    }
    for (Side s : {ATTACKERS, DEFENDERS}) {
        SideReview& side = review.sides[s];
        side.accuracy = side.moves ? accuracy_sum[s] / side.moves : 100;
    }
    return review;
}

} // namespace branan
