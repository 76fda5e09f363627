// libFuzzer target: the tuner's inputs, the positions file
// (tools/tune/positions.h) and the weights file (eval/params.h), which
// EvalFile also reads. The first byte picks the reader, the rest is the
// file's text. A reader either refuses with a message or gives a value that
// its writer turns back into text it reads as the same value; a position it
// accepts is read under its rules and evaluated.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "evaluate.h"
#include "notation.h"
#include "params.h"
#include "text.h"
#include "tune/positions.h"

using namespace branan;

namespace {

void position_lines(std::string_view text) {
    static tune::RulesCache rules; // editions are costly to build; the cache is the tuner's own
    for (std::string_view line : split(text, '\n')) {
        auto p = tune::parse_position_line(line);
        if (!p) {
            if (p.error().empty()) std::abort();
            continue;
        }
        auto again = tune::parse_position_line(tune::format_position_line(*p));
        if (!again || !(*again == *p)) std::abort();
        auto edition = rules.get(p->rules);
        if (!edition) {
            if (edition.error().empty()) std::abort();
            continue;
        }
        auto pos = parse_tfen(*edition, p->tfen);
        if (!pos) continue;
        (void)evaluate(*pos, default_params((*edition)->rules));
    }
}

void weights(std::string_view text) {
    for (bool partial : {false, true}) {
        auto params = partial ? load_params(text, EvalParams()) : load_params(text);
        if (!params) {
            if (params.error().empty()) std::abort();
            continue;
        }
        auto again = load_params(save_params(*params));
        if (!again || again->w != params->w) std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] % 2 == 0)
        position_lines(text);
    else
        weights(text);
    return 0;
}
