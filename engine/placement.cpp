#include "placement.h"

#include "text.h"

namespace branan {

namespace {
// Letters by Piece value.
constexpr char PIECE_LETTERS[PLACED_KINDS + 1] = ".tTKcnCN";
} // namespace

Piece piece_of_letter(char c) {
    for (int p = 1; p < PLACED_KINDS; ++p)
        if (PIECE_LETTERS[p] == c) return Piece(p);
    return NO_PIECE;
}

char letter_of_piece(Piece p) {
    return PIECE_LETTERS[p];
}

bool is_opentafl_piece_letter(char c) {
    return std::string_view("tcnkmgTCNKMG").find(c) != std::string_view::npos;
}

namespace {

// One row of a placement: letters and runs of empty squares. `row_name`
// says where the row is, for error messages.
Status parse_row(std::string_view row, int size, const std::string& row_name, Placement& board,
                 int rank, bool opentafl) {
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
        Piece p = piece_of_letter(c);
        if (p == NO_PIECE) {
            if (c == 'k' && opentafl)
                return Error{row_name + ": an attacking king ('k') is not supported"};
            if (opentafl && std::string_view("mgMG").find(c) != std::string_view::npos)
                return Error{row_name + ": special piece '" + std::string(1, c) +
                             "' (mercenaries and guards) is not supported"};
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

} // namespace

Result<TfenFields> parse_tfen_fields(int n, std::string_view text) {
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
    Placement board{};
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
    return TfenFields{board, side, plies, fullmove};
}

Result<Placement> parse_opentafl_placement(int size, std::string_view text) {
    if (text.size() < 2 || text.front() != '/' || text.back() != '/')
        return Error{"position record must start and end with '/'"};
    auto rows = split(text.substr(1, text.size() - 2), '/');
    if (int(rows.size()) != size)
        return Error{"position record has " + std::to_string(rows.size()) + " rows, expected " +
                     std::to_string(size)};
    Placement board{};
    for (int rank = 0; rank < size; ++rank)
        if (Status st =
                parse_row(rows[rank], size, "row " + std::to_string(rank + 1), board, rank, true);
            !st)
            return Error{st.error()};
    return board;
}

std::string placement_row(int size, const Placement& board, int rank) {
    std::string s;
    int empty = 0;
    for (int f = 0; f < size; ++f) {
        const Piece p = board[rank * size + f];
        if (p == NO_PIECE) {
            ++empty;
            continue;
        }
        if (empty) s += std::to_string(empty);
        empty = 0;
        s += letter_of_piece(p);
    }
    if (empty) s += std::to_string(empty);
    return s;
}

std::string to_opentafl_position_record(int size, const Placement& board) {
    std::string s = "/";
    for (int rank = 0; rank < size; ++rank) s += placement_row(size, board, rank) + '/';
    return s;
}

} // namespace branan
