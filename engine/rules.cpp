#include "rules.h"

#include <set>

#include "rules_keys.h"
#include "text.h"

namespace branan {

namespace {

Error error(std::string msg) {
    return Error{"rules: " + std::move(msg)};
}

} // namespace

Result<Rules> parse_rules(std::string_view text, RulesReading reading) {
    const std::vector<std::string_view> words = split_words(text);
    if (words.empty() || words[0].substr(0, 4) != "dim:")
        return error("the rules string must start with dim:<size>");
    RulesBeingRead in;
    in.reading = reading;
    std::set<std::string_view> seen;
    for (std::string_view word : words) {
        const size_t colon = word.find(':');
        if (colon == std::string_view::npos)
            return error("token '" + printable(word) + "' is not key:value");
        const std::string_view name = word.substr(0, colon), value = word.substr(colon + 1);
        const RulesKey* key = find_rules_key(name);
        if (!key) return error("unknown key '" + printable(name) + "'");
        if (!seen.insert(name).second) return error("key '" + std::string(name) + "' given twice");
        if (Status st = key->read(in, value); !st)
            return error(std::string(name) + ": " + st.error());
    }
    if (!in.have_start) return error("missing start:<position record>");
    if (in.reading == RulesReading::BY_SIDE) hostility_by_side(in.rules);
    if (Status st = validate_rules(in.rules); !st) return error(st.error());
    return in.rules;
}

std::string print_rules(const Rules& rules) {
    std::string s;
    for (const RulesKey& key : rules_keys()) {
        if (!key.print) continue;
        const std::optional<std::string> value = key.print(rules);
        if (!value) continue;
        if (!s.empty()) s += ' ';
        s += std::string(key.name) + ":" + *value;
    }
    return s;
}

} // namespace branan
