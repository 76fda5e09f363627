#pragma once

// Little-endian integers in byte strings: the one reader and writer of the
// binary files' fields (the net file, the training data file).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace branan {

template <typename T>
void put_le(std::string& out, T v) {
    for (size_t i = 0; i < sizeof(T); ++i) out.push_back(char(uint64_t(v) >> (8 * i) & 0xff));
}

// The T at byte `at` of `bytes` (which holds at least at + sizeof(T) bytes).
template <typename T>
T get_le(std::string_view bytes, size_t at) {
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(uint8_t(bytes[at + i])) << (8 * i);
    return T(v);
}

} // namespace branan
