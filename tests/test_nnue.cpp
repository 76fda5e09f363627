// The learned evaluation's training data: the file format (round trips,
// refused headers, records cut short), the board's symmetries and which
// editions keep them, and self-play generation (kept positions, results,
// resuming).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "default_nets.h"
#include "engine.h"
#include "little_endian.h"
#include "nnue.h"
#include "nnue/generate.h"
#include "nnue/symmetry.h"
#include "nnue/training_data.h"
#include "nnue_net.h"
#include "random_net_file.h"
#include "test_helpers.h"

using namespace branan;
using namespace branan::nnue;
using branan::testutil::random_net_file;

namespace branan {
// tests/data/nets/, compiled in by tests/CMakeLists.txt as eval/nets/ is.
std::span<const EmbeddedNet> test_embedded_nets();
} // namespace branan

namespace {

TrainingPosition sample_position(int size, uint32_t game, uint16_t ply) {
    TrainingPosition p;
    p.game = game;
    p.ply = ply;
    p.score = int16_t(-1234 + ply);
    p.side_to_move = ply % 2 ? DEFENDERS : ATTACKERS;
    p.result = int8_t(ply % 3 - 1);
    for (int s = 0; s < size * size; ++s) p.pieces[s] = Piece((s * 7 + ply) % PLACED_KINDS);
    return p;
}

std::vector<TrainingPosition> read_all(const std::string& path) {
    std::vector<TrainingPosition> all;
    auto scan = scan_data_file(path, [&](const TrainingPosition& p) { all.push_back(p); });
    INFO(path << ": " << (scan ? std::string("ok") : scan.error()));
    REQUIRE(scan.ok());
    return all;
}

} // namespace

TEST_CASE("nnue: training records and headers read back as written", "[nnue]") {
    for (int size : {7, 9, 11, 13, 19}) {
        INFO("size " << size);
        const DataHeader header{size, size != 9, "dim:" + std::to_string(size), "spec words"};
        const std::string head = encode_header(header);
        CHECK(head.size() == DATA_HEADER_BYTES + header.rules.size() + header.spec.size());
        auto back = decode_header(head + "tail");
        REQUIRE(back.ok());
        CHECK(back->first == header);
        CHECK(back->second == head.size());
        std::string bytes;
        const auto p = sample_position(size, 70000, 301);
        append_record(p, size, bytes);
        REQUIRE(bytes.size() == record_bytes(size));
        CHECK(record_bytes(size) == 10 + size_t(size * size + 1) / 2);
        auto q = decode_record(bytes, size);
        REQUIRE(q.ok());
        CHECK(*q == p);
    }
    // The layout is the documented one, byte for byte: the fields, then two
    // squares a byte, the lower in the low nibble.
    TrainingPosition p;
    p.game = 0x01020304;
    p.ply = 0x0506;
    p.score = -2;
    p.side_to_move = DEFENDERS;
    p.result = 1;
    p.pieces[0] = KING;
    p.pieces[1] = ATTACKER;
    p.pieces[48] = DEFENDER_KNIGHT;
    std::string bytes;
    append_record(p, 7, bytes);
    CHECK(bytes.substr(0, 12) ==
          std::string("\x04\x03\x02\x01\x06\x05\xfe\xff\x01\x02\x13\x00", 12));
    CHECK(uint8_t(bytes[10 + 24]) == 0x07); // square 48 alone in the last byte
}

