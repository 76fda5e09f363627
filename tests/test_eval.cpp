// The evaluation: the weights table, the text format of a weight set, the
// trace identity, board symmetry, and a few judgments a sane evaluation
// must make.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "edition.h"
#include "evaluate.h"
#include "movegen.h"
#include "notation.h"
#include "params.h"
#include "position.h"
#include "rules.h"
#include "test_helpers.h"

using namespace branan;

namespace {

// A default set by name; the test fails if it is not compiled in.
DefaultSet set_named(const std::string& name) {
    auto set = find_default_set(name);
    INFO("default set " << name);
    REQUIRE(set.has_value());
    return *set;
}

// Every preset (the four editions first); all are symmetric boards.
std::vector<std::string> eval_presets() {
    std::vector<std::string> out;
    for (const Preset& p : presets()) out.push_back(p.name);
    return out;
}

EditionPtr eval_edition(const std::string& preset) {
    auto rules = preset_rules(preset);
    REQUIRE(rules.ok());
    auto edition = Edition::make(*rules);
    REQUIRE(edition.ok());
    return *edition;
}

Position eval_tfen(const EditionPtr& edition, const std::string& text) {
    auto pos = parse_tfen(edition, text);
    INFO("TFEN '" << text << "': " << (pos ? std::string("ok") : pos.error()));
    REQUIRE(pos.ok());
    return *pos;
}

// The image of a position under one of the eight symmetries of the square
// (t bit 0: mirror files, bit 1: mirror ranks, bit 2: swap files and ranks),
// built from the placement; side to move and counters are kept.
Position transformed(const Position& pos, int t) {
    const Edition& edition = pos.edition();
    const int n = edition.size;
    Placement board{};
    for (Square s = 0; s < edition.num_squares; ++s) {
        int f = s % n, r = s / n;
        if (t & 1) f = n - 1 - f;
        if (t & 2) r = n - 1 - r;
        if (t & 4) std::swap(f, r);
        board[r * n + f] = pos.placed_piece(s);
    }
    auto out = Position::from_placement(pos.edition_ptr(), board, pos.side_to_move(),
                                        pos.plies_since_capture(), pos.fullmove());
    REQUIRE(out.ok());
    return *out;
}

// Positions of random games from the start (the game's decided positions
// included), `games` games of at most `max_plies` plies.
std::vector<Position> random_positions(const EditionPtr& edition, int games, int max_plies,
                                       uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Position> out;
    for (int g = 0; g < games; ++g) {
        Position pos(edition);
        for (int ply = 0; ply < max_plies; ++ply) {
            MoveList list;
            generate_moves(pos, list);
            if (list.empty() || pos.result().over()) break;
            pos.make_move(list.moves[rng() % list.count]);
            Position copy = pos;
            copy.clear_history();
            out.push_back(copy);
        }
    }
    return out;
}

EvalParams random_params(std::mt19937& rng) {
    EvalParams p;
    for (int i = 0; i < PARAM_COUNT; ++i) {
        const ParamInfo& info = param_table()[i];
        p.w[i] = info.min + int(rng() % uint32_t(info.max - info.min + 1));
    }
    return p;
}

} // namespace

