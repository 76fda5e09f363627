#include "game_file.h"

#include <cctype>
#include <optional>

#include "hnefatafl_org_coordinates.h"
#include "match_record.h"
#include "notation.h"
#include "text.h"
#include "uci.h"

namespace branan {

const char* to_string(GameFormat f) {
    switch (f) {
    case GameFormat::BRANAN_MATCH:
        return "branan-match record";
    case GameFormat::OPENTAFL:
        return "OpenTafl game file";
    case GameFormat::MOVE_LIST:
        return "move list";
    case GameFormat::POSITION_LINE:
        return "position line";
    case GameFormat::TFEN_AND_MOVES:
        return "TFEN and moves";
    }
    return "?";
}

namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::string line_name(int line) {
    return "line " + std::to_string(line);
}

bool is_result_word(std::string_view w) {
    return w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "\xC2\xBD-\xC2\xBD" || w == "*";
}

// The moves of a move list's line: turn numbers ("1.", "12...", or glued
// to the move, "1.d1-d3") and result words are not moves.
void add_listed_moves(std::string_view line, int number, GameText& game) {
    for (std::string_view w : split_words(line)) {
        size_t digits = 0;
        while (digits < w.size() && std::isdigit(static_cast<unsigned char>(w[digits]))) ++digits;
        if (digits > 0 && digits < w.size() && w[digits] == '.') {
            w.remove_prefix(digits);
            while (!w.empty() && w.front() == '.') w.remove_prefix(1);
        }
        if (w.empty() || is_result_word(w)) continue;
        game.moves.push_back({std::string(w), number});
    }
}

Result<GameText> parse_match_record(std::string_view text) {
    auto record = match::parse_record(text, line_name);
    if (!record) return Error{record.error()};
    GameText game;
    game.format = GameFormat::BRANAN_MATCH;
    game.rules = *record->field("Rules");
    const std::string* root = record->field("Opening-Root");
    const std::string* opening = record->field("Opening-Moves");
    if (root && opening) {
        // From the opening's root: the book's moves are part of the game.
        if (*root != "startpos") game.start = *root;
        for (std::string_view m : split_words(*opening))
            game.moves.push_back({std::string(m), record->line_of("Opening-Moves")});
    } else {
        game.start = *record->field("Start");
    }
    for (const match::RecordPly& p : record->plies) game.moves.push_back({p.move, p.line});
    for (const char* key : {"Attackers", "Defenders", "Edition", "Opening", "Result", "Reason"})
        if (const std::string* v = record->field(key)) game.tags.emplace_back(key, *v);
    return game;
}

Result<GameText> parse_opentafl_game(const std::vector<std::string_view>& lines) {
    GameText game;
    game.format = GameFormat::OPENTAFL;
    size_t i = 0;
    for (; i < lines.size(); ++i) {
        const std::string_view line = trimmed(lines[i]);
        if (line.empty()) break;
        const size_t colon = line.find(':');
        if (line.front() != '[' || line.back() != ']' || colon == std::string_view::npos)
            return Error{line_name(int(i) + 1) + ": expected a '[tag:value]' line"};
        const std::string key(line.substr(1, colon - 1));
        const std::string value(line.substr(colon + 1, line.size() - colon - 2));
        if (key == "rules")
            game.rules = value;
        else
            game.tags.emplace_back(key, value);
    }
    if (game.rules.empty()) return Error{"the OpenTafl game file has no [rules:...] tag"};
    // The turns, the comments in brackets taken out (they may run over lines).
    bool in_comment = false;
    for (; i < lines.size(); ++i) {
        std::string kept;
        for (char c : lines[i]) {
            if (!in_comment && c == '[')
                in_comment = true;
            else if (in_comment && c == ']')
                in_comment = false;
            else if (!in_comment)
                kept += c;
        }
        add_listed_moves(kept, int(i) + 1, game);
    }
    if (in_comment) return Error{"a comment '[' is never closed"};
    return game;
}

// Where the `moves` start in a position line's words, to name their line.
Result<GameText> parse_position_line(const std::vector<std::string_view>& lines, size_t first) {
    for (size_t i = first + 1; i < lines.size(); ++i) {
        const std::string_view line = trimmed(lines[i]);
        if (!line.empty() && line.front() != '#')
            return Error{line_name(int(i) + 1) +
                         ": a position line is the whole game; nothing may follow it"};
    }
    std::vector<std::string_view> words = split_words(lines[first]);
    words.erase(words.begin());
    auto command = uci::parse_position(words);
    if (!command) return Error{line_name(int(first) + 1) + ": " + command.error()};
    GameText game;
    game.format = GameFormat::POSITION_LINE;
    game.start = command->tfen;
    for (const std::string& m : command->moves) game.moves.push_back({m, int(first) + 1});
    return game;
}

// A move list's move names a capture by a bare 'x' at its end ("e6-e3x").
bool has_bare_capture(std::string_view text) {
    return text.size() >= 2 && text.back() == 'x' &&
           std::isdigit(static_cast<unsigned char>(text[text.size() - 2]));
}

// Whether a move's text lists what it takes or how the game ends (then it
// must agree with the rules).
bool lists_outcome(std::string_view text) {
    const size_t x = text.find('x');
    return (x != std::string_view::npos && x + 1 < text.size()) ||
           text.find("++") != std::string_view::npos || text.find("--") != std::string_view::npos;
}

// The squares of "d1-d3" written in hnefatafl.org's names (`0d1`, `D1`).
std::optional<std::pair<Square, Square>> org_squares(int size, std::string_view text) {
    const size_t dash = text.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    auto from = parse_org_square(size, text.substr(0, dash));
    auto to = parse_org_square(size, text.substr(dash + 1));
    if (!from || !to) return std::nullopt;
    return std::pair{*from, *to};
}

// A move as a file wrote it, in `pos`; `strict`: its captures and end are
// checked whether or not it lists them (the formats that always do).
Result<Move> read_written_move(const Position& pos, std::string_view text, bool strict) {
    if (strict || lists_outcome(text)) return read_record_move(pos, text);
    const bool bare_capture = has_bare_capture(text);
    if (bare_capture) text.remove_suffix(1);
    auto move = parse_legal_move(pos, text);
    if (!move) {
        // hnefatafl.org's names of squares.
        if (auto squares = org_squares(pos.size(), text)) {
            auto org = parse_legal_move(pos, square_name(pos.edition(), squares->first) + "-" +
                                                 square_name(pos.edition(), squares->second));
            if (org) move = org;
        }
    }
    if (!move) return move;
    if (bare_capture) {
        Position after = pos;
        after.make_move(*move);
        if (!after.last_captured())
            return Error{"it is written as a capture, but it takes nothing here"};
    }
    return move;
}

} // namespace

