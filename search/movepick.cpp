#include "movepick.h"

#include <algorithm>
#include <bit>
#include <cassert>

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {

// The main search's move order, highest first: set by hand as scores when
// the search was first written (captures 1 << 24, plus 1 << 20 for two or
// more; king moves 1 << 22 plus their history; the killers 1 << 19, the
// newer one more; the rest their history, |history| <= HISTORY_GRAVITY);
// king moves come right after the captures: so ordered, the win-in-N suite
// gave the same results with fewer nodes. Here the same order as ranks: a
// class above the history read as unsigned 16 bits.
constexpr int32_t CLASS_SHIFT = 16;
constexpr int32_t RANK_CAPTURE = 4 << CLASS_SHIFT; // plus 1 << CLASS_SHIFT for two or more
constexpr int32_t RANK_KING_MOVE = 3 << CLASS_SHIFT;
constexpr int32_t RANK_KILLER = 1 << CLASS_SHIFT; // the newer killer twice that
static_assert(RANK_CAPTURE + (1 << CLASS_SHIFT) + 0xFFFF < (1 << 19));
constexpr int32_t history_rank(int16_t h) {
    return int32_t(uint16_t(h) ^ 0x8000u);
}

// A move's place in the order of the full list (generate_moves' order):
// the soldiers from square a1 up, then the king; each piece's moves along
// its rank, then along its file, each line from its first square up.
int32_t gen_place(const Edition& edition, Square from, Square to, bool king) {
    const int32_t piece = king ? MAX_SQUARES : from;
    const int32_t in_piece =
        edition.rank[from] == edition.rank[to] ? edition.file[to] : 32 + edition.rank[to];
    return piece << 6 | in_piece;
}
static_assert(MAX_SIZE <= 32);

} // namespace

inline int32_t MovePicker::quiet_rank(Move m, bool king) const {
    if (king) return RANK_KING_MOVE + history_rank(history_[hist_index(m)]);
    if (m == killers_[0]) return 2 * RANK_KILLER;
    if (m == killers_[1]) return RANK_KILLER;
    return history_rank(history_[hist_index(m)]);
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const Move* killers,
                       const int16_t* history, bool staged)
    : pos_(pos), kind_(PickKind::MAIN), stage_(Stage::TT_MOVE), tt_move_(tt_move),
      killers_(killers), history_(history), staged_ready_(!staged), sort_from_(PICKED_ONE_BY_ONE) {}

MovePicker::MovePicker(const Position& pos, PickKind kind, Bitboard block)
    : pos_(pos), kind_(kind), stage_(Stage::GENERATE), block_(block) {}

Move MovePicker::generate(bool& quiet) {
    if (stage_ == Stage::TT_MOVE) {
        stage_ = kind_ == PickKind::MAIN ? Stage::STAGED : Stage::GENERATE;
        // The entry may be another position's or torn: play its move only
        // if it is legal here. Whether it captures is read from the move
        // itself, as no capture map is made before the others are generated.
        if (tt_move_) {
            if (is_legal(pos_, tt_move_)) {
                tt_move_legal_ = true;
                tt_last_ = true;
                quiet = pos_.edition().special_moves
                            ? !berserk::move_captures(pos_, tt_move_)
                            : tactics::move_effect(pos_, tt_move_).captures == 0;
                return tt_move_;
            }
        }
    }
    tt_last_ = false;
    if (stage_ == Stage::STAGED) {
        if (staged_ready_ ? nstaged_ > 0 : start_staged()) {
            if (const Move m = staged_next(quiet)) return m;
        }
        generate_rest();
    } else {
        if (kind_ == PickKind::MAIN)
            generate_main();
        else
            generate_quiescence();
        close_keys();
    }
    stage_ = Stage::PICK;
    return next(quiet);
}