TEST_CASE("eval: the weights table is consistent", "[eval]") {
    const auto& table = param_table();
    REQUIRE(table.size() == size_t(PARAM_COUNT));
    std::set<std::string> names;
    for (const ParamInfo& p : table) {
        INFO(p.name);
        CHECK(names.insert(p.name).second);
        CHECK(p.min <= p.max);
        for (DefaultSet set : all_default_sets()) {
            CHECK(p.default_in(set) >= p.min);
            CHECK(p.default_in(set) <= p.max);
        }
        for (char c : std::string(p.name))
            CHECK(((c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9')));
        CHECK(find_param(p.name).has_value());
    }
    CHECK_FALSE(find_param("no_such_weight").has_value());
    CHECK(find_param("King_Mobility") == std::optional<ParamId>(KING_MOBILITY));
    CHECK_FALSE(find_param("king_mobilit").has_value());
}

TEST_CASE("eval: default sets follow the rules' escape type", "[eval]") {
    for (const std::string& preset : eval_presets()) {
        auto rules = preset_rules(preset);
        REQUIRE(rules.ok());
        const DefaultSet want =
            set_named(rules->escape == EscapeType::EDGE            ? "edge"
                      : rules->size >= 10                          ? "corner_large"
                      : rules->king_strength == KingStrength::WEAK ? "corner_weak"
                                                                   : "corner");
        CHECK(default_set_for(*rules) == want);
        const EvalParams p = default_params(*rules);
        for (int i = 0; i < PARAM_COUNT; ++i) CHECK(p.w[i] == param_table()[i].default_in(want));
    }
    CHECK(default_set_for(*preset_rules("brandubh")) == set_named("corner"));
    CHECK(default_set_for(*preset_rules("brandubh-house")) == set_named("corner_weak"));
    CHECK(default_set_for(*preset_rules("tablut")) == set_named("edge"));
    CHECK(default_set_for(*preset_rules("tablut-house")) == set_named("edge"));
    for (const char* large :
         {"fetlar", "computer-fetlar", "opentafl-copenhagen", "opentafl-copenhagen-relaxed"})
        CHECK(default_set_for(*preset_rules(large)) == set_named("corner_large"));
    CHECK(default_set_for(*preset_rules("tawlbwrdd")) == set_named("edge"));
    for (DefaultSet set : all_default_sets()) CHECK(find_default_set(default_set_name(set)) == set);
    CHECK_FALSE(find_default_set("corner11").has_value());
    CHECK(std::string(default_set_name(set_named("corner_weak"))) == "corner_weak");
    CHECK(EvalParams{} == default_params(set_named("corner")));
}

TEST_CASE("eval: the default sets are the files of eval/weights", "[eval]") {
    std::vector<std::string> files;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(BRANAN_SOURCE_DIR) + "/eval/weights"))
        if (entry.path().extension() == ".txt") files.push_back(entry.path().stem().string());
    std::sort(files.begin(), files.end());
    std::vector<std::string> sets;
    for (DefaultSet set : all_default_sets()) sets.push_back(default_set_name(set));
    CHECK(sets == files);
    CHECK(default_set_names() == "corner, corner_large, corner_weak, edge");
    // By name, as the code names them.
    CHECK(default_params("edge") == default_params(set_named("edge")));
    CHECK(default_params("corner") == EvalParams{});
    CHECK(default_params("corner_weak") != EvalParams{});
}

TEST_CASE("eval: set_param and get_param check names and ranges", "[eval]") {
    EvalParams p;
    CHECK(set_param(p, "attacker_piece", 123).ok());
    CHECK(get_param(p, ATTACKER_PIECE) == 123);
    CHECK(*get_param(p, "attacker_piece") == 123);
    const ParamInfo& info = param_table()[ATTACKER_PIECE];
    Status st = set_param(p, "attacker_piece", info.max + 1);
    CHECK_FALSE(st.ok());
    CHECK(st.error().find("attacker_piece") != std::string::npos);
    CHECK(st.error().find("range") != std::string::npos);
    CHECK(get_param(p, ATTACKER_PIECE) == 123); // unchanged
    CHECK_FALSE(set_param(p, "attacker_piece", info.min - 1).ok());
    CHECK_FALSE(set_param(p, "nonsense", 1).ok());
    CHECK_FALSE(get_param(p, "nonsense").ok());
}

TEST_CASE("eval: save and load round trip", "[eval]") {
    for (DefaultSet set : all_default_sets()) {
        const EvalParams p = default_params(set);
        auto back = load_params(save_params(p));
        INFO((back ? std::string("ok") : back.error()));
        REQUIRE(back.ok());
        CHECK(*back == p);
    }
    std::mt19937 rng(7);
    for (int i = 0; i < 50; ++i) {
        const EvalParams p = random_params(rng);
        auto back = load_params(save_params(p));
        REQUIRE(back.ok());
        CHECK(*back == p);
    }
    // Comments, blank lines, spaces, CRLF, a '+' sign, no final newline.
    std::string text = save_params(EvalParams{});
    text = "# header\r\n\r\n   \t\n" + text + "  attacker_piece_late   =   +7   # trailing";
    // attacker_piece_late is now given twice: an error naming both lines.
    auto dup = load_params(text);
    REQUIRE_FALSE(dup.ok());
    CHECK(dup.error().find("twice") != std::string::npos);
    // Partial text over a base.
    auto partial = load_params("attacker_piece_late = +7 # x\r\n\ndefender_piece=-0\n",
                               default_params(set_named("edge")));
    INFO((partial ? std::string("ok") : partial.error()));
    REQUIRE(partial.ok());
    EvalParams want = default_params(set_named("edge"));
    want.w[ATTACKER_PIECE_LATE] = 7;
    want.w[DEFENDER_PIECE] = 0;
    CHECK(*partial == want);
}

TEST_CASE("eval: bad weight files are rejected with the line named", "[eval]") {
    const std::string base = "attacker_piece = 100\n";
    struct Case {
        std::string text;
        std::string want; // in the error
    };
    const Case cases[] = {
        {base + "no_such_weight = 1\n", "line 2: unknown evaluation weight 'no_such_weight'"},
        {base + "defender_piece = 5000\n",
         "line 2: evaluation weight 'defender_piece': 5000 is out of range [0, 1000]"},
        {base + "defender_piece = 12x\n",
         "line 2: 'defender_piece': expected an integer, got '12x'"},
        {base + "defender_piece =\n", "line 2: 'defender_piece': expected an integer"},
        {base + "defender_piece 12\n", "line 2: expected 'name = value'"},
        {base + "\n\n = 12\n", "line 4: missing the weight's name"},
        {base + "attacker_piece = 90\n",
         "line 2: 'attacker_piece' is given twice (first on line 1)"},
        {base + "defender_piece = 99999999999999\n",
         "line 2: 'defender_piece': expected an integer"},
        {base + "defender_piece = +-5\n", "line 2: 'defender_piece': expected an integer"},
        {base + "defender_piece = 1 2\n", "line 2: 'defender_piece': expected an integer"},
        {base + "Defender_Piece = 5000\n", "line 2: evaluation weight 'defender_piece'"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        auto r = load_params(c.text, EvalParams{});
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().find(c.want) != std::string::npos);
        auto full = load_params(c.text);
        CHECK_FALSE(full.ok());
    }
    // A full set is required by the one-argument form.
    auto missing = load_params(base);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().find("missing") != std::string::npos);
    CHECK(missing.error().find("defender_piece") != std::string::npos);
    CHECK(load_params(base, EvalParams{}).ok());
}

