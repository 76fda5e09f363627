// A king's capture in a game record: branan-match writes "++"
// without the king's square, OpenTafl lists it; branan-match's reader and
// branan-tune extract read both.

#include <catch2/catch.hpp>

#include <string>

#include "match/record.h"
#include "notation.h"
#include "rules.h"
#include "tune/extract.h"

using namespace branan;

namespace {

// Brandubh, the attackers to move: b1-b5 takes the king on c5 against d5.
const char* const START = "7/7/2Kt3/7/7/7/1t5 a 0 1";

Position start_position() {
    auto rules = preset_rules("brandubh");
    REQUIRE(rules.ok());
    auto edition = Edition::make(*rules);
    REQUIRE(edition.ok());
    auto pos = parse_tfen(*edition, START);
    REQUIRE(pos.ok());
    return *pos;
}

std::string game_record(const std::string& ply) {
    auto rules = preset_rules("brandubh");
    REQUIRE(rules.ok());
    Position end = start_position();
    end.make_move(*parse_legal_move(end, "b1-b5"));
    return "# branan-match game record 1\nRun: test\nGame: 1\nRules: " + print_rules(*rules) +
           "\nVariant: brandubh\nStart: " + START +
           "\nResult: attackers\nReason: king-captured\nPlies: 1\nFinal: " + to_tfen(end) +
           "\n\n1 a " + ply + " 10ms\n";
}

} // namespace

TEST_CASE("records: a king's capture is read with or without the king's square", "[match][tune]") {
    const Position pos = start_position();
    const Move b1b5 = *parse_legal_move(pos, "b1-b5");
    REQUIRE(move_record(pos, b1b5) == "b1-b5++"); // what branan-match writes
    for (const char* written : {"b1-b5++", "b1-b5xc5++", "b1-b5xKc5++", "b1-b5xKc5", "b1-b5xc5",
                                "b1-b5++c5", "b1-b5++Kc5"}) {
        INFO(written);
        auto m = read_record_move(pos, written);
        REQUIRE(m.ok());
        CHECK(*m == b1b5);
        // The extractor takes the game whole.
        tune::Extractor ex(tune::ExtractOptions{0});
        const Status st =
            ex.add_record(game_record(written), [](int n) { return "game:" + std::to_string(n); });
        INFO((st ? std::string("ok") : st.error()));
        CHECK(st.ok());
        CHECK(ex.stats().games == 1);
    }
    // Records that are not this move's: no end, another square, a king
    // that was not taken, an illegal move.
    for (const char* written : {"b1-b5", "b1-b5xc4++", "b1-b5++c4", "b1-b5xc5/d5++", "b1-b6++"}) {
        INFO(written);
        CHECK(!read_record_move(pos, written).ok());
        tune::Extractor ex(tune::ExtractOptions{0});
        CHECK(!ex.add_record(game_record(written), [](int n) { return std::to_string(n); }).ok());
    }
    // An ordinary move takes OpenTafl's "+" and "-" (a threatened king, an
    // open route), and the king's own letter before his move.
    Position quiet = start_position();
    CHECK(read_record_move(quiet, "d5-f5+").ok());
    CHECK(read_record_move(quiet, "d5-f5-").ok());
    quiet.make_move(*parse_legal_move(quiet, "b1-b2"));
    auto king = read_record_move(quiet, "Kc5-c7");
    REQUIRE(king.ok());
    CHECK(move_name(quiet.edition(), *king) == "c5-c7");
    CHECK(!read_record_move(quiet, "Kc5-c7++").ok());
}
