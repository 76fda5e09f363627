// Protocol sessions through string streams: every command of the UCI-style
// loop and every error path (bad input never crashes, hangs or changes the
// state; it gets one `info string error:` line).

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "commands.h"
#include "engine.h"
#include "line_reader.h"
#include "loop.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "test_helpers.h"
#include "text.h"
#include "uci.h"

using namespace branan;

namespace {

// A stream buffer the search threads may write to while the test reads it.
class SyncBuf : public std::streambuf {
  public:
    std::string text() {
        std::lock_guard lock(m_);
        return s_;
    }

  protected:
    int_type overflow(int_type c) override {
        if (c != traits_type::eof()) {
            std::lock_guard lock(m_);
            s_ += char(c);
        }
        return c;
    }
    std::streamsize xsputn(const char* p, std::streamsize n) override {
        std::lock_guard lock(m_);
        s_.append(p, size_t(n));
        return n;
    }

  private:
    std::mutex m_;
    std::string s_;
};

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size(); // unterminated: caught by the checks
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// One engine, one loop, and the lines it printed.
struct Session {
    Engine engine;
    SyncBuf buf;
    std::ostream out{&buf};
    UciLoop loop{engine, out};
    size_t seen = 0; // lines already returned by send()

    std::vector<std::string> all() { return split_lines(buf.text()); }

    // The lines printed since the last call.
    std::vector<std::string> fresh() {
        auto lines = all();
        std::vector<std::string> out_lines(lines.begin() + long(std::min(seen, lines.size())),
                                           lines.end());
        seen = lines.size();
        return out_lines;
    }

    // Handles `line` and returns what it printed. (A `go` is started with
    // loop.handle_line instead: its best move may come before send returns.)
    std::vector<std::string> send(std::string_view line) {
        loop.handle_line(line);
        return fresh();
    }

    // Waits (at most `seconds`) for a line starting with `prefix`; returns
    // the lines since the last call, the awaited one last.
    std::vector<std::string> wait_for(std::string_view prefix, double seconds = 30) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        std::vector<std::string> got;
        while (std::chrono::steady_clock::now() < deadline) {
            for (const std::string& l : fresh()) {
                got.push_back(l);
                if (l.starts_with(prefix)) return got;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        FAIL("timed out waiting for '" << prefix << "'");
        return got;
    }

    std::string fen() {
        for (const std::string& l : send("d"))
            if (l.starts_with("Fen: ")) return l.substr(5);
        FAIL("d printed no Fen line");
        return "";
    }
};

// Exactly one line, an error that mentions `what` (a running search's
// `info depth` lines aside).
void require_one_error(std::vector<std::string> lines, std::string_view what = "") {
    lines.erase(std::remove_if(lines.begin(), lines.end(),
                               [](const std::string& l) { return l.rfind("info depth ", 0) == 0; }),
                lines.end());
    INFO("lines: " << lines.size() << (lines.empty() ? "" : ", first: " + lines[0]));
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].starts_with("info string error: "));
    if (!what.empty()) CHECK(lines[0].find(what) != std::string::npos);
}

std::vector<std::string> tokens_of(const std::string& line) {
    std::vector<std::string> out;
    for (auto t : split_words(line)) out.emplace_back(t);
    return out;
}

// The king stands on a corner: the defenders have won, the attackers have no move.
const char* const DECIDED_FEN = "K6/7/3T3/tt3tt/3T3/3t3/3t3 a 0 1";

} // namespace

TEST_CASE("uci lists identity, every option of the facade, then uciok", "[protocol]") {
    Session s;
    auto lines = s.send("uci");
    REQUIRE(lines.size() >= 3);
    CHECK(lines[0].starts_with("id name Branan "));
    CHECK(lines[1].starts_with("id author "));
    CHECK(lines.back() == "uciok");
    const auto options = s.engine.options();
    REQUIRE(lines.size() == options.size() + 3);
    for (size_t i = 0; i < options.size(); ++i) {
        CHECK(lines[i + 2] == uci::option_line(options[i]));
        CHECK(lines[i + 2].starts_with("option name " + options[i].name + " type "));
    }
    require_one_error(s.send("uci extra"), "unexpected argument");
}

