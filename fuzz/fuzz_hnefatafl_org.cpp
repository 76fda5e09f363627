// libFuzzer target: what the hnefatafl.org bot reads from the server
// (protocol/hnefatafl_org_codec.h): clocks, the new_game, game_time,
// games_updated and resume_game_json JSON, join_game words, moves and
// times. The first byte picks the reader, the rest is the server's text.
// A reader either refuses with a message or gives a value that its writer
// turns back into text it reads as the same value; a resumed game's moves
// are replayed on its board.

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hnefatafl_org_codec.h"
#include "movegen.h"
#include "text.h"

using namespace branan;

namespace {

template <typename T>
void check_refusal(const Result<T>& r) {
    if (!r && r.error().empty()) std::abort();
}

// The text read, written and read again: the same value, the same text.
// Returns the value read (nullopt when refused, with a message).
template <typename Parse, typename Write>
auto round_trip(std::string_view text, Parse parse, Write write) {
    auto value = parse(text);
    check_refusal(value);
    using Value = std::decay_t<decltype(*value)>;
    if (!value) return std::optional<Value>();
    const std::string written = write(*value);
    auto again = parse(written);
    if (!again || write(*again) != written) std::abort();
    return std::optional<Value>(*value);
}

void time_control(std::string_view text) {
    round_trip(text, org::parse_time_control,
               [](const org::TimeControl& t) { return org::to_string(t); });
}

void new_game(std::string_view text) {
    round_trip(text, org::parse_new_game_json, org::new_game_json);
}

void join_game(std::string_view text) {
    round_trip(
        text, [](std::string_view t) { return org::parse_join_game(split_words(t)); },
        org::join_game_words);
}

void game_time(std::string_view text) {
    round_trip(text, org::parse_game_time_json, org::game_time_json);
}

void games_updated(std::string_view text) {
    for (const auto& [id, size] : org::games_updated_sizes(text))
        if (size <= 0) std::abort();
}

void resume_game(std::string_view text) {
    const auto g = round_trip(text, org::parse_resume_game_json, org::resume_game_json);
    if (!g) return;
    if (!g->last_move_utc.empty()) (void)org::parse_utc_ms(g->last_move_utc);
    auto edition = org::server_edition(g->board_size);
    check_refusal(edition);
    if (!edition) return;
    auto pos = org::position_from_records(*edition, g->moves);
    check_refusal(pos);
    if (pos && org::start_text(*pos).empty()) std::abort();
}

// A move on each board size's start position, and its text read back.
void move_text(std::string_view text) {
    for (int size : {7, 11, 13}) {
        auto edition = org::server_edition(size);
        if (!edition) std::abort();
        const Position pos(*edition);
        auto m = org::parse_move_text(pos, text);
        check_refusal(m);
        if (!m) continue;
        MoveList legal;
        generate_moves(pos, legal);
        if (!legal.contains(*m)) std::abort();
        auto again = org::parse_move_text(pos, org::move_text(pos, *m));
        if (!again || *again != *m) std::abort();
    }
}

void utc(std::string_view text) {
    auto ms = org::parse_utc_ms(text);
    if (!ms) return;
    auto again = org::parse_utc_ms(org::utc_text(*ms));
    if (!again || *again != *ms) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 8) {
    case 0:
        time_control(text);
        break;
    case 1:
        new_game(text);
        break;
    case 2:
        join_game(text);
        break;
    case 3:
        game_time(text);
        break;
    case 4:
        games_updated(text);
        break;
    case 5:
        resume_game(text);
        break;
    case 6:
        move_text(text);
        break;
    case 7:
        utc(text);
        break;
    }
    return 0;
}
