#pragma once

// The transposition table: shared by every search thread (Lazy SMP), indexed
// by the Zobrist key. Reads and writes are not synchronised; a torn entry can
// at worst give a wrong hint, and the search checks a table move is legal
// before it plays it.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "search_limits.h"

namespace branan {

// Moves in 16 bits. Up to 15x15 (225 squares) from and to take a byte
// each; above, from takes 9 bits, then the direction (2 bits: east, west,
// north, south) and the distance (5 bits). 0 is no move. An unpacked move
// may be garbage (a torn entry): the search checks it is legal first.
inline uint16_t pack_move(Move m, int size) {
    if (!m) return 0;
    if (size <= 15) return uint16_t(m.from() | m.to() << 8);
    const int from = m.from(), to = m.to();
    int dir, dist;
    if (from / size == to / size)
        dir = to > from ? 0 : 1, dist = to > from ? to - from : from - to;
    else
        dir = to > from ? 2 : 3, dist = (to > from ? to - from : from - to) / size;
    return uint16_t(from | dir << 9 | dist << 11);
}
inline Move unpack_move(uint16_t packed, int size) {
    if (!packed) return MOVE_NONE;
    if (size <= 15) return Move(packed & 0xFF, packed >> 8);
    const int from = packed & 0x1FF, dir = (packed >> 9) & 3, dist = packed >> 11;
    const int step = dir == 0 ? 1 : dir == 1 ? -1 : dir == 2 ? size : -size;
    const int to = from + dist * step;
    if (to < 0 || to >= MAX_BOARD_SQUARES) return MOVE_NONE;
    return Move(from, to);
}

// One entry, 12 bytes, packed:
//
//   bits   field     meaning
//   0-31   key32     low 32 bits of the Zobrist key (the key check; the
//                    bucket index comes from the high bits)
//   32-47  move      best or refutation move (pack_move, 0 = none)
//   48-63  value     search value, int16; win/loss scores are stored
//                    relative to this node (distance from here, not from
//                    the root), see value_to_tt / value_from_tt
//   64-79  eval      static evaluation, int16 (VALUE_NONE when unknown)
//   80-87  depth     search depth + 1 (0 = empty slot; quiescence = 1)
//   88-95  genbound  age (high 6 bits: the search generation that wrote it)
//                    and bound type (low 2 bits: Bound NONE/UPPER/LOWER/EXACT)
//
// Five entries and 4 bytes of padding make a 64-byte bucket: one cache line.
struct TTEntry {
    uint32_t key32;
    uint16_t move16;
    int16_t value16;
    int16_t eval16;
    uint8_t depth8;
    uint8_t genbound8;

    // The move, unpacked for a board of `size` (see pack_move).
    Move move(int size) const { return unpack_move(move16, size); }
    Value value() const { return value16; }
    Value eval() const { return eval16; }
    int depth() const { return int(depth8) - 1; }
    Bound bound() const { return Bound(genbound8 & 3); }
    uint8_t generation() const { return genbound8 >> 2; }
    bool empty() const { return depth8 == 0; }
};
static_assert(sizeof(TTEntry) == 12, "TTEntry must stay 12 bytes");

constexpr int BUCKET_ENTRIES = 5;
struct alignas(64) TTBucket {
    TTEntry entry[BUCKET_ENTRIES];
    char padding[4];
};
static_assert(sizeof(TTBucket) == 64, "a bucket is one cache line");

class TranspositionTable {
  public:
    TranspositionTable() { resize(16); }
    // Size in MiB (at least 1). Clears the table.
    void resize(size_t mib);
    void clear();
    // A new search: entries of older searches become cheaper to replace.
    void new_search() { generation_ = uint8_t((generation_ + 1) & 63); }

    // Returns the entry for key: a hit (found = true) or the slot to
    // replace.
    TTEntry* probe(uint64_t key, bool& found) const;
    // Writes into the slot returned by probe. A move of 0 (none, see
    // pack_move) keeps the old move of the same position.
    void store(TTEntry* e, uint64_t key, Value value, Bound bound, int depth, uint16_t move16,
               Value eval) const;
    // Per mille of the sampled entries written by the current search.
    int hashfull() const;
    void prefetch(uint64_t key) const { __builtin_prefetch(&buckets_[index(key)]); }

  private:
    size_t index(uint64_t key) const {
        return size_t((unsigned __int128)key * (unsigned __int128)count_ >> 64);
    }
    struct Free {
        void operator()(TTBucket* p) const;
    };
    std::unique_ptr<TTBucket[], Free> buckets_;
    size_t count_ = 0;
    uint8_t generation_ = 0;
};

// Win/loss scores are relative to the root in the search and relative to
// the node in the table.
inline Value value_to_tt(Value v, int ply) {
    if (v >= VALUE_WIN_MAX_PLY) return v + ply;
    if (v <= -VALUE_WIN_MAX_PLY) return v - ply;
    return v;
}
inline Value value_from_tt(Value v, int ply) {
    if (v == VALUE_NONE) return v;
    if (v >= VALUE_WIN_MAX_PLY) return v - ply;
    if (v <= -VALUE_WIN_MAX_PLY) return v + ply;
    return v;
}

} // namespace branan