TEST_CASE("uci lists the player's options, `weights` lists the evaluation weights, settable alike",
          "[protocol]") {
    Session s;
    const auto uci = s.send("uci");
    // A GUI shows what `uci` lists: the player's options, no weight.
    for (const std::string& line : uci)
        for (const ParamInfo& p : param_table())
            CHECK(line.rfind("option name " + std::string(p.name) + " type", 0) != 0);
    const auto lines = s.send("weights");
    const auto weights = s.engine.weight_options();
    REQUIRE(lines.size() == weights.size());
    REQUIRE(weights.size() == param_table().size());
    for (size_t i = 0; i < weights.size(); ++i) CHECK(lines[i] == uci::option_line(weights[i]));
    const ParamInfo& w = param_table()[0];
    CHECK(s.send("setoption name " + std::string(w.name) + " value " + std::to_string(w.min))
              .empty());
    CHECK(s.engine.eval_params()[ParamId(0)] == w.min);
    require_one_error(s.send("weights extra"), "unexpected argument");
}

TEST_CASE("option lines follow UCI's forms", "[protocol]") {
    OptionInfo spin{"Hash", OptionInfo::Type::SPIN, "16", 1, 1024, {}};
    CHECK(uci::option_line(spin) == "option name Hash type spin default 16 min 1 max 1024");
    OptionInfo check{"Ponder", OptionInfo::Type::CHECK, "false", 0, 0, {}};
    CHECK(uci::option_line(check) == "option name Ponder type check default false");
    OptionInfo combo{"Variant", OptionInfo::Type::COMBO, "a", 0, 0, {"a", "b"}};
    CHECK(uci::option_line(combo) == "option name Variant type combo default a var a var b");
    OptionInfo button{"Clear Hash", OptionInfo::Type::BUTTON, "", 0, 0, {}};
    CHECK(uci::option_line(button) == "option name Clear Hash type button");
    OptionInfo str{"EvalFile", OptionInfo::Type::STRING, "", 0, 0, {}};
    CHECK(uci::option_line(str) == "option name EvalFile type string default <empty>");
}

TEST_CASE("isready answers readyok, also while searching", "[protocol]") {
    Session s;
    CHECK(s.send("isready") == std::vector<std::string>{"readyok"});
    s.loop.handle_line("go infinite");
    s.loop.handle_line("isready");
    s.wait_for("readyok", 30);
    s.loop.handle_line("stop");
    s.wait_for("bestmove");
}

TEST_CASE("setoption: names with spaces, any case, values checked", "[protocol]") {
    Session s;
    CHECK(s.send("setoption name MultiPV value 2").empty());
    CHECK(s.send("setoption name Move Overhead value 100").empty());
    CHECK(s.send("setoption name move overhead value 50").empty());
    CHECK(s.send("setoption name Clear Hash").empty());
    CHECK(s.send("setoption name Hash value 32").empty());
    CHECK(s.send("setoption name Ponder value true").empty());

    require_one_error(s.send("setoption"), "setoption");
    require_one_error(s.send("setoption name"), "name is missing");
    require_one_error(s.send("setoption value 3"), "setoption");
    require_one_error(s.send("setoption name No Such Option value 3"), "unknown option");
    require_one_error(s.send("setoption name Hash"), "value is missing");
    require_one_error(s.send("setoption name Hash value"), "Hash");
    require_one_error(s.send("setoption name Hash value 0"), "Hash");
    require_one_error(s.send("setoption name Hash value abc"), "Hash");
    require_one_error(s.send("setoption name Hash value 99999999999999999999999"), "Hash");
    require_one_error(s.send("setoption name Threads value -1"), "Threads");
    require_one_error(s.send("setoption name Variant value chess"), "Variant");
    require_one_error(s.send("setoption name Rules value dim:99"), "Rules");
    // MultiPV 2 is still in force: two lines per depth.
    s.loop.handle_line("go depth 2");
    auto lines = s.wait_for("bestmove");
    int multipv2 = 0;
    for (const auto& l : lines) multipv2 += l.find(" multipv 2 ") != std::string::npos;
    CHECK(multipv2 >= 1);
}

