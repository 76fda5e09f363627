// libFuzzer target: what the Bologna client reads from the server
// (protocol/bologna_codec.h): frames from a socket, state and move JSON,
// name frames. The first byte picks the reader, the rest is the server's
// bytes. A reader either refuses with a message or gives a value that its
// writer turns back into bytes it reads as the same value; a state's board
// is matched against the moves of Ashton's start as the client does.

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

#include "bologna_codec.h"
#include "edition.h"
#include "movegen.h"
#include "rules.h"

using namespace branan;

namespace {

const EditionPtr& ashton() {
    static const EditionPtr edition = [] {
        auto rules = preset_rules("ashton");
        if (!rules) std::abort();
        auto e = Edition::make(*rules);
        if (!e) std::abort();
        return *e;
    }();
    return edition;
}

// The bytes as a peer that sends them and closes the connection.
void frame(std::string_view bytes) {
    int fds[2];
    if (pipe(fds) != 0) std::abort();
    // A pipe holds 64 KiB; the fuzzer's inputs are shorter.
    if (write(fds[1], bytes.data(), bytes.size()) != ssize_t(bytes.size())) std::abort();
    close(fds[1]);
    const bologna::FrameRead r = bologna::read_frame(fds[0], 1000);
    close(fds[0]);
    if (r.status == bologna::FrameStatus::TIMEOUT) std::abort(); // the peer closed: never a wait
    if (r.status != bologna::FrameStatus::OK) {
        if (r.payload.empty()) std::abort();
        return;
    }
    const std::string encoded = bologna::encode_frame(r.payload);
    if (bytes.substr(0, encoded.size()) != encoded) std::abort();
}

void state(std::string_view json) {
    const Edition& edition = *ashton();
    auto s = bologna::parse_state(edition, json);
    if (!s) {
        if (s.error().empty()) std::abort();
        return;
    }
    auto again = bologna::parse_state(edition, bologna::state_json(edition, s->board, s->turn));
    if (!again || again->board != s->board || again->turn != s->turn) std::abort();
    const Position start(ashton());
    auto m = bologna::find_move(start, s->board);
    if (!m) {
        if (m.error().empty()) std::abort();
        return;
    }
    if (!is_legal(start, *m)) std::abort();
}

void move_json(std::string_view json) {
    const Edition& edition = *ashton();
    auto m = bologna::parse_move_json(edition, json);
    if (!m) {
        if (m.error().empty()) std::abort();
        return;
    }
    if (!bologna::is_json_object(json)) std::abort();
    auto again = bologna::parse_move_json(edition, bologna::move_json(edition, *m, ATTACKERS));
    if (!again || *again != *m) std::abort();
}

void name(std::string_view json) {
    auto n = bologna::parse_name(json);
    if (!n) {
        if (n.error().empty()) std::abort();
        return;
    }
    if (n->size() > 10) std::abort();
    for (unsigned char c : *n)
        if (!std::isalnum(c)) std::abort();
    auto again = bologna::parse_name(bologna::name_json(*n));
    if (!again || *again != *n) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0 || size > 60000) return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 4) {
    case 0:
        frame(bytes);
        break;
    case 1:
        state(bytes);
        break;
    case 2:
        move_json(bytes);
        break;
    case 3:
        name(bytes);
        break;
    }
    return 0;
}
