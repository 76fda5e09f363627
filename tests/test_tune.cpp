// branan-tune (tools/tune) and the data it produces: the compiled-in default
// weights.

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "default_weights.h"
#include "params.h"

using namespace branan;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

TEST_CASE("tune: the compiled-in defaults are the weight files", "[tune]") {
    for (DefaultSet set : {DefaultSet::CORNER, DefaultSet::CORNER_WEAK, DefaultSet::EDGE}) {
        const std::string path =
            std::string(BRANAN_SOURCE_DIR) + "/eval/weights/" + default_set_name(set) + ".txt";
        INFO(path);
        const std::string text = read_file(path);
        REQUIRE_FALSE(text.empty());
        // Built from the file as it is now (CMake re-configures on a change).
        CHECK(embedded_weights(set) == text);
        // It parses (a file that does not would stop every program at start).
        auto parsed = load_params(text);
        INFO((parsed ? std::string("ok") : parsed.error()));
        REQUIRE(parsed.ok());
        CHECK(*parsed == default_params(set));
        // The files are exactly what save_params (and so the tuner) writes.
        CHECK(save_params(*parsed) == text);
        for (int i = 0; i < PARAM_COUNT; ++i) {
            const ParamInfo& p = param_table()[i];
            CHECK(parsed->w[i] == (set == DefaultSet::CORNER        ? p.default_corner
                                   : set == DefaultSet::CORNER_WEAK ? p.default_corner_weak
                                                                    : p.default_edge));
        }
    }
    // The values of the table before the defaults became files.
    const EvalParams corner = default_params(DefaultSet::CORNER);
    const EvalParams weak = default_params(DefaultSet::CORNER_WEAK);
    const EvalParams edge = default_params(DefaultSet::EDGE);
    CHECK(corner[DEFENDER_PIECE] == 200);
    CHECK(edge[DEFENDER_PIECE] == 180);
    CHECK(weak[KING_ADJACENT_ATTACKER] == 35);
    CHECK(corner[KING_ON_THRONE] == 10);
    CHECK(edge[ESCAPE_REGION] == 3);
    CHECK(corner[ATTACKER_EXPOSED] == -30);
}