TEST_CASE("setoption Variant and Rules change the game", "[protocol]") {
    Session s;
    const std::string brandubh = s.fen();
    CHECK(s.send("setoption name Variant value tablut").empty());
    const std::string tablut = s.fen();
    CHECK(tablut != brandubh);
    CHECK(std::count(tablut.begin(), tablut.end(), '/') == 8); // nine ranks
    // A rules string keeps its inner spaces.
    const std::string rules = Engine().rules_string();
    CHECK(s.send("setoption name Rules value " + rules).empty());
    CHECK(s.fen() == brandubh);
}

TEST_CASE("ucinewgame is accepted and keeps the loop working", "[protocol]") {
    Session s;
    CHECK(s.send("ucinewgame").empty());
    require_one_error(s.send("ucinewgame now"), "unexpected argument");
    CHECK(s.send("isready") == std::vector<std::string>{"readyok"});
}

TEST_CASE("position startpos and fen, with moves, applied whole or not at all", "[protocol]") {
    Session s;
    CHECK(s.fen() == testutil::BRANDUBH_START);
    CHECK(s.send("position startpos moves d2-b2").empty());
    const std::string after = s.fen();
    CHECK(after != testutil::BRANDUBH_START);
    CHECK(after.find(" d ") != std::string::npos); // defenders to move

    // Every bad command leaves the position as it was.
    require_one_error(s.send("position startpos moves d2-b2 d2-b2"), "position");
    require_one_error(s.send("position startpos moves d2-b2 zz"), "position");
    require_one_error(s.send("position startpos moves d5-e5"),
                      "position"); // defender on attackers' turn
    require_one_error(s.send("position fen 3t3/3t3 a"), "position");
    require_one_error(s.send("position fen"), "TFEN is missing");
    require_one_error(s.send("position fen moves d2-b2"), "TFEN is missing");
    require_one_error(s.send("position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1 extra"),
                      "at most 4");
    require_one_error(s.send("position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 x"), "position");
    require_one_error(s.send("position fen 3t3/3t3/3T3/ttTTTtt/3T3/3t3/3t3 a"),
                      "position"); // no king
    require_one_error(s.send("position"), "startpos");
    require_one_error(s.send("position somewhere"), "startpos");
    require_one_error(s.send("position startpos d2-b2"), "moves");
    CHECK(s.fen() == after);

    // fen with two fields, and with four; moves after a fen.
    CHECK(s.send("position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d").empty());
    CHECK(s.fen() == "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 1");
    CHECK(s.send("position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 5 9 moves d2-b2").empty());
    CHECK(s.fen() == "3t3/3t3/3T3/ttTKTtt/3T3/1t5/3t3 d 6 9");
    CHECK(s.send("position startpos moves").empty());
    CHECK(s.fen() == testutil::BRANDUBH_START);
}

TEST_CASE("go depth: info lines per depth, then a legal bestmove", "[protocol]") {
    Session s;
    s.send("position startpos");
    s.loop.handle_line("go depth 3");
    auto lines = s.wait_for("bestmove");
    int last_depth = 0;
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
        const auto t = tokens_of(lines[i]);
        REQUIRE(t.size() >= 2);
        REQUIRE(t[0] == "info");
        CHECK(t[1] == "depth");
        for (const char* key :
             {"seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"})
            CHECK(std::find(t.begin(), t.end(), key) != t.end());
        const auto score = std::find(t.begin(), t.end(), "score");
        REQUIRE(score + 2 < t.end());
        CHECK((score[1] == "cp" || score[1] == "mate"));
        last_depth = std::stoi(t[2]);
    }
    CHECK(last_depth == 3);
    const auto best = tokens_of(lines.back());
    REQUIRE(best.size() >= 2);
    Position pos = s.engine.position();
    CHECK(parse_legal_move(pos, best[1]).ok());
    if (best.size() == 4) CHECK(best[2] == "ponder");
    // The loop is idle again at once.
    CHECK(s.send("isready") == std::vector<std::string>{"readyok"});
}

TEST_CASE("UCI_ShowWDL adds the win chances to every info line, off by default", "[protocol]") {
    Session s;
    s.send("setoption name Variant value tablut");
    s.send("position startpos");
    s.loop.handle_line("go depth 2");
    for (const std::string& line : s.wait_for("bestmove"))
        CHECK(line.find(" wdl ") == std::string::npos);
    CHECK(s.send("setoption name UCI_ShowWDL value true").empty());
    s.loop.handle_line("go depth 3");
    const auto lines = s.wait_for("bestmove");
    REQUIRE(lines.size() >= 2);
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
        const auto t = tokens_of(lines[i]);
        const auto wdl = std::find(t.begin(), t.end(), "wdl");
        REQUIRE(wdl + 3 < t.end());
        // Right after the score, before any bound.
        CHECK(wdl - std::find(t.begin(), t.end(), "score") == 3);
        const int w = std::stoi(wdl[1]), d = std::stoi(wdl[2]), l = std::stoi(wdl[3]);
        CHECK(w + d + l == 1000);
        CHECK(std::min({w, d, l}) >= 0);
    }
}

