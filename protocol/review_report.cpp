#include "review_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "diagram.h"
#include "display.h"
#include "notation.h"
#include "text.h"

namespace branan {

namespace {

using Json = nlohmann::ordered_json; // keys in the order the docs give

const char* side_name(Side s) {
    return s == ATTACKERS ? "attackers" : "defenders";
}

std::string percent(double v, int decimals = 1) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, 100 * v);
    return buf;
}

std::string line_text(const Edition& e, const std::vector<Move>& line, size_t most = 8) {
    std::string s;
    for (size_t i = 0; i < line.size() && i < most; ++i)
        s += (i ? " " : "") + move_name(e, line[i]);
    return s;
}

std::vector<std::string> notes_of(const PlyReview& p) {
    std::vector<std::string> notes;
    if (p.only_move) notes.emplace_back("only move");
    if (p.missed_escape) notes.emplace_back("missed escape");
    if (p.missed_win) notes.emplace_back("missed win");
    return notes;
}

std::string result_text(const GameResult& r) {
    if (!r.over()) return "unfinished";
    return std::string(to_string(r.winner)) + " (" + to_string(r.reason) + ")";
}

Json score_json(Value cp, int mate) {
    return mate ? Json{{"mate", mate}} : Json{{"cp", cp}};
}

// Text for HTML: the five characters that could end or open markup.
std::string escaped(std::string_view s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

// The attackers' expected score after each ply (index 0: before the first
// reviewed ply).
std::vector<double> attackers_curve(const Review& r) {
    std::vector<double> curve;
    if (r.plies.empty()) return curve;
    const PlyReview& first = r.plies.front();
    curve.push_back(first.mover == ATTACKERS ? first.win_before : 1 - first.win_before);
    for (const PlyReview& p : r.plies)
        curve.push_back(p.mover == ATTACKERS ? p.win_after : 1 - p.win_after);
    return curve;
}

const char* grade_colour(Grade g) {
    switch (g) {
    case Grade::INACCURACY:
        return "#e1b12c";
    case Grade::MISTAKE:
        return "#e67e22";
    case Grade::BLUNDER:
        return "#c0392b";
    default:
        return "#7f8c8d";
    }
}

std::string graph_svg(const Review& r) {
    const std::vector<double> curve = attackers_curve(r);
    const double w = 800, h = 240, left = 40, right = 10, top = 10, bottom = 24;
    const double plot_w = w - left - right, plot_h = h - top - bottom;
    const int first = r.plies.empty() ? 1 : r.plies.front().ply;
    const int last = r.plies.empty() ? 1 : r.plies.back().ply;
    const double span = std::max(1, last - first + 1);
    auto x_of = [&](int ply_after) { return left + plot_w * (ply_after - (first - 1)) / span; };
    auto y_of = [&](double v) { return top + plot_h * (1 - v); };
    char buf[128];
    std::string s =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"graph\" viewBox=\"0 0 800 240\" "
        "role=\"img\"><title>The attackers' win chance after each ply</title>";
    s += "<rect x=\"40\" y=\"10\" width=\"750\" height=\"206\" fill=\"#fbf8f1\" stroke=\"#bbb\"/>";
    for (int pct : {25, 50, 75}) {
        std::snprintf(buf, sizeof buf, "%.1f", y_of(pct / 100.0));
        s += "<line x1=\"40\" x2=\"790\" y1=\"" + std::string(buf) + "\" y2=\"" + buf +
             "\" stroke=\"#ccc\"" +
             (pct == 50 ? " stroke-width=\"1.5\"" : " stroke-dasharray=\"4 4\"") +
             "/><text x=\"34\" y=\"" + std::to_string(int(y_of(pct / 100.0)) + 4) +
             "\" font-size=\"11\" text-anchor=\"end\" fill=\"#666\">" + std::to_string(pct) +
             "%</text>";
    }
    s += "<text x=\"46\" y=\"24\" font-size=\"11\" fill=\"#444\">attackers</text>";
    s += "<text x=\"46\" y=\"210\" font-size=\"11\" fill=\"#444\">defenders</text>";
    if (r.turning_point) {
        std::snprintf(buf, sizeof buf, "%.1f", x_of(r.turning_point));
        s += "<line class=\"turning\" x1=\"" + std::string(buf) + "\" x2=\"" + buf +
             "\" y1=\"10\" y2=\"216\" stroke=\"#8e44ad\" stroke-dasharray=\"6 3\"/>";
    }
    if (!curve.empty()) {
        std::string points;
        for (size_t i = 0; i < curve.size(); ++i) {
            std::snprintf(buf, sizeof buf, "%.1f,%.1f ", x_of(first - 1 + int(i)), y_of(curve[i]));
            points += buf;
        }
        s += "<polyline points=\"" + points +
             "\" fill=\"none\" stroke=\"#2c3e50\" stroke-width=\"2\"/>";
    }
    for (size_t i = 0; i < r.plies.size(); ++i) {
        const PlyReview& p = r.plies[i];
        const bool marked = p.grade >= Grade::INACCURACY;
        std::snprintf(buf, sizeof buf, "cx=\"%.1f\" cy=\"%.1f\" r=\"%d\"", x_of(p.ply),
                      y_of(curve[i + 1]), marked ? 5 : 3);
        s += "<circle class=\"pt\" data-ply=\"" + std::to_string(p.ply) + "\" " + buf + " fill=\"" +
             grade_colour(p.grade) + "\"><title>ply " + std::to_string(p.ply) + " " +
             escaped(p.record) + ": " + to_string(p.grade) + "</title></circle>";
    }
    // Ply numbers along the bottom, about ten of them.
    const int step = std::max(1, int(span / 10));
    for (int ply = first - 1; ply <= last; ply += step) {
        std::snprintf(buf, sizeof buf, "%.1f", x_of(ply));
        s += "<text x=\"" + std::string(buf) +
             "\" y=\"232\" font-size=\"11\" text-anchor=\"middle\" fill=\"#666\">" +
             std::to_string(ply) + "</text>";
    }
    return s + "</svg>";
}

DiagramOptions arrows_of(const PlyReview& p) {
    DiagramOptions d;
    d.arrows.push_back({p.played.from(), p.played.to(), PLAYED_ARROW});
    if (!p.best.is_none() && p.best != p.played)
        d.arrows.push_back({p.best.from(), p.best.to(), BEST_ARROW});
    return d;
}

constexpr const char* PAGE_STYLE =
    "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;"
    "color:#222;background:#fff}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:24px 0 8px}"
    ".meta{color:#555;margin:0}"
    "table{border-collapse:collapse}td,th{padding:3px 8px;text-align:left}"
    "#summary td,#summary th{border-bottom:1px solid #ddd}"
    "#layout{display:flex;gap:20px;align-items:flex-start;flex-wrap:wrap}"
    "#viewer{flex:0 0 420px}"
    // Beside the moves, the board stays in view as they scroll; above them
    // (a narrow window), it scrolls away with the page.
    "@media (min-width:1000px){#viewer{position:sticky;top:8px}}"
    "#viewer svg{width:420px;height:auto}"
    "#moves{flex:1 1 500px;max-height:640px;overflow:auto}"
    "#move-table th{position:sticky;top:0;background:#fff}"
    // A row scrolled into view by the browser (find in page, a tab, a
    // script) stops below the sticky header instead of under it.
    "#move-table tr{cursor:pointer;scroll-margin-top:2em}#move-table tr:hover{background:#f3efe6}"
    "#move-table tr.selected{background:#fbe9b7}"
    ".g-inaccuracy{color:#b7950b}.g-mistake{color:#d35400}.g-blunder{color:#c0392b;"
    "font-weight:bold}.g-best{color:#1e8449}"
    "#graph{width:100%;height:auto;cursor:pointer}"
    ".critical{display:flex;flex-wrap:wrap;gap:16px}"
    ".critical figure{margin:0;width:300px}.critical svg{width:300px;height:auto}"
    "figcaption{font-size:13px;color:#333}"
    ".key span{display:inline-block;width:18px;height:6px;margin:0 4px 2px 10px}";

// The viewer: a click on a row, a point of the graph or a critical moment
// shows that ply's board; `#ply-N` in the address opens on ply N.
constexpr const char* PAGE_SCRIPT = R"JS(
(function () {
  var errors = 0;
  window.addEventListener('error', function () {
    errors++;
    document.body.setAttribute('data-errors', String(errors));
  });
  var current = null;
  function show(ply) {
    var board = document.getElementById('board-' + ply);
    if (!board) return false;
    if (current) {
      current.hidden = true;
      var old = document.getElementById('row-' + current.getAttribute('data-ply'));
      if (old) old.classList.remove('selected');
    }
    board.hidden = false;
    current = board;
    var row = document.getElementById('row-' + ply);
    if (row) {
      row.classList.add('selected');
      var table = document.getElementById('moves');
      table.scrollTop = row.offsetTop - table.clientHeight / 3;
    }
    document.body.setAttribute('data-shown', String(ply));
    return true;
  }
  var clickable = document.querySelectorAll('[data-ply]');
  for (var i = 0; i < clickable.length; i++) {
    clickable[i].addEventListener('click', function (event) {
      show(event.currentTarget.getAttribute('data-ply'));
    });
  }
  var wanted = /ply-(\d+)/.exec(window.location.hash);
  var first = document.querySelector('.ply-board');
  if (!(wanted && show(wanted[1])) && first) show(first.getAttribute('data-ply'));
  document.body.setAttribute('data-errors', String(errors));
  document.body.setAttribute('data-ready', 'yes');
})();
)JS";

} // namespace

