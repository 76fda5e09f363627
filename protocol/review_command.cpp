#include "review_command.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "atomic_file.h"
#include "diagram.h"
#include "game_file.h"
#include "logging.h"
#include "notation.h"
#include "review.h"
#include "review_report.h"
#include "text.h"

namespace branan {

namespace {

std::atomic<bool> review_interrupted{false};

extern "C" void on_review_interrupt(int) {
    review_interrupted = true;
}

// Ctrl-C during a review: the handler is set for the review's time only.
class InterruptGuard {
  public:
    InterruptGuard() {
        review_interrupted = false;
        previous_ = std::signal(SIGINT, on_review_interrupt);
    }
    ~InterruptGuard() { std::signal(SIGINT, previous_); }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

  private:
    void (*previous_)(int) = SIG_DFL;
};

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix.data(), suffix.size()) == 0;
}

// "review: 34/101 positions, 17 s, about 33 s left", redrawn in place.
void print_progress(std::ostream& err, int done, int total, int64_t elapsed_ms) {
    char buf[160];
    const int width = 30;
    const int filled = total ? width * done / total : width;
    std::string bar(size_t(filled), '#');
    bar.resize(size_t(width), '.');
    const int64_t left = done ? elapsed_ms * (total - done) / done : 0;
    std::snprintf(buf, sizeof buf, "\rreview [%s] %d/%d positions, %llds, %s%llds left ",
                  bar.c_str(), done, total, (long long)(elapsed_ms / 1000), done ? "" : "? ",
                  (long long)(left / 1000));
    err << buf << std::flush;
}

Status write_output(const std::string& path, const std::string& text, std::ostream& out) {
    if (path.empty()) {
        out << text << std::flush;
        return {};
    }
    return write_file_atomic(path, text);
}

} // namespace

ReviewFormat review_format_of_path(const std::string& path) {
    if (ends_with(path, ".html") || ends_with(path, ".htm")) return ReviewFormat::HTML;
    if (ends_with(path, ".json")) return ReviewFormat::JSON;
    return ReviewFormat::TEXT;
}

int run_review(Engine& engine, const ReviewCommand& c, std::ostream& out, std::ostream& err) {
    auto fail = [&](const std::string& what, int status = EXIT_BAD_INPUT) {
        err << "branan review: error: " << what << "\n";
        return status;
    };
    if ((c.depth > 0) + (c.movetime_ms > 0) + (c.nodes > 0) > 1)
        return fail("give at most one of --depth, --movetime, --nodes");
    if (!c.output.empty())
        if (Status st = check_writable(c.output); !st) return fail("-o: " + st.error());

    std::ifstream in(c.game_path, std::ios::binary);
    if (!in) return fail("cannot read '" + c.game_path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = parse_game_text(text.str());
    if (!parsed) return fail(c.game_path + ": " + parsed.error());
    if (!parsed->rules.empty()) {
        // OpenTafl's files write hostility lists as its host sends them.
        const RulesReading reading =
            parsed->format == GameFormat::OPENTAFL ? RulesReading::BY_SIDE : RulesReading::BY_PIECE;
        if (Status st = engine.set_rules(parsed->rules, reading); !st)
            return fail(c.game_path + ": the file's rules: " + st.error());
    }
    auto game = replay_game(*parsed, engine.position().edition_ptr());
    if (!game) return fail(c.game_path + ": " + game.error());
    if (game->moves.empty()) return fail(c.game_path + ": the game has no moves to review");
    const int plies = int(game->moves.size());
    if (c.from_ply > plies)
        return fail("--from " + std::to_string(c.from_ply) + ": the game has " +
                    std::to_string(plies) + " plies");
    if (c.to_ply > 0 && c.to_ply < c.from_ply)
        return fail("--to " + std::to_string(c.to_ply) + " is before --from " +
                    std::to_string(c.from_ply));

    ReviewOptions o;
    o.limits.depth = c.depth;
    o.limits.movetime_ms = c.movetime_ms;
    o.limits.nodes = c.nodes;
    if (!c.depth && !c.movetime_ms && !c.nodes) o.limits.movetime_ms = REVIEW_DEFAULT_MOVETIME_MS;
    o.threads = c.threads;
    o.from_ply = c.from_ply;
    o.to_ply = c.to_ply;
    o.settings = c.settings;
    o.interrupt = &review_interrupted;
    if (c.progress)
        o.progress = [&](int done, int total, int64_t ms) { print_progress(err, done, total, ms); };

    Result<Review> review = Error{""};
    {
        InterruptGuard guard;
        logger().info("review: {} plies of a {}, {} at a time", game->moves.size(),
                      to_string(parsed->format), std::max(1, c.threads));
        review = review_game(engine, engine.rules_string(), *game, o);
    }
    if (c.progress) err << "\n";
    if (!review) return fail(review.error(), EXIT_FAILURE_AT_RUN_TIME);
    review->format = parsed->format;
    review->tags = parsed->tags;

    const Edition& edition = game->start.edition();
    std::string report;
    switch (c.format) {
    case ReviewFormat::TEXT:
        report = review_text(*review, edition);
        break;
    case ReviewFormat::JSON:
        report = review_json(*review, edition);
        break;
    case ReviewFormat::HTML:
        report = review_html(*review, *game);
        break;
    }
    if (Status st = write_output(c.output, report, out); !st)
        return fail("-o: " + st.error(), EXIT_FAILURE_AT_RUN_TIME);
    if (!review->complete)
        err << "branan review: stopped early; " << review->plies.size() << " plies reviewed\n";
    return EXIT_OK;
}

int run_diagram(Engine& engine, const DiagramCommand& c, std::ostream& out, std::ostream& err) {
    auto fail = [&](const std::string& what) {
        err << "branan diagram: error: " << what << "\n";
        return EXIT_BAD_INPUT;
    };
    std::vector<std::string> moves;
    for (std::string_view m : split_words(c.moves)) moves.emplace_back(m);
    if (Status st = engine.set_position(c.fen, moves); !st) return fail(st.error());
    const Position& pos = engine.position();
    const Edition& edition = pos.edition();
    DiagramOptions d;
    d.coordinates = c.coordinates;
    d.width = c.width;
    for (const std::string& a : c.arrows) {
        auto m = parse_move(edition, a);
        if (!m) return fail("--arrow '" + printable(a) + "': " + m.error());
        d.arrows.push_back({m->from(), m->to(), BEST_ARROW});
    }
    for (const std::string& list : c.highlights)
        for (std::string_view name : split(list, ',')) {
            auto sq = parse_square(edition, name);
            if (!sq) return fail("--highlight '" + printable(name) + "': " + sq.error());
            d.highlights.push_back(*sq);
        }
    if (!moves.empty()) {
        // The last move: its squares highlighted, what it took crossed out.
        const Move last = pos.last_move();
        d.highlights.push_back(last.from());
        d.highlights.push_back(last.to());
        d.captured = last_captures(pos);
    }
    if (!c.output.empty())
        if (Status st = check_writable(c.output); !st) return fail("-o: " + st.error());
    if (Status st = write_output(c.output, board_svg(pos, d) + "\n", out); !st) {
        err << "branan diagram: error: -o: " << st.error() << "\n";
        return EXIT_FAILURE_AT_RUN_TIME;
    }
    return EXIT_OK;
}

} // namespace branan
