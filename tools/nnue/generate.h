#pragma once

// Training positions by self-play: every worker thread plays whole games
// with its own engine (one search thread, a fixed node count or depth a
// move, the table and histories cleared before each game), from an opening
// of the book (if any) followed by a few random plies, and keeps the quiet
// positions (tune/quiet.h: no capture and no win in one for the side to
// move, as the search's quiescence would see them) whose score is not a
// found result, each with the game's result. A game is a function of the
// spec and its index alone, so a run stopped at any point and resumed
// gives the same file content as one run (in another order of games).

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "training_data.h"

namespace branan::nnue {

struct GenerateSpec {
    std::string preset;
    int64_t games = 1000;
    uint64_t nodes = 5000; // a move; 0 with a depth
    int depth = 0;
    int threads = 1;
    uint64_t seed = 1;
    std::string book;     // a file of openings as lines of moves; empty: none
    int random_plies = 4; // after the book's opening: 0 to this many uniformly
    int max_plies = 300;  // then the game is a draw
    int hash_mb = 16;
    // The evaluation: the engine's for the preset (its compiled-in net, if
    // it has one) unless a net or weight file is given (EvalFile), or the
    // hand-made one is asked for (Use NNUE off).
    std::string eval_file;
    bool hand_made = false;

    // What the file's header records: what makes its games (not how many
    // or with how many threads). `net`: the hash of the net the engines
    // evaluate with, 0 for the hand-made evaluation.
    std::string header_spec(uint64_t net) const;
};

struct GenerateReport {
    int64_t games_played = 0;
    uint64_t positions_written = 0;
    uint64_t positions_in_file = 0;
    int64_t games_skipped = 0; // already in the file
};

// Plays the games of `spec` not yet in `path` and appends their positions.
// `progress` (may be empty) is called after each game with games done so
// far in this run and the pending total.
Result<GenerateReport> generate(const GenerateSpec& spec, const std::string& path,
                                const std::function<void(int64_t, int64_t, uint64_t)>& progress);

} // namespace branan::nnue
