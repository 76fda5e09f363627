#include "context.h"

namespace branan {

SearchTuning& search_tuning() {
    static SearchTuning t;
    return t;
}

uint64_t SearchContext::total_nodes() const {
    uint64_t n = 0;
    for (const auto& w : workers) n += w->nodes.load(std::memory_order_relaxed);
    return n;
}

} // namespace branan