std::string review_text(const Review& r, const Edition& e) {
    std::string s;
    char buf[256];
    s += "Review of a " + std::string(to_string(r.format)) + ": " + r.edition + ", " +
         std::to_string(r.game_plies) + " plies, result " + result_text(r.result) + "\n";
    for (const auto& [key, value] : r.tags)
        s += "  " + printable(key) + ": " + printable(value, 200) + "\n";
    s += "Searched: " + r.limits + " a position, " + std::to_string(r.threads) + " thread" +
         (r.threads > 1 ? "s" : "") + ", " + std::to_string(r.time_ms) + " ms\n";
    if (!r.complete) s += "Stopped early: " + std::to_string(r.plies.size()) + " plies reviewed\n";
    s += "\n";
    std::snprintf(buf, sizeof buf, "%4s %-4s %-16s %-10s %8s %7s %7s  %-10s %s\n", "ply", "side",
                  "played", "best", "score", "win%", "drop", "grade", "notes / best line");
    s += buf;
    for (const PlyReview& p : r.plies) {
        std::string notes;
        for (const std::string& n : notes_of(p)) notes += (notes.empty() ? "" : ", ") + n;
        if (p.grade > Grade::GOOD || notes.size()) {
            const std::string line = line_text(e, p.line);
            if (!line.empty()) notes += (notes.empty() ? "" : "; ") + std::string("best ") + line;
        }
        std::snprintf(buf, sizeof buf, "%4d %-4s %-16s %-10s %8s %7s %7.1f  %-10s %s\n", p.ply,
                      p.mover == ATTACKERS ? "a" : "d", p.record.c_str(),
                      p.best.is_none() ? "-" : move_name(e, p.best).c_str(),
                      score_text(p.cp_after, p.mate_after).c_str(), percent(p.win_after).c_str(),
                      p.drop, to_string(p.grade), notes.c_str());
        std::string line = buf;
        while (line.size() > 1 && line[line.size() - 2] == ' ') line.erase(line.size() - 2, 1);
        s += line;
    }
    s += "\n";
    for (Side side : {ATTACKERS, DEFENDERS}) {
        const SideReview& sr = r.sides[side];
        std::snprintf(buf, sizeof buf, "%-9s accuracy %5.1f  moves %d:", side_name(side),
                      sr.accuracy, sr.moves);
        s += buf;
        for (int g = 0; g < GRADES; ++g)
            s +=
                " " + std::string(to_string(Grade(g))) + " " + std::to_string(sr.grades[size_t(g)]);
        s += "\n";
    }
    if (r.turning_point) {
        for (const PlyReview& p : r.plies)
            if (p.ply == r.turning_point)
                s += "Turning point: ply " + std::to_string(p.ply) + ", " + side_name(p.mover) +
                     " played " + p.record + " (" + to_string(p.grade) + ", win chance " +
                     percent(p.win_before) + "% -> " + percent(p.win_after) + "%)\n";
    }
    return s;
}

