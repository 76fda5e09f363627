// Text formats of the rules core: TFEN, OpenTafl position and move records,
// move text and rules strings; round trips, and bad input that must give an
// error naming the problem.

#include <algorithm>
#include <random>

#include "rules_keys.h"
#include "test_helpers.h"
#include "text.h"

using namespace branan;
using namespace branan::testutil;

namespace {

std::string start_tfen(const std::string& ed) {
    return ed.rfind("brandubh", 0) == 0 ? BRANDUBH_START : TABLUT_START;
}

// The error of parsing `text` as TFEN of `ed`; fails the test if it parses.
std::string tfen_error(const std::string& ed, const std::string& text) {
    auto pos = parse_tfen(edition(ed), text);
    INFO("TFEN expected to fail: '" << text.substr(0, 200) << "'");
    REQUIRE_FALSE(pos.ok());
    CHECK_FALSE(pos.error().empty());
    CHECK(pos.error().size() < 400); // names the problem, does not echo the input
    return pos.error();
}

std::string move_error(const Position& pos, const std::string& text) {
    auto m = parse_legal_move(pos, text);
    INFO("move expected to fail: '" << text << "' in " << to_tfen(pos));
    REQUIRE_FALSE(m.ok());
    return m.error();
}

std::string rules_error(const std::string& text) {
    auto r = parse_rules(text);
    INFO("rules expected to fail: '" << text << "'");
    REQUIRE_FALSE(r.ok());
    return r.error();
}

// A random legal move (the list must not be empty).
Move random_move(const Position& pos, std::mt19937& rng) {
    MoveList list;
    generate_moves(pos, list);
    REQUIRE_FALSE(list.empty());
    return list.moves[std::uniform_int_distribution<int>(0, list.size() - 1)(rng)];
}

void check_same_position(const Position& a, const Position& b) {
    REQUIRE(a.size() == b.size());
    for (Square s = 0; s < a.edition().num_squares; ++s) REQUIRE(a.piece_on(s) == b.piece_on(s));
    CHECK(a.side_to_move() == b.side_to_move());
    CHECK(a.key() == b.key());
    CHECK(a.king_square() == b.king_square());
}

} // namespace

// ------------------------------- TFEN -------------------------------

TEST_CASE("tfen: start positions print as expected and read back", "[notation]") {
    for (const char* ed : EDITIONS) {
        INFO(ed);
        Position start(edition(ed));
        CHECK(to_tfen(start) == start_tfen(ed));
        Position parsed = tfen(ed, start_tfen(ed));
        CHECK(to_tfen(parsed) == start_tfen(ed));
        check_same_position(start, parsed);
        CHECK(parsed.side_to_move() == ATTACKERS);
        CHECK(parsed.plies_since_capture() == 0);
        CHECK(parsed.fullmove() == 1);
    }
}

TEST_CASE("tfen: counters are optional and read when given", "[notation]") {
    Position p = tfen("brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d");
    CHECK(p.side_to_move() == DEFENDERS);
    CHECK(p.plies_since_capture() == 0);
    CHECK(p.fullmove() == 1);
    Position q = tfen("brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 17");
    CHECK(q.plies_since_capture() == 17);
    CHECK(q.fullmove() == 1);
    Position r = tfen("brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 17 42");
    CHECK(r.plies_since_capture() == 17);
    CHECK(r.fullmove() == 42);
    CHECK(to_tfen(r) == "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 17 42");
    // The side to move is part of the key.
    CHECK(p.key() != tfen("brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a").key());
    // Extra blanks between fields are tolerated.
    CHECK(to_tfen(tfen("brandubh", "  3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3   a  3 \t 4 ")) ==
          "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 3 4");
}

TEST_CASE("tfen: ranks are read top down, files left to right", "[notation]") {
    Position q = tfen("brandubh", "1t5/7/7/3K3/7/7/5T1 a");
    CHECK(at(q, "b7") == ATTACKER);
    CHECK(at(q, "f1") == DEFENDER);
    CHECK(at(q, "d4") == KING);
    CHECK(count_pieces(q, ATTACKER) == 1);
    CHECK(count_pieces(q, DEFENDER) == 1);
}

