#pragma once

// Small hashes the tools and file formats share.

#include <cstdint>
#include <string_view>

namespace branan {

// splitmix64's finaliser: neighbouring inputs (a seed, a game's index) get
// unrelated outputs, so each seeds a random stream of its own.
constexpr uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// 64-bit FNV-1a of a byte string (the net file's layers, a book's text).
constexpr uint64_t fnv1a64(std::string_view bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (char c : bytes) h = (h ^ uint8_t(c)) * 0x100000001b3ull;
    return h;
}

} // namespace branan
