#include "notation.h"

#include "coordinates.h"
#include "placement.h"
#include "text.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace branan {
inline namespace BRANAN_BOARD_NS {

Result<Position> parse_tfen(EditionPtr edition, std::string_view text) {
    auto fields = parse_tfen_fields(edition->size, text);
    if (!fields) return Error{fields.error()};
    auto pos = Position::from_placement(std::move(edition), fields->board, fields->side,
                                        fields->plies_since_capture, fields->fullmove);
    if (!pos) return Error{"tfen: " + pos.error()};
    return pos;
}

std::string to_tfen(const Position& pos) {
    std::string s;
    const Placement board = pos.placement();
    for (int rank = pos.size() - 1; rank >= 0; --rank) {
        s += placement_row(pos.size(), board, rank);
        if (rank) s += '/';
    }
    s += pos.side_to_move() == ATTACKERS ? " a " : " d ";
    s += std::to_string(pos.plies_since_capture()) + " " + std::to_string(pos.fullmove());
    return s;
}

Result<Position> parse_opentafl_position(EditionPtr edition, std::string_view text, Side to_move) {
    auto board = parse_opentafl_placement(edition->size, text);
    if (!board) return Error{"opentafl position: " + board.error()};
    auto pos = Position::from_placement(std::move(edition), *board, to_move, 0, 1);
    if (!pos) return Error{"opentafl position: " + pos.error()};
    return pos;
}

std::string to_opentafl_position(const Position& pos) {
    return to_opentafl_position_record(pos.size(), pos.placement());
}

std::string square_name(const Edition& edition, Square s) {
    return square_text(edition.size, s);
}

namespace {
// Reads a square at the front of `text`, advancing it.
Result<Square> take_square(const Edition& edition, std::string_view& text, std::string_view whole) {
    if (text.empty() || text[0] < 'a' || text[0] > 'z')
        return Error{"move '" + printable(whole) + "': expected a square"};
    const int file = text[0] - 'a';
    size_t i = 1;
    int rank = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i < 4)
        rank = rank * 10 + (text[i++] - '0');
    if (i == 1) return Error{"move '" + printable(whole) + "': expected a rank after the file"};
    if (text[1] == '0' && i > 2)
        return Error{"move '" + printable(whole) + "': a rank does not start with 0"};
    const std::string sq(text.substr(0, i));
    if (file >= edition.size || rank < 1 || rank > edition.size)
        return Error{"move '" + printable(whole) + "': square " + printable(sq) +
                     " is off the board"};
    text.remove_prefix(i);
    return edition.square(file, rank - 1);
}
} // namespace

Result<Square> parse_square(const Edition& edition, std::string_view text) {
    std::string_view rest = text;
    auto s = take_square(edition, rest, text);
    if (!s) return s;
    if (!rest.empty()) return Error{"bad square '" + printable(text) + "'"};
    return s;
}

std::string move_name(const Edition& edition, Move m) {
    return square_name(edition, m.from()) + "-" + square_name(edition, m.to());
}

namespace {
// Skips the piece letter OpenTafl's full records put before a square
// ("Ne5", "xcb6"): a letter followed by a file letter.
void skip_piece_letter(std::string_view& text) {
    if (text.size() >= 2 && is_opentafl_piece_letter(text[0]) && text[1] >= 'a' && text[1] <= 'z')
        text.remove_prefix(1);
}
} // namespace

