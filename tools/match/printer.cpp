#include "printer.h"

#include <cstdio>
#include <ostream>

namespace branan::match {

namespace {

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}

std::string wld(const Trinomial& t) {
    return std::to_string(t.wins()) + "-" + std::to_string(t.losses()) + "-" +
           std::to_string(t.draws());
}

} // namespace

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

void ProgressPrinter::game_ended(const GameSummary& g, const PairStats& p, int64_t played,
                                 int64_t scheduled, std::optional<double> llr_value) {
    if (quiet_) return;
    auto e = pair_estimate(p, pentanomial_);
    std::string line = "Games " + std::to_string(played) + "/" + std::to_string(scheduled) + "  " +
                       names_[size_t(p.first)] + " vs " + names_[size_t(p.second)] + "  W-L-D " +
                       wld(p.total) + "  score " + fmt("%.1f%%", 100 * e.score) + "  " +
                       format_elo(e);
    if (sprt_) {
        line += "  LLR " + fmt("%.2f", llr_value.value_or(0)) + " [" +
                fmt("%.2f", sprt_->lower_bound()) + ", " + fmt("%.2f", sprt_->upper_bound()) + "]";
    }
    if (tty_) {
        out_ << "\r" << line << "\033[K" << std::flush;
    } else {
        out_ << "Game " << g.game << " " << g.attackers << " (attackers) vs " << g.defenders
             << " (defenders): " << g.winner << ", " << g.reason << "\n"
             << line << "\n"
             << std::flush;
    }
}

void ProgressPrinter::finish(const std::vector<PairStats>& pairs, int64_t played,
                             SprtDecision decision, bool interrupted) {
    if (quiet_) return;
    if (tty_) out_ << "\n";
    if (sprt_ && decision != SprtDecision::CONTINUE)
        out_ << "SPRT: " << to_string(decision) << " after " << played << " games\n";
    if (interrupted) out_ << "Interrupted after " << played << " games\n";
    print_tables(out_, pairs, names_, pentanomial_, sprt_);
    out_ << std::flush;
}

} // namespace branan::match
