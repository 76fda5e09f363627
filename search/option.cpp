#include "option.h"

#include <algorithm>

#include "text.h"

namespace branan {

namespace {

Result<OptionValue> check_value(const OptionInfo& info, std::string_view value) {
    using T = OptionInfo::Type;
    switch (info.type) {
    case T::SPIN: {
        auto n = parse_integer(value, info.min, info.max);
        if (!n) return Error{n.error()};
        return OptionValue{value, *n};
    }
    case T::CHECK:
        if (iequals(value, "true")) return OptionValue{value, 1};
        if (iequals(value, "false")) return OptionValue{value, 0};
        return Error{"expected true or false, got '" + printable(value) + "'"};
    case T::COMBO:
        if (std::find(info.vars.begin(), info.vars.end(), value) == info.vars.end()) {
            std::string known;
            for (const std::string& v : info.vars) {
                if (!known.empty()) known += ", ";
                known += v;
            }
            return Error{single_quoted(value) + " is not one of " + known};
        }
        return OptionValue{value, 0};
    case T::BUTTON:
        return OptionValue{};
    case T::STRING:
        return OptionValue{value, 0};
    }
    return Error{"unknown option type"};
}

} // namespace

const Option* find_option(const std::vector<Option>& options, std::string_view name) {
    for (const Option& o : options)
        if (iequals(o.info.name, name)) return &o;
    return nullptr;
}

Status apply_option(const Option& option, std::string_view value) {
    std::string prefix = "option ";
    prefix += option.info.name;
    prefix += ": ";
    auto checked = check_value(option.info, value);
    if (!checked) return Error{prefix + checked.error()};
    if (Status st = option.on_change(*checked); !st) return Error{prefix + st.error()};
    return {};
}

} // namespace branan
