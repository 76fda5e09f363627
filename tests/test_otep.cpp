// OTEP end to end: the real binary driven through pipes by a scripted host
// that replays the sequences OpenTafl really sends (../shared/OTEP.md) and
// referees every move with the rules core.

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "movegen.h"
#include "notation.h"
#include "rules.h"
#include "variant.h"

using namespace branan;

namespace {

const char* const BRANDUB =
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
const char* const TABLUT =
    "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK "
    "linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

// A child process with its stdin and stdout on pipes.
class Host {
  public:
    explicit Host(std::vector<std::string> args) {
        int in[2], out[2];
        REQUIRE(pipe(in) == 0);
        REQUIRE(pipe(out) == 0);
        pid_ = fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            int devnull = open("/dev/null", O_WRONLY);
            dup2(devnull, 2);
            close(in[1]);
            close(out[0]);
            std::vector<char*> argv;
            std::string bin = BRANAN_BINARY;
            argv.push_back(bin.data());
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(bin.c_str(), argv.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_ = in[1];
        from_ = out[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~Host() {
        if (to_ >= 0) close(to_);
        if (pid_ > 0 && !reaped_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        close(from_);
    }

    void send(const std::string& line) {
        const std::string s = line + "\n";
        REQUIRE(write(to_, s.data(), s.size()) == ssize_t(s.size()));
    }

    // The next line, exactly as written (the trailing "\n" removed), or
    // "<timeout>" / "<eof>".
    std::string read_line(int timeout_ms = 10000) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (true) {
            size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return line;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - std::chrono::steady_clock::now())
                                  .count();
            if (left <= 0) return "<timeout>";
            pollfd p{from_, POLLIN, 0};
            if (poll(&p, 1, int(left)) <= 0) continue;
            char buf[4096];
            ssize_t n = read(from_, buf, sizeof buf);
            if (n <= 0) return "<eof>";
            buffer_.append(buf, size_t(n));
        }
    }

    // Skips `status` lines; returns the first other line.
    std::string read_reply(int timeout_ms = 10000) {
        while (true) {
            std::string line = read_line(timeout_ms);
            if (line.rfind("status ", 0) != 0) return line;
        }
    }

    int wait_exit(int timeout_ms = 5000) {
        if (to_ >= 0) close(to_);
        to_ = -1;
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                reaped_ = true;
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            usleep(10000);
        }
        return -2;
    }

  private:
    pid_t pid_ = -1;
    int to_ = -1, from_ = -1;
    bool reaped_ = false;
    std::string buffer_;
};

VariantPtr variant_of(const char* rules) {
    auto r = parse_rules(rules);
    REQUIRE(r.ok());
    auto v = Variant::make(*r);
    REQUIRE(v.ok());
    return *v;
}

// Reads the engine's `move` line: exact form, legal in pos. Returns the move.
Move expect_move(Host& host, const Position& pos) {
    const std::string line = host.read_reply();
    INFO("engine said '" << line << "'");
    REQUIRE(line.rfind("move ", 0) == 0);
    CHECK(line.find('\r') == std::string::npos);
    CHECK(line.back() != ' ');
    auto m = parse_legal_move(pos, line.substr(5));
    INFO("legality: " << (m ? std::string("ok") : m.error()));
    REQUIRE(m.ok());
    CHECK(line.substr(5) == move_name(pos.variant(), *m)); // plain from-to
    return *m;
}

const char* side_name(Side s) {
    return s == ATTACKERS ? "attackers" : "defenders";
}

} // namespace

TEST_CASE("otep: hello at once, before and after an early rules line", "[otep]") {
    Host host({"--protocol", "otep"});
    CHECK(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + BRANDUB);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: detected from a first rules line", "[otep]") {
    Host host({});
    host.send(std::string("rules ") + BRANDUB); // sent before hello, as OpenTafl does
    CHECK(host.read_line(2000) == "hello");
    host.send("play attackers");
    Position pos(variant_of(BRANDUB));
    expect_move(host, pos);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: a whole game on both sides, refereed, finish twice then goodbye", "[otep]") {
    for (Side engine_side : {ATTACKERS, DEFENDERS}) {
        for (const char* rules : {BRANDUB, TABLUT}) {
            INFO("engine plays " << side_name(engine_side) << " under " << rules);
            Host host({"--protocol", "otep"});
            REQUIRE(host.read_line(2000) == "hello");
            host.send(std::string("rules ") + rules);
            Position pos(variant_of(rules));
            std::mt19937 rng(7);
            int plies = 0;
            while (!pos.result().over() && plies < 60) {
                if (pos.side_to_move() == engine_side) {
                    // Clock line as OpenTafl writes it: trailing space included.
                    host.send("clock 900 900 0 0 0 ");
                    host.send(std::string("play ") + side_name(engine_side));
                    Move m = expect_move(host, pos);
                    pos.make_move(m);
                    if (!pos.result().over()) host.send("move " + to_opentafl_position(pos));
                } else {
                    MoveList list;
                    generate_moves(pos, list);
                    REQUIRE(list.size() > 0);
                    Move m = list.moves[rng() % list.size()];
                    const std::string record = move_record(pos, m);
                    pos.make_move(m);
                    if (!pos.result().over())
                        host.send("opponent-move " + record + " " + to_opentafl_position(pos));
                }
                ++plies;
            }
            host.send("finish 1");
            host.send("finish 1");
            host.send("goodbye");
            CHECK(host.wait_exit() == 0);
        }
    }
}

TEST_CASE("otep: error 2 makes the engine play another move", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + BRANDUB);
    Position pos(variant_of(BRANDUB));
    std::vector<Move> refused;
    for (int i = 0; i < 3; ++i) {
        host.send("clock 900 900 0 0 0");
        host.send("play attackers");
        Move m = expect_move(host, pos);
        for (Move r : refused) CHECK(m != r);
        refused.push_back(m);
        host.send("error 2");
    }
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: resumed game with several opponent moves at once", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + BRANDUB);
    Position pos(variant_of(BRANDUB));
    std::string moves;
    for (const char* text : {"d2-b2", "d3-c3", "b2-b3", "c3-c2", "a4-a2"}) {
        auto m = parse_legal_move(pos, text);
        REQUIRE(m.ok());
        moves += (moves.empty() ? "" : "|") + move_record(pos, *m);
        pos.make_move(*m);
    }
    host.send("opponent-move " + moves + " " + to_opentafl_position(pos));
    host.send("play defenders");
    Move m = expect_move(host, pos);
    pos.make_move(m);
    host.send("move " + to_opentafl_position(pos));
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: clock in overtime is respected", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + TABLUT);
    Position pos(variant_of(TABLUT));
    // 1.5 s left of the current 5 s overtime period, no main time.
    host.send("clock 1500* 60000 5 2 3 ");
    const auto start = std::chrono::steady_clock::now();
    host.send("play attackers");
    expect_move(host, pos);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    CHECK(ms < 1500);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: position, side and analyze answer with analysis lines", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send(std::string("rules ") + BRANDUB);
    // The defenders have only the king (b6), so every line starts with a king move.
    host.send("position /3t3/7/7/t6/7/1K5/3t3/");
    host.send("side defenders");
    host.send("analyze 2 1");
    const std::string line = host.read_reply();
    INFO(line);
    REQUIRE(line.rfind("analysis 2 ", 0) == 0);
    CHECK(line.find("b6-") != std::string::npos);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}

TEST_CASE("otep: unsupported rules give up with error -1, bad lines get error 0", "[otep]") {
    Host host({"--protocol", "otep"});
    REQUIRE(host.read_line(2000) == "hello");
    host.send("rules dim:7 ber:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    CHECK(host.read_line().rfind("error -1 ", 0) == 0);
    host.send("frobnicate");
    CHECK(host.read_line().rfind("error 0 ", 0) == 0);
    host.send("clock x y z");
    CHECK(host.read_line().rfind("error 0 ", 0) == 0);
    host.send("goodbye");
    CHECK(host.wait_exit() == 0);
}
