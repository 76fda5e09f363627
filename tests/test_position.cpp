// Position: make/unmake are exact inverses, the incremental Zobrist key
// matches the key computed from scratch, occurrences() counts repetitions.
// Long random games with fixed seeds in all four editions.

#include <random>

#include "test_helpers.h"

using namespace branan;
using namespace branan::testutil;

namespace {

// Everything observable about a position.
struct Snapshot {
    std::string tfen;
    uint64_t key = 0;
    Bitboard occupied = 0;
    std::vector<unsigned> lines; // rank then file occupancies
    std::array<Bitboard, PIECE_KINDS> by_piece{};
    std::vector<Piece> board;
    Square king = NO_SQUARE;
    Side side = ATTACKERS;
    int plies = 0, fullmove = 0, game_ply = 0, occurrences = 0;
    int legal_moves = 0; // with the repetition ban (dban) applied
    Move last_move;
    Bitboard last_captured = 0;
    GameResult decided, result;

    explicit Snapshot(const Position& pos)
        : tfen(pos.king_square() == NO_SQUARE ? "" : to_tfen(pos)), key(pos.key()),
          occupied(pos.occupied()), king(pos.king_square()), side(pos.side_to_move()),
          plies(pos.plies_since_capture()), fullmove(pos.fullmove()), game_ply(pos.game_ply()),
          occurrences(pos.occurrences()), last_move(pos.last_move()),
          last_captured(pos.last_captured()), decided(pos.decided()), result(pos.result()) {
        legal_moves = count_moves(pos);
        for (Piece p : {ATTACKER, DEFENDER, KING}) by_piece[p] = pos.pieces(p);
        for (Square s = 0; s < pos.edition().num_squares; ++s) board.push_back(pos.piece_on(s));
        for (int i = 0; i < pos.size(); ++i) lines.push_back(pos.rank_occupancy(i));
        for (int i = 0; i < pos.size(); ++i) lines.push_back(pos.file_occupancy(i));
    }
};

void check_equal(const Snapshot& a, const Snapshot& b) {
    CHECK(a.tfen == b.tfen);
    CHECK(a.key == b.key);
    CHECK((a.occupied == b.occupied));
    CHECK(a.lines == b.lines);
    for (Piece p : {ATTACKER, DEFENDER, KING}) CHECK((a.by_piece[p] == b.by_piece[p]));
    CHECK(a.board == b.board);
    CHECK(a.king == b.king);
    CHECK(a.side == b.side);
    CHECK(a.plies == b.plies);
    CHECK(a.fullmove == b.fullmove);
    CHECK(a.game_ply == b.game_ply);
    CHECK(a.occurrences == b.occurrences);
    CHECK(a.legal_moves == b.legal_moves);
    CHECK(a.last_move == b.last_move);
    CHECK((a.last_captured == b.last_captured));
    CHECK(a.decided == b.decided);
    CHECK(a.result == b.result);
}

// The bitboards and the rank and file occupancies agree with the board array.
void check_consistent(const Position& pos) {
    const Edition& edition = pos.edition();
    Bitboard occ = 0;
    std::vector<unsigned> ranks(edition.size), files(edition.size);
    std::array<Bitboard, PIECE_KINDS> by{};
    Square king = NO_SQUARE;
    for (Square s = 0; s < edition.num_squares; ++s) {
        Piece p = pos.piece_on(s);
        if (p == NO_PIECE) continue;
        occ |= square_bb(s);
        ranks[edition.rank_of(s)] |= 1u << edition.file_of(s);
        files[edition.file_of(s)] |= 1u << edition.rank_of(s);
        by[p] |= square_bb(s);
        if (p == KING) king = s;
    }
    REQUIRE((pos.occupied() == occ));
    for (int i = 0; i < edition.size; ++i) {
        REQUIRE(pos.rank_occupancy(i) == ranks[i]);
        REQUIRE(pos.file_occupancy(i) == files[i]);
    }
    for (Piece p : {ATTACKER, DEFENDER, KING}) REQUIRE((pos.pieces(p) == by[p]));
    REQUIRE((pos.pieces(ATTACKERS) == by[ATTACKER]));
    REQUIRE((pos.pieces(DEFENDERS) == (by[DEFENDER] | by[KING])));
    REQUIRE(pos.king_square() == king);
    REQUIRE(pos.key() == pos.compute_key());
}

// A random move that, if it can, does not end the game at once (king
// captured or escaped), so that random games last long.
Move lasting_move(Position& pos, const MoveList& list, std::mt19937& rng) {
    Move m = list.moves[rng() % list.size()];
    for (int tries = 0; tries < 20; ++tries) {
        pos.make_move(m);
        const bool ends = pos.decided().over();
        pos.unmake_move();
        if (!ends) break;
        m = list.moves[rng() % list.size()];
    }
    return m;
}

// The placement and side to move, for counting repetitions naively.
std::string placement_and_side(const Position& pos) {
    std::string s;
    for (Square sq = 0; sq < pos.edition().num_squares; ++sq) s += char('0' + pos.piece_on(sq));
    return s + (pos.side_to_move() == ATTACKERS ? 'a' : 'd');
}

} // namespace

