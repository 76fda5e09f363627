// libFuzzer target: the TFEN parser, for every preset. A position it
// accepts must print back to a TFEN that parses to the same position, and
// must survive move generation and a make/unmake of every move; the
// counts made without making moves must agree with making them.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "count_check.h"
#include "edition.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"

using namespace branan;

namespace {

const std::vector<EditionPtr>& editions() {
    static const std::vector<EditionPtr> all = [] {
        std::vector<EditionPtr> v;
        for (const Preset& p : presets()) {
            auto rules = parse_rules(p.rules);
            if (!rules) std::abort();
            auto edition = Edition::make(*rules);
            if (!edition) std::abort();
            v.push_back(*edition);
        }
        return v;
    }();
    return all;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const EditionPtr& edition : editions()) {
        auto pos = parse_tfen(edition, text);
        if (!pos) {
            if (pos.error().empty()) std::abort(); // an error must say what was wrong
            continue;
        }
        const std::string printed = to_tfen(*pos);
        auto again = parse_tfen(edition, printed);
        if (!again || to_tfen(*again) != printed || again->key() != pos->key()) std::abort();
        if (pos->key() != pos->compute_key()) std::abort();
        MoveList moves;
        generate_moves(*pos, moves);
        for (Move m : moves) {
            const uint64_t key = pos->key();
            pos->make_move(m);
            if (pos->key() != pos->compute_key()) std::abort();
            pos->unmake_move();
            if (pos->key() != key) std::abort();
        }
        fuzzcheck::check_counts(*pos);
        (void)pos->result();
    }
    return 0;
}