TEST_CASE("nnue: a data file that is not ours or is damaged is refused by name", "[nnue]") {
    const std::string good = encode_header({11, true, "rules", "spec"});
    auto error_of = [](const std::string& bytes) {
        auto h = decode_header(bytes);
        REQUIRE_FALSE(h.ok());
        return h.error();
    };
    CHECK_THAT(error_of("BRNNPOX" + good.substr(7)), Catch::Contains("not a Branan training"));
    CHECK_THAT(error_of(good.substr(0, 20)), Catch::Contains("not a Branan training"));
    std::string version = good;
    version[8] = 9;
    CHECK_THAT(error_of(version), Catch::Contains("version 9"));
    std::string size = good;
    size[10] = 21;
    CHECK_THAT(error_of(size), Catch::Contains("board size 21"));
    std::string record = good;
    record[12] = 70;
    CHECK_THAT(error_of(record), Catch::Contains("record size 70"));
    CHECK_THAT(error_of(good.substr(0, good.size() - 1)), Catch::Contains("ends inside"));
    std::string reserved = good;
    reserved[30] = 1;
    CHECK_THAT(error_of(reserved), Catch::Contains("reserved bytes"));
    // A record with a piece, side or result out of range.
    std::string bytes;
    append_record(sample_position(7, 1, 2), 7, bytes);
    std::string piece = bytes, side = bytes, result = bytes, padding = bytes;
    piece[12] = char(0x90);
    side[8] = 2;
    result[9] = 3;
    padding[10 + 24] = char(0x10);
    CHECK_THAT(decode_record(piece, 7).error(), Catch::Contains("piece 9"));
    CHECK_THAT(decode_record(side, 7).error(), Catch::Contains("side to move 2"));
    CHECK_THAT(decode_record(result, 7).error(), Catch::Contains("result 3"));
    CHECK_THAT(decode_record(padding, 7).error(), Catch::Contains("padding"));
}