TEST_CASE("score cp is calibrated, Raw Scores gives the evaluation's own units", "[protocol]") {
    Session s;
    s.send("setoption name Variant value copenhagen");
    s.send("position startpos");
    auto score_of = [&] {
        s.loop.handle_line("go depth 1");
        const auto lines = s.wait_for("bestmove");
        REQUIRE(lines.size() >= 2);
        const auto t = tokens_of(lines[lines.size() - 2]);
        const auto score = std::find(t.begin(), t.end(), "score");
        REQUIRE(score + 2 < t.end());
        REQUIRE(score[1] == "cp");
        return std::stoi(score[2]);
    };
    const int calibrated = score_of();
    CHECK(s.send("setoption name Raw Scores value true").empty());
    const int raw = score_of();
    // Read at the depth it was searched to.
    const WinCurve curve = s.engine.win_curve().at_depth(1);
    CHECK(calibrated == curve.calibrated(raw, ATTACKERS));
    CHECK(calibrated != raw);
}

TEST_CASE("go with nonsense numbers or words: one error, no search", "[protocol]") {
    Session s;
    for (const char* bad : {"go depth",
                            "go depth abc",
                            "go depth -1",
                            "go depth 0",
                            "go depth 3x",
                            "go depth 99999999999999999999999",
                            "go depth 100000",
                            "go nodes 0",
                            "go nodes -5",
                            "go movetime",
                            "go movetime 0",
                            "go movetime 1e3",
                            "go wtime x",
                            "go atime 99999999999999999999",
                            "go movestogo 0",
                            "go mate 0",
                            "go sideways",
                            "go searchmoves",
                            "go searchmoves z9-z8",
                            "go searchmoves d5-e5",
                            "go depth 2 searchmoves d2-b2 garbage"}) {
        INFO(bad);
        require_one_error(s.send(bad), "go");
        CHECK_FALSE(s.engine.searching());
    }
    CHECK(s.send("isready") == std::vector<std::string>{"readyok"});
}

TEST_CASE("go parameters reach the limits, wtime/btime follow who moves first", "[protocol]") {
    Engine e;
    const Position& pos = e.position();
    auto go = [&](const std::string& line) {
        std::vector<std::string_view> args;
        for (auto t : split_words(line)) args.push_back(t);
        auto r = uci::parse_go(args, pos);
        INFO(line << ": " << (r ? "" : r.error()));
        REQUIRE(r.ok());
        return *r;
    };
    auto l = go("depth 7 nodes 1000 movetime 250 mate 3 movestogo 20 infinite ponder");
    CHECK(l.depth == 7);
    CHECK(l.nodes == 1000);
    CHECK(l.movetime_ms == 250);
    CHECK(l.mate == 3);
    CHECK(l.movestogo == 20);
    CHECK(l.infinite);
    CHECK(l.ponder);

    REQUIRE(pos.edition().rules.attackers_first);
    l = go("wtime 1000 btime 2000 winc 10 binc 20");
    CHECK(l.time_ms[ATTACKERS] == 1000);
    CHECK(l.time_ms[DEFENDERS] == 2000);
    CHECK(l.inc_ms[ATTACKERS] == 10);
    CHECK(l.inc_ms[DEFENDERS] == 20);
    l = go("atime 3000 dtime 4000 ainc 30 dinc 40");
    CHECK(l.time_ms[ATTACKERS] == 3000);
    CHECK(l.time_ms[DEFENDERS] == 4000);
    CHECK(l.inc_ms[ATTACKERS] == 30);
    CHECK(l.inc_ms[DEFENDERS] == 40);
    l = go("atime -50"); // a late GUI
    CHECK(l.time_ms[ATTACKERS] == 0);
    CHECK(l.time_ms[DEFENDERS] == -1);

    l = go("searchmoves d2-b2 d6-b6 depth 2");
    REQUIRE(l.searchmoves.size() == 2);
    CHECK(move_name(pos.edition(), l.searchmoves[0]) == "d2-b2");
    CHECK(l.depth == 2);

    // With the defenders first, wtime is theirs.
    Engine d;
    auto rules = preset_rules("brandubh");
    REQUIRE(rules.ok());
    std::string text = print_rules(*rules);
    const auto at = text.find("atkf:y");
    REQUIRE(at != std::string::npos);
    text.replace(at, 6, "atkf:n");
    REQUIRE(d.set_rules(text).ok());
    REQUIRE_FALSE(d.position().edition().rules.attackers_first);
    std::vector<std::string_view> args{"wtime", "1000", "btime", "2000"};
    auto r = uci::parse_go(args, d.position());
    REQUIRE(r.ok());
    CHECK(r->time_ms[DEFENDERS] == 1000);
    CHECK(r->time_ms[ATTACKERS] == 2000);
}

