// The search's tafl helpers (search/tafl.h): capture_squares, found with
// whole-board shifts, must equal the square-by-square definition below in
// every preset and in rule sets with an unarmed king, over random games.

#include <random>

#include "tactics.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

// The definition: for each soldier of theirs and each direction, the empty
// square on one side captures it when the square on the other side is an
// anvil (a piece of ours, the king only if armed as an anvil, or a square
// hostile to the victim, empty or occupied).
tactics::CaptureMap reference_capture_squares(const Position& pos, Side us) {
    const Edition& edition = pos.edition();
    const Piece victim = us == ATTACKERS ? DEFENDER : ATTACKER;
    tactics::CaptureMap out;
    for (Square a = 0; a < edition.num_squares; ++a) {
        if (pos.piece_on(a) != victim) continue;
        for (int d = 0; d < 4; ++d) {
            const Square t = edition.neighbour[a][d], b = edition.neighbour[a][d ^ 2];
            if (t == NO_SQUARE || b == NO_SQUARE || pos.piece_on(t) != NO_PIECE) continue;
            const Piece q = pos.piece_on(b);
            const bool anvil = q == NO_PIECE      ? test(edition.hostile_empty[victim], b)
                               : side_of(q) == us ? (q != KING || edition.king_anvil)
                                                  : test(edition.hostile_occupied[victim], b);
            if (!anvil) continue;
            if (test(out.one, t)) out.two |= square_bb(t);
            out.one |= square_bb(t);
        }
    }
    return out;
}

} // namespace

TEST_CASE("tafl: capture squares by shifts equal the square-by-square definition", "[search]") {
    std::vector<EditionPtr> editions;
    for (const char* p : {"brandubh", "brandubh-house", "tablut", "tablut-house",
                          "opentafl-brandub", "opentafl-tablut"})
        editions.push_back(edition(p));
    editions.push_back(
        rules_edition("dim:7 surf:n nrd:n ka:n cenhe:tTK start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"));
    std::mt19937 rng(99);
    for (const EditionPtr& edition : editions) {
        INFO(edition->rules.name);
        int doubles = 0, positions = 0;
        for (int g = 0; g < 30; ++g) {
            Position pos(edition);
            for (int ply = 0; ply < 200; ++ply) {
                INFO(to_tfen(pos));
                for (Side us : {ATTACKERS, DEFENDERS}) {
                    const tactics::CaptureMap got = tactics::capture_squares(pos, us);
                    const tactics::CaptureMap want = reference_capture_squares(pos, us);
                    REQUIRE((got.one == want.one));
                    REQUIRE((got.two == want.two));
                    doubles += want.two != 0;
                }
                ++positions;
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                pos.make_move(list.moves[rng() % list.size()]);
            }
        }
        CHECK(positions > 1000);
        CHECK(doubles > 0); // squares that take two were met
    }
}

TEST_CASE("tafl: a move's escape threat, read without the move, equals the position's",
          "[search]") {
    std::mt19937 rng(7);
    int soldier_threats = 0; // rare at random on 11x11: counted over all
    for (const char* preset : {"brandubh", "tablut", "tablut-house", "opentafl-tablut", "fetlar",
                               "copenhagen", "opentafl-copenhagen"}) {
        INFO(preset);
        const EditionPtr preset_edition = edition(preset);
        int threats = 0, quiet_moves = 0;
        for (int g = 0; g < scaled(20, 4); ++g) {
            Position pos(preset_edition);
            for (int ply = 0; ply < 200; ++ply) {
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                if (pos.side_to_move() != DEFENDERS || tactics::king_escapes(pos)) list.count = 0;
                const Bitboard discoverers = tactics::escape_discoverers(pos);
                for (Move m : list) {
                    const bool king = pos.piece_on(m.from()) == KING;
                    if ((king && test(preset_edition->escape, m.to())) ||
                        tactics::move_effect(pos, m).captures)
                        continue;
                    INFO(to_tfen(pos) << " " << move_name(*preset_edition, m));
                    const bool got = tactics::move_threatens_escape(pos, m);
                    pos.make_move(m);
                    const bool want = tactics::king_escapes(pos) != 0;
                    pos.unmake_move();
                    REQUIRE(got == want);
                    // A soldier shows the king the way only from the
                    // discoverers' squares.
                    if (!king && want) CHECK(test(discoverers, m.from()));
                    threats += want;
                    soldier_threats += want && !king;
                    ++quiet_moves;
                }
                generate_moves(pos, list);
                if (list.empty()) break;
                pos.make_move(list.moves[rng() % list.size()]);
            }
        }
        CHECK(quiet_moves > scaled(5000, 4));
        CHECK(threats > 0); // threats were met, not only their absence
    }
    CHECK(soldier_threats > 0);
}