TEST_CASE("eval: weight files on disk", "[eval]") {
    const std::string path =
        std::string("/tmp/branan_test_eval_") + std::to_string(std::random_device{}()) + ".txt";
    EvalParams p = default_params(set_named("edge"));
    p.w[KING_MOBILITY] = 7;
    REQUIRE(save_params_file(p, path).ok());
    auto back = load_params_file(path);
    REQUIRE(back.ok());
    CHECK(*back == p);
    {
        std::ofstream out(path);
        out << "king_mobility = 9\nbogus = 1\n";
    }
    auto bad = load_params_file(path, EvalParams{});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().find(path) != std::string::npos);
    CHECK(bad.error().find("line 2") != std::string::npos);
    std::remove(path.c_str());
    auto none = load_params_file(path);
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().find("cannot open") != std::string::npos);
}

TEST_CASE("eval: trace coefficients reproduce the evaluation exactly", "[eval]") {
    std::mt19937 rng(11);
    int checked = 0;
    for (const std::string& preset : eval_presets()) {
        INFO(preset);
        const EditionPtr edition = eval_edition(preset);
        const EvalParams defaults = default_params(edition->rules);
        const auto positions = random_positions(edition, testutil::scaled(40), 120, 1234);
        for (const Position& pos : positions) {
            INFO(to_tfen(pos));
            const EvalTrace t = trace(pos);
            CHECK(t.value(defaults) == evaluate(pos, defaults));
            CHECK(t.raw(defaults) == evaluate(pos, defaults)); // no clamping with the defaults
            const EvalParams p = random_params(rng);
            CHECK(t.value(p) == evaluate(pos, p));
            const EvalBreakdown b = breakdown(pos, p);
            CHECK(b.value == evaluate(pos, p));
            ++checked;
        }
    }
    CHECK(checked > 1000);
}

TEST_CASE("eval: the evaluation is symmetric under the board's symmetries", "[eval][long]") {
    std::mt19937 rng(5);
    for (const std::string& preset : eval_presets()) {
        INFO(preset);
        const EditionPtr edition = eval_edition(preset);
        const EvalParams defaults = default_params(edition->rules);
        const auto positions = random_positions(edition, testutil::scaled(40), 120, 99);
        REQUIRE(positions.size() > size_t(testutil::scaled(200)));
        for (const Position& pos : positions) {
            if (pos.king_square() == NO_SQUARE) continue; // no placement without a king
            const Value e = evaluate(pos, defaults);
            const EvalTrace t = trace(pos);
            const EvalParams p = random_params(rng);
            const Value ep = evaluate(pos, p);
            for (int s = 1; s < 8; ++s) {
                const Position img = transformed(pos, s);
                INFO(to_tfen(pos) << " symmetry " << s << " -> " << to_tfen(img));
                CHECK(evaluate(img, defaults) == e);
                CHECK(evaluate(img, p) == ep);
                CHECK(trace(img).coef == t.coef);
            }
        }
    }
}

TEST_CASE("eval: the side to move sees the negated score of the other side", "[eval]") {
    const EditionPtr edition = eval_edition("tablut");
    const EvalParams p = default_params(edition->rules);
    for (const Position& pos : random_positions(edition, 10, 60, 3)) {
        // Coefficients other than the side-to-move terms are the same for
        // both sides to move; check the trace's sign handling.
        const EvalTrace t = trace(pos);
        CHECK(t.sign == (pos.side_to_move() == ATTACKERS ? 1 : -1));
        CHECK(t.coef[SIDE_TO_MOVE][pos.side_to_move()] == 1);
        CHECK(t.coef[SIDE_TO_MOVE][~pos.side_to_move()] == 0);
        CHECK(t.coefficient(SIDE_TO_MOVE) == 1);
    }
    (void)p;
}