TEST_CASE("tfen: round trip of positions from random games", "[notation]") {
    std::mt19937 rng(20261130);
    for (const char* ed : EDITIONS) {
        INFO(ed);
        for (int g = 0; g < 30; ++g) {
            Position pos(edition(ed));
            for (int ply = 0; ply < 200 && !pos.result().over(); ++ply) {
                pos.make_move(random_move(pos, rng));
                // A position without a king (captured) is not a valid TFEN.
                if (pos.king_square() == NO_SQUARE) break;
                const std::string s = to_tfen(pos);
                Position back = tfen(ed, s);
                REQUIRE(to_tfen(back) == s);
                check_same_position(pos, back);
                CHECK(back.plies_since_capture() == pos.plies_since_capture());
                CHECK(back.fullmove() == pos.fullmove());
                CHECK(back.decided() == pos.decided());
            }
        }
    }
}

// ------------------------------ OpenTafl ------------------------------

TEST_CASE("opentafl: Brandubh position record after g4-g3", "[notation]") {
    Position pos(edition("brandubh"));
    CHECK(to_opentafl_position(pos) == "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    play(pos, "g4-g3");
    CHECK(to_opentafl_position(pos) == "/3t3/3t3/3T2t/ttTKTt1/3T3/3t3/3t3/");
    auto read = parse_opentafl_position(edition("brandubh"), "/3t3/3t3/3T2t/ttTKTt1/3T3/3t3/3t3/",
                                        DEFENDERS);
    REQUIRE(read.ok());
    check_same_position(pos, *read);
    CHECK(at(*read, "g3") == ATTACKER);
    CHECK(at(*read, "g4") == NO_PIECE);
}

TEST_CASE("opentafl: position records are rank 1 first and round trip", "[notation]") {
    auto read = parse_opentafl_position(edition("tablut"), "/T8/9/9/9/4K4/9/9/9/8t/", ATTACKERS);
    REQUIRE(read.ok());
    CHECK(at(*read, "a1") == DEFENDER);
    CHECK(at(*read, "i9") == ATTACKER);
    CHECK(at(*read, "e5") == KING);
    CHECK(to_opentafl_position(*read) == "/T8/9/9/9/4K4/9/9/9/8t/");

    std::mt19937 rng(7);
    for (const char* ed : EDITIONS) {
        INFO(ed);
        Position pos(edition(ed));
        for (int ply = 0; ply < 150 && !pos.result().over(); ++ply) {
            pos.make_move(random_move(pos, rng));
            if (pos.king_square() == NO_SQUARE) break;
            const std::string rec = to_opentafl_position(pos);
            auto back = parse_opentafl_position(edition(ed), rec, pos.side_to_move());
            REQUIRE(back.ok());
            check_same_position(pos, *back);
            CHECK(to_opentafl_position(*back) == rec);
            // TFEN and OpenTafl records agree: the same ranks, reversed.
            auto ranks = to_tfen(pos).substr(0, to_tfen(pos).find(' '));
            std::vector<std::string> rows;
            for (size_t p = 0;;) {
                size_t q = ranks.find('/', p);
                rows.push_back(ranks.substr(p, q == std::string::npos ? q : q - p));
                if (q == std::string::npos) break;
                p = q + 1;
            }
            std::string rebuilt = "/";
            for (auto it = rows.rbegin(); it != rows.rend(); ++it) rebuilt += *it + "/";
            CHECK(rebuilt == rec);
        }
    }
}

TEST_CASE("opentafl: bad position records name the problem", "[notation]") {
    auto v = edition("brandubh");
    auto e1 = parse_opentafl_position(v, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3", ATTACKERS);
    REQUIRE_FALSE(e1.ok());
    CHECK_THAT(e1.error(), Catch::Contains("'/'"));
    auto e2 = parse_opentafl_position(v, "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/", ATTACKERS);
    REQUIRE_FALSE(e2.ok());
    CHECK_THAT(e2.error(), Catch::Contains("rows"));
    auto e3 = parse_opentafl_position(v, "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3c3/", ATTACKERS);
    REQUIRE_FALSE(e3.ok());
    CHECK_THAT(e3.error(), Catch::Contains("commanders and knights"));
    auto e4 = parse_opentafl_position(v, "/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/", ATTACKERS);
    REQUIRE_FALSE(e4.ok());
    CHECK_THAT(e4.error(), Catch::Contains("king"));
    auto e5 = parse_opentafl_position(v, "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2/", ATTACKERS);
    REQUIRE_FALSE(e5.ok());
    CHECK_THAT(e5.error(), Catch::Contains("files"));
    auto e6 = parse_opentafl_position(v, "/3t3/3t3/3T3/ttTtTtt/3T3/3t3/1K1t3/", ATTACKERS);
    REQUIRE_FALSE(e6.ok());
    CHECK_THAT(e6.error(), Catch::Contains("d4"));
    for (const std::string& bad :
         {std::string(), std::string("/"), std::string("//"), std::string(1 << 20, '/'),
          std::string(1, '/').append(1 << 20, 't').append(1, '/'), std::string("/\0\xff/", 4)}) {
        auto r = parse_opentafl_position(v, bad, ATTACKERS);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().size() < 400);
    }
}

// ------------------------------- moves -------------------------------

TEST_CASE("moves: read as d1-c1, d1c1 and OpenTafl records", "[notation]") {
    const Edition& b = *edition("brandubh");
    const Edition& t = *edition("tablut");
    const Move d1c1(b.square(3, 0), b.square(2, 0));
    for (const char* text : {"d1-c1", "d1c1", "d1-c1x", "d1-c1+", "d1-c1++", "d1-c1-", "d1-c1--"}) {
        INFO(text);
        auto m = parse_move(b, text);
        REQUIRE(m.ok());
        CHECK(*m == d1c1);
    }
    const Move e5e8(t.square(4, 4), t.square(4, 7));
    for (const char* text :
         {"e5-e8xe9/d8+", "e5-e8--", "e5-e8++", "e5-e8xe9", "e5e8xd8/f8/e9", "e5-e8"}) {
        INFO(text);
        auto m = parse_move(t, text);
        REQUIRE(m.ok());
        CHECK(*m == e5e8);
        CHECK(move_name(t, *m) == "e5-e8");
    }
    // Two-digit ranks do not exist here, but ranks are read as numbers.
    auto far = parse_move(t, "a9-a1");
    REQUIRE(far.ok());
    CHECK(far->from() == t.square(0, 8));
    CHECK(far->to() == t.square(0, 0));
}

TEST_CASE("moves: names round trip for every legal move of random positions", "[notation]") {
    std::mt19937 rng(99);
    for (const char* ed : EDITIONS) {
        INFO(ed);
        Position pos(edition(ed));
        for (int ply = 0; ply < 120 && !pos.result().over(); ++ply) {
            MoveList list;
            generate_moves(pos, list);
            for (Move m : list) {
                const std::string name = move_name(pos.edition(), m);
                auto back = parse_move(pos.edition(), name);
                REQUIRE(back.ok());
                REQUIRE(*back == m);
                auto legal_back = parse_legal_move(pos, name);
                REQUIRE(legal_back.ok());
                // The record reads back to the same move too.
                auto rec = parse_move(pos.edition(), move_record(pos, m));
                REQUIRE(rec.ok());
                REQUIRE(*rec == m);
            }
            pos.make_move(random_move(pos, rng));
        }
    }
}

TEST_CASE("moves: OpenTafl records list captures and mark the king", "[notation]") {
    {
        Position pos = setup("tablut", "Kf6 tb2 Tc2 Te2 tf2 td1", 'a');
        CHECK(move_record(pos, legal(pos, "d1-d2")) == "d1-d2xc2/e2");
        CHECK(move_record(pos, legal(pos, "d1-c1")) == "d1-c1");
        // move_record does not change the position
        CHECK(at(pos, "c2") == DEFENDER);
        CHECK(at(pos, "d1") == ATTACKER);
    }
    {
        Position pos = setup("tablut", "Kc6 tb6 tf6", 'a');
        CHECK(move_record(pos, legal(pos, "f6-d6")) == "f6-d6++");
    }
    {
        Position pos = setup("brandubh", "Kb7 tf2", 'd');
        CHECK(move_record(pos, legal(pos, "b7-a7")) == "b7-a7--");
    }
    {
        // A capture and the king captured in one move: the king is not listed.
        Position pos = setup("brandubh-house", "Kc6 tb6 Te5 tf5 tf6", 'a');
        CHECK(move_record(pos, legal(pos, "f6-d6")) == "f6-d6++");
        // f6-d6 also captures the defender on e5? No: e5 is not next to d6.
        CHECK(at(pos, "e5") == DEFENDER);
        Position p2 = setup("brandubh-house", "Kc6 tb6 Td5 tg4 Td3 tf6", 'a');
        CHECK(move_record(p2, legal(p2, "f6-d6")) == "f6-d6xd5++");
    }
}

// ---------------------------- rules strings ----------------------------

TEST_CASE("rules: every preset prints and parses back to equal rules", "[notation]") {
    REQUIRE(presets().size() >= 4);
    for (const Preset& p : presets()) {
        INFO(p.name);
        auto r = parse_rules(p.rules);
        REQUIRE(r.ok());
        const std::string printed = print_rules(*r);
        auto back = parse_rules(printed);
        INFO(printed);
        REQUIRE(back.ok());
        CHECK(*back == *r);
        CHECK(print_rules(*back) == printed);
        auto rebuilt = Edition::make(*back);
        REQUIRE(rebuilt.ok());
        // An edition built from the printed string plays the same start.
        CHECK(to_tfen(Position(*rebuilt)) == to_tfen(Position(edition(p.name))));
    }
    CHECK(std::string(default_preset_name()) == "brandubh");
}

TEST_CASE("rules: presets carry the end rules of RULES.md", "[notation]") {
    auto b = preset_rules("brandubh");
    REQUIRE(b.ok());
    CHECK(b->size == 7);
    CHECK(b->escape == EscapeType::CORNER);
    CHECK(b->repetition == RepetitionOutcome::MOVER_LOSES);
    CHECK(b->repetition_count == 3);
    CHECK(b->no_capture_limit == 0);
    CHECK(b->no_moves_loses);
    CHECK_FALSE(b->no_attackers_wins);

    auto bh = preset_rules("brandubh-house");
    REQUIRE(bh.ok());
    CHECK(bh->repetition == RepetitionOutcome::DRAW);
    CHECK(bh->repetition_count == 3);
    CHECK(bh->no_capture_limit == 120);
    CHECK(bh->no_moves_loses);
    CHECK(bh->no_attackers_wins);

    auto t = preset_rules("tablut");
    REQUIRE(t.ok());
    CHECK(t->size == 9);
    CHECK(t->escape == EscapeType::EDGE);
    CHECK(t->repetition == RepetitionOutcome::DRAW);
    CHECK(t->repetition_count == 2);
    CHECK(t->no_capture_limit == 0);
    CHECK_FALSE(t->no_moves_loses);
    CHECK_FALSE(t->no_attackers_wins);

    auto th = preset_rules("tablut-house");
    REQUIRE(th.ok());
    CHECK(th->repetition == RepetitionOutcome::DRAW);
    CHECK(th->repetition_count == 3);
    CHECK(th->no_capture_limit == 120);
    CHECK(th->no_moves_loses);
    CHECK(th->no_attackers_wins);

    auto unknown = preset_rules("chess");
    REQUIRE_FALSE(unknown.ok());
    CHECK_THAT(unknown.error(), Catch::Contains("chess"));
    CHECK_THAT(unknown.error(), Catch::Contains("brandubh"));
}

TEST_CASE("rules: a changed key survives the round trip", "[notation]") {
    const std::string base = presets().front().rules;
    for (const std::string& change : {std::string(" nocap:50"), std::string(" repc:2"),
                                      std::string(" nomv:d"), std::string(" noatk:y")}) {
        INFO(change);
        std::string text = base;
        const std::string key = change.substr(0, change.find(':') + 1);
        const size_t at_key = text.find(key);
        REQUIRE(at_key != std::string::npos);
        const size_t end = text.find(' ', at_key + 1);
        text = text.substr(0, at_key) + change + text.substr(end);
        auto r = parse_rules(text);
        REQUIRE(r.ok());
        auto orig = parse_rules(base);
        CHECK_FALSE(*r == *orig);
        auto back = parse_rules(print_rules(*r));
        REQUIRE(back.ok());
        CHECK(*back == *r);
    }
}

TEST_CASE("rules: the key table drives both the reader and the printer", "[notation]") {
    // Every printed key is a row of the table, in the table's order, once.
    std::vector<std::string> order;
    for (const RulesKey& key : rules_keys()) order.emplace_back(key.name);
    for (const Preset& p : presets()) {
        INFO(p.name);
        size_t last = 0;
        const std::string printed = print_rules(*preset_rules(p.name));
        for (std::string_view word : split_words(printed)) {
            const std::string name(word.substr(0, word.find(':')));
            const auto at = std::find(order.begin(), order.end(), name);
            INFO(name);
            REQUIRE(at != order.end());
            REQUIRE(find_rules_key(name) != nullptr);
            CHECK(find_rules_key(name)->print != nullptr);
            CHECK(size_t(at - order.begin()) + 1 > last);
            last = size_t(at - order.begin()) + 1;
        }
    }
    // A bad value of any key is refused and the error names the key (name
    // takes any word).
    const std::string start = " start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    for (const RulesKey& key : rules_keys()) {
        const std::string name = key.name;
        if (name == "name") continue;
        INFO(name);
        std::string text = "dim:7 " + name + ":%" + start;
        if (name == "dim") text = "dim:%" + start;
        if (name == "start" || name == "starti") text = "dim:7 " + name + ":%";
        CHECK_THAT(rules_error(text), Catch::Contains(name + ":"));
    }
    CHECK(find_rules_key("foo") == nullptr);
}

