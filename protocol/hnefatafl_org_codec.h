#pragma once

// hnefatafl.org's bot connection (../shared/HNEFATAFL.md section 4): the
// rules its server judges by for each board size, its square notation, and
// the JSON and word formats of its lines. Shared by the bot
// (hnefatafl_org_client.h) and the fake server of the tests
// (tools/hnefatafl_org/). Every error a peer can cause comes back as a
// value naming what was wrong; nothing throws.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"
#include "rules.h"

namespace branan::org {

constexpr const char* DEFAULT_HOST = "hnefatafl.org";
constexpr int DEFAULT_PORT = 49152;
// The server refuses a login whose version id differs from its own
// (`? login wrong_version`); this is the deployed one (HNEFATAFL.md 4.2).
constexpr const char* VERSION_ID = "32d9a140";

// ------------------------------------------------------------------ rules

// The rules of a server game on a board of `size` squares a side: 11 ->
// the hnefatafl-org preset, 13 -> hnefatafl-org-13, 7 ->
// hnefatafl-org-brandubh; any other size is refused.
Result<Rules> server_rules(int size);
Result<EditionPtr> server_edition(int size);

// ------------------------------------------------------------------ words

// "attacker" / "defender", the roles of the server's lines.
const char* role_name(Side s);
std::optional<Side> parse_role(std::string_view word);

// Squares in the server's notation: hnefatafl_org_coordinates.h.

// ------------------------------------------------------------------ games

// A Fischer clock (milliseconds at the start, seconds added per move) or
// none.
struct TimeControl {
    bool timed = true;
    int64_t ms = 900'000;
    int add_s = 10;
    bool operator==(const TimeControl&) const = default;
};
// "900000+10" (milliseconds + seconds) or "untimed".
Result<TimeControl> parse_time_control(std::string_view text);
std::string to_string(const TimeControl& t);

// The `new_game` JSON: the creator's role, rated, the clock, the board
// size, all four required (the server answers nothing to a JSON missing
// one).
struct NewGame {
    Side role = ATTACKERS;
    bool rated = false;
    TimeControl time;
    int board_size = 11;
};
std::string new_game_json(const NewGame& g);
Result<NewGame> parse_new_game_json(std::string_view json);

// `= join_game ATTACKER DEFENDER rated|unrated fischer MS ADD|un-timed _ _ SIZE`
// (the words after "= join_game").
struct JoinGame {
    std::string attacker, defender;
    bool rated = false;
    TimeControl time;
    int board_size = 11;
};
std::string join_game_words(const JoinGame& j);
Result<JoinGame> parse_join_game(const std::vector<std::string_view>& words);

// `= game_time {"id":41,"attacker_ms_left":897412,"defender_ms_left":900000}`
struct GameTime {
    int64_t id = 0;
    std::array<int64_t, 2> ms_left{}; // index Side
};
std::string game_time_json(const GameTime& t);
Result<GameTime> parse_game_time_json(std::string_view json);

// The board size of a game in `= games_updated {...}` (created and updated
// games), for the challenges to games this run did not create.
std::vector<std::pair<int64_t, int>> games_updated_sizes(std::string_view json);

// `= resume_game_json {...}`: the game as the server keeps it.
struct ResumedGame {
    int64_t id = 0;
    std::string attacker, defender;
    int board_size = 11;
    std::string start; // "/3AAAAA3/.../" (A D K, top rank first)
    TimeControl time;  // timed = false: "time_control" null
    std::array<int64_t, 2> ms_left{};
    std::string last_move_utc;      // "2026-06-24T19:57:38.07Z": when ms_left was true
    std::vector<std::string> moves; // "d1-d3", "d3-d2xe2", "---" (a resignation)
    bool rated = false;
};
std::string resume_game_json(const ResumedGame& g);
Result<ResumedGame> parse_resume_game_json(std::string_view json);

// The `start` field of a position: its placement, A D K, top rank first.
std::string start_text(const Position& pos);
// A move of the `moves` field, "from-to" plus "x<square>" per capture (the
// king never), for a legal move of `before`.
std::string move_text(const Position& before, Move m);
// The move of a record ("d1-d3", "d3-d2xe2"; lowercase squares, "0a1" or
// uppercase accepted), legal in `pos`.
Result<Move> parse_move_text(const Position& pos, std::string_view text);

// The position the records give, moved and captured as they say without
// judging them, with no history: for a game whose moves do not replay
// under Branan's rules (the server judged them otherwise).
Result<Position> position_from_records(const EditionPtr& edition,
                                       const std::vector<std::string>& moves);

// ISO 8601 UTC ("2026-06-24T19:57:38.07Z") <-> milliseconds since 1970.
std::optional<int64_t> parse_utc_ms(std::string_view text);
std::string utc_text(int64_t ms_since_epoch);

} // namespace branan::org