TEST_CASE("nnue: the eight symmetries, and the editions that keep them", "[nnue]") {
    for (int n : {7, 11}) {
        std::set<std::vector<Square>> images;
        for (int t = 0; t < SYMMETRIES; ++t) {
            std::vector<Square> image;
            std::set<Square> seen;
            for (Square s = 0; s < n * n; ++s) {
                image.push_back(transform(t, s, n));
                seen.insert(image.back());
            }
            CHECK(seen.size() == size_t(n * n)); // a bijection
            images.insert(image);
        }
        CHECK(images.size() == 8); // eight different maps
    }
    // a1 = 0 on 7x7: mirroring the file gives g1, the rank a7, both g7; the
    // swap takes b1 to a2.
    CHECK(transform(0, 1, 7) == 1);
    CHECK(transform(1, 0, 7) == 6);
    CHECK(transform(2, 0, 7) == 42);
    CHECK(transform(3, 0, 7) == 48);
    CHECK(transform(4, 1, 7) == 7);
    for (const char* preset : {"brandubh", "tablut", "copenhagen", "hnefatafl-org", "ashton"})
        CHECK(symmetric(*testutil::edition(preset)));
    // One attacker moved from d7 to c7: the start is no longer symmetric.
    auto moved = testutil::edition_with(
        "brandubh", [](Rules& r) { r.start = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/2t4/"; });
    CHECK_FALSE(symmetric(*moved));
    // One corner fewer: the special squares are not.
    auto three =
        testutil::edition_with("brandubh", [](Rules& r) { r.special[CORNER].squares.pop_back(); });
    CHECK_FALSE(symmetric(*three));
}

TEST_CASE("nnue: self-play keeps quiet positions with their game's result, and resumes", "[nnue]") {
    testutil::TempDir dir("nnue-gen");
    GenerateSpec spec;
    // A 7x7 edition the hand-made evaluation plays (Brandubh's net ends its
    // games sooner, with fewer quiet positions kept).
    spec.preset = "brandubh-house";
    spec.games = testutil::scaled(12, 3);
    spec.nodes = 1500;
    spec.book = std::string(BRANAN_SOURCE_DIR) + "/tools/openings/brandubh-house.txt";
    spec.threads = 2;
    auto whole = generate(spec, dir / "whole.bin", nullptr);
    REQUIRE(whole.ok());
    CHECK(whole->games_played == spec.games);
    const auto positions = read_all(dir / "whole.bin");
    REQUIRE(!positions.empty());
    CHECK(whole->positions_written == positions.size());

    const EditionPtr e = testutil::edition("brandubh-house");
    std::map<uint32_t, std::vector<const TrainingPosition*>> games;
    for (const auto& p : positions) {
        games[p.game].push_back(&p);
        CHECK(p.game < spec.games);
        CHECK(std::abs(p.score) < SCORE_LIMIT);
        // Every kept position is a real one of the edition, and the side to
        // move can neither capture nor end the game at once.
        Placement board{};
        std::copy_n(p.pieces.begin(), 49, board.begin());
        auto pos = Position::from_placement(e, board, p.side_to_move, 0, 1);
        REQUIRE(pos.ok());
        MoveList moves;
        generate_moves(*pos, moves);
        for (Move m : moves) {
            pos->make_move(m);
            CHECK(pos->last_captured() == 0);
            CHECK_FALSE(pos->decided().over());
            pos->unmake_move();
        }
    }
    for (const auto& [game, list] : games) {
        // A game's positions come in order, and its result is one result
        // seen from each side: a win for one is a loss for the other.
        for (size_t i = 1; i < list.size(); ++i) CHECK(list[i]->ply > list[i - 1]->ply);
        for (const auto* p : list) {
            const int attackers_result = p->side_to_move == ATTACKERS ? p->result : -p->result;
            const int first =
                list[0]->side_to_move == ATTACKERS ? list[0]->result : -list[0]->result;
            CHECK(attackers_result == first);
        }
    }

    // Half the games, then all of them: the same positions as one run.
    GenerateSpec half = spec;
    half.games = spec.games / 2;
    half.threads = 1;
    REQUIRE(generate(half, dir / "resumed.bin", nullptr).ok());
    // A record cut short by a stop in the middle of a write is dropped.
    {
        std::ofstream cut(dir / "resumed.bin", std::ios::binary | std::ios::app);
        cut << "partial";
    }
    auto rest = generate(spec, dir / "resumed.bin", nullptr);
    REQUIRE(rest.ok());
    CHECK(rest->games_skipped > 0);
    CHECK(rest->games_played + rest->games_skipped == spec.games);
    auto key = [](const TrainingPosition& a, const TrainingPosition& b) {
        return std::tie(a.game, a.ply) < std::tie(b.game, b.ply);
    };
    auto expected = positions, resumed = read_all(dir / "resumed.bin");
    std::sort(expected.begin(), expected.end(), key);
    std::sort(resumed.begin(), resumed.end(), key);
    CHECK(resumed == expected);

    // Another spec does not resume the file; the file stays as it was.
    GenerateSpec other = spec;
    other.nodes = 1600;
    auto refused = generate(other, dir / "resumed.bin", nullptr);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.error(), Catch::Contains("nodes=1500"));
    CHECK(read_all(dir / "resumed.bin").size() == positions.size());
    other = spec;
    other.preset = "tablut";
    other.book.clear();
    CHECK_THAT(generate(other, dir / "resumed.bin", nullptr).error(),
               Catch::Contains("another edition"));
}

// ---- the engine's side: net files, accumulators, the option -------------

namespace {

NnueNetPtr random_net(int size, int planes, uint64_t seed, int l1 = 16, int l2 = 8,
                      int buckets = 0) {
    auto net = read_nnue(random_net_file(size, planes, l1, l2, seed, "", -1, 0, buckets));
    INFO((net ? std::string("ok") : net.error()));
    REQUIRE(net.ok());
    return *net;
}

std::vector<int16_t> refreshed(const NnueNet& net, const Position& pos) {
    NnueStack fresh;
    fresh.set_net(&net);
    fresh.refresh(pos);
    return {fresh.top(), fresh.top() + net.l1};
}

} // namespace

TEST_CASE("nnue: a net file is read as written, and a damaged or foreign one is refused",
          "[nnue]") {
    const std::string good = random_net_file(11, 3, 16, 8, 5);
    auto net = read_nnue(good);
    REQUIRE(net.ok());
    CHECK((*net)->size == 11);
    CHECK((*net)->planes == 3);
    CHECK((*net)->inputs() == 364);
    CHECK((*net)->w1.size() == 364 * 16);
    CHECK((*net)->scale == 400);
    auto error_of = [](const std::string& bytes) {
        auto n = read_nnue(bytes);
        REQUIRE_FALSE(n.ok());
        return n.error();
    };
    CHECK_THAT(error_of("BRNNPOS" + good.substr(7)), Catch::Contains("not a Branan net"));
    std::string version = good;
    version[8] = 2;
    CHECK_THAT(error_of(version), Catch::Contains("net version 2"));
    CHECK_THAT(error_of(random_net_file(11, 3, 16, 8, 5, "", -1, 0, 3)),
               Catch::Contains("3 buckets"));
    CHECK_THAT(error_of(random_net_file(11, 3, 16, 8, 5, "", 16)), Catch::Contains(", 16, "));
    // Weights whose sums can leave int16 in some position: refused.
    CHECK_THAT(error_of(random_net_file(11, 3, 16, 8, 5, "", -1, 400)),
               Catch::Contains("overflow its int16 sums"));
    CHECK_THAT(error_of(good.substr(0, good.size() - 1)), Catch::Contains("cut short"));
    std::string flipped = good;
    flipped.back() = char(flipped.back() ^ 1);
    CHECK_THAT(error_of(flipped), Catch::Contains("hash"));
    CHECK_THAT(error_of(good + "x"), Catch::Contains("layers are"));
    CHECK_THAT(error_of(random_net_file(11, 5, 16, 8, 5)), Catch::Contains("5 piece planes"));
    CHECK_THAT(error_of(random_net_file(11, 3, 16, 8, 5, "pieces3+side+king")),
               Catch::Contains("feature set"));
    // A net fits the rules of its board size, and 3 planes fit only rules
    // without commanders and knights.
    CHECK(nnue_fits(**net, *testutil::edition("copenhagen")));
    CHECK_THAT(nnue_fits(**net, *testutil::edition("tablut")).error(),
               Catch::Contains("11x11 boards, these rules' board is 9x9"));
    CHECK_THAT(nnue_fits(*random_net(11, 3, 1), *testutil::edition("opentafl-berserk")).error(),
               Catch::Contains("commanders and knights"));
    CHECK(nnue_fits(*random_net(11, 7, 1), *testutil::edition("opentafl-berserk")));
}

TEST_CASE("nnue: the accumulators made move by move equal a fresh sum in every preset", "[nnue]") {
    std::mt19937_64 rng(17);
    for (const Preset& preset : presets()) {
        const EditionPtr e = testutil::edition(preset.name);
        const NnueNetPtr net = random_net(e->size, e->special_moves ? 7 : 3, rng());
        INFO("preset " << preset.name);
        for (int game = 0; game < testutil::scaled(3, 3); ++game) {
            Position pos(e);
            NnueStack stack;
            stack.set_net(net.get());
            stack.refresh(pos);
            const std::vector<int16_t> root = refreshed(*net, pos);
            int plies = 0, nulls = 0;
            for (; plies < 160 && !pos.result().over(); ++plies) {
                MoveList moves;
                generate_moves(pos, moves);
                if (moves.empty()) break;
                if (rng() % 10 == 0) {
                    pos.make_null();
                    stack.push_null();
                    ++nulls;
                } else {
                    pos.make_move(moves.moves[rng() % uint64_t(moves.size())]);
                    stack.push_move(pos);
                }
                // Read at some plies only: the sums of the plies between
                // are made when a later one is read.
                if (rng() % 3 == 0) {
                    REQUIRE(std::vector<int16_t>(stack.top(), stack.top() + net->l1) ==
                            refreshed(*net, pos));
                    CHECK(stack.evaluate() == nnue_evaluate(*net, pos));
                }
            }
            CHECK(stack.evaluate() == nnue_evaluate(*net, pos));
            // Back to the root: the stack's bottom is untouched.
            for (int i = 0; i < plies; ++i) stack.pop();
            CHECK(std::vector<int16_t>(stack.top(), stack.top() + net->l1) == root);
            CHECK(plies > 0);
            (void)nulls;
        }
    }
}

TEST_CASE("nnue: EvalFile loads a net, Use NNUE switches it off, a net for other rules is refused",
          "[nnue]") {
    testutil::TempDir dir("nnue-option");
    const std::string path11 = dir / "copenhagen.nnue", path7 = dir / "brandubh.nnue";
    std::ofstream(path11, std::ios::binary) << random_net_file(11, 3, 16, 8, 21);
    std::ofstream(path7, std::ios::binary) << random_net_file(7, 3, 16, 8, 22);
    const NnueNetPtr net = *read_nnue(random_net_file(11, 3, 16, 8, 21));

    Engine e;
    REQUIRE(e.set_option("Variant", "copenhagen"));
    // Copenhagen has a compiled-in net: the hand-made evaluation is the one
    // with the nets switched off.
    REQUIRE(e.set_option("Use NNUE", "false"));
    const Value hand_made = e.evaluate();
    REQUIRE(e.set_option("Use NNUE", "true"));
    REQUIRE(e.set_option("EvalFile", path11));
    const Value learned = nnue_evaluate(*net, e.position());
    CHECK(e.evaluate() == learned);
    REQUIRE(learned != hand_made); // the random net is not the weights
    // The search runs on it (the tree differs from the weights' tree).
    SearchLimits depth;
    depth.depth = 4;
    auto with_net = e.search_to_end(depth);
    REQUIRE(with_net.ok());
    const uint64_t net_nodes = e.last_search_nodes();
    MoveList moves;
    generate_moves(e.position(), moves);
    CHECK(moves.contains(with_net->best.best));
    // Off: the hand-made evaluation, and its tree.
    REQUIRE(e.set_option("Use NNUE", "false"));
    CHECK(e.evaluate() == hand_made);
    REQUIRE(e.search_to_end(depth).ok());
    CHECK(e.last_search_nodes() != net_nodes);
    REQUIRE(e.set_option("Use NNUE", "true"));
    CHECK(e.evaluate() == learned);
    // A 7x7 net for 11x11 rules: refused, the loaded net kept.
    auto refused = e.set_option("EvalFile", path7);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.error(), Catch::Contains("7x7 boards"));
    CHECK(e.evaluate() == learned);
    // Rules it does not fit: their own evaluation (a compiled-in net where
    // they have one); back on 11x11, the net again.
    REQUIRE(e.set_option("Variant", "brandubh"));
    Engine plain;
    REQUIRE(plain.set_option("Variant", "brandubh"));
    CHECK(e.evaluate() == plain.evaluate());
    REQUIRE(e.set_option("Variant", "copenhagen"));
    CHECK(e.evaluate() == learned);
    // A damaged file: refused by name.
    std::string damaged = random_net_file(11, 3, 16, 8, 21);
    damaged.back() = char(damaged.back() ^ 1);
    std::ofstream(dir / "damaged.nnue", std::ios::binary) << damaged;
    CHECK_THAT(e.set_option("EvalFile", dir / "damaged.nnue").error(),
               Catch::Contains("damaged.nnue: the net's layers do not match its hash"));
    // No file: the compiled-in net again.
    REQUIRE(e.set_option("EvalFile", ""));
    Engine fresh;
    REQUIRE(fresh.set_option("Variant", "copenhagen"));
    CHECK(e.evaluate() == fresh.evaluate());
    CHECK(e.evaluate() != hand_made);
    CHECK(e.evaluate() != learned);
}

