#include "match.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <set>
#include <thread>

#include "notation.h"

namespace branan::match {

namespace {

std::atomic<bool> g_interrupted{false};

// Incremental tallies keyed by engine names.
class Tally {
  public:
    explicit Tally(std::vector<std::string> names) : names_(std::move(names)) {}

    void add(const GameSummary& g) {
        int a = index(g.engine1), b = index(g.engine2);
        PairStats& p = pair(a, b);
        // From the view of p.first.
        double s = p.first == a ? g.score1 : 1.0 - g.score1;
        int k = s == 1 ? 2 : s == 0.5 ? 1 : 0;
        p.total.n[k]++;
        const std::string& first_name = names_[size_t(p.first)];
        (g.attackers == first_name ? p.as_attackers : p.as_defenders).n[k]++;
        if (g.pair >= 0) {
            auto key = std::make_pair(g.run, g.pair);
            auto it = pending_.find(key);
            if (it == pending_.end()) {
                pending_[key] = s;
            } else {
                double sum = it->second + s;
                pending_.erase(it);
                p.penta.n[size_t(std::lround(sum * 2))]++;
            }
        }
    }
    const std::vector<PairStats>& pairs() const { return pairs_; }
    const std::vector<std::string>& names() const { return names_; }

  private:
    int index(const std::string& name) {
        for (size_t i = 0; i < names_.size(); ++i)
            if (names_[i] == name) return int(i);
        names_.push_back(name);
        return int(names_.size()) - 1;
    }
    PairStats& pair(int a, int b) {
        int lo = std::min(a, b), hi = std::max(a, b);
        for (PairStats& p : pairs_)
            if (p.first == lo && p.second == hi) return p;
        PairStats p;
        p.first = lo;
        p.second = hi;
        pairs_.push_back(p);
        return pairs_.back();
    }

    std::vector<std::string> names_;
    std::vector<PairStats> pairs_;
    std::map<std::pair<std::string, int64_t>, double> pending_;
};

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}

std::string wld(const Trinomial& t) {
    return std::to_string(t.wins()) + "-" + std::to_string(t.losses()) + "-" +
           std::to_string(t.draws());
}

struct Job {
    int64_t number = 0; // 1-based game number
    int64_t round = 0;
    int first = 0, second = 0;
    int attackers = 0, defenders = 0;
    int64_t opening_slot = 0;
    int64_t pair = -1;
};

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

} // namespace

void interrupt_matches() {
    g_interrupted.store(true);
}

std::vector<PairStats> tally(const std::vector<GameSummary>& games,
                             const std::vector<std::string>& engine_names) {
    Tally t(engine_names);
    for (const GameSummary& g : games) t.add(g);
    return t.pairs();
}

EloEstimate pair_estimate(const PairStats& p, bool pentanomial) {
    if (pentanomial && p.penta.pairs() > 0) return estimate(moments(p.penta));
    return estimate(moments(p.total));
}

