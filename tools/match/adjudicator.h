#pragma once

// The referee's judgements beside the rules (cutechess's GameAdjudicator):
// a draw at the ply limit, and a win both engines agree on by their scores
// for some moves in a row.

#include <optional>
#include <string>

#include "position.h"

namespace branan::match {

struct ResignRule {
    int movecount = 0; // 0: off
    int score_cp = 0;
};

// A game ended by adjudication: who won, the short reason, a sentence.
struct Verdict {
    Winner winner = Winner::NONE;
    std::string reason;
    std::string detail;
};

class Adjudicator {
  public:
    // max_plies 0: no limit (plies played by the engines, the opening excluded).
    Adjudicator(int max_plies, ResignRule resign) : max_plies_(max_plies), resign_(resign) {}

    // Before a move, `plies` played: a draw once the limit is reached.
    std::optional<Verdict> at_ply(int plies) const;
    // After side `us` moved, saying `score_cp` (from its side): a win once
    // the winner's engine has said it wins and the loser's that it loses,
    // each for the rule's number of moves in a row. `pos` is the game after
    // the move; a game the rules ended is not adjudicated.
    std::optional<Verdict> after_move(Side us, std::optional<int> score_cp, const Position& pos);

  private:
    int max_plies_;
    ResignRule resign_;
    int win_streak_[2] = {0, 0};
    int loss_streak_[2] = {0, 0};
};

} // namespace branan::match