std::string review_json(const Review& r, const Edition& e) {
    Json tags = Json::object();
    for (const auto& [key, value] : r.tags) tags[key] = value;
    Json plies = Json::array();
    for (const PlyReview& p : r.plies) {
        Json line = Json::array();
        for (Move m : p.line) line.push_back(move_name(e, m));
        plies.push_back({{"ply", p.ply},
                         {"side", side_name(p.mover)},
                         {"fen", p.fen},
                         {"played", p.record},
                         {"best", p.best.is_none() ? Json(nullptr) : Json(move_name(e, p.best))},
                         {"line", line},
                         {"score_before", score_json(p.cp_before, p.mate_before)},
                         {"score_after", score_json(p.cp_after, p.mate_after)},
                         {"win_before", std::round(1000 * p.win_before) / 10},
                         {"win_after", std::round(1000 * p.win_after) / 10},
                         {"wdl_before", {p.wdl_before.win, p.wdl_before.draw, p.wdl_before.loss}},
                         {"wdl_after", {p.wdl_after.win, p.wdl_after.draw, p.wdl_after.loss}},
                         {"drop", std::round(10 * p.drop) / 10},
                         {"grade", to_string(p.grade)},
                         {"only_move", p.only_move},
                         {"missed_win", p.missed_win},
                         {"missed_escape", p.missed_escape},
                         {"depth", p.depth},
                         {"nodes", p.nodes}});
    }
    Json sides = Json::object();
    for (Side side : {ATTACKERS, DEFENDERS}) {
        const SideReview& sr = r.sides[side];
        Json grades = Json::object();
        for (int g = 0; g < GRADES; ++g) grades[to_string(Grade(g))] = sr.grades[size_t(g)];
        sides[side_name(side)] = {{"accuracy", std::round(10 * sr.accuracy) / 10},
                                  {"moves", sr.moves},
                                  {"grades", grades}};
    }
    Json result = nullptr;
    if (r.result.over())
        result = {{"winner", to_string(r.result.winner)}, {"reason", to_string(r.result.reason)}};
    const Json doc = {
        {"type", "review"},
        {"version", REVIEW_SCHEMA_VERSION},
        {"format", to_string(r.format)},
        {"edition", r.edition},
        {"rules", r.rules},
        {"tags", tags},
        {"start", r.start_fen},
        {"final", r.final_fen},
        {"game_plies", r.game_plies},
        {"result", result},
        {"search", {{"limit", r.limits}, {"threads", r.threads}, {"time_ms", r.time_ms}}},
        {"complete", r.complete},
        {"draws", r.draws},
        {"plies", plies},
        {"sides", sides},
        {"turning_point", r.turning_point ? Json(r.turning_point) : Json(nullptr)}};
    return doc.dump(2) + "\n";
}

