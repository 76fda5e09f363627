// `branan review` and `branan diagram`: grades, the game formats, refusals,
// a stopped review, the reports, and the SVG boards of every size.

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "command_line.h"
#include "diagram.h"
#include "game_file.h"
#include "movegen.h"
#include "notation.h"
#include "review.h"
#include "review_report.h"
#include "test_helpers.h"
#include "text.h"

using namespace branan;
using branan::testutil::contains;
using branan::testutil::edition;

namespace {

struct ReviewRun {
    int status = 0;
    std::string out, err;
};

ReviewRun review_cli(std::vector<std::string> words) {
    std::vector<const char*> argv{"branan"};
    for (const std::string& w : words) argv.push_back(w.c_str());
    std::istringstream in;
    std::ostringstream out, err;
    const int status = run_cli(int(argv.size()), argv.data(), in, out, err);
    return {status, out.str(), err.str()};
}

std::string review_file(const std::string& name, const std::string& text) {
    const auto dir = std::filesystem::temp_directory_path() / "branan_review_tests";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
}

// Minimal XML well-formedness: every tag closed in order, attributes quoted,
// no stray '<' or '&' in text. Returns the first fault, or "".
std::string xml_fault(const std::string& x) {
    std::vector<std::string> open;
    size_t i = 0;
    while (i < x.size()) {
        if (x[i] == '&') {
            const size_t semi = x.find(';', i);
            if (semi == std::string::npos || semi - i > 8)
                return "a bare '&' at " + std::to_string(i);
            i = semi + 1;
            continue;
        }
        if (x[i] != '<') {
            if (x[i] == '>') return "a bare '>' at " + std::to_string(i);
            ++i;
            continue;
        }
        const size_t end = x.find('>', i);
        if (end == std::string::npos) return "an unclosed tag at " + std::to_string(i);
        std::string tag = x.substr(i + 1, end - i - 1);
        i = end + 1;
        if (tag.empty()) return "an empty tag";
        if (tag[0] == '?' || tag[0] == '!') continue;
        if (tag[0] == '/') {
            if (open.empty() || open.back() != tag.substr(1))
                return "'</" + tag.substr(1) + ">' closes nothing open";
            open.pop_back();
            continue;
        }
        const bool self_closing = tag.back() == '/';
        if (self_closing) tag.pop_back();
        const size_t name_end = tag.find(' ');
        const std::string name = tag.substr(0, name_end);
        // Attributes: name="value" pairs.
        std::string rest = name_end == std::string::npos ? "" : tag.substr(name_end);
        size_t k = 0;
        while (k < rest.size()) {
            if (rest[k] == ' ') {
                ++k;
                continue;
            }
            const size_t eq = rest.find('=', k);
            if (eq == std::string::npos || eq + 1 >= rest.size() || rest[eq + 1] != '"')
                return "an unquoted attribute in <" + name + ">";
            const size_t close = rest.find('"', eq + 2);
            if (close == std::string::npos) return "an unclosed attribute in <" + name + ">";
            k = close + 1;
        }
        if (!self_closing) open.push_back(name);
    }
    if (!open.empty()) return "<" + open.back() + "> is never closed";
    return "";
}

size_t count_of(const std::string& text, const std::string& part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

// Brandubh, the attackers to move: a2 keeps the king on a3 from the corner
// a1 (a6 guards a7). Moving it away lets him escape at once.
const char* const ESCAPE_START = "7/t3t2/4T2/7/K6/t6/7 a 0 1";

Result<Review> review_moves(const std::string& preset, const std::string& start,
                            const std::string& moves, ReviewOptions o) {
    Engine engine;
    REQUIRE(engine.set_preset(preset).ok());
    GameText text;
    text.format = GameFormat::TFEN_AND_MOVES;
    text.start = start;
    for (std::string_view m : split_words(moves)) text.moves.push_back({std::string(m), 2});
    auto game = replay_game(text, engine.position().edition_ptr());
    REQUIRE(game.ok());
    return review_game(engine, engine.rules_string(), *game, o);
}

ReviewOptions at_depth(int depth) {
    ReviewOptions o;
    o.limits.depth = depth;
    return o;
}

} // namespace

TEST_CASE("Review grades a move that lets the king escape as a blunder, the escape best",
          "[review]") {
    auto review = review_moves("brandubh", ESCAPE_START, "a2-b2 a3-a1", at_depth(4));
    REQUIRE(review.ok());
    REQUIRE(review->plies.size() == 2);
    const PlyReview& blunder = review->plies[0];
    CHECK(blunder.mover == ATTACKERS);
    CHECK(blunder.grade == Grade::BLUNDER);
    CHECK(blunder.drop >= BLUNDER_DROP);
    CHECK(blunder.win_after < 0.01); // the defenders win at once
    const PlyReview& escape = review->plies[1];
    CHECK(move_name(*edition("brandubh"), escape.best) == "a3-a1");
    CHECK(escape.grade == Grade::BEST);
    CHECK(escape.mate_before > 0);
    CHECK(!escape.missed_escape);
    CHECK(review->turning_point == 1);
    CHECK(review->result.winner == Winner::DEFENDERS);
    CHECK(review->sides[ATTACKERS].grades[size_t(Grade::BLUNDER)] == 1);
    CHECK(review->sides[ATTACKERS].accuracy < 20);
    CHECK(review->sides[DEFENDERS].accuracy == Approx(100));

    // The escape not taken: flagged, and never the best move (the grade is
    // the drop's: the defenders may still win another way).
    auto missed = review_moves("brandubh", ESCAPE_START, "a2-b2 e5-e4", at_depth(4));
    REQUIRE(missed.ok());
    REQUIRE(missed->plies.size() == 2);
    CHECK(missed->plies[1].missed_escape);
    CHECK(!missed->plies[1].missed_win);
    CHECK(missed->plies[1].grade != Grade::BEST);
}

TEST_CASE("Review grades by the drop in win chance, never an engine move down", "[review]") {
    CHECK(grade_of(0, false) == Grade::GOOD);
    CHECK(grade_of(4.9, false) == Grade::GOOD);
    CHECK(grade_of(INACCURACY_DROP, false) == Grade::INACCURACY);
    CHECK(grade_of(MISTAKE_DROP, false) == Grade::MISTAKE);
    CHECK(grade_of(BLUNDER_DROP, false) == Grade::BLUNDER);
    CHECK(grade_of(80, true) == Grade::BEST);
    CHECK(move_accuracy(0) == Approx(100).margin(0.01));
    CHECK(move_accuracy(100) == 0);
    for (double d = 0; d < 60; d += 1) CHECK(move_accuracy(d + 1) < move_accuracy(d));
}

TEST_CASE("Review of one game is the same from every format it reads", "[review]") {
    // A game of OpenTafl's Brandub, its moves drawn at random but legal.
    auto ed = edition("opentafl-brandub");
    Position pos(ed);
    std::mt19937 rng(20261205);
    std::vector<std::string> records, names, bare;
    bool captured = false;
    while (records.size() < 14) {
        MoveList list;
        generate_moves(pos, list);
        std::vector<Move> moves(list.begin(), list.end());
        std::shuffle(moves.begin(), moves.end(), rng);
        // A capture when there is one, so that the records list some.
        std::stable_partition(moves.begin(), moves.end(), [&](Move m) {
            Position after = pos;
            after.make_move(m);
            return bool(after.last_captured());
        });
        Move chosen = MOVE_NONE;
        for (Move m : moves) {
            Position after = pos;
            after.make_move(m);
            if (!after.result().over()) {
                chosen = m;
                break;
            }
        }
        REQUIRE(!chosen.is_none());
        const std::string record = move_record(pos, chosen);
        records.push_back(record);
        names.push_back(move_name(*ed, chosen));
        const size_t x = record.find('x');
        if (x != std::string::npos) captured = true;
        bare.push_back(x == std::string::npos ? record : record.substr(0, x + 1));
        pos.make_move(chosen);
    }
    REQUIRE(captured);

    auto numbered = [](const std::vector<std::string>& moves) {
        std::string s;
        for (size_t i = 0; i < moves.size(); i += 2)
            s += std::to_string(i / 2 + 1) + ". " + moves[i] +
                 (i + 1 < moves.size() ? " " + moves[i + 1] : "") + "\n";
        return s;
    };
    const std::string start = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1";
    std::string position_line = "position startpos moves";
    for (const std::string& n : names) position_line += " " + n;
    std::string tfen_and_moves = start + "\n";
    for (const std::string& n : names) tfen_and_moves += n + " ";
    const std::string opentafl =
        "[date:2026.12.05]\n[rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: "
        "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n[result:?]\n\n" +
        numbered(records);
    Engine engine;
    REQUIRE(engine.set_preset("opentafl-brandub").ok());
    std::string match =
        "# branan-match game record 1\nRun: test\nGame: 1\nRules: " + engine.rules_string() +
        "\nStart: " + start + "\nResult: draw\nPlies: " + std::to_string(records.size()) + "\n\n";
    for (size_t i = 0; i < records.size(); ++i)
        match += std::to_string(i + 1) + (i % 2 ? " d " : " a ") + records[i] + " 5ms\n";

    const std::pair<const char*, std::string> files[] = {{"list.txt", numbered(bare)},
                                                         {"position.txt", position_line + "\n"},
                                                         {"tfen.txt", tfen_and_moves},
                                                         {"game.otg", opentafl},
                                                         {"game-00001.txt", match}};
    const char* const formats[] = {"move list", "position line", "TFEN and moves",
                                   "OpenTafl game file", "branan-match record"};
    nlohmann::json first;
    for (size_t i = 0; i < std::size(files); ++i) {
        const std::string path = review_file(files[i].first, files[i].second);
        const ReviewRun run = review_cli(
            {"--variant", "opentafl-brandub", "review", path, "--depth", "3", "--format", "json"});
        INFO(files[i].first << ": " << run.err);
        REQUIRE(run.status == 0);
        const nlohmann::json doc = nlohmann::json::parse(run.out);
        CHECK(doc["format"] == formats[i]);
        CHECK(doc["complete"] == true);
        REQUIRE(doc["plies"].size() == records.size());
        if (i == 0)
            first = doc;
        else {
            CHECK(doc["rules"] == first["rules"]);
            CHECK(doc["plies"] == first["plies"]);
            CHECK(doc["sides"] == first["sides"]);
        }
    }
    // Every ply names its move as the rules write it, captures and all.
    for (size_t i = 0; i < records.size(); ++i) CHECK(first["plies"][i]["played"] == records[i]);
}

TEST_CASE("Review refuses a game with an illegal move, naming its ply, and writes nothing",
          "[review]") {
    const std::string path = review_file("illegal.txt", "1. b4-b2 c4-c2\n2. d1-d2 e4-e1\n");
    const std::string out = path + ".html";
    std::filesystem::remove(out);
    const ReviewRun run = review_cli({"review", path, "--depth", "2", "-o", out});
    CHECK(run.status == EXIT_BAD_INPUT);
    CHECK(contains(run.err, "ply 3 (line 2) 'd1-d2'"));
    CHECK(!std::filesystem::exists(out));

    // A capture written where there is none, and a file of no game.
    const ReviewRun wrong =
        review_cli({"review", review_file("x.txt", "1. b4-b2x\n"), "--depth", "2"});
    CHECK(wrong.status == EXIT_BAD_INPUT);
    CHECK(contains(wrong.err, "ply 1"));
    CHECK(contains(wrong.err, "takes nothing"));
    const ReviewRun empty =
        review_cli({"review", review_file("empty.txt", "\n\n"), "--depth", "2"});
    CHECK(empty.status == EXIT_BAD_INPUT);
    const std::string two = review_file("two.txt", "1. b4-b2 c4-c2\n");
    const ReviewRun late = review_cli({"review", two, "--from", "3", "--depth", "2"});
    CHECK(late.status == EXIT_BAD_INPUT);
    CHECK(contains(late.err, "the game has 2 plies"));
    const ReviewRun backwards =
        review_cli({"review", two, "--from", "2", "--to", "1", "--depth", "2"});
    CHECK(backwards.status == EXIT_BAD_INPUT);
    const ReviewRun missing = review_cli({"review", "/nonexistent/game.txt"});
    CHECK(missing.status == EXIT_BAD_INPUT);
    CHECK(contains(missing.err, "cannot read"));
}

TEST_CASE("Review stopped early keeps the plies before the stop", "[review]") {
    std::atomic<bool> stop{false};
    ReviewOptions o;
    o.limits.movetime_ms = 60;
    o.interrupt = &stop;
    o.progress = [&](int done, int, int64_t) {
        if (done >= 3) stop = true;
    };
    auto review = review_moves("brandubh", testutil::BRANDUBH_START,
                               "d1-c1 d3-b3 a4-a2 e4-e6 g4-g6 c4-c6 d7-c7 d5-e5 d2-e2 b3-e3 "
                               "c1-c3 e3-f3 b4-b5 e5-e4",
                               o);
    REQUIRE(review.ok());
    CHECK(!review->complete);
    CHECK(review->plies.size() >= 1);
    CHECK(review->plies.size() < 14);
    for (size_t i = 0; i < review->plies.size(); ++i) CHECK(review->plies[i].ply == int(i) + 1);
    CHECK(contains(review_text(*review, *edition("brandubh")), "Stopped early"));
}

TEST_CASE("Review on two threads reviews every ply of the asked range", "[review]") {
    ReviewOptions o = at_depth(3);
    o.threads = 2;
    o.from_ply = 3;
    o.to_ply = 9;
    auto review = review_moves("brandubh", testutil::BRANDUBH_START,
                               "d1-c1 d3-b3 a4-a2 e4-e6 g4-g6 c4-c6 d7-c7 d5-e5 d2-e2 b3-e3", o);
    REQUIRE(review.ok());
    CHECK(review->complete);
    CHECK(review->threads == 2);
    REQUIRE(review->plies.size() == 7);
    CHECK(review->plies.front().ply == 3);
    CHECK(review->plies.back().ply == 9);
    CHECK(review->plies[0].record == "a4-a2");
    CHECK(review->sides[ATTACKERS].moves + review->sides[DEFENDERS].moves == 7);
}

TEST_CASE("Review's HTML is one file with a board a ply and nothing from outside", "[review]") {
    Engine engine;
    REQUIRE(engine.set_preset("brandubh").ok());
    GameText text;
    text.start = ESCAPE_START;
    text.moves = {{"a2-b2", 1}, {"a3-a1", 1}};
    auto game = replay_game(text, engine.position().edition_ptr());
    REQUIRE(game.ok());
    auto review = review_game(engine, engine.rules_string(), *game, at_depth(3));
    REQUIRE(review.ok());
    const std::string html = review_html(*review, *game);
    CHECK(count_of(html, "class=\"ply-board\"") == 2);
    CHECK(count_of(html, "<figure class=\"moment\"") == 1); // the blunder, the turning point
    CHECK(contains(html, "id=\"graph\""));
    CHECK(count_of(html, "http") == count_of(html, "http://www.w3.org/2000/svg"));
    CHECK(!contains(html, "<link"));
    CHECK(!contains(html, "src="));
    const nlohmann::json doc = nlohmann::json::parse(review_json(*review, game->start.edition()));
    CHECK(doc["version"] == REVIEW_SCHEMA_VERSION);
    CHECK(doc["plies"][0]["grade"] == "blunder");
    CHECK(doc["plies"][1]["best"] == "a3-a1");
    CHECK(doc["turning_point"] == 1);
    CHECK(doc["result"]["winner"] == "defenders");
}

TEST_CASE("Diagram of every board size is well-formed SVG with its squares and pieces",
          "[review]") {
    std::vector<int> sizes_seen;
    for (const Preset& preset : presets()) {
        auto ed = edition(std::string(preset.name));
        if (std::find(sizes_seen.begin(), sizes_seen.end(), ed->size) != sizes_seen.end()) continue;
        sizes_seen.push_back(ed->size);
        Position pos(ed);
        DiagramOptions d;
        d.arrows.push_back({ed->square(0, 0), ed->square(0, 2), BEST_ARROW});
        d.highlights.push_back(ed->square(1, 1));
        d.captured.push_back(ed->square(2, 2));
        const std::string svg = board_svg(pos, d);
        INFO(preset.name << " " << ed->size << "x" << ed->size);
        CHECK(xml_fault(svg) == "");
        CHECK(count_of(svg, "class=\"sq") == size_t(ed->size * ed->size));
        CHECK(count_of(svg, "class=\"pc ") == size_t(popcount(pos.occupied())));
        CHECK(count_of(svg, "class=\"pc att") == size_t(popcount(pos.pieces(ATTACKERS))));
        CHECK(count_of(svg, " king\"") == 1);
        CHECK(count_of(svg, "class=\"arrow\"") == 1);
        CHECK(count_of(svg, "class=\"hl\"") == 1);
        CHECK(count_of(svg, "class=\"taken\"") == 1);
        CHECK(count_of(svg, "class=\"coord\"") == size_t(2 * ed->size));
    }
    std::sort(sizes_seen.begin(), sizes_seen.end());
    CHECK(sizes_seen.front() == 7);
    CHECK(sizes_seen.back() == 19);
    CHECK(xml_fault("<a><b></a></b>") != ""); // the checker itself

    // Berserk's commanders and knights carry their letters.
    auto berserk = edition("opentafl-berserk");
    Position pos(berserk);
    const std::string svg = board_svg(pos, {});
    CHECK(xml_fault(svg) == "");
    CHECK(count_of(svg, "class=\"letter\"") == size_t(popcount(pos.commanders() | pos.knights())));
    CHECK(count_of(svg, ">C</text>") == 4);
    CHECK(count_of(svg, ">N</text>") == 1);
}

TEST_CASE("Diagram command draws a position after moves, and refuses a bad arrow", "[review]") {
    const std::string out = review_file("board.svg", "");
    std::filesystem::remove(out);
    const ReviewRun run =
        review_cli({"--variant", "copenhagen", "diagram", "--moves", "h1-h3 d6-d3", "--arrow",
                    "d1-d2", "--highlight", "e5,e6", "-o", out});
    INFO(run.err);
    REQUIRE(run.status == 0);
    const std::string svg = testutil::read_file(out);
    CHECK(xml_fault(svg) == "");
    CHECK(count_of(svg, "class=\"sq") == 121);
    CHECK(count_of(svg, "class=\"arrow\"") == 1);
    CHECK(count_of(svg, "class=\"hl\"") == 4); // e5, e6 and the last move's squares

    std::filesystem::remove(out);
    const ReviewRun bad =
        review_cli({"--variant", "copenhagen", "diagram", "--arrow", "z1-d2", "-o", out});
    CHECK(bad.status == EXIT_BAD_INPUT);
    CHECK(contains(bad.err, "--arrow"));
    CHECK(!std::filesystem::exists(out));
}
