// Counting without making moves: count_moves (line tables) must equal the
// length of the generated move list, and ReplyCounter must equal make_move +
// count_moves + unmake_move for every move, under the presets and under
// OpenTafl rules strings that reach every branch of the line tables (walls,
// no-stop squares, stop-but-not-pass squares, 11x11, ends by shape).

#include <functional>
#include <random>

#include "perft.h"
#include "reply_count.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

const std::string START11 =
    "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

std::vector<std::pair<std::string, EditionPtr>> editions_under_test() {
    std::vector<std::pair<std::string, EditionPtr>> out;
    for (const Preset& p : presets()) {
        // Boards above LINE_COUNT_MAX_SIZE have no line tables: perft
        // counts their moves one by one.
        if (edition(p.name)->line_counts.empty()) {
            REQUIRE(edition(p.name)->size > LINE_COUNT_MAX_SIZE);
            continue;
        }
        // Nor editions with jumps and chains: perft counts them move by
        // move too.
        if (edition(p.name)->special_moves) continue;
        // The counter does not serve editions with the defenders'
        // repetition ban (perft counts them move by move): their other
        // rules are checked without it.
        if (edition(p.name)->rules.defender_repetition_ban)
            out.emplace_back(
                std::string(p.name) + " without dban",
                edition_with(p.name, [](Rules& r) { r.defender_repetition_ban = false; }));
        else
            out.emplace_back(p.name, edition(p.name));
    }
    for (const std::string& r : {
             // Soldiers may stop on the throne but not pass it; the king may.
             "dim:7 surf:n nrd:n cenp:K cens:tTK cenre:tTK " + START7,
             // Nobody passes the throne; corners passable by all, edge escape.
             "dim:7 surf:n nrd:n esc:e cenp:K cens:K cor: " + START7,
             // Ends by shape: encirclement, no defender room; an unarmed king.
             "dim:7 surf:y nrd:y ka:n ks:s " + START7,
             "dim:7 surf:n nrd:n ka:a ks:w cenhe:tTK " + START7,
             // 11x11, corner escape, strong king, Linnaean capture.
             "dim:11 surf:n nrd:n esc:c ks:s linc:y " + START11,
             "dim:11 surf:y nrd:n esc:e ks:w cenp:K " + START11,
         })
        out.emplace_back(r, rules_edition(r));
    return out;
}

// Checks both counts in one position; returns the number of moves checked.
int check_counts(Position& pos) {
    MoveList list;
    generate_moves(pos, list);
    INFO(to_tfen(pos));
    REQUIRE(count_moves(pos) == list.size());
    if (list.empty()) return 0;
    const ReplyCounter counter(pos);
    for (Move m : list) {
        pos.make_move(m);
        MoveList replies;
        generate_moves(pos, replies);
        const int expect = count_moves(pos);
        REQUIRE(expect == replies.size());
        pos.unmake_move();
        INFO("move " << move_name(pos.edition(), m));
        REQUIRE(counter.replies(m) == expect);
    }
    return list.size();
}

} // namespace

TEST_CASE("reply count: line-table counts and reply counts equal making the moves",
          "[perft][long]") {
    for (const auto& [name, v] : editions_under_test()) {
        INFO(name);
        // Each edition its own games, whatever the editions before it.
        std::seed_seq seed(name.begin(), name.end());
        std::mt19937 rng(seed);
        long moves = 0, captures = 0, endings = 0;
        for (int g = 0; g < testutil::scaled(24, 4); ++g) {
            Position pos(v);
            for (int ply = 0; ply < 160; ++ply) {
                moves += check_counts(pos);
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                // Mostly random moves; a capture when there is one, half the
                // time, so that the boards thin out and open up.
                Move m = list.moves[rng() % list.size()];
                if (rng() % 2)
                    for (Move c : list) {
                        pos.make_move(c);
                        const bool takes = pos.last_captured() != 0;
                        endings += pos.decided().over();
                        pos.unmake_move();
                        if (takes) {
                            m = c;
                            break;
                        }
                    }
                pos.make_move(m);
                captures += pos.last_captured() != 0;
            }
        }
        INFO(moves << " moves, " << captures << " captures, " << endings << " endings");
        CHECK(moves > testutil::scaled(15000, 4));
        CHECK(captures > testutil::scaled(60, 4));
        CHECK(endings > testutil::scaled(20, 4));
    }
}

TEST_CASE("reply count: perft with bulk counting equals perft by making every move",
          "[perft][long]") {
    for (const auto& [name, v] : editions_under_test()) {
        INFO(name);
        Position pos(v);
        const int depth = testutil::scaled_depth(3);
        CHECK(perft(pos, depth) == perft_by_making(pos, depth));
        // A middlegame with captures about.
        std::mt19937 rng(7);
        for (int ply = 0; ply < 30; ++ply) {
            MoveList list;
            generate_moves(pos, list);
            if (list.empty()) break;
            pos.make_move(list.moves[rng() % list.size()]);
        }
        pos.clear_history();
        INFO(to_tfen(pos));
        CHECK(perft(pos, depth) == perft_by_making(pos, depth));
    }
}

TEST_CASE("reply count: a quiet move that ends the game by its shape leaves no replies",
          "[perft]") {
    struct Case {
        std::string rules, pieces, move;
    };
    const Case cases[] = {
        // The ring closes around the defenders (encirclement).
        {"dim:7 surf:y nrd:n " + START7,
         "Kd4 Td5 tc6 td6 te6 tb5 tb4 tb3 tc2 td2 te2 tf3 tf4 tg5 ta2", "g5-f5"},
        // The last empty square next to a defender is filled (no room).
        {"dim:7 surf:n nrd:y ks:s " + START7, "Kc6 Tc7 tb6 td6 tb7 td7 te5", "e5-c5"},
    };
    for (const Case& c : cases) {
        INFO(c.rules << " / " << c.pieces);
        Position pos = rules_setup(c.rules, c.pieces, 'a');
        const Move m = legal(pos, c.move);
        CHECK(ReplyCounter(pos).replies(m) == 0);
        check_counts(pos);
    }
}
