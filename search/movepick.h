#pragma once

// Move ordering: one MovePicker per node gives the moves to search, best
// first, each with whether it is quiet (captures nothing). The search and
// the quiescence search both take their moves from it.
//
// The order is part of the bench signature: a change of order is a change
// of the search, to be proven like one.

#include <cstdint>
#include <optional>

#include "history.h"
#include "movegen.h"
#include "tafl.h"

namespace branan {

// Whether move m of the side whose capture map is `cap` captures: it lands
// on a capturing square, and it is not the king's unless he captures too
// (a hammer).
inline bool is_capture(const Position& pos, const tafl::CaptureMap& cap, Move m) {
    return test(cap.one, m.to()) && (pos.piece_on(m.from()) != KING || pos.variant().king_hammer);
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
    Move next(bool& quiet) {
        // Most moves of the main search come after the sort: inline.
        if (stage_ == Stage::SORTED) {
            if (next_ == count_) return MOVE_NONE;
            quiet = quiet_[next_];
            return list_->moves[next_++];
        }
        return next_by_stage(quiet);
    }

  private:
    enum class Stage : uint8_t { TT_MOVE, GENERATE, PICK, SORTED };

    Move next_by_stage(bool& quiet);
    void generate_main();
    void generate_quiescence();
    Move pick_main(bool& quiet);
    Move pick_quiescence(bool& quiet);

    const Position& pos_;
    const PickKind kind_;
    Stage stage_;
    bool tt_move_legal_ = false;
    Move tt_move_;
    const Move* killers_ = nullptr;
    const int16_t* history_ = nullptr;
    Bitboard block_ = 0;
    int count_ = 0, next_ = 0;
    // Made when the moves are generated, not before: a list is cleared as
    // it is made, and a cut by the table move needs none.
    std::optional<MoveList> list_;
    int scores_[MAX_MOVES];
    bool quiet_[MAX_MOVES];
};

} // namespace branan
