#pragma once

// The opening book maker: random walks from the start (walk.h), deduplicated
// by position, screened by a short search of the real engine (a walk that
// already hands one side a win, or a big advantage, goes at little cost),
// then scored by a deeper search at a fixed node count; a walk is kept when
// that score is within the margin of the target and, if asked, when a pair
// of fast self-play games from it is won once by each side (playout.h).
//
// Deterministic for a spec: every candidate is scored by a single-threaded
// search on a fresh engine state (table and histories cleared), at a fixed
// node count, and candidates are taken in index order, so the book does not
// depend on the number of worker threads nor on the machine's load.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "types.h"

namespace branan::book {

struct BookSpec {
    std::string preset;
    int count = 300;
    int min_plies = 4;
    int max_plies = 8;
    uint64_t nodes = 100000; // the deep search, per candidate
    int margin_cp = 50;      // kept when |score - target| <= margin
    // An EvalFile for the scoring engines ("" = the compiled-in weights);
    // the tests pin one so that tuning the defaults does not move them.
    std::string eval_file;
    // The centre of the window, attackers' view. Not always 0: in fast
    // self-play the defenders win most games from positions the search
    // calls level (their escapes come later than the search sees), so a
    // book balanced in games may need openings the search gives the
    // attackers (docs/books.md).
    int target_cp = 0;
    uint64_t seed = 1;
    int threads = 1;           // worker threads, each with its own engine
    int64_t candidates = 0;    // most walks to try; 0: 100 per opening asked
    uint64_t screen_nodes = 0; // 0: nodes / 20, at least 1000
    int screen_margin_cp = 0;  // 0: 4 * margin
    int hash_mb = 16;
    // The playout pair (playout.h): 0 = none.
    uint64_t playout_nodes = 0;
    int playout_plies = 200;

    // The defaults above made explicit (what the book header reports).
    BookSpec resolved() const;
};

// Why a candidate was not kept, and how many were.
struct BookStats {
    int64_t tried = 0;
    int64_t game_over = 0;       // the walk ended the game
    int64_t duplicates = 0;      // a position seen in an earlier walk
    int64_t screen_decisive = 0; // the screen saw a win for one side
    int64_t screen_outside = 0;  // the screen scored it past the screen margin
    int64_t searched = 0;        // deep searches
    int64_t deep_decisive = 0;   // the deep search saw a win
    int64_t outside = 0;         // deep score past the margin
    int64_t played = 0;          // playout pairs
    int64_t one_sided = 0;       // pairs not won once by each side
    int64_t kept = 0;
};

struct BookEntry {
    int64_t index = 0; // the walk's index (its seed stream)
    std::vector<std::string> moves;
    Side side_to_move = ATTACKERS;
    int score = 0; // deep search, side to move's view, centi-soldiers
    int attackers_score() const { return side_to_move == ATTACKERS ? score : -score; }
};

struct Book {
    BookSpec spec;     // resolved
    std::string rules; // the preset's full rules string
    std::vector<BookEntry> entries;
    BookStats stats;
};

// Errors in the spec (unknown preset, count 0, bad plies range, ...), each
// naming the option.
Status check_spec(const BookSpec& spec);

// Progress: called from the calling thread after each batch of candidates.
using BookProgress = std::function<void(const BookStats&)>;
Result<Book> make_book(const BookSpec& spec, const BookProgress& progress = {});

// The book as a file: '#' header lines (the command line, the method, the
// counts, the score distribution), then one line of moves per opening.
std::string format_book(const Book& book, const std::string& command_line);

} // namespace branan::book
