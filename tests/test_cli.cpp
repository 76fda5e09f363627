// End-to-end tests: the real branan binary (BRANAN_BINARY) driven through
// pipes. Every read has a deadline, so a hang fails the test instead of
// blocking it; the child is killed when a test ends early.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "edition.h"
#include "notation.h"
#include "perft.h"
#include "position.h"
#include "rules.h"
#include "smp_bench.h"
#include "test_helpers.h"

using branan::testutil::read_file;

namespace {

using Clock = std::chrono::steady_clock;

std::string temp_path(const char* tag) {
    char name[] = "/tmp/branan_cli_XXXXXX";
    int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    return std::string(name) + "_" + tag;
}

// The binary as a child process: stdin and stdout are pipes, stderr goes to
// a file.
class Child {
  public:
    explicit Child(std::vector<std::string> args) : stderr_path_(temp_path("stderr")) {
        int in_pipe[2], out_pipe[2];
        REQUIRE(pipe(in_pipe) == 0);
        REQUIRE(pipe(out_pipe) == 0);
        pid_ = fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            dup2(in_pipe[0], 0);
            dup2(out_pipe[1], 1);
            int err = open(stderr_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (err >= 0) dup2(err, 2);
            close(in_pipe[0]);
            close(in_pipe[1]);
            close(out_pipe[0]);
            close(out_pipe[1]);
            std::vector<char*> argv;
            static std::string binary = BRANAN_BINARY;
            argv.push_back(binary.data());
            for (std::string& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(BRANAN_BINARY, argv.data());
            _exit(127);
        }
        close(in_pipe[0]);
        close(out_pipe[1]);
        to_child_ = in_pipe[1];
        from_child_ = out_pipe[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~Child() {
        close_stdin();
        if (from_child_ >= 0) close(from_child_);
        if (pid_ > 0 && !reaped_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        std::remove(stderr_path_.c_str());
    }

    void send(const std::string& text) {
        size_t done = 0;
        while (done < text.size()) {
            ssize_t n = write(to_child_, text.data() + done, text.size() - done);
            REQUIRE(n > 0);
            done += size_t(n);
        }
    }
    void line(const std::string& l) { send(l + "\n"); }
    void close_stdin() {
        if (to_child_ >= 0) close(to_child_);
        to_child_ = -1;
    }

    // The next output line; fails the test after `seconds`.
    std::string read_line(double seconds = 30) {
        const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
        while (true) {
            const size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                std::string l = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                lines_.push_back(l);
                return l;
            }
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            if (left.count() <= 0) FAIL("timed out reading from branan; got so far: " << buffer_);
            pollfd p{from_child_, POLLIN, 0};
            int r = poll(&p, 1, int(left.count()));
            if (r <= 0) continue;
            char chunk[4096];
            ssize_t n = read(from_child_, chunk, sizeof chunk);
            if (n <= 0) {
                if (buffer_.empty()) FAIL("branan closed its output");
                std::string l = buffer_;
                buffer_.clear();
                FAIL("unterminated last line: " << l);
            }
            buffer_.append(chunk, size_t(n));
        }
    }
    // Lines up to and including the first that starts with `prefix`.
    std::vector<std::string> read_until(std::string_view prefix, double seconds = 30) {
        std::vector<std::string> got;
        const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
        while (true) {
            const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
            got.push_back(read_line(left > 0 ? left : 0.001));
            if (got.back().starts_with(prefix)) return got;
        }
    }
    // All the remaining output until the child closes it.
    std::string read_rest(double seconds = 30) {
        const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
        while (true) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            if (left.count() <= 0) FAIL("timed out waiting for branan to close its output");
            pollfd p{from_child_, POLLIN, 0};
            if (poll(&p, 1, int(left.count())) <= 0) continue;
            char chunk[4096];
            ssize_t n = read(from_child_, chunk, sizeof chunk);
            if (n <= 0) break;
            buffer_.append(chunk, size_t(n));
        }
        std::string rest = buffer_;
        buffer_.clear();
        return rest;
    }
    // The exit status; fails the test (and kills the child) after `seconds`.
    int wait(double seconds = 30) {
        const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
        while (Clock::now() < deadline) {
            int status = 0;
            pid_t r = waitpid(pid_, &status, WNOHANG);
            if (r == pid_) {
                reaped_ = true;
                if (WIFEXITED(status)) return WEXITSTATUS(status);
                FAIL("branan died: signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : -1));
            }
            usleep(2000);
        }
        FAIL("branan did not exit in time");
        return -1;
    }
    std::string err() const { return read_file(stderr_path_); }
    // Ctrl-C, as a terminal sends it.
    void interrupt() { kill(pid_, SIGINT); }

  private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    int to_child_ = -1, from_child_ = -1;
    std::string buffer_;
    std::vector<std::string> lines_;
    std::string stderr_path_;
};

struct BrananRun {
    int status;
    std::string out;
    std::string err;
};

// Runs branan with `args` and `input` on stdin, to the end.
BrananRun run_branan(std::vector<std::string> args, const std::string& input = "",
                     double seconds = 60) {
    Child c(std::move(args));
    c.send(input);
    c.close_stdin();
    std::string out = c.read_rest(seconds);
    int status = c.wait(seconds);
    return {status, out, c.err()};
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
}

uint64_t expected_perft(const std::string& preset, int depth, const std::string& tfen = "") {
    auto rules = branan::preset_rules(preset);
    REQUIRE(rules.ok());
    auto edition = branan::Edition::make(*rules);
    REQUIRE(edition.ok());
    branan::Position pos(*edition);
    if (!tfen.empty()) {
        auto p = branan::parse_tfen(*edition, tfen);
        REQUIRE(p.ok());
        pos = *p;
    }
    return branan::perft(pos, depth);
}

} // namespace

TEST_CASE("cli: --version and --help", "[cli]") {
    BrananRun r = run_branan({"--version"});
    CHECK(r.status == 0);
    CHECK(r.out.starts_with("Branan "));
    r = run_branan({"--help"});
    CHECK(r.status == 0);
    for (const char* word :
         {"--variant", "--rules", "--hash", "--threads", "--eval-file", "--protocol", "--log-file",
          "--log-level", "analyze", "perft", "bench"})
        CHECK(r.out.find(word) != std::string::npos);
}

TEST_CASE("cli: bad command lines exit 2 with a message on stderr", "[cli]") {
    for (std::vector<std::string> args :
         std::vector<std::vector<std::string>>{{"--bogus"},
                                               {"frobnicate"},
                                               {"--variant", "chess"},
                                               {"--rules", "dim:99"},
                                               {"--hash", "0"},
                                               {"--hash", "lots"},
                                               {"--threads", "0"},
                                               {"--protocol", "xboard"},
                                               {"--log-level", "loud"},
                                               {"perft"},
                                               {"perft", "x"},
                                               {"perft", "0"},
                                               {"perft", "2", "--depth", "3"},
                                               {"analyze", "--depth", "0"},
                                               {"analyze", "--depth", "2", "--nodes", "100"},
                                               {"analyze", "--multipv", "0"},
                                               {"bench", "--depth", "-1"},
                                               {"smp-bench", "--variants", "chess"},
                                               {"smp-bench", "--depth", "0"},
                                               {"--bogus", "perft", "2"},
                                               {"--variant"}}) {
        std::string joined;
        for (auto& a : args) joined += a + " ";
        INFO(joined);
        BrananRun r = run_branan(args);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(r.err.find("error") != std::string::npos);
    }
    // The error names what the user typed: perft's depth is positional.
    CHECK_THAT(run_branan({"perft", "0"}).err, Catch::Contains("perft depth 0 is out of range"));
    CHECK_THAT(run_branan({"analyze", "--depth", "0"}).err,
               Catch::Contains("--depth 0 is out of range"));
    // A word before the command that no option takes is not skipped.
    CHECK_THAT(run_branan({"--bogus", "perft", "2"}).err, Catch::Contains("'--bogus'"));
}

TEST_CASE("cli: perft prints divide, total and speed", "[cli]") {
    BrananRun r = run_branan({"perft", "3"});
    REQUIRE(r.status == 0);
    const auto lines = lines_of(r.out);
    const std::string total = "Nodes searched: " + std::to_string(expected_perft("brandubh", 3));
    CHECK(std::find(lines.begin(), lines.end(), total) != lines.end());
    CHECK(r.out.find("Nodes/second: ") != std::string::npos);
    CHECK(r.out.find("d2-b2: ") != std::string::npos);

    const std::string fen = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 1";
    r = run_branan({"perft", "2", "--fen", fen});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Nodes searched: " + std::to_string(expected_perft("brandubh", 2, fen))) !=
          std::string::npos);

    r = run_branan({"--variant", "tablut", "perft", "2"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Nodes searched: " + std::to_string(expected_perft("tablut", 2))) !=
          std::string::npos);

    r = run_branan({"perft", "2", "--fen", "not a fen"});
    CHECK(r.status == branan::EXIT_BAD_INPUT);
    CHECK(r.out.empty());
    CHECK(r.err.find("tfen") != std::string::npos);
}

// One rule for every command: 2 for bad input (the command line, a
// position, a login), 1 for a failure once the input was taken (a server
// that cannot be reached), and --help says so.
TEST_CASE("cli: every command exits 2 on bad input and 1 on a failure at run time", "[cli]") {
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"analyze", "--fen", "garbage"},
                                               {"analyze", "--moves", "z9-z1"},
                                               {"perft", "2", "--fen", "garbage"},
                                               {"--variant", "nope", "analyze"},
                                               {"--rules", "dim:5", "perft", "1"},
                                               {"nope"},
                                               {"bologna", "--side", "green"},
                                               {"hnefatafl-org", "--board", "11"}}) {
        std::string joined;
        for (auto& a : args) joined += a + " ";
        INFO(joined);
        BrananRun r = run_branan(args);
        CHECK(r.status == branan::EXIT_BAD_INPUT);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains("error"));
    }
    // Nothing listens on port 1 of the loopback: the input was fine.
    BrananRun r = run_branan({"bologna", "--side", "white", "--host", "127.0.0.1", "--port", "1"});
    CHECK(r.status == branan::EXIT_FAILURE_AT_RUN_TIME);
    CHECK_THAT(r.err, Catch::Contains("error"));
    r = run_branan({"--help"});
    CHECK(r.status == branan::EXIT_OK);
    CHECK_THAT(r.out, Catch::Contains("Exit status: 0 done, 1 a failure at run time"));
}

