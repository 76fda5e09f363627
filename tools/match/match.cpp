#include "match.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <set>

#include "printer.h"
#include "schedule.h"
#include "workers.h"

namespace branan::match {

namespace {

std::string make_run_id() {
    auto now = std::chrono::system_clock::now();
    std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
    return std::string(buf) + "-" + std::to_string(us % 1000000);
}

GameSummary summary_of(const MatchConfig& c, const PlayedGame& played, bool with_record) {
    const ScheduledGame& s = played.game;
    const GameOutcome& outcome = played.outcome;
    auto name = [&](int engine) { return c.engines[size_t(engine)].name; };
    GameSummary g;
    g.run = c.run_id;
    g.game = s.number;
    g.round = s.round;
    g.pair = s.pair;
    g.opening = played.opening.label;
    g.engine1 = name(s.first);
    g.engine2 = name(s.second);
    g.attackers = name(s.attackers);
    g.defenders = name(s.defenders);
    g.winner = to_string(outcome.winner);
    const bool first_attacks = s.attackers == s.first;
    g.score1 = outcome.winner == Winner::DRAW                           ? 0.5
               : (outcome.winner == Winner::ATTACKERS) == first_attacks ? 1.0
                                                                        : 0.0;
    g.reason = outcome.reason;
    g.detail = outcome.detail;
    g.plies = int64_t(outcome.plies.size());
    if (with_record) g.record = record_file_name(s.number);
    return g;
}

RecordHeader header_of(const MatchConfig& c, const PlayedGame& played,
                       const std::string& rules_string) {
    const ScheduledGame& s = played.game;
    RecordHeader h;
    h.run = c.run_id;
    h.game = s.number;
    h.round = s.round;
    h.pair = s.pair;
    h.rules = rules_string;
    h.edition = c.preset;
    h.engines[0] = &c.engines[size_t(s.attackers)];
    h.engines[1] = &c.engines[size_t(s.defenders)];
    h.opening_label = played.opening.label;
    h.opening_root = played.opening.root_tfen;
    return h;
}

} // namespace

Status prepare(MatchConfig& c) {
    if (c.engines.size() < 2) return Error{"a match needs two engines or more (-engine)"};
    if (c.preset.empty() && c.rules.empty()) c.preset = std::string(default_preset_name());
    if (!c.preset.empty()) {
        auto r = preset_rules(c.preset);
        if (!r) return Error{r.error()};
    } else {
        auto r = parse_rules(c.rules);
        if (!r) return Error{"bad rules: " + r.error()};
    }
    if (c.games < 1) return Error{"-games must be at least 1"};
    if (c.rounds < 1) return Error{"-rounds must be at least 1"};
    if (c.concurrency < 1) return Error{"-concurrency must be at least 1"};
    if (c.sprt && c.engines.size() != 2) return Error{"-sprt needs exactly two engines"};
    if (c.sprt && !(c.sprt->alpha > 0 && c.sprt->alpha < 1 && c.sprt->beta > 0 &&
                    c.sprt->beta < 1 && c.sprt->elo0 < c.sprt->elo1))
        return Error{"-sprt needs 0 < alpha, beta < 1 and elo0 < elo1"};
    std::set<std::string> names;
    for (size_t i = 0; i < c.engines.size(); ++i) {
        EngineConfig& e = c.engines[i];
        if (e.cmd.empty()) return Error{"engine " + std::to_string(i + 1) + " has no cmd="};
        if (e.proto != "uci" && e.proto != "otep" && e.proto != "htp")
            return Error{"engine " + std::to_string(i + 1) + ": unknown proto '" + e.proto +
                         "' (uci, otep or htp)"};
        if (!e.tc.valid())
            return Error{"engine '" + (e.name.empty() ? e.cmd : e.name) +
                         "' has no time control (-tc, or tc=/st= in -engine or -each)"};
        if (e.name.empty()) {
            e.name = std::filesystem::path(e.cmd).filename().string();
            if (e.name.empty()) e.name = e.cmd;
        }
        // Names identify engines in the records and summaries: make them unique.
        std::string base = e.name;
        for (int k = 2; names.count(e.name); ++k) e.name = base + "#" + std::to_string(k);
        names.insert(e.name);
    }
    if (c.run_id.empty()) c.run_id = make_run_id();
    return {};
}

MatchResult run_match(MatchConfig c, std::ostream& out, bool tty) {
    MatchResult result;
    auto fail = [&](std::string e) {
        result.ok = false;
        result.error = std::move(e);
        return result;
    };
    if (Status s = prepare(c); !s) return fail(s.error());
    ignore_sigpipe();
    clear_interrupt();

    auto rules = c.preset.empty() ? parse_rules(c.rules) : preset_rules(c.preset);
    auto edition = Edition::make(*rules);
    if (!edition) return fail("bad rules: " + edition.error());
    const std::string rules_string = print_rules(*rules);

    OpeningBook book;
    if (Status s = book.load(c.openings, *edition, c.seed); !s) return fail(s.error());
    MatchFiles files;
    const bool with_files = !c.out_dir.empty();
    if (with_files) {
        if (Status s = files.open(c.out_dir); !s) return fail(s.error());
    }

    const std::vector<ScheduledGame> schedule =
        make_schedule(int(c.engines.size()), c.rounds, c.games, c.repeat);
    result.games_scheduled = int64_t(schedule.size());

    GameSetup match_rules;
    match_rules.preset = c.preset;
    match_rules.rules = rules_string;
    Workers workers(c.engines, match_rules, c.concurrency,
                    std::chrono::milliseconds(c.handshake_ms));
    if (Status s = workers.start_engines(); !s) return fail(s.error());

    std::vector<std::string> names;
    for (const EngineConfig& e : c.engines) names.push_back(e.name);
    Tally tally(names);
    ProgressPrinter printer(out, tty, c.quiet, names, c.repeat, c.sprt);
    GameConfig base;
    base.edition = *edition;
    base.preset = c.preset;
    base.rules_string = rules_string;
    base.max_plies = c.max_plies;
    base.resign = c.resign;
    base.time_margin_ms = c.time_margin_ms;
    base.recover_grace = std::chrono::milliseconds(c.recover_grace_ms);
    std::string fatal; // the first file that could not be written

    workers.run(schedule, base, book, [&](const PlayedGame& played) {
        const GameSummary g = summary_of(c, played, with_files);
        if (with_files) {
            Status st = files.write_game(header_of(c, played, rules_string), played.outcome, g);
            if (!st && fatal.empty()) fatal = st.error();
        }
        result.games.push_back(g);
        tally.add(g);
        ++result.games_played;
        if (c.sprt) {
            // -repeat pairs are the SPRT's samples.
            const PairStats& p = tally.pairs().front();
            result.llr = c.repeat ? llr(moments(p.penta), c.sprt->elo0, c.sprt->elo1)
                                  : llr(moments(p.total), c.sprt->elo0, c.sprt->elo1);
            result.decision = sprt_decision(*result.llr, *c.sprt);
        }
        const ScheduledGame& s = played.game;
        if (const PairStats* p = tally.find(s.first, s.second))
            printer.game_ended(g, *p, result.games_played, result.games_scheduled, result.llr);
        return result.decision == SprtDecision::CONTINUE;
    });

    result.interrupted = interrupted();
    result.pairs = tally.pairs();
    if (!fatal.empty()) {
        result.ok = false;
        result.error = fatal;
    }
    printer.finish(result.pairs, result.games_played, result.decision, result.interrupted);
    return result;
}

} // namespace branan::match
