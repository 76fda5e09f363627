#include "split.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <unordered_map>
#include <unordered_set>

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

    // Games in the order they first appear in the lines (so the same lines
    // and seed give the same split), then shuffled; whole games go to
    // validation until their positions reach the share.
    std::unordered_map<int64_t, size_t> count;
    std::vector<int64_t> games;
    for (const PositionLine& p : lines)
        if (count[*p.game]++ == 0) games.push_back(*p.game);
    std::shuffle(games.begin(), games.end(), rng);
    std::unordered_set<int64_t> held_out;
    size_t taken = 0;
    for (size_t k = 0; k < games.size() && taken < target; ++k) {
        held_out.insert(games[k]);
        taken += count[games[k]];
    }
    out.games = int64_t(games.size());
    out.validation_games = int64_t(held_out.size());
    for (const PositionLine& p : lines)
        (held_out.count(*p.game) ? out.validation : out.train).push_back(p);
    return out;
}

std::vector<ValidationSplit> split_folds(const std::vector<PositionLine>& lines, int folds,
                                         uint64_t seed) {
    std::vector<ValidationSplit> out(size_t(std::max(folds, 1)));
    const bool by_game =
        !lines.empty() &&
        std::all_of(lines.begin(), lines.end(), [](const auto& p) { return p.game.has_value(); });
    std::mt19937_64 rng(seed);
    // The fold of each game (or of each line, by its index).
    std::unordered_map<int64_t, size_t> fold_of;
    std::vector<int64_t> keys;
    for (size_t i = 0; i < lines.size(); ++i) {
        const int64_t key = by_game ? *lines[i].game : int64_t(i);
        if (fold_of.emplace(key, 0).second) keys.push_back(key);
    }
    std::shuffle(keys.begin(), keys.end(), rng);
    for (size_t k = 0; k < keys.size(); ++k) fold_of[keys[k]] = k % out.size();
    for (size_t f = 0; f < out.size(); ++f) {
        ValidationSplit& split = out[f];
        split.by_game = by_game;
        split.games = by_game ? int64_t(keys.size()) : 0;
        for (size_t k = f; by_game && k < keys.size(); k += out.size()) ++split.validation_games;
    }
    for (size_t i = 0; i < lines.size(); ++i) {
        const size_t fold = fold_of[by_game ? *lines[i].game : int64_t(i)];
        for (size_t f = 0; f < out.size(); ++f)
            (f == fold ? out[f].validation : out[f].train).push_back(lines[i]);
    }
    return out;
}

} // namespace branan::tune
