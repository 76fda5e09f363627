#pragma once

// A child process (the real branan binary by default) with its stdin and
// stdout on pipes, for end-to-end tests that play the host or the GUI.
// Every read has a deadline, so a hang fails a test instead of blocking it.

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

namespace branan::testutil {

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

} // namespace branan::testutil
