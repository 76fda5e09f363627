#pragma once

// The engine facade: everything the protocol loops, the command line, the
// tests and the tools do with the engine goes through this class. It knows
// no protocol and prints nothing; results leave through callbacks.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evaluate.h"
#include "option.h"
#include "position.h"
#include "search_limits.h"

namespace branan {

class Engine {
  public:
    Engine();
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Game set-up. Each call is applied whole or not at all.
    Status set_preset(std::string_view preset_name);
    // `reading`: how hostility lists read when the string does not say
    // (BY_SIDE for what an OpenTafl host sends; see RulesReading).
    Status set_rules(std::string_view rules_string, RulesReading reading = RulesReading::BY_PIECE);
    // The rules as a host already holds them (a server's edition).
    Status set_rules(const Rules& rules);
    // fen empty = the start position of the current rules. moves: move texts.
    // Made into a Position with its history, then set as below.
    Status set_position(std::string_view tfen, const std::vector<std::string>& moves);
    // The game as `pos` holds it: its history since its root (the moves
    // made on it) is the game's, so repetitions, the no-capture count and
    // the defenders' repetition ban are judged on the whole game.
    Status set_position(const Position& pos);
    const Position& position() const;
    std::string rules_string() const;

    // The options a player sets (Hash, Threads, MultiPV, Ponder, Move
    // Overhead, UCI_ShowWDL, Raw Scores, UCI_LimitStrength, UCI_Elo, Skill
    // Level, Variant, Rules, EvalFile, Clear Hash), in the order the
    // `uci` reply lists them. Names are ASCII case-insensitive.
    std::vector<OptionInfo> options() const;
    // Every evaluation weight as a spin option, its default the current
    // rules': set like any option, but listed apart (the `weights` command)
    // so that a GUI shows the player's options only.
    std::vector<OptionInfo> weight_options() const;
    // An option or a weight.
    Status set_option(std::string_view name, std::string_view value);
    // The current value of Move Overhead: what the engine keeps back from
    // every time budget for the pipe and the host's reading.
    int64_t move_overhead_ms() const;
    // UCI_ShowWDL: whether hosts add the win chances to their reports.
    bool show_wdl() const;
    // How the current position's scores read as win chances and calibrated
    // scores (eval/win_chance.h): its edition's model at its material, for
    // a score of WIN_MODEL_DEPTH (at_depth reads a search's); searches'
    // reports are read at their own depth.
    WinCurve win_curve() const;

    void new_game(); // clears the table and histories

    // Search. go() returns at once; the search runs on its own threads and
    // reports through the callbacks (called from a search thread).
    // searching() turns false just before on_bestmove is called, so setting a
    // callback first waits for such a search to finish with the old one; stop
    // a search that is still running before replacing its callbacks.
    void on_info(std::function<void(const SearchInfo&)> callback);
    void on_bestmove(std::function<void(const BestMove&)> callback);
    Status go(const SearchLimits& limits);
    void stop();
    void ponderhit();
    void wait(); // until the current search has reported its best move
    bool searching() const;

    // A search run to its end on the caller's thread: its best move and the
    // last report of its first line. `info` (may be empty) sees every report
    // on the way, from a search thread. Replaces the callbacks and leaves
    // none set.
    struct SearchOutcome {
        BestMove best;
        SearchInfo last;
    };
    Result<SearchOutcome> search_to_end(const SearchLimits& limits,
                                        std::function<void(const SearchInfo&)> info = nullptr);

    // The static evaluation of the current position (side to move's view).
    Value evaluate() const;
    // The hash of the net that evaluates the current rules (EvalFile's, or
    // the rules' compiled-in one); 0 while the hand-made evaluation does.
    uint64_t net_hash() const;
    const EvalParams& eval_params() const;

    // Bench: fixed positions, fixed depth; returns total nodes (the signature).
    struct BenchResult {
        uint64_t nodes = 0;
        int64_t time_ms = 0;
        uint64_t nps = 0;
    };
    // Searches every position of the bench table (search/bench.cpp) to a
    // fixed depth on a fresh engine (this one is not touched): depth 0 =
    // the default bench depth. One thread gives a reproducible node count.
    BenchResult bench(int depth = 0, int hash_mb = 16, int threads = 1) const;
    static int default_bench_depth();
    // The bench table: preset name and TFEN of each position, and whether
    // it is an endgame (a forced win or a single saving move).
    struct BenchPosition {
        const char* preset;
        const char* tfen;
        bool endgame = false;
    };
    static const std::vector<BenchPosition>& bench_positions();

    // perft (engine/perft.h) of the current position, per root move, on the
    // board width of the game (so at the speed the search has).
    std::vector<std::pair<Move, uint64_t>> perft_divide(int depth) const;

    // Nodes searched by the last finished search (all threads).
    uint64_t last_search_nodes() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace branan
