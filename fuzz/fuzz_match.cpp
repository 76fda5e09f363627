// libFuzzer target: the files branan-match and the tuner read back: game
// records (engine/match_record.h), summary lines (tools/match/record.h),
// opening files (tools/match/openings.h) and time controls. The first byte
// picks the reader, the rest is the file's text. A reader either refuses
// with a message or gives a value that its writer turns back into text it
// reads as the same value; openings it accepts are legal under their rules.

#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "edition.h"
#include "match/openings.h"
#include "match/record.h"
#include "match/time_control.h"
#include "match_record.h"
#include "rules.h"

using namespace branan;

namespace {

const EditionPtr& edition_of(const char* preset) {
    static std::map<std::string, EditionPtr> editions;
    EditionPtr& e = editions[preset];
    if (!e) {
        auto rules = preset_rules(preset);
        if (!rules) std::abort();
        auto made = Edition::make(*rules);
        if (!made) std::abort();
        e = *made;
    }
    return e;
}

void record(std::string_view text) {
    auto r = match::parse_record(text, [](int line) { return "line " + std::to_string(line); });
    if (!r) {
        if (r.error().empty()) std::abort();
        return;
    }
    if (!r->field("Rules") || !r->field("Start")) std::abort();
    for (size_t i = 0; i < r->plies.size(); ++i) {
        const match::RecordPly& p = r->plies[i];
        if (p.number != int64_t(i + 1) || p.line <= 0) std::abort();
        // A depth is the depth of a score: never one without it.
        if (p.score_depth < 0 || (p.score_depth > 0 && !p.score_cp)) std::abort();
    }
}

void summary(std::string_view line) {
    auto s = match::parse_json_line(line);
    if (!s) {
        if (s.error().empty()) std::abort();
        return;
    }
    const std::string json = match::to_json_line(*s);
    auto again = match::parse_json_line(json);
    if (!again || match::to_json_line(*again) != json) std::abort();
}

void openings(std::string_view text, bool tfen) {
    for (const char* preset : {"brandubh", "copenhagen"}) {
        std::istringstream in{std::string(text)};
        const EditionPtr& edition = edition_of(preset);
        auto read = match::read_openings(in, "book", tfen ? "tfen" : "moves", edition);
        if (!read) {
            if (read.error().empty()) std::abort();
            continue;
        }
        for (const match::Opening& o : *read)
            if (!match::opening_position(edition, o)) std::abort();
    }
}

void time_control(std::string_view text) {
    std::string error;
    auto tc = match::parse_time_control(std::string(text), error);
    if (!tc) {
        if (error.empty()) std::abort();
        return;
    }
    auto again = match::parse_time_control(tc->to_string(), error);
    if (!again || again->to_string() != tc->to_string()) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 5) {
    case 0:
        record(text);
        break;
    case 1:
        summary(text);
        break;
    case 2:
        openings(text, false);
        break;
    case 3:
        openings(text, true);
        break;
    case 4:
        time_control(text);
        break;
    }
    return 0;
}
