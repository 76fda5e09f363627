#include "zobrist.h"

namespace branan::zobrist {

uint64_t piece_square[PIECE_KINDS][MAX_BOARD_SQUARES];
uint64_t side;
uint64_t special[2][MAX_BOARD_SQUARES];
uint64_t berserker[MAX_BOARD_SQUARES];

namespace {
// The keys of boards up to 11x11 come first, in the order they had when
// 11x11 was the largest board, so that their keys (and with them the bench
// and the books) did not change when larger boards came.
constexpr int FIRST_SQUARES = 121;

struct Init {
    Init() {
        uint64_t state = 0x9E3779B97F4A7C15ull ^ 0xB7A7A9u; // fixed: keys are reproducible
        auto next = [&] {
            // splitmix64
            uint64_t z = (state += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            return z ^ (z >> 31);
        };
        for (auto& row : piece_square)
            for (int s = 0; s < FIRST_SQUARES; ++s) row[s] = next();
        side = next();
        for (auto& row : piece_square)
            for (int s = FIRST_SQUARES; s < MAX_BOARD_SQUARES; ++s) row[s] = next();
        // Drawn last, so that no earlier key changed when they came.
        for (auto& row : special)
            for (uint64_t& k : row) k = next();
        for (uint64_t& k : berserker) k = next();
    }
} init;
} // namespace

} // namespace branan::zobrist