TEST_CASE("nnue: self-play's spec names the evaluation it searched with", "[nnue]") {
    testutil::TempDir dir("nnue-gen-eval");
    const std::string net7 = dir / "net7.nnue", net9 = dir / "net9.nnue";
    std::ofstream(net7, std::ios::binary) << random_net_file(7, 3, 16, 8, 31);
    std::ofstream(net9, std::ios::binary) << random_net_file(9, 3, 16, 8, 32);
    auto hex = [](uint64_t hash) {
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", (unsigned long long)hash);
        return std::string(text);
    };
    GenerateSpec spec;
    spec.preset = "brandubh";
    spec.games = 2;
    spec.nodes = 200;
    spec.max_plies = 20;
    auto spec_of = [&](const GenerateSpec& s, const std::string& name) {
        auto report = generate(s, dir / name, nullptr);
        INFO(name << ": " << (report ? std::string("ok") : report.error()));
        REQUIRE(report.ok());
        auto scan = scan_data_file(dir / name, [](const TrainingPosition&) {});
        REQUIRE(scan.ok());
        return scan->header.spec;
    };
    // The preset's own evaluation: its compiled-in net where it has one.
    const NnueNetPtr shipped = default_net(*preset_rules("brandubh"));
    const std::string own = spec_of(spec, "own.bin");
    if (shipped)
        CHECK(own.ends_with(" net=" + hex(shipped->hash)));
    else
        CHECK(own.find(" net=") == std::string::npos);
    GenerateSpec hand = spec;
    hand.hand_made = true;
    const std::string hand_spec = spec_of(hand, "hand.bin");
    CHECK(hand_spec.find(" net=") == std::string::npos);
    CHECK(hand_spec.find("weights-fnv") == std::string::npos);
    GenerateSpec with_net = spec;
    with_net.eval_file = net7;
    CHECK(spec_of(with_net, "net7.bin").ends_with(" net=" + hex((*read_nnue_file(net7))->hash)));
    GenerateSpec weights = spec;
    weights.eval_file = std::string(BRANAN_SOURCE_DIR) + "/tests/data/tune/reference-weights.txt";
    const std::string weights_spec = spec_of(weights, "weights.bin");
    CHECK(weights_spec.find(" net=") == std::string::npos);
    CHECK(weights_spec.find(" weights-fnv=") != std::string::npos);
    // Another evaluation does not resume a file.
    if (shipped) {
        auto refused = generate(hand, dir / "own.bin", nullptr);
        REQUIRE_FALSE(refused.ok());
        CHECK_THAT(refused.error(), Catch::Contains(" net="));
    }
    CHECK_FALSE(generate(with_net, dir / "hand.bin", nullptr).ok());
    // A net that does not fit, or a net with the hand-made evaluation:
    // refused before any file is made.
    GenerateSpec misfit = spec;
    misfit.eval_file = net9;
    auto refused = generate(misfit, dir / "misfit.bin", nullptr);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.error(), Catch::Contains("9x9"));
    CHECK_FALSE(std::filesystem::exists(dir / "misfit.bin"));
    with_net.hand_made = true;
    CHECK_FALSE(generate(with_net, dir / "both.bin", nullptr).ok());
    CHECK_FALSE(std::filesystem::exists(dir / "both.bin"));
}

