#pragma once

// A net of the learned evaluation as its file holds it (docs/nnue.md#the-net-file):
// squares by piece kind plus the side to move -> L1 -> L2 -> 1, quantised.
// Read once, then shared (immutably) by every search thread; the
// accumulator and the forward pass are in nnue.h.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace branan {

struct NnueNet {
    // Activations are 0..ACT_MAX in units of 2^-ACT_SHIFT (the float net
    // clips at 127/128), as bytes.
    static constexpr int ACT_SHIFT = 7;
    static constexpr int ACT_MAX = 127;
    static constexpr int MAX_SHIFT = 15;
    static constexpr int MAX_BUCKETS = 2;

    // Each layer's weights are fixed-point at 2^shift a unit (the first
    // int16, the later ones int8), the shift chosen per layer by the trainer
    // to give the layer the most bits its integers can hold.
    int shift1 = ACT_SHIFT, shift2 = 6, shift3 = 6;

    int size = 0;   // board side
    int planes = 0; // piece kinds: 3 (attacker, defender, king) or 7 (and the special pieces)
    int l1 = 0, l2 = 0;
    // The layers after the first: one stack of them (a bucket) for both
    // sides, or one for each side to move (attackers 0, defenders 1).
    int buckets = 1;
    int scale = 0; // centi-soldiers per output unit
    std::string family, feature_set, rules;
    uint64_t hash = 0; // FNV-1a of the layers, as the header has it

    std::vector<int16_t> w1; // one row of l1 per input, at 2^shift1 a unit
    std::vector<int16_t> b1;
    // The later layers, bucket after bucket.
    std::vector<int8_t> w2; // one row of l1 per unit of l2
    std::vector<int32_t> b2;
    std::vector<int8_t> w3;
    std::vector<int32_t> b3;

    int inputs() const { return planes * size * size + 1; }
    // The input of a piece (placement kind, 1..planes) on square s.
    int piece_input(Piece p, int s) const { return (int(p) - 1) * size * size + s; }
    // The input set when the defenders are to move.
    int side_input() const { return planes * size * size; }
    int bucket(Side side_to_move) const { return buckets == 1 ? 0 : int(side_to_move); }
};

using NnueNetPtr = std::shared_ptr<const NnueNet>;

constexpr std::string_view NNUE_MAGIC{"BRNNNET\0", 8};
constexpr uint16_t NNUE_VERSION = 3;

// Whether `bytes` start as a net file does (as against a weight file).
bool is_nnue_file(std::string_view bytes);
// The net in `bytes`; the error says what is wrong (magic, version,
// sizes, the layers' hash).
Result<NnueNetPtr> read_nnue(std::string_view bytes);
Result<NnueNetPtr> read_nnue_file(const std::string& path);
// Whether the file at `path` starts as a net file (false when unreadable).
bool file_is_nnue(const std::string& path);
uint64_t nnue_hash(std::string_view layers);

} // namespace branan
