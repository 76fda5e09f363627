#include "match_command_line.h"

#include <limits>
#include <map>

#include "text.h"

namespace branan::match {

namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

bool is_option(const std::string& s) {
    return s.size() > 1 && s[0] == '-' && s.find('=') == std::string::npos;
}

// The key=value words after position i (which is left on the last one).
KeyValues key_values(const std::vector<std::string>& a, size_t& i) {
    KeyValues out;
    while (i + 1 < a.size() && !is_option(a[i + 1])) {
        const std::string& w = a[++i];
        size_t eq = w.find('=');
        if (eq == std::string::npos)
            out.emplace_back(w, "");
        else
            out.emplace_back(w.substr(0, eq), w.substr(eq + 1));
    }
    return out;
}

Status apply_engine_keys(const KeyValues& kv, EngineConfig& e, bool& has_tc) {
    for (const auto& [k, v] : kv) {
        std::string err;
        if (k == "cmd")
            e.cmd = v;
        else if (k == "name")
            e.name = v;
        else if (k == "dir")
            e.dir = v;
        else if (k == "proto")
            e.proto = v;
        else if (k == "arg")
            e.args.push_back(v);
        else if (k == "stderr")
            e.stderr_path = v;
        else if (k.rfind("option.", 0) == 0) {
            std::string name = k.substr(7);
            bool replaced = false;
            for (auto& [n, val] : e.options)
                if (n == name) {
                    val = v;
                    replaced = true;
                }
            if (!replaced) e.options.emplace_back(name, v);
        } else if (k == "tc" || k == "st") {
            auto tc = parse_time_control(k == "st" ? "st=" + v : v, err);
            if (!tc) return Error{err};
            int depth = e.tc.depth;
            uint64_t nodes = e.tc.nodes;
            e.tc = *tc;
            e.tc.depth = depth;
            e.tc.nodes = nodes;
            has_tc = true;
        } else if (k == "depth" || k == "nodes") {
            auto n = parse_integer(v, 0,
                                   k == "depth" ? std::numeric_limits<int>::max()
                                                : std::numeric_limits<int64_t>::max());
            if (!n) return Error{k + ": " + n.error()};
            if (k == "depth")
                e.tc.depth = int(*n);
            else
                e.tc.nodes = uint64_t(*n);
        } else {
            return Error{"unknown engine key '" + k + "'"};
        }
    }
    return {};
}

// The number after option a[i], from 0 to hi (i is left on it).
Status number(const std::vector<std::string>& a, size_t& i, int64_t hi, int64_t& out) {
    if (i + 1 >= a.size()) return Error{a[i] + " needs a number"};
    auto n = parse_integer(a[i + 1], 0, hi);
    if (!n) return Error{a[i] + ": " + n.error()};
    out = *n;
    ++i;
    return {};
}

Status real(const std::string& key, const std::string& v, double& out) {
    try {
        size_t used = 0;
        out = std::stod(v, &used);
        if (used != v.size()) throw 0;
    } catch (...) {
        return Error{key + "='" + v + "' is not a number"};
    }
    return {};
}

// The key=value words of -sprt.
Status sprt_params(const KeyValues& words, SprtParams& p) {
    for (const auto& [k, v] : words) {
        double d = 0;
        if (Status s = real(k, v, d); !s) return s;
        if (k == "elo0")
            p.elo0 = d;
        else if (k == "elo1")
            p.elo1 = d;
        else if (k == "alpha")
            p.alpha = d;
        else if (k == "beta")
            p.beta = d;
        else
            return Error{"unknown -sprt key '" + k + "'"};
    }
    return {};
}

} // namespace

Status take_sprt(std::vector<std::string>& args, std::optional<SprtParams>& sprt) {
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "-sprt") continue;
        size_t end = i;
        SprtParams p;
        if (Status st = sprt_params(key_values(args, end), p); !st) return st;
        args.erase(args.begin() + long(i), args.begin() + long(end) + 1);
        sprt = p;
        return {};
    }
    return {};
}

const char* usage() {
    return "usage: branan-match -engine cmd=PATH [name=NAME] [proto=uci|otep|htp] [arg=WORD]...\n"
           "                    [option.NAME=VALUE]... -engine ... [-each KEY=VALUE...]\n"
           "                    (-tc [MOVES/]SECONDS[+INC] | -tc st=SECONDS)\n"
           "                    [-variant PRESET | -rules STRING] [-games N] [-rounds N]\n"
           "                    [-repeat] [-concurrency N] [-srand N]\n"
           "                    [-openings file=PATH format=tfen|moves order=random|sequential]\n"
           "                    [-openings random plies=N depth=N margin=CP]\n"
           "                    [-sprt elo0=A elo1=B alpha=X beta=Y] [-maxplies N]\n"
           "                    [-resign movecount=N score=CP] [-out DIR] [-timemargin MS]\n"
           "                    [-handshake MS] [-graceful MS] [-debug] [-quiet]\n"
           "       branan-match merge SUMMARY... [-o FILE] [-sprt elo0=A elo1=B ...]\n"
           "       branan-match plot SUMMARY [-o FILE.svg]\n";
}