bool MovePicker::start_staged() {
    staged_ready_ = true;
    const Position& pos = pos_;
    // The search stages no node with special moves (engine/berserk.h): the
    // capture maps do not hold there.
    assert(!pos.edition().special_moves);
    if (pos.ban_applies() || pos.decided().over()) return false;
    const Edition& edition = pos.edition();
    const Side us = pos.side_to_move();
    cap_ = tactics::capture_squares(pos, us);
    cap_ready_ = true;
    const Move tt = tt_move_legal_ ? tt_move_ : MOVE_NONE;
    int n = 0;
    bool full = false;
    auto add_staged = [&](Move m, int32_t rank, int32_t place, bool quiet) {
        if (n == MAX_STAGED) {
            full = true;
            return;
        }
        staged_[n++] = {m.raw(), rank, place, quiet};
    };
    // Captures (by the king only if he is armed).
    for_each_square(cap_.one, [&](Square t) {
        const int32_t rank = RANK_CAPTURE + (int32_t(test(cap_.two, t)) << CLASS_SHIFT);
        tactics::for_each_move_to(pos, t, us, [&](Move m) {
            const bool king = pos.piece_on(m.from()) == KING;
            if ((king && !edition.king_hammer) || m == tt) return;
            add_staged(m, rank, gen_place(edition, m.from(), t, king), false);
        });
    });
    // King moves that capture nothing.
    const Square k = pos.king_square();
    if (us == DEFENDERS && k != NO_SQUARE) {
        const LineTargets lt = line_targets(pos, KING, k);
        const int file = edition.file[k];
        auto king_move = [&](Square to) {
            const Move m(k, to);
            if (m == tt || (edition.king_hammer && test(cap_.one, to))) return;
            add_staged(m, RANK_KING_MOVE + history_rank(history_[hist_index(m)]),
                       gen_place(edition, k, to, true), true);
        };
        for (unsigned bits = lt.rank_bits; bits; bits &= bits - 1)
            king_move(k - file + std::countr_zero(bits));
        for (unsigned bits = lt.file_bits; bits; bits &= bits - 1)
            king_move(std::countr_zero(bits) * edition.size + file);
    }
    // The killers that are legal, quiet soldiers' moves.
    for (int i = 0; i < 2; ++i) {
        const Move m = killers_[i];
        if (!m || m == tt || (i == 1 && m == killers_[0])) continue;
        if (!is_legal(pos, m) || pos.piece_on(m.from()) == KING || test(cap_.one, m.to())) continue;
        add_staged(m, i == 0 ? 2 * RANK_KILLER : RANK_KILLER,
                   gen_place(edition, m.from(), m.to(), false), true);
    }
    if (full || n == 0) return false;
    nstaged_ = n;
    // The places of the full list's first moves.
    int slots = 0;
    auto first_moves = [&](Square from, Piece p) {
        const LineTargets lt = line_targets(pos, p, from);
        const int file = edition.file[from];
        auto one = [&](Square to) {
            if (Move(from, to) != tt) slot_[slots++] = gen_place(edition, from, to, p == KING);
        };
        for (unsigned bits = lt.rank_bits; bits && slots < PICKED_ONE_BY_ONE; bits &= bits - 1)
            one(from - file + std::countr_zero(bits));
        for (unsigned bits = lt.file_bits; bits && slots < PICKED_ONE_BY_ONE; bits &= bits - 1)
            one(std::countr_zero(bits) * edition.size + file);
    };
    const Piece soldier = us == ATTACKERS ? ATTACKER : DEFENDER;
    for (Bitboard b = pos.pieces(soldier); b && slots < PICKED_ONE_BY_ONE;)
        first_moves(pop_lsb(b), soldier);
    if (slots < PICKED_ONE_BY_ONE && us == DEFENDERS && k != NO_SQUARE) first_moves(k, KING);
    return true;
}

int MovePicker::staged_best() const {
    int best = -1;
    int64_t best_key = -1;
    for (int i = 0; i < nstaged_; ++i) {
        // Higher rank first, then the earlier place.
        const int64_t key = int64_t(staged_[i].rank) << 20 | ((1 << 20) - 1 - staged_[i].place);
        if (key > best_key) best_key = key, best = i;
    }
    return best;
}

Move MovePicker::staged_next(bool& quiet) {
    const int b = staged_best();
    if (b < 0) return MOVE_NONE;
    const Staged pick = staged_[b];
    staged_[b] = staged_[--nstaged_];
    if (next_ < sort_from_) {
        // The swap of the full list's pick: the move at the place of slot
        // next_ takes the pick's place.
        for (int i = 0; i < nstaged_; ++i)
            if (staged_[i].place == slot_[next_]) staged_[i].place = pick.place;
    }
    picked_[next_++] = pick.move;
    quiet = pick.quiet;
    return Move::from_raw(pick.move);
}

void MovePicker::generate_rest() {
    const int picks = next_;
    next_ = 0;
    generate_main();
    close_keys();
    // The picks again, as next() made them.
    for (int r = 0; r < picks; ++r) {
        const Move m = Move::from_raw(picked_[r]);
        // Places before min(r, sort_from_) hold moves already taken.
        int i = std::min(r, sort_from_);
        while (i < count_ && moves_[i] != m) ++i;
        assert(i < count_);
        take(i, r);
    }
    next_ = picks;
    peeked_ = -1;
}