TEST_CASE("eval: open lines to escape squares", "[eval]") {
    const EditionPtr b = eval_edition("brandubh");
    const EvalParams p = default_params(b->rules);
    // King on d1 (bottom edge, between the corners), a quiet board.
    // Ranks top down: 7 ... 1.
    const std::string open = "3t3/7/1t3t1/7/1t3t1/7/3K3";
    const Position att = eval_tfen(b, open + " a");
    const Position def = eval_tfen(b, open + " d");
    const EvalTrace ta = trace(att), td = trace(def);
    CHECK(ta.coef[ESCAPE_ROUTES_TWO][DEFENDERS] == 1);
    CHECK(td.coef[ESCAPE_ROUTE_TO_MOVE][DEFENDERS] == 1);
    CHECK(evaluate(def, p) > 2000);  // defenders to move: essentially won
    CHECK(evaluate(att, p) < -1500); // two lines: the attackers cannot block both

    // One line: attackers at b1 block the way to a1.
    const Position one = eval_tfen(b, "3t3/7/1t3t1/7/1t3t1/7/1t1K3 a");
    const EvalTrace t1 = trace(one);
    CHECK(t1.coef[ESCAPE_ROUTE_ONE][DEFENDERS] == 1);
    CHECK(t1.coef[ESCAPE_ROUTES_TWO][DEFENDERS] == 0);
    CHECK(evaluate(one, p) < evaluate(eval_tfen(b, "3t3/7/1t3t1/7/1t3t1/7/1t1K1t1 a"), p));

    // One line no attacker can step onto (b1-a1: the corner is the only
    // square) counts as decisive; one they can block (c1-a1 over b1, which
    // the attacker on b7 reaches) does not.
    const Position unstoppable = eval_tfen(b, "3t3/7/7/7/7/7/1K2T2 a");
    CHECK(trace(unstoppable).coef[ESCAPE_ROUTES_TWO][DEFENDERS] == 1);
    const Position blockable = eval_tfen(b, "1t5/7/7/7/7/7/2K1T2 a");
    CHECK(trace(blockable).coef[ESCAPE_ROUTE_ONE][DEFENDERS] == 1);
    CHECK(trace(blockable).coef[ESCAPE_ROUTES_TWO][DEFENDERS] == 0);
    // Attackers to move who can capture the king: his lines do not count.
    const EditionPtr h = eval_edition("brandubh-house");
    const Position capture = eval_tfen(h, "4t2/7/7/7/7/7/2tK3 a"); // e7-e1 captures on d1
    const EvalTrace tc = trace(capture);
    CHECK(tc.coef[KING_CAPTURE_THREAT][ATTACKERS] == 1);
    CHECK(tc.coef[ESCAPE_ROUTE_ONE][DEFENDERS] + tc.coef[ESCAPE_ROUTES_TWO][DEFENDERS] == 0);

    // Tablut: edge escape, the king on c3 sees two edges.
    const EditionPtr tv = eval_edition("tablut");
    const EvalParams tp = default_params(tv->rules);
    const Position tab = eval_tfen(tv, "9/9/9/9/9/5t3/2K6/9/9 d");
    CHECK(trace(tab).coef[ESCAPE_ROUTE_TO_MOVE][DEFENDERS] == 1);
    CHECK(evaluate(tab, tp) > 2000);
}

TEST_CASE("eval: distance to the nearest escape square", "[eval]") {
    const EditionPtr b = eval_edition("brandubh");
    // King on c2, nothing on the board but a few attackers away from his
    // lines: two moves to a corner (c2-c1 then c1-a1).
    const Position two = eval_tfen(b, "7/3t3/7/6t/7/2K4/7 a");
    const EvalTrace t = trace(two);
    CHECK(t.coef[ESCAPE_DISTANCE_2][DEFENDERS] == 1);
    CHECK(t.coef[ESCAPE_DISTANCE_3][DEFENDERS] == 0);
    CHECK(t.coef[ESCAPE_THREAT_SQUARES][DEFENDERS] >= 2);
}

TEST_CASE("eval: forks, squares with free lines to two escape squares", "[eval]") {
    const EditionPtr b = eval_edition("brandubh");
    // King d2: d1 (to a1 and g1), a2 (a1, a7) and g2 (g1, g7) are forks.
    const Position def = eval_tfen(b, "3t3/7/7/7/7/3K3/7 d");
    const EvalTrace t = trace(def);
    CHECK(t.coef[ESCAPE_FORK_SQUARES][DEFENDERS] == 3);
    CHECK(t.coef[ESCAPE_FORK_TO_MOVE][DEFENDERS] == 1);
    CHECK(evaluate(def, default_params(b->rules)) > 500);
    const Position att = eval_tfen(b, "3t3/7/7/7/7/3K3/7 a");
    CHECK(trace(att).coef[ESCAPE_FORK_TO_MOVE][DEFENDERS] == 0);
    CHECK(trace(att).coef[ESCAPE_FORK_SQUARES][DEFENDERS] == 3);
}

