#include "engine.h"

#include <cassert>
#include <map>
#include <mutex>
#include <optional>
#include <random>

#include "board.h"
#include "default_nets.h"
#include "game_stage.h"
#include "nnue.h"
#include "notation.h"
#include "text.h"
#include "thread_pool.h"
#include "tt.h"

namespace branan {

namespace {

// Hash: the table's size until an option says otherwise, and the fallback
// when a larger one cannot be had.
constexpr int64_t DEFAULT_HASH_MB = 16;
constexpr int64_t MAX_HASH_MB = 1 << 16;
constexpr int64_t MAX_THREADS = 512;
constexpr int64_t MAX_MULTIPV = 256;
constexpr int64_t MAX_MOVE_OVERHEAD_MS = 10000;

} // namespace

struct Engine::Impl {
    std::string preset_name;
    EditionPtr edition;
    std::optional<Position> pos;
    // The game as the search holds it, on its board width (board.h).
    std::unique_ptr<BoardGame> board;
    EvalParams params;
    TranspositionTable tt;
    // Set from the option rows' defaults when the engine is made.
    int multipv = 0;
    int64_t move_overhead = 0;
    bool show_wdl = false;
    bool raw_scores = false;
    bool limit_strength = false;
    int elo = ELO_MAX;
    int skill_level = MAX_SKILL_LEVEL;
    std::string eval_file;
    // The learned evaluation, used while Use NNUE is on: a net from
    // EvalFile while it fits the rules (nnue_fits); else the compiled-in
    // net trained on these rules if there is one; else (and with a weight
    // file as EvalFile) the weights.
    NnueNetPtr net;
    bool use_nnue = true;
    const NnueNet* active_net() const {
        if (!use_nnue) return nullptr;
        if (net && nnue_fits(*net, *edition)) return net.get();
        if (!net && !eval_file.empty()) return nullptr; // a weight file
        // default_net keeps the compiled-in nets for the program's life.
        return default_net(edition->rules).get();
    }
    // Weights set one by one as options. They outlive a change of rules, as
    // the EvalFile does: a match runner or a GUI sets its options once and
    // the Variant after them (or again at every game).
    std::map<ParamId, int> weights_set;
    std::vector<Option> options;

    std::function<void(const SearchInfo&)> info_cb;
    std::function<void(const BestMove&)> best_cb;
    // Last: its threads use everything above, so it goes first.
    ThreadPool threads;

