#include "context.h"

#include <algorithm>

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

SearchInfo SearchContext::line_info(const RootMove& rm, int depth, int multipv) const {
    const int64_t t = elapsed_ms();
    const uint64_t nodes_all = total_nodes();
    SearchInfo info;
    info.depth = depth;
    info.seldepth = std::max(rm.seldepth, depth);
    info.multipv = multipv;
    info.score = rm.score;
    info.mate = mate_moves(rm.score);
    info.bound = rm.bound;
    info.nodes = nodes_all;
    info.time_ms = t;
    info.nps = t > 0 ? nodes_all * 1000 / uint64_t(t) : nodes_all * 1000;
    info.hashfull = tt->hashfull();
    info.pv = rm.pv;
    return info;
}

} // namespace branan
