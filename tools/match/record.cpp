#include "record.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace branan::match {

std::string json_escape(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    return out;
}

namespace {

std::string q(const std::string& s) {
    std::string out(1, '"'); // (not "\"" + string: GCC 12 warns falsely, -Wrestrict)
    out += json_escape(s);
    out += '"';
    return out;
}
std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

// A flat JSON object: string and number values only (what we write).
bool parse_flat_object(const std::string& text, std::map<std::string, std::string>& out,
                       std::string& error) {
    size_t i = 0;
    auto ws = [&] {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
    };
    auto str = [&](std::string& s) -> bool {
        if (i >= text.size() || text[i] != '"') return false;
        ++i;
        s.clear();
        while (i < text.size() && text[i] != '"') {
            char c = text[i++];
            if (c == '\\') {
                if (i >= text.size()) return false;
                char e = text[i++];
                switch (e) {
                case 'n':
                    s += '\n';
                    break;
                case 'r':
                    s += '\r';
                    break;
                case 't':
                    s += '\t';
                    break;
                case 'u': {
                    if (i + 4 > text.size()) return false;
                    unsigned v = unsigned(std::stoul(text.substr(i, 4), nullptr, 16));
                    i += 4;
                    if (v < 0x80)
                        s += char(v);
                    else
                        s += '?';
                    break;
                }
                default:
                    s += e;
                }
            } else {
                s += c;
            }
        }
        if (i >= text.size()) return false;
        ++i;
        return true;
    };
    ws();
    if (i >= text.size() || text[i] != '{') {
        error = "not a JSON object";
        return false;
    }
    ++i;
    ws();
    if (i < text.size() && text[i] == '}') return true;
    while (true) {
        ws();
        std::string key, value;
        if (!str(key)) {
            error = "expected a key at column " + std::to_string(i + 1);
            return false;
        }
        ws();
        if (i >= text.size() || text[i] != ':') {
            error = "expected ':' at column " + std::to_string(i + 1);
            return false;
        }
        ++i;
        ws();
        if (i < text.size() && text[i] == '"') {
            if (!str(value)) {
                error = "unterminated string";
                return false;
            }
        } else {
            size_t start = i;
            while (i < text.size() && text[i] != ',' && text[i] != '}') ++i;
            value = text.substr(start, i - start);
            while (!value.empty() && value.back() == ' ') value.pop_back();
        }
        out[key] = value;
        ws();
        if (i < text.size() && text[i] == ',') {
            ++i;
            continue;
        }
        if (i < text.size() && text[i] == '}') return true;
        error = "expected ',' or '}' at column " + std::to_string(i + 1);
        return false;
    }
}

} // namespace

std::string to_json_line(const GameSummary& s) {
    std::string o = "{";
    o += "\"run\":" + q(s.run);
    o += ",\"game\":" + std::to_string(s.game);
    o += ",\"round\":" + std::to_string(s.round);
    o += ",\"pair\":" + std::to_string(s.pair);
    o += ",\"opening\":" + q(s.opening);
    o += ",\"engine1\":" + q(s.engine1);
    o += ",\"engine2\":" + q(s.engine2);
    o += ",\"attackers\":" + q(s.attackers);
    o += ",\"defenders\":" + q(s.defenders);
    o += ",\"winner\":" + q(s.winner);
    o += ",\"score1\":" + num(s.score1);
    o += ",\"reason\":" + q(s.reason);
    o += ",\"detail\":" + q(s.detail);
    o += ",\"plies\":" + std::to_string(s.plies);
    o += ",\"record\":" + q(s.record);
    o += "}";
    return o;
}

bool parse_json_line(const std::string& line, GameSummary& s, std::string& error) {
    std::map<std::string, std::string> m;
    if (!parse_flat_object(line, m, error)) return false;
    for (const char* key : {"run", "game", "engine1", "engine2", "score1"}) {
        if (!m.count(key)) {
            error = std::string("missing key '") + key + "'";
            return false;
        }
    }
    try {
        s.run = m["run"];
        s.game = std::stoll(m["game"]);
        s.round = m.count("round") ? std::stoll(m["round"]) : 0;
        s.pair = m.count("pair") ? std::stoll(m["pair"]) : -1;
        s.score1 = std::stod(m["score1"]);
        s.plies = m.count("plies") ? std::stoll(m["plies"]) : 0;
    } catch (...) {
        error = "a number field is not a number";
        return false;
    }
    if (!(s.score1 == 0 || s.score1 == 0.5 || s.score1 == 1)) {
        error = "score1 must be 0, 0.5 or 1";
        return false;
    }
    s.opening = m["opening"];
    s.engine1 = m["engine1"];
    s.engine2 = m["engine2"];
    s.attackers = m["attackers"];
    s.defenders = m["defenders"];
    s.winner = m["winner"];
    s.reason = m["reason"];
    s.detail = m["detail"];
    s.record = m["record"];
    return true;
}

bool read_summary(const std::string& path, std::vector<GameSummary>& out, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = "cannot read '" + path + "'";
        return false;
    }
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        GameSummary s;
        std::string e;
        if (!parse_json_line(line, s, e)) {
            error = path + ":" + std::to_string(n) + ": " + e;
            return false;
        }
        out.push_back(std::move(s));
    }
    return true;
}

std::string format_record(const RecordHeader& h, const GameOutcome& g) {
    std::ostringstream o;
    o << "# branan-match game record 1\n";
    o << "Run: " << h.run << "\n";
    o << "Game: " << h.game << "\n";
    o << "Round: " << h.round << "\n";
    o << "Pair: " << (h.pair >= 0 ? std::to_string(h.pair) : std::string("-")) << "\n";
    o << "Rules: " << h.rules << "\n";
    o << "Variant: " << (h.variant.empty() ? "custom" : h.variant) << "\n";
    for (int s = 0; s < 2; ++s) {
        const char* side = s == 0 ? "Attackers" : "Defenders";
        const EngineConfig& e = *h.engines[s];
        std::string cmd = e.cmd;
        for (const std::string& a : e.args) cmd += " " + a;
        std::string opts;
        for (const auto& [k, v] : e.options) opts += (opts.empty() ? "" : "; ") + k + "=" + v;
        o << side << ": " << e.name << "\n";
        o << side << "-Command: " << cmd << "\n";
        o << side << "-Protocol: " << e.proto << "\n";
        o << side << "-Options: " << opts << "\n";
        o << side << "-TimeControl: " << e.tc.to_string() << "\n";
    }
    o << "Opening: " << h.opening_label << "\n";
    o << "Opening-Root: " << (h.opening_root.empty() ? "startpos" : h.opening_root) << "\n";
    o << "Opening-Moves:";
    for (const std::string& r : g.opening_records) o << " " << r;
    o << "\n";
    o << "Start: " << g.start_tfen << "\n";
    o << "Result: " << to_string(g.winner) << "\n";
    o << "Reason: " << g.reason << "\n";
    o << "Detail: " << g.detail << "\n";
    o << "Plies: " << g.plies.size() << "\n";
    o << "Final: " << g.final_tfen << "\n";
    o << "Clocks: " << g.clock_ms[0] << " " << g.clock_ms[1] << "\n";
    o << "\n";
    int n = 0;
    for (const PlyRecord& p : g.plies) {
        o << ++n << " " << (p.side == ATTACKERS ? 'a' : 'd') << " " << p.record << " " << p.ms
          << "ms";
        if (p.score_cp) o << " score=" << *p.score_cp;
        o << "\n";
    }
    return o.str();
}

} // namespace branan::match
