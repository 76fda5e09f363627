#pragma once

// The transposition table: shared by every search thread (Lazy SMP), indexed
// by the Zobrist key. Reads and writes are not synchronised; a torn entry can
// at worst give a wrong hint, and the search checks a table move is legal
// before it plays it.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine.h"

namespace branan {

// One entry, 12 bytes, packed:
//
//   bits   field     meaning
//   0-31   key32     low 32 bits of the Zobrist key (the key check; the
//                    bucket index comes from the high bits)
//   32-47  move      best or refutation move (Move::raw(), 0 = none)
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

    Move move() const { return Move::from_raw(move16); }
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
    // Writes into the slot returned by probe. A move of MOVE_NONE keeps the
    // old move of the same position.
    void store(TTEntry* e, uint64_t key, Value value, Bound bound, int depth, Move move,
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
