#pragma once

// The UCI-style protocol loop. It only parses lines and prints answers;
// every piece of work is done by the Engine facade. The parsers are free
// functions so that the tests and the fuzz targets can reach them without
// an engine.

#include <atomic>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine.h"
#include "line_reader.h"
#include "output.h"

namespace branan {

namespace uci {

// `position startpos|fen <TFEN> [moves m1 m2 ...]`, arguments after "position".
// An empty tfen means the start position.
struct PositionCommand {
    std::string tfen;
    std::vector<std::string> moves;
};
Result<PositionCommand> parse_position(const std::vector<std::string_view>& args);

// `go ...`, arguments after "go". `pos` gives the legal searchmoves and the
// side that moves first (for wtime/btime).
Result<SearchLimits> parse_go(const std::vector<std::string_view>& args, const Position& pos);

// `setoption name <N> [value <V>]`: `rest` is the text after "setoption".
// The name is its tokens joined by single spaces; the value is the text
// from its first to its last token, inner spacing kept.
struct SetOptionCommand {
    std::string name;
    std::string value;
    bool has_value = false;
};
Result<SetOptionCommand> parse_setoption(std::string_view rest);

// The option of `options` whose name matches case-insensitively, or null.
const OptionInfo* find_option(const std::vector<OptionInfo>& options, std::string_view name);

// Printed forms.
std::string option_line(const OptionInfo& option);
std::string info_line(const Edition& edition, const SearchInfo& info, bool show_wdl);
std::string bestmove_line(const Edition& edition, const BestMove& best);

// The largest depth `go depth` and `perft` accept.
constexpr int MAX_GO_DEPTH = 200;
constexpr int MAX_PERFT_DEPTH = 30;

} // namespace uci

class UciLoop {
  public:
    // Installs the engine's info and bestmove callbacks (they print to `out`).
    UciLoop(Engine& engine, std::ostream& out);
    // Stops a running search and waits for it.
    ~UciLoop();
    UciLoop(const UciLoop&) = delete;
    UciLoop& operator=(const UciLoop&) = delete;

    // One input line. Returns false after `quit`.
    bool handle_line(std::string_view line);
    // Reads lines until `quit` or the end of input, then stops any search
    // and waits for its best move.
    void run(LineReader& reader);
    // What `run` does for a line that was too long.
    void line_too_long();
    // Stops any search and waits until its best move has been printed.
    void finish();

  private:
    void error(std::string_view what);
    void cmd_uci();
    void cmd_setoption(std::string_view rest);
    void cmd_ucinewgame();
    void cmd_position(const std::vector<std::string_view>& args);
    void cmd_go(const std::vector<std::string_view>& args);
    void cmd_stop();
    void cmd_ponderhit();
    void cmd_d();
    void cmd_perft(const std::vector<std::string_view>& args);
    void cmd_eval();
    void cmd_bench(const std::vector<std::string_view>& args);
    void cmd_help();
    // Refuses (with an error line) while a search runs.
    bool idle(std::string_view command);

    Engine& engine_;
    LineWriter writer_;
    std::mutex edition_mutex_;
    EditionPtr search_edition_;    // the edition of the running search's moves
    bool search_show_wdl_ = false; // UCI_ShowWDL when it started
    // Set when the running search has printed its best move: it is over for
    // the GUI even if its threads are still winding down.
    std::atomic<bool> bestmove_sent_{true};
};

} // namespace branan
