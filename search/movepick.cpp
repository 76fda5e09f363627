#include "movepick.h"

#include <bit>

namespace branan::inline BRANAN_BOARD_NS {

namespace {

// The main search's move order, highest first: set by hand in the first
// search (4d8de56) as scores (captures 1 << 24, plus 1 << 20 for two or
// more; king moves 1 << 22 plus their history; the killers 1 << 19, the
// newer one more; the rest their history, |history| <= HISTORY_GRAVITY);
// king moves went right after the captures in 7e09dba (the win-in-N suite:
// the same results with fewer nodes). Here the same order as ranks: a class
// above the history read as unsigned 16 bits.
constexpr int32_t CLASS_SHIFT = 16;
constexpr int32_t RANK_CAPTURE = 4 << CLASS_SHIFT; // plus 1 << CLASS_SHIFT for two or more
constexpr int32_t RANK_KING_MOVE = 3 << CLASS_SHIFT;
constexpr int32_t RANK_KILLER = 1 << CLASS_SHIFT; // the newer killer twice that
static_assert(RANK_CAPTURE + (1 << CLASS_SHIFT) + 0xFFFF < (1 << 19));
constexpr int32_t history_rank(int16_t h) {
    return int32_t(uint16_t(h) ^ 0x8000u);
}

// The main search picks its first moves by swaps, as the first search
// sorted them (a cut usually comes early), and takes the rest where they
// stand (af5a7c0; the packed keys of 5bb189c, in 32 bits, give the same
// order as the insertion sort they replaced).
constexpr int PICKED_ONE_BY_ONE = 3;

} // namespace

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
                quiet = tafl::move_effect(pos_, tt_move_).captures == 0;
                return tt_move_;
            }
        }
    }
    if (kind_ == PickKind::MAIN) {
        generate_main();
        sort_from_ = PICKED_ONE_BY_ONE;
    } else {
        generate_quiescence();
    }
    close_keys();
    stage_ = Stage::PICK;
    return next(quiet);
}

// The moves in generate_moves' order (the order of equals), ranked as they
// are found. A piece with no capture on its lines, neither king nor the
// table move's or a killer's piece, has only quiet moves ranked by history:
// those are listed without a test per move.
void MovePicker::generate_main() {
    const Position& pos = pos_;
    const Edition& v = pos.edition();
    const bool king_hammer = v.king_hammer;
    const tafl::CaptureMap cap = tafl::capture_squares(pos, pos.side_to_move());
    const Move tt = tt_move_legal_ ? tt_move_ : MOVE_NONE;
    const Move k0 = killers_[0], k1 = killers_[1];
    auto add_ranked = [&](Move m, Piece p) {
        if (m == tt) return;
        const bool king = p == KING;
        const bool capture = (!king || king_hammer) && test(cap.one, m.to());
        int32_t r;
        if (capture)
            r = RANK_CAPTURE + (int32_t(test(cap.two, m.to())) << CLASS_SHIFT);
        else if (king)
            r = RANK_KING_MOVE + history_rank(history_[hist_index(m)]);
        else if (m == k0)
            r = 2 * RANK_KILLER;
        else if (m == k1)
            r = RANK_KILLER;
        else
            r = history_rank(history_[hist_index(m)]);
        add(m, r, !capture);
    };
    if (pos.ban_applies()) {
        for_each_legal_move(pos, add_ranked);
        return;
    }
    if (pos.decided().over()) return;
    LineBits cap_lines[LINES];
    if (cap.one)
        v.lines_of(cap.one, cap_lines);
    else
        for (LineBits& l : cap_lines) l = 0;
    const Square tt_from = tt.from(), k0_from = k0.from(), k1_from = k1.from();
    int32_t* const keys = keys_;
    Move* const moves = moves_;
    for_each_piece_targets(pos, pos.side_to_move(), [&](Square from, Piece p, LineTargets t) {
        const int file = v.file[from], rank = v.rank[from], rank_base = from - file;
        if (p == KING || from == tt_from || from == k0_from || from == k1_from ||
            (t.rank_bits & cap_lines[rank_line(rank)]) ||
            (t.file_bits & cap_lines[file_line(file)])) {
            for (unsigned bits = t.rank_bits; bits; bits &= bits - 1)
                add_ranked(Move(from, rank_base + std::countr_zero(bits)), p);
            for (unsigned bits = t.file_bits; bits; bits &= bits - 1)
                add_ranked(Move(from, std::countr_zero(bits) * v.size + file), p);
            return;
        }
        const int16_t* const h = history_ + from * MAX_SQUARES;
        int n = count_;
        for (unsigned bits = t.rank_bits; bits; bits &= bits - 1) {
            const Square to = rank_base + std::countr_zero(bits);
            moves[n] = Move(from, to);
            keys[n] = make_key(history_rank(h[to]), n, true);
            ++n;
        }
        for (unsigned bits = t.file_bits; bits; bits &= bits - 1) {
            const Square to = std::countr_zero(bits) * v.size + file;
            moves[n] = Move(from, to);
            keys[n] = make_key(history_rank(h[to]), n, true);
            ++n;
        }
        count_ = n;
    });
}

void MovePicker::generate_quiescence() {
    const Side us = pos_.side_to_move();
    switch (kind_) {
    case PickKind::CAPTURES: {
        const tafl::CaptureMap cap = tafl::capture_squares(pos_, us);
        for_each_square(cap.one, [&](Square t) {
            const int32_t rank = 1 + test(cap.two, t);
            tafl::for_each_move_to(pos_, t, us, [&](Move m) {
                if (is_capture(pos_, cap, m)) add(m, rank, false);
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
        const tafl::CaptureMap cap = tafl::capture_squares(pos_, us);
        for_each_legal_move(pos_, [&](Move m, Piece p) {
            const bool capture = is_capture(pos_, cap, m);
            add(m, capture * 4 + (p == KING), !capture);
        });
        break;
    }
    case PickKind::MAIN:
        break;
    }
}

} // namespace branan::inline BRANAN_BOARD_NS
