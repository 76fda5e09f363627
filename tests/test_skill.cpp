// Levels below full strength (search/skill.h): the nodes and the choice of
// each level, the measured ladder behind UCI_Elo, and the options reaching
// the search from every host.

#include <catch2/catch.hpp>

#include <set>

#include "engine.h"
#include "notation.h"
#include "rules.h"
#include "skill.h"
#include "test_helpers.h"

using namespace branan;

namespace {

// What a level gives away on average, in expected score, choosing among
// these candidates (best first).
double expected_loss(const Skill& skill, const std::vector<double>& expected) {
    const std::vector<double> w = skill.weights(expected);
    double sum = 0, loss = 0;
    for (size_t i = 0; i < w.size(); ++i) {
        sum += w[i];
        loss += w[i] * (expected[0] - expected[i]);
    }
    CHECK(sum == Approx(1));
    return loss;
}

} // namespace

TEST_CASE("skill: weaker levels search fewer nodes and give away more", "[skill]") {
    const std::vector<std::vector<double>> choices = {
        {0.62, 0.60, 0.55, 0.30}, {0.9, 0.2, 0.1, 0.05}, {0.51, 0.50}, {1.0, 0.7, 0.69, 0.4}};
    CHECK(Skill(0).nodes() == 50);
    CHECK_FALSE(Skill(20).limited());
    CHECK(Skill(19.5).limited());
    for (const auto& expected : choices) {
        double last_loss = 1;
        uint64_t last_nodes = 0;
        for (double level = 0; level < MAX_SKILL_LEVEL; level += 0.5) {
            const Skill skill(level);
            INFO("level " << level);
            CHECK(skill.nodes() > last_nodes);
            last_nodes = skill.nodes();
            const double loss = expected_loss(skill, expected);
            CHECK((loss < last_loss || last_loss < 1e-12));
            last_loss = loss;
            // The best is always the likeliest choice.
            const std::vector<double> w = skill.weights(expected);
            CHECK(w[0] == *std::max_element(w.begin(), w.end()));
        }
        // Full strength plays the best.
        CHECK(Skill(MAX_SKILL_LEVEL).weights(expected)[0] == 1);
    }
    // A clear blunder (half the game given away) is rare even at level 0,
    // and all but gone by level 10.
    CHECK(Skill(0).weights({0.8, 0.3})[1] < 0.05);
    CHECK(Skill(10).weights({0.8, 0.3})[1] < 1e-5);
}

TEST_CASE("skill: the ladder maps levels to Elo and back, full strength on top", "[skill]") {
    std::vector<std::pair<std::string, uint64_t>> ladders;
    for (const char* name : {"brandubh", "tablut", "copenhagen", "fetlar", "hnefatafl-org-13"})
        ladders.emplace_back(name, 0);
    // Every compiled-in net's edition has a ladder measured with the net.
    for (const NnueNetPtr& net : testutil::shipped_nets()) {
        const Rules rules = *parse_rules(net->rules);
        CHECK(elo_of_level(8, rules, net->hash) != elo_of_level(8, rules));
        ladders.emplace_back(*preset_of(rules), net->hash);
    }
    for (const auto& ladder : ladders) {
        const Rules rules = *preset_rules(ladder.first);
        const uint64_t net = ladder.second;
        INFO(ladder.first << (net ? " (net)" : ""));
        CHECK(elo_of_level(MAX_SKILL_LEVEL, rules, net) == ELO_MAX);
        // The measured span is the one UCI_Elo offers, and at least 600.
        CHECK(elo_of_level(0, rules, net) >= ELO_MIN);
        CHECK(ELO_MAX - elo_of_level(0, rules, net) >= 600);
        int last = 0;
        for (int level = 0; level <= MAX_SKILL_LEVEL; ++level) {
            const int elo = elo_of_level(level, rules, net);
            CHECK(elo > last);
            last = elo;
            // Back to the same Elo (levels apart by under an Elo are one).
            CHECK(std::abs(elo_of_level(level_for_elo(elo, rules, net), rules, net) - elo) <= 1);
        }
        CHECK(level_for_elo(ELO_MIN - 1, rules, net) == 0);
        CHECK(level_for_elo(ELO_MAX, rules, net) == MAX_SKILL_LEVEL);
        // The options: UCI_LimitStrength picks by Elo, else Skill Level.
        CHECK(Skill::from_options(true, ELO_MAX, 3, rules, net).level() == MAX_SKILL_LEVEL);
        CHECK(Skill::from_options(true, ELO_MIN, 20, rules, net).level() == Approx(0).margin(0.5));
        CHECK(Skill::from_options(false, ELO_MIN, 7, rules, net).level() == 7);
    }
}

TEST_CASE("skill: a level's search is node-limited, legal and varied, full strength is not",
          "[skill]") {
    Engine engine;
    REQUIRE(engine.set_preset("brandubh"));
    SearchLimits limits;
    limits.depth = 40;
    REQUIRE(engine.set_option("Skill Level", "0"));
    std::set<std::string> moves;
    for (int i = 0; i < 30; ++i) {
        auto outcome = engine.search_to_end(limits);
        REQUIRE(outcome.ok());
        CHECK(engine.last_search_nodes() < 2000);
        Position pos = engine.position();
        const std::string move = move_name(pos.edition(), outcome->best.best);
        CHECK(parse_legal_move(pos, move).ok());
        moves.insert(move);
    }
    CHECK(moves.size() >= 2);
    // UCI_LimitStrength at the bottom of the ladder: as weak.
    REQUIRE(engine.set_option("Skill Level", "20"));
    REQUIRE(engine.set_option("UCI_LimitStrength", "true"));
    REQUIRE(engine.set_option("UCI_Elo", std::to_string(ELO_MIN)));
    REQUIRE(engine.search_to_end(limits).ok());
    CHECK(engine.last_search_nodes() < 2000);
    // Full strength: the same move every time, as deep as asked.
    REQUIRE(engine.set_option("UCI_LimitStrength", "false"));
    limits.depth = 4;
    moves.clear();
    for (int i = 0; i < 3; ++i) {
        engine.new_game();
        auto outcome = engine.search_to_end(limits);
        REQUIRE(outcome.ok());
        CHECK(outcome->last.depth == 4);
        moves.insert(move_name(engine.position().edition(), outcome->best.best));
    }
    CHECK(moves.size() == 1);
    CHECK_FALSE(engine.set_option("Skill Level", "21"));
    CHECK_FALSE(engine.set_option("UCI_Elo", std::to_string(ELO_MAX + 1)));
}
