#include "htp_referee.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "logging.h"
#include "socket.h"
#include "text.h"

namespace branan {

namespace {

constexpr int CONNECT_TIMEOUT_MS = 10000;
constexpr int WRITE_TIMEOUT_MS = 10000;

// Lines from a socket; the referee may think (or wait for the other
// engine) as long as it likes, so reads have no deadline. A line longer
// than MAX_LINE_LENGTH is skipped, never held whole.
class SocketLines {
  public:
    enum class Status { LINE, TOO_LONG, CLOSED };

    explicit SocketLines(int fd) : fd_(fd) {}
    // CLOSED when the peer has closed the connection (or it failed).
    Status next(std::string& line) {
        while (true) {
            const size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                if (skipping_) {
                    skipping_ = false;
                    return Status::TOO_LONG;
                }
                if (!line.empty() && line.back() == '\r') line.pop_back();
                return Status::LINE;
            }
            if (buffer_.size() > MAX_LINE_LENGTH) {
                skipping_ = true;
                buffer_.clear();
            }
            char chunk[4096];
            const ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return Status::CLOSED;
            buffer_.append(chunk, size_t(n));
        }
    }

  private:
    int fd_;
    std::string buffer_;
    bool skipping_ = false; // inside a line too long to keep
};

} // namespace

int run_htp_referee_client(Engine& engine, const HtpOptions& options, const std::string& host,
                           int port, std::ostream& out, std::ostream& err) {
    auto fd = connect_to(host, port, CONNECT_TIMEOUT_MS);
    if (!fd) {
        err << "branan: error: " << fd.error() << "\n";
        return 1;
    }
    logger().info("htp: connected to the referee at {}:{}", host, port);
    HtpSession session(engine, options);
    SocketLines lines(*fd);
    std::string line;
    int status = 0;
    while (true) {
        const SocketLines::Status got = lines.next(line);
        if (got == SocketLines::Status::CLOSED) break;
        if (got == SocketLines::Status::TOO_LONG) {
            logger().warn("htp: the referee sent a line longer than {} bytes: ignored",
                          MAX_LINE_LENGTH);
            continue;
        }
        logger().debug("htp referee > {}", printable(line, 200));
        const auto w = split_words(line);
        if (w.empty()) continue;
        if (w[0] == "generate_move") {
            auto play = session.generate_move();
            if (!play) {
                err << "branan: error: " << play.error() << "\n";
                status = 1;
                break;
            }
            logger().debug("htp referee < {}", *play);
            std::string error;
            if (!write_all(*fd, *play + "\n", WRITE_TIMEOUT_MS, error)) {
                err << "branan: error: " << error << "\n";
                status = 1;
                break;
            }
            continue;
        }
        auto reply = session.handle(line);
        if (w[0] == "play" && reply && !reply->ok) {
            // The referee forwards only moves it accepted: we are out of step.
            err << "branan: error: the referee's '" << printable(line, 80)
                << "' cannot be played here: " << reply->text << "\n";
            status = 1;
            break;
        }
        if (reply && w[0] != "play") out << (reply->ok ? "= " : "? ") << reply->text << "\n";
        if (session.quit()) break;
    }
    logger().info("htp: the referee closed the connection; {}", session.final_status());
    out << "final_status " << session.final_status() << "\n" << std::flush;
    close(*fd);
    return status;
}

} // namespace branan