TEST_CASE("go searchmoves restricts the best move", "[protocol]") {
    Session s;
    s.loop.handle_line("go depth 3 searchmoves d2-b2");
    auto lines = s.wait_for("bestmove");
    CHECK(tokens_of(lines.back())[1] == "d2-b2");
}

TEST_CASE("go infinite runs until stop, commands that need an idle engine are refused",
          "[protocol]") {
    Session s;
    s.send("position startpos");
    s.loop.handle_line("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    require_one_error(s.send("go depth 1"), "not while searching");
    require_one_error(s.send("position startpos moves d2-b2"), "not while searching");
    require_one_error(s.send("setoption name Hash value 8"), "not while searching");
    require_one_error(s.send("ucinewgame"), "not while searching");
    require_one_error(s.send("perft 1"), "not while searching");
    CHECK(s.engine.searching());
    for (const auto& l : s.fresh()) CHECK_FALSE(l.starts_with("bestmove"));
    s.loop.handle_line("stop");
    // stop returns once the best move is out.
    auto lines = s.fresh();
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.back().starts_with("bestmove "));
    CHECK(s.fen() == testutil::BRANDUBH_START); // the refused position changed nothing
    CHECK(s.send("stop").empty());              // stop when idle: nothing
}

TEST_CASE("go ponder, then ponderhit: the search goes on to its limit", "[protocol]") {
    Session s;
    s.loop.handle_line("go ponder depth 2");
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    s.send("ponderhit");
    s.wait_for("bestmove");
    CHECK(s.send("ponderhit").empty()); // ponderhit when idle: nothing
}

TEST_CASE("go ponder, then stop: the best move comes", "[protocol]") {
    Session s;
    s.loop.handle_line("go ponder");
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    s.loop.handle_line("stop");
    s.wait_for("bestmove", 30);
}

TEST_CASE("go with clocks and movetime end by themselves", "[protocol]") {
    Session s;
    s.loop.handle_line("go movetime 100");
    s.wait_for("bestmove", 30);
    s.loop.handle_line("go wtime 500 btime 500 winc 0 binc 0");
    s.wait_for("bestmove", 30);
    s.loop.handle_line("go atime 300 dtime 300 movestogo 10");
    s.wait_for("bestmove", 30);
    s.loop.handle_line("go nodes 2000");
    s.wait_for("bestmove", 30);
    s.loop.handle_line("go mate 1 depth 4");
    s.wait_for("bestmove", 30);
}

TEST_CASE("no legal move: bestmove (none)", "[protocol]") {
    Session s;
    CHECK(s.send(std::string("position fen ") + DECIDED_FEN).empty());
    s.loop.handle_line("go depth 3");
    auto lines = s.wait_for("bestmove");
    CHECK(lines.back() == "bestmove (none)");
}