TEST_CASE("nnue: a move that takes a whole wall is summed as a refresh sums it", "[nnue]") {
    // Seven attackers on the first rank, bracketed by b1 and j1 and faced
    // by defenders: j3-j1 takes them all (more captures than a ply notes).
    Position pos =
        testutil::setup("copenhagen",
                        "tc1 td1 te1 tf1 tg1 th1 ti1 Tb1 Tc2 Td2 Te2 Tf2 Tg2 Th2 Ti2 Tj3 "
                        "Kf6 ta6 tk6 tf11",
                        'd');
    const NnueNetPtr net = random_net(11, 3, 31);
    NnueStack stack;
    stack.set_net(net.get());
    stack.refresh(pos);
    pos.make_move(testutil::legal(pos, "j3-j1"));
    REQUIRE(popcount(pos.last_captured()) == 7);
    stack.push_move(pos);
    // A quiet reply on top, read together with the wall's ply.
    pos.make_move(testutil::legal(pos, "a6-a9"));
    stack.push_move(pos);
    CHECK(std::vector<int16_t>(stack.top(), stack.top() + net->l1) == refreshed(*net, pos));
    CHECK(stack.evaluate() == nnue_evaluate(*net, pos));
    stack.pop();
    pos.unmake_move();
    CHECK(std::vector<int16_t>(stack.top(), stack.top() + net->l1) == refreshed(*net, pos));
}