    Status adopt_rules(const Rules& rules, std::string name);
    void adopt(EditionPtr next, std::unique_ptr<BoardGame> b, std::string name) {
        const bool same_rules = edition && edition->rules == next->rules;
        edition = std::move(next);
        board = std::move(b);
        preset_name = std::move(name);
        pos.emplace(edition);
        if (!same_rules) reset_params();
    }
    // The defaults of the rules, the EvalFile over them if one is set, then
    // the weights set one by one.
    void reset_params() {
        params = default_params(edition->rules);
        if (!eval_file.empty())
            if (auto p = load_params_file(eval_file, params)) params = *p;
        for (const auto& [id, value] : weights_set) params[id] = value;
    }
    Status set_weight(ParamId id, int value) {
        if (Status st = set_param(params, id, value); !st) return st;
        weights_set.insert_or_assign(id, value);
        return {};
    }
    std::vector<Option> declare_options(Engine& engine);
    Option weight_option(ParamId id, const EvalParams& defaults);
};

// Every option but the evaluation weights, in the order `uci` lists them.
std::vector<Option> Engine::Impl::declare_options(Engine& engine) {
    using T = OptionInfo::Type;
    std::vector<std::string> preset_names;
    for (const Preset& p : presets()) preset_names.emplace_back(p.name);
    std::vector<Option> rows;
    rows.push_back({{"Hash", T::SPIN, std::to_string(DEFAULT_HASH_MB), 1, MAX_HASH_MB, {}},
                    [this](const OptionValue& v) -> Status {
                        try {
                            tt.resize(size_t(v.number));
                        } catch (const std::bad_alloc&) {
                            tt.resize(size_t(DEFAULT_HASH_MB));
                            return Error{"cannot allocate " + std::to_string(v.number) +
                                         " MiB; using " + std::to_string(DEFAULT_HASH_MB)};
                        }
                        return {};
                    }});
    rows.push_back({{"Threads", T::SPIN, "1", 1, MAX_THREADS, {}}, [this](const OptionValue& v) {
                        threads.set_size(int(v.number));
                        return Status{};
                    }});
    rows.push_back({{"MultiPV", T::SPIN, "1", 1, MAX_MULTIPV, {}}, [this](const OptionValue& v) {
                        multipv = int(v.number);
                        return Status{};
                    }});
    // Whether the GUI may send `go ponder`: the search needs nothing
    // prepared for it, so the value is only checked.
    rows.push_back(
        {{"Ponder", T::CHECK, "false", 0, 0, {}}, [](const OptionValue&) { return Status{}; }});
    rows.push_back({{"Move Overhead", T::SPIN, "30", 0, MAX_MOVE_OVERHEAD_MS, {}},
                    [this](const OptionValue& v) {
                        move_overhead = v.number;
                        return Status{};
                    }});
    // Off by default, as in chess engines: some GUIs fail on a `wdl` they
    // do not expect.
    rows.push_back({{"UCI_ShowWDL", T::CHECK, "false", 0, 0, {}}, [this](const OptionValue& v) {
                        show_wdl = v.number != 0;
                        return Status{};
                    }});
    // Scores in the evaluation's own units, for the tools that fit the
    // evaluation or the win chances to them (branan-tune).
    rows.push_back({{"Raw Scores", T::CHECK, "false", 0, 0, {}}, [this](const OptionValue& v) {
                        raw_scores = v.number != 0;
                        return Status{};
                    }});
    // Levels below full strength (search/skill.h): UCI_LimitStrength with
    // UCI_Elo, as chess GUIs set them, else Skill Level.
    rows.push_back(
        {{"UCI_LimitStrength", T::CHECK, "false", 0, 0, {}}, [this](const OptionValue& v) {
             limit_strength = v.number != 0;
             return Status{};
         }});
    rows.push_back({{"UCI_Elo", T::SPIN, std::to_string(ELO_MAX), ELO_MIN, ELO_MAX, {}},
                    [this](const OptionValue& v) {
                        elo = int(v.number);
                        return Status{};
                    }});
    rows.push_back(
        {{"Skill Level", T::SPIN, std::to_string(MAX_SKILL_LEVEL), 0, MAX_SKILL_LEVEL, {}},
         [this](const OptionValue& v) {
             skill_level = int(v.number);
             return Status{};
         }});
    rows.push_back(
        {{"Variant", T::COMBO, std::string(default_preset_name()), 0, 0, std::move(preset_names)},
         [&engine](const OptionValue& v) { return engine.set_preset(v.text); }});
    rows.push_back({{"Rules", T::STRING, "", 0, 0, {}},
                    [&engine](const OptionValue& v) { return engine.set_rules(v.text); }});
    rows.push_back({{"EvalFile", T::STRING, "", 0, 0, {}}, [this](const OptionValue& v) -> Status {
                        // A net file sets the learned evaluation; a weight
                        // file (or none) drops it and replaces every weight,
                        // those set one by one before it too: the last
                        // setting wins.
                        const bool none = v.text.empty() || v.text == "<empty>";
                        const std::string path(v.text);
                        if (!none && file_is_nnue(path)) {
                            auto read = read_nnue_file(path);
                            if (!read) return Error{read.error()};
                            if (Status st = nnue_fits(**read, *edition); !st)
                                return Error{path + ": " + st.error()};
                            net = *read;
                            tt.clear();
                            return {};
                        }
                        const EvalParams defaults = default_params(edition->rules);
                        auto p =
                            none ? Result<EvalParams>(defaults) : load_params_file(path, defaults);
                        if (!p) return Error{p.error()};
                        const NnueNet* before = active_net();
                        eval_file = none ? std::string() : path;
                        weights_set.clear();
                        params = *p;
                        net.reset();
                        if (active_net() != before) tt.clear();
                        return {};
                    }});
    rows.push_back({{"Use NNUE", T::CHECK, "true", 0, 0, {}}, [this](const OptionValue& v) {
                        const NnueNet* before = active_net();
                        use_nnue = v.number != 0;
                        if (active_net() != before) tt.clear();
                        return Status{};
                    }});
    rows.push_back({{"Clear Hash", T::BUTTON, "", 0, 0, {}}, [this](const OptionValue&) {
                        tt.clear();
                        return Status{};
                    }});
    return rows;
}

// An evaluation weight as an option. Made when asked for rather than kept:
// its default is that of the current rules.
Option Engine::Impl::weight_option(ParamId id, const EvalParams& defaults) {
    const ParamInfo& p = param_table()[id];
    return {{p.name, OptionInfo::Type::SPIN, std::to_string(defaults[id]), p.min, p.max, {}},
            [this, id](const OptionValue& v) { return set_weight(id, int(v.number)); }};
}

Engine::Engine() : impl_(std::make_unique<Impl>()) {
    impl_->options = impl_->declare_options(*this);
    // The defaults are applied through the rows, so each is written once.
    // Strings and buttons have nothing to apply by default (no rules string
    // beyond the default preset's, no evaluation file, nothing to clear).
    using T = OptionInfo::Type;
    for (const Option& o : impl_->options) {
        if (o.info.type == T::STRING || o.info.type == T::BUTTON) continue;
        [[maybe_unused]] const Status st = apply_option(o, o.info.default_value);
        assert(st);
    }
}

Engine::~Engine() = default;

// The rules compiled and their board made, then adopted whole: a rules
// change either happens entirely or leaves everything as it was.
Status Engine::Impl::adopt_rules(const Rules& rules, std::string name) {
    auto edition = Edition::make(rules);
    if (!edition) return Error{edition.error()};
    auto b = make_board_game(rules);
    if (!b) return Error{b.error()};
    adopt(*edition, std::move(*b), std::move(name));
    return {};
}

Status Engine::set_preset(std::string_view preset_name) {
    if (searching()) return Error{"cannot change the preset while searching"};
    auto rules = preset_rules(preset_name);
    if (!rules) return Error{rules.error()};
    return impl_->adopt_rules(*rules, std::string(preset_name));
}

Status Engine::set_rules(std::string_view rules_string, RulesReading reading) {
    if (searching()) return Error{"cannot change the rules while searching"};
    auto rules = parse_rules(rules_string, reading);
    if (!rules) return Error{rules.error()};
    return set_rules(*rules);
}

Status Engine::set_rules(const Rules& rules) {
    if (searching()) return Error{"cannot change the rules while searching"};
    return impl_->adopt_rules(rules, preset_of(rules).value_or("custom"));
}

Status Engine::set_position(std::string_view tfen, const std::vector<std::string>& moves) {
    if (searching()) return Error{"cannot set the position while searching"};
    Impl& d = *impl_;
    std::optional<Position> p;
    if (tfen.empty() || tfen == "startpos") {
        p.emplace(d.edition);
    } else {
        auto parsed = parse_tfen(d.edition, tfen);
        if (!parsed) return Error{parsed.error()};
        p.emplace(std::move(*parsed));
    }
    for (size_t i = 0; i < moves.size(); ++i) {
        // A berserk chain may come as one turn, its plies joined by '|'.
        for (std::string_view ply : split(moves[i], '|')) {
            auto m = parse_legal_move(*p, ply);
            if (!m)
                return Error{"move " + std::to_string(i + 1) + " '" + moves[i] + "': " + m.error()};
            p->make_move(*m);
        }
    }
    return set_position(*p);
}

// The one way a game is set: the position with its history, whose keys and
// repetition windows the search reads for the path rules. The protocols
// that keep the game themselves (OTEP, HTP) give it here whole.
Status Engine::set_position(const Position& pos) {
    if (searching()) return Error{"cannot set the position while searching"};
    Impl& d = *impl_;
    std::unique_ptr<BoardGame> board;
    if (pos.edition().rules != d.edition->rules) {
        auto b = make_board_game(pos.edition().rules);
        if (!b) return Error{b.error()};
        board = std::move(*b);
    }
    BoardGame& target = board ? *board : *d.board;
    if (Status st = target.set_game(pos.record()); !st) return st;
    if (board) {
        d.board = std::move(board);
        d.edition = pos.edition_ptr();
        d.preset_name = "custom";
        d.reset_params();
    }
    d.pos.emplace(pos);
    return {};
}

const Position& Engine::position() const {
    return *impl_->pos;
}
std::string Engine::rules_string() const {
    return print_rules(impl_->edition->rules);
}

std::vector<OptionInfo> Engine::options() const {
    std::vector<OptionInfo> out;
    for (const Option& o : impl_->options) out.push_back(o.info);
    return out;
}

std::vector<OptionInfo> Engine::weight_options() const {
    std::vector<OptionInfo> out;
    const EvalParams defaults = default_params(impl_->edition->rules);
    for (size_t i = 0; i < param_table().size(); ++i)
        out.push_back(impl_->weight_option(ParamId(i), defaults).info);
    return out;
}

Status Engine::set_option(std::string_view name, std::string_view value) {
    if (searching()) return Error{"cannot set option '" + std::string(name) + "' while searching"};
    Impl& d = *impl_;
    if (const Option* o = find_option(d.options, name)) return apply_option(*o, value);
    if (auto id = find_param(name))
        return apply_option(d.weight_option(*id, default_params(d.edition->rules)), value);
    return Error{"unknown option '" + printable(name) + "'"};
}

int64_t Engine::move_overhead_ms() const {
    return impl_->move_overhead;
}

bool Engine::show_wdl() const {
    return impl_->show_wdl;
}

WinCurve Engine::win_curve() const {
    return WinCurve(win_model_for(impl_->edition->rules, net_hash()), stage_of(*impl_->pos));
}

uint64_t Engine::net_hash() const {
    const NnueNet* net = impl_->active_net();
    return net ? net->hash : 0;
}

void Engine::new_game() {
    if (searching()) return;
    impl_->tt.clear();
    impl_->threads.clear();
}

void Engine::on_info(std::function<void(const SearchInfo&)> callback) {
    wait();
    impl_->info_cb = std::move(callback);
}
void Engine::on_bestmove(std::function<void(const BestMove&)> callback) {
    wait();
    impl_->best_cb = std::move(callback);
}

Status Engine::go(const SearchLimits& limits) {
    Impl& d = *impl_;
    SearchSetup setup;
    setup.limits = limits;
    setup.tt = &d.tt;
    setup.params = &d.params;
    setup.net = d.active_net();
    setup.multipv = d.multipv;
    setup.move_overhead_ms = d.move_overhead;
    setup.on_info = nullptr;
    const WinCurve curve = win_curve();
    setup.skill = Skill::from_options(d.limit_strength, d.elo, d.skill_level, d.edition->rules,
                                      setup.net ? setup.net->hash : 0);
    if (setup.skill.limited()) {
        const uint64_t nodes = setup.skill.nodes();
        setup.limits.nodes = setup.limits.nodes ? std::min(setup.limits.nodes, nodes) : nodes;
        setup.multipv = std::max(setup.multipv, Skill::CANDIDATES);
        setup.curve = curve;
        setup.seed = std::random_device{}();
    }
    if (d.info_cb) {
        // The host's numbers: calibrated for the root's edition and stage.
        const Side stm = d.pos->side_to_move();
        setup.on_info = [cb = d.info_cb, curve, stm, raw = d.raw_scores](const SearchInfo& info) {
            SearchInfo shown = info;
            const WinCurve at_depth = curve.at_depth(info.depth);
            shown.cp = raw ? info.score : at_depth.calibrated(info.score, stm);
            shown.wdl = at_depth.chances(info.score, stm);
            cb(shown);
        };
    }
    setup.on_bestmove = d.best_cb;
    return d.threads.start(*d.board, *d.pos, std::move(setup));
}

void Engine::stop() {
    impl_->threads.stop();
}

void Engine::ponderhit() {
    impl_->threads.ponderhit();
}

void Engine::wait() {
    impl_->threads.wait();
}

Result<Engine::SearchOutcome> Engine::search_to_end(const SearchLimits& limits,
                                                    std::function<void(const SearchInfo&)> info) {
    std::mutex mutex;
    SearchOutcome outcome;
    on_info([&](const SearchInfo& report) {
        if (info) info(report);
        std::lock_guard lock(mutex);
        if (report.multipv == 1) outcome.last = report;
    });
    on_bestmove([&](const BestMove& best) {
        std::lock_guard lock(mutex);
        outcome.best = best;
    });
    const Status st = go(limits);
    if (st) wait();
    on_info(nullptr);
    on_bestmove(nullptr);
    if (!st) return Error{st.error()};
    std::lock_guard lock(mutex);
    return outcome;
}

bool Engine::searching() const {
    return impl_->threads.searching();
}

// On the board the search plays the game on: the number the search sees.
Value Engine::evaluate() const {
    if (const NnueNet* net = impl_->active_net()) return nnue_evaluate(*net, *impl_->pos);
    return impl_->board->evaluate(impl_->params);
}

const EvalParams& Engine::eval_params() const {
    return impl_->params;
}

std::vector<std::pair<Move, uint64_t>> Engine::perft_divide(int depth) const {
    return impl_->board->perft_divide(depth);
}

uint64_t Engine::last_search_nodes() const {
    return impl_->threads.last_nodes();
}

} // namespace branan
