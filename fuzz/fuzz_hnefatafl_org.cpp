// libFuzzer target: what the hnefatafl.org bot reads from the server
// (protocol/hnefatafl_org_codec.h): clocks, the new_game, game_time,
// games_updated and resume_game_json JSON, join_game words, moves and
// times. The first byte picks the reader, the rest is the server's text.
// A reader either refuses with a message or gives a value that its writer
// turns back into text it reads as the same value; a resumed game's moves
// are replayed on its board.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
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

void time_control(std::string_view text) {
    auto t = org::parse_time_control(text);
    check_refusal(t);
    if (!t) return;
    auto again = org::parse_time_control(org::to_string(*t));
    if (!again || !(*again == *t)) std::abort();
}

void new_game(std::string_view text) {
    auto g = org::parse_new_game_json(text);
    check_refusal(g);
    if (!g) return;
    const std::string json = org::new_game_json(*g);
    auto again = org::parse_new_game_json(json);
    if (!again || org::new_game_json(*again) != json) std::abort();
}

void join_game(std::string_view text) {
    auto j = org::parse_join_game(split_words(text));
    check_refusal(j);
    if (!j) return;
    const std::string words = org::join_game_words(*j);
    auto again = org::parse_join_game(split_words(words));
    if (!again || org::join_game_words(*again) != words) std::abort();
}

void game_time(std::string_view text) {
    auto t = org::parse_game_time_json(text);
    check_refusal(t);
    if (!t) return;
    const std::string json = org::game_time_json(*t);
    auto again = org::parse_game_time_json(json);
    if (!again || org::game_time_json(*again) != json) std::abort();
}

void games_updated(std::string_view text) {
    for (const auto& [id, size] : org::games_updated_sizes(text))
        if (size <= 0) std::abort();
}

void resume_game(std::string_view text) {
    auto g = org::parse_resume_game_json(text);
    check_refusal(g);
    if (!g) return;
    const std::string json = org::resume_game_json(*g);
    auto again = org::parse_resume_game_json(json);
    if (!again || org::resume_game_json(*again) != json) std::abort();
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
