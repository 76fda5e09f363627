#pragma once

// Net files for the tests, written apart from the trainer's writer.

#include <cstdint>
#include <random>
#include <string>

#include "little_endian.h"
#include "nnue_net.h"

namespace branan::testutil {

// A net file as docs/nnue.md lays it out, written here apart from the
// trainer's writer: random weights within the trainer's bounds.
inline std::string random_net_file(int size, int planes, int l1, int l2, uint64_t seed,
                                   const std::string& features = "", int shift2 = -1, int limit = 0,
                                   int buckets = 0) {
    std::mt19937_64 rng(seed);
    auto uniform = [&](int lo, int hi) { return int(rng() % uint64_t(hi - lo + 1)) + lo; };
    // The trainer picks shifts up to 15; these keep the layers reaching
    // their clips with these small widths.
    const int shift1 = uniform(7, 10);
    if (shift2 < 0) shift2 = uniform(6, 12);
    const int shift3 = uniform(6, 12);
    if (buckets == 0) buckets = uniform(1, 2);
    const int inputs = planes * size * size + 1;
    // Small enough that no position's sum leaves int16 (a weight a square,
    // the side to move's and the bias).
    if (limit == 0) limit = 32000 / (size * size + 2);
    std::string layers;
    for (int i = 0; i < inputs * l1; ++i) put_le<int16_t>(layers, int16_t(uniform(-limit, limit)));
    for (int i = 0; i < l1; ++i) put_le<int16_t>(layers, int16_t(uniform(-limit / 2, limit)));
    for (int i = 0; i < buckets * l2 * l1; ++i) put_le<int8_t>(layers, int8_t(uniform(-127, 127)));
    for (int i = 0; i < buckets * l2; ++i) put_le<int32_t>(layers, uniform(-4000, 4000));
    for (int i = 0; i < buckets * l2; ++i) put_le<int8_t>(layers, int8_t(uniform(-127, 127)));
    for (int i = 0; i < buckets; ++i) put_le<int32_t>(layers, uniform(-4000, 4000));
    const std::string family = "test", rules = "dim:" + std::to_string(size);
    const std::string feature_set =
        features.empty() ? "pieces" + std::to_string(planes) + "+side" : features;
    std::string out(NNUE_MAGIC);
    put_le<uint16_t>(out, NNUE_VERSION);
    put_le<uint8_t>(out, uint8_t(size));
    put_le<uint8_t>(out, uint8_t(planes));
    put_le<uint16_t>(out, uint16_t(l1));
    put_le<uint16_t>(out, uint16_t(l2));
    put_le<uint16_t>(out, uint16_t(family.size()));
    put_le<uint16_t>(out, uint16_t(feature_set.size()));
    put_le<uint16_t>(out, uint16_t(rules.size()));
    put_le<uint16_t>(out, 400);
    put_le<uint32_t>(out, uint32_t(layers.size()));
    put_le<uint64_t>(out, nnue_hash(layers));
    put_le<uint8_t>(out, uint8_t(shift1));
    put_le<uint8_t>(out, uint8_t(shift2));
    put_le<uint8_t>(out, uint8_t(shift3));
    put_le<uint8_t>(out, uint8_t(buckets));
    return out + family + feature_set + rules + layers;
}

} // namespace branan::testutil