TEST_CASE("eval: the room of an enclosed king", "[eval]") {
    // A box of attackers on b1-f5 around the king on d3: his room is the
    // nine squares c2-e4.
    const EditionPtr edition = eval_edition("opentafl-copenhagen");
    const std::string top = "11/11/11/11/11/11/1ttttt5/1t3t5/";
    const Position box = eval_tfen(edition, top + "1t1K1t5/1t3t5/1ttttt5 a");
    CHECK(trace(box).coef[KING_ENCLOSED][ATTACKERS] == 1);
    CHECK(trace(box).coef[KING_ROOM_SHRUNK][ATTACKERS] == 64 - 9);
    // One more attacker inside (c2): eight squares.
    CHECK(trace(eval_tfen(edition, top + "1t1K1t5/1tt2t5/1ttttt5 a"))
              .coef[KING_ROOM_SHRUNK][ATTACKERS] == 64 - 8);
    // Every corner sealed by the attackers next to it: closed, but a room of
    // 109 squares counts nothing (closing a wide ring costs nothing).
    const Position wide = eval_tfen(edition, "1t7t1/t9t/11/11/11/11/4K6/11/11/t9t/1t7t1 a");
    CHECK(trace(wide).coef[KING_ENCLOSED][ATTACKERS] == 1);
    CHECK(trace(wide).coef[KING_ROOM_SHRUNK][ATTACKERS] == 0);
    // A gap in the box (f3 empty): not enclosed, no room counted.
    const Position open = eval_tfen(edition, top + "1t1K7/1t3t5/1ttttt5 a");
    CHECK(trace(open).coef[KING_ENCLOSED][ATTACKERS] == 0);
    CHECK(trace(open).coef[KING_ROOM_SHRUNK][ATTACKERS] == 0);
}

TEST_CASE("eval: a lone king's mobility", "[eval]") {
    // The king alone on e5 with the corners sealed: 10 squares on his rank,
    // 10 on his file.
    const EditionPtr edition = eval_edition("opentafl-copenhagen");
    const EvalTrace lone = trace(eval_tfen(edition, "1t7t1/t9t/11/11/11/11/4K6/11/11/t9t/1t7t1 a"));
    CHECK(lone.coef[KING_MOBILITY][DEFENDERS] == 20);
    CHECK(lone.coef[LONE_KING_MOBILITY][DEFENDERS] == 20);
    // One defender left (h9, off his lines): not alone.
    const EvalTrace guarded =
        trace(eval_tfen(edition, "1t7t1/t9t/7T3/11/11/11/4K6/11/11/t9t/1t7t1 a"));
    CHECK(guarded.coef[KING_MOBILITY][DEFENDERS] == 20);
    CHECK(guarded.coef[LONE_KING_MOBILITY][DEFENDERS] == 0);
    // Walled in on the edge (f1 between e1 and g1, f2 above): no move.
    const EvalTrace walled =
        trace(eval_tfen(edition, "1t7t1/t9t/11/11/11/11/11/11/11/t4t4t/1t2tKt2t1 d"));
    CHECK(walled.coef[LONE_KING_MOBILITY][DEFENDERS] == 0);
    // 0 in the small-board sets, 30 in corner_large.
    CHECK(default_params(edition->rules).w[LONE_KING_MOBILITY] == 30);
    CHECK(default_params(eval_edition("brandubh")->rules).w[LONE_KING_MOBILITY] == 0);
}

TEST_CASE("eval: king capture threats and enclosure", "[eval]") {
    const EditionPtr edition = eval_edition("brandubh-house"); // weak king
    const EvalParams p = default_params(edition->rules);
    // King e3 with an attacker on d3; an attacker on f7 can come to f3.
    const Position pos = eval_tfen(edition, "5t1/7/7/7/3tK2/7/7 a");
    const EvalTrace t = trace(pos);
    CHECK(t.coef[KING_CAPTURE_THREAT][ATTACKERS] == 1);
    CHECK(t.coef[KING_ADJACENT_ATTACKER][ATTACKERS] == 1);
    CHECK(evaluate(pos, p) > 2000);
    const Position def = eval_tfen(edition, "5t1/7/7/7/3tK2/7/7 d");
    CHECK(trace(def).coef[KING_CAPTURE_THREAT_DEFER][ATTACKERS] == 1);

    // Brandubh: the king strong on the throne only; on d4 he needs four.
    const EditionPtr bv = eval_edition("brandubh");
    const Position throne3 = eval_tfen(bv, "7/7/3t3/2tK3/3t3/7/5t1 a");
    CHECK(trace(throne3).coef[KING_CAPTURE_THREAT][ATTACKERS] == 0); // f1 cannot reach e4
    const Position throne4 = eval_tfen(bv, "7/7/3t3/2tK3/3t3/7/4t2 a");
    CHECK(trace(throne4).coef[KING_CAPTURE_THREAT][ATTACKERS] == 1); // e1-e4 captures

    // A closed diamond of attackers around the king: enclosed.
    const Position ring = eval_tfen(bv, "7/3t3/2t1t2/1t1K1t1/2t1t2/3t3/7 a");
    const EvalTrace tr = trace(ring);
    CHECK(tr.coef[KING_ENCLOSED][ATTACKERS] == 1);
    CHECK(tr.coef[ESCAPE_REGION][DEFENDERS] == 0);
    CHECK(tr.coef[ATTACKER_DIAGONAL_LINK][ATTACKERS] == 8);
    const Position start(bv);
    CHECK(trace(start).coef[KING_ENCLOSED][ATTACKERS] == 0);
    CHECK(trace(start).coef[ESCAPE_REGION][DEFENDERS] == 4);
}

