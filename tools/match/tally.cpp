#include "tally.h"

#include <algorithm>
#include <cmath>

namespace branan::match {

void Tally::add(const GameSummary& g) {
    int a = index(g.engine1), b = index(g.engine2);
    PairStats& p = pair(a, b);
    // From the view of p.first.
    double s = p.first == a ? g.score1 : 1.0 - g.score1;
    int k = s == 1 ? 2 : s == 0.5 ? 1 : 0;
    p.total.n[k]++;
    const std::string& first_name = names_[size_t(p.first)];
    (g.attackers == first_name ? p.as_attackers : p.as_defenders).n[k]++;
    if (g.pair >= 0) {
        auto key = std::make_pair(g.run, g.pair);
        auto it = pending_.find(key);
        if (it == pending_.end()) {
            pending_[key] = s;
        } else {
            double sum = it->second + s;
            pending_.erase(it);
            p.penta.n[size_t(std::lround(sum * 2))]++;
        }
    }
}

const PairStats* Tally::find(int first, int second) const {
    for (const PairStats& p : pairs_)
        if (p.first == first && p.second == second) return &p;
    return nullptr;
}

int Tally::index(const std::string& name) {
    for (size_t i = 0; i < names_.size(); ++i)
        if (names_[i] == name) return int(i);
    names_.push_back(name);
    return int(names_.size()) - 1;
}

PairStats& Tally::pair(int a, int b) {
    int lo = std::min(a, b), hi = std::max(a, b);
    for (PairStats& p : pairs_)
        if (p.first == lo && p.second == hi) return p;
    PairStats p;
    p.first = lo;
    p.second = hi;
    pairs_.push_back(p);
    return pairs_.back();
}

std::vector<PairStats> tally(const std::vector<GameSummary>& games,
                             const std::vector<std::string>& engine_names) {
    Tally t(engine_names);
    for (const GameSummary& g : games) t.add(g);
    return t.pairs();
}

EloEstimate pair_estimate(const PairStats& p, bool pentanomial) {
    if (pentanomial && p.penta.pairs() > 0) return estimate(moments(p.penta));
    return estimate(moments(p.total));
}

} // namespace branan::match
