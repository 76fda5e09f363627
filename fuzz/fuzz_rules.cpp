// libFuzzer target: the rules-string parser. Rules it accepts must print
// back to an equal description; an Edition built from them must give a
// start position with legal moves that make and unmake cleanly, and whose
// counts without making moves agree with making them.

#include <cstdint>
#include <cstdlib>
#include <string>

#include "count_check.h"
#include "edition.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"

using namespace branan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    // The first byte picks the reading of hostility lists (OTEP's or ours).
    const RulesReading reading =
        size && (data[0] & 1) ? RulesReading::BY_SIDE : RulesReading::BY_PIECE;
    auto rules = parse_rules(text, reading);
    if (!rules) {
        if (rules.error().empty()) std::abort();
        return 0;
    }
    // The printed string says everything: either reading gets it back.
    for (RulesReading r : {RulesReading::BY_PIECE, RulesReading::BY_SIDE}) {
        auto again = parse_rules(print_rules(*rules), r);
        if (!again || !(*again == *rules)) std::abort();
    }
    auto edition = Edition::make(*rules);
    if (!edition) return 0;
    Position pos(*edition);
    if (pos.key() != pos.compute_key()) std::abort();
    const std::string tfen = to_tfen(pos);
    auto parsed = parse_tfen(*edition, tfen);
    if (!parsed || to_tfen(*parsed) != tfen) std::abort();
    fuzzcheck::check_counts(pos);
    MoveList moves;
    generate_moves(pos, moves);
    for (Move m : moves) {
        pos.make_move(m);
        MoveList replies;
        generate_moves(pos, replies);
        (void)pos.result();
        pos.unmake_move();
    }
    return 0;
}
