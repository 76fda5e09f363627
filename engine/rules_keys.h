#pragma once

// The keys of a rules string, one row each: the key, and how its value reads
// into Rules and prints from it. parse_rules and print_rules do nothing but
// walk this table, so a new key is one more row (rules_keys.cpp).

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "rules.h"

namespace branan {

// A rules string while it is read: the rules so far, and what its keys say
// about the others.
struct RulesBeingRead {
    Rules rules;
    RulesReading reading = RulesReading::BY_PIECE; // hkp, or the caller's
    bool have_start = false;                       // start or starti
};

struct RulesKey {
    const char* name;
    // Reads the key's value. The error says what is wrong with the value;
    // the caller names the key.
    Status (*read)(RulesBeingRead& in, std::string_view value);
    // The value as printed, or nothing to leave the key out (keys that only
    // say something when they differ from OpenTafl's defaults). Null for the
    // keys that are only read (starti, the OpenTafl keys we refuse).
    std::optional<std::string> (*print)(const Rules& rules);
};

// Every key, in the order print_rules writes them; dim first.
std::span<const RulesKey> rules_keys();
const RulesKey* find_rules_key(std::string_view name);

// The checks of rules as a whole, in one place. validate_rules: keys that
// make no sense together (a reading of a rule that is off, a form the
// reading does not have), an error naming the key; every rules string is
// checked so when it is read. check_supported: rules that mean something
// but that the engine does not combine; every Rules is checked so when it
// is compiled (Edition::make), however it was made.
Status validate_rules(const Rules& rules);
Status check_supported(const Rules& rules);

// The hostility lists read by side (OpenTafl's reading): `t` the attackers,
// `T` the defenders with their king, `K` alone nobody. Applied once every key
// is read, since hkp may come after the lists it is about; OpenTafl's
// defaults read the same either way, so a list left out is left alone.
void hostility_by_side(Rules& rules);

} // namespace branan
