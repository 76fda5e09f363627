#include "plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tally.h"

namespace branan::match {

namespace {

std::string f(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", x);
    return buf;
}

std::string xml(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '<')
            o += "&lt;";
        else if (c == '>')
            o += "&gt;";
        else if (c == '&')
            o += "&amp;";
        else if (c == '"')
            o += "&quot;";
        else
            o += c;
    }
    return o;
}

double nice_step(double range, int ticks) {
    double raw = range / ticks;
    double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * p) return m * p;
    return 10 * p;
}

} // namespace

bool plot_svg(const std::vector<GameSummary>& games, std::string& svg, std::string& error) {
    if (games.empty()) {
        error = "the summary has no games";
        return false;
    }
    const std::string a = games.front().engine1, b = games.front().engine2;
    bool penta = false;
    for (const GameSummary& g : games) penta = penta || g.pair >= 0;
    // The estimate after every game of the pair.
    struct Point {
        double x, elo, lo, hi;
    };
    std::vector<Point> pts;
    std::vector<GameSummary> seen;
    for (const GameSummary& g : games) {
        if (!((g.engine1 == a && g.engine2 == b) || (g.engine1 == b && g.engine2 == a))) continue;
        seen.push_back(g);
        auto pairs = tally(seen, {a, b});
        EloEstimate e = pair_estimate(pairs.front(), penta);
        if (!e.valid || !std::isfinite(e.elo) || !std::isfinite(e.lower) || !std::isfinite(e.upper))
            continue; // all wins or all losses so far: nothing finite to draw
        pts.push_back({double(seen.size()), e.elo, e.lower, e.upper});
    }
    if (pts.empty()) {
        error = "no finite Elo estimate yet (every game won by one side)";
        return false;
    }
    const double W = 800, H = 450, L = 70, R = 20, T = 40, B = 50;
    const double xmax = std::max(2.0, double(seen.size()));
    // The y range: the whole interval, but not the wild first few games.
    double ymax = 10;
    const size_t skip = std::min(pts.size() - 1, size_t(pts.size() / 10));
    for (size_t i = skip; i < pts.size(); ++i)
        ymax = std::max({ymax, std::abs(pts[i].lo), std::abs(pts[i].hi)});
    ymax = std::min(ymax * 1.1, 1000.0);
    auto X = [&](double x) { return L + (x - 1) / (xmax - 1) * (W - L - R); };
    auto Y = [&](double y) {
        y = std::clamp(y, -ymax, ymax);
        return T + (ymax - y) / (2 * ymax) * (H - T - B);
    };
    std::string s;
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + f(W) + "\" height=\"" + f(H) +
         "\" viewBox=\"0 0 " + f(W) + " " + f(H) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s += "<text x=\"" + f(W / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" +
         xml(a + " vs " + b + ": Elo of " + a + " with its 95% interval (" +
             (penta ? "pentanomial" : "trinomial") + ")") +
         "</text>\n";
    // Grid and axes.
    const double ystep = nice_step(2 * ymax, 8);
    for (double y = -std::floor(ymax / ystep) * ystep; y <= ymax + 1e-9; y += ystep) {
        s += "<line x1=\"" + f(L) + "\" x2=\"" + f(W - R) + "\" y1=\"" + f(Y(y)) + "\" y2=\"" +
             f(Y(y)) + "\" stroke=\"#ddd\"/>\n";
        s += "<text x=\"" + f(L - 6) + "\" y=\"" + f(Y(y) + 4) + "\" text-anchor=\"end\">" +
             f(y).substr(0, f(y).find('.')) + "</text>\n";
    }
    const double xstep = std::max(1.0, nice_step(xmax - 1, 10));
    for (double x = xstep; x <= xmax + 1e-9; x += xstep) {
        s += "<line x1=\"" + f(X(x)) + "\" x2=\"" + f(X(x)) + "\" y1=\"" + f(T) + "\" y2=\"" +
             f(H - B) + "\" stroke=\"#eee\"/>\n";
        s += "<text x=\"" + f(X(x)) + "\" y=\"" + f(H - B + 16) + "\" text-anchor=\"middle\">" +
             std::to_string(int64_t(x)) + "</text>\n";
    }
    s += "<rect x=\"" + f(L) + "\" y=\"" + f(T) + "\" width=\"" + f(W - L - R) + "\" height=\"" +
         f(H - T - B) + "\" fill=\"none\" stroke=\"#444\"/>\n";
    s += "<text x=\"" + f((L + W - R) / 2) + "\" y=\"" + f(H - 12) +
         "\" text-anchor=\"middle\">games</text>\n";
    s += "<text transform=\"translate(16," + f((T + H - B) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">Elo</text>\n";
    // The interval band, the zero line, the estimate.
    std::string band;
    for (const Point& p : pts) band += f(X(p.x)) + "," + f(Y(p.hi)) + " ";
    for (auto it = pts.rbegin(); it != pts.rend(); ++it)
        band += f(X(it->x)) + "," + f(Y(it->lo)) + " ";
    s += "<polygon points=\"" + band +
         "\" fill=\"#9ecae1\" fill-opacity=\"0.6\" stroke=\"none\"/>\n";
    s += "<line x1=\"" + f(L) + "\" x2=\"" + f(W - R) + "\" y1=\"" + f(Y(0)) + "\" y2=\"" +
         f(Y(0)) + "\" stroke=\"#666\" stroke-dasharray=\"4,3\"/>\n";
    std::string line;
    for (const Point& p : pts) line += f(X(p.x)) + "," + f(Y(p.elo)) + " ";
    s +=
        "<polyline points=\"" + line + "\" fill=\"none\" stroke=\"#08519c\" stroke-width=\"2\"/>\n";
    const Point& last = pts.back();
    s += "<text x=\"" + f(W - R - 4) + "\" y=\"" + f(T + 16) + "\" text-anchor=\"end\">" +
         xml("after " + std::to_string(seen.size()) + " games: " + f(last.elo) + " [" + f(last.lo) +
             ", " + f(last.hi) + "]") +
         "</text>\n";
    s += "</svg>\n";
    svg = std::move(s);
    return true;
}

} // namespace branan::match
