#include "training_data.h"

#include <cassert>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "little_endian.h"

namespace branan::nnue {

namespace {

constexpr int MIN_SIZE = 7;
// Text fields longer than this are not a header of ours.
constexpr uint32_t MAX_TEXT_BYTES = 1 << 16;

} // namespace

size_t record_bytes(int size) {
    return RECORD_FIXED_BYTES + size_t(size * size + 1) / 2;
}

std::string encode_header(const DataHeader& h) {
    std::string out(DATA_MAGIC);
    put_le<uint16_t>(out, DATA_VERSION);
    put_le<uint8_t>(out, uint8_t(h.size));
    put_le<uint8_t>(out, h.symmetric ? 1 : 0);
    put_le<uint32_t>(out, uint32_t(record_bytes(h.size)));
    put_le<uint32_t>(out, uint32_t(h.rules.size()));
    put_le<uint32_t>(out, uint32_t(h.spec.size()));
    put_le<uint64_t>(out, 0);
    return out + h.rules + h.spec;
}

Result<std::pair<DataHeader, size_t>> decode_header(std::string_view bytes) {
    if (bytes.size() < DATA_HEADER_BYTES || bytes.substr(0, DATA_MAGIC.size()) != DATA_MAGIC)
        return Error{"not a Branan training data file (no BRNNPOS header)"};
    const auto version = get_le<uint16_t>(bytes, 8);
    if (version != DATA_VERSION)
        return Error{"training data version " + std::to_string(version) + ", this build reads " +
                     std::to_string(DATA_VERSION)};
    DataHeader h;
    h.size = get_le<uint8_t>(bytes, 10);
    if (h.size < MIN_SIZE || h.size > MAX_BOARD_SIZE)
        return Error{"board size " + std::to_string(h.size) + " in the header is out of range"};
    const auto flags = get_le<uint8_t>(bytes, 11);
    if (flags > 1) return Error{"unknown flags " + std::to_string(flags) + " in the header"};
    h.symmetric = flags & 1;
    const auto record = get_le<uint32_t>(bytes, 12);
    if (record != record_bytes(h.size))
        return Error{"record size " + std::to_string(record) + " does not fit a " +
                     std::to_string(h.size) + "x" + std::to_string(h.size) + " board"};
    const auto rules_len = get_le<uint32_t>(bytes, 16), spec_len = get_le<uint32_t>(bytes, 20);
    if (rules_len > MAX_TEXT_BYTES || spec_len > MAX_TEXT_BYTES)
        return Error{"the header's rules or spec is too long"};
    if (get_le<uint64_t>(bytes, 24) != 0) return Error{"the header's reserved bytes are not zero"};
    const size_t end = DATA_HEADER_BYTES + rules_len + spec_len;
    if (bytes.size() < end) return Error{"the file ends inside its header"};
    h.rules = std::string(bytes.substr(DATA_HEADER_BYTES, rules_len));
    h.spec = std::string(bytes.substr(DATA_HEADER_BYTES + rules_len, spec_len));
    return std::pair{h, end};
}

void append_record(const TrainingPosition& p, int size, std::string& out) {
    assert(p.result >= -1 && p.result <= 1);
    put_le<uint32_t>(out, p.game);
    put_le<uint16_t>(out, p.ply);
    put_le<int16_t>(out, p.score);
    put_le<uint8_t>(out, uint8_t(p.side_to_move));
    put_le<uint8_t>(out, uint8_t(p.result + 1));
    const int squares = size * size;
    for (int s = 0; s < squares; s += 2) {
        const uint8_t low = p.pieces[s], high = s + 1 < squares ? p.pieces[s + 1] : 0;
        out.push_back(char(low | high << 4));
    }
}

Result<TrainingPosition> decode_record(std::string_view bytes, int size) {
    assert(bytes.size() >= record_bytes(size));
    TrainingPosition p;
    p.game = get_le<uint32_t>(bytes, 0);
    p.ply = get_le<uint16_t>(bytes, 4);
    p.score = get_le<int16_t>(bytes, 6);
    const auto side = get_le<uint8_t>(bytes, 8), result = get_le<uint8_t>(bytes, 9);
    if (side > 1) return Error{"side to move " + std::to_string(side) + " is not 0 or 1"};
    if (result > 2) return Error{"result " + std::to_string(result) + " is not 0, 1 or 2"};
    p.side_to_move = Side(side);
    p.result = int8_t(result - 1);
    const int squares = size * size;
    for (int s = 0; s < squares; ++s) {
        const int piece = uint8_t(bytes[RECORD_FIXED_BYTES + s / 2]) >> (4 * (s % 2)) & 0xf;
        if (piece >= PLACED_KINDS) return Error{"piece " + std::to_string(piece) + " on a square"};
        p.pieces[s] = Piece(piece);
    }
    if (squares % 2 && uint8_t(bytes[RECORD_FIXED_BYTES + squares / 2]) >> 4)
        return Error{"the padding nibble is not zero"};
    return p;
}

namespace {

// The header at the start of `in`, which is left at the first record.
Result<DataHeader> read_header(std::istream& in, const std::string& path) {
    std::string head(DATA_HEADER_BYTES, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(size_t(in.gcount()));
    if (head.size() == DATA_HEADER_BYTES) {
        // The text fields' lengths, read again by decode_header once whole.
        const size_t texts = size_t(get_le<uint32_t>(head, 16)) + get_le<uint32_t>(head, 20);
        if (texts <= 2 * MAX_TEXT_BYTES) {
            std::string rest(texts, '\0');
            in.read(rest.data(), std::streamsize(texts));
            head += rest.substr(0, size_t(in.gcount()));
        }
    }
    auto header = decode_header(head);
    if (!header) return Error{path + ": " + header.error()};
    return header->first;
}

} // namespace

Result<DataHeader> read_data_header(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open"};
    return read_header(in, path);
}

Result<DataScan> scan_data_file(const std::string& path,
                                const std::function<void(const TrainingPosition&)>& visit) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open"};
    auto header = read_header(in, path);
    if (!header) return Error{header.error()};
    DataScan scan;
    scan.header = *header;
    const size_t record = record_bytes(scan.header.size);
    constexpr size_t BLOCK_RECORDS = 4096;
    std::string block(record * BLOCK_RECORDS, '\0');
    while (in) {
        in.read(block.data(), std::streamsize(block.size()));
        const size_t got = size_t(in.gcount());
        size_t at = 0;
        for (; at + record <= got; at += record) {
            auto p = decode_record(std::string_view(block).substr(at, record), scan.header.size);
            if (!p)
                return Error{path + ": record " + std::to_string(scan.positions + 1) + ": " +
                             p.error()};
            ++scan.positions;
            if (visit) visit(*p);
        }
        scan.partial_bytes = got - at;
    }
    return scan;
}

DataWriter::~DataWriter() {
    if (file_) std::fclose(file_);
}

Status DataWriter::open(const std::string& path, const DataHeader& header) {
    assert(!file_);
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        std::set<uint32_t> games;
        auto existing =
            scan_data_file(path, [&](const TrainingPosition& p) { games.insert(p.game); });
        if (!existing) return Error{existing.error() + " (not resumed)"};
        if (existing->header.rules != header.rules)
            return Error{path + " holds another edition's positions: " + existing->header.rules};
        if (existing->header.spec != header.spec)
            return Error{path + " was generated with '" + existing->header.spec +
                         "'; resuming it needs the same (asked: '" + header.spec + "')"};
        if (existing->partial_bytes) {
            const auto size = std::filesystem::file_size(path, ec);
            if (!ec) std::filesystem::resize_file(path, size - existing->partial_bytes, ec);
            if (ec) return Error{path + ": cannot drop the cut record: " + ec.message()};
        }
        games_ = std::move(games);
        positions_ = existing->positions;
        file_ = std::fopen(path.c_str(), "ab");
        if (!file_) return Error{path + ": cannot append"};
    } else {
        file_ = std::fopen(path.c_str(), "wb");
        if (!file_) return Error{path + ": cannot create"};
        const std::string head = encode_header(header);
        if (std::fwrite(head.data(), 1, head.size(), file_) != head.size() ||
            std::fflush(file_) != 0)
            return Error{path + ": cannot write"};
    }
    path_ = path;
    size_ = header.size;
    return {};
}

Status DataWriter::append_game(const std::vector<TrainingPosition>& game) {
    if (game.empty()) return {};
    std::string bytes;
    bytes.reserve(game.size() * record_bytes(size_));
    for (const auto& p : game) append_record(p, size_, bytes);
    std::lock_guard lock(mutex_);
    assert(file_);
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size() ||
        std::fflush(file_) != 0)
        return Error{path_ + ": cannot write (disk full?)"};
    games_.insert(game.front().game);
    positions_ += game.size();
    return {};
}

} // namespace branan::nnue