TEST_CASE("position: make/unmake restores everything over long random games", "[position]") {
    std::mt19937 rng(12345);
    for (const Preset& preset : presets()) {
        const char* ed = preset.name;
        INFO(ed);
        size_t total_plies = 0;
        // hnefatafl.org's adjudication and ply limit end random games early:
        // here they are off, so that the games (and the ban list) run long.
        const EditionPtr edition = edition_with(ed, [](Rules& r) {
            r.cannot_escape = false;
            r.draw_ply = 0;
        });
        for (int g = 0; g < testutil::scaled(12); ++g) {
            Position pos(edition);
            std::vector<Snapshot> before;
            // Play until no move is left (repetition and the move limit are
            // ignored here: they do not stop make_move).
            for (int ply = 0; ply < 500; ++ply) {
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                before.emplace_back(pos);
                pos.make_move(lasting_move(pos, list, rng));
                check_consistent(pos);
            }
            INFO("game " << g << " of " << before.size() << " plies");
            total_plies += before.size();
            while (!before.empty()) {
                pos.unmake_move();
                check_consistent(pos);
                check_equal(Snapshot(pos), before.back());
                before.pop_back();
            }
            CHECK(to_tfen(pos) == to_tfen(Position(edition)));
            CHECK(pos.game_ply() == 0);
        }
        CHECK(total_plies > size_t(testutil::scaled(12)) * 150); // the games were long
    }
}

TEST_CASE("position: make/unmake of every legal move restores the position", "[position]") {
    std::mt19937 rng(777);
    for (const char* ed : EDITIONS) {
        INFO(ed);
        for (int g = 0; g < 4; ++g) {
            Position pos(edition(ed));
            for (int ply = 0; ply < 150; ++ply) {
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                const Snapshot here(pos);
                for (Move m : list) {
                    pos.make_move(m);
                    REQUIRE(pos.key() == pos.compute_key());
                    REQUIRE(pos.last_move() == m);
                    REQUIRE(pos.game_ply() == here.game_ply + 1);
                    pos.unmake_move();
                    check_equal(Snapshot(pos), here);
                }
                pos.make_move(list.moves[rng() % list.size()]);
            }
        }
    }
}

TEST_CASE("position: the incremental Zobrist key equals compute_key after every move",
          "[position]") {
    std::mt19937 rng(4242);
    for (const Preset& preset : presets()) {
        const char* ed = preset.name;
        INFO(ed);
        for (int g = 0; g < testutil::scaled(40); ++g) {
            Position pos(edition(ed));
            REQUIRE(pos.key() == pos.compute_key());
            for (int ply = 0; ply < 400; ++ply) {
                MoveList list;
                generate_moves(pos, list);
                if (list.empty()) break;
                pos.make_move(lasting_move(pos, list, rng));
                REQUIRE(pos.key() == pos.compute_key());
                // The same position read from TFEN has the same key (a
                // TFEN has no open berserk chain).
                if (pos.king_square() != NO_SQUARE && pos.berserker() == NO_SQUARE)
                    REQUIRE(tfen(ed, to_tfen(pos)).key() == pos.key());
            }
        }
    }
}

TEST_CASE("position: keys differ for different positions and for the side to move", "[position]") {
    Position a = setup("brandubh", "Kb5 tf2", 'a');
    Position d = setup("brandubh", "Kb5 tf2", 'd');
    Position moved = setup("brandubh", "Kb5 tf3", 'a');
    Position other = setup("brandubh", "Kb5 Tf2 tg5", 'a');
    CHECK(a.key() != d.key());
    CHECK(a.key() != moved.key());
    CHECK(a.key() != other.key());
    // Counters are not part of the key.
    CHECK(setup("brandubh", "Kb5 tf2", 'a', 37).key() == a.key());
}

