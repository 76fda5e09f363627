#include "split.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <unordered_map>

namespace branan::tune {

ValidationSplit split_validation(const std::vector<PositionLine>& lines, double share,
                                 uint64_t seed) {
    ValidationSplit out;
    const size_t target = size_t(std::llround(share * double(lines.size())));
    std::mt19937_64 rng(seed);
    out.by_game = !lines.empty() && std::all_of(lines.begin(), lines.end(),
                                                [](const auto& p) { return p.game.has_value(); });
    if (!out.by_game) {
        std::vector<size_t> order(lines.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);
        for (size_t k = 0; k < order.size(); ++k)
            (k < target ? out.validation : out.train).push_back(lines[order[k]]);
        return out;
    }

    // Games in the order they first appear, then shuffled: the order of the
    // file does not matter, only the seed does.
    std::unordered_map<int64_t, size_t> count;
    std::vector<int64_t> games;
    for (const PositionLine& p : lines)
        if (count[*p.game]++ == 0) games.push_back(*p.game);
    std::shuffle(games.begin(), games.end(), rng);
    std::unordered_map<int64_t, bool> in_validation;
    size_t taken = 0;
    for (int64_t g : games) {
        const bool take = taken < target;
        in_validation[g] = take;
        if (take) {
            taken += count[g];
            ++out.validation_games;
        }
    }
    out.games = int64_t(games.size());
    for (const PositionLine& p : lines)
        (in_validation[*p.game] ? out.validation : out.train).push_back(p);
    return out;
}

} // namespace branan::tune