TEST_CASE("nnue: the engine's integer pass equals a plain model of the documented one", "[nnue]") {
    // docs/nnue.md: acc = b1 + rows of the set inputs; h1 =
    // clamp(floor(acc / 2^(shift1 - 7)), 0, 127); h2 = clamp(floor((w2 . h1 +
    // b2) / 2^shift2), 0, 127); eval = floor((w3 . h2 + b3) x scale /
    // 2^(7 + shift3)), the later layers those of the side to move's bucket
    // where there are two. Widths that are and are not multiples of 32.
    std::mt19937_64 rng(29);
    for (auto shape : {std::tuple{64, 8, 1}, std::tuple{40, 5, 2}, std::tuple{256, 32, 2},
                       std::tuple{256, 32, 1}}) {
        // Plain ints: lambdas may not capture structured bindings (C++17, clang).
        const int l1 = std::get<0>(shape), l2 = std::get<1>(shape), buckets = std::get<2>(shape);
        const NnueNetPtr net = random_net(11, 3, rng(), l1, l2, buckets);
        REQUIRE(net->buckets == buckets);
        const EditionPtr e = testutil::edition("copenhagen");
        Position pos(e);
        for (int ply = 0; ply < 40 && !pos.result().over(); ++ply) {
            std::vector<int64_t> acc(net->b1.begin(), net->b1.end());
            auto add_row = [&](int input) {
                for (int i = 0; i < l1; ++i) acc[size_t(i)] += net->w1[size_t(input * l1 + i)];
            };
            for (Square s = 0; s < 121; ++s)
                if (pos.placed_piece(s) != NO_PIECE) add_row((pos.placed_piece(s) - 1) * 121 + s);
            if (pos.side_to_move() == DEFENDERS) add_row(3 * 121);
            // Division rounding down, written without shifts.
            auto floor_div = [](int64_t a, int64_t b) {
                return a >= 0 ? a / b : -((-a + b - 1) / b);
            };
            const int bucket = buckets == 2 && pos.side_to_move() == DEFENDERS ? 1 : 0;
            int64_t out = net->b3[size_t(bucket)];
            for (int j = 0; j < l2; ++j) {
                const int row = bucket * l2 + j;
                int64_t sum = net->b2[size_t(row)];
                for (int i = 0; i < l1; ++i)
                    sum += int64_t(net->w2[size_t(row * l1 + i)]) *
                           std::clamp<int64_t>(
                               floor_div(acc[size_t(i)], int64_t(1) << (net->shift1 - 7)), 0, 127);
                const int64_t h2 =
                    std::clamp<int64_t>(floor_div(sum, int64_t(1) << net->shift2), 0, 127);
                out += net->w3[size_t(row)] * h2;
            }
            const double exact = double(out) * 400 / double(int64_t(1) << (7 + net->shift3));
            INFO("l1 " << l1 << " ply " << ply);
            CHECK(nnue_evaluate(*net, pos) == Value(std::floor(exact)));
            MoveList moves;
            generate_moves(pos, moves);
            pos.make_move(moves.moves[rng() % uint64_t(moves.size())]);
        }
    }
}

