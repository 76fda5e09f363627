#include "display.h"

#include <cinttypes>
#include <cstdio>

#include "notation.h"
#include "text.h"

namespace branan {

namespace {

// The board with coordinates, throne, corners and camps marked, and a key.
std::vector<std::string> board_diagram(const Position& pos) {
    const Edition& edition = pos.edition();
    const int n = edition.size;
    std::string files = "    ";
    for (int f = 0; f < n; ++f) files += std::string(" ") + char('a' + f) + (f + 1 < n ? " " : "");
    std::vector<std::string> lines{files};
    for (int r = n - 1; r >= 0; --r) {
        char label[16];
        std::snprintf(label, sizeof label, "%2d  ", r + 1);
        std::string row = label;
        for (int f = 0; f < n; ++f) {
            const Square s = edition.square(f, r);
            char c = '.';
            switch (pos.piece_on(s)) {
            case ATTACKER:
                c = 't';
                break;
            case DEFENDER:
                c = 'T';
                break;
            case KING:
                c = 'K';
                break;
            default:
                break;
            }
            if (test(edition.throne, s))
                row += std::string("[") + c + "]";
            else if (test(edition.corners, s))
                row += std::string("(") + c + ")";
            else if (test(edition.camps, s))
                row += std::string("<") + c + ">";
            else
                row += std::string(" ") + c + " ";
        }
        row += "  " + std::to_string(r + 1);
        lines.push_back(row);
    }
    lines.push_back(files);
    lines.push_back(std::string("    t attacker, T defender, K king, [ ] throne") +
                    (edition.corners ? ", ( ) corner" : "") + (edition.camps ? ", < > camp" : "") +
                    "; " + (pos.side_to_move() == ATTACKERS ? "attackers" : "defenders") +
                    " to move");
    return lines;
}

} // namespace

std::vector<std::string> describe_position(const Position& pos, const std::string& rules_string) {
    std::vector<std::string> lines = board_diagram(pos);
    lines.push_back("Fen: " + to_tfen(pos));
    char key[32];
    std::snprintf(key, sizeof key, "%016" PRIX64, pos.key());
    lines.push_back(std::string("Key: ") + key);
    lines.push_back("Rules: " + rules_string);
    const GameResult r = pos.result();
    lines.push_back(r.over()
                        ? std::string("Result: ") + to_string(r.winner) + " " + to_string(r.reason)
                        : std::string("Result: ongoing"));
    return lines;
}

std::vector<std::string> describe_eval(const Engine& engine) {
    const Position& pos = engine.position();
    // The eval library's term-by-term table, then one summary line.
    std::vector<std::string> lines;
    const std::string table = format_breakdown(breakdown(pos, engine.eval_params()));
    for (std::string_view line : split(table, '\n')) lines.emplace_back(line);
    if (lines.back().empty()) lines.pop_back(); // the table's last newline
    const char* side = pos.side_to_move() == ATTACKERS ? "attackers" : "defenders";
    const Value eval = engine.evaluate();
    const WinCurve curve = engine.win_curve();
    const Side stm = pos.side_to_move();
    char calibrated[32];
    std::snprintf(calibrated, sizeof calibrated, "%+.2f", curve.calibrated(eval, stm) / 100.0);
    lines.push_back(std::string("Eval: ") + std::to_string(eval) + " cp (from the side to move, " +
                    side + "); calibrated " + calibrated + ", " +
                    win_chance_text(curve.chances(eval, stm), curve.draws()));
    return lines;
}

std::string score_text(Value cp, int mate) {
    char buf[32];
    if (mate)
        std::snprintf(buf, sizeof buf, "#%d", mate);
    else
        std::snprintf(buf, sizeof buf, "%+.2f", cp / 100.0);
    return buf;
}

std::string win_chance_text(const WinChances& wdl, bool draws) {
    char buf[48];
    if (draws)
        std::snprintf(buf, sizeof buf, "win %.1f%% draw %.1f%%", wdl.win / 10.0, wdl.draw / 10.0);
    else
        std::snprintf(buf, sizeof buf, "win %.1f%%", wdl.win / 10.0);
    return buf;
}

std::vector<std::string> help_lines() {
    return {
        "Branan " BRANAN_VERSION ", a tafl engine. Commands (UCI-style; moves as d1-c1):",
        "  uci                                  identify, list the options, uciok",
        "  isready                              readyok",
        "  setoption name <N> [value <V>]       set an option (see uci)",
        "  ucinewgame                           forget the game (clears the hash)",
        "  position startpos|fen <TFEN> [moves <m1> <m2> ...]",
        "  go [depth N] [nodes N] [movetime MS] [mate N] [infinite] [ponder] [movestogo N]",
        "     [atime MS] [dtime MS] [ainc MS] [dinc MS] [wtime MS] [btime MS] [winc MS] [binc MS]",
        "     [searchmoves <m1> ...]            wtime/btime: the side that moves first/second",
        "  stop | ponderhit | quit",
        "  d                                    board, TFEN, key, rules, result",
        "  perft N                              move counts per root move and in total",
        "  eval                                 static evaluation of the position",
        "  weights                              the evaluation weights, as options to set",
        "  bench [depth]                        search the bench positions",
        "  help                                 this text",
    };
}

} // namespace branan
