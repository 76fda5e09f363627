#pragma once

// Win chances: what a score means for the result, per edition. The
// evaluation's scale (centi-soldiers, the tuner's) is not one a player can
// read: from the start of Copenhagen it says about -8 for the attackers,
// though nothing has been taken. A model fitted on Branan's own self-play
// games (branan-tune wdl, docs/win-chances.md) turns a search score into
// the chances of a win, a draw and a loss for the side to move, and into a
// calibrated score: 0 an even game, +100 an expected score of 75 %.
//
// The model, in the attackers' view (s: the raw score turned to the
// attackers' side; a, d: the shares of the attackers' and the defenders'
// pieces still on the board; t: the share of all pieces; p: the share of
// the rules' ply limit played, 0 without one; h: ln(depth / 10), the depth
// the score was searched to, 0 where it is not known):
//   u = s - (offset[0] + offset[1] a + offset[2] d + offset[3] p + tempo [defenders to move]
//            + depth[0] h + depth[3] h^2)        the evaluation's bias removed
//   m = exp(margin[0] + margin[1] t + margin[2] p + depth[1] h + depth[4] h^2)
//                                                      how wide the draws are (0: none)
//   w = exp(spread[0] + spread[1] t + spread[2] p + depth[2] h + depth[5] h^2)
//                                                      how fast a score decides
//   v = w exp(skew[0] + skew[1] p)                     the same for the defenders' wins
//   P(attackers win) = sigmoid((u - m) / w), P(defenders win) = sigmoid((-u - m) / v)
// and P(draw) the rest: Stockfish's WDL model, with the bias that tafl's
// unequal armies give an evaluation, and (with draws) an advantage that
// converts at another rate for each side. Where a ply limit draws the
// game, the bias, the draws and the spread move as it nears, and (rows
// with stalls) a share of the games each side would win is drawn all the
// same, however far ahead it is, because the limit comes before the king
// is taken or gets out:
//   P(attackers win) *= 1 - sigmoid(stall[0] + stall[1] p)
//   P(defenders win) *= 1 - sigmoid(stall[2] + stall[3] p)
// A deeper search's score is another reading of the same position: its
// bias, its draws and its spread move with the depth.
//
// The calibrated score is the expected score E of the side to move on a
// logistic scale: 100 log(E / (1 - E)) / log 3, so 0 is an even game, +100
// is 75 %, +200 90 % and -100 25 %, whatever the edition.
// The side to move's chances are the same position's read from its side,
// so they are symmetric in the side to move by construction.

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "rules.h"
#include "value.h"

