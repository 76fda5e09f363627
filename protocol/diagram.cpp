#include "diagram.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "notation.h"

namespace branan {

namespace {

constexpr int CELL = 40;   // a square's side, in the picture's units
constexpr int MARGIN = 22; // room for the coordinates

// Numbers as SVG reads them, without trailing zeros.
std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.substr(s.size() - 2) == ".0") s.resize(s.size() - 2);
    return s;
}

// The picture's x and y of square s's centre (rank 1 at the bottom).
double centre_x(const Edition& e, Square s, int margin) {
    return margin + e.file_of(s) * CELL + CELL / 2.0;
}
double centre_y(const Edition& e, Square s, int margin) {
    return margin + (e.size - 1 - e.rank_of(s)) * CELL + CELL / 2.0;
}

const char* square_class(const Edition& e, Square s) {
    if (test(e.throne, s)) return "sq throne";
    if (test(e.escape, s)) return "sq exit";
    if (test(e.camps, s)) return "sq camp";
    return "sq";
}

std::string piece_svg(Piece p, double x, double y) {
    const Side side = side_of(p);
    const double r = CELL * 0.36;
    std::string s = "<g class=\"pc " + std::string(side == ATTACKERS ? "att" : "def") +
                    (p == KING ? " king" : "") + "\">";
    s += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r) + "\"/>";
    if (p == KING) {
        // A cross: the king reads apart from his men in black and white.
        const double a = r * 0.55;
        s += "<path class=\"mark\" d=\"M" + num(x - a) + " " + num(y) + "H" + num(x + a) + "M" +
             num(x) + " " + num(y - a) + "V" + num(y + a) + "\"/>";
    } else if (is_commander(p) || is_knight(p)) {
        s += "<text class=\"letter\" x=\"" + num(x) + "\" y=\"" + num(y + 5) + "\">" +
             (is_commander(p) ? "C" : "N") + "</text>";
    }
    return s + "</g>";
}

} // namespace

std::vector<Square> last_captures(const Position& pos) {
    std::vector<Square> squares;
    for_each_square(pos.last_captured(), [&](Square s) { squares.push_back(s); });
    if (pos.result().reason == EndReason::KING_CAPTURED && pos.states().size() > 1) {
        // The king's square is the one he stood on before the move.
        Position before = pos;
        before.unmake_move();
        if (before.king_square() != NO_SQUARE &&
            std::find(squares.begin(), squares.end(), before.king_square()) == squares.end())
            squares.push_back(before.king_square());
    }
    return squares;
}