TEST_CASE("cli: analyze prints the board, one line per depth, the best move", "[cli]") {
    BrananRun r = run_branan({"analyze", "--depth", "3"});
    REQUIRE(r.status == 0);
    auto lines = lines_of(r.out);
    REQUIRE(lines.size() > 5);
    CHECK(r.out.find("Fen: 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1") != std::string::npos);
    int depths = 0;
    for (const auto& l : lines) {
        depths += l.starts_with("depth ");
        // The win chance of the side to move beside the score.
        if (l.starts_with("depth ")) CHECK(l.find(" win ") < l.find("% "));
    }
    CHECK(depths >= 3);
    CHECK(lines.back().starts_with("Best move: "));

    r = run_branan({"analyze", "--moves", "d2-b2 d3-c3", "--nodes", "5000"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Fen: 3t3/3t3/3T3/ttTKTtt/2T4/1t5/3t3 a") != std::string::npos);
    CHECK(lines_of(r.out).back().starts_with("Best move: "));

    r = run_branan({"analyze", "--movetime", "200", "--multipv", "2"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find(" #2 ") != std::string::npos);

    r = run_branan({"analyze", "--moves", "d2-b2 d2-b2"});
    CHECK(r.status == branan::EXIT_BAD_INPUT);
    CHECK(r.err.find("d2-b2") != std::string::npos);
}

TEST_CASE("cli: analyze --json prints one JSON object per line", "[cli]") {
    BrananRun r = run_branan(
        {"analyze", "--depth", "3", "--json", "--fen", "K6/7/3T3/tt3tt/3T3/3t3/3t3 a 0 1"});
    REQUIRE(r.status == 0);
    auto lines = lines_of(r.out);
    REQUIRE(lines.size() >= 2);
    for (const auto& l : lines) {
        CHECK(l.starts_with("{\"type\":\""));
        CHECK(l.back() == '}');
    }
    CHECK(lines.back() == "{\"type\":\"bestmove\",\"move\":null,\"ponder\":null}");
    CHECK(lines.front().find("\"winner\":\"defenders\"") != std::string::npos);

    r = run_branan({"analyze", "--depth", "2", "--json"});
    REQUIRE(r.status == 0);
    lines = lines_of(r.out);
    CHECK(lines[0].starts_with("{\"type\":\"position\""));
    CHECK(lines[1].starts_with("{\"type\":\"info\",\"depth\":1,"));
    CHECK(lines.back().starts_with("{\"type\":\"bestmove\",\"move\":\""));
    for (size_t i = 1; i + 1 < lines.size(); ++i) {
        const auto info = nlohmann::json::parse(lines[i]);
        REQUIRE(info.contains("wdl"));
        REQUIRE(info["wdl"].size() == 3);
        CHECK(info["wdl"][0].get<int>() + info["wdl"][1].get<int>() + info["wdl"][2].get<int>() ==
              1000);
        // The calibrated score a player reads, and the evaluation's own.
        CHECK(info["score"].contains("cp"));
        CHECK(info["score"].contains("raw"));
    }
}

TEST_CASE("cli: --option sets any engine option for every command, a bad one is refused", "[cli]") {
    Child c({"--option", "UCI_ShowWDL=true", "--option", "MultiPV=2"});
    c.line("go depth 2");
    const auto lines = c.read_until("bestmove", 30);
    REQUIRE(lines.size() >= 2);
    CHECK(lines[lines.size() - 2].find(" multipv 2 ") != std::string::npos);
    CHECK(lines[lines.size() - 2].find(" wdl ") != std::string::npos);
    c.line("quit");
    CHECK(c.wait(30) == 0);
    for (const auto& bad :
         std::vector<std::vector<std::string>>{{"--option", "UCI_ShowWDL", "analyze"},
                                               {"--option", "=true", "analyze"},
                                               {"--option", "No Such Option=1", "analyze"},
                                               {"--option", "MultiPV=0", "analyze"}}) {
        BrananRun b = run_branan(bad);
        CHECK(b.status == branan::EXIT_BAD_INPUT);
        CHECK(b.err.find("--option") != std::string::npos);
        CHECK(b.out.empty());
    }
}

TEST_CASE("cli: --level and --elo play below full strength, out of range is refused", "[cli]") {
    for (const auto& level :
         std::vector<std::vector<std::string>>{{"--level", "0"}, {"--elo", "700"}}) {
        std::vector<std::string> args = level;
        for (const char* a : {"analyze", "--depth", "60", "--json"}) args.emplace_back(a);
        BrananRun r = run_branan(args);
        REQUIRE(r.status == 0);
        const auto lines = lines_of(r.out);
        REQUIRE(lines.size() >= 3);
        const auto last = nlohmann::json::parse(lines[lines.size() - 2]);
        CHECK(last["nodes"].get<int64_t>() < 2000);
    }
    for (const auto& bad : std::vector<std::vector<std::string>>{{"--level", "21", "analyze"},
                                                                 {"--elo", "99999", "analyze"}}) {
        BrananRun b = run_branan(bad);
        CHECK(b.status == branan::EXIT_BAD_INPUT);
        CHECK(b.err.find(bad[0]) != std::string::npos);
    }
}

TEST_CASE("cli: bench prints the nodes searched and the speed", "[cli]") {
    BrananRun r = run_branan({"bench", "--depth", "2"});
    REQUIRE(r.status == 0);
    CHECK(r.out.starts_with("Nodes searched: "));
    CHECK(r.out.find("Nodes/second: ") != std::string::npos);
    // The count is the bench's signature: the same every run.
    BrananRun again = run_branan({"bench", "--depth", "2", "--hash", "8", "--threads", "1"});
    REQUIRE(again.status == 0);
    CHECK(lines_of(again.out)[0] == lines_of(r.out)[0]);
}

TEST_CASE("cli: smp-bench measures every thread count up to --threads on each board size",
          "[cli]") {
    CHECK(branan::smp_bench_thread_counts(1) == std::vector<int>{1});
    CHECK(branan::smp_bench_thread_counts(6) == std::vector<int>{1, 2, 4, 6});
    CHECK(branan::smp_bench_thread_counts(16) == std::vector<int>{1, 2, 4, 8, 16});

    BrananRun r = run_branan({"smp-bench", "--depth", "3", "--threads", "3", "--hash", "4",
                              "--variants", "brandubh,copenhagen", "--json"});
    REQUIRE(r.status == 0);
    const std::vector<std::string> lines = lines_of(r.out);
    REQUIRE(lines.size() == 6);
    for (size_t i = 0; i < lines.size(); ++i) {
        INFO(lines[i]);
        const nlohmann::json row = nlohmann::json::parse(lines[i]);
        const bool small = i < 3;
        CHECK(row["variant"] == (small ? "brandubh" : "copenhagen"));
        CHECK(row["size"] == (small ? 7 : 11));
        CHECK(row["threads"] == int(i % 3) + 1);
        CHECK(row["depth"] == 3);
        // The endgames of the bench table are left out.
        CHECK(row["positions"] == (small ? 5 : 4));
        CHECK(row["nodes"].get<uint64_t>() > 0);
        CHECK(row["time_ms"].get<double>() > 0);
        if (row["threads"] == 1) CHECK(row["speedup"].get<double>() == 1.0);
    }
    BrananRun text = run_branan({"smp-bench", "--depth", "2", "--variants", "tablut"});
    REQUIRE(text.status == 0);
    CHECK(lines_of(text.out)[0].starts_with("board"));
    CHECK_THAT(text.out, Catch::Contains("9x9   tablut"));
    CHECK_THAT(run_branan({"smp-bench", "--variants", "chess"}).err,
               Catch::Contains("no bench positions for 'chess' (brandubh,"));
}

TEST_CASE("cli: a UCI session through pipes", "[cli]") {
    Child c({});
    c.line("uci");
    auto lines = c.read_until("uciok", 30);
    CHECK(lines[0].starts_with("id name Branan "));
    c.line("isready");
    CHECK(c.read_line(30) == "readyok");
    c.line("setoption name Move Overhead value 10");
    c.line("position startpos moves d2-b2");
    c.line("go depth 3");
    lines = c.read_until("bestmove", 30);
    CHECK(lines.size() >= 4);
    c.line("go infinite");
    c.line("isready");
    c.read_until("readyok", 30);
    c.line("go depth 1");
    c.read_until("info string error: go: not while searching", 30);
    c.line("stop");
    c.read_until("bestmove", 30);
    c.line("quit");
    CHECK(c.wait(30) == 0);
}

TEST_CASE("cli: end of input while searching stops the search, exit 0", "[cli]") {
    Child c({});
    c.line("go infinite");
    c.close_stdin();
    std::string rest = c.read_rest(30);
    CHECK(rest.find("bestmove ") != std::string::npos);
    CHECK(c.wait(30) == 0);
}

TEST_CASE("cli: garbage, huge lines and binary input never break the loop", "[cli]") {
    Child c({});
    std::string garbage;
    for (int i = 0; i < 4096; ++i) garbage += char((i * 7919 + 13) % 256);
    // Skip the '\n' bytes so the garbage is a single line.
    garbage.erase(std::remove(garbage.begin(), garbage.end(), '\n'), garbage.end());
    c.send(garbage + "\n");
    c.read_until("info string error:", 30);
    std::string long_line(1 << 20, 'x');
    long_line += '\n';
    c.send(long_line);
    CHECK(c.read_line(30).starts_with("info string error: line longer than"));
    c.line("position fen nonsense");
    CHECK(c.read_line(30).starts_with("info string error: position"));
    c.line("go depth banana");
    CHECK(c.read_line(30).starts_with("info string error: go"));
    c.line("setoption name Hash value -3");
    CHECK(c.read_line(30).starts_with("info string error: setoption"));
    c.line("d");
    auto lines = c.read_until("Result:", 30);
    CHECK(std::find(lines.begin(), lines.end(), "Fen: 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1") !=
          lines.end());
    c.close_stdin();
    CHECK(c.wait(30) == 0);
}

TEST_CASE("cli: a 100 MB line is skipped without holding it", "[cli][slow]") {
    Child c({});
    const std::string chunk(1 << 20, 'y');
    for (int i = 0; i < 100; ++i) c.send(chunk);
    c.send("\nisready\n");
    CHECK(c.read_line(30).starts_with("info string error: line longer than"));
    CHECK(c.read_line(30) == "readyok");
    c.close_stdin();
    CHECK(c.wait(30) == 0);
}

TEST_CASE("cli: the protocol choice", "[cli]") {
    BrananRun r = run_branan({"--protocol", "uci"}, "rules dim:7\nisready\n");
    CHECK(r.status == 0);
    CHECK(r.out == "info string error: unknown command 'rules' (try help)\nreadyok\n");
}

TEST_CASE("cli: options reach the engine, logs never reach stdout", "[cli]") {
    BrananRun r = run_branan({"--variant", "tablut", "--hash", "8", "--threads", "2"}, "d\n");
    REQUIRE(r.status == 0);
    CHECK(r.out.find(" 9 ") != std::string::npos);
    CHECK(r.out.find("Fen: 3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1") !=
          std::string::npos);

    const std::string log = temp_path("log");
    r = run_branan({"--log-file", log, "--log-level", "debug"}, "isready\nbogus\n");
    REQUIRE(r.status == 0);
    CHECK(r.out == "readyok\ninfo string error: unknown command 'bogus' (try help)\n");
    CHECK(r.err.empty());
    const std::string logged = read_file(log);
    CHECK(logged.find("bogus") != std::string::npos);
    std::remove(log.c_str());

    r = run_branan({"--log-level", "debug"}, "isready\n");
    CHECK(r.out == "readyok\n");
    CHECK(r.err.find("isready") != std::string::npos);

    r = run_branan({"--log-file", "/dev/null/log"});
    CHECK(r.status == 2);
}

TEST_CASE("branan review stopped by Ctrl-C writes the plies reviewed so far", "[cli]") {
    Child c({"--log-level", "info", "review",
             BRANAN_SOURCE_DIR "/tests/data/review/copenhagen-100.txt", "--movetime", "100",
             "--format", "json"});
    c.close_stdin();
    // The log line says the review has begun (and Ctrl-C is its own).
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (c.err().find("review: 100 plies") == std::string::npos && Clock::now() < deadline)
        usleep(10 * 1000);
    REQUIRE(c.err().find("review: 100 plies") != std::string::npos);
    usleep(500 * 1000); // of about 10 s
    c.interrupt();
    const std::string out = c.read_rest(30);
    CHECK(c.wait(30) == 0);
    const nlohmann::json doc = nlohmann::json::parse(out);
    CHECK(doc["complete"] == false);
    CHECK(doc["edition"] == "copenhagen"); // the record's rules, not --variant's default
    REQUIRE(doc["plies"].size() < 100);
    for (size_t i = 0; i < doc["plies"].size(); ++i) CHECK(doc["plies"][i]["ply"] == int(i) + 1);
    CHECK(c.err().find("stopped early") != std::string::npos);
}
