#include "nnue.h"

#include <algorithm>
#include <cassert>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {

// Plies the stack holds: the search's deepest ply, and the moves of a
// berserk chain past it.
constexpr int STACK_PLIES = MAX_PLY + 16;

// The first layer's activations: the sums at 2^shift a unit brought to
// 2^-ACT_SHIFT (rounding down: the trainer puts half of that into the
// biases) and clipped to 0..ACT_MAX, as bytes.
void activate(const int16_t* acc, int n, int shift, uint8_t* h1) {
    const int down = shift - NnueNet::ACT_SHIFT;
    int i = 0;
#if defined(__AVX2__)
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(NnueNet::ACT_MAX);
    const __m128i count = _mm_cvtsi32_si128(down);
    for (; i + 32 <= n; i += 32) {
        const __m256i a =
            _mm256_sra_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i)), count);
        const __m256i b = _mm256_sra_epi16(
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i + 16)), count);
        const __m256i ca = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
        const __m256i cb = _mm256_min_epi16(_mm256_max_epi16(b, zero), top);
        // packus works within 128-bit lanes: the permute puts the bytes in order.
        const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(ca, cb), 0xD8);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(h1 + i), packed);
    }
#endif
    // >> on a negative int rounds down, as _mm256_sra_epi16 and the trainer do.
    for (; i < n; ++i) h1[i] = uint8_t(std::clamp<int>(acc[i] >> down, 0, NnueNet::ACT_MAX));
}

// The dot products of activations (0..ACT_MAX) with four rows of int8
// weights, `n` apart, into out[0..3]. With AVX2 the products are summed in
// pairs as int16 first, which cannot overflow (2 x 127 x 127 < 32768), and
// the four sums are reduced together: the same integers as the plain loop.
void dot4(const uint8_t* h, const int8_t* w, int n, int32_t* out) {
    int i = 0;
    out[0] = out[1] = out[2] = out[3] = 0;
#if defined(__AVX2__)
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
    // vpdpbusd sums the four products of each int32 lane without saturating.
    __m512i z0 = _mm512_setzero_si512(), z1 = z0, z2 = z0, z3 = z0;
    for (; i + 64 <= n; i += 64) {
        const __m512i x = _mm512_loadu_si512(h + i);
        z0 = _mm512_dpbusd_epi32(z0, x, _mm512_loadu_si512(w + i));
        z1 = _mm512_dpbusd_epi32(z1, x, _mm512_loadu_si512(w + n + i));
        z2 = _mm512_dpbusd_epi32(z2, x, _mm512_loadu_si512(w + 2 * n + i));
        z3 = _mm512_dpbusd_epi32(z3, x, _mm512_loadu_si512(w + 3 * n + i));
    }
    // The zero-masked extracts: GCC 12 warns of the plain ones' undefined
    // pass-through operand.
    auto fold = [](__m512i z) {
        return _mm256_add_epi32(_mm512_maskz_extracti64x4_epi64(0xFF, z, 0),
                                _mm512_maskz_extracti64x4_epi64(0xFF, z, 1));
    };
    a0 = fold(z0), a1 = fold(z1), a2 = fold(z2), a3 = fold(z3);
#endif
    const __m256i ones = _mm256_set1_epi16(1);
    auto step = [&](__m256i x, const int8_t* row) {
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row));
        return _mm256_madd_epi16(_mm256_maddubs_epi16(x, y), ones);
    };
    for (; i + 32 <= n; i += 32) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h + i));
        a0 = _mm256_add_epi32(a0, step(x, w + i));
        a1 = _mm256_add_epi32(a1, step(x, w + n + i));
        a2 = _mm256_add_epi32(a2, step(x, w + 2 * n + i));
        a3 = _mm256_add_epi32(a3, step(x, w + 3 * n + i));
    }
    // Each 128-bit half of `s` holds the four rows' sums over its half.
    const __m256i s = _mm256_hadd_epi32(_mm256_hadd_epi32(a0, a1), _mm256_hadd_epi32(a2, a3));
    const __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), sum);
#endif
    for (; i < n; ++i)
        for (int k = 0; k < 4; ++k) out[k] += int32_t(h[i]) * w[size_t(k) * size_t(n) + size_t(i)];
}

int32_t dot(const uint8_t* h, const int8_t* w, int n) {
    int32_t sum = 0;
    for (int i = 0; i < n; ++i) sum += int32_t(h[i]) * w[i];
    return sum;
}

