#pragma once

// Small shared helpers for the rules-core tests: the Edition of a preset,
// positions from TFEN, moves from text, and pieces by square name.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "default_nets.h"
#include "edition.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "rules.h"

#include <unistd.h>

namespace branan::testutil {

// Whether this is a sanitizer build, which runs the suite many times slower.
#ifdef BRANAN_SANITIZED
constexpr bool SANITIZED = true;
#else
constexpr bool SANITIZED = false;
#endif

// A count of random games, positions or plies: whole in the Release run, an
// eighth (at least one) under the sanitizers, where every case still runs
// its code paths but the Release run covers the sizes. A case whose counts
// need more games to be reached divides by less.
constexpr int scaled(int count, int divisor = 8) {
    return SANITIZED ? (count / divisor > 0 ? count / divisor : 1) : count;
}
// A perft depth: one less under the sanitizers (a tenth of the work or less).
constexpr int scaled_depth(int depth) {
    return SANITIZED && depth > 1 ? depth - 1 : depth;
}

// The 11x11 weights of the fourth tuning round, fixed for the tests whose
// searches depend on one set's move order (the shipped defaults move on).
inline const std::string CORNER_LARGE_ROUND4 =
    std::string(BRANAN_SOURCE_DIR) + "/tests/data/tune/corner-large-round4.txt";

// The four editions of RULES.md, in the order of the presets table.
inline const char* const EDITIONS[] = {"brandubh", "brandubh-house", "tablut", "tablut-house"};

// The compiled Edition of a preset (built once, shared).
// Every compiled-in net (eval/nets/), read; each must read.
inline std::vector<NnueNetPtr> shipped_nets() {
    std::vector<NnueNetPtr> out;
    for (const EmbeddedNet& shipped : embedded_nets()) {
        auto net = read_nnue(std::string_view(reinterpret_cast<const char*>(shipped.bytes.data()),
                                              shipped.bytes.size()));
        INFO("eval/nets/" << shipped.name << ".nnue: " << (net ? "ok" : net.error()));
        REQUIRE(net.ok());
        out.push_back(*net);
    }
    return out;
}

inline EditionPtr edition(const std::string& preset) {
    static std::map<std::string, EditionPtr> cache;
    auto it = cache.find(preset);
    if (it != cache.end()) return it->second;
    auto rules = preset_rules(preset);
    INFO("preset " << preset << ": " << (rules ? std::string("ok") : rules.error()));
    REQUIRE(rules.ok());
    auto edition = Edition::make(*rules);
    INFO("preset " << preset << ": " << (edition ? std::string("ok") : edition.error()));
    REQUIRE(edition.ok());
    cache.emplace(preset, *edition);
    return *edition;
}

// A preset's Edition with some rules changed (e.g. an end switched off so
// that random games run long).
template <typename Change>
inline EditionPtr edition_with(const std::string& preset, Change change) {
    auto rules = preset_rules(preset);
    REQUIRE(rules.ok());
    change(*rules);
    auto edition = Edition::make(*rules);
    INFO("preset " << preset << " changed: " << (edition ? std::string("ok") : edition.error()));
    REQUIRE(edition.ok());
    return *edition;
}

// The compiled Edition of a rules string; the test fails if it is refused.
inline EditionPtr rules_edition(const std::string& text,
                                RulesReading reading = RulesReading::BY_PIECE) {
    auto rules = parse_rules(text, reading);
    INFO("rules '" << text << "': " << (rules ? std::string("ok") : rules.error()));
    REQUIRE(rules.ok());
    auto edition = Edition::make(*rules);
    INFO("rules: " << (edition ? std::string("ok") : edition.error()));
    REQUIRE(edition.ok());
    return *edition;
}

// A position of a preset from TFEN; the test fails if the TFEN is rejected.
inline Position tfen(const std::string& preset, const std::string& text) {
    auto pos = parse_tfen(edition(preset), text);
    INFO(preset << " TFEN '" << text << "': " << (pos ? std::string("ok") : pos.error()));
    REQUIRE(pos.ok());
    return *pos;
}

// TFEN from a list of pieces such as "Kd4 tc4 te7" (letter, square),
// the side to move ('a' or 'd') and the counters.
inline std::string make_tfen(int size, const std::string& pieces, char side, int plies = 0,
                             int fullmove = 1) {
    std::vector<char> board(size * size, '.');
    size_t p = 0;
    while (p < pieces.size()) {
        size_t q = pieces.find(' ', p);
        if (q == std::string::npos) q = pieces.size();
        if (q > p) {
            const std::string tok = pieces.substr(p, q - p);
            REQUIRE(tok.size() >= 3);
            const int file = tok[1] - 'a', rank = std::stoi(tok.substr(2)) - 1;
            REQUIRE(file >= 0);
            REQUIRE(file < size);
            REQUIRE(rank >= 0);
            REQUIRE(rank < size);
            board[rank * size + file] = tok[0];
        }
        p = q + 1;
    }
    std::string s;
    for (int rank = size - 1; rank >= 0; --rank) {
        int empty = 0;
        for (int f = 0; f < size; ++f) {
            char c = board[rank * size + f];
            if (c == '.') {
                ++empty;
                continue;
            }
            if (empty) s += std::to_string(empty);
            empty = 0;
            s += c;
        }
        if (empty) s += std::to_string(empty);
        if (rank) s += '/';
    }
    return s + ' ' + side + ' ' + std::to_string(plies) + ' ' + std::to_string(fullmove);
}

// A position under a rules string, from "Kd4 tc4 ..." and the side to move.
inline Position rules_setup(const std::string& rules, const std::string& pieces, char side) {
    EditionPtr edition = rules_edition(rules);
    auto pos = parse_tfen(edition, make_tfen(edition->size, pieces, side));
    INFO("pieces '" << pieces << "': " << (pos ? std::string("ok") : pos.error()));
    REQUIRE(pos.ok());
    return *pos;
}

// A position of a preset from a list of pieces (see make_tfen).
inline Position setup(const std::string& preset, const std::string& pieces, char side,
                      int plies = 0) {
    return tfen(preset, make_tfen(edition(preset)->size, pieces, side, plies));
}

inline Square sq(const Position& pos, const std::string& name) {
    auto s = parse_square(pos.edition(), name);
    INFO("square " << name << ": " << (s ? std::string("ok") : s.error()));
    REQUIRE(s.ok());
    return *s;
}

inline Piece at(const Position& pos, const std::string& name) {
    return pos.piece_on(sq(pos, name));
}

// The legal move `text` in pos (the test fails if it is not legal).
inline Move legal(const Position& pos, const std::string& text) {
    auto m = parse_legal_move(pos, text);
    INFO("move " << text << " in " << to_tfen(pos) << ": " << (m ? std::string("ok") : m.error()));
    REQUIRE(m.ok());
    return *m;
}

// Plays a legal move given as text.
inline void play(Position& pos, const std::string& text) {
    pos.make_move(legal(pos, text));
}

// Plays a sequence of moves separated by spaces.
inline void play_all(Position& pos, const std::string& moves) {
    size_t p = 0;
    while (p < moves.size()) {
        size_t q = moves.find(' ', p);
        if (q == std::string::npos) q = moves.size();
        if (q > p) play(pos, moves.substr(p, q - p));
        p = q + 1;
    }
}

// Perft by its definition: make every move down to depth 0 (the slow
// count the bulk counters are held against).
inline uint64_t perft_by_making(Position& pos, int depth) {
    if (depth == 0) return 1;
    MoveList list;
    generate_moves(pos, list);
    uint64_t n = 0;
    for (Move m : list) {
        pos.make_move(m);
        n += perft_by_making(pos, depth - 1);
        pos.unmake_move();
    }
    return n;
}

inline bool is_legal(const Position& pos, const std::string& text) {
    auto m = parse_move(pos.edition(), text);
    if (!m) return false;
    MoveList list;
    generate_moves(pos, list);
    return list.contains(*m);
}

// A random legal move that, half of the time, takes back the piece this
// side moved last (`mine` holds the game's moves in order), so that random
// games repeat positions often. MOVE_NONE when there is no legal move.
inline Move repeating_random_move(const Position& pos, const std::vector<Move>& mine,
                                  std::mt19937& rng) {
    MoveList list;
    generate_moves(pos, list);
    if (list.empty()) return MOVE_NONE;
    Move m = list.moves[rng() % list.size()];
    if (mine.size() >= 2 && rng() % 2) {
        const Move prev = mine[mine.size() - 2];
        const Move back(prev.to(), prev.from());
        if (list.contains(back)) m = back;
    }
    return m;
}

inline int count_pieces(const Position& pos, Piece p) {
    return popcount(pos.pieces(p));
}

inline GameResult game(Winner w, EndReason r) {
    return GameResult{w, r};
}

inline const GameResult ONGOING{};

// One of `list`, drawn in proportion to `weight` (uniformly when every
// weight is 0): the random players that hold the engine to a model.
template <typename T>
T pick_by_weight(const std::vector<T>& list, const std::vector<double>& weight, std::mt19937& rng) {
    double total = 0;
    for (double w : weight) total += w;
    if (total <= 0) return list[rng() % list.size()];
    std::discrete_distribution<size_t> d(weight.begin(), weight.end());
    return list[d(rng)];
}

// The board as the rules models in tests/models/ write it, square by square
// from a1: 't' attacker, 'T' defender, 'K' king, '.' empty.
inline std::string model_board_of(const Position& pos) {
    std::string out;
    for (int s = 0; s < pos.size() * pos.size(); ++s) {
        // The models' letters: t c n attackers, T C N K defenders, '.' empty.
        static constexpr char LETTERS[] = ".tTKcnCN";
        out += LETTERS[pos.placed_piece(s)];
    }
    return out;
}

// The start positions of RULES.md's Brandubh and Tablut in TFEN, written
// out here so that a test checks the engine's own against them.
inline const std::string BRANDUBH_START = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1";
inline const std::string TABLUT_START = "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1";
// Brandubh's start as the field of an OpenTafl rules string.
inline const std::string START7 = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

inline bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// A fresh empty folder under the system's temporary folder, removed with
// everything in it at the end of the scope.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name) {
        path = std::filesystem::temp_directory_path() /
               ("branan-test-" + name + "-" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

// A file's bytes, whole ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

} // namespace branan::testutil

namespace Catch {
template <>
struct StringMaker<branan::GameResult> {
    static std::string convert(const branan::GameResult& r) {
        return std::string("{") + branan::to_string(r.winner) + ", " + branan::to_string(r.reason) +
               "}";
    }
};
template <>
struct StringMaker<branan::Piece> {
    static std::string convert(branan::Piece p) {
        switch (p) {
        case branan::ATTACKER:
            return "attacker";
        case branan::DEFENDER:
            return "defender";
        case branan::KING:
            return "king";
        default:
            return "empty";
        }
    }
};
} // namespace Catch
