#pragma once

// Protocol options: each one declared once, as a row that says how the
// `uci` reply lists it and what setting it does. The engine facade owns the
// rows (search/engine.cpp); this file knows no particular option.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace branan {

// An option as a protocol lists it.
struct OptionInfo {
    enum class Type { CHECK, SPIN, COMBO, BUTTON, STRING };
    std::string name;
    Type type = Type::STRING;
    std::string default_value;
    int64_t min = 0, max = 0;      // spin
    std::vector<std::string> vars; // combo
};

// A value that has passed its option's type check.
struct OptionValue {
    std::string_view text; // as given (string, combo)
    int64_t number = 0;    // a spin's value, or 1 / 0 for a check's true / false
};

struct Option {
    OptionInfo info;
    // Applies a checked value; an error leaves the engine as it was, unless
    // the row says otherwise.
    std::function<Status(const OptionValue&)> on_change;
};

// The option named `name` (ASCII case-insensitive), or null.
const Option* find_option(const std::vector<Option>& options, std::string_view name);

// Checks `value` against the option's type (a spin's range, a check's
// true / false, a combo's vars; a button takes any value and ignores it),
// then applies it. Errors start with "option <name>: ".
Status apply_option(const Option& option, std::string_view value);

} // namespace branan