Status parse_command_line(const std::vector<std::string>& a, MatchConfig& c) {
    std::vector<KeyValues> engines;
    KeyValues each;
    std::string global_tc;
    bool debug = false;
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string& o = a[i];
        int64_t x = 0;
        if (o == "-engine") {
            engines.push_back(key_values(a, i));
        } else if (o == "-each") {
            auto kv = key_values(a, i);
            each.insert(each.end(), kv.begin(), kv.end());
        } else if (o == "-variant" || o == "-rules" || o == "-tc" || o == "-out") {
            if (i + 1 >= a.size()) return Error{o + " needs a value"};
            const std::string& v = a[++i];
            if (o == "-variant")
                c.preset = v;
            else if (o == "-rules")
                c.rules = v, c.preset.clear();
            else if (o == "-tc")
                global_tc = v;
            else
                c.out_dir = v;
        } else if (o == "-games" || o == "-rounds" || o == "-concurrency" || o == "-maxplies" ||
                   o == "-srand" || o == "-timemargin" || o == "-handshake" || o == "-graceful") {
            // The counts are ints; the seed and the times are 64-bit.
            const bool is_int =
                o == "-games" || o == "-rounds" || o == "-concurrency" || o == "-maxplies";
            const int64_t hi =
                is_int ? std::numeric_limits<int>::max() : std::numeric_limits<int64_t>::max();
            if (Status s = number(a, i, hi, x); !s) return s;
            if (o == "-games")
                c.games = int(x);
            else if (o == "-rounds")
                c.rounds = int(x);
            else if (o == "-concurrency")
                c.concurrency = int(x);
            else if (o == "-maxplies")
                c.max_plies = int(x);
            else if (o == "-srand")
                c.seed = uint64_t(x);
            else if (o == "-timemargin")
                c.time_margin_ms = x;
            else if (o == "-handshake")
                c.handshake_ms = x;
            else
                c.recover_grace_ms = x;
        } else if (o == "-repeat") {
            c.repeat = true;
        } else if (o == "-recover") {
            // cutechess's flag: crashed engines are always restarted here
        } else if (o == "-debug") {
            debug = true;
        } else if (o == "-quiet") {
            c.quiet = true;
        } else if (o == "-openings") {
            OpeningSource src;
            for (const auto& [k, v] : key_values(a, i)) {
                if (k == "random" || (k == "gen" && v == "random")) {
                    src.kind = OpeningSource::Kind::RANDOM;
                } else if (k == "file") {
                    src.kind = OpeningSource::Kind::FILE;
                    src.path = v;
                } else if (k == "format") {
                    if (v != "tfen" && v != "moves")
                        return Error{"-openings format must be tfen or moves"};
                    src.format = v;
                } else if (k == "order") {
                    if (v != "random" && v != "sequential")
                        return Error{"-openings order must be random or sequential"};
                    src.random_order = v == "random";
                } else if (k == "plies" || k == "depth" || k == "margin") {
                    double d = 0;
                    if (Status s = real(k, v, d); !s) return s;
                    if (d < 0) return Error{"-openings " + k + " must not be negative"};
                    (k == "plies" ? src.plies : k == "depth" ? src.depth : src.margin_cp) = int(d);
                } else {
                    return Error{"unknown -openings key '" + k + "'"};
                }
            }
            if (src.kind == OpeningSource::Kind::NONE)
                return Error{"-openings needs file=PATH or random"};
            c.openings = src;
        } else if (o == "-sprt") {
            SprtParams p;
            if (Status st = sprt_params(key_values(a, i), p); !st) return st;
            c.sprt = p;
        } else if (o == "-resign") {
            for (const auto& [k, v] : key_values(a, i)) {
                double d = 0;
                if (Status s = real(k, v, d); !s) return s;
                if (k == "movecount")
                    c.resign.movecount = int(d);
                else if (k == "score")
                    c.resign.score_cp = int(d);
                else
                    return Error{"unknown -resign key '" + k + "'"};
            }
            if (c.resign.movecount > 0 && c.resign.score_cp <= 0)
                return Error{"-resign needs score=CP above 0"};
        } else {
            return Error{"unknown option '" + o + "'"};
        }
    }
    for (const KeyValues& kv : engines) {
        EngineConfig e;
        bool has_tc = false;
        if (!global_tc.empty()) {
            if (Status s = apply_engine_keys({{"tc", global_tc}}, e, has_tc); !s) return s;
        }
        if (Status s = apply_engine_keys(each, e, has_tc); !s) return Error{"-each: " + s.error()};
        if (Status s = apply_engine_keys(kv, e, has_tc); !s) return Error{"-engine: " + s.error()};
        e.debug = debug;
        c.engines.push_back(std::move(e));
    }
    return {};
}

} // namespace branan::match