Result<Move> parse_move(const Edition& edition, std::string_view text) {
    std::string_view rest = text;
    skip_piece_letter(rest);
    auto from = take_square(edition, rest, text);
    if (!from) return Error{from.error()};
    // '-' a move, '^' a jump, '=' a chain's later move (OpenTafl's records).
    if (!rest.empty() && (rest[0] == '-' || rest[0] == '^')) rest.remove_prefix(1);
    if (!rest.empty() && rest[0] == '=') rest.remove_prefix(1);
    auto to = take_square(edition, rest, text);
    if (!to) return Error{to.error()};
    // OpenTafl's capture list and king suffixes are read and ignored.
    if (!rest.empty()) {
        if (rest[0] == 'x') {
            rest.remove_prefix(1);
            while (!rest.empty() &&
                   ((rest[0] >= 'a' && rest[0] <= 'z') || (rest[0] >= 'A' && rest[0] <= 'Z'))) {
                skip_piece_letter(rest);
                auto cap = take_square(edition, rest, text);
                if (!cap) return Error{cap.error()};
                if (!rest.empty() && rest[0] == '/') rest.remove_prefix(1);
            }
        }
        if (rest == "+" || rest == "-" || rest == "++" || rest == "--") rest = {};
        if (!rest.empty())
            return Error{"move '" + printable(text) + "': unexpected '" + printable(rest) + "'"};
    }
    if (*from == *to)
        return Error{"move '" + printable(text) + "': from and to are the same square"};
    if (edition.file_of(*from) != edition.file_of(*to) &&
        edition.rank_of(*from) != edition.rank_of(*to))
        return Error{"move '" + printable(text) + "': pieces move along a rank or a file"};
    return Move(*from, *to);
}

Status check_move(const Position& pos, Move m) {
    const Edition& edition = pos.edition();
    if (m.from() >= edition.num_squares || m.to() >= edition.num_squares)
        return Error{"move: a square is off the board"};
    const std::string name = move_name(edition, m);
    // As parse_move says it, for a move that did not come as text.
    if (m.from() == m.to())
        return Error{"move " + single_quoted(name) + ": from and to are the same square"};
    if (edition.file_of(m.from()) != edition.file_of(m.to()) &&
        edition.rank_of(m.from()) != edition.rank_of(m.to()))
        return Error{"move " + single_quoted(name) + ": pieces move along a rank or a file"};
    if (pos.decided().over()) return Error{"move " + name + ": the game is over"};
    const Piece p = pos.piece_on(m.from());
    if (p == NO_PIECE)
        return Error{"move " + name + ": no piece on " + square_name(edition, m.from())};
    if (side_of(p) != pos.side_to_move())
        return Error{"move " + name + ": the piece on " + square_name(edition, m.from()) +
                     " belongs to the " + (side_of(p) == ATTACKERS ? "attackers" : "defenders") +
                     ", but the " + (pos.side_to_move() == ATTACKERS ? "attackers" : "defenders") +
                     " are to move"};
    if (!test(move_targets(pos, m.from()), m.to())) {
        if (pos.piece_on(m.to()) != NO_PIECE)
            return Error{"move " + name + ": " + square_name(edition, m.to()) + " is occupied"};
        return Error{"move " + name +
                     ": illegal (the path is blocked or the piece may not stop on " +
                     square_name(edition, m.to()) + ")"};
    }
    if (pos.recreates_board(m))
        return Error{"move " + name +
                     ": you already reached that position (the defenders may not recreate an "
                     "earlier board)"};
    // In a Berserk chain only the piece that captured moves on, and only as
    // the rules let it (ber:c: captures only).
    if (pos.berserker() != NO_SQUARE && m.from() != pos.berserker())
        return Error{"move " + name + ": in this turn only the piece on " +
                     square_name(edition, pos.berserker()) + " moves on"};
    if (!is_legal(pos, m))
        return Error{"move " + name + ": illegal here (the turn's piece has no such move)"};
    return {};
}

Result<Move> parse_legal_move(const Position& pos, std::string_view text) {
    auto m = parse_move(pos.edition(), text);
    if (!m) return m;
    if (Status st = check_move(pos, *m); !st) return Error{st.error()};
    return m;
}

std::string move_record(const Position& before, Move m) {
    const Edition& edition = before.edition();
    Position after = before;
    after.make_move(m);
    // Commanders and knights are named by their letter, as OpenTafl does.
    auto named = [&](Square s) {
        const Piece p = before.placed_piece(s);
        std::string name;
        if (p > KING) name += letter_of_piece(p);
        name += square_name(edition, s);
        return name;
    };
    std::string s = named(m.from());
    if (edition.special_moves && berserk::is_jump(before, m))
        s += '^';
    else if (before.berserker() == NO_SQUARE)
        s += '-';
    if (before.berserker() != NO_SQUARE) s += '=';
    s += square_name(edition, m.to());
    Bitboard caps = after.last_captured();
    if (caps) {
        s += 'x';
        bool first = true;
        for_each_square(caps, [&](Square c) {
            if (before.piece_on(c) == KING) return;
            if (!first) s += '/';
            s += named(c);
            first = false;
        });
        if (first) s.pop_back();
    }
    const GameResult& d = after.decided();
    if (d.reason == EndReason::KING_CAPTURED)
        s += "++";
    else if (d.reason == EndReason::KING_ESCAPED)
        s += "--";
    return s;
}