Result<GameText> parse_game_text(std::string_view text) {
    const std::vector<std::string_view> lines = split(text, '\n');
    size_t first = 0;
    while (first < lines.size() && trimmed(lines[first]).empty()) ++first;
    if (first == lines.size()) return Error{"the file holds no game (it is empty)"};
    const std::string_view head = trimmed(lines[first]);
    if (head.rfind("# branan-match game record", 0) == 0) return parse_match_record(text);
    if (head.front() == '[') {
        std::vector<std::string_view> rest(lines.begin() + long(first), lines.end());
        auto game = parse_opentafl_game(rest);
        if (!game) return Error{game.error()}; // lines count from `first`
        for (auto& m : game->moves) m.line += int(first);
        return game;
    }
    if (head.rfind("position ", 0) == 0) return parse_position_line(lines, first);
    GameText game;
    size_t i = first;
    if (split_words(head)[0].find('/') != std::string_view::npos) {
        game.format = GameFormat::TFEN_AND_MOVES;
        game.start = std::string(head);
        ++i;
    }
    for (; i < lines.size(); ++i) {
        const std::string_view line = trimmed(lines[i]);
        if (line.empty() || line.front() == '#') continue;
        add_listed_moves(line, int(i) + 1, game);
    }
    if (game.format == GameFormat::MOVE_LIST && game.moves.empty())
        return Error{"no moves found (a game file is a branan-match record, an OpenTafl game "
                     "file, a move list, a position line, or a TFEN and moves)"};
    return game;
}

Result<ReplayedGame> replay_game(const GameText& game, EditionPtr edition) {
    Position pos(edition);
    if (!game.start.empty()) {
        auto start = parse_tfen(edition, game.start);
        if (!start) return Error{"the start position: " + start.error()};
        pos = *start;
    }
    ReplayedGame replayed{pos, {}};
    const bool strict =
        game.format == GameFormat::BRANAN_MATCH || game.format == GameFormat::OPENTAFL;
    for (size_t i = 0; i < game.moves.size(); ++i) {
        const GameText::WrittenMove& written = game.moves[i];
        const std::string at = "ply " + std::to_string(i + 1) + " (" + line_name(written.line) +
                               ") '" + printable(written.text) + "': ";
        if (const GameResult r = pos.result(); r.over())
            return Error{at + "the game is already over (" + to_string(r.winner) + ", " +
                         to_string(r.reason) + ")"};
        auto move = read_written_move(pos, written.text, strict);
        if (!move) return Error{at + move.error()};
        pos.make_move(*move);
        replayed.moves.push_back(*move);
    }
    return replayed;
}

} // namespace branan