namespace branan {

struct WinModel {
    std::array<double, 4> offset{}; // centi-soldiers
    bool draws = false;             // false: margin unused, no draws predicted
    std::array<double, 3> margin{};
    std::array<double, 3> spread{};
    std::array<double, 2> skew{}; // with draws only
    // More bias where the defenders are to move: an evaluation whose two
    // sides to move are read on scales of their own (a net's buckets).
    double tempo = 0;
    // Per unit of h = ln(depth / WIN_MODEL_DEPTH), then of h^2: the bias,
    // ln of the draws' width, ln of the spread (all 0: every depth read
    // alike).
    std::array<double, 6> depth{};
    // The depths the fit saw (its first and last percentile): a score of a
    // depth outside (or of unknown depth, WIN_MODEL_DEPTH, outside) is read
    // at the nearest, not at a curve's extrapolation (0, 0: any depth).
    std::array<int, 2> depth_range{};
    // With draws only: the log-odds of a won game drawn all the same, for
    // the attackers' wins (stall[0] + stall[1] p) and the defenders'
    // (stall[2] + stall[3] p).
    bool stalls = false;
    std::array<double, 4> stall{};
};

// The depth whose scores the model reads without its depth terms; a score
// of unknown depth is read as one of this depth.
constexpr int WIN_MODEL_DEPTH = 10;
// h of the model for a score of `depth`: ln(depth / WIN_MODEL_DEPTH), an
// unknown depth (<= 0) read as WIN_MODEL_DEPTH, and the depth brought
// within `range` (a model's depth_range; {0, 0}: any depth).
double depth_term(int depth, const std::array<int, 2>& range);

// Per mille, for the side to move; they sum to 1000.
struct WinChances {
    int win = 0, draw = 0, loss = 0;
    bool operator==(const WinChances&) const = default;
};

// Where a game stands: pieces on the board and at the start, per side (the
// king a defender), the plies played against the rules' ply limit, and
// the side to move.
struct GameStage {
    int attackers = 0, defenders = 0;
    int attackers_start = 0, defenders_start = 0;
    int ply = 0, ply_limit = 0; // ply_limit 0: none
    Side to_move = ATTACKERS;
};

// The shares the model reads: a, d, t and p above.
struct StageShares {
    double attackers = 1, defenders = 1, all = 1, ply = 0;
};
StageShares stage_shares(const GameStage& stage);

// The model at one stage: everything a score's reading needs.
class WinCurve {
  public:
    WinCurve() = default; // an even reading: no bias, no draws, a fixed spread
    // At WIN_MODEL_DEPTH (the nearest depth the fit saw, where it saw
    // none that deep).
    WinCurve(const WinModel& model, const GameStage& stage);
    // The same stage read for a score searched to `depth` (<= 0: unknown,
    // read as the constructor's).
    WinCurve at_depth(int depth) const;

    // Probabilities for the attackers (win, draw, loss) at a raw score in
    // the attackers' view.
    struct Probabilities {
        double win = 0, draw = 0, loss = 0;
    };
    Probabilities attackers(double raw_attackers) const;

    // For the side to move, at its raw score.
    WinChances chances(Value raw, Side stm) const;
    // The calibrated score of the side to move (above): 0 even, +100 an
    // expected score (win + draw / 2) of 75 %.
    Value calibrated(Value raw, Side stm) const;
    // The expected score of the side to move, 0..1.
    double expected(Value raw, Side stm) const;

    // Whether the model predicts draws at all.
    bool draws() const { return margin_ > 0; }
    // The share of the games `winner` would win that the ply limit draws
    // (0 without stalls): its win chance never passes 1 minus it.
    double stalled(Side winner) const {
        return winner == ATTACKERS ? stall_attackers_ : stall_defenders_;
    }
    // The raw score (attackers' view) of an even game.
    double even() const { return even_; }

  private:
    double attackers_view(Value raw, Side stm) const {
        return stm == ATTACKERS ? double(raw) : -double(raw);
    }
    // Sets the readings below at ln(depth / WIN_MODEL_DEPTH) = h.
    void settle(double h);
    // The stage's terms before the depth's.
    double base_offset_ = 0, base_log_margin_ = 0, base_log_spread_ = std::log(100.0);
    double log_skew_ = 0;
    bool draws_ = false;
    std::array<double, 6> depth_{};
    std::array<int, 2> depth_range_{};
    double stall_attackers_ = 0, stall_defenders_ = 0;

    double offset_ = 0, margin_ = 0, spread_ = 100, defender_spread_ = 100;
    double even_ = 0;
};

// The fitted model of an edition: its preset's when the rules are a preset
// with a fit of its own, else the one of its evaluation weight set's
// reference edition (win_chance.cpp says which). `net`: the hash of the
// net that evaluates (0: the hand-made evaluation); a compiled-in net has a
// fit of its own, any other net is read with the hand-made one's.
const WinModel& win_model_for(const Rules& rules, uint64_t net = 0);
// The name of the edition whose fit win_model_for returns (for the docs and
// `branan-tune wdl`), with " (its net)" for a net's fit.
std::string win_model_source(const Rules& rules, uint64_t net = 0);

// The expected score a calibrated +100 stands for.
constexpr double CALIBRATED_UNIT_SCORE = 0.75;

} // namespace branan
