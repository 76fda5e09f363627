#pragma once

// Move ordering: one MovePicker per node gives the moves to search, best
// first, each with whether it is quiet (captures nothing). The search and
// the quiescence search both take their moves from it.
//
// The order is part of the bench signature: a change of order is a change
// of the search, to be proven like one.

#include <cstdint>
#include <optional>
#include <utility>

#include "history.h"
#include "movegen.h"
#include "tafl.h"

namespace branan::inline BRANAN_BOARD_NS {

// A move's slot in History::butterfly, with this width's stride.
inline int hist_index(Move m) {
    return m.from() * MAX_SQUARES + m.to();
}

// Whether move m of the side whose capture map is `cap` captures: it lands
// on a capturing square, and it is not the king's unless he captures too
// (a hammer).
inline bool is_capture(const Position& pos, const tafl::CaptureMap& cap, Move m) {
    return test(cap.one, m.to()) && (pos.piece_on(m.from()) != KING || pos.edition().king_hammer);
}

// What a node searches.
enum class PickKind : uint8_t {
    // The main search: every move. The table move (when legal) first, before
    // the others are generated; then captures (two at once before one), king
    // moves, the two killers, and the rest by history.
    MAIN,
    // Quiescence, no threat: the captures, two at once before one.
    CAPTURES,
    // Quiescence, the attackers facing an escape: the moves onto the squares
    // that block it, in generation order.
    BLOCKS,
    // Quiescence, the defenders facing a king capture: every move, captures
    // first, then king moves.
    EVASIONS,
};

class MovePicker {
  public:
    // The main search's picker. killers (two) and history (the side to
    // move's butterfly table) are read when the moves are generated, after
    // the table move has been searched.
    MovePicker(const Position& pos, Move tt_move, const Move* killers, const int16_t* history);
    // A quiescence picker (CAPTURES, BLOCKS, EVASIONS); `block` is the
    // squares that block the escape (BLOCKS only).
    MovePicker(const Position& pos, PickKind kind, Bitboard block = 0);
    MovePicker(const MovePicker&) = delete;
    MovePicker& operator=(const MovePicker&) = delete;

    // The next move and whether it is quiet; MOVE_NONE when none is left.
    // Inline: it runs for every move searched.
    Move next(bool& quiet) {
        if (stage_ < Stage::SELECT) return generate(quiet);
        if (next_ == count_) return MOVE_NONE;
        if (stage_ == Stage::SELECT) {
            if (next_ == sort_from_) {
                start_sorted();
                stage_ = Stage::SORTED;
            } else {
                select_best();
            }
        }
        if (stage_ == Stage::SORTED) {
            if (next_ == sorted_to_) sort_more();
            const int i = sort_from_ + (MAX_MOVES - int(uint32_t(keys_[next_++])));
            quiet = quiet_[i];
            return list_->moves[i];
        }
        quiet = quiet_[next_];
        return list_->moves[next_++];
    }

    // Whether every move still to come is quiet: the main search's moves
    // after the table move come captures first, so once one of them was
    // quiet, the rest are.
    bool quiet_from_here(bool last_quiet) const {
        return kind_ == PickKind::MAIN && stage_ >= Stage::SELECT && last_quiet;
    }

  private:
    // TT_MOVE and GENERATE come once; then the moves are picked one at a
    // time (SELECT) until sort_from_, and the rest taken in their sorted
    // order (SORTED).
    enum class Stage : uint8_t { TT_MOVE, GENERATE, SELECT, SORTED };

    // The table move, or the generation and the first pick.
    Move generate(bool& quiet);
    // A quiet move's score: the king's moves first, then the killers, then
    // the history.
    int quiet_score(Move m, bool king) const;
    void generate_special();
    void generate_main();
    void generate_quiescence();
    // The moves from sort_from_ on come in the order of a stable sort by
    // score, best first. Their keys (see sort keys in movepick.cpp) are made
    // at once and put in order a slice at a time, as a cut usually comes
    // before the last moves are wanted.
    void start_sorted();
    void sort_more();

    // Brings the best of the moves left to next_: the first of equal bests,
    // swapped with the move at next_ (which so moves back: the order of the
    // rest is not kept).
    void select_best() {
        int best = next_;
        for (int j = next_ + 1; j < count_; ++j)
            if (scores_[j] > scores_[best]) best = j;
        std::swap(list_->moves[next_], list_->moves[best]);
        std::swap(scores_[next_], scores_[best]);
        std::swap(quiet_[next_], quiet_[best]);
    }

    const Position& pos_;
    const PickKind kind_;
    Stage stage_;
    bool tt_move_legal_ = false;
    Move tt_move_;
    const Move* killers_ = nullptr;
    const int16_t* history_ = nullptr;
    Bitboard block_ = 0;
    int count_ = 0, next_ = 0;
    int sort_from_ = -1; // never, unless the main search's picker sets it
    int sorted_to_ = 0;  // keys_[sort_from_, sorted_to_) are in their final order
    int slice_ = 0;      // the next slice to order
    // Made when the moves are generated, not before: a list is cleared as
    // it is made, and a cut by the table move needs none.
    std::optional<MoveList> list_;
    int scores_[MAX_MOVES];
    bool quiet_[MAX_MOVES];
    uint64_t keys_[MAX_MOVES];
};

} // namespace branan::inline BRANAN_BOARD_NS
