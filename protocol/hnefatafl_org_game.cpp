#include "hnefatafl_org_game.h"

#include <algorithm>
#include <cstdio>

#include "hnefatafl_org_coordinates.h"
#include "notation.h"

namespace branan::org {

int64_t BotGame::clock_now(Side s) const {
    int64_t left = ms_left[s];
    if (has_position() && position().side_to_move() == s) left -= ms_since(clock_at);
    return left;
}

bool BotGame::our_turn() const {
    return state == GameState::RUNNING && synced && has_position() && !position().result().over() &&
           position().side_to_move() == ours;
}

std::string BotGame::clock_text() const {
    if (!time.timed) return "untimed";
    char text[40];
    std::snprintf(text, sizeof text, "%.1f s left",
                  double(std::max<int64_t>(clock_now(ours), 0)) / 1000);
    return text;
}

Status BotGame::start(const JoinGame& j, const std::string& user) {
    auto e = server_edition(j.board_size);
    if (!e) return Error{e.error()};
    state = GameState::RUNNING;
    size = j.board_size;
    edition = *e;
    game.start(Position(edition));
    root_ply = 0;
    ours = j.attacker == user ? ATTACKERS : DEFENDERS;
    opponent = ours == ATTACKERS ? j.defender : j.attacker;
    time = j.time;
    ms_left = {j.time.ms, j.time.ms};
    clock_at = Clock::now();
    synced = true;
    draw_offered = false;
    return {};
}

Result<bool> BotGame::resume(const ResumedGame& r, const std::string& user, int64_t utc_now_ms,
                             std::string& note) {
    auto e = server_edition(r.board_size);
    if (!e) return Error{e.error()};
    Position p(*e);
    int root_plies = 0;
    std::vector<std::string> records = r.moves;
    const bool resigned = !records.empty() && records.back() == "---";
    if (resigned) records.pop_back();
    for (const std::string& text : records) {
        auto m = parse_move_text(p, text);
        if (!m) {
            // Judged otherwise by the server: play on from the board.
            note = m.error();
            auto placed = position_from_records(*e, records);
            if (!placed) return Error{placed.error()};
            p = std::move(*placed);
            root_plies = int(records.size());
            break;
        }
        p.make_move(*m);
    }
    if (r.attacker == user)
        ours = ATTACKERS;
    else if (r.defender == user)
        ours = DEFENDERS;
    opponent = ours == ATTACKERS ? r.defender : r.attacker;
    size = r.board_size;
    edition = *e;
    root_ply = root_plies;
    // The same board as before (the server did not take a move of ours):
    // the moves it refused on it stay refused.
    std::vector<Move> refused;
    if (game.started() && game.position().key() == p.key()) refused = game.refused_moves();
    game.start(std::move(p));
    for (Move m : refused) game.refuse(m);
    time = r.time;
    ms_left = r.ms_left;
    clock_at = Clock::now();
    if (r.time.timed)
        if (auto at = parse_utc_ms(r.last_move_utc)) {
            // The side to move's clock has run since the last move.
            const int64_t ran = std::clamp<int64_t>(utc_now_ms - *at, 0, 3'600'000);
            clock_at -= std::chrono::milliseconds(ran);
        }
    state = GameState::RUNNING;
    synced = true;
    draw_offered = false; // a pending offer is sent again (4.8.5)
    return resigned;
}

Result<Move> BotGame::opponent_move(Side role, std::string_view from_text,
                                    std::string_view to_text) const {
    auto from = parse_org_square(edition->size, from_text);
    if (!from) return Error{from.error()};
    auto to = parse_org_square(edition->size, to_text);
    if (!to) return Error{to.error()};
    if (position().side_to_move() != role)
        return Error{"not the opponent's turn in the position the bot follows"};
    const Move m(*from, *to);
    if (Status st = check_move(position(), m); !st) return Error{st.error()};
    return m;
}

void BotGame::apply(Move m) {
    game.play(m);
    draw_offered = false; // any move clears an offer
}

} // namespace branan::org