// The moves in generate_moves' order (the order of equals), ranked as they
// are found. A piece with no capture on its lines, neither king nor the
// table move's or a killer's piece, has only quiet moves ranked by history:
// those are listed without a test per move.
void MovePicker::generate_main() {
    if (pos_.edition().special_moves) return generate_special();
    const Position& pos = pos_;
    const Edition& edition = pos.edition();
    const bool king_hammer = edition.king_hammer;
    if (!cap_ready_) cap_ = tactics::capture_squares(pos, pos.side_to_move());
    const tactics::CaptureMap cap = cap_;
    const Move tt = tt_move_legal_ ? tt_move_ : MOVE_NONE;
    const Move k0 = killers_[0], k1 = killers_[1];
    auto add_ranked = [&](Move m, Piece p) {
        if (m == tt) return;
        const bool king = p == KING;
        const bool capture = (!king || king_hammer) && test(cap.one, m.to());
        add(m,
            capture ? RANK_CAPTURE + (int32_t(test(cap.two, m.to())) << CLASS_SHIFT)
                    : quiet_rank(m, king),
            !capture);
    };
    if (pos.ban_applies()) {
        for_each_legal_move(pos, add_ranked);
        return;
    }
    if (pos.decided().over()) return;
    LineBits cap_lines[LINES];
    if (cap.one)
        edition.lines_of(cap.one, cap_lines);
    else
        for (LineBits& l : cap_lines) l = 0;
    const Square tt_from = tt.from(), k0_from = k0.from(), k1_from = k1.from();
    int32_t* const keys = keys_;
    Move* const moves = moves_;
    for_each_piece_targets(pos, pos.side_to_move(), [&](Square from, Piece p, LineTargets t) {
        const int file = edition.file[from], rank = edition.rank[from], rank_base = from - file;
        if (p == KING || from == tt_from || from == k0_from || from == k1_from ||
            (t.rank_bits & cap_lines[rank_line(rank)]) ||
            (t.file_bits & cap_lines[file_line(file)])) {
            for (unsigned bits = t.rank_bits; bits; bits &= bits - 1)
                add_ranked(Move(from, rank_base + std::countr_zero(bits)), p);
            for (unsigned bits = t.file_bits; bits; bits &= bits - 1)
                add_ranked(Move(from, std::countr_zero(bits) * edition.size + file), p);
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
            const Square to = std::countr_zero(bits) * edition.size + file;
            moves[n] = Move(from, to);
            keys[n] = make_key(history_rank(h[to]), n, true);
            ++n;
        }
        count_ = n;
    });
}

// With special moves (engine/berserk.h) the capture maps do not hold:
// whether a move captures is asked of each move.
void MovePicker::generate_special() {
    const Move tt = tt_move_legal_ ? tt_move_ : MOVE_NONE;
    const bool main = kind_ == PickKind::MAIN;
    for_each_legal_move(pos_, [&](Move m, Piece p) {
        if (m == tt) return;
        const bool capture = berserk::move_captures(pos_, m);
        if (!main && !capture) return;
        add(m, capture ? RANK_CAPTURE : quiet_rank(m, p == KING), !capture);
    });
}

void MovePicker::generate_quiescence() {
    if (pos_.edition().special_moves) return generate_special();
    const Side us = pos_.side_to_move();
    switch (kind_) {
    case PickKind::CAPTURES: {
        const tactics::CaptureMap cap = tactics::capture_squares(pos_, us);
        for_each_square(cap.one, [&](Square t) {
            const int32_t rank = 1 + test(cap.two, t);
            tactics::for_each_move_to(pos_, t, us, [&](Move m) {
                if (is_capture(pos_, cap, m)) add(m, rank, false);
            });
        });
        break;
    }
    case PickKind::BLOCKS: {
        const tactics::CaptureMap cap = tactics::capture_squares(pos_, us);
        for_each_square(block_, [&](Square t) {
            tactics::for_each_move_to(pos_, t, us,
                                      [&](Move m) { add(m, 0, !is_capture(pos_, cap, m)); });
        });
        break;
    }
    case PickKind::EVASIONS: {
        const tactics::CaptureMap cap = tactics::capture_squares(pos_, us);
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

} // namespace BRANAN_BOARD_NS
} // namespace branan
