#pragma once

// The hnefatafl.org bot's connection: the socket, the lines received and
// the login (HNEFATAFL.md 4.2), with what the server says about when to try
// again. No game in it: the bot (hnefatafl_org_client.cpp) decides what a
// dropped connection means for its games, through `on_drop`.

#include <cstdint>
#include <functional>
#include <string>

#include "hnefatafl_org_client.h"
#include "socket.h"

namespace branan::org {

enum class LoginOutcome { OK, RETRY, FATAL };

struct Login {
    LoginOutcome outcome = LoginOutcome::OK;
    std::string error; // FATAL: what the user is told
};

class ServerConnection {
  public:
    // `on_drop` runs when an open connection is lost (not when a refused
    // login closes it: the bot had nothing on it yet).
    ServerConnection(const HnefataflOrgOptions& options, std::function<void()> on_drop)
        : o_(options), on_drop_(std::move(on_drop)) {}

    bool is_open() const { return socket_.is_open(); }
    // Open and past the login: lines are the bot's to read.
    bool logged_in() const { return socket_.is_open() && logged_in_; }
    // Connects and logs in. While it waits for the answer (reply timeout)
    // it calls `idle` (a search may end meanwhile).
    Login login(const std::function<void()>& idle);
    // Sends one line; `shown` is what the log says instead (the login line
    // with its password masked). False when the connection is lost.
    bool send(const std::string& line, const std::string& shown = "");
    // Reads what arrived within `timeout_ms` (lines come from next_line);
    // the connection is dropped when the server closed it or on an error.
    ReadStatus read(int timeout_ms);
    bool next_line(std::string& line);
    // Drops an open connection (`why` in the log and last_error).
    void drop(const std::string& why);

    // Why the last attempt or connection failed.
    const std::string& last_error() const { return last_error_; }
    // UTC ms before which the server refuses a new login (retried_too_soon).
    int64_t retry_at_ms() const { return retry_at_ms_; }

  private:
    Login refused(const std::string& line, const std::vector<std::string_view>& w);

    const HnefataflOrgOptions& o_;
    std::function<void()> on_drop_;
    Socket socket_;
    LineBuffer lines_;
    std::string last_error_;
    bool logged_in_ = false;
    bool logged_in_once_ = false;
    int64_t retry_at_ms_ = 0;
};

} // namespace branan::org
