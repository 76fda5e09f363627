#pragma once

// POSIX TCP sockets for the clients of game servers (the Bologna client,
// the hnefatafl.org bot) and for the fake servers of the tests: connect
// with a deadline, write everything with a deadline, listen on loopback,
// accept with a deadline. Errors come back as values naming the cause.

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "types.h"

namespace branan {

// Owns a socket and closes it however the scope ends.
class Socket {
  public:
    Socket() = default;
    explicit Socket(int fd) : fd_(fd) {}
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    Socket(Socket&& other) noexcept : fd_(other.release()) {}
    Socket& operator=(Socket&& other) noexcept {
        if (this != &other) reset(other.release());
        return *this;
    }
    ~Socket() { reset(); }

    int fd() const { return fd_; }
    bool is_open() const { return fd_ >= 0; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset(int fd = -1);

  private:
    int fd_ = -1;
};

using SocketClock = std::chrono::steady_clock;
// Milliseconds left until `deadline`, for poll(): -1 = no deadline, 0 = past.
int poll_ms(bool forever, SocketClock::time_point deadline);
// The system's text for the last error (errno).
std::string errno_text();

// Writes all of `bytes`; false with `error` set when the peer is gone or
// the socket stays full past the deadline (timeout_ms < 0 waits for ever).
bool write_all(int fd, std::string_view bytes, int timeout_ms, std::string& error);

// A TCP connection to host:port (a name or an address). Returns the socket
// or an error such as "cannot connect to 127.0.0.1:5800: Connection refused".
Result<int> connect_to(const std::string& host, int port, int timeout_ms);
// TCP keepalive probes after `idle_s` seconds of silence, so that a peer
// that vanished without closing is noticed on a long-idle connection.
void set_keepalive(int fd, int idle_s);
// A listening socket on 127.0.0.1 (port 0 = an ephemeral port).
Result<int> listen_loopback(int port);
int local_port(int fd);
// Waits up to timeout_ms for a connection; -1 (with `error` set) if none.
int accept_within(int listen_fd, int timeout_ms, std::string& error);

// Text lines from a socket: the bytes read so far, cut at each "\n" (a
// trailing "\r" is dropped). A line longer than `max_length` is an error
// of the peer: it is cut there rather than held whole.
class LineBuffer {
  public:
    explicit LineBuffer(size_t max_length = 1 << 20) : max_length_(max_length) {}
    void feed(std::string_view bytes) { buffer_ += bytes; }
    // The next complete line, or false when none is complete yet.
    bool next(std::string& line);
    void clear() {
        buffer_.clear();
        scanned_ = 0;
        release_if_idle();
    }
    // The bytes of memory the buffer holds (its capacity): back under
    // HELD_WHEN_IDLE once an overlong line has been read past.
    size_t held_bytes() const { return buffer_.capacity(); }
    static constexpr size_t HELD_WHEN_IDLE = 64 * 1024;

  private:
    // A long-running client meets an overlong line now and then; the
    // megabyte it took is given back rather than kept for the next one.
    void release_if_idle() {
        if (buffer_.capacity() > HELD_WHEN_IDLE && buffer_.size() <= HELD_WHEN_IDLE / 2)
            buffer_.shrink_to_fit();
    }

    size_t max_length_;
    std::string buffer_;
    size_t scanned_ = 0; // bytes of buffer_ known to hold no '\n'
};

enum class ReadStatus { DATA, TIMEOUT, CLOSED, ERROR };

// Waits up to timeout_ms (< 0: for ever) for bytes and appends what one
// recv() gives to `lines`; `error` says why on CLOSED and ERROR.
ReadStatus read_some(int fd, int timeout_ms, LineBuffer& lines, std::string& error);

} // namespace branan