TEST_CASE("eval: exposed soldiers and material", "[eval]") {
    const EditionPtr bv = eval_edition("brandubh");
    const EvalParams p = default_params(bv->rules);
    // Attacker on b1 next to the hostile corner a1; a defender on c7 can
    // come down to c1 and capture it.
    const Position pos = eval_tfen(bv, "2T4/7/7/3K3/7/7/1t5 d");
    CHECK(trace(pos).coef[ATTACKER_EXPOSED][ATTACKERS] == 1);
    // Start position: nobody exposed, material as counted.
    const Position start(bv);
    const EvalTrace t = trace(start);
    CHECK(t.coef[ATTACKER_PIECE][ATTACKERS] == 8);
    CHECK(t.coef[DEFENDER_PIECE][DEFENDERS] == 4);
    CHECK(t.coef[ATTACKER_PIECE_LATE][ATTACKERS] == 0);
    // One attacker fewer is better for the defenders.
    const Position less = eval_tfen(bv, "3t3/7/3T3/ttTKTtt/3T3/3t3/3t3 a");
    CHECK(evaluate(less, p) < evaluate(start, p));
    CHECK(trace(less).coef[DEFENDER_PIECE_LATE][DEFENDERS] == 4); // 4 defenders x 1 captured
}

TEST_CASE("eval: positions without a king evaluate without error", "[eval]") {
    // House Brandubh: the king is weak, e1-e4 captures him on the throne.
    const EditionPtr hv = eval_edition("brandubh-house");
    Position pos = eval_tfen(hv, "7/7/7/2tK3/7/7/4t2 a");
    auto m = parse_legal_move(pos, "e1-e4");
    REQUIRE(m.ok());
    pos.make_move(*m);
    REQUIRE(pos.king_square() == NO_SQUARE);
    const Value e = evaluate(pos, EvalParams{});
    CHECK(e > -VALUE_EVAL_MAX - 1);
    CHECK(e < VALUE_EVAL_MAX + 1);
}

TEST_CASE("eval: the breakdown adds up and formats", "[eval]") {
    const EditionPtr tv = eval_edition("tablut");
    const Position start(tv);
    const EvalParams p = default_params(tv->rules);
    const EvalBreakdown b = breakdown(start, p);
    int att = 0, def = 0;
    for (const auto& term : b.terms) {
        att += term.attackers;
        def += term.defenders;
    }
    CHECK(att == b.attackers);
    CHECK(def == b.defenders);
    CHECK(b.value == evaluate(start, p));
    const std::string text = format_breakdown(b);
    CHECK(text.find("material") != std::string::npos);
    CHECK(text.find("total") != std::string::npos);
}

