#include "process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace branan::match {

void ignore_sigpipe() {
    static bool done = false;
    if (done) return;
    done = true;
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, nullptr);
}

ChildProcess::~ChildProcess() {
    kill();
}

bool ChildProcess::start(const std::vector<std::string>& argv, const std::string& dir,
                         const std::string& stderr_path, std::string& error) {
    kill();
    ignore_sigpipe();
    buffer_.clear();
    eof_ = false;
    exit_.clear();
    if (argv.empty()) {
        error = "no command";
        return false;
    }
    int in[2], out[2];
    // O_CLOEXEC: another thread may fork a different engine at the same
    // time, and that child must not inherit these ends (EOF would never come).
    if (pipe2(in, O_CLOEXEC) != 0) {
        error = std::string("pipe: ") + std::strerror(errno);
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        error = std::string("pipe: ") + std::strerror(errno);
        ::close(in[0]);
        ::close(in[1]);
        return false;
    }
    // Everything the child needs is prepared before fork: between fork and
    // exec only async-signal-safe calls are allowed.
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const char* cdir = dir.empty() ? nullptr : dir.c_str();
    const char* errpath = stderr_path.empty() ? nullptr : stderr_path.c_str();

    pid_t pid = fork();
    if (pid < 0) {
        error = std::string("fork: ") + std::strerror(errno);
        for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
        return false;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (errpath) {
            int fd = open(errpath, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd >= 0) dup2(fd, 2);
        }
        if (cdir && chdir(cdir) != 0) _exit(127);
        execvp(args[0], args.data());
        _exit(127);
    }
    setpgid(pid, pid); // also from here, so the group exists before any kill
    ::close(in[0]);
    ::close(out[1]);
    pid_ = pid;
    to_child_ = in[1];
    from_child_ = out[0];
    return true;
}

bool ChildProcess::write_line(const std::string& line) {
    if (to_child_ < 0) return false;
    std::string data = line + "\n";
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(to_child_, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += size_t(n);
    }
    return true;
}

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line, Clock::time_point deadline) {
    while (true) {
        size_t nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            while (!line.empty() &&
                   (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
                line.pop_back();
            return ReadStatus::LINE;
        }
        if (eof_ || from_child_ < 0) {
            if (!buffer_.empty()) { // a last line without '\n'
                line = buffer_;
                buffer_.clear();
                return ReadStatus::LINE;
            }
            return ReadStatus::END;
        }
        auto now = Clock::now();
        if (now >= deadline) return ReadStatus::TIMEOUT;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        struct pollfd p {
            from_child_, POLLIN, 0
        };
        int r = ::poll(&p, 1, int(std::min<long long>(left + 1, 1 << 30)));
        if (r < 0) {
            if (errno == EINTR) continue;
            eof_ = true;
            continue;
        }
        if (r == 0) continue; // the loop re-checks the deadline
        char buf[4096];
        ssize_t n = ::read(from_child_, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            eof_ = true;
        } else if (n == 0) {
            eof_ = true;
        } else {
            buffer_.append(buf, size_t(n));
            if (buffer_.size() > (1u << 20)) { // a runaway line: keep the tail
                buffer_.erase(0, buffer_.size() - (1u << 16));
            }
        }
    }
}

void ChildProcess::reap(int status) {
    if (WIFEXITED(status))
        exit_ = "exit code " + std::to_string(WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        exit_ = "signal " + std::to_string(WTERMSIG(status));
    pid_ = -1;
}

bool ChildProcess::exited() {
    if (pid_ <= 0) return true;
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
        reap(status);
        return true;
    }
    return false;
}

void ChildProcess::kill() {
    if (to_child_ >= 0) ::close(to_child_);
    to_child_ = -1;
    if (pid_ > 0) {
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
        int status = 0;
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
        reap(status);
    }
    if (from_child_ >= 0) ::close(from_child_);
    from_child_ = -1;
}

void ChildProcess::close(std::chrono::milliseconds grace) {
    if (to_child_ >= 0) ::close(to_child_);
    to_child_ = -1;
    auto deadline = Clock::now() + grace;
    while (pid_ > 0 && Clock::now() < deadline) {
        if (exited()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    kill();
}

} // namespace branan::match