namespace {

// A move record taken apart, the pieces' letters dropped.
struct RecordParts {
    std::string move;                  // "from-to"
    std::vector<std::string> captures; // after 'x', and after the status
    std::string status;                // the '+' and '-' after the move
};

// Takes a square ("e5", with an optional piece letter first) off the front.
std::optional<std::string> take_square_text(std::string_view& rest) {
    if (rest.size() >= 3 && is_opentafl_piece_letter(rest[0]) && rest[1] >= 'a' && rest[1] <= 's')
        rest.remove_prefix(1);
    if (rest.empty() || rest[0] < 'a' || rest[0] > 's') return std::nullopt;
    size_t n = 1;
    while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
    if (n == 1) return std::nullopt;
    std::string square(rest.substr(0, n));
    rest.remove_prefix(n);
    return square;
}

std::optional<RecordParts> split_record(std::string_view text) {
    RecordParts r;
    std::string_view rest = text;
    auto from = take_square_text(rest);
    // '-' a move, '^' a jump, '=' a berserk chain's later move, '^=' both.
    if (!from || rest.empty() || std::string_view("-^=").find(rest[0]) == std::string_view::npos)
        return std::nullopt;
    if (rest[0] == '^' && rest.size() > 1 && rest[1] == '=') rest.remove_prefix(1);
    rest.remove_prefix(1);
    auto to = take_square_text(rest);
    if (!to) return std::nullopt;
    r.move = *from + "-" + *to;
    auto take_list = [&]() -> bool {
        while (true) {
            auto sq = take_square_text(rest);
            if (!sq) return false;
            r.captures.push_back(*sq);
            if (rest.empty() || rest[0] != '/') return true;
            rest.remove_prefix(1);
        }
    };
    if (!rest.empty() && rest[0] == 'x') {
        rest.remove_prefix(1);
        if (!take_list()) return std::nullopt;
    }
    while (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
        r.status += rest[0];
        rest.remove_prefix(1);
    }
    if (!rest.empty() && !take_list()) return std::nullopt;
    if (!rest.empty()) return std::nullopt;
    return r;
}

} // namespace

Result<Move> read_record_move(const Position& before, std::string_view written) {
    const auto parts = split_record(written);
    if (!parts) return Error{"not a move record"};
    auto m = parse_legal_move(before, parts->move);
    if (!m) return m;
    const std::string ours = move_record(before, *m);
    Position after = before;
    after.make_move(*m);
    const Edition& edition = before.edition();
    const bool king_taken = after.decided().reason == EndReason::KING_CAPTURED;
    const std::string king = king_taken ? square_name(edition, before.king_square()) : "";
    std::vector<std::string> captured;
    for_each_square(after.last_captured(), [&](Square s) {
        if (s != before.king_square()) captured.push_back(square_name(edition, s));
    });
    std::vector<std::string> listed;
    bool king_listed = false;
    for (const std::string& c : parts->captures) {
        if (king_taken && c == king)
            king_listed = true;
        else
            listed.push_back(c);
    }
    std::sort(captured.begin(), captured.end());
    std::sort(listed.begin(), listed.end());
    const std::string& st = parts->status;
    bool end_agrees;
    if (king_taken)
        end_agrees = st == "++" || (king_listed && st.empty());
    else if (after.decided().reason == EndReason::KING_ESCAPED)
        end_agrees = st == "--";
    else
        end_agrees = st.empty() || st == "+" || st == "-";
    if (listed != captured || !end_agrees)
        return Error{"by the rules it is '" + ours + "' (its captures or end differ)"};
    return m;
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
