#include "socket.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace branan {

namespace {
using Clock = SocketClock;
} // namespace

int poll_ms(bool forever, Clock::time_point deadline) {
    if (forever) return -1;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return int(std::clamp<int64_t>(left, 0, 1 << 30));
}

std::string errno_text() {
    return std::strerror(errno);
}

void Socket::reset(int fd) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
}

bool write_all(int fd, std::string_view bytes, int timeout_ms, std::string& error) {
    const bool forever = timeout_ms < 0;
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    size_t sent = 0;
    while (sent < bytes.size()) {
        pollfd p{fd, POLLOUT, 0};
        const int ready = poll(&p, 1, poll_ms(forever, deadline));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) {
            error = ready == 0 ? "the peer does not read (write timed out)"
                               : "cannot write to the socket: " + errno_text();
            return false;
        }
        // MSG_NOSIGNAL: a closed peer is an error to report, not SIGPIPE.
        const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) {
            error = "cannot write to the socket: " + errno_text();
            return false;
        }
        sent += size_t(n);
    }
    return true;
}

Result<int> connect_to(const std::string& host, int port, int timeout_ms) {
    const std::string where = host + ":" + std::to_string(port);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
        return Error{"cannot connect to " + where + ": " + gai_strerror(rc)};
    std::string last = "no address";
    for (addrinfo* a = found; a; a = a->ai_next) {
        const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            last = errno_text();
            continue;
        }
        // Non-blocking connect so the attempt has a deadline.
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        int rc = connect(fd, a->ai_addr, a->ai_addrlen);
        if (rc < 0 && errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            rc = poll(&p, 1, timeout_ms);
            if (rc == 0) {
                errno = ETIMEDOUT;
                rc = -1;
            } else if (rc > 0) {
                int so_error = 0;
                socklen_t len = sizeof so_error;
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
                errno = so_error;
                rc = so_error ? -1 : 0;
            }
        }
        if (rc == 0) {
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            const int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            freeaddrinfo(found);
            return fd;
        }
        last = errno_text();
        close(fd);
    }
    freeaddrinfo(found);
    return Error{"cannot connect to " + where + ": " + last};
}

void set_keepalive(int fd, int idle_s) {
    const int one = 1, idle = idle_s, interval = std::max(1, idle_s / 3), probes = 4;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
}

Result<int> listen_loopback(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return Error{"cannot create a socket: " + errno_text()};
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 || listen(fd, 4) < 0) {
        std::string e = "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + errno_text();
        close(fd);
        return Error{e};
    }
    return fd;
}

int local_port(int fd) {
    sockaddr_in addr{};
    socklen_t len = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) < 0) return -1;
    return ntohs(addr.sin_port);
}

int accept_within(int listen_fd, int timeout_ms, std::string& error) {
    while (true) {
        pollfd p{listen_fd, POLLIN, 0};
        const int ready = poll(&p, 1, timeout_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) {
            error = ready == 0 ? "no connection within " + std::to_string(timeout_ms) + " ms"
                               : "cannot accept: " + errno_text();
            return -1;
        }
        const int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0 && errno == EINTR) continue;
        if (fd < 0) error = "cannot accept: " + errno_text();
        if (fd >= 0) {
            const int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        }
        return fd;
    }
}

bool LineBuffer::next(std::string& line) {
    // Only the bytes fed since the last look can hold the end of the line:
    // a long line is scanned once, not once per piece that arrives.
    const size_t end = buffer_.find('\n', scanned_);
    if (end == std::string::npos) {
        scanned_ = buffer_.size();
        if (buffer_.size() <= max_length_) return false;
        line = buffer_.substr(0, max_length_);
        buffer_.erase(0, max_length_);
        scanned_ = buffer_.size();
        release_if_idle();
        return true;
    }
    line = buffer_.substr(0, end);
    buffer_.erase(0, end + 1);
    scanned_ = 0;
    release_if_idle();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
}

ReadStatus read_some(int fd, int timeout_ms, LineBuffer& lines, std::string& error) {
    while (true) {
        pollfd p{fd, POLLIN, 0};
        const int ready = poll(&p, 1, timeout_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) {
            error = "cannot read from the socket: " + errno_text();
            return ReadStatus::ERROR;
        }
        if (ready == 0) return ReadStatus::TIMEOUT;
        char buf[8192];
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) {
            error = "cannot read from the socket: " + errno_text();
            return ReadStatus::ERROR;
        }
        if (n == 0) {
            error = "the connection was closed";
            return ReadStatus::CLOSED;
        }
        lines.feed(std::string_view(buf, size_t(n)));
        return ReadStatus::DATA;
    }
}

} // namespace branan