std::string board_svg(const Position& pos, const DiagramOptions& o) {
    const Edition& e = pos.edition();
    const int margin = o.coordinates ? MARGIN : 4;
    const int side = e.size * CELL + 2 * margin;
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " +
                    std::to_string(side) + " " + std::to_string(side) + "\"";
    if (!o.id.empty()) s += " id=\"" + o.id + "\"";
    if (o.width > 0) s += " width=\"" + std::to_string(o.width) + "\"";
    s += " class=\"board\" role=\"img\">";
    s += "<title>" + to_tfen(pos) + "</title>";
    s += "<style>"
         ".sq{fill:#ecd9b0;stroke:#8a6d3b;stroke-width:1}"
         ".throne{fill:#c9a66b}.exit{fill:#b08850}.camp{fill:#dcc293}"
         ".special{stroke:#5a4424;stroke-width:1.5}"
         ".hl{fill:#f4e04d;opacity:.55}"
         ".att circle{fill:#2b2b2b;stroke:#000;stroke-width:1.5}"
         ".def circle{fill:#fafafa;stroke:#222;stroke-width:2}"
         ".king circle{fill:#f3d36b;stroke:#222;stroke-width:2.5}"
         ".mark{stroke:#222;stroke-width:3;stroke-linecap:round}"
         ".letter{font:bold 15px sans-serif;text-anchor:middle}"
         ".att .letter{fill:#fff}.def .letter{fill:#222}"
         ".coord{font:12px sans-serif;fill:#555;text-anchor:middle}"
         ".taken{stroke:#c0392b;stroke-width:3;stroke-linecap:round}"
         "</style>";
    s += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(side) + "\" height=\"" +
         std::to_string(side) + "\" fill=\"#f7f0e1\"/>";
    for (int rank = e.size - 1; rank >= 0; --rank)
        for (int file = 0; file < e.size; ++file) {
            const Square sq = e.square(file, rank);
            s += "<rect class=\"" + std::string(square_class(e, sq)) + "\" x=\"" +
                 std::to_string(margin + file * CELL) + "\" y=\"" +
                 std::to_string(margin + (e.size - 1 - rank) * CELL) + "\" width=\"" +
                 std::to_string(CELL) + "\" height=\"" + std::to_string(CELL) + "\"/>";
        }
    // The throne and the exits also carry a cross-hatch of lines, for print.
    for_each_square(e.throne | e.corners, [&](Square sq) {
        const double x = centre_x(e, sq, margin), y = centre_y(e, sq, margin);
        const double a = CELL / 2.0 - 4;
        s += "<path class=\"special\" d=\"M" + num(x - a) + " " + num(y - a) + "L" + num(x + a) +
             " " + num(y + a) + "M" + num(x + a) + " " + num(y - a) + "L" + num(x - a) + " " +
             num(y + a) + "\"/>";
    });
    for (Square sq : o.highlights) {
        if (sq < 0 || sq >= e.num_squares) continue;
        s += "<rect class=\"hl\" x=\"" + num(centre_x(e, sq, margin) - CELL / 2.0) + "\" y=\"" +
             num(centre_y(e, sq, margin) - CELL / 2.0) + "\" width=\"" + std::to_string(CELL) +
             "\" height=\"" + std::to_string(CELL) + "\"/>";
    }
    if (o.coordinates) {
        for (int file = 0; file < e.size; ++file) {
            const std::string name = square_name(e, e.square(file, 0));
            const std::string letter = name.substr(0, name.find_first_of("0123456789"));
            s += "<text class=\"coord\" x=\"" + num(margin + file * CELL + CELL / 2.0) + "\" y=\"" +
                 std::to_string(side - 6) + "\">" + letter + "</text>";
        }
        for (int rank = 0; rank < e.size; ++rank)
            s += "<text class=\"coord\" x=\"" + num(margin / 2.0) + "\" y=\"" +
                 num(margin + (e.size - 1 - rank) * CELL + CELL / 2.0 + 4) + "\">" +
                 std::to_string(rank + 1) + "</text>";
    }
    for (int sq = 0; sq < e.num_squares; ++sq) {
        const Piece p = pos.placed_piece(Square(sq));
        if (p != NO_PIECE)
            s += piece_svg(p, centre_x(e, Square(sq), margin), centre_y(e, Square(sq), margin));
    }
    for (Square sq : o.captured) {
        if (sq < 0 || sq >= e.num_squares) continue;
        const double x = centre_x(e, sq, margin), y = centre_y(e, sq, margin), a = CELL * 0.22;
        s += "<path class=\"taken\" d=\"M" + num(x - a) + " " + num(y - a) + "L" + num(x + a) +
             " " + num(y + a) + "M" + num(x + a) + " " + num(y - a) + "L" + num(x - a) + " " +
             num(y + a) + "\"/>";
    }
    for (const DiagramArrow& a : o.arrows) {
        if (a.from < 0 || a.from >= e.num_squares || a.to < 0 || a.to >= e.num_squares) continue;
        const double x1 = centre_x(e, a.from, margin), y1 = centre_y(e, a.from, margin);
        const double x2 = centre_x(e, a.to, margin), y2 = centre_y(e, a.to, margin);
        const double len = std::hypot(x2 - x1, y2 - y1);
        if (len <= 0) continue;
        const double ux = (x2 - x1) / len, uy = (y2 - y1) / len;
        // The shaft stops short of the head, which ends at the centre of the
        // square: drawn as lines and a polygon, no <marker> (some viewers
        // drop markers' colours).
        const double head = 14, half = 8;
        const double bx = x2 - ux * head, by = y2 - uy * head;
        s += "<g class=\"arrow\" opacity=\".85\"><line x1=\"" + num(x1) + "\" y1=\"" + num(y1) +
             "\" x2=\"" + num(bx) + "\" y2=\"" + num(by) + "\" stroke=\"" + a.colour +
             "\" stroke-width=\"7\" stroke-linecap=\"round\"/><polygon points=\"" + num(x2) + "," +
             num(y2) + " " + num(bx - uy * half) + "," + num(by + ux * half) + " " +
             num(bx + uy * half) + "," + num(by - ux * half) + "\" fill=\"" + a.colour + "\"/></g>";
    }
    return s + "</svg>";
}

} // namespace branan