TEST_CASE("nnue: a compiled-in net is the default for the rules it was trained on, and no other",
          "[nnue]") {
    const auto nets = test_embedded_nets();
    REQUIRE(nets.size() == 1);
    CHECK(nets[0].name == "brandubh");
    const Rules brandubh = *preset_rules("brandubh");
    auto found = find_default_net(brandubh, nets);
    REQUIRE(found.ok());
    REQUIRE(*found);
    CHECK((*found)->size == 7);
    CHECK((*found)->l1 == 32);
    // Another preset, and Brandubh with one rule changed, have none.
    auto tablut = find_default_net(*preset_rules("tablut"), nets);
    REQUIRE(tablut.ok());
    CHECK_FALSE(*tablut);
    Rules changed = brandubh;
    changed.attackers_first = !changed.attackers_first;
    auto other = find_default_net(changed, nets);
    REQUIRE(other.ok());
    CHECK_FALSE(*other);
    // A net cut short is an error naming it.
    const EmbeddedNet cut{"cut", nets[0].bytes.first(nets[0].bytes.size() - 1)};
    auto damaged = find_default_net(brandubh, std::span<const EmbeddedNet>(&cut, 1));
    REQUIRE_FALSE(damaged.ok());
    CHECK_THAT(damaged.error(), Catch::Contains("eval/nets/cut.nnue: the net file is cut short"));
    // Every net the engine ships reads and is the default of its own rules.
    for (const NnueNetPtr& read : testutil::shipped_nets()) {
        auto rules = parse_rules(read->rules);
        REQUIRE(rules.ok());
        const NnueNetPtr chosen = default_net(*rules);
        REQUIRE(chosen);
        CHECK(chosen->hash == read->hash);
        // The engine plays these rules with it, and without it when Use
        // NNUE is off (the hand-made evaluation searches another tree).
        Engine e;
        REQUIRE(e.set_rules(*rules));
        CHECK(e.evaluate() == nnue_evaluate(*chosen, e.position()));
        SearchLimits depth;
        depth.depth = 5;
        REQUIRE(e.search_to_end(depth).ok());
        const uint64_t net_nodes = e.last_search_nodes();
        REQUIRE(e.set_option("Use NNUE", "false"));
        REQUIRE(e.search_to_end(depth).ok());
        CHECK(e.last_search_nodes() != net_nodes);
    }
}