TEST_CASE("eval: other board sizes (8x8, 10x10, 11x11) are symmetric and traced", "[eval]") {
    // Rules of our own with symmetric special squares; the start positions
    // need not be symmetric.
    const char* const rules[] = {
        "dim:8 name:Eight esc:e atkf:y surf:n ks:w cor: cen: "
        "start:/3tt3/3tt3/8/tt1TK1tt/tt1TT1tt/8/3tt3/3tt3/",
        "dim:10 name:Ten esc:c atkf:n surf:n ks:m cor:a1,j1,a10,j10, cen: "
        "start:/3tttt3/4tt4/10/t3TT3t/tt2KT2tt/tt2TT2tt/t3TT3t/10/4tt4/3tttt3/",
        "dim:11 name:Copenhagen esc:c atkf:y surf:n ks:s cor:a1,k1,a11,k11, corh:tTK corp:K "
        "cors:K cen:f6, cenh:tT cenhe:tTK cenp:K cens:K cenre:K "
        "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    };
    std::mt19937 rng(17);
    for (const char* text : rules) {
        INFO(text);
        auto r = parse_rules(text);
        REQUIRE(r.ok());
        auto edition = Edition::make(*r);
        REQUIRE(edition.ok());
        const EvalParams defaults = default_params(*r);
        for (const Position& pos : random_positions(*edition, 10, 150, 8)) {
            if (pos.king_square() == NO_SQUARE) continue;
            const EvalParams p = random_params(rng);
            const EvalTrace t = trace(pos);
            CHECK(t.value(p) == evaluate(pos, p));
            CHECK(t.value(defaults) == evaluate(pos, defaults));
            for (int s = 1; s < 8; ++s) {
                const Position img = transformed(pos, s);
                INFO(to_tfen(pos) << " symmetry " << s);
                CHECK(trace(img).coef == t.coef);
            }
        }
    }
}

TEST_CASE("eval: results do not depend on what was evaluated before", "[eval]") {
    // The per-thread cache (ring flood) must be transparent: the same
    // values in any order, in another thread, and across editions.
    std::vector<std::pair<Position, Value>> seen;
    for (const std::string& preset : eval_presets()) {
        const EditionPtr edition = eval_edition(preset);
        const EvalParams p = default_params(edition->rules);
        for (const Position& pos : random_positions(edition, 5, 80, 21))
            seen.emplace_back(pos, evaluate(pos, p));
    }
    std::vector<Value> other(seen.size()), fresh(seen.size());
    std::thread worker([&] {
        for (size_t i = seen.size(); i-- > 0;)
            other[i] = evaluate(seen[i].first, default_params(seen[i].first.edition().rules));
    });
    worker.join();
    // With an empty cache each time: a position of another edition in
    // between makes the thread rebuild its tables.
    const Position nine(eval_edition("tablut")), seven(eval_edition("brandubh"));
    std::thread cold([&] {
        for (size_t i = 0; i < seen.size(); ++i) {
            (void)evaluate(seen[i].first.size() == 9 ? seven : nine, EvalParams{});
            fresh[i] = evaluate(seen[i].first, default_params(seen[i].first.edition().rules));
        }
    });
    cold.join();
    for (size_t i = 0; i < seen.size(); ++i) {
        INFO(to_tfen(seen[i].first));
        CHECK(other[i] == seen[i].second);
        CHECK(fresh[i] == seen[i].second);
        CHECK(evaluate(seen[i].first, default_params(seen[i].first.edition().rules)) ==
              seen[i].second);
    }
}

namespace {

// The squares the pieces of `p` can move to, by the rules core's move
// generation (union over the pieces).
Bitboard movegen_reach(const Position& pos, Piece p) {
    Bitboard out = 0;
    for_each_square(pos.pieces(p), [&](Square s) { out |= move_targets(pos, s); });
    return out;
}

// Brandubh with corners nobody may pass over (the king may still stop on
// them): a square one may stop on but not pass.
std::string brandubh_corners_not_passable() {
    std::string text = presets().front().rules;
    const std::string from = "corp:K";
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), "corp:");
    return text;
}

} // namespace

TEST_CASE("eval: mobility counts agree with the rules core's move generation", "[eval]") {
    std::vector<EditionPtr> editions;
    for (const std::string& preset : eval_presets()) editions.push_back(eval_edition(preset));
    auto odd = Edition::make(*parse_rules(brandubh_corners_not_passable()));
    REQUIRE(odd.ok());
    editions.push_back(*odd);
    for (const EditionPtr& edition : editions) {
        INFO(edition->rules.name);
        // The fills count slides: Berserk's jumps are not in them.
        if (edition->special_moves) continue;
        for (const Position& pos : random_positions(edition, 10, 120, 77)) {
            if (pos.decided().over()) continue;
            INFO(to_tfen(pos));
            const EvalTrace t = trace(pos);
            CHECK(t.coef[KING_MOBILITY][DEFENDERS] ==
                  popcount(move_targets(pos, pos.king_square())));
            CHECK(t.coef[ATTACKER_MOBILITY][ATTACKERS] == popcount(movegen_reach(pos, ATTACKER)));
            CHECK(t.coef[DEFENDER_MOBILITY][DEFENDERS] == popcount(movegen_reach(pos, DEFENDER)));
            const int routes = popcount(move_targets(pos, pos.king_square()) & edition->escape);
            const int route_terms = t.coef[ESCAPE_ROUTE_TO_MOVE][DEFENDERS] +
                                    t.coef[ESCAPE_ROUTES_TWO][DEFENDERS] +
                                    t.coef[ESCAPE_ROUTE_ONE][DEFENDERS];
            // With the attackers to move and able to capture the king, his
            // lines do not count.
            const bool capture = t.coef[KING_CAPTURE_THREAT][ATTACKERS] == 1;
            const bool counted = routes > 0 && !(pos.side_to_move() == ATTACKERS && capture);
            CHECK(route_terms == (counted ? 1 : 0));
            if (pos.side_to_move() == ATTACKERS && routes >= 2 && !capture)
                CHECK(t.coef[ESCAPE_ROUTES_TWO][DEFENDERS] == 1);
        }
    }
}

