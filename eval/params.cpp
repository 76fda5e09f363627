#include "params.h"
#include "default_weights.h"
#include "text.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace branan {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
        s.remove_suffix(1);
    }
    return s;
}

std::string range_text(const ParamInfo& p) {
    std::string s = "[";
    s += std::to_string(p.min);
    s += ", ";
    s += std::to_string(p.max);
    s += "]";
    return s;
}

} // namespace

const char* term_name(EvalTerm term) {
    switch (term) {
    case EvalTerm::MATERIAL:
        return "material";
    case EvalTerm::ESCAPE:
        return "escape";
    case EvalTerm::RING:
        return "ring";
    case EvalTerm::KING:
        return "king";
    case EvalTerm::GUARDS:
        return "guards";
    case EvalTerm::SAFETY:
        return "safety";
    case EvalTerm::MOBILITY:
        return "mobility";
    case EvalTerm::TEMPO:
        return "tempo";
    }
    return "?";
}

const std::vector<DefaultSet>& all_default_sets() {
    static const std::vector<DefaultSet> sets = [] {
        std::vector<DefaultSet> out;
        for (size_t i = 0; i < embedded_weight_sets().size(); ++i) out.push_back(DefaultSet(i));
        return out;
    }();
    return sets;
}

const char* default_set_name(DefaultSet set) {
    // The generated table's names are string literals, so they end in '\0'.
    return embedded_weight_sets()[size_t(set)].name.data();
}

std::optional<DefaultSet> find_default_set(std::string_view name) {
    for (DefaultSet set : all_default_sets())
        if (name == default_set_name(set)) return set;
    return std::nullopt;
}

std::string default_set_names() {
    std::string out;
    for (DefaultSet set : all_default_sets()) {
        if (!out.empty()) out += ", ";
        out += default_set_name(set);
    }
    return out;
}

namespace {

// Names, ranges and meanings, without the defaults: the weight-file parser
// reads this one, so parsing the compiled-in defaults does not need them.
const std::vector<ParamInfo>& info_table() {
    static const std::vector<ParamInfo> table = {
#define BRANAN_X(id, name, lo, hi, term, owner, desc)                                              \
    ParamInfo{name, lo, hi, {}, EvalTerm::term, ParamOwner::owner, desc},
        BRANAN_EVAL_PARAMS(BRANAN_X)
#undef BRANAN_X
    };
    return table;
}

} // namespace

const std::vector<ParamInfo>& param_table() {
    static const std::vector<ParamInfo> table = [] {
        std::vector<ParamInfo> t = info_table();
        for (DefaultSet set : all_default_sets()) {
            const EvalParams p = default_params(set);
            for (int i = 0; i < PARAM_COUNT; ++i) t[i].defaults.push_back(p.w[i]);
        }
        return t;
    }();
    return table;
}

std::optional<ParamId> find_param(std::string_view name) {
    // ASCII case-insensitive, as protocol option names are.
    const auto& table = info_table();
    for (int i = 0; i < PARAM_COUNT; ++i)
        if (iequals(table[i].name, name)) return ParamId(i);
    return std::nullopt;
}

namespace {

Result<EvalParams> load(std::string_view text, const EvalParams& base, bool need_all);

// The base is all zeros (the parser wants every weight, so it is never
// used): the default constructor would need the defaults being parsed here.
std::array<int, PARAM_COUNT> parse_default_set(DefaultSet set) {
    auto p = load(embedded_weights(set), EvalParams(EvalParams::Zero{}), true);
    if (!p) {
        // Never reached by a tested build (see default_params in params.h).
        std::fprintf(stderr, "branan: the compiled-in weights eval/weights/%s.txt: %s\n",
                     default_set_name(set), p.error().c_str());
        std::abort();
    }
    return p->w;
}

const std::array<int, PARAM_COUNT>& default_weights(DefaultSet set) {
    static const auto sets = [] {
        std::vector<std::array<int, PARAM_COUNT>> out;
        for (DefaultSet s : all_default_sets()) out.push_back(parse_default_set(s));
        return out;
    }();
    return sets[size_t(set)];
}

// A set the code names: one that is not compiled in stops the program
// (tests/test_eval.cpp asks for every set a preset plays with).
DefaultSet named_set(std::string_view name) {
    if (auto set = find_default_set(name)) return *set;
    std::fprintf(stderr, "branan: no weight file eval/weights/%.*s.txt was compiled in\n",
                 int(name.size()), name.data());
    std::abort();
}

// Which set an edition plays with: the first whose test its rules pass.
// Each name is a file of eval/weights/; every preset gets the set the
// tuner fitted for its kind of game.
struct SetChoice {
    bool (*fits)(const Rules&);
    std::string_view set;
};
const SetChoice SET_CHOICES[] = {
    {[](const Rules& r) { return r.escape == EscapeType::EDGE; }, "edge"},
    // Corner escape from here on.
    {[](const Rules& r) { return r.size >= 10; }, "corner_large"},
    // A king captured by two attackers everywhere (ks:w).
    {[](const Rules& r) { return r.king_strength == KingStrength::WEAK; }, "corner_weak"},
    {[](const Rules&) { return true; }, BASE_DEFAULT_SET},
};

} // namespace

EvalParams::EvalParams() {
    static const DefaultSet base = named_set(BASE_DEFAULT_SET);
    w = default_weights(base);
}

