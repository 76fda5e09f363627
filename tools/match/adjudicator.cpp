#include "adjudicator.h"

namespace branan::match {

std::optional<Verdict> Adjudicator::at_ply(int plies) const {
    if (max_plies_ > 0 && plies >= max_plies_)
        return Verdict{Winner::DRAW, "max-plies",
                       "adjudicated a draw after " + std::to_string(plies) + " plies"};
    return std::nullopt;
}

std::optional<Verdict> Adjudicator::after_move(Side us, std::optional<int> score_cp,
                                               const Position& pos) {
    if (resign_.movecount <= 0) return std::nullopt;
    const int cp = resign_.score_cp;
    win_streak_[us] = score_cp && *score_cp >= cp ? win_streak_[us] + 1 : 0;
    loss_streak_[us] = score_cp && *score_cp <= -cp ? loss_streak_[us] + 1 : 0;
    for (Side s : {ATTACKERS, DEFENDERS})
        if (win_streak_[s] >= resign_.movecount && loss_streak_[~s] >= resign_.movecount &&
            !pos.result().over())
            return Verdict{s == ATTACKERS ? Winner::ATTACKERS : Winner::DEFENDERS, "adjudication",
                           "adjudicated: both engines agreed for " +
                               std::to_string(resign_.movecount) + " moves that the " +
                               (s == ATTACKERS ? "attackers" : "defenders") + " win"};
    return std::nullopt;
}

} // namespace branan::match
