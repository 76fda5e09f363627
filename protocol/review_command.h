#pragma once

// The one-shot commands `review` (a whole game annotated) and `diagram` (an
// SVG of a position).

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "engine.h"

namespace branan {

enum class ReviewFormat { TEXT, JSON, HTML };

struct ReviewCommand {
    std::string game_path;
    std::string output; // empty: stdout
    ReviewFormat format = ReviewFormat::TEXT;
    int depth = 0;
    int64_t movetime_ms = 0;
    uint64_t nodes = 0;
    int threads = 1;
    int from_ply = 1, to_ply = 0;
    // Settings every engine of the review takes (Hash, EvalFile, options).
    std::vector<std::pair<std::string, std::string>> settings;
    bool progress = false; // a progress line on stderr
};
// Without a limit, each position is searched this long.
constexpr int64_t REVIEW_DEFAULT_MOVETIME_MS = 500;

// The format `path`'s extension asks for (.html, .htm, .json), else text.
ReviewFormat review_format_of_path(const std::string& path);

// Reads, replays, reviews and writes. Ctrl-C (SIGINT) stops the searches
// and writes the plies reviewed so far, marked as stopped early.
int run_review(Engine& engine, const ReviewCommand& command, std::ostream& out, std::ostream& err);

struct DiagramCommand {
    std::string fen;                     // empty: the start position
    std::string moves;                   // played from it, space-separated
    std::vector<std::string> arrows;     // "d1-d3"
    std::vector<std::string> highlights; // squares, "e5,e6" or one each
    bool coordinates = true;
    int width = 0;
    std::string output; // empty: stdout
};
int run_diagram(Engine& engine, const DiagramCommand& command, std::ostream& out,
                std::ostream& err);

} // namespace branan