EvalParams default_params(DefaultSet set) {
    EvalParams p;
    p.w = default_weights(set);
    return p;
}

EvalParams default_params(std::string_view set_name) {
    return default_params(named_set(set_name));
}

DefaultSet default_set_for(const Rules& rules) {
    for (const SetChoice& choice : SET_CHOICES)
        if (choice.fits(rules)) return named_set(choice.set);
    return named_set(BASE_DEFAULT_SET);
}

EvalParams default_params(const Rules& rules) {
    return default_params(default_set_for(rules));
}

Status set_param(EvalParams& params, ParamId id, int value) {
    const ParamInfo& p = info_table()[id];
    if (value < p.min || value > p.max)
        return Error{"evaluation weight '" + std::string(p.name) + "': " + std::to_string(value) +
                     " is out of range " + range_text(p)};
    params.w[id] = value;
    return {};
}

Status set_param(EvalParams& params, std::string_view name, int value) {
    auto id = find_param(name);
    if (!id) return Error{"unknown evaluation weight '" + printable(name, 60) + "'"};
    return set_param(params, *id, value);
}

int get_param(const EvalParams& params, ParamId id) {
    return params.w[id];
}

Result<int> get_param(const EvalParams& params, std::string_view name) {
    auto id = find_param(name);
    if (!id) return Error{"unknown evaluation weight '" + printable(name, 60) + "'"};
    return params.w[*id];
}

namespace {

Result<EvalParams> load(std::string_view text, const EvalParams& base, bool need_all) {
    EvalParams out = base;
    std::array<int, PARAM_COUNT> seen_on{}; // line number, 0 = not seen
    int line_no = 0;
    for (std::string_view line : split(text, '\n')) {
        ++line_no;
        const std::string where = "line " + std::to_string(line_no) + ": ";
        if (size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        line = trim(line);
        if (line.empty()) continue;
        const size_t eq = line.find('=');
        if (eq == std::string_view::npos)
            return Error{where + "expected 'name = value', got '" + printable(line, 60) + "'"};
        const std::string_view name = trim(line.substr(0, eq));
        const std::string_view value = trim(line.substr(eq + 1));
        if (name.empty()) return Error{where + "missing the weight's name before '='"};
        auto id = find_param(name);
        if (!id) return Error{where + "unknown evaluation weight '" + printable(name, 60) + "'"};
        if (seen_on[*id])
            return Error{where + "'" + std::string(name) + "' is given twice (first on line " +
                         std::to_string(seen_on[*id]) + ")"};
        seen_on[*id] = line_no;
        // Any int: set_param checks the weight's own range.
        const auto v = parse_integer(value, INT_MIN, INT_MAX);
        if (!v)
            return Error{where + "'" + std::string(name) + "': expected an integer, got '" +
                         printable(value, 60) + "'"};
        if (Status st = set_param(out, *id, int(*v)); !st) return Error{where + st.error()};
    }
    if (need_all) {
        std::string missing;
        int count = 0;
        for (int i = 0; i < PARAM_COUNT; ++i)
            if (!seen_on[i]) {
                if (count < 5) missing += std::string(count ? ", " : "") + info_table()[i].name;
                ++count;
            }
        if (count)
            return Error{"missing " + std::to_string(count) + " evaluation weight" +
                         (count > 1 ? "s: " : ": ") + missing + (count > 5 ? ", ..." : "")};
    }
    return out;
}

Result<std::string> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot open evaluation file '" + path + "'"};
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) return Error{"cannot read evaluation file '" + path + "'"};
    return ss.str();
}

} // namespace

Result<EvalParams> load_params(std::string_view text) {
    return load(text, EvalParams{}, true);
}

Result<EvalParams> load_params(std::string_view text, const EvalParams& base) {
    return load(text, base, false);
}

Result<EvalParams> load_params_file(const std::string& path) {
    auto text = read_file(path);
    if (!text) return Error{text.error()};
    auto p = load_params(*text);
    if (!p) return Error{path + ": " + p.error()};
    return p;
}

Result<EvalParams> load_params_file(const std::string& path, const EvalParams& base) {
    auto text = read_file(path);
    if (!text) return Error{text.error()};
    auto p = load_params(*text, base);
    if (!p) return Error{path + ": " + p.error()};
    return p;
}

std::string save_params(const EvalParams& params) {
    std::string out =
        "# Branan evaluation weights: name = value (value in centi-soldiers per unit\n"
        "# of the feature; range and meaning after '#').\n";
    const auto& table = info_table();
    size_t width = 0;
    for (const ParamInfo& p : table) width = std::max(width, std::string_view(p.name).size());
    for (int i = 0; i < PARAM_COUNT; ++i) {
        const ParamInfo& p = table[i];
        std::string line = p.name;
        line.append(width - line.size(), ' ');
        line += " = " + std::to_string(params.w[i]);
        if (line.size() < width + 9) line.append(width + 9 - line.size(), ' ');
        line += " # " + range_text(p) + " " + term_name(p.term) + ": " + p.description;
        out += line + "\n";
    }
    return out;
}

Status save_params_file(const EvalParams& params, const std::string& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Error{"cannot write evaluation file '" + path + "'"};
    out << save_params(params);
    out.flush();
    if (!out) return Error{"cannot write evaluation file '" + path + "'"};
    return {};
}

} // namespace branan