TEST_CASE("eval: escape squares the king may stop on but not pass", "[eval]") {
    auto r = parse_rules(brandubh_corners_not_passable());
    REQUIRE(r.ok());
    auto edition = Edition::make(*r);
    REQUIRE(edition.ok());
    const Position pos = eval_tfen(*edition, "3t3/7/1t3t1/7/1t3t1/7/3K3 a");
    const EvalTrace t = trace(pos);
    CHECK(t.coef[ESCAPE_ROUTES_TWO][DEFENDERS] == 1);
    CHECK(t.coef[ESCAPE_REGION][DEFENDERS] == 4);
    const Position two = eval_tfen(*edition, "7/3t3/7/6t/7/2K4/7 a");
    CHECK(trace(two).coef[ESCAPE_DISTANCE_2][DEFENDERS] == 1);
    for (const Position& p : random_positions(*edition, 10, 100, 4)) {
        if (p.king_square() == NO_SQUARE) continue;
        const EvalTrace tp = trace(p);
        for (int s = 1; s < 8; ++s) CHECK(trace(transformed(p, s)).coef == tp.coef);
    }
}

TEST_CASE("eval: edge forts, in edge-fort games only", "[eval]") {
    // King on f1 with defenders on e1 (beside him), e2 and g2 (diagonal).
    const std::string tfen = "11/11/11/5t5/11/11/11/11/11/4T1T4/4TK5 d";
    const EvalTrace c = trace(eval_tfen(eval_edition("opentafl-copenhagen"), tfen));
    CHECK(c.coef[FORT_KING_ON_EDGE][DEFENDERS] == 1);
    CHECK(c.coef[FORT_DEFENDERS][DEFENDERS] == 3);
    // Off the edge: nothing.
    const EvalTrace up = trace(
        eval_tfen(eval_edition("opentafl-copenhagen"), "11/11/11/5t5/11/11/11/11/5K5/4T1T4/4T6 d"));
    CHECK(up.coef[FORT_KING_ON_EDGE][DEFENDERS] == 0);
    CHECK(up.coef[FORT_DEFENDERS][DEFENDERS] == 0);
    // Fetlar has no edge-fort escape.
    const EvalTrace f = trace(eval_tfen(eval_edition("fetlar"), tfen));
    CHECK(f.coef[FORT_KING_ON_EDGE][DEFENDERS] == 0);
    CHECK(f.coef[FORT_DEFENDERS][DEFENDERS] == 0);
    // The opentafl-copenhagen set values them; the small-board sets do not.
    CHECK(default_params(set_named("corner_large"))[FORT_KING_ON_EDGE] > 0);
    CHECK(default_params(set_named("corner"))[FORT_KING_ON_EDGE] == 0);
}

TEST_CASE("eval: rows on the edge faced by the enemy, in shieldwall games only", "[eval]") {
    // c1 d1 (defenders) under c2 d2 (attackers): a faced row of two. a4 a5
    // (attackers) beside b4 b5 (defenders): another. h1 under h2 stands
    // alone on its edge: no row, not counted. The king on f1 is not a
    // soldier to lose.
    const std::string tfen = "11/11/11/11/11/11/tT9/tT9/11/2tt3t3/2TT1K1T3 a";
    const EvalTrace c = trace(eval_tfen(eval_edition("opentafl-copenhagen"), tfen));
    CHECK(c.coef[DEFENDER_WALL_EXPOSED][DEFENDERS] == 2);
    CHECK(c.coef[ATTACKER_WALL_EXPOSED][ATTACKERS] == 2);
    // The king closes a row of defenders: e1 beside him, under e2.
    const EvalTrace k = trace(
        eval_tfen(eval_edition("opentafl-copenhagen"), "11/11/11/5t5/11/11/11/11/11/4t6/4TK5 a"));
    CHECK(k.coef[DEFENDER_WALL_EXPOSED][DEFENDERS] == 1);
    // A row with a friendly piece inside one of its squares: only the faced
    // one counts.
    const EvalTrace half = trace(
        eval_tfen(eval_edition("opentafl-copenhagen"), "11/11/11/11/11/5K5/11/11/11/2tT7/2TT7 a"));
    CHECK(half.coef[DEFENDER_WALL_EXPOSED][DEFENDERS] == 1);
    // Fetlar has no shieldwall.
    const EvalTrace f = trace(eval_tfen(eval_edition("fetlar"), tfen));
    CHECK(f.coef[DEFENDER_WALL_EXPOSED][DEFENDERS] == 0);
    CHECK(f.coef[ATTACKER_WALL_EXPOSED][ATTACKERS] == 0);
    CHECK(default_params(set_named("corner_large"))[DEFENDER_WALL_EXPOSED] < 0);
}
