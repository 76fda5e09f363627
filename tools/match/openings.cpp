#include "openings.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "hash.h"
#include "movegen.h"
#include "notation.h"

namespace branan::match {

namespace {

constexpr int WIN = 10000;

// Material (an attacker is worth 100, a defender as much as makes the start
// even) plus the king's open roads to an escape square.
int evaluate(const Position& pos) {
    const Edition& edition = pos.edition();
    int att0 = 0, def0 = 0;
    for (int s = 0; s < edition.num_squares; ++s) {
        if (edition.start[s] == ATTACKER) ++att0;
        if (edition.start[s] == DEFENDER) ++def0;
    }
    const int att = popcount(pos.pieces(ATTACKER));
    const int def = popcount(pos.pieces(DEFENDER));
    const int def_value = def0 > 0 ? 100 * att0 / def0 : 100;
    int score = def * def_value - att * 100; // defenders' view
    if (pos.king_square() != NO_SQUARE) {
        const int routes = popcount(move_targets(pos, pos.king_square()) & edition.escape);
        if (pos.side_to_move() == DEFENDERS && routes > 0)
            score += WIN / 2;
        else if (routes >= 2)
            score += WIN / 2;
        else
            score += 150 * routes;
    }
    return pos.side_to_move() == DEFENDERS ? score : -score;
}

int search(Position& pos, int depth, int alpha, int beta, int ply) {
    GameResult r = pos.result();
    if (r.over()) {
        if (r.winner == Winner::DRAW) return 0;
        const Winner mine = pos.side_to_move() == ATTACKERS ? Winner::ATTACKERS : Winner::DEFENDERS;
        return r.winner == mine ? WIN - ply : -WIN + ply;
    }
    if (depth <= 0) return evaluate(pos);
    MoveList list;
    generate_moves(pos, list);
    int best = -WIN - 1;
    for (Move m : list) {
        pos.make_move(m);
        int s = -search(pos, depth - 1, -beta, -alpha, ply + 1);
        pos.unmake_move();
        if (s > best) best = s;
        if (s > alpha) alpha = s;
        if (alpha >= beta) break;
    }
    return best;
}

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return "";
    size_t b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

} // namespace

int quick_search(Position& pos, int depth) {
    return search(pos, depth, -WIN - 1, WIN + 1, 0);
}

Opening generate_opening(const EditionPtr& edition, uint64_t seed, int64_t index, int plies,
                         int depth, int margin_cp) {
    std::mt19937_64 rng(splitmix64(seed ^ splitmix64(uint64_t(index) + 1)));
    Opening best;
    int best_score = WIN * 2;
    for (int attempt = 0; attempt < 200; ++attempt) {
        Position pos(edition);
        Opening o;
        bool over = false;
        for (int i = 0; i < plies; ++i) {
            MoveList list;
            generate_moves(pos, list);
            if (list.empty()) {
                over = true;
                break;
            }
            Move m = list.moves[rng() % uint64_t(list.size())];
            o.moves.push_back(move_name(*edition, m));
            pos.make_move(m);
            if (pos.result().over()) {
                over = true;
                break;
            }
        }
        if (over) continue;
        const int score = std::abs(quick_search(pos, depth));
        if (score < best_score) {
            best_score = score;
            best = o;
        }
        if (score <= margin_cp) break;
    }
    best.label = "random #" + std::to_string(index) + " (|score| " + std::to_string(best_score) +
                 " at depth " + std::to_string(depth) + ")";
    return best;
}

Result<std::vector<Opening>> read_openings(std::istream& in, const std::string& name,
                                           const std::string& format, const EditionPtr& edition) {
    std::vector<Opening> openings;
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        line = trim(line);
        if (line.empty() || line[0] == '#') continue;
        Opening o;
        o.label = name + ":" + std::to_string(lineno);
        if (format == "tfen") {
            o.root_tfen = line;
        } else {
            std::istringstream words(line);
            std::string w;
            while (words >> w) {
                if (w.back() == '.') continue; // move numbers "1."
                o.moves.push_back(w);
            }
        }
        auto pos = opening_position(edition, o);
        if (!pos) return Error{o.label + ": " + pos.error()};
        // Store plain move texts (records with captures are accepted on input).
        Position p(edition);
        if (!o.root_tfen.empty()) p = *parse_tfen(edition, o.root_tfen);
        for (std::string& text : o.moves) {
            Move m = *parse_legal_move(p, text);
            text = move_name(*edition, m);
            p.make_move(m);
        }
        openings.push_back(std::move(o));
    }
    if (openings.empty()) return Error{"no openings in '" + name + "'"};
    return openings;
}

Status OpeningBook::load(const OpeningSource& source, const EditionPtr& edition, uint64_t seed) {
    std::vector<Opening> openings;
    if (source.kind == OpeningSource::Kind::FILE) {
        std::ifstream in(source.path);
        if (!in) return Error{"cannot read the openings file '" + source.path + "'"};
        auto read = read_openings(in, source.path, source.format, edition);
        if (!read) return Error{read.error()};
        openings = std::move(*read);
    }
    source_ = source;
    edition_ = edition;
    seed_ = seed;
    openings_ = std::move(openings);
    return {};
}

Opening OpeningBook::get(int64_t index) const {
    switch (source_.kind) {
    case OpeningSource::Kind::NONE: {
        Opening o;
        o.label = "start";
        return o;
    }
    case OpeningSource::Kind::RANDOM:
        return generate_opening(edition_, seed_, index, source_.plies, source_.depth,
                                source_.margin_cp);
    case OpeningSource::Kind::FILE:
        break;
    }
    const int64_t n = int64_t(openings_.size());
    if (!source_.random_order) return openings_[size_t(index % n)];
    // A fresh shuffle of the whole list for every pass over it.
    const int64_t pass = index / n;
    std::vector<size_t> order(static_cast<size_t>(n));
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::mt19937_64 rng(splitmix64(seed_ ^ splitmix64(uint64_t(pass) + 0x51)));
    std::shuffle(order.begin(), order.end(), rng);
    return openings_[order[size_t(index % n)]];
}

} // namespace branan::match
