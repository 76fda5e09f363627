#pragma once

// The training data file: positions of self-play games, each with the
// search's score and the game's result, for the net trainer
// (tools/nnue/train.py reads the same layout; docs/nnue.md describes it).
//
// Little-endian throughout. A 32-byte header:
//
//   offset size  field
//        0    8  magic "BRNNPOS" and a zero byte
//        8    2  version (DATA_VERSION)
//       10    1  board size n (7..19)
//       11    1  flags: bit 0 set when the eight symmetries of the square
//                keep the rules (the trainer may turn and mirror positions)
//       12    4  record size in bytes (10 + ceil(n * n / 2))
//       16    4  length of the rules string
//       20    4  length of the generator's spec
//       24    8  zero
//
// then the rules string (the edition's full rules, rules.md), the spec
// (what generated the file: resuming needs the same), and the records, one
// fixed size each:
//
//   offset size  field
//        0    4  game (its index in the generation)
//        4    2  ply of the position in the game
//        6    2  score: the search's, side to move's view, centi-soldiers
//        8    1  side to move: 0 attackers, 1 defenders
//        9    1  the game's result for the side to move: 0 loss, 1 draw, 2 win
//       10  n*n/2 squares rank by rank from a1 (square = rank * n + file),
//                two to a byte, the lower square in the low nibble: the
//                piece as engine/types.h numbers it (0 empty, 1 attacker,
//                2 defender, 3 king, 4-7 OpenTafl's commanders and knights)

#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace branan::nnue {

constexpr std::string_view DATA_MAGIC{"BRNNPOS\0", 8};
constexpr uint16_t DATA_VERSION = 1;
constexpr size_t DATA_HEADER_BYTES = 32;
constexpr size_t RECORD_FIXED_BYTES = 10;
// Scores past this are not written (the search has seen a result; the
// evaluation has nothing to learn from its number).
constexpr int SCORE_LIMIT = 20000;

struct DataHeader {
    int size = 0;
    bool symmetric = false;
    std::string rules;
    std::string spec;
    bool operator==(const DataHeader&) const = default;
};

struct TrainingPosition {
    uint32_t game = 0;
    uint16_t ply = 0;
    int16_t score = 0;
    Side side_to_move = ATTACKERS;
    int8_t result = 0; // side to move's view: -1 loss, 0 draw, 1 win
    std::array<Piece, MAX_BOARD_SQUARES> pieces{};
    bool operator==(const TrainingPosition&) const = default;
};

size_t record_bytes(int size);
std::string encode_header(const DataHeader& header);
// The header at the start of `bytes`, and how many bytes it took (the
// fixed part, the rules and the spec). Errors say what is wrong.
Result<std::pair<DataHeader, size_t>> decode_header(std::string_view bytes);
void append_record(const TrainingPosition& p, int size, std::string& out);
// One record of a board of side `size`; an error for a piece, side or
// result out of range.
Result<TrainingPosition> decode_record(std::string_view bytes, int size);

// A data file's header and what its end holds.
struct DataScan {
    DataHeader header;
    uint64_t positions = 0;
    size_t partial_bytes = 0; // a record cut short at the end (an interrupted write)
};
// The header alone.
Result<DataHeader> read_data_header(const std::string& path);
// Reads the file's records in order, `visit` seeing each (the file is read a
// block at a time: a file of many gigabytes costs no memory).
Result<DataScan> scan_data_file(const std::string& path,
                                const std::function<void(const TrainingPosition&)>& visit);

// Appends whole games to a data file. open() creates the file with
// `header`, or, when it exists with the same header, resumes it: a record
// cut short at its end is dropped, and games() says which games it holds.
class DataWriter {
  public:
    DataWriter() = default;
    DataWriter(const DataWriter&) = delete;
    DataWriter& operator=(const DataWriter&) = delete;
    ~DataWriter();

    Status open(const std::string& path, const DataHeader& header);
    const std::set<uint32_t>& games() const { return games_; }
    uint64_t positions() const { return positions_; }
    // One game's positions, written and flushed together, so a stop between
    // two games leaves only whole games. Safe from several threads.
    Status append_game(const std::vector<TrainingPosition>& game);

  private:
    std::mutex mutex_;
    std::FILE* file_ = nullptr;
    std::string path_;
    int size_ = 0;
    std::set<uint32_t> games_;
    uint64_t positions_ = 0;
};

} // namespace branan::nnue
