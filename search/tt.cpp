#include "tt.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/mman.h>

namespace branan {

void TranspositionTable::Free::operator()(TTBucket* p) const {
    std::free(p);
}

void TranspositionTable::resize(size_t mib) {
    if (mib < 1) mib = 1;
    const size_t count = mib * 1024 * 1024 / sizeof(TTBucket);
    if (count != count_) {
        buckets_.reset();
        // 2 MiB alignment and transparent huge pages where available: the
        // table is probed at random, and TLB misses cost as much as cache ones.
        const size_t bytes = count * sizeof(TTBucket);
        const size_t align = bytes >= (size_t(2) << 20) ? (size_t(2) << 20) : 64;
        void* mem = std::aligned_alloc(align, (bytes + align - 1) / align * align);
        if (!mem) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        if (align > 64) madvise(mem, bytes, MADV_HUGEPAGE);
#endif
        buckets_.reset(static_cast<TTBucket*>(mem));
        count_ = count;
    }
    clear();
}

void TranspositionTable::clear() {
    std::memset(static_cast<void*>(buckets_.get()), 0, count_ * sizeof(TTBucket));
    generation_ = 0;
}

TTEntry* TranspositionTable::probe(uint64_t key, bool& found) const {
    TTBucket& b = buckets_[index(key)];
    const uint32_t k32 = uint32_t(key);
    for (TTEntry& e : b.entry)
        if (e.key32 == k32 && !e.empty()) {
            found = true;
            return &e;
        }
    found = false;
    // Replace the least valuable: shallow and old.
    TTEntry* worst = &b.entry[0];
    auto worth = [&](const TTEntry& e) {
        if (e.empty()) return -1000;
        const int age = (64 + generation_ - e.generation()) & 63;
        return int(e.depth8) - 8 * age;
    };
    int worst_worth = worth(*worst);
    for (int i = 1; i < BUCKET_ENTRIES; ++i) {
        const int w = worth(b.entry[i]);
        if (w < worst_worth) {
            worst_worth = w;
            worst = &b.entry[i];
        }
    }
    return worst;
}

void TranspositionTable::store(TTEntry* e, uint64_t key, Value value, Bound bound, int depth,
                               uint16_t move16, Value eval) const {
    const uint32_t k32 = uint32_t(key);
    const bool same = e->key32 == k32 && !e->empty();
    if (move16 || !same) e->move16 = move16;
    // Keep a deeper entry of the same position unless this one is exact or
    // the old one is from an earlier search.
    if (!same || bound == Bound::EXACT || depth + 1 >= e->depth() ||
        e->generation() != generation_) {
        e->key32 = k32;
        e->value16 = int16_t(value);
        e->eval16 = int16_t(eval);
        e->depth8 = uint8_t(std::max(1, std::min(254, depth + 1)));
        e->genbound8 = uint8_t(generation_ << 2 | uint8_t(bound));
    }
}

int TranspositionTable::hashfull() const {
    int n = 0, total = 0;
    const size_t buckets = std::min<size_t>(count_, 200);
    for (size_t i = 0; i < buckets; ++i)
        for (const TTEntry& e : buckets_[i].entry) {
            ++total;
            n += !e.empty() && e.generation() == generation_;
        }
    return total ? n * 1000 / total : 0;
}

} // namespace branan
