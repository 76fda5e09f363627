#include "notation.h"

#include "coordinates.h"
#include "text.h"

#include <vector>

namespace branan {

namespace {

// One row of a placement: letters and runs of empty squares. `row_name`
// says where the row is, for error messages.
Status parse_row(std::string_view row, int size, const std::string& row_name,
                 std::array<Piece, MAX_SQUARES>& board, int rank, bool opentafl) {
    int file = 0;
    size_t i = 0;
    while (i < row.size()) {
        char c = row[i];
        if (c >= '0' && c <= '9') {
            if (c == '0') return Error{row_name + ": a run of empty squares starts with 0"};
            int run = 0;
            while (i < row.size() && row[i] >= '0' && row[i] <= '9') {
                run = run * 10 + (row[i] - '0');
                if (run > 99) break;
                ++i;
            }
            if (run == 0) return Error{row_name + ": an empty run of 0 squares"};
            file += run;
            if (file > size) break;
            continue;
        }
        Piece p;
        switch (c) {
        case 't':
            p = ATTACKER;
            break;
        case 'T':
            p = DEFENDER;
            break;
        case 'K':
            p = KING;
            break;
        case 'k':
            if (opentafl) return Error{row_name + ": an attacking king ('k') is not supported"};
            [[fallthrough]];
        case 'c':
        case 'n':
        case 'm':
        case 'g':
        case 'C':
        case 'N':
        case 'M':
        case 'G':
            if (opentafl)
                return Error{row_name + ": special piece '" + std::string(1, c) +
                             "' (berserk variants) is not supported"};
            [[fallthrough]];
        default:
            return Error{row_name + ": unknown letter '" + printable(std::string_view(&c, 1)) +
                         "'"};
        }
        if (file >= size) {
            ++file;
            break;
        }
        board[rank * size + file] = p;
        ++file;
        ++i;
    }
    if (file != size)
        return Error{row_name + " has " +
                     (file > size ? "more than " + std::to_string(size) : std::to_string(file)) +
                     " files, expected " + std::to_string(size)};
    return {};
}

Result<int> parse_counter(std::string_view text, const char* what, int lo) {
    auto n = parse_integer(text, lo, 1000000);
    if (!n) return Error{std::string("tfen: ") + what + ": " + n.error()};
    // A TFEN counter is written plainly: no sign and no leading zero.
    if (text[0] == '+' || (text.size() > 1 && text[0] == '0'))
        return Error{std::string("tfen: ") + what + ": '" + printable(text) +
                     "' is not written as a plain number"};
    return int(*n);
}

std::string placement_rows(const Position& pos, int rank) {
    std::string s;
    int empty = 0;
    for (int f = 0; f < pos.size(); ++f) {
        Piece p = pos.piece_on(rank * pos.size() + f);
        if (p == NO_PIECE) {
            ++empty;
            continue;
        }
        if (empty) s += std::to_string(empty);
        empty = 0;
        s += p == ATTACKER ? 't' : p == DEFENDER ? 'T' : 'K';
    }
    if (empty) s += std::to_string(empty);
    return s;
}

} // namespace

Result<Position> parse_tfen(EditionPtr edition, std::string_view text) {
    const int n = edition->size;
    auto fields = split_words(text);
    if (fields.empty()) return Error{"tfen: empty"};
    if (fields.size() < 2) return Error{"tfen: missing side to move ('a' or 'd')"};
    if (fields.size() > 4)
        return Error{"tfen: unexpected text after the move number: '" + printable(fields[4]) + "'"};
    auto ranks = split(fields[0], '/');
    if (int(ranks.size()) != n)
        return Error{"tfen: " + std::to_string(ranks.size()) + " ranks, expected " +
                     std::to_string(n) + " for a " + std::to_string(n) + "x" + std::to_string(n) +
                     " board"};
    std::array<Piece, MAX_SQUARES> board{};
    for (int i = 0; i < n; ++i) {
        const int rank = n - 1 - i;
        if (Status st = parse_row(ranks[i], n, "tfen: rank " + std::to_string(rank + 1), board,
                                  rank, false);
            !st)
            return Error{st.error()};
    }
    Side side;
    if (fields[1] == "a")
        side = ATTACKERS;
    else if (fields[1] == "d")
        side = DEFENDERS;
    else
        return Error{"tfen: side to move must be 'a' or 'd', got '" + printable(fields[1]) + "'"};
    int plies = 0, fullmove = 1;
    if (fields.size() > 2) {
        auto c = parse_counter(fields[2], "plies since capture", 0);
        if (!c) return Error{c.error()};
        plies = *c;
    }
    if (fields.size() > 3) {
        auto c = parse_counter(fields[3], "move number", 1);
        if (!c) return Error{c.error()};
        fullmove = *c;
    }
    auto pos = Position::from_placement(std::move(edition), board, side, plies, fullmove);
    if (!pos) return Error{"tfen: " + pos.error()};
    return pos;
}

std::string to_tfen(const Position& pos) {
    std::string s;
    for (int rank = pos.size() - 1; rank >= 0; --rank) {
        s += placement_rows(pos, rank);
        if (rank) s += '/';
    }
    s += pos.side_to_move() == ATTACKERS ? " a " : " d ";
    s += std::to_string(pos.plies_since_capture()) + " " + std::to_string(pos.fullmove());
    return s;
}

Result<std::array<Piece, MAX_SQUARES>> parse_opentafl_placement(int size, std::string_view text) {
    if (text.size() < 2 || text.front() != '/' || text.back() != '/')
        return Error{"position record must start and end with '/'"};
    auto rows = split(text.substr(1, text.size() - 2), '/');
    if (int(rows.size()) != size)
        return Error{"position record has " + std::to_string(rows.size()) + " rows, expected " +
                     std::to_string(size)};
    std::array<Piece, MAX_SQUARES> board{};
    for (int rank = 0; rank < size; ++rank)
        if (Status st =
                parse_row(rows[rank], size, "row " + std::to_string(rank + 1), board, rank, true);
            !st)
            return Error{st.error()};
    return board;
}

std::string to_opentafl_position_record(int size, const std::array<Piece, MAX_SQUARES>& board) {
    std::string s = "/";
    for (int rank = 0; rank < size; ++rank) {
        int empty = 0;
        for (int f = 0; f < size; ++f) {
            Piece p = board[rank * size + f];
            if (p == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) s += std::to_string(empty);
            empty = 0;
            s += p == ATTACKER ? 't' : p == DEFENDER ? 'T' : 'K';
        }
        if (empty) s += std::to_string(empty);
        s += '/';
    }
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
    std::array<Piece, MAX_SQUARES> board{};
    for (Square s = 0; s < pos.edition().num_squares; ++s) board[s] = pos.piece_on(s);
    return to_opentafl_position_record(pos.size(), board);
}

std::string square_name(const Edition& v, Square s) {
    return square_text(v.size, s);
}

namespace {
// Reads a square at the front of `text`, advancing it.
Result<Square> take_square(const Edition& v, std::string_view& text, std::string_view whole) {
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
    if (file >= v.size || rank < 1 || rank > v.size)
        return Error{"move '" + printable(whole) + "': square " + printable(sq) +
                     " is off the board"};
    text.remove_prefix(i);
    return v.square(file, rank - 1);
}
} // namespace

Result<Square> parse_square(const Edition& v, std::string_view text) {
    std::string_view rest = text;
    auto s = take_square(v, rest, text);
    if (!s) return s;
    if (!rest.empty()) return Error{"bad square '" + printable(text) + "'"};
    return s;
}

std::string move_name(const Edition& v, Move m) {
    return square_name(v, m.from()) + "-" + square_name(v, m.to());
}

Result<Move> parse_move(const Edition& v, std::string_view text) {
    std::string_view rest = text;
    auto from = take_square(v, rest, text);
    if (!from) return Error{from.error()};
    if (!rest.empty() && rest[0] == '-') rest.remove_prefix(1);
    auto to = take_square(v, rest, text);
    if (!to) return Error{to.error()};
    // OpenTafl's capture list and king suffixes are read and ignored.
    if (!rest.empty()) {
        if (rest[0] == 'x') {
            rest.remove_prefix(1);
            while (!rest.empty() && rest[0] >= 'a' && rest[0] <= 'z') {
                auto cap = take_square(v, rest, text);
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
    if (v.file_of(*from) != v.file_of(*to) && v.rank_of(*from) != v.rank_of(*to))
        return Error{"move '" + printable(text) + "': pieces move along a rank or a file"};
    return Move(*from, *to);
}

Result<Move> parse_legal_move(const Position& pos, std::string_view text) {
    auto m = parse_move(pos.edition(), text);
    if (!m) return m;
    const Edition& v = pos.edition();
    const std::string name = move_name(v, *m);
    if (pos.decided().over()) return Error{"move " + name + ": the game is over"};
    const Piece p = pos.piece_on(m->from());
    if (p == NO_PIECE) return Error{"move " + name + ": no piece on " + square_name(v, m->from())};
    if (side_of(p) != pos.side_to_move())
        return Error{"move " + name + ": the piece on " + square_name(v, m->from()) +
                     " belongs to the " + (side_of(p) == ATTACKERS ? "attackers" : "defenders") +
                     ", but the " + (pos.side_to_move() == ATTACKERS ? "attackers" : "defenders") +
                     " are to move"};
    if (!test(move_targets(pos, m->from()), m->to())) {
        if (pos.piece_on(m->to()) != NO_PIECE)
            return Error{"move " + name + ": " + square_name(v, m->to()) + " is occupied"};
        return Error{"move " + name +
                     ": illegal (the path is blocked or the piece may not stop on " +
                     square_name(v, m->to()) + ")"};
    }
    if (pos.recreates_board(*m))
        return Error{"move " + name +
                     ": you already reached that position (the defenders may not recreate an "
                     "earlier board)"};
    return m;
}

std::string move_record(const Position& before, Move m) {
    const Edition& v = before.edition();
    Position after = before;
    after.make_move(m);
    std::string s = move_name(v, m);
    Bitboard caps = after.last_captured();
    if (caps) {
        s += 'x';
        bool first = true;
        for_each_square(caps, [&](Square c) {
            if (before.piece_on(c) == KING) return;
            if (!first) s += '/';
            s += square_name(v, c);
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

} // namespace branan