TEST_CASE("position: occurrences counts repetitions of the placement and side to move",
          "[position]") {
    Position pos = setup("brandubh-house", "Kb5 tf2 Tc2", 'a');
    CHECK(pos.occurrences() == 1);
    const int expect[] = {1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4};
    const char* cycle[] = {"f2-f3", "b5-b4", "f3-f2", "b4-b5"};
    for (int i = 0; i < 12; ++i) {
        play(pos, cycle[i % 4]);
        CHECK(pos.occurrences() == expect[i]);
    }
    // The same placement with the other side to move is another position:
    // the attacker goes round a three-move cycle on its file.
    {
        Position tri = setup("brandubh", "Kb5 tf2", 'a');
        const uint64_t start_key = tri.key();
        play_all(tri, "f2-f4 b5-b4 f4-f5 b4-b5 f5-f2");
        CHECK(to_tfen(tri).substr(0, to_tfen(tri).find(' ')) == "7/7/1K5/7/7/5t1/7");
        CHECK(tri.side_to_move() == DEFENDERS);
        CHECK(tri.key() != start_key);
        CHECK(tri.occurrences() == 1);
        play_all(tri, "b5-b4 f2-f4 b4-b5 f4-f5 b5-b4 f5-f2 b4-b5");
        CHECK(tri.key() == start_key);
        CHECK(tri.occurrences() == 2);
    }
    // A different route back to the same position counts too.
    play_all(pos, "f2-f4 c2-c3 f4-f2 c3-c2");
    CHECK(pos.occurrences() == 5);
    // After a capture no earlier position can come back; counting restarts.
    Position cap = setup("brandubh-house", "Kb5 tf6 Ta6 Td2 tc2 te1", 'a');
    play_all(cap, "f6-f5 a6-a5 f5-f6 a5-a6");
    CHECK(cap.occurrences() == 2);
    play(cap, "e1-e2"); // captures d2
    CHECK(at(cap, "d2") == NO_PIECE);
    CHECK(cap.occurrences() == 1);
    play_all(cap, "a6-a5 e2-e1 a5-a6");
    CHECK(cap.occurrences() == 1);
    play_all(cap, "f6-f5 a6-a5 f5-f6 a5-a6");
    CHECK(cap.occurrences() == 2);
    // clear_history forgets the past.
    cap.clear_history();
    CHECK(cap.occurrences() == 1);
    CHECK(cap.game_ply() == 0);
    play_all(cap, "f6-f5 a6-a5 f5-f6 a5-a6");
    CHECK(cap.occurrences() == 2);
}

TEST_CASE("position: occurrences matches a naive count in random games", "[position]") {
    std::mt19937 rng(2718);
    for (const char* ed : EDITIONS) {
        INFO(ed);
        int repeats_seen = 0;
        for (int g = 0; g < 40; ++g) {
            Position pos(edition(ed));
            std::vector<std::string> seen{placement_and_side(pos)};
            std::vector<Move> mine; // each side's last move, to undo it often
            for (int ply = 0; ply < 300; ++ply) {
                const Move m = repeating_random_move(pos, mine, rng);
                if (m.is_none()) break;
                pos.make_move(m);
                mine.push_back(m);
                const std::string here = placement_and_side(pos);
                int naive = 1;
                for (const std::string& s : seen) naive += s == here;
                seen.push_back(here);
                REQUIRE(pos.occurrences() == naive);
                repeats_seen += naive > 1;
            }
        }
        CHECK(repeats_seen > 100); // the test did exercise repetitions
    }
}

TEST_CASE("position: a null move flips only the side to move", "[position]") {
    Position pos(edition("tablut"));
    const Snapshot before(pos);
    pos.make_null();
    CHECK(pos.side_to_move() == DEFENDERS);
    CHECK(pos.key() == pos.compute_key());
    CHECK(pos.key() != before.key);
    CHECK((pos.occupied() == before.occupied));
    pos.unmake_null();
    check_equal(Snapshot(pos), before);
}

TEST_CASE("position: from_placement validates and keeps the counters", "[position]") {
    auto v = edition("brandubh");
    Placement board{};
    board[v->square(3, 3)] = KING;
    board[v->square(1, 1)] = ATTACKER;
    auto ok = Position::from_placement(v, board, DEFENDERS, 7, 9);
    REQUIRE(ok.ok());
    CHECK(ok->side_to_move() == DEFENDERS);
    CHECK(ok->plies_since_capture() == 7);
    CHECK(ok->fullmove() == 9);
    CHECK(ok->key() == ok->compute_key());
    auto neg = Position::from_placement(v, board, DEFENDERS, -1, 1);
    REQUIRE_FALSE(neg.ok());
    CHECK_THAT(neg.error(), Catch::Contains("negative"));
    auto zero = Position::from_placement(v, board, DEFENDERS, 0, 0);
    REQUIRE_FALSE(zero.ok());
    CHECK_THAT(zero.error(), Catch::Contains("move number"));
    board[v->square(3, 3)] = NO_PIECE;
    auto noking = Position::from_placement(v, board, DEFENDERS, 0, 1);
    REQUIRE_FALSE(noking.ok());
    CHECK_THAT(noking.error(), Catch::Contains("king"));
    board[v->square(3, 3)] = KING;
    board[60] = ATTACKER; // past the 49 squares of a 7x7 board
    auto off = Position::from_placement(v, board, DEFENDERS, 0, 1);
    REQUIRE_FALSE(off.ok());
    CHECK_THAT(off.error(), Catch::Contains("off the board"));
}

TEST_CASE("position: fullmove and plies since capture advance", "[position]") {
    Position pos(edition("brandubh"));
    CHECK(pos.fullmove() == 1);
    play(pos, "g4-g3");
    CHECK(pos.fullmove() == 1);
    CHECK(pos.plies_since_capture() == 1);
    play(pos, "e4-e2");
    CHECK(pos.fullmove() == 2);
    CHECK(pos.plies_since_capture() == 2);
    CHECK(pos.game_ply() == 2);
    CHECK(pos.last_move() == legal(setup("brandubh", "Kd4 Te4 tg2", 'd'), "e4-e2"));
}
