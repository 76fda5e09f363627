#pragma once

// A whole game reviewed: every position searched once, each move graded by
// the drop in the mover's win chance (eval/win_chance.h) from the engine's
// best move to the move played, and an accuracy per side. docs/review.md
// gives the grades' thresholds and the accuracy's formula.

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine.h"
#include "game_file.h"

namespace branan {

enum class Grade { BEST, GOOD, INACCURACY, MISTAKE, BLUNDER };
constexpr int GRADES = 5;
const char* to_string(Grade g);

// Drops in the mover's expected score, in points of 100, from which a move
// is graded: at least INACCURACY_DROP an inaccuracy, and so on.
constexpr double INACCURACY_DROP = 5;
constexpr double MISTAKE_DROP = 10;
constexpr double BLUNDER_DROP = 20;
// The engine's own move is best, whatever its drop reads (a deeper look at
// the next position may see more than the first did); any other move is
// good below INACCURACY_DROP.
Grade grade_of(double drop, bool engine_move);
// Lichess's accuracy of one move from its drop in points: 103.1668
// exp(-0.04354 drop) - 3.1669, held to 0..100.
double move_accuracy(double drop);

// One position as the review's search saw it, from the side to move.
struct PositionVerdict {
    bool searched = false;
    Move best;
    std::vector<Move> line; // the best line, best first
    Value cp = 0;           // calibrated score
    int mate = 0;
    WinChances wdl;
    double expected = 0.5; // win + draw / 2, 0..1
    // The second best line's expected score (MultiPV 2); -1: no second move.
    double second_expected = -1;
    int depth = 0;
    uint64_t nodes = 0;
};

struct PlyReview {
    int ply = 0; // from 1
    Side mover = ATTACKERS;
    std::string fen;    // the position before the move
    Move played;        // the move played
    std::string record; // its OpenTafl record (with its captures)
    Move best;
    std::vector<Move> line;
    // The mover's view before the move (the best move's) and after the move played.
    Value cp_before = 0, cp_after = 0;
    int mate_before = 0, mate_after = 0;
    WinChances wdl_before, wdl_after;
    double win_before = 0.5, win_after = 0.5; // expected score, 0..1
    double drop = 0;                          // points of 100, never below 0
    Grade grade = Grade::BEST;
    bool only_move = false;     // every other move loses a blunder's worth or more
    bool missed_win = false;    // a won position (a forced or an immediate win) let go
    bool missed_escape = false; // the king could escape at once and did not
    int depth = 0;
    uint64_t nodes = 0;
};

struct SideReview {
    int moves = 0;
    std::array<int, GRADES> grades{};
    double accuracy = 100; // the mean of the moves' accuracies
};

struct Review {
    std::string rules, edition; // the rules string; the preset's name or "custom"
    GameFormat format = GameFormat::MOVE_LIST;
    std::vector<std::pair<std::string, std::string>> tags;
    std::string start_fen, final_fen;
    int game_plies = 0; // the moves of the whole game
    GameResult result;  // the game's end, if the last move ended it
    std::string limits; // "movetime 500 ms", as the review searched
    int threads = 1;
    bool complete = true;              // false: stopped before every position was searched
    std::vector<PlyReview> plies;      // the reviewed plies, in order
    std::array<SideReview, 2> sides{}; // index Side
    int turning_point = 0;             // the ply with the largest drop; 0: none above an inaccuracy
    int64_t time_ms = 0;
    bool draws = false; // whether the edition has draws (win chances show them)
};

struct ReviewOptions {
    SearchLimits limits;          // per position
    int threads = 1;              // positions searched at once, one search thread each
    int from_ply = 1, to_ply = 0; // 0: to the end
    // Engine settings (option, value) every searching engine takes, after the rules.
    std::vector<std::pair<std::string, std::string>> settings;
    // Set (from a signal handler, say) to stop: the review returns what it has.
    const std::atomic<bool>* interrupt = nullptr;
    // Called from the reviewing thread about ten times a second: positions
    // searched, positions in all, milliseconds so far.
    std::function<void(int done, int total, int64_t elapsed_ms)> progress;
};

// Reviews `game` (replayed under `rules`, the rules string of its edition).
// `engine` searches the first share of the positions; further threads get
// engines of their own, set up as `options.settings` say.
Result<Review> review_game(Engine& engine, const std::string& rules, const ReplayedGame& game,
                           const ReviewOptions& options);

} // namespace branan