std::string review_html(const Review& r, const ReplayedGame& game) {
    const Edition& e = game.start.edition();
    std::string title = "Review: " + r.edition;
    std::string players;
    for (const auto& [key, value] : r.tags)
        if (key == "Attackers" || key == "Defenders" || key == "attackers" || key == "defenders")
            players += (players.empty() ? "" : ", ") + key + " " + value;
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width\"><title>" +
                    escaped(title) + "</title><style>" + PAGE_STYLE + "</style></head><body>\n";
    s += "<header><h1>" + escaped(title) + "</h1><p class=\"meta\">" +
         escaped(players.empty() ? std::string(to_string(r.format)) : players) + "</p>";
    s += "<p class=\"meta\">" + std::to_string(r.game_plies) + " plies, result " +
         escaped(result_text(r.result)) + "; searched " + escaped(r.limits) + " a position" +
         (r.complete
              ? ""
              : "; <b>stopped early</b>: " + std::to_string(r.plies.size()) + " plies reviewed") +
         "</p></header>\n";

    // Accuracy and grades per side.
    s += "<section id=\"summary\"><table><tr><th></th><th>accuracy</th>";
    for (int g = 0; g < GRADES; ++g) s += std::string("<th>") + to_string(Grade(g)) + "</th>";
    s += "</tr>";
    for (Side side : {ATTACKERS, DEFENDERS}) {
        const SideReview& sr = r.sides[side];
        char acc[16];
        std::snprintf(acc, sizeof acc, "%.1f", sr.accuracy);
        s += std::string("<tr><td>") + side_name(side) + "</td><td>" + acc + "</td>";
        for (int g = 0; g < GRADES; ++g)
            s += "<td>" + std::to_string(sr.grades[size_t(g)]) + "</td>";
        s += "</tr>";
    }
    s += "</table></section>\n";

    s += "<section><h2>Win chance</h2>" + graph_svg(r) +
         "<p class=\"key\">Points:<span style=\"background:#e1b12c\"></span>inaccuracy"
         "<span style=\"background:#e67e22\"></span>mistake<span "
         "style=\"background:#c0392b\"></span>blunder<span "
         "style=\"background:#8e44ad\"></span>turning point. Arrows on the boards: <b "
         "style=\"color:#c0392b\">played</b>, <b style=\"color:#2a7a2a\">best</b>.</p></section>\n";

    // A board for every reviewed ply (shown one at a time) and the moves.
    s += "<div id=\"layout\"><section id=\"viewer\">";
    Position pos = game.start;
    size_t next = 0;
    for (size_t i = 0; i < game.moves.size() && next < r.plies.size(); ++i) {
        const int ply = int(i) + 1;
        if (ply == r.plies[next].ply) {
            const PlyReview& p = r.plies[next++];
            DiagramOptions d = arrows_of(p);
            d.captured = last_captures(pos);
            std::string caption = "Ply " + std::to_string(ply) + ", " + side_name(p.mover) + ": " +
                                  p.record + " (" + to_string(p.grade) + ")";
            if (!p.best.is_none() && p.best != p.played)
                caption += "; best " + line_text(e, p.line, 6);
            s += "<div class=\"ply-board\" id=\"board-" + std::to_string(ply) + "\" data-ply=\"" +
                 std::to_string(ply) + "\" hidden>" + board_svg(pos, d) + "<p>" + escaped(caption) +
                 "</p></div>";
        }
        pos.make_move(game.moves[i]);
    }
    s += "</section><section id=\"moves\"><table id=\"move-table\"><tr><th>ply</th><th>side</th>"
         "<th>played</th><th>best</th><th>score</th><th>win %</th><th>drop</th><th>grade</th>"
         "<th>notes</th></tr>";
    for (const PlyReview& p : r.plies) {
        std::string notes;
        for (const std::string& n : notes_of(p)) notes += (notes.empty() ? "" : ", ") + n;
        char drop[16];
        std::snprintf(drop, sizeof drop, "%.1f", p.drop);
        s += "<tr id=\"row-" + std::to_string(p.ply) + "\" data-ply=\"" + std::to_string(p.ply) +
             "\" class=\"g-" + to_string(p.grade) + "\"><td>" + std::to_string(p.ply) +
             "</td><td>" + (p.mover == ATTACKERS ? "a" : "d") + "</td><td>" + escaped(p.record) +
             "</td><td>" + (p.best.is_none() ? "-" : move_name(e, p.best)) + "</td><td>" +
             score_text(p.cp_after, p.mate_after) + "</td><td>" + percent(p.win_after) +
             "</td><td>" + drop + "</td><td>" + to_string(p.grade) + "</td><td>" + notes +
             "</td></tr>";
    }
    s += "</table></section></div>\n";

    // The critical moments: every mistake and blunder, and the turning point.
    s += "<section><h2>Critical moments</h2><div class=\"critical\">";
    pos = game.start;
    next = 0;
    int shown = 0;
    for (size_t i = 0; i < game.moves.size() && next < r.plies.size(); ++i) {
        const int ply = int(i) + 1;
        if (ply == r.plies[next].ply) {
            const PlyReview& p = r.plies[next++];
            if (p.grade >= Grade::MISTAKE || p.ply == r.turning_point) {
                std::string caption = "Ply " + std::to_string(ply) + " (" + side_name(p.mover) +
                                      "): " + p.record + ", " + to_string(p.grade) +
                                      (p.ply == r.turning_point ? ", the turning point" : "") +
                                      "; win chance " + percent(p.win_before) + "% to " +
                                      percent(p.win_after) + "%";
                if (!p.best.is_none() && p.best != p.played)
                    caption += "; best " + line_text(e, p.line, 6);
                s += "<figure class=\"moment\" data-ply=\"" + std::to_string(ply) + "\">" +
                     board_svg(pos, arrows_of(p)) + "<figcaption>" + escaped(caption) +
                     "</figcaption></figure>";
                ++shown;
            }
        }
        pos.make_move(game.moves[i]);
    }
    if (!shown) s += "<p>No mistakes or blunders.</p>";
    s += "</div></section>\n<script>" + std::string(PAGE_SCRIPT) + "</script>\n</body></html>\n";
    return s;
}

} // namespace branan
