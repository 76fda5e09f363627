#include "htp.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>

#include "hnefatafl_org_codec.h"
#include "hnefatafl_org_coordinates.h"
#include "logging.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"
#include "text.h"

namespace branan {

namespace {

// The commands, as list_commands prints them.
constexpr std::array<const char*, 17> COMMANDS = {
    "board_size",    "final_status",  "first_move",
    "generate_move", "known_command", "list_commands",
    "name",          "play",          "play_from",
    "play_to",       "play_undo",     "protocol_version",
    "quit",          "show_board",    "show_board_open_tafl",
    "time_settings", "version"};

constexpr int64_t MAX_MINUTES = int64_t(1) << 30;
constexpr int64_t MAX_ADD_SECONDS = int64_t(1) << 30;

// HTP's roles: hnefatafl.org's words, or their first letters, in any case.
std::optional<Side> parse_htp_role(std::string_view text) {
    if (iequals(text, "a") || iequals(text, "attacker")) return ATTACKERS;
    if (iequals(text, "d") || iequals(text, "defender")) return DEFENDERS;
    return std::nullopt;
}

HtpSession::Reply ok(std::string text = "") {
    return {true, std::move(text)};
}
HtpSession::Reply fail(std::string text) {
    return {false, std::move(text)};
}

// Why a move the rules core refused is illegal, in the site's words where
// it has them (ORG src/board.rs `legal_move`, checked in the same order).
std::string refusal(const Position& pos, Side role, Square from, Square to,
                    const std::string& core_error) {
    const Edition& edition = pos.edition();
    const Piece p = pos.piece_on(from);
    if (p == NO_PIECE) return "play: you didn't select a role";
    if (side_of(p) != pos.side_to_move() || role != pos.side_to_move())
        return "play: it isn't your turn";
    const int ff = edition.file_of(from), fr = edition.rank_of(from), tf = edition.file_of(to),
              tr = edition.rank_of(to);
    if (ff != tf && fr != tr) return "play: you can only play in a straight line";
    if (from == to) return "play: you have to change location";
    const int df = (tf > ff) - (tf < ff), dr = (tr > fr) - (tr < fr);
    for (int f = ff + df, r = fr + dr;; f += df, r += dr) {
        if (pos.piece_on(r * edition.size + f) != NO_PIECE)
            return "play: you have to play through empty locations";
        if (f == tf && r == tr) break;
    }
    if (p != KING && test(edition.corners | edition.throne, to))
        return "play: only the king may move to a restricted square";
    if (core_error.find("already reached") != std::string::npos)
        return "play: you already reached that position";
    return "play: " + core_error;
}

// The captured soldiers in the site's order: the four neighbours of the
// arrival square (up, left, down, right on its board, rank 1 at the
// bottom), then any other (shieldwall) captures.
std::vector<Square> captures_in_order(const Edition& edition, Square to, Bitboard captured) {
    std::vector<Square> out;
    const int f = edition.file_of(to), r = edition.rank_of(to);
    const int steps[4][2] = {{0, 1}, {-1, 0}, {0, -1}, {1, 0}};
    for (const auto& st : steps) {
        const int nf = f + st[0], nr = r + st[1];
        if (nf < 0 || nr < 0 || nf >= edition.size || nr >= edition.size) continue;
        const Square s = nr * edition.size + nf;
        if (test(captured, s)) {
            out.push_back(s);
            captured &= ~square_bb(s);
        }
    }
    for_each_square(captured, [&](Square s) { out.push_back(s); });
    return out;
}

// The squares in index order, separated by spaces.
std::string square_list(int size, std::vector<Square> squares) {
    std::sort(squares.begin(), squares.end());
    std::string text;
    for (Square s : squares) {
        if (!text.empty()) text += ' ';
        text += org_square_name(size, s);
    }
    return text;
}

char board_letter(Piece p) {
    return p == ATTACKER ? 'A' : p == DEFENDER ? 'D' : 'K';
}

} // namespace

Result<std::string> htp_rules(int board_size, Side first) {
    if (board_size != 7 && board_size != 11 && board_size != 13)
        return Error{"board_size: expected 7, 11 or 13"};
    auto rules = preset_rules(hnefatafl_org_preset(board_size));
    if (!rules) return Error{rules.error()};
    // The library's counts (HNEFATAFL.md 1.5, 1.7): its play list starts
    // empty, so the 134th ply draws, and its list of earlier boards starts
    // with this size's own start board.
    rules->draw_ply = 134;
    rules->ban_includes_start = true;
    rules->attackers_first = first == ATTACKERS;
    return print_rules(*rules);
}

bool is_htp_command(std::string_view first_word) {
    return std::find(COMMANDS.begin(), COMMANDS.end(), first_word) != COMMANDS.end();
}

HtpSession::HtpSession(Engine& engine, HtpOptions options) : engine_(engine), options_(options) {
    // The site's default game: 11x11, attackers first, no clock.
    [[maybe_unused]] const Status st = start_game();
    assert(st && "the HTP editions are our own presets");
}

HtpSession::~HtpSession() {
    engine_.stop();
    engine_.wait();
}

Status HtpSession::start_game() {
    auto rules = htp_rules(size_, first_);
    if (!rules) return Error{rules.error()};
    if (Status st = engine_.set_rules(*rules); !st) return st;
    engine_.new_game();
    game_.start(Position(engine_.position().edition_ptr()));
    adjudged_ = {};
    left_ms_[0] = left_ms_[1] = minutes_ * 60000;
    clock_since_ = Clock::now();
    return {};
}

GameResult HtpSession::result() const {
    return adjudged_.over() ? adjudged_ : game_.position().result();
}

std::string HtpSession::final_status() const {
    switch (result().winner) {
    case Winner::ATTACKERS:
        return "attacker_wins";
    case Winner::DEFENDERS:
        return "defender_wins";
    case Winner::DRAW:
        return "draw";
    default:
        return "ongoing";
    }
}

std::optional<HtpSession::Reply> HtpSession::handle(std::string_view line) {
    line = line.substr(0, line.find('#'));
    const auto w = split_words(line);
    if (w.empty()) return std::nullopt;
    const std::string_view cmd = w[0];
    if (cmd == "board_size") return cmd_board_size(w);
    if (cmd == "first_move") return cmd_first_move(w);
    if (cmd == "time_settings") return cmd_time_settings(w);
    if (cmd == "play") return cmd_play(w);
    if (cmd == "play_undo") return cmd_play_undo();
    if (cmd == "generate_move") return cmd_generate_move();
    if (cmd == "play_from") return cmd_play_from();
    if (cmd == "play_to") return cmd_play_to(w);
    if (cmd == "final_status") return ok(final_status());
    if (cmd == "show_board") return show_board();
    if (cmd == "show_board_open_tafl") return show_board_open_tafl();
    if (cmd == "known_command") {
        if (w.size() < 2) return fail("expected: known_command COMMAND");
        return ok(is_htp_command(w[1]) ? "true" : "false");
    }
    if (cmd == "list_commands") {
        std::string text;
        for (const char* c : COMMANDS) text += std::string("\n") + c;
        return ok(text);
    }
    if (cmd == "name") return ok("Branan");
    if (cmd == "version") return ok(BRANAN_VERSION);
    if (cmd == "protocol_version") return ok("1-beta");
    if (cmd == "quit") {
        quit_ = true;
        return std::nullopt;
    }
    return fail("unrecognized command: " + printable(cmd));
}

HtpSession::Reply HtpSession::cmd_board_size(const std::vector<std::string_view>& w) {
    if (w.size() < 2) return fail("expected: board_size uint");
    auto n = parse_integer(w[1], 0, 1000);
    if (!n) return fail("board_size: " + n.error());
    const int old_size = size_;
    const Side old_first = first_;
    size_ = int(*n);
    // The site's first mover of that size: the defenders on 7x7.
    first_ = size_ == 7 ? DEFENDERS : ATTACKERS;
    if (Status st = start_game(); !st) {
        size_ = old_size;
        first_ = old_first;
        return fail(st.error());
    }
    return ok();
}

HtpSession::Reply HtpSession::cmd_first_move(const std::vector<std::string_view>& w) {
    auto role = w.size() >= 2 ? parse_htp_role(w[1]) : std::nullopt;
    if (!role) return fail("expected: first_move ROLE");
    first_ = *role;
    if (Status st = start_game(); !st) return fail(st.error());
    return ok();
}

HtpSession::Reply HtpSession::cmd_time_settings(const std::vector<std::string_view>& w) {
    const std::string usage =
        "time_settings: expected 'time_settings un-timed' or 'time_settings fischer MINUTES "
        "ADD_SECONDS'";
    if (w.size() == 2 && w[1] == "un-timed") {
        timed_ = false;
        minutes_ = add_seconds_ = 0;
    } else if (w.size() == 4 && w[1] == "fischer") {
        auto minutes = parse_integer(w[2], 0, MAX_MINUTES);
        if (!minutes) return fail("time_settings: arg 2 is not an integer");
        auto add = parse_integer(w[3], 0, MAX_ADD_SECONDS);
        if (!add) return fail("time_settings: arg 3 is not an integer");
        timed_ = true;
        minutes_ = *minutes;
        add_seconds_ = *add;
    } else {
        return fail(usage);
    }
    if (Status st = start_game(); !st) return fail(st.error());
    return ok();
}

bool HtpSession::charge_clock(Side mover) {
    if (!timed_) return true;
    const Clock::time_point now = Clock::now();
    left_ms_[mover] -=
        std::chrono::duration_cast<std::chrono::milliseconds>(now - clock_since_).count();
    clock_since_ = now;
    if (left_ms_[mover] <= 0) {
        left_ms_[mover] = 0;
        adjudged_ = {mover == ATTACKERS ? Winner::DEFENDERS : Winner::ATTACKERS, EndReason::NONE};
        return false;
    }
    left_ms_[mover] += add_seconds_ * 1000;
    return true;
}

// The move made, and the captured squares as the reply lists them.
Result<std::string> HtpSession::play_move(Side role, Square from, Square to) {
    if (result().over()) return Error{"play: the game is already over"};
    const Edition& edition = game_.position().edition();
    const Move m(from, to);
    if (Status legal = check_move(game_.position(), m); !legal)
        return Error{refusal(game_.position(), role, from, to, legal.error())};
    if (role != game_.position().side_to_move()) return Error{"play: it isn't your turn"};
    // The site's clock: a move made too late loses and is not made.
    if (!charge_clock(role)) return std::string();
    const Square king = game_.position().king_square();
    game_.play(m);
    // The site lists a captured king last.
    const bool king_taken = game_.position().decided().reason == EndReason::KING_CAPTURED;
    Bitboard soldiers = game_.position().last_captured();
    if (king_taken) soldiers &= ~square_bb(king);
    std::vector<Square> captured = captures_in_order(edition, to, soldiers);
    if (king_taken) captured.push_back(king);
    std::string text;
    for (Square s : captured) text += org_square_name(size_, s) + " ";
    return text;
}

HtpSession::Reply HtpSession::cmd_play(const std::vector<std::string_view>& w) {
    const std::string usage = "expected: 'play ROLE FROM TO' or 'play ROLE resigns'";
    if (w.size() < 3) return fail(usage);
    auto role = parse_htp_role(w[1]);
    if (!role) return fail("play: you didn't select a role");
    if (w[2] == "resigns") {
        if (result().over()) return fail("play: the game is already over");
        if (*role != game_.position().side_to_move())
            return fail("play: you can't resign for the other player");
        adjudged_ = {*role == ATTACKERS ? Winner::DEFENDERS : Winner::ATTACKERS, EndReason::NONE};
        return ok();
    }
    if (w.size() < 4) return fail(usage);
    auto from = parse_org_square(size_, w[2]);
    if (!from) return fail(from.error());
    auto to = parse_org_square(size_, w[3]);
    if (!to) return fail(to.error());
    auto captures = play_move(*role, *from, *to);
    if (!captures) return fail(captures.error());
    return ok(*captures);
}

HtpSession::Reply HtpSession::cmd_play_undo() {
    if (adjudged_.over()) {
        // A resignation or a time loss is the last play: it goes first.
        adjudged_ = {};
        return ok();
    }
    if (game_.position().game_ply() == 0) return fail("play undo: it is the first move");
    game_.undo();
    return ok();
}

Result<std::string> HtpSession::generate_move() {
    if (result().over()) return Error{"play: the game is already over"};
    const Side us = game_.position().side_to_move();
    HostClock clock;
    clock.timed = timed_;
    for (Side s : {ATTACKERS, DEFENDERS}) {
        clock.left_ms[s] = left_ms_[s];
        clock.inc_ms[s] = add_seconds_ * 1000;
    }
    // Our clock as it will be charged when the move is made.
    clock.left_ms[us] -= ms_since(clock_since_);
    clock.untimed_ms = options_.movetime_ms;
    // A fixed depth serves untimed games only; a timed game plays its clock.
    const SearchLimits limits = plan_host_limits(clock, us, timed_ ? 0 : options_.depth);
    const Clock::time_point t0 = Clock::now();
    Status st = game_.give_to(engine_);
    Result<Engine::SearchOutcome> outcome = Error{""};
    if (st) {
        outcome = engine_.search_to_end(limits);
        if (!outcome) st = Error{outcome.error()};
    }
    if (!st) return Error{"generate_move: " + st.error()};
    const int64_t delay = ms_since(t0);
    const BestMove best = outcome->best;
    const SearchInfo& last = outcome->last;
    if (!best.best) return Error{"failed to generate move"};
    const std::string play = std::string("play ") + org::role_name(us) + " " +
                             org_square_name(size_, best.best.from()) + " " +
                             org_square_name(size_, best.best.to());
    auto made = play_move(us, best.best.from(), best.best.to());
    if (!made) return Error{"generate_move: " + made.error()};
    if (adjudged_.over()) return Error{"generate_move: the clock ran out before the move"};
    const int64_t score =
        last.mate ? (last.mate > 0 ? 100000 - last.mate : -100000 - last.mate) : int64_t(last.cp);
    logger().info("htp: {} (depth {}, score {}, {} ms)", play, last.depth, score, delay);
    last_details_ = ", score: " + std::to_string(score) +
                    ", delay milliseconds: " + std::to_string(delay) +
                    ", loops: " + std::to_string(engine_.last_search_nodes());
    if (engine_.show_wdl())
        last_details_ += ", wdl: " + std::to_string(last.wdl.win) + " " +
                         std::to_string(last.wdl.draw) + " " + std::to_string(last.wdl.loss);
    return play;
}

HtpSession::Reply HtpSession::cmd_generate_move() {
    auto play = generate_move();
    if (!play) return fail(play.error());
    return ok(*play + last_details_);
}

HtpSession::Reply HtpSession::cmd_play_from() const {
    const Side us = game_.position().side_to_move();
    std::vector<Square> from;
    if (!result().over()) {
        MoveList list;
        generate_moves(game_.position(), list);
        for (Move m : list)
            if (std::find(from.begin(), from.end(), m.from()) == from.end())
                from.push_back(m.from());
    }
    return ok(std::string(org::role_name(us)) + " " + square_list(size_, from));
}

HtpSession::Reply HtpSession::cmd_play_to(const std::vector<std::string_view>& w) const {
    if (w.size() < 3) return fail("play to: expected 'play_to role vertex'");
    auto role = parse_htp_role(w[1]);
    if (!role) return fail("play to: expected 'play_to role vertex'");
    auto from = parse_org_square(size_, w[2]);
    if (!from) return fail("play: invalid vertex");
    const Side us = game_.position().side_to_move();
    if (*role != us)
        return fail(std::string("tried play_to ") + org::role_name(*role) + ", but it's " +
                    org::role_name(us) + " turn");
    std::vector<Square> to;
    if (!result().over()) {
        MoveList list;
        generate_moves(game_.position(), list);
        for (Move m : list)
            if (m.from() == *from) to.push_back(m.to());
    }
    if (to.empty()) return fail("play: invalid vertex");
    return ok(square_list(size_, to));
}

// The site's board drawing (ORG src/board.rs, its ASCII form): letters
// above and below, ranks on both sides, `#` on an empty corner or throne.
HtpSession::Reply HtpSession::show_board() const {
    const Edition& edition = game_.position().edition();
    std::string letters = "   ";
    for (int f = 0; f < size_; ++f) letters += std::string(" ") + char('A' + f);
    std::string bar;
    for (int i = 0; i < 2 * size_ + 1; ++i) bar += "\u2500";
    std::string text = "\n" + letters + "\n  \u250c" + bar + "\u2510\n";
    for (int r = size_ - 1; r >= 0; --r) {
        char label[12];
        std::snprintf(label, sizeof label, "%2d", r + 1);
        text += std::string(label) + "\u2502 ";
        for (int f = 0; f < size_; ++f) {
            const Square s = r * size_ + f;
            const Piece p = game_.position().piece_on(s);
            char c = p == ATTACKER ? 'X' : p == DEFENDER ? 'O' : p == KING ? 'K' : '.';
            if (p == NO_PIECE && test(edition.corners | edition.throne, s)) c = '#';
            text += std::string(1, c) + " ";
        }
        text += "\u2502" + std::string(label) + "\n";
    }
    text += "  \u2514" + bar + "\u2518\n" + letters;
    return ok(text);
}

// The board as an OpenTafl-style record, top rank first, A D K.
HtpSession::Reply HtpSession::show_board_open_tafl() const {
    std::string text = "/";
    for (int r = size_ - 1; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < size_; ++f) {
            const Piece p = game_.position().piece_on(r * size_ + f);
            if (p == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) text += std::to_string(empty);
            empty = 0;
            text += board_letter(p);
        }
        if (empty) text += std::to_string(empty);
        text += "/";
    }
    return ok(text);
}

void run_htp(Engine& engine, const HtpOptions& options, const std::string& first_line,
             LineReader& reader, std::ostream& out) {
    HtpSession session(engine, options);
    auto answer = [&](std::string_view line) {
        auto reply = session.handle(line);
        if (!reply) return;
        if (reply->ok)
            out << "= " << reply->text << "\n";
        else
            out << "? " << reply->text << "\n\n";
        out.flush();
    };
    if (!first_line.empty()) answer(first_line);
    std::string line;
    while (!session.quit()) {
        const LineReader::Status st = reader.next(line);
        if (st == LineReader::Status::END) break;
        if (st == LineReader::Status::TOO_LONG) {
            out << "? line too long\n\n" << std::flush;
            continue;
        }
        answer(line);
    }
}

} // namespace branan
