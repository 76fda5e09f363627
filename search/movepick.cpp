#include "movepick.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace branan::inline BRANAN_BOARD_NS {

namespace {

// The main search's move scores, highest first: set by hand in the first
// search (4d8de56); king moves went right after the captures in 7e09dba (the
// win-in-N suite: the same results with fewer nodes). A king move and a
// quiet move add their history (|history| <= HISTORY_GRAVITY < SCORE_KILLER).
constexpr int SCORE_CAPTURE = 1 << 24;
constexpr int SCORE_CAPTURE_TWO = 1 << 20; // more: a move that captures two or more
constexpr int SCORE_KING_MOVE = 1 << 22;
constexpr int SCORE_KILLER = 1 << 19; // the newer killer one more

// The main search picks its first moves one at a time (a cut usually comes
// early) and sorts the rest at once when it gets to them (af5a7c0; the
// packed-key sort of 5bb189c gives the same order as the insertion sort it
// replaced).
constexpr int PICKED_ONE_BY_ONE = 3;

// The first slice of the sorted moves; each next one is twice as long.
constexpr int FIRST_SLICE = 8;

} // namespace

inline int MovePicker::quiet_score(Move m, bool king) const {
    if (king) return SCORE_KING_MOVE + history_[hist_index(m)];
    if (m == killers_[0]) return SCORE_KILLER + 1;
    if (m == killers_[1]) return SCORE_KILLER;
    return history_[hist_index(m)];
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const Move* killers,
                       const int16_t* history)
    : pos_(pos), kind_(PickKind::MAIN), stage_(Stage::TT_MOVE), tt_move_(tt_move),
      killers_(killers), history_(history) {}

MovePicker::MovePicker(const Position& pos, PickKind kind, Bitboard block)
    : pos_(pos), kind_(kind), stage_(Stage::GENERATE), block_(block) {}

Move MovePicker::generate(bool& quiet) {
    if (stage_ == Stage::TT_MOVE) {
        stage_ = Stage::GENERATE;
        // The entry may be another position's or torn: play its move only
        // if it is legal here. Whether it captures is read from the move
        // itself, as no capture map is made before the others are generated.
        if (tt_move_) {
            if (is_legal(pos_, tt_move_)) {
                tt_move_legal_ = true;
                quiet = pos_.edition().special_moves
                            ? !berserk::move_captures(pos_, tt_move_)
                            : tafl::move_effect(pos_, tt_move_).captures == 0;
                return tt_move_;
            }
        }
    }
    list_.emplace();
    if (kind_ == PickKind::MAIN) {
        generate_main();
        sort_from_ = PICKED_ONE_BY_ONE;
    } else {
        generate_quiescence();
    }
    stage_ = Stage::SELECT;
    return next(quiet);
}

// The moves in generate_moves' order (the order of equal scores), scored as
// they are found rather than listed first and read again.
void MovePicker::generate_main() {
    if (pos_.edition().special_moves) return generate_special();
    const bool king_hammer = pos_.edition().king_hammer;
    const tafl::CaptureMap cap = tafl::capture_squares(pos_, pos_.side_to_move());
    const Move tt = tt_move_legal_ ? tt_move_ : MOVE_NONE;
    int n = 0;
    for_each_legal_move(pos_, [&](Move m, Piece p) {
        if (m == tt) return;
        const bool king = p == KING;
        const bool capture = (!king || king_hammer) && test(cap.one, m.to());
        const int s = capture ? SCORE_CAPTURE + test(cap.two, m.to()) * SCORE_CAPTURE_TWO
                              : quiet_score(m, king);
        list_->moves[n] = m;
        quiet_[n] = !capture;
        scores_[n++] = s;
    });
    count_ = n;
}

// Each key packs the score (order-preserving as unsigned) above the
// move's place counted down from MAX_MOVES, so the keys are distinct, an
// unstable sort of them gives the stable order, and any partial ordering
// that ends sorted gives the same order as one full sort (af5a7c0, 5bb189c).
void MovePicker::start_sorted() {
    for (int i = sort_from_; i < count_; ++i)
        keys_[i] = (uint64_t(uint32_t(scores_[i]) ^ 0x80000000u) << 32) |
                   uint32_t(MAX_MOVES - (i - sort_from_));
    sorted_to_ = sort_from_;
    slice_ = FIRST_SLICE;
}

void MovePicker::sort_more() {
    uint64_t* const from = keys_ + sorted_to_;
    uint64_t* const end = keys_ + count_;
    uint64_t* const to = end - from > slice_ ? from + slice_ : end;
    if (to != end) std::nth_element(from, to, end, std::greater<uint64_t>());
    std::sort(from, to, std::greater<uint64_t>());
    sorted_to_ = int(to - keys_);
    slice_ *= 2;
}

// With special moves (engine/berserk.h) the capture maps do not hold:
// whether a move captures is asked of each move.
void MovePicker::generate_special() {
    const Move tt = tt_move_legal_ ? tt_move_ : MOVE_NONE;
    const bool main = kind_ == PickKind::MAIN;
    int n = 0;
    for_each_legal_move(pos_, [&](Move m, Piece p) {
        if (m == tt) return;
        const bool capture = berserk::move_captures(pos_, m);
        if (!main && !capture) return;
        const int s = capture ? SCORE_CAPTURE : quiet_score(m, p == KING);
        list_->moves[n] = m;
        quiet_[n] = !capture;
        scores_[n++] = s;
    });
    count_ = n;
}

void MovePicker::generate_quiescence() {
    if (pos_.edition().special_moves) return generate_special();
    const Side us = pos_.side_to_move();
    int n = 0;
    auto add = [&](Move m, int score, bool quiet) {
        list_->moves[n] = m;
        quiet_[n] = quiet;
        scores_[n++] = score;
    };
    switch (kind_) {
    case PickKind::CAPTURES: {
        const tafl::CaptureMap cap = tafl::capture_squares(pos_, us);
        for_each_square(cap.one, [&](Square t) {
            const int score = 1 + test(cap.two, t);
            tafl::for_each_move_to(pos_, t, us, [&](Move m) {
                if (is_capture(pos_, cap, m)) add(m, score, false);
            });
        });
        break;
    }
    case PickKind::BLOCKS: {
        const tafl::CaptureMap cap = tafl::capture_squares(pos_, us);
        for_each_square(block_, [&](Square t) {
            tafl::for_each_move_to(pos_, t, us,
                                   [&](Move m) { add(m, 0, !is_capture(pos_, cap, m)); });
        });
        break;
    }
    case PickKind::EVASIONS: {
        generate_moves(pos_, *list_);
        const tafl::CaptureMap cap = tafl::capture_squares(pos_, us);
        for (Move m : *list_) {
            const bool capture = is_capture(pos_, cap, m);
            add(m, capture * 4 + (pos_.piece_on(m.from()) == KING), !capture);
        }
        break;
    }
    case PickKind::MAIN:
        break;
    }
    count_ = n;
}

} // namespace branan::inline BRANAN_BOARD_NS
