// libFuzzer target: the game file reader of `branan review`. Any text is
// read as a game file; an error must say what was wrong; a game it reads is
// replayed under its own rules (or Brandubh's and Copenhagen's when it
// names none), every move checked, and its last position drawn as SVG.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "diagram.h"
#include "edition.h"
#include "game_file.h"
#include "rules.h"

using namespace branan;

namespace {

EditionPtr edition_of(const Rules& rules) {
    auto edition = Edition::make(rules);
    if (!edition) std::abort();
    return *edition;
}

const std::vector<EditionPtr>& fallbacks() {
    static const std::vector<EditionPtr> all = [] {
        std::vector<EditionPtr> v;
        for (const char* name : {"brandubh", "copenhagen"}) {
            auto rules = preset_rules(name);
            if (!rules) std::abort();
            v.push_back(edition_of(*rules));
        }
        return v;
    }();
    return all;
}

void replay(const GameText& game, const EditionPtr& edition) {
    auto replayed = replay_game(game, edition);
    if (!replayed) {
        if (replayed.error().empty()) std::abort();
        return;
    }
    if (replayed->moves.size() != game.moves.size()) std::abort();
    Position pos = replayed->start;
    for (Move m : replayed->moves) pos.make_move(m);
    if (board_svg(pos, {}).empty()) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto game = parse_game_text(text);
    if (!game) {
        if (game.error().empty()) std::abort();
        return 0;
    }
    if (!game->rules.empty()) {
        const RulesReading reading =
            game->format == GameFormat::OPENTAFL ? RulesReading::BY_SIDE : RulesReading::BY_PIECE;
        auto rules = parse_rules(game->rules, reading);
        if (!rules) return 0;
        auto edition = Edition::make(*rules);
        if (!edition) return 0;
        replay(*game, *edition);
        return 0;
    }
    for (const EditionPtr& edition : fallbacks()) replay(*game, edition);
    return 0;
}
