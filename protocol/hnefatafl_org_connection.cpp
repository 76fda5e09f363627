#include "hnefatafl_org_connection.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "clock.h"
#include "hnefatafl_org_codec.h"
#include "logging.h"
#include "text.h"

namespace branan::org {

namespace {

// As the site's own bot does: a server gone silent is noticed.
constexpr int KEEPALIVE_IDLE_S = 30;
constexpr int SEND_TIMEOUT_MS = 10'000;
// How long one wait for the login's answer lasts before `idle` runs.
constexpr int LOGIN_POLL_MS = 50;
// A retried_too_soon time is waited out with this much to spare.
constexpr int64_t RETRY_SPARE_MS = 1000;

} // namespace

Login ServerConnection::login(const std::function<void()>& idle) {
    auto fd = connect_to(o_.host, o_.port, o_.connect_timeout_ms);
    if (!fd) {
        last_error_ = fd.error();
        logger().warn("hnefatafl-org: {}", fd.error());
        return {LoginOutcome::RETRY, {}};
    }
    socket_.reset(*fd);
    logged_in_ = false;
    set_keepalive(socket_.fd(), KEEPALIVE_IDLE_S);
    lines_.clear();
    logger().info("hnefatafl-org: connected to {}:{}", o_.host, o_.port);
    const std::string head = o_.version_id + " login " + o_.user;
    if (!send(head + " " + o_.password, head + " ********")) return {LoginOutcome::RETRY, {}};
    const auto deadline = Clock::now() + std::chrono::milliseconds(o_.reply_timeout_ms);
    while (Clock::now() < deadline) {
        std::string line;
        while (lines_.next(line)) {
            logger().debug("hnefatafl-org: received {}", printable(line, 1000));
            const auto w = split_words(line);
            if (w.size() >= 2 && w[0] == "=" && w[1] == "login") {
                logger().info("hnefatafl-org: logged in as {}", o_.user);
                logged_in_ = logged_in_once_ = true;
                return {LoginOutcome::OK, {}};
            }
            if (w.size() >= 2 && w[0] == "?" && w[1] == "login") return refused(line, w);
        }
        std::string error;
        const int left = int(std::max<int64_t>(1, ms_until(deadline)));
        const ReadStatus r = read_some(socket_.fd(), std::min(left, LOGIN_POLL_MS), lines_, error);
        if (r == ReadStatus::CLOSED || r == ReadStatus::ERROR) {
            drop("during the login: " + error);
            return {LoginOutcome::RETRY, {}};
        }
        idle();
    }
    drop("no answer to the login within " + std::to_string(o_.reply_timeout_ms) + " ms");
    return {LoginOutcome::RETRY, {}};
}

Login ServerConnection::refused(const std::string& line, const std::vector<std::string_view>& w) {
    auto has = [&](std::string_view word) {
        return std::find(w.begin(), w.end(), word) != w.end();
    };
    const std::string shown = printable(line, 200);
    socket_.reset();
    lines_.clear();
    if (has("wrong_version"))
        return {LoginOutcome::FATAL, "the server refuses the version id " + o_.version_id + " (`" +
                                         shown +
                                         "`): its version changed; pass the current one with "
                                         "--version-id (HNEFATAFL.md 4.2)"};
    const bool busy = has("logged_in_already") || has("retried_too_soon");
    const bool wrong = has("wrong_password") || has("account_not_in_database");
    for (size_t i = 0; i + 1 < w.size(); ++i)
        if (w[i] == "retried_too_soon")
            if (auto at = parse_utc_ms(w[i + 1])) retry_at_ms_ = *at + RETRY_SPARE_MS;
    if (busy && !wrong) {
        last_error_ = "login: " + shown;
        logger().warn("hnefatafl-org: the server says {}; retrying", shown);
        return {LoginOutcome::RETRY, {}};
    }
    if (!wrong && logged_in_once_) {
        // The same account and password worked before on this run: an
        // unexplained refusal after a drop is the old session still open.
        last_error_ = "login: " + shown;
        logger().warn("hnefatafl-org: the server says {} after a reconnect; retrying", shown);
        return {LoginOutcome::RETRY, {}};
    }
    return {LoginOutcome::FATAL,
            "the server refuses the login of " + o_.user + " (`" + shown +
                "`): a wrong password, an account that does not exist or a name it does not "
                "accept"};
}

bool ServerConnection::send(const std::string& line, const std::string& shown) {
    if (!socket_.is_open()) return false;
    std::string error;
    if (!write_all(socket_.fd(), line + "\n", SEND_TIMEOUT_MS, error)) {
        logger().warn("hnefatafl-org: cannot send: {}", error);
        drop(error);
        return false;
    }
    logger().debug("hnefatafl-org: sent {}", shown.empty() ? line : shown);
    return true;
}

ReadStatus ServerConnection::read(int timeout_ms) {
    std::string error;
    const ReadStatus r = read_some(socket_.fd(), timeout_ms, lines_, error);
    if (r == ReadStatus::CLOSED || r == ReadStatus::ERROR) drop(error);
    return r;
}

bool ServerConnection::next_line(std::string& line) {
    if (!socket_.is_open() || !lines_.next(line)) return false;
    // A line may be as long as the reader's bound: the log shows its start.
    logger().debug("hnefatafl-org: received {}", printable(line, 1000));
    return true;
}

void ServerConnection::drop(const std::string& why) {
    if (!socket_.is_open()) return;
    logger().warn("hnefatafl-org: connection lost: {}", why);
    last_error_ = why;
    socket_.reset();
    lines_.clear();
    on_drop_();
}

} // namespace branan::org
