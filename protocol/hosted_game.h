#pragma once

// What every host of a game needs, whatever its wire: the game with its
// history (what the engine searches, so repetitions and the no-capture
// count are judged on the whole game), the moves of ours that the other
// side refused in this position, the moves left to search, and the plan
// that turns the host's clock into search limits. Each host (OTEP, HTP, the
// Bologna client, the hnefatafl.org bot) is its wire codec around this.

#include <cstdint>
#include <optional>
#include <vector>

#include "engine.h"
#include "position.h"
#include "search_limits.h"

namespace branan {

class HostedGame {
  public:
    HostedGame() = default;
    explicit HostedGame(Position start) : pos_(std::move(start)) {}

    // A game without a past: a start, or a board the host sent.
    void start(Position pos);
    bool started() const { return pos_.has_value(); }
    const Position& position() const { return *pos_; }

    // A move of either side, legal here; the refused moves were this
    // position's, so they go.
    void play(Move m);
    // The last move taken back (HTP's `play undo`); the ply must be > 0.
    void undo();

    // Our move that the host refused here: never offered again in this
    // position, and not searched.
    void refuse(Move m);
    bool refused(Move m) const;
    bool any_refused() const { return !refused_.empty(); }
    const std::vector<Move>& refused_moves() const { return refused_; }
    // The host moved on without a move we know of (its board follows).
    void clear_refused() { refused_.clear(); }

    // The legal moves the host has not refused, and whether there is one.
    std::vector<Move> searchable() const;
    bool has_searchable() const;
    // `limits` searching only those when some were refused (all when
    // every move was).
    void restrict(SearchLimits& limits) const;
    // The move to send for the search's `best`: it when searchable, else
    // the first searchable; MOVE_NONE when nothing is.
    Move pick(Move best) const;

    // Hands the engine the game, history and all.
    Status give_to(Engine& engine) const;

  private:
    std::optional<Position> pos_;
    std::vector<Move> refused_;
};

// What a host knows of the clock when it asks for a move, in one form.
struct HostClock {
    // Each side's time left (index Side) and increment; no clock when
    // `timed` is false.
    bool timed = false;
    int64_t left_ms[2] = {0, 0};
    int64_t inc_ms[2] = {0, 0};
    // Kept back from each side's time for the network and the host.
    int64_t margin_ms = 0;
    // Our clock runs for this many games while we think on one (the bot's
    // games waiting behind this one): ours is split among them.
    int sharing = 1;
    // A hard limit on this move with nothing carried over (the Bologna
    // server's time per move), 0 = none: a budget, whatever the clock.
    int64_t move_limit_ms = 0;
    // Without a clock or a limit: this long a move, used whole (`movetime`)
    // or as a budget that a forced or stable move may stop early.
    int64_t untimed_ms = 0;
    bool untimed_is_budget = false;
    // OpenTafl's overtime after the main time: periods of one length; once
    // the main time is spent each move gets a fresh period, time not used
    // in it is lost, and a move that overruns it loses the period (the game
    // with the last). A side inside a period has what is left of it in
    // `left_ms`. Such a clock is planned as a budget per move that leaves
    // room for the periods (the time manager's plan knows none).
    struct Overtime {
        int64_t period_ms = 0;
        int periods[2] = {0, 0}; // periods left, index Side
        bool in_period[2] = {false, false};
    };
    std::optional<Overtime> overtime;
};

// The limits of our next move, side `us`: the clock's, with a fixed depth
// or node count when given (the clock's limits still apply to them; an
// untimed game with either gets no time limit). With overtime periods:
// - inside a period: what is left of it, less its margin, used whole (time
//   not used is lost);
// - main time: a budget aimed at a share of it (1/MOVES_TO_GO_GUESS, plus
//   3/4 of the increment) and, when periods follow, one period less its
//   margin, since every move gets a period once the main time is spent; at
//   most twice that aim, and never more than 3/4 of the main time plus the
//   period.
SearchLimits plan_host_limits(const HostClock& clock, Side us, int depth = 0, uint64_t nodes = 0);

} // namespace branan