// The forward pass over a first layer's sums, through the later layers of
// the side to move's bucket (docs/nnue.md).
Value forward(const NnueNet& net, const int16_t* acc, Side side_to_move) {
    const int l1 = net.l1, l2 = net.l2;
    // A fixed buffer for the usual widths keeps the pass off the heap.
    uint8_t h1_small[1024];
    std::vector<uint8_t> h1_big;
    uint8_t* h1 = h1_small;
    if (l1 > 1024) h1_big.resize(size_t(l1)), h1 = h1_big.data();
    activate(acc, l1, net.shift1, h1);
    const size_t bucket = size_t(net.bucket(side_to_move));
    const int8_t* w2 = net.w2.data() + bucket * size_t(l2) * size_t(l1);
    const int32_t* b2 = net.b2.data() + bucket * size_t(l2);
    const int8_t* w3 = net.w3.data() + bucket * size_t(l2);
    int64_t out = net.b3[bucket];
    auto next_layer = [&](int j, int32_t sum) {
        // >> on a negative sum rounds down, as the trainer's // does (the
        // trainer puts half a unit into b2, so the whole rounds to nearest).
        const int64_t h2 =
            std::clamp<int64_t>((int64_t(sum) + b2[j]) >> net.shift2, 0, NnueNet::ACT_MAX);
        out += int64_t(w3[j]) * h2;
    };
    int j = 0;
    for (int32_t sums[4]; j + 4 <= l2; j += 4) {
        dot4(h1, w2 + size_t(j) * size_t(l1), l1, sums);
        for (int k = 0; k < 4; ++k) next_layer(j + k, sums[k]);
    }
    for (; j < l2; ++j) next_layer(j, dot(h1, w2 + size_t(j) * size_t(l1), l1));
    // Rounded down, as the trainer's check does.
    const int64_t num = out * net.scale, den = int64_t(1) << (NnueNet::ACT_SHIFT + net.shift3);
    const int64_t cs = num >= 0 ? num / den : -((-num + den - 1) / den);
    return Value(std::clamp<int64_t>(cs, -VALUE_WIN_MAX_PLY + 1, VALUE_WIN_MAX_PLY - 1));
}

void full_sum(const NnueNet& net, const Position& pos, int16_t* acc) {
    std::copy(net.b1.begin(), net.b1.end(), acc);
    auto add_row = [&](int input) {
        const int16_t* row = net.w1.data() + size_t(input) * size_t(net.l1);
        for (int i = 0; i < net.l1; ++i) acc[i] = int16_t(acc[i] + row[i]);
    };
    const int squares = pos.size() * pos.size();
    for (Square s = 0; s < squares; ++s) {
        const Piece p = pos.placed_piece(s);
        if (p != NO_PIECE) add_row(net.piece_input(p, s));
    }
    if (pos.side_to_move() == DEFENDERS) add_row(net.side_input());
}

} // namespace

Status nnue_fits(const NnueNet& net, const Edition& edition) {
    if (net.size != edition.size)
        return Error{"the net is for " + std::to_string(net.size) + "x" + std::to_string(net.size) +
                     " boards, these rules' board is " + std::to_string(edition.size) + "x" +
                     std::to_string(edition.size)};
    if (net.planes < 7 && edition.special_moves)
        return Error{"the net has no inputs for these rules' commanders and knights"};
    return {};
}

void NnueStack::set_net(const NnueNet* net) {
    net_ = net;
    depth_ = 0;
    if (!net) return;
    acc_.assign(size_t(STACK_PLIES) * size_t(net->l1), 0);
    summed_.assign(size_t(STACK_PLIES), 0);
    change_.assign(size_t(STACK_PLIES), Change{});
    side_.assign(size_t(STACK_PLIES), ATTACKERS);
}

void NnueStack::add(int16_t* acc, int input) const {
    const int16_t* row = net_->w1.data() + size_t(input) * size_t(net_->l1);
    for (int i = 0; i < net_->l1; ++i) acc[i] = int16_t(acc[i] + row[i]);
}

void NnueStack::sub(int16_t* acc, int input) const {
    const int16_t* row = net_->w1.data() + size_t(input) * size_t(net_->l1);
    for (int i = 0; i < net_->l1; ++i) acc[i] = int16_t(acc[i] - row[i]);
}

