#include "generate.h"

#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "engine.h"
#include "hash.h"
#include "match/openings.h"
#include "movegen.h"
#include "nnue_net.h"
#include "notation.h"
#include "symmetry.h"
#include "tune/quiet.h"

namespace branan::nnue {

namespace {

std::string hex64(uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", (unsigned long long)value);
    return text;
}

// A file's contents as a hash: how the spec names a book or a weight file.
std::string file_fnv(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return hex64(fnv1a64(text.str()));
}

struct Shared {
    Shared(const GenerateSpec& spec_, const EditionPtr& edition_,
           const std::vector<match::Opening>& book_, const std::vector<uint32_t>& pending_,
           DataWriter& writer_)
        : spec(spec_), edition(edition_), book(book_), pending(pending_), writer(writer_) {}
    const GenerateSpec& spec;
    const EditionPtr& edition;
    const std::vector<match::Opening>& book;
    const std::vector<uint32_t>& pending;
    DataWriter& writer;
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex; // the report, the progress callback and the error
    GenerateReport report;
    std::string error;
};

// The start of game `game`: the book's opening it draws, then its random
// plies. False when the opening ends the game or does not fit the rules.
bool open_game(Position& pos, const Shared& s, std::mt19937_64& rng) {
    if (!s.book.empty()) {
        const auto& opening = s.book[rng() % s.book.size()];
        for (const std::string& text : opening.moves) {
            auto m = parse_legal_move(pos, text);
            if (!m) return false;
            pos.make_move(*m);
        }
    }
    const int plies = int(rng() % uint64_t(s.spec.random_plies + 1));
    for (int i = 0; i < plies; ++i) {
        if (pos.result().over()) return false;
        MoveList moves;
        generate_moves(pos, moves);
        if (moves.size() == 0) return false;
        pos.make_move(moves.moves[rng() % uint64_t(moves.size())]);
    }
    return !pos.result().over();
}

// One game's kept positions, with the game's result filled in.
Result<std::vector<TrainingPosition>> play(Engine& engine, const Shared& s, uint32_t game) {
    std::mt19937_64 rng(splitmix64(splitmix64(s.spec.seed) ^ splitmix64(uint64_t(game) + 1)));
    Position pos(s.edition);
    std::vector<TrainingPosition> kept;
    if (!open_game(pos, s, rng)) return kept;
    engine.new_game();
    SearchLimits limits;
    limits.nodes = s.spec.nodes;
    limits.depth = s.spec.depth;
    const int n = s.edition->size;
    for (int ply = 0; ply < s.spec.max_plies && !pos.result().over(); ++ply) {
        if (Status st = engine.set_position(pos); !st) return Error{st.error()};
        auto outcome = engine.search_to_end(limits);
        if (!outcome) return Error{outcome.error()};
        if (outcome->best.best == MOVE_NONE) break;
        const SearchInfo& info = outcome->last;
        if (info.mate == 0 && std::abs(info.score) < SCORE_LIMIT &&
            tune::classify(pos) == tune::PositionKind::QUIET) {
            TrainingPosition p;
            p.game = game;
            p.ply = uint16_t(std::min(pos.game_ply(), 0xffff));
            p.score = int16_t(info.score);
            p.side_to_move = pos.side_to_move();
            const Placement board = pos.placement();
            for (int sq = 0; sq < n * n; ++sq) p.pieces[sq] = board[sq];
            kept.push_back(p);
        }
        pos.make_move(outcome->best.best);
        for (Move m : outcome->best.chain) pos.make_move(m);
    }
    const GameResult r = pos.result();
    const Winner w = r.over() ? r.winner : Winner::DRAW;
    for (auto& p : kept)
        p.result = w == Winner::DRAW                                           ? 0
                   : (w == Winner::ATTACKERS) == (p.side_to_move == ATTACKERS) ? 1
                                                                               : -1;
    return kept;
}

// An engine as every game of `spec` is played with.
Status configure(Engine& engine, const GenerateSpec& spec) {
    Status st = engine.set_preset(spec.preset);
    if (st) st = engine.set_option("Threads", "1");
    if (st) st = engine.set_option("Hash", std::to_string(spec.hash_mb));
    if (st && !spec.eval_file.empty()) st = engine.set_option("EvalFile", spec.eval_file);
    if (st && spec.hand_made) st = engine.set_option("Use NNUE", "false");
    return st;
}

void worker(Shared& s, const std::function<void(int64_t, int64_t, uint64_t)>& progress) {
    Engine engine;
    Status st = configure(engine, s.spec);
    while (st && !s.failed) {
        const size_t i = s.next++;
        if (i >= s.pending.size()) break;
        auto kept = play(engine, s, s.pending[i]);
        if (!kept) {
            st = Error{"game " + std::to_string(s.pending[i]) + ": " + kept.error()};
            break;
        }
        if (st = s.writer.append_game(*kept); !st) break;
        std::lock_guard lock(s.mutex);
        ++s.report.games_played;
        s.report.positions_written += kept->size();
        if (progress)
            progress(s.report.games_played, int64_t(s.pending.size()), s.report.positions_written);
    }
    if (!st) {
        std::lock_guard lock(s.mutex);
        if (!s.failed.exchange(true)) s.error = st.error();
    }
}

} // namespace

std::string GenerateSpec::header_spec(uint64_t net) const {
    std::ostringstream out;
    out << "branan-nnue gen: preset=" << preset << " nodes=" << nodes << " depth=" << depth
        << " seed=" << seed << " random-plies=" << random_plies << " max-plies=" << max_plies
        << " hash=" << hash_mb;
    if (!book.empty()) out << " book-fnv=" << file_fnv(book);
    // The hand-made evaluation with the build's weights adds no key, so the
    // files made before these keys existed still resume.
    if (net != 0)
        out << " net=" << hex64(net);
    else if (!eval_file.empty())
        out << " weights-fnv=" << file_fnv(eval_file);
    return out.str();
}

Result<GenerateReport> generate(const GenerateSpec& spec, const std::string& path,
                                const std::function<void(int64_t, int64_t, uint64_t)>& progress) {
    if (spec.games < 1 || spec.games > int64_t(UINT32_MAX))
        return Error{"--games must be 1 to " + std::to_string(UINT32_MAX)};
    if ((spec.nodes == 0) == (spec.depth == 0)) return Error{"give a node count or a depth"};
    auto rules = preset_rules(spec.preset);
    if (!rules) return Error{rules.error()};
    auto edition = Edition::make(*rules);
    if (!edition) return Error{edition.error()};
    std::vector<match::Opening> book;
    if (!spec.book.empty()) {
        std::ifstream in(spec.book);
        if (!in) return Error{spec.book + ": cannot open"};
        auto read = match::read_openings(in, spec.book, "moves", *edition);
        if (!read) return Error{read.error()};
        book = std::move(*read);
    }
    if (spec.hand_made && !spec.eval_file.empty() && file_is_nnue(spec.eval_file))
        return Error{spec.eval_file + ": a net, but --hand-made asks for the hand-made evaluation"};
    Engine probe; // the evaluation's errors before the file is touched, and its net
    if (Status st = configure(probe, spec); !st) return Error{st.error()};
    DataHeader header;
    header.size = (*edition)->size;
    header.symmetric = symmetric(**edition);
    header.rules = print_rules(*rules);
    header.spec = spec.header_spec(probe.net_hash());
    DataWriter writer;
    if (Status st = writer.open(path, header); !st) return Error{st.error()};
    std::vector<uint32_t> pending;
    for (int64_t g = 0; g < spec.games; ++g)
        if (!writer.games().count(uint32_t(g))) pending.push_back(uint32_t(g));
    Shared shared(spec, *edition, book, pending, writer);
    shared.report.games_skipped = spec.games - int64_t(pending.size());
    std::vector<std::thread> threads;
    for (int t = 0; t < std::max(1, spec.threads); ++t)
        threads.emplace_back([&] { worker(shared, progress); });
    for (auto& t : threads) t.join();
    if (shared.failed) return Error{shared.error};
    shared.report.positions_in_file = writer.positions();
    return shared.report;
}

} // namespace branan::nnue