TEST_CASE("d: diagram with coordinates, throne and corners, then Fen, Key, Rules, Result",
          "[protocol]") {
    Session s;
    auto lines = s.send("d");
    REQUIRE(lines.size() >= 11);
    CHECK(lines[0].find("a  b  c  d  e  f  g") != std::string::npos);
    CHECK(lines[1].find(" 7 ") != std::string::npos);
    CHECK(lines[1].find("(.)") != std::string::npos); // empty corner
    CHECK(lines[4].find("[K]") != std::string::npos); // king on the throne
    const size_t n = lines.size();
    CHECK(lines[n - 4] == std::string("Fen: ") + testutil::BRANDUBH_START);
    CHECK(lines[n - 3].starts_with("Key: "));
    CHECK(lines[n - 3].size() == 5 + 16);
    CHECK(lines[n - 2] == "Rules: " + s.engine.rules_string());
    CHECK(lines[n - 1] == "Result: ongoing");

    s.send(std::string("position fen ") + DECIDED_FEN);
    lines = s.send("d");
    CHECK(lines.back() == std::string("Result: defenders ") + to_string(EndReason::KING_ESCAPED));
    CHECK(lines[1].find("(K)") != std::string::npos);
    require_one_error(s.send("d 1"), "unexpected argument");
}

TEST_CASE("perft: divide and total, matching the rules core", "[protocol]") {
    Session s;
    auto lines = s.send("perft 2");
    Position pos = s.engine.position();
    const uint64_t expect = perft(pos, 2);
    REQUIRE(!lines.empty());
    CHECK(lines.back() == "Nodes searched: " + std::to_string(expect));
    MoveList moves;
    generate_moves(pos, moves);
    CHECK(lines.size() == size_t(moves.size()) + 1);
    uint64_t sum = 0;
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
        const auto colon = lines[i].find(": ");
        REQUIRE(colon != std::string::npos);
        CHECK(parse_legal_move(pos, lines[i].substr(0, colon)).ok());
        sum += std::stoull(lines[i].substr(colon + 2));
    }
    CHECK(sum == expect);
    for (const char* bad : {"perft", "perft 0", "perft -1", "perft x", "perft 1 2", "perft 99"}) {
        INFO(bad);
        require_one_error(s.send(bad), "perft");
    }
}

TEST_CASE("eval prints the evaluation", "[protocol]") {
    Session s;
    auto lines = s.send("eval");
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.back().find(std::to_string(s.engine.evaluate())) != std::string::npos);
    require_one_error(s.send("eval now"), "unexpected argument");
}

TEST_CASE("bench prints nodes searched and speed", "[protocol]") {
    Session s;
    auto lines = s.send("bench 2");
    REQUIRE_FALSE(lines.empty());
    CHECK(lines[0].starts_with("Nodes searched: "));
    bool nps = false;
    for (const auto& l : lines) nps |= l.starts_with("Nodes/second: ");
    CHECK(nps);
    require_one_error(s.send("bench x"), "bench");
    require_one_error(s.send("bench 0"), "bench");
    require_one_error(s.send("bench 1 2"), "bench");
}

TEST_CASE("help lists the commands", "[protocol]") {
    Session s;
    auto lines = s.send("help");
    std::string all;
    for (const auto& l : lines) all += l + "\n";
    for (const char* c : {"uci", "isready", "setoption", "ucinewgame", "position", "go", "stop",
                          "ponderhit", "quit", "perft", "eval", "bench", "help"})
        CHECK(all.find(c) != std::string::npos);
}

TEST_CASE("unknown commands and garbage: one error line each", "[protocol]") {
    Session s;
    require_one_error(s.send("xyzzy"), "unknown command 'xyzzy'");
    require_one_error(s.send("UCI"), "unknown command");
    require_one_error(s.send(std::string("\x01\x02\xff\xfe garbage", 13)),
                      "unknown command '\?\?\?\?'");
    require_one_error(s.send(std::string("go\0depth 3", 10)), "unknown command");
    require_one_error(s.send(std::string(5000, 'x')), "...");
    CHECK(s.send("").empty());
    CHECK(s.send("   \t  ").empty());
    CHECK(s.send("  isready  ") == std::vector<std::string>{"readyok"});
    CHECK(s.fen() == testutil::BRANDUBH_START);
}

TEST_CASE("quit ends the loop, run reads until quit or the end of input", "[protocol]") {
    {
        Session s;
        CHECK(s.loop.handle_line("isready"));
        CHECK_FALSE(s.loop.handle_line("quit"));
    }
    {
        Session s;
        std::istringstream in("isready\nquit\nisready\n");
        LineReader reader(in);
        s.loop.run(reader);
        CHECK(s.all() == std::vector<std::string>{"readyok"});
    }
}

