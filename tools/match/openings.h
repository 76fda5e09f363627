#pragma once

// Openings for a match: read from a file (one TFEN, or one line of moves
// from the start position, per line), or generated: N random plies, kept
// only when a short search scores the position near balance.
//
// The short search is our own small fixed-depth alpha-beta (this file) over
// material and king escape routes, not the engine's search: the match tool
// links only the rules core, and the openings then do not depend on either
// engine under test.

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "game.h"

namespace branan::match {

struct OpeningSource {
    enum class Kind { NONE, FILE, RANDOM };
    Kind kind = Kind::NONE;
    // file
    std::string path;
    std::string format = "tfen"; // tfen | moves
    bool random_order = false;
    // random
    int plies = 6;
    int depth = 3;
    int margin_cp = 100;
};

class OpeningBook {
  public:
    // Loads/prepares; checks every opening against the rules. On an error
    // the book stays as it was.
    Status load(const OpeningSource& source, const EditionPtr& edition, uint64_t seed);
    // The opening for opening slot `index` (deterministic).
    Opening get(int64_t index) const;
    size_t size() const { return openings_.size(); }

  private:
    OpeningSource source_;
    EditionPtr edition_;
    uint64_t seed_ = 0;
    std::vector<Opening> openings_;
};

// The openings of a file's text (`name` labels them, "name:LINE"), in
// `format` tfen or moves, each checked against the rules; an error names
// the line. A text without an opening is an error too.
Result<std::vector<Opening>> read_openings(std::istream& in, const std::string& name,
                                           const std::string& format, const EditionPtr& edition);

// One generated opening, deterministic in (seed, index).
Opening generate_opening(const EditionPtr& edition, uint64_t seed, int64_t index, int plies,
                         int depth, int margin_cp);
// The small search: score (centi-soldiers, side to move's view) at `depth`.
int quick_search(Position& pos, int depth);

} // namespace branan::match