// ------------------------------ bad input ------------------------------

TEST_CASE("bad input: malformed TFEN names the problem", "[notation]") {
    const std::string ed = "brandubh";
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3 a"), Catch::Contains("ranks"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/3t3 a"), Catch::Contains("ranks"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2 a"), Catch::Contains("files"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t4 a"), Catch::Contains("files"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTttt/3T3/3t3/3t3 a"), Catch::Contains("files"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/34 a"), Catch::Contains("files"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a"), Catch::Contains("ranks"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t30 a"), Catch::Contains("files"));
    CHECK_THAT(tfen_error(ed, "3x3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a"), Catch::Contains("letter"));
    CHECK_THAT(tfen_error(ed, "3k3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3 a"), Catch::Contains("letter"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3 a"), Catch::Contains("king"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3K3/3t3/3t3 a"), Catch::Contains("king"));
    // Soldiers on the throne or a corner.
    CHECK_THAT(tfen_error(ed, "1K1t3/3t3/3T3/ttTtTtt/3T3/3t3/3t3 a"), Catch::Contains("d4"));
    CHECK_THAT(tfen_error(ed, "1K1t3/3t3/3T3/ttTTTtt/3T3/3t3/3t3 a"), Catch::Contains("d4"));
    CHECK_THAT(tfen_error(ed, "t2t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a"), Catch::Contains("a7"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2T a"), Catch::Contains("g1"));
    CHECK_THAT(tfen_error("tablut", "9/9/9/9/4t4/9/9/9/K8 a"), Catch::Contains("e5"));
    CHECK_THAT(tfen_error("tablut-house", "9/9/9/9/4T4/9/1K7/9/9 a"), Catch::Contains("e5"));
    // Side to move.
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 x"), Catch::Contains("side"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 A"), Catch::Contains("side"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3"), Catch::Contains("side"));
    // Counters.
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a -1 1"), Catch::Contains("plies"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a x 1"), Catch::Contains("plies"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 5x 1"), Catch::Contains("plies"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a +5 1"), Catch::Contains("plies"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 99999999999999 1"),
               Catch::Contains("plies"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 0"),
               Catch::Contains("move number"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 -3"),
               Catch::Contains("move number"));
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1.5"),
               Catch::Contains("move number"));
    // Trailing garbage.
    CHECK_THAT(tfen_error(ed, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1 junk"),
               Catch::Contains("unexpected"));
    // Empty input.
    CHECK_THAT(tfen_error(ed, ""), Catch::Contains("empty"));
    CHECK_THAT(tfen_error(ed, "   \t "), Catch::Contains("empty"));
    // Ranks of a different board size.
    CHECK_THAT(tfen_error("tablut", BRANDUBH_START), Catch::Contains("ranks"));
    CHECK_THAT(tfen_error(ed, TABLUT_START), Catch::Contains("ranks"));
}

TEST_CASE("bad input: binary bytes and huge TFEN strings are rejected", "[notation]") {
    const std::string ed = "brandubh";
    std::string binary("3t3/3t3/3T3/tt\0KTtt/3T3/3t3/3t3 a", 34);
    tfen_error(ed, binary);
    tfen_error(ed, std::string("\xff\xfe\x01\x02\x7f\x80 a"));
    std::string bytes;
    for (int c = 0; c < 256; ++c) bytes += char(c);
    tfen_error(ed, bytes);
    // Error messages stay printable.
    for (const std::string& bad : {binary, bytes}) {
        auto r = parse_tfen(edition(ed), bad);
        REQUIRE_FALSE(r.ok());
        for (char c : r.error()) CHECK((c >= 32 && c < 127));
    }
    const size_t MB = 1 << 20;
    tfen_error(ed, std::string(MB, 't'));
    tfen_error(ed, std::string(MB, '/'));
    tfen_error(ed, std::string(MB, '1'));
    tfen_error(ed, std::string(MB, '7'));
    tfen_error(ed, std::string(MB, ' '));
    tfen_error(ed, std::string(MB, 'a') + " a");
    tfen_error(ed, std::string(BRANDUBH_START) + " " + std::string(MB, 'x'));
    tfen_error(ed, std::string(BRANDUBH_START).substr(0, 33) + std::string(MB, '9'));
    std::string many_ranks;
    for (size_t i = 0; i < MB / 2; ++i) many_ranks += "7/";
    tfen_error(ed, many_ranks + "7 a");
    std::mt19937 rng(1);
    for (int i = 0; i < 2000; ++i) {
        std::string s(std::uniform_int_distribution<int>(0, 60)(rng), ' ');
        for (char& c : s) c = "tTK1234567/ ad0x\n"[rng() % 17];
        auto r = parse_tfen(edition(ed), s); // must not crash, either answer is fine
        if (r.ok()) CHECK(to_tfen(*r).size() > 0);
    }
}

TEST_CASE("bad input: malformed and illegal moves name the problem", "[notation]") {
    const Edition& b = *edition("brandubh");
    auto err = [&](const std::string& text) {
        auto m = parse_move(b, text);
        INFO("move expected to fail: '" << text << "'");
        REQUIRE_FALSE(m.ok());
        return m.error();
    };
    CHECK_THAT(err("h1-h2"), Catch::Contains("off the board"));
    CHECK_THAT(err("d0-d1"), Catch::Contains("off the board"));
    CHECK_THAT(err("d1-d8"), Catch::Contains("off the board"));
    CHECK_THAT(err("d1-d99"), Catch::Contains("off the board"));
    CHECK_THAT(err("d1-e2"), Catch::Contains("rank or a file"));
    CHECK_THAT(err("d1-d1"), Catch::Contains("same square"));
    CHECK_THAT(err(""), Catch::Contains("square"));
    CHECK_THAT(err("d1"), Catch::Contains("square"));
    CHECK_THAT(err("d1-"), Catch::Contains("square"));
    CHECK_THAT(err("1d-1c"), Catch::Contains("square"));
    CHECK_THAT(err("D1-C1"), Catch::Contains("square"));
    CHECK_THAT(err("d-c1"), Catch::Contains("rank"));
    CHECK_THAT(err("d1-c1 junk"), Catch::Contains("unexpected"));
    CHECK_THAT(err("d1-c1+++"), Catch::Contains("unexpected"));
    CHECK_THAT(err("d1-c1xz9"), Catch::Contains("off the board"));
    err(std::string("d1-c\0", 5));
    err(std::string(1 << 20, 'd'));
    err("d1-c1" + std::string(1 << 20, '+'));

    // Illegal in a position.
    Position pos = setup("brandubh", "Kf6 tb2 Tb4 td2 ta2", 'a');
    CHECK_THAT(move_error(pos, "b2-b6"), Catch::Contains("blocked"));
    CHECK_THAT(move_error(pos, "b2-b4"), Catch::Contains("occupied"));
    CHECK_THAT(move_error(pos, "b4-c4"), Catch::Contains("defenders"));
    CHECK_THAT(move_error(pos, "c3-c2"), Catch::Contains("no piece"));
    CHECK_THAT(move_error(pos, "d2-d4"), Catch::Contains("d4"));   // soldier on the throne
    CHECK_THAT(move_error(pos, "a2-a1"), Catch::Contains("a1"));   // soldier on a corner
    CHECK_THAT(move_error(pos, "d2-c3"), Catch::Contains("rank")); // diagonal
    CHECK_THAT(move_error(pos, "g9-g1"), Catch::Contains("off the board"));
    Position dpos = setup("brandubh", "Kf6 tb2 Tb4 td2 ta2", 'd');
    CHECK_THAT(move_error(dpos, "b2-b3"), Catch::Contains("attackers"));
    CHECK_THAT(move_error(dpos, "b4-d4"), Catch::Contains("d4"));
    // The game is over: no move is legal.
    Position over = setup("brandubh", "Ka7 tb2", 'a');
    CHECK_THAT(move_error(over, "b2-b3"), Catch::Contains("over"));
    // The position is unchanged by failed parses.
    CHECK(to_tfen(pos) == make_tfen(7, "Kf6 tb2 Tb4 td2 ta2", 'a'));
}

TEST_CASE("bad input: malformed rules strings name the problem", "[notation]") {
    const std::string start = " start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    CHECK_THAT(rules_error(""), Catch::Contains("dim"));
    CHECK_THAT(rules_error("esc:c" + start), Catch::Contains("dim"));
    CHECK_THAT(rules_error("dim:x" + start), Catch::Contains("dim"));
    CHECK_THAT(rules_error("dim:5" + start), Catch::Contains("dim"));
    CHECK_THAT(rules_error("dim:13" + start), Catch::Contains("start"));
    CHECK_THAT(rules_error("dim:21" + start), Catch::Contains("dim:21"));
    CHECK_THAT(rules_error("dim:21" + start), Catch::Contains("19x19"));
    CHECK_THAT(rules_error("dim:7 esc:c"), Catch::Contains("start"));
    CHECK_THAT(rules_error("dim:7 foo:bar" + start), Catch::Contains("foo"));
    CHECK_THAT(rules_error("dim:7 esc:x" + start), Catch::Contains("esc"));
    CHECK_THAT(rules_error("dim:7 atkf:maybe" + start), Catch::Contains("atkf"));
    CHECK_THAT(rules_error("dim:7 tfr:q" + start), Catch::Contains("tfr"));
    CHECK_THAT(rules_error("dim:7 ks:q" + start), Catch::Contains("ks"));
    CHECK_THAT(rules_error("dim:7 repc:5" + start), Catch::Contains("repc"));
    CHECK_THAT(rules_error("dim:7 nocap:-1" + start), Catch::Contains("nocap"));
    CHECK_THAT(rules_error("dim:7 nocap:ten" + start), Catch::Contains("nocap"));
    CHECK_THAT(rules_error("dim:7 nomv:x" + start), Catch::Contains("nomv"));
    CHECK_THAT(rules_error("dim:7 cor:z9" + start), Catch::Contains("cor"));
    CHECK_THAT(rules_error("dim:7 cor:a8" + start), Catch::Contains("cor"));
    CHECK_THAT(rules_error("dim:7 corh:q" + start), Catch::Contains("corh"));
    CHECK_THAT(rules_error("dim:7 esc:c esc:e" + start), Catch::Contains("esc"));
    CHECK_THAT(rules_error("dim:7 esc" + start), Catch::Contains("esc"));
    CHECK_THAT(rules_error("dim:7 start:/3t3/"), Catch::Contains("start"));
    CHECK_THAT(rules_error("dim:7 start:/3t3/3t3/3T3/ttTKTtx/3T3/3t3/3t3/"),
               Catch::Contains("start"));
    // Keys of OpenTafl that this engine does not play name themselves.
    CHECK_THAT(rules_error("dim:7 spd:2,x" + start), Catch::Contains("spd"));
    CHECK_THAT(rules_error("dim:7 ber:y" + start), Catch::Contains("ber"));
    CHECK_THAT(rules_error("dim:7 kj:y" + start), Catch::Contains("kj"));
    CHECK_THAT(rules_error("dim:7 sw:y" + start), Catch::Contains("sw"));
    CHECK_THAT(rules_error("dim:7 efe:x" + start), Catch::Contains("efe"));
    // Binary and huge strings.
    rules_error(std::string("dim:7\0 esc:c", 12) + start);
    rules_error(std::string(1 << 20, 'x'));
    rules_error("dim:7 name:" + std::string(1 << 20, 'n'));
    // An edition that cannot be made says why.
    auto big = parse_rules("dim:7 cor:a1,g1,a7,g7" + start);
    REQUIRE(big.ok());
    big->size = 21; // as if read from a newer rules string
    auto edition = Edition::make(*big);
    REQUIRE_FALSE(edition.ok());
    CHECK_THAT(edition.error(), Catch::Contains("size"));
}

TEST_CASE("bad input: numbers with leading zeros are refused", "[notation]") {
    // Read leniently they would not print back to the same text.
    for (const char* text :
         {"03t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1", "3t003/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1",
          "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 00 1", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 01"}) {
        auto pos = parse_tfen(edition("brandubh"), text);
        INFO(text);
        CHECK_FALSE(pos.ok());
    }
    CHECK_FALSE(parse_move(*edition("brandubh"), "d01-c1").ok());
    CHECK_FALSE(parse_move(*edition("brandubh"), "d1-c01").ok());
    CHECK(parse_move(*edition("brandubh"), "d1-c1").ok());
}

TEST_CASE("text: split keeps empty pieces, split_words keeps only words", "[notation]") {
    using V = std::vector<std::string_view>;
    CHECK(split("a,,b", ',') == V{"a", "", "b"});
    CHECK(split("", ',') == V{""});
    CHECK(split("a|", '|') == V{"a", ""});
    CHECK(split_words(" go\tdepth\r\n 5 ") == V{"go", "depth", "5"});
    CHECK(split_words(" \t\r\n\v\f").empty());
}

TEST_CASE("text: parse_integer takes a whole signed decimal token within its range", "[notation]") {
    CHECK(*parse_integer("42", 0, 100) == 42);
    CHECK(*parse_integer("+7", 0, 100) == 7);
    CHECK(*parse_integer("-3", -5, 5) == -3);
    for (const char* bad : {"", "+", "-", "4x", " 4", "+-4", "0x10", "1.5"}) {
        const auto r = parse_integer(bad, -100, 100);
        REQUIRE_FALSE(r.ok());
        CHECK_THAT(r.error(), Catch::Contains("is not a number"));
    }
    CHECK(parse_integer("101", 0, 100).error() == "'101' is out of range (0..100)");
    CHECK(parse_integer("99999999999999999999", 0, 100).error() ==
          "'99999999999999999999' is out of range (0..100)");
}

TEST_CASE("text: iequals ignores ASCII case only, printable quotes safely", "[notation]") {
    CHECK(iequals("Move Overhead", "move overhead"));
    CHECK_FALSE(iequals("Hash", "Hash "));
    CHECK_FALSE(iequals("\xc3\x89", "\xc3\xa9"));
    CHECK(printable("a\tb") == "a?b");
    CHECK(printable(std::string(45, 'x')) == std::string(40, 'x') + "...");
    CHECK(printable("abcdef", 3) == "abc...");
}