void print_tables(std::ostream& out, const std::vector<PairStats>& pairs,
                  const std::vector<std::string>& names, bool pentanomial,
                  const std::optional<SprtParams>& sprt) {
    for (const PairStats& p : pairs) {
        const std::string& a = names[size_t(p.first)];
        const std::string& b = names[size_t(p.second)];
        out << "\n" << a << " vs " << b << "\n";
        out << "  games       W-L-D (" << a << ")      score    "
            << "Elo (95%)\n";
        auto row = [&](const char* label, const Trinomial& t) {
            auto e = estimate(moments(t));
            char buf[256];
            std::snprintf(buf, sizeof buf, "  %-11s %6lld  %-16s %6s   %s\n", label,
                          (long long)t.games(), wld(t).c_str(),
                          t.games() ? fmt("%.1f%%", 100 * e.score).c_str() : "-",
                          format_elo(e).c_str());
            out << buf;
        };
        row("total", p.total);
        row("attackers", p.as_attackers);
        row("defenders", p.as_defenders);
        out << "  (attackers/defenders: " << a << " playing that side)\n";
        out << "  LOS " << fmt("%.1f%%", 100 * los(p.total)) << "\n";
        if (p.penta.pairs() > 0) {
            out << "  pentanomial [0, 0.5, 1, 1.5, 2]: [" << p.penta.n[0] << ", " << p.penta.n[1]
                << ", " << p.penta.n[2] << ", " << p.penta.n[3] << ", " << p.penta.n[4] << "]  "
                << format_elo(estimate(moments(p.penta))) << " (pairs)\n";
        }
        if (sprt && pairs.size() == 1) {
            const bool penta = pentanomial && p.penta.pairs() > 0;
            double v = penta ? llr(moments(p.penta), sprt->elo0, sprt->elo1)
                             : llr(moments(p.total), sprt->elo0, sprt->elo1);
            out << "  SPRT elo0=" << sprt->elo0 << " elo1=" << sprt->elo1 << " ("
                << (penta ? "pentanomial" : "trinomial") << "): LLR " << fmt("%.2f", v) << " ["
                << fmt("%.2f", sprt->lower_bound()) << ", " << fmt("%.2f", sprt->upper_bound())
                << "] " << to_string(sprt_decision(v, *sprt)) << "\n";
        }
    }
}

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
        if (e.proto != "uci" && e.proto != "otep")
            return Error{"engine " + std::to_string(i + 1) + ": unknown proto '" + e.proto +
                         "' (uci or otep)"};
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
    g_interrupted.store(false);

    auto rules = c.preset.empty() ? parse_rules(c.rules) : preset_rules(c.preset);
    auto variant_r = Variant::make(*rules);
    if (!variant_r) return fail("bad rules: " + variant_r.error());
    VariantPtr variant = *variant_r;
    const std::string rules_string = print_rules(*rules);

    OpeningBook book;
    if (Status s = book.load(c.openings, variant, c.seed); !s) return fail(s.error());

    if (!c.out_dir.empty()) {
        // Never overwrite the games of an earlier match.
        std::error_code ec;
        if (std::filesystem::exists(c.out_dir + "/summary.jsonl", ec))
            return fail("'" + c.out_dir +
                        "' already holds a match (summary.jsonl): choose a new -out");
        std::filesystem::create_directories(c.out_dir, ec);
        if (ec) return fail("cannot create '" + c.out_dir + "': " + ec.message());
    }

    // The schedule.
    std::vector<Job> jobs;
    int64_t slot = 0;
    const int n = int(c.engines.size());
    for (int r = 0; r < c.rounds; ++r)
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                for (int g = 0; g < c.games; ++g) {
                    Job job;
                    job.number = int64_t(jobs.size()) + 1;
                    job.round = r + 1;
                    job.first = i;
                    job.second = j;
                    const bool swap = g % 2 == 1;
                    job.attackers = swap ? j : i;
                    job.defenders = swap ? i : j;
                    if (c.repeat) {
                        job.opening_slot = slot + g / 2;
                        job.pair = slot + g / 2;
                        if (g + 1 == c.games) slot += (g / 2) + 1;
                    } else {
                        job.opening_slot = slot++;
                    }
                    jobs.push_back(job);
                }
    result.games_scheduled = int64_t(jobs.size());

    AbortFlag abort;
    std::atomic<int64_t> next{0};
    std::mutex mutex; // guards everything below
    std::vector<std::string> names;
    for (const EngineConfig& e : c.engines) names.push_back(e.name);
    Tally tally_(names);
    std::ofstream summary;
    if (!c.out_dir.empty()) {
        summary.open(c.out_dir + "/summary.jsonl", std::ios::app);
        if (!summary) return fail("cannot write '" + c.out_dir + "/summary.jsonl'");
    }
    std::string fatal;

    const auto handshake = std::chrono::milliseconds(c.handshake_ms);
    using Slots = std::vector<std::unique_ptr<EngineAdapter>>;
    std::vector<Slots> worker_slots(size_t(c.concurrency));
    for (Slots& s : worker_slots) s.resize(size_t(n));

    // Every engine must start once before the match begins.
    for (int i = 0; i < n; ++i) {
        auto a = make_adapter(c.engines[size_t(i)], abort, handshake);
        std::string error;
        if (!a->start(error))
            return fail("engine '" + c.engines[size_t(i)].name + "' did not start: " + error);
        worker_slots[0][size_t(i)] = std::move(a);
    }

    auto progress = [&](const Job& job, const GameSummary& g) {
        if (c.quiet) return;
        const PairStats* p = nullptr;
        for (const PairStats& ps : tally_.pairs())
            if (ps.first == job.first && ps.second == job.second) p = &ps;
        if (!p) return;
        auto e = pair_estimate(*p, c.repeat);
        std::string line = "Games " + std::to_string(result.games_played) + "/" +
                           std::to_string(result.games_scheduled) + "  " + names[size_t(p->first)] +
                           " vs " + names[size_t(p->second)] + "  W-L-D " + wld(p->total) +
                           "  score " + fmt("%.1f%%", 100 * e.score) + "  " + format_elo(e);
        if (c.sprt) {
            line += "  LLR " + fmt("%.2f", result.llr.value_or(0)) + " [" +
                    fmt("%.2f", c.sprt->lower_bound()) + ", " + fmt("%.2f", c.sprt->upper_bound()) +
                    "]";
        }
        if (tty) {
            out << "\r" << line << "\033[K" << std::flush;
        } else {
            out << "Game " << g.game << " " << g.attackers << " (attackers) vs " << g.defenders
                << " (defenders): " << g.winner << ", " << g.reason << "\n"
                << line << "\n"
                << std::flush;
        }
    };

    auto worker = [&](int w) {
        Slots& slots = worker_slots[size_t(w)];
        while (!abort.stop.load() && !g_interrupted.load()) {
            const int64_t k = next.fetch_add(1);
            if (k >= int64_t(jobs.size())) break;
            const Job& job = jobs[size_t(k)];
            const int ids[2] = {job.attackers, job.defenders};
            // Start (or restart) the two engines.
            std::string start_error[2];
            for (int s = 0; s < 2; ++s) {
                auto& a = slots[size_t(ids[s])];
                if (a && !a->alive()) a.reset();
                if (!a) {
                    a = make_adapter(c.engines[size_t(ids[s])], abort, handshake);
                    if (!a->start(start_error[s])) {
                        if (start_error[s].empty()) start_error[s] = "did not start";
                        a.reset();
                    }
                }
            }
            GameConfig gc;
            gc.variant = variant;
            gc.preset = c.preset;
            gc.rules_string = rules_string;
            gc.opening = book.get(job.opening_slot);
            gc.max_plies = c.max_plies;
            gc.resign = c.resign;
            gc.time_margin_ms = c.time_margin_ms;
            gc.recover_grace = std::chrono::milliseconds(c.recover_grace_ms);
            GameOutcome outcome;
            if (abort.stop.load() || g_interrupted.load()) break;
            if (!slots[size_t(ids[0])] || !slots[size_t(ids[1])]) {
                auto pos = opening_position(variant, gc.opening);
                outcome.start_tfen = outcome.final_tfen = pos ? to_tfen(*pos) : "";
                outcome.reason = "no-start";
                const bool a_failed = !slots[size_t(ids[0])], d_failed = !slots[size_t(ids[1])];
                outcome.winner = a_failed && d_failed ? Winner::DRAW
                                 : a_failed           ? Winner::DEFENDERS
                                                      : Winner::ATTACKERS;
                for (int s = 0; s < 2; ++s)
                    if (!slots[size_t(ids[s])])
                        outcome.detail += (outcome.detail.empty() ? "" : "; ") +
                                          c.engines[size_t(ids[s])].name +
                                          " could not be started: " + start_error[s];
            } else {
                EngineAdapter* players[2] = {slots[size_t(ids[0])].get(),
                                             slots[size_t(ids[1])].get()};
                outcome = play_game(gc, players, abort);
                if (outcome.aborted) break;
                for (int s = 0; s < 2; ++s)
                    if (outcome.restart[s]) slots[size_t(ids[s])].reset(); // killed
            }

            GameSummary g;
            g.run = c.run_id;
            g.game = job.number;
            g.round = job.round;
            g.pair = job.pair;
            g.opening = gc.opening.label;
            g.engine1 = names[size_t(job.first)];
            g.engine2 = names[size_t(job.second)];
            g.attackers = names[size_t(job.attackers)];
            g.defenders = names[size_t(job.defenders)];
            g.winner = to_string(outcome.winner);
            const bool first_attacks = job.attackers == job.first;
            g.score1 = outcome.winner == Winner::DRAW                           ? 0.5
                       : (outcome.winner == Winner::ATTACKERS) == first_attacks ? 1.0
                                                                                : 0.0;
            g.reason = outcome.reason;
            g.detail = outcome.detail;
            g.plies = int64_t(outcome.plies.size());
            char file[32];
            std::snprintf(file, sizeof file, "game-%05lld.txt", (long long)job.number);
            if (!c.out_dir.empty()) g.record = file;

            std::lock_guard lock(mutex);
            if (!c.out_dir.empty()) {
                RecordHeader h;
                h.run = c.run_id;
                h.game = job.number;
                h.round = job.round;
                h.pair = job.pair;
                h.rules = rules_string;
                h.variant = c.preset;
                h.engines[0] = &c.engines[size_t(job.attackers)];
                h.engines[1] = &c.engines[size_t(job.defenders)];
                h.opening_label = gc.opening.label;
                h.opening_root = gc.opening.root_tfen;
                std::ofstream rec(c.out_dir + "/" + file);
                rec << format_record(h, outcome);
                if (!rec && fatal.empty()) fatal = "cannot write " + c.out_dir + "/" + file;
                summary << to_json_line(g) << "\n" << std::flush;
            }
            result.games.push_back(g);
            tally_.add(g);
            ++result.games_played;
            if (c.sprt) {
                const PairStats& p = tally_.pairs().front();
                const bool penta = c.repeat;
                result.llr = penta ? llr(moments(p.penta), c.sprt->elo0, c.sprt->elo1)
                                   : llr(moments(p.total), c.sprt->elo0, c.sprt->elo1);
                result.decision = sprt_decision(*result.llr, *c.sprt);
                if (result.decision != SprtDecision::CONTINUE) abort.stop.store(true);
            }
            progress(job, g);
        }
        for (auto& a : slots)
            if (a) a->quit();
    };

    // Relays a Ctrl-C (interrupt_matches) to the adapters' abort flag.
    std::atomic<bool> done{false};
    std::thread watcher([&] {
        while (!done.load()) {
            if (g_interrupted.load()) abort.stop.store(true);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    std::vector<std::thread> threads;
    for (int w = 0; w < c.concurrency; ++w) threads.emplace_back(worker, w);
    for (std::thread& t : threads) t.join();
    done.store(true);
    watcher.join();

    if (tty && !c.quiet) out << "\n";
    result.interrupted = g_interrupted.load();
    result.pairs = tally_.pairs();
    if (!fatal.empty()) {
        result.ok = false;
        result.error = fatal;
    }
    if (!c.quiet) {
        if (c.sprt && result.decision != SprtDecision::CONTINUE)
            out << "SPRT: " << to_string(result.decision) << " after " << result.games_played
                << " games\n";
        if (result.interrupted) out << "Interrupted after " << result.games_played << " games\n";
        print_tables(out, result.pairs, tally_.names(), c.repeat, c.sprt);
        out << std::flush;
    }
    return result;
}

} // namespace branan::match