void NnueStack::refresh(const Position& pos) {
    assert(net_);
    depth_ = 0;
    full_sum(*net_, pos, slot(0));
    summed_[0] = 1;
    side_[0] = pos.side_to_move();
}

// A ply's sums from its parent's: the usual move (one row off, one on, the
// side to move's row) in one pass, the rest row by row.
void NnueStack::apply(int depth) const {
    assert(depth > 0 && summed_[size_t(depth - 1)]);
    const Change& c = change_[size_t(depth)];
    const int16_t* parent = slot(depth - 1);
    int16_t* child = slot(depth);
    const int l1 = net_->l1;
    auto row = [&](int input) { return net_->w1.data() + size_t(input) * size_t(l1); };
    int adds = 0, subs = 0;
    if (c.adds == 2 && c.subs >= 2) {
        const int16_t *a0 = row(c.add[0]), *a1 = row(c.add[1]), *s0 = row(c.sub[0]),
                      *s1 = row(c.sub[1]);
        for (int i = 0; i < l1; ++i) child[i] = int16_t(parent[i] + a0[i] + a1[i] - s0[i] - s1[i]);
        adds = subs = 2;
    } else if (c.adds >= 1 && c.subs >= 1) {
        const int16_t *a0 = row(c.add[0]), *s0 = row(c.sub[0]);
        for (int i = 0; i < l1; ++i) child[i] = int16_t(parent[i] + a0[i] - s0[i]);
        adds = subs = 1;
    } else {
        std::copy(parent, parent + l1, child);
    }
    for (; adds < c.adds; ++adds) add(child, c.add[adds]);
    for (; subs < c.subs; ++subs) sub(child, c.sub[subs]);
    summed_[size_t(depth)] = 1;
}

void NnueStack::update() const {
    int first = depth_;
    while (!summed_[size_t(first)]) --first;
    for (int d = first + 1; d <= depth_; ++d) apply(d);
}

// The top ply's side to move, and its input's change when it is not its
// parent's.
void NnueStack::note_side(Change& c, Side now) {
    side_[size_t(depth_)] = now;
    if (now == side_[size_t(depth_ - 1)]) return;
    if (now == DEFENDERS)
        c.add[c.adds++] = net_->side_input();
    else
        c.sub[c.subs++] = net_->side_input();
}

void NnueStack::push_move(const Position& pos) {
    assert(net_ && depth_ + 1 < STACK_PLIES);
    const NnueNet& net = *net_;
    const Move m = pos.last_move();
    const Piece moved = pos.placed_piece(m.to());
    ++depth_;
    Change& c = change_[size_t(depth_)];
    c.adds = c.subs = 0;
    c.add[c.adds++] = net.piece_input(moved, m.to());
    c.sub[c.subs++] = net.piece_input(moved, m.from());
    // The side to move's input changes with most moves (not inside a
    // berserk chain).
    note_side(c, pos.side_to_move());
    const int room = int(std::size(c.sub)) - c.subs;
    const auto taken = pos.last_captured();
    summed_[size_t(depth_)] = 0;
    if (popcount(taken) <= room) {
        for_each_square(
            taken, [&](Square s) { c.sub[c.subs++] = net.piece_input(pos.captured_piece(s), s); });
        return;
    }
    // Too many to note: the sums now, the captures row by row.
    update();
    for_each_square(
        taken, [&](Square s) { sub(slot(depth_), net.piece_input(pos.captured_piece(s), s)); });
}

void NnueStack::push_null() {
    assert(net_ && depth_ + 1 < STACK_PLIES);
    ++depth_;
    Change& c = change_[size_t(depth_)];
    c.adds = c.subs = 0;
    note_side(c, ~side_[size_t(depth_ - 1)]);
    summed_[size_t(depth_)] = 0;
}

void NnueStack::pop() {
    assert(depth_ > 0);
    --depth_;
}

const int16_t* NnueStack::top() const {
    update();
    return slot(depth_);
}

Value NnueStack::evaluate() const {
    assert(net_);
    return forward(*net_, top(), side_[size_t(depth_)]);
}

Value nnue_evaluate(const NnueNet& net, const Position& pos) {
    std::vector<int16_t> acc(size_t(net.l1));
    full_sum(net, pos, acc.data());
    return forward(net, acc.data(), pos.side_to_move());
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
