#pragma once

// Move ordering: one MovePicker per node gives the moves to search, best
// first, each with whether it is quiet (captures nothing). The search and
// the quiescence search both take their moves from it.
//
// The order is part of the bench signature: a change of order is a change
// of the search, to be proven like one.

#include <algorithm>
#include <bit>
#include <cstdint>
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "history.h"
#include "movegen.h"
#include "tactics.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// A move's slot in History::butterfly, with this width's stride.
inline int hist_index(Move m) {
    return m.from() * MAX_SQUARES + m.to();
}

// Whether move m of the side whose capture map is `cap` captures: it lands
// on a capturing square, and it is not the king's unless he captures too
// (a hammer).
inline bool is_capture(const Position& pos, const tactics::CaptureMap& cap, Move m) {
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
    // `staged`: list the moves that rank above history first (see STAGED);
    // only where history cannot change before the rest is listed (the
    // search's nodes of depth 2 and below: no node under them of the same
    // side keeps history).
    MovePicker(const Position& pos, Move tt_move, const Move* killers, const int16_t* history,
               bool staged = false);
    // A quiescence picker (CAPTURES, BLOCKS, EVASIONS); `block` is the
    // squares that block the escape (BLOCKS only).
    MovePicker(const Position& pos, PickKind kind, Bitboard block = 0);
    MovePicker(const MovePicker&) = delete;
    MovePicker& operator=(const MovePicker&) = delete;

    // The next move and whether it is quiet; MOVE_NONE when none is left.
    // Inline: it runs for every move searched.
    Move next(bool& quiet) {
        if (stage_ != Stage::PICK) return generate(quiet);
        if (next_ == count_) return MOVE_NONE;
        const int32_t best = peeked_ >= 0 ? peeked_ : best_key();
        peeked_ = -1;
        const int i = POS_MAX - ((best >> 1) & POS_MASK);
        quiet = best & 1;
        const Move m = moves_[i];
        take(i, next_);
        ++next_;
        return m;
    }

    // The move next() gives next, without taking it; MOVE_NONE when none
    // is left or the moves are not listed yet (for prefetching).
    Move peek() {
        if (stage_ == Stage::STAGED) return staged_ready_ ? staged_peek() : MOVE_NONE;
        if (stage_ != Stage::PICK || next_ == count_) return MOVE_NONE;
        peeked_ = best_key();
        return moves_[POS_MAX - ((peeked_ >> 1) & POS_MASK)];
    }

    // Whether every move still to come is quiet: the main search's moves
    // after the table move come captures first, so once one of them was
    // quiet, the rest are.
    bool quiet_from_here(bool last_quiet) const {
        return kind_ == PickKind::MAIN && !tt_last_ && last_quiet;
    }

  private:
    // TT_MOVE comes once. Then the main search's picker lists first only
    // the moves that rank above every quiet move's history (captures, king
    // moves, the killers: STAGED) and picks them as the full list would;
    // most nodes are cut before they run out. When they do, or at once in
    // the quiescence search, every move is listed (GENERATE) and picked
    // (PICK).
    enum class Stage : uint8_t { TT_MOVE, GENERATE, STAGED, PICK };

    // Each move's key packs its rank (the order of movepick.cpp, below 2^19)
    // above its place counted down from POS_MAX and, in bit 0, whether it is
    // quiet: the keys are distinct, and the highest is the best move, the
    // first of equal bests. A move taken is keyed -1.
    static constexpr int POS_BITS = std::bit_width(unsigned(MAX_MOVES - 1));
    static constexpr int32_t POS_MAX = MAX_MOVES - 1;
    static constexpr int32_t POS_MASK = (1 << POS_BITS) - 1;
    static constexpr int RANK_SHIFT = POS_BITS + 1;
    static_assert(RANK_SHIFT + 19 <= 31, "a key is a non-negative int32");
    // The keys are read 16 at a time (vectors), the unused ones -1.
    static constexpr int KEY_BLOCK = 16;
    static constexpr int KEY_SLOTS = (MAX_MOVES + KEY_BLOCK - 1) / KEY_BLOCK * KEY_BLOCK;

    static int32_t make_key(int32_t rank, int pos, bool quiet) {
        return rank << RANK_SHIFT | (POS_MAX - pos) << 1 | int32_t(quiet);
    }
    void add(Move m, int32_t rank, bool quiet) {
        moves_[count_] = m;
        keys_[count_] = make_key(rank, count_, quiet);
        ++count_;
    }

    // Takes the move at index i as the pick numbered `at`: the first picks by
    // swap (the move at `at` takes the picked one's place, and its place in
    // the order of equals), the rest where they stand.
    void take(int i, int at) {
        if (at < sort_from_) {
            if (i != at) {
                moves_[i] = moves_[at];
                keys_[i] = (keys_[at] & ~(POS_MASK << 1)) | ((POS_MAX - i) << 1);
            }
            keys_[at] = -1;
        } else {
            keys_[i] = -1;
        }
    }
    // The table move, a staged move, or the generation and the first pick.
    Move generate(bool& quiet);
    // A quiet move's rank: the king's moves first, then the killers, then
    // the history.
    int32_t quiet_rank(Move m, bool king) const;
    void generate_special();
    void generate_main();
    void generate_quiescence();

    // The staged moves: each with its rank and its place in the order of
    // the full list, in gen_place's terms (a number that grows with the
    // place), which the first picks' swaps change as they change places.
    struct Staged {
        uint32_t move;
        int32_t rank;
        int32_t place;
        bool quiet;
    };
    static constexpr int MAX_STAGED = 64;
    // The main search picks its first moves by swaps, as the first search
    // sorted them (a cut usually comes early), and takes the rest where they
    // stand (the packed keys, in 32 bits, give the same order as the
    // insertion sort they replaced).
    static constexpr int PICKED_ONE_BY_ONE = 3;
    // Lists the staged moves; false when there are none (or too many, or
    // the repetition ban applies: then the full list at once).
    bool start_staged();
    // The best staged move left (its index), -1 when none is left.
    int staged_best() const;
    Move staged_peek() const {
        const int i = staged_best();
        return i < 0 ? MOVE_NONE : Move::from_raw(staged_[i].move);
    }
    // Takes the best staged move, as next() would from the full list.
    Move staged_next(bool& quiet);
    // After the staged moves: the full list, with the picks made so far
    // made again on it.
    void generate_rest();
    // After the generation: the unused keys of the last block set to -1.
    void close_keys() {
        for (int j = count_; j < blocks_end(); ++j) keys_[j] = -1;
    }
    int blocks_end() const { return (count_ + KEY_BLOCK - 1) / KEY_BLOCK * KEY_BLOCK; }

    // The highest key: a maximum over whole blocks (with AVX2, two vectors
    // of eight a block).
    int32_t best_key() const {
        const int end = blocks_end();
#ifdef __AVX2__
        __m256i a = _mm256_set1_epi32(-1), b = a;
        for (int i = 0; i < end; i += KEY_BLOCK) {
            a = _mm256_max_epi32(a, _mm256_load_si256(reinterpret_cast<const __m256i*>(keys_ + i)));
            b = _mm256_max_epi32(
                b, _mm256_load_si256(reinterpret_cast<const __m256i*>(keys_ + i + 8)));
        }
        a = _mm256_max_epi32(a, b);
        __m128i c = _mm_max_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        c = _mm_max_epi32(c, _mm_shuffle_epi32(c, 0x4E));
        c = _mm_max_epi32(c, _mm_shuffle_epi32(c, 0xB1));
        return _mm_cvtsi128_si32(c);
#else
        int32_t best = -1;
        for (int i = 0; i < end; ++i) best = std::max(best, keys_[i]);
        return best;
#endif
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
    int32_t peeked_ = -1;       // the key peek() found, until next() takes it
    bool tt_last_ = false;      // whether the last move given was the table move
    bool staged_ready_ = false; // the staged moves are listed, or not to be
    bool cap_ready_ = false;
    int nstaged_ = 0;
    tactics::CaptureMap cap_;
    // The places of the first moves of the full list, which the first picks
    // take (the one at slot_[next_] is swapped with the pick).
    int32_t slot_[PICKED_ONE_BY_ONE];
    uint32_t picked_[MAX_STAGED]; // the staged moves given, in order
    Staged staged_[MAX_STAGED];
    // Moves picked before next_ reaches sort_from_ are swapped into place
    // (the quiescence pickers never stop doing so); after, each is taken
    // where it stands.
    int sort_from_ = MAX_MOVES;
    // Left unset (a union: Move would set itself) until the moves are
    // generated; a cut by the table move needs none.
    union {
        Move moves_[MAX_MOVES];
    };
    alignas(64) int32_t keys_[KEY_SLOTS];
};

} // namespace BRANAN_BOARD_NS
} // namespace branan
