#include "nnue_net.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "hash.h"
#include "little_endian.h"

namespace branan {

namespace {

constexpr size_t HEADER_BYTES = 40;
constexpr int MAX_WIDTH = 4096;

template <typename T>
std::vector<T> get_array(std::string_view bytes, size_t& at, size_t count) {
    std::vector<T> out(count);
    for (size_t i = 0; i < count; ++i, at += sizeof(T)) out[i] = get_le<T>(bytes, at);
    return out;
}

// The first unit whose sum can leave int16 in some position, or -1: a
// square holds one piece at most, so the bound is the bias, the largest
// weight of each square and the side to move's.
int largest_sum(const NnueNet& net) {
    const int squares = net.size * net.size, l1 = net.l1;
    for (int j = 0; j < l1; ++j) {
        int64_t bound = std::abs(int(net.b1[size_t(j)])) +
                        std::abs(int(net.w1[size_t(net.side_input()) * size_t(l1) + size_t(j)]));
        for (int s = 0; s < squares; ++s) {
            int largest = 0;
            for (int p = 0; p < net.planes; ++p)
                largest = std::max(
                    largest,
                    std::abs(int(net.w1[size_t(p * squares + s) * size_t(l1) + size_t(j)])));
            bound += largest;
        }
        if (bound > INT16_MAX) return j;
    }
    return -1;
}

} // namespace

uint64_t nnue_hash(std::string_view layers) {
    return fnv1a64(layers);
}

bool is_nnue_file(std::string_view bytes) {
    return bytes.substr(0, NNUE_MAGIC.size()) == NNUE_MAGIC;
}

Result<NnueNetPtr> read_nnue(std::string_view bytes) {
    if (bytes.size() < HEADER_BYTES || !is_nnue_file(bytes))
        return Error{"not a Branan net file (no BRNNNET header)"};
    const auto version = get_le<uint16_t>(bytes, 8);
    if (version != NNUE_VERSION)
        return Error{"net version " + std::to_string(version) + ", this build reads " +
                     std::to_string(NNUE_VERSION)};
    auto net = std::make_shared<NnueNet>();
    net->size = get_le<uint8_t>(bytes, 10);
    net->planes = get_le<uint8_t>(bytes, 11);
    net->l1 = get_le<uint16_t>(bytes, 12);
    net->l2 = get_le<uint16_t>(bytes, 14);
    const size_t family_len = get_le<uint16_t>(bytes, 16),
                 features_len = get_le<uint16_t>(bytes, 18),
                 rules_len = get_le<uint16_t>(bytes, 20);
    net->scale = get_le<uint16_t>(bytes, 22);
    const size_t layers_len = get_le<uint32_t>(bytes, 24);
    net->hash = get_le<uint64_t>(bytes, 28);
    net->shift1 = get_le<uint8_t>(bytes, 36);
    net->shift2 = get_le<uint8_t>(bytes, 37);
    net->shift3 = get_le<uint8_t>(bytes, 38);
    net->buckets = get_le<uint8_t>(bytes, 39);
    if (net->size < 7 || net->size > MAX_BOARD_SIZE)
        return Error{"board size " + std::to_string(net->size) + " in the net is out of range"};
    if (net->planes != 3 && net->planes != 7)
        return Error{"the net has " + std::to_string(net->planes) + " piece planes (3 or 7)"};
    if (net->l1 < 1 || net->l1 > MAX_WIDTH || net->l2 < 1 || net->l2 > MAX_WIDTH || net->scale < 1)
        return Error{"the net's layer widths or scale are out of range"};
    if (net->buckets < 1 || net->buckets > NnueNet::MAX_BUCKETS)
        return Error{"the net has " + std::to_string(net->buckets) + " buckets (1 or 2)"};
    if (net->shift1 < NnueNet::ACT_SHIFT || net->shift1 > NnueNet::MAX_SHIFT ||
        net->shift2 > NnueNet::MAX_SHIFT || net->shift3 > NnueNet::MAX_SHIFT)
        return Error{"the net's weight shifts (" + std::to_string(net->shift1) + ", " +
                     std::to_string(net->shift2) + ", " + std::to_string(net->shift3) +
                     ") are out of range (" + std::to_string(NnueNet::ACT_SHIFT) + " to " +
                     std::to_string(NnueNet::MAX_SHIFT) + ", 0 to " +
                     std::to_string(NnueNet::MAX_SHIFT) + ", 0 to " +
                     std::to_string(NnueNet::MAX_SHIFT) + ")"};
    size_t at = HEADER_BYTES;
    if (bytes.size() < at + family_len + features_len + rules_len + layers_len)
        return Error{"the net file is cut short"};
    net->family = std::string(bytes.substr(at, family_len));
    net->feature_set = std::string(bytes.substr(at += family_len, features_len));
    net->rules = std::string(bytes.substr(at += features_len, rules_len));
    at += rules_len;
    const std::string expected_features = "pieces" + std::to_string(net->planes) + "+side";
    if (net->feature_set != expected_features)
        return Error{"the net's feature set '" + net->feature_set + "' is not " +
                     expected_features};
    const size_t in = size_t(net->inputs()), l1 = size_t(net->l1), l2 = size_t(net->l2),
                 buckets = size_t(net->buckets);
    const size_t expected_len = in * l1 * 2 + l1 * 2 + buckets * (l2 * l1 + l2 * 4 + l2 + 4);
    if (layers_len != expected_len || bytes.size() != at + layers_len)
        return Error{"the net's layers are " + std::to_string(layers_len) + " bytes in a file of " +
                     std::to_string(bytes.size()) + "; its sizes need " +
                     std::to_string(expected_len)};
    if (nnue_hash(bytes.substr(at)) != net->hash)
        return Error{"the net's layers do not match its hash (a damaged file)"};
    net->w1 = get_array<int16_t>(bytes, at, in * l1);
    net->b1 = get_array<int16_t>(bytes, at, l1);
    net->w2 = get_array<int8_t>(bytes, at, buckets * l2 * l1);
    net->b2 = get_array<int32_t>(bytes, at, buckets * l2);
    net->w3 = get_array<int8_t>(bytes, at, buckets * l2);
    net->b3 = get_array<int32_t>(bytes, at, buckets);
    if (const int unit = largest_sum(*net); unit >= 0)
        return Error{"the net's first layer can overflow its int16 sums (unit " +
                     std::to_string(unit) + ")"};
    return NnueNetPtr(std::move(net));
}

Result<NnueNetPtr> read_nnue_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open"};
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    auto net = read_nnue(bytes);
    if (!net) return Error{path + ": " + net.error()};
    return net;
}

} // namespace branan

namespace branan {

bool file_is_nnue(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(NNUE_MAGIC.size(), '\0');
    in.read(head.data(), std::streamsize(head.size()));
    return in && is_nnue_file(head);
}

} // namespace branan
