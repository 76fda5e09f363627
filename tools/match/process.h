#pragma once

// A child process with its stdin and stdout on pipes: fork/exec, line
// writes, line reads with a deadline (poll), and a hard kill. Nothing here
// knows a protocol.

#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace branan::match {

using Clock = std::chrono::steady_clock;

class ChildProcess {
  public:
    ChildProcess() = default;
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Starts argv[0] (looked up in PATH when it has no '/') with the given
    // arguments in `dir` (empty: the current directory). The child's stderr
    // goes to `stderr_path` (empty: inherited). Returns false with a message
    // when the pipes or fork fail; an exec failure shows as end of file.
    bool start(const std::vector<std::string>& argv, const std::string& dir,
               const std::string& stderr_path, std::string& error);

    // Writes one line (a '\n' is added). False when the child has gone.
    bool write_line(const std::string& line);

    enum class ReadStatus { LINE, TIMEOUT, END };
    // Reads one line (without '\n' or '\r') before `deadline`.
    ReadStatus read_line(std::string& line, Clock::time_point deadline);

    bool running() const { return pid_ > 0; }
    // Whether the child has exited (reaps it). Leaves a running child alone.
    bool exited();
    // SIGKILL to the child's process group, then waits for it.
    void kill();
    // Closes stdin, waits up to `grace` for the child to exit, then kills it.
    void close(std::chrono::milliseconds grace);
    pid_t pid() const { return pid_; }
    // How the child ended, once it has: "exit code N" or "signal N".
    const std::string& exit_description() const { return exit_; }

  private:
    void reap(int status);
    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    std::string buffer_;
    bool eof_ = false;
    std::string exit_;
};

// Ignores SIGPIPE for the whole process (writes to a dead child then fail
// with EPIPE instead of killing us). Called once before the first start.
void ignore_sigpipe();

} // namespace branan::match
