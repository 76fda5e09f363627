#include "uci.h"

#include <algorithm>

#include "clock.h"
#include "commands.h"
#include "display.h"
#include "line_reader.h"
#include "logging.h"
#include "movegen.h"
#include "notation.h"
#include "text.h"

namespace branan {

namespace uci {

namespace {

// A whole decimal integer in [lo, hi]; `what` names it in the error.
Result<int64_t> parse_number(std::string_view token, int64_t lo, int64_t hi,
                             std::string_view what) {
    auto v = parse_integer(token, lo, hi);
    if (!v) return Error{std::string(what) + ": " + v.error()};
    return v;
}

} // namespace

Result<PositionCommand> parse_position(const std::vector<std::string_view>& args) {
    PositionCommand cmd;
    if (args.empty()) return Error{"position: expected 'startpos' or 'fen <TFEN>'"};
    size_t i = 1;
    if (args[0] == "startpos") {
        // nothing: empty tfen
    } else if (args[0] == "fen") {
        std::string tfen;
        while (i < args.size() && args[i] != "moves") {
            if (i > 4) return Error{"position fen: a TFEN has at most 4 fields, then 'moves'"};
            if (!tfen.empty()) tfen += ' ';
            tfen += args[i];
            ++i;
        }
        if (tfen.empty()) return Error{"position fen: the TFEN is missing"};
        cmd.tfen = std::move(tfen);
    } else {
        return Error{"position: expected 'startpos' or 'fen <TFEN>', got " +
                     single_quoted(args[0])};
    }
    if (i < args.size()) {
        if (args[i] != "moves")
            return Error{"position: expected 'moves' after startpos, got " +
                         single_quoted(args[i])};
        for (++i; i < args.size(); ++i) cmd.moves.emplace_back(args[i]);
    }
    return cmd;
}

Result<SearchLimits> parse_go(const std::vector<std::string_view>& args, const Position& pos) {
    SearchLimits limits;
    const Side first = pos.edition().rules.attackers_first ? ATTACKERS : DEFENDERS;
    size_t i = 0;
    auto value = [&](std::string_view key, int64_t lo, int64_t hi) -> Result<int64_t> {
        if (i + 1 >= args.size()) return Error{"go " + std::string(key) + ": the value is missing"};
        return parse_number(args[++i], lo, hi, "go " + std::string(key));
    };
    // Clocks may arrive negative from a GUI whose player is late: read as 0.
    auto clock = [&](std::string_view key, int64_t& slot) -> Status {
        auto v = value(key, -MAX_TIME_MS, MAX_TIME_MS);
        if (!v) return Error{v.error()};
        slot = std::max<int64_t>(*v, 0);
        return {};
    };
    for (; i < args.size(); ++i) {
        const std::string_view key = args[i];
        Status st;
        if (key == "infinite")
            limits.infinite = true;
        else if (key == "ponder")
            limits.ponder = true;
        else if (key == "depth") {
            auto v = value(key, 1, MAX_GO_DEPTH);
            if (!v) return Error{v.error()};
            limits.depth = int(*v);
        } else if (key == "nodes") {
            auto v = value(key, 1, int64_t(1) << 62);
            if (!v) return Error{v.error()};
            limits.nodes = uint64_t(*v);
        } else if (key == "movetime") {
            auto v = value(key, 1, MAX_TIME_MS);
            if (!v) return Error{v.error()};
            limits.movetime_ms = *v;
        } else if (key == "mate") {
            auto v = value(key, 1, MAX_GO_DEPTH / 2);
            if (!v) return Error{v.error()};
            limits.mate = int(*v);
        } else if (key == "movestogo") {
            auto v = value(key, 1, 10000);
            if (!v) return Error{v.error()};
            limits.movestogo = int(*v);
        } else if (key == "atime")
            st = clock(key, limits.time_ms[ATTACKERS]);
        else if (key == "dtime")
            st = clock(key, limits.time_ms[DEFENDERS]);
        else if (key == "ainc")
            st = clock(key, limits.inc_ms[ATTACKERS]);
        else if (key == "dinc")
            st = clock(key, limits.inc_ms[DEFENDERS]);
        else if (key == "wtime")
            st = clock(key, limits.time_ms[first]);
        else if (key == "btime")
            st = clock(key, limits.time_ms[~first]);
        else if (key == "winc")
            st = clock(key, limits.inc_ms[first]);
        else if (key == "binc")
            st = clock(key, limits.inc_ms[~first]);
        else if (key == "searchmoves") {
            size_t start = i;
            while (i + 1 < args.size()) {
                auto m = parse_legal_move(pos, args[i + 1]);
                if (!m) {
                    // A keyword ends the list; anything else is a bad move.
                    static const char* keywords[] = {
                        "infinite",  "ponder", "depth", "nodes",      "movetime", "mate",
                        "movestogo", "atime",  "dtime", "ainc",       "dinc",     "wtime",
                        "btime",     "winc",   "binc",  "searchmoves"};
                    if (std::find(std::begin(keywords), std::end(keywords), args[i + 1]) !=
                        std::end(keywords))
                        break;
                    return Error{"go searchmoves: " + single_quoted(args[i + 1]) + ": " +
                                 m.error()};
                }
                limits.searchmoves.push_back(*m);
                ++i;
            }
            if (i == start) return Error{"go searchmoves: no move given"};
        } else {
            return Error{"go: unknown parameter " + single_quoted(key)};
        }
        if (!st) return Error{st.error()};
    }
    return limits;
}

Result<SetOptionCommand> parse_setoption(std::string_view rest) {
    const std::vector<std::string_view> tokens = split_words(rest);
    if (tokens.empty() || tokens[0] != "name")
        return Error{"setoption: expected 'name <option> [value <value>]'"};
    SetOptionCommand cmd;
    size_t i = 1;
    for (; i < tokens.size() && tokens[i] != "value"; ++i) {
        if (!cmd.name.empty()) cmd.name += ' ';
        cmd.name += tokens[i];
    }
    if (cmd.name.empty()) return Error{"setoption: the option name is missing"};
    if (i < tokens.size()) {
        cmd.has_value = true;
        if (i + 1 < tokens.size()) {
            const char* from = tokens[i + 1].data();
            const char* to = tokens.back().data() + tokens.back().size();
            cmd.value.assign(from, size_t(to - from));
        }
    }
    return cmd;
}

const OptionInfo* find_option(const std::vector<OptionInfo>& options, std::string_view name) {
    for (const OptionInfo& o : options)
        if (iequals(o.name, name)) return &o;
    return nullptr;
}

std::string option_line(const OptionInfo& o) {
    std::string s = "option name " + o.name + " type ";
    switch (o.type) {
    case OptionInfo::Type::CHECK:
        s += "check default " + o.default_value;
        break;
    case OptionInfo::Type::SPIN:
        s += "spin default " + o.default_value + " min " + std::to_string(o.min) + " max " +
             std::to_string(o.max);
        break;
    case OptionInfo::Type::COMBO:
        s += "combo default " + o.default_value;
        for (const std::string& v : o.vars) s += " var " + v;
        break;
    case OptionInfo::Type::BUTTON:
        s += "button";
        break;
    case OptionInfo::Type::STRING:
        s += "string default " +
             (o.default_value.empty() ? std::string("<empty>") : o.default_value);
        break;
    }
    return s;
}

std::string info_line(const Edition& edition, const SearchInfo& info, bool show_wdl) {
    std::string s = "info depth " + std::to_string(info.depth);
    if (info.seldepth) s += " seldepth " + std::to_string(info.seldepth);
    s += " multipv " + std::to_string(info.multipv);
    s += info.mate ? " score mate " + std::to_string(info.mate)
                   : " score cp " + std::to_string(info.cp);
    if (show_wdl)
        s += " wdl " + std::to_string(info.wdl.win) + " " + std::to_string(info.wdl.draw) + " " +
             std::to_string(info.wdl.loss);
    if (info.bound == Bound::LOWER) s += " lowerbound";
    if (info.bound == Bound::UPPER) s += " upperbound";
    s += " nodes " + std::to_string(info.nodes) + " nps " + std::to_string(info.nps) +
         " hashfull " + std::to_string(info.hashfull) + " time " + std::to_string(info.time_ms);
    if (!info.pv.empty()) {
        s += " pv";
        for (Move m : info.pv) append_word(s, move_name(edition, m));
    }
    return s;
}

std::string bestmove_line(const Edition& edition, const BestMove& best) {
    if (best.best.is_none()) return "bestmove (none)";
    std::string s = "bestmove " + move_name(edition, best.best);
    // A berserk chain is one turn: its plies joined by '|'.
    for (Move m : best.chain) {
        s += '|';
        s += move_name(edition, m);
    }
    if (!best.ponder.is_none()) s += " ponder " + move_name(edition, best.ponder);
    return s;
}

} // namespace uci

UciLoop::UciLoop(Engine& engine, std::ostream& out) : engine_(engine), writer_(out) {
    engine_.on_info([this](const SearchInfo& info) {
        EditionPtr edition;
        bool show_wdl = false;
        {
            std::lock_guard lock(edition_mutex_);
            edition = search_edition_;
            show_wdl = search_show_wdl_;
        }
        if (edition) writer_.line(uci::info_line(*edition, info, show_wdl));
    });
    engine_.on_bestmove([this](const BestMove& best) {
        EditionPtr edition;
        {
            std::lock_guard lock(edition_mutex_);
            edition = search_edition_;
        }
        // Set first: a GUI that has read the line may send the next command at once.
        bestmove_sent_ = true;
        writer_.line(edition ? uci::bestmove_line(*edition, best) : std::string("bestmove (none)"));
    });
}

UciLoop::~UciLoop() {
    finish();
    engine_.on_info(nullptr);
    engine_.on_bestmove(nullptr);
}

void UciLoop::finish() {
    engine_.stop();
    engine_.wait();
}

void UciLoop::error(std::string_view what) {
    logger().info("protocol error: {}", what);
    writer_.line("info string error: " + std::string(what));
}

bool UciLoop::idle(std::string_view command) {
    if (!engine_.searching()) return true;
    if (bestmove_sent_) {
        // Only winding down: the GUI may already send the next command.
        engine_.wait();
        return true;
    }
    error(std::string(command) + ": not while searching (send stop first)");
    return false;
}

void UciLoop::run(LineReader& reader) {
    std::string line;
    while (true) {
        const LineReader::Status st = reader.next(line);
        if (st == LineReader::Status::END) break;
        if (st == LineReader::Status::TOO_LONG) {
            line_too_long();
            continue;
        }
        if (!handle_line(line)) break;
    }
    finish();
}

void UciLoop::line_too_long() {
    error("line longer than " + std::to_string(MAX_LINE_LENGTH) + " bytes ignored");
}

bool UciLoop::handle_line(std::string_view line) {
    logger().debug("<< {}", printable(line, 200));
    const std::vector<std::string_view> tokens = split_words(line);
    if (tokens.empty()) return true;
    const std::string_view cmd = tokens[0];
    const std::vector<std::string_view> args(tokens.begin() + 1, tokens.end());
    auto no_args = [&]() {
        if (args.empty()) return true;
        error(std::string(cmd) + ": unexpected argument '" + printable(args[0]) + "'");
        return false;
    };
    if (cmd == "quit") {
        finish();
        return false;
    }
    if (cmd == "uci") {
        if (no_args()) cmd_uci();
    } else if (cmd == "isready") {
        if (no_args()) writer_.line("readyok");
    } else if (cmd == "setoption") {
        const size_t at = size_t(cmd.data() + cmd.size() - line.data());
        cmd_setoption(line.substr(at));
    } else if (cmd == "ucinewgame") {
        if (no_args()) cmd_ucinewgame();
    } else if (cmd == "position") {
        cmd_position(args);
    } else if (cmd == "go") {
        cmd_go(args);
    } else if (cmd == "stop") {
        if (no_args()) cmd_stop();
    } else if (cmd == "ponderhit") {
        if (no_args()) cmd_ponderhit();
    } else if (cmd == "d") {
        if (no_args()) cmd_d();
    } else if (cmd == "perft") {
        cmd_perft(args);
    } else if (cmd == "eval") {
        if (no_args()) cmd_eval();
    } else if (cmd == "weights") {
        if (no_args())
            for (const OptionInfo& o : engine_.weight_options()) writer_.line(uci::option_line(o));
    } else if (cmd == "bench") {
        cmd_bench(args);
    } else if (cmd == "help") {
        cmd_help();
    } else {
        error("unknown command '" + printable(cmd) + "' (try help)");
    }
    return true;
}

void UciLoop::cmd_uci() {
    writer_.line("id name Branan " BRANAN_VERSION);
    writer_.line("id author the Branan authors");
    for (const OptionInfo& o : engine_.options()) writer_.line(uci::option_line(o));
    writer_.line("uciok");
}

void UciLoop::cmd_setoption(std::string_view rest) {
    auto cmd = uci::parse_setoption(rest);
    if (!cmd) return error(cmd.error());
    if (!idle("setoption")) return;
    const std::vector<OptionInfo> options = engine_.options();
    const std::vector<OptionInfo> weights = engine_.weight_options();
    const OptionInfo* option = uci::find_option(options, cmd->name);
    if (!option) option = uci::find_option(weights, cmd->name);
    if (!option) return error("setoption: unknown option '" + printable(cmd->name) + "'");
    if (option->type != OptionInfo::Type::BUTTON && !cmd->has_value &&
        option->type != OptionInfo::Type::STRING)
        return error("setoption " + option->name + ": the value is missing");
    if (Status st = engine_.set_option(option->name, cmd->value); !st)
        return error("setoption " + option->name + ": " + st.error());
}

void UciLoop::cmd_ucinewgame() {
    if (!idle("ucinewgame")) return;
    engine_.new_game();
}

void UciLoop::cmd_position(const std::vector<std::string_view>& args) {
    auto cmd = uci::parse_position(args);
    if (!cmd) return error(cmd.error());
    if (!idle("position")) return;
    if (Status st = engine_.set_position(cmd->tfen, cmd->moves); !st)
        error("position: " + st.error());
}

void UciLoop::cmd_go(const std::vector<std::string_view>& args) {
    if (!idle("go")) return;
    auto limits = uci::parse_go(args, engine_.position());
    if (!limits) return error(limits.error());
    {
        std::lock_guard lock(edition_mutex_);
        search_edition_ = engine_.position().edition_ptr();
        search_show_wdl_ = engine_.show_wdl();
    }
    bestmove_sent_ = false;
    if (Status st = engine_.go(*limits); !st) {
        bestmove_sent_ = true;
        error("go: " + st.error());
    }
}

void UciLoop::cmd_stop() {
    finish();
}

void UciLoop::cmd_ponderhit() {
    if (engine_.searching()) engine_.ponderhit();
}

void UciLoop::cmd_d() {
    for (const std::string& l : describe_position(engine_.position(), engine_.rules_string()))
        writer_.line(l);
}

void UciLoop::cmd_perft(const std::vector<std::string_view>& args) {
    if (args.size() != 1) return error("perft: expected one depth, perft N");
    auto depth = uci::parse_number(args[0], 1, uci::MAX_PERFT_DEPTH, "perft");
    if (!depth) return error(depth.error());
    if (!idle("perft")) return;
    for (const std::string& l : perft_lines(engine_, int(*depth), false)) writer_.line(l);
}

void UciLoop::cmd_eval() {
    for (const std::string& l : describe_eval(engine_)) writer_.line(l);
}

void UciLoop::cmd_bench(const std::vector<std::string_view>& args) {
    if (args.size() > 1) return error("bench: expected at most a depth, bench [depth]");
    int depth = 0;
    if (!args.empty()) {
        auto d = uci::parse_number(args[0], 1, uci::MAX_GO_DEPTH, "bench depth");
        if (!d) return error(d.error());
        depth = int(*d);
    }
    if (!idle("bench")) return;
    for (const std::string& l : bench_lines(engine_, depth)) writer_.line(l);
}

void UciLoop::cmd_help() {
    for (const std::string& l : help_lines()) writer_.line(l);
}

} // namespace branan
