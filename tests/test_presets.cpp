// The preset table against a golden list: every preset's printed rules are
// the ones captured in tests/data/rules/presets.txt, so that a change in how
// the table is written cannot change an edition unnoticed.

#include <fstream>
#include <string>
#include <vector>

#include "test_helpers.h"
#include "text.h"

using namespace branan;

namespace {

struct Golden {
    std::string name;
    std::string rules;
};

std::vector<Golden> golden_presets() {
    std::ifstream in(std::string(BRANAN_SOURCE_DIR) + "/tests/data/rules/presets.txt");
    REQUIRE(in);
    std::vector<Golden> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const size_t tab = line.find('\t');
        REQUIRE(tab != std::string::npos);
        out.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return out;
}

} // namespace

TEST_CASE("presets: every preset prints as the golden list says", "[presets]") {
    const std::vector<Golden> golden = golden_presets();
    REQUIRE(golden.size() == presets().size());
    for (size_t i = 0; i < golden.size(); ++i) {
        INFO(golden[i].name);
        CHECK(std::string(presets()[i].name) == golden[i].name);
        auto rules = preset_rules(golden[i].name);
        REQUIRE(rules.ok());
        CHECK(print_rules(*rules) == golden[i].rules);
        // The golden text reads back to the same rules, whoever reads it.
        for (RulesReading reading : {RulesReading::BY_PIECE, RulesReading::BY_SIDE}) {
            auto again = parse_rules(golden[i].rules, reading);
            REQUIRE(again.ok());
            CHECK(*again == *rules);
        }
    }
}
