#include "positions.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include "rules.h"
#include "text.h"

namespace branan::tune {

std::string format_position_line(const PositionLine& p) {
    std::string s = p.tfen + "\t" + p.rules + "\t";
    s += p.result == 1 ? "1" : p.result == 0 ? "0" : "0.5";
    if (p.score) s += "\tscore=" + std::to_string(*p.score);
    return s;
}

Result<PositionLine> parse_position_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string_view> f = split(line, '\t');
    if (f.size() < 3 || f.size() > 4)
        return Error{
            "expected 3 or 4 tab-separated fields (TFEN, rules, result[, score=CP]), got " +
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
    if (f.size() == 4) {
        const std::string_view s = f[3];
        int v = 0;
        if (s.substr(0, 6) != "score=") return Error{"expected score=CP as the fourth field"};
        const char* first = s.data() + 6;
        const char* last = s.data() + s.size();
        auto [ptr, ec] = std::from_chars(first, last, v);
        if (first == last || ec != std::errc() || ptr != last)
            return Error{"score must be an integer: '" + std::string(s.substr(0, 30)) + "'"};
        p.score = v;
    }
    return p;
}

std::string format_positions(const std::vector<PositionLine>& lines) {
    std::string out(POSITIONS_HEADER);
    out +=
        "\n# TFEN <tab> rules <tab> result for the attackers [<tab> score=CP, attackers' view]\n";
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

Result<VariantPtr> RulesCache::get(const std::string& rules) {
    if (auto it = cache_.find(rules); it != cache_.end()) return it->second;
    // A preset name has no spaces or colons; a rules string always has.
    auto parsed = rules.find(':') == std::string::npos ? preset_rules(rules) : parse_rules(rules);
    if (!parsed) return Error{"rules '" + rules.substr(0, 60) + "': " + parsed.error()};
    auto v = Variant::make(*parsed);
    if (!v) return Error{"rules '" + rules.substr(0, 60) + "': " + v.error()};
    cache_.emplace(rules, *v);
    return *v;
}

std::optional<std::string> preset_of(const Rules& rules) {
    for (const Preset& p : presets()) {
        auto r = preset_rules(p.name);
        if (r && *r == rules) return std::string(p.name);
    }
    return std::nullopt;
}

} // namespace branan::tune
