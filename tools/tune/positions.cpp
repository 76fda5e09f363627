#include "positions.h"

#include <fstream>
#include <limits>
#include <sstream>

#include "rules.h"
#include "text.h"

namespace branan::tune {

std::string format_position_line(const PositionLine& p) {
    std::string s = p.tfen + "\t" + p.rules + "\t";
    s += p.result == 1 ? "1" : p.result == 0 ? "0" : "0.5";
    if (p.score) s += "\tscore=" + std::to_string(*p.score);
    if (p.score && p.depth) s += "\tdepth=" + std::to_string(*p.depth);
    if (p.game) s += "\tgame=" + std::to_string(*p.game);
    return s;
}

namespace {

// The value of `name=VALUE` in an optional field, an integer from lo to hi.
Result<int64_t> named_integer(std::string_view field, std::string_view name, int64_t lo,
                              int64_t hi) {
    auto v = parse_integer(field.substr(name.size() + 1), lo, hi);
    if (!v) return Error{std::string(name) + ": " + v.error()};
    return *v;
}

} // namespace

Result<PositionLine> parse_position_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string_view> f = split(line, '\t');
    if (f.size() < 3 || f.size() > 6)
        return Error{"expected 3 to 6 tab-separated fields (TFEN, rules, result[, score=CP[, "
                     "depth=D]][, game=N]), got " +
                     std::to_string(f.size())};
    PositionLine p;
    p.tfen = std::string(f[0]);
    p.rules = std::string(f[1]);
    if (p.tfen.empty()) return Error{"empty TFEN"};
    if (p.rules.empty()) return Error{"empty rules"};
    if (f[2] == "1")
        p.result = 1;
    else if (f[2] == "0")
        p.result = 0;
    else if (f[2] == "0.5")
        p.result = 0.5;
    else
        return Error{"result must be 1, 0.5 or 0, got '" + std::string(f[2].substr(0, 20)) + "'"};
    for (size_t i = 3; i < f.size(); ++i) {
        const std::string_view s = f[i];
        if (s.substr(0, 6) == "score=" && !p.score && !p.game) {
            auto v = named_integer(s, "score", std::numeric_limits<int>::min(),
                                   std::numeric_limits<int>::max());
            if (!v) return Error{v.error()};
            p.score = int(*v);
        } else if (s.substr(0, 6) == "depth=" && p.score && !p.depth && !p.game) {
            auto v = named_integer(s, "depth", 1, std::numeric_limits<int>::max());
            if (!v) return Error{v.error()};
            p.depth = int(*v);
        } else if (s.substr(0, 5) == "game=" && !p.game) {
            auto v = named_integer(s, "game", 1, std::numeric_limits<int64_t>::max());
            if (!v) return Error{v.error()};
            p.game = *v;
        } else {
            return Error{
                "expected score=CP, depth=D and game=N after the result, in that order, got '" +
                std::string(s.substr(0, 30)) + "'"};
        }
    }
    return p;
}

std::string format_positions(const std::vector<PositionLine>& lines) {
    std::string out(POSITIONS_HEADER);
    out += "\n# TFEN <tab> rules <tab> result for the attackers [<tab> score=CP, attackers' view "
           "[<tab> depth=D]] [<tab> game=N]\n";
    for (const PositionLine& p : lines) out += format_position_line(p) + "\n";
    return out;
}

Result<std::vector<PositionLine>> read_positions_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot read positions file '" + path + "'"};
    std::vector<PositionLine> out;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.empty() || line == "\r" || line[0] == '#') continue;
        auto p = parse_position_line(line);
        if (!p) return Error{path + ":" + std::to_string(n) + ": " + p.error()};
        out.push_back(std::move(*p));
    }
    if (in.bad()) return Error{"cannot read positions file '" + path + "'"};
    return out;
}

Result<EditionPtr> RulesCache::get(const std::string& rules) {
    if (auto it = cache_.find(rules); it != cache_.end()) return it->second;
    // A preset name has no spaces or colons; a rules string always has.
    auto parsed = rules.find(':') == std::string::npos ? preset_rules(rules) : parse_rules(rules);
    if (!parsed) return Error{"rules '" + rules.substr(0, 60) + "': " + parsed.error()};
    auto edition = Edition::make(*parsed);
    if (!edition) return Error{"rules '" + rules.substr(0, 60) + "': " + edition.error()};
    cache_.emplace(rules, *edition);
    return *edition;
}

} // namespace branan::tune