TEST_CASE("end of input while searching stops the search and prints its move", "[protocol]") {
    Session s;
    std::istringstream in("position startpos\ngo infinite\n");
    LineReader reader(in);
    s.loop.run(reader);
    CHECK_FALSE(s.engine.searching());
    auto lines = s.all();
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.back().starts_with("bestmove "));
}

TEST_CASE("a line longer than the cap gets one error, the loop goes on", "[protocol]") {
    Session s;
    std::string input = "isready\n" + std::string(1 << 20, 'a') + "\nisready\n" +
                        std::string(MAX_LINE_LENGTH + 1, 'b') + "\n" +
                        std::string(MAX_LINE_LENGTH, ' ') + "\nisready";
    std::istringstream in(input);
    LineReader reader(in);
    s.loop.run(reader);
    auto lines = s.all();
    REQUIRE(lines.size() == 5);
    CHECK(lines[0] == "readyok");
    CHECK(lines[1].starts_with("info string error: line longer than"));
    CHECK(lines[2] == "readyok");
    CHECK(lines[3].starts_with("info string error: line longer than"));
    CHECK(lines[4] == "readyok");
}

TEST_CASE("LineReader: CR LF, last line without newline, the length cap", "[protocol]") {
    std::istringstream in("one\r\ntwo\n\nabcd\nabcde\nabc");
    LineReader r(in, 4);
    std::string line;
    CHECK(r.next(line) == LineReader::Status::LINE);
    CHECK(line == "one");
    CHECK(r.next(line) == LineReader::Status::LINE);
    CHECK(line == "two");
    CHECK(r.next(line) == LineReader::Status::LINE);
    CHECK(line.empty());
    CHECK(r.next(line) == LineReader::Status::LINE);
    CHECK(line == "abcd");
    CHECK(r.next(line) == LineReader::Status::TOO_LONG);
    CHECK(r.next(line) == LineReader::Status::LINE);
    CHECK(line == "abc");
    CHECK(r.next(line) == LineReader::Status::END);
    CHECK(r.next(line) == LineReader::Status::END);

    std::istringstream long_last("abcdefgh");
    LineReader r2(long_last, 4);
    CHECK(r2.next(line) == LineReader::Status::TOO_LONG);
    CHECK(r2.next(line) == LineReader::Status::END);
}

TEST_CASE("every output line is whole: no CR, ends in a newline", "[protocol]") {
    Session s;
    for (const char* l : {"uci", "isready", "d", "perft 1", "eval", "help", "go depth 2", "xyz\r\r",
                          "position fen a\rb"})
        s.loop.handle_line(l);
    s.wait_for("bestmove");
    const std::string text = s.buf.text();
    REQUIRE_FALSE(text.empty());
    CHECK(text.back() == '\n');
    CHECK(text.find('\r') == std::string::npos);
}

TEST_CASE("protocol choice: auto detects OTEP's rules line", "[protocol]") {
    CHECK(detect_protocol("rules dim:7 esc:c") == Protocol::OTEP);
    CHECK(detect_protocol("  rules") == Protocol::OTEP);
    CHECK(detect_protocol("uci") == Protocol::UCI);
    CHECK(detect_protocol("rulesx") == Protocol::UCI);
    CHECK(parse_protocol("auto") == Protocol::AUTO);
    CHECK(parse_protocol("uci") == Protocol::UCI);
    CHECK(parse_protocol("otep") == Protocol::OTEP);
    CHECK_FALSE(parse_protocol("xboard"));

    {
        Engine e;
        std::istringstream in("\nrules dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\n");
        std::ostringstream out;
        run_protocol(e, Protocol::AUTO, in, out);
        CHECK(out.str() == "hello\n");
    }
    {
        Engine e;
        std::istringstream in("uci\nquit\n");
        std::ostringstream out;
        run_protocol(e, Protocol::AUTO, in, out);
        CHECK(out.str().find("uciok\n") != std::string::npos);
    }
    {
        Engine e;
        std::istringstream in("isready\n");
        std::ostringstream out;
        run_protocol(e, Protocol::OTEP, in, out);
        CHECK(out.str().starts_with("hello\nerror 0 "));
    }
    {
        Engine e;
        std::istringstream in("");
        std::ostringstream out;
        run_protocol(e, Protocol::AUTO, in, out);
        CHECK(out.str().empty());
    }
}
