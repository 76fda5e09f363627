#include "book.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "engine.h"
#include "rules.h"
#include "self_play.h"
#include "walk.h"

namespace branan::book {

namespace {

// What one search says about a candidate.
struct Score {
    int value = 0;    // side to move's view
    bool won = false; // a forced win for one side (a mate score)
};

// One candidate of a batch, filled in by the walk, then by a worker.
struct Candidate {
    enum class State {
        GAME_OVER,
        DUPLICATE,
        SCREEN_DECISIVE,
        SCREEN_OUTSIDE,
        DEEP_DECISIVE,
        OUTSIDE,
        ONE_SIDED,
        KEPT
    };
    State state = State::KEPT;
    Walk walk;
    Score deep;
};

// A fresh search state for every call (the table and the histories cleared),
// so that a candidate's score does not depend on what the engine searched
// before, i.e. on which worker took it.
Score search(Engine& engine, const std::vector<std::string>& moves, uint64_t nodes) {
    engine.new_game();
    engine.set_position("", moves); // legal: the walk made these moves
    Score score;
    engine.on_info([&score](const SearchInfo& info) {
        if (info.multipv != 1) return;
        score.value = info.score;
        score.won = info.mate != 0;
    });
    engine.on_bestmove([](const BestMove&) {});
    SearchLimits limits;
    limits.nodes = nodes;
    engine.go(limits);
    engine.wait();
    return score;
}

int attackers_view(const Walk& walk, int score) {
    return walk.side_to_move == ATTACKERS ? score : -score;
}

// Each worker's engines: two, for the two sides of a playout (the first also
// searches the scores).
struct WorkerEngines {
    std::unique_ptr<Engine> a, b;
};

void score_candidate(WorkerEngines& engines, const BookSpec& spec, const EditionPtr& edition,
                     Candidate& c) {
    using State = Candidate::State;
    const Score screen = search(*engines.a, c.walk.moves, spec.screen_nodes);
    if (screen.won) {
        c.state = State::SCREEN_DECISIVE;
        return;
    }
    if (std::abs(attackers_view(c.walk, screen.value) - spec.target_cp) > spec.screen_margin_cp) {
        c.state = State::SCREEN_OUTSIDE;
        return;
    }
    c.deep = search(*engines.a, c.walk.moves, spec.nodes);
    if (c.deep.won) {
        c.state = State::DEEP_DECISIVE;
        return;
    }
    if (std::abs(attackers_view(c.walk, c.deep.value) - spec.target_cp) > spec.margin_cp) {
        c.state = State::OUTSIDE;
        return;
    }
    if (spec.playout_nodes > 0 && !play_pair(*engines.a, *engines.b, spec.playout_nodes, edition,
                                             c.walk.moves, spec.playout_plies)
                                       .split()) {
        c.state = State::ONE_SIDED;
        return;
    }
    c.state = State::KEPT;
}

} // namespace

BookSpec BookSpec::resolved() const {
    BookSpec s = *this;
    if (s.candidates == 0) s.candidates = int64_t(s.count) * 100;
    if (s.screen_nodes == 0) s.screen_nodes = std::max<uint64_t>(1000, s.nodes / 20);
    if (s.screen_margin_cp == 0) s.screen_margin_cp = 4 * s.margin_cp;
    return s;
}

Status check_spec(const BookSpec& spec) {
    bool known = false;
    for (const Preset& p : presets()) known = known || spec.preset == p.name;
    if (!known) {
        std::string names;
        for (const Preset& p : presets()) names += std::string(names.empty() ? "" : ", ") + p.name;
        return Error{"--preset: unknown preset '" + spec.preset + "' (known: " + names + ")"};
    }
    if (spec.count < 1) return Error{"--count: must be at least 1"};
    if (spec.min_plies < 1 || spec.max_plies < spec.min_plies || spec.max_plies > 200)
        return Error{"--plies: need 1 <= MIN <= MAX <= 200, got " + std::to_string(spec.min_plies) +
                     "-" + std::to_string(spec.max_plies)};
    if (spec.nodes < 1) return Error{"--nodes: must be at least 1"};
    if (spec.margin_cp < 0) return Error{"--margin: must be at least 0"};
    if (std::abs(spec.target_cp) > 5000) return Error{"--target: must be within -5000..5000"};
    if (spec.threads < 1 || spec.threads > 256) return Error{"--threads: must be 1 to 256"};
    if (spec.candidates < 0) return Error{"--candidates: must be at least 0 (0: 100 per opening)"};
    if (spec.screen_margin_cp < 0) return Error{"--screen-margin: must be at least 0"};
    if (spec.playout_plies < 1) return Error{"--playout-plies: must be at least 1"};
    if (spec.hash_mb < 1 || spec.hash_mb > 4096) return Error{"--hash: must be 1 to 4096 MiB"};
    return {};
}

Result<Book> make_book(const BookSpec& input, const BookProgress& progress) {
    if (Status st = check_spec(input); !st) return Error{st.error()};
    const BookSpec spec = input.resolved();
    auto rules = preset_rules(spec.preset);
    if (!rules) return Error{rules.error()};
    auto edition = Edition::make(*rules);
    if (!edition) return Error{edition.error()};

    std::vector<WorkerEngines> engines(static_cast<size_t>(spec.threads));
    for (WorkerEngines& w : engines) {
        w.a = std::make_unique<Engine>();
        w.b = std::make_unique<Engine>();
        for (Engine* e : {w.a.get(), w.b.get()}) {
            if (Status st = e->set_preset(spec.preset); !st) return Error{st.error()};
            if (Status st = e->set_option("Threads", "1"); !st) return Error{st.error()};
            if (Status st = e->set_option("Hash", std::to_string(spec.hash_mb)); !st)
                return Error{st.error()};
            if (!spec.eval_file.empty())
                if (Status st = e->set_option("EvalFile", spec.eval_file); !st)
                    return Error{st.error()};
        }
    }

    Book book;
    book.spec = spec;
    book.rules = print_rules(*rules);
    std::unordered_set<uint64_t> seen;
    // A batch: walks made and deduplicated in index order on this thread,
    // scored on the workers, then counted in index order up to the opening
    // that completes the book, so the counts do not depend on the batch size.
    const int64_t batch_size = 16 * int64_t(spec.threads);
    int64_t next = 0;
    while (book.stats.kept < spec.count && next < spec.candidates) {
        const int64_t n = std::min(batch_size, spec.candidates - next);
        std::vector<Candidate> batch(static_cast<size_t>(n));
        std::vector<size_t> to_score;
        for (int64_t i = 0; i < n; ++i) {
            Candidate& c = batch[size_t(i)];
            c.walk = random_walk(*edition, spec.seed, next + i, spec.min_plies, spec.max_plies);
            if (c.walk.outcome == Walk::Outcome::GAME_OVER)
                c.state = Candidate::State::GAME_OVER;
            else if (!seen.insert(c.walk.key).second)
                c.state = Candidate::State::DUPLICATE;
            else
                to_score.push_back(size_t(i));
        }
        std::atomic<size_t> cursor{0};
        auto work = [&](WorkerEngines& w) {
            for (size_t k; (k = cursor.fetch_add(1)) < to_score.size();)
                score_candidate(w, spec, *edition, batch[to_score[k]]);
        };
        std::vector<std::thread> helpers;
        for (size_t t = 1; t < engines.size(); ++t)
            helpers.emplace_back(work, std::ref(engines[t]));
        work(engines[0]);
        for (auto& h : helpers) h.join();

        BookStats& st = book.stats;
        for (int64_t i = 0; i < n && st.kept < spec.count; ++i) {
            Candidate& c = batch[size_t(i)];
            ++st.tried;
            using State = Candidate::State;
            switch (c.state) {
            case State::GAME_OVER:
                ++st.game_over;
                continue;
            case State::DUPLICATE:
                ++st.duplicates;
                continue;
            case State::SCREEN_DECISIVE:
                ++st.screen_decisive;
                continue;
            case State::SCREEN_OUTSIDE:
                ++st.screen_outside;
                continue;
            default:
                break;
            }
            ++st.searched;
            if (c.state == State::DEEP_DECISIVE) {
                ++st.deep_decisive;
                continue;
            }
            if (c.state == State::OUTSIDE) {
                ++st.outside;
                continue;
            }
            if (spec.playout_nodes > 0) ++st.played;
            if (c.state == State::ONE_SIDED) {
                ++st.one_sided;
                continue;
            }
            ++st.kept;
            BookEntry e;
            e.index = next + i;
            e.moves = std::move(c.walk.moves);
            e.side_to_move = c.walk.side_to_move;
            e.score = c.deep.value;
            book.entries.push_back(std::move(e));
        }
        next += n;
        if (progress) progress(book.stats);
    }
    return book;
}

namespace {

// The q-quantile of sorted values (nearest rank).
int quantile(const std::vector<int>& sorted, double q) {
    if (sorted.empty()) return 0;
    size_t i = size_t(std::ceil(q * double(sorted.size())));
    i = std::clamp<size_t>(i, 1, sorted.size());
    return sorted[i - 1];
}

} // namespace

std::string format_book(const Book& book, const std::string& command_line) {
    const BookSpec& s = book.spec;
    const BookStats& st = book.stats;
    std::ostringstream out;
    out << "# Branan opening book: " << book.entries.size() << " openings for " << s.preset
        << ", one line of moves from the start each\n"
        << "# (branan-match -openings file=PATH format=moves). Made by:\n"
        << "#   " << command_line << "\n"
        << "# preset: " << s.preset << "\n"
        << "# rules: " << book.rules << "\n"
        << "# walks: " << s.min_plies << "-" << s.max_plies
        << " random legal plies from the start (none that ends the game), seed " << s.seed
        << ", deduplicated by position\n"
        << "# screen: " << s.screen_nodes
        << " nodes; dropped when it sees a win for either side or |score - target| > "
        << s.screen_margin_cp << "\n"
        << "# search: " << s.nodes << " nodes, one thread, " << s.hash_mb
        << " MiB hash cleared for each opening; kept when |score - target| <= " << s.margin_cp
        << " centi-soldiers, target " << s.target_cp << " (scores: attackers' view)\n"
        << "# candidates: " << st.tried << " tried, " << st.game_over << " ended the game, "
        << st.duplicates << " duplicates, " << st.screen_decisive << " won at the screen, "
        << st.screen_outside << " past the screen margin, " << st.searched << " searched, "
        << st.deep_decisive << " won at the search, " << st.outside << " past the margin, "
        << st.played << " played, " << st.one_sided << " one-sided, " << st.kept << " kept\n";
    if (s.playout_nodes > 0)
        out << "# playout: a game pair from each opening, sides swapped, " << s.playout_nodes
            << " against " << s.playout_nodes + s.playout_nodes / 4
            << " nodes a move, a draw after " << s.playout_plies
            << " plies; kept only when each side wins one\n";
    std::vector<int> scores;
    int attackers_to_move = 0;
    for (const BookEntry& e : book.entries) {
        scores.push_back(e.attackers_score());
        attackers_to_move += e.side_to_move == ATTACKERS;
    }
    std::sort(scores.begin(), scores.end());
    double mean = 0;
    for (int v : scores) mean += v;
    if (!scores.empty()) mean /= double(scores.size());
    char mean_text[32];
    std::snprintf(mean_text, sizeof mean_text, "%.1f", mean);
    out << "# scores (attackers' view): min " << quantile(scores, 0) << ", 10% "
        << quantile(scores, 0.1) << ", 25% " << quantile(scores, 0.25) << ", median "
        << quantile(scores, 0.5) << ", 75% " << quantile(scores, 0.75) << ", 90% "
        << quantile(scores, 0.9) << ", max " << (scores.empty() ? 0 : scores.back()) << ", mean "
        << mean_text << "\n";
    // Eight equal bins over [-margin, margin]: the shape at a glance.
    const int bins = 8;
    std::vector<int> hist(bins, 0);
    const int width = std::max(1, (2 * s.margin_cp + bins) / bins);
    const int low = s.target_cp - s.margin_cp;
    for (int v : scores) hist[size_t(std::clamp((v - low) / width, 0, bins - 1))]++;
    out << "# histogram:";
    for (int b = 0; b < bins; ++b) {
        const int lo = low + b * width;
        out << " [" << lo << "," << (b == bins - 1 ? s.target_cp + s.margin_cp : lo + width - 1)
            << "] " << hist[size_t(b)];
    }
    out << "\n# side to move: attackers " << attackers_to_move << ", defenders "
        << int(book.entries.size()) - attackers_to_move << "\n";
    for (const BookEntry& e : book.entries) {
        for (size_t i = 0; i < e.moves.size(); ++i) out << (i ? " " : "") << e.moves[i];
        out << "\n";
    }
    return out.str();
}

} // namespace branan::book
