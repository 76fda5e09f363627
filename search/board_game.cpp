#include "board.h"

#include "perft.h"
#include "search.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {

class GameOnBoard final : public BoardGame {
  public:
    explicit GameOnBoard(EditionPtr edition) : edition_(edition), pos_(std::move(edition)) {
        keep_history();
    }

    Status set_game(const GameRecord& record) override {
        auto pos = Position::from_record(edition_, record);
        if (!pos) return Error{pos.error()};
        pos_ = std::move(*pos);
        keep_history();
        return {};
    }

    std::unique_ptr<SearchThread> make_thread(SearchContext& ctx, int id,
                                              History& history) const override {
        return std::make_unique<Worker>(ctx, id, pos_, keys_, windows_, history);
    }

    Move table_reply(const TranspositionTable& tt, Move move) const override {
        if (!is_legal(pos_, move)) return MOVE_NONE;
        Position p = pos_;
        p.make_move(move);
        bool found;
        const TTEntry* e = tt.probe(p.key(), found);
        if (!found) return MOVE_NONE;
        const Move reply = e->move(p.size());
        return reply && is_legal(p, reply) ? reply : MOVE_NONE;
    }

    Value evaluate(const EvalParams& params) const override {
        return branan::evaluate(pos_, params);
    }

    std::vector<std::pair<Move, uint64_t>> perft_divide(int depth) const override {
        Position p = pos_;
        return branan::perft_divide(p, depth);
    }

    int bits() const override { return BRANAN_BOARD_BITS; }

  private:
    // The keys and repetition windows of the game, for the path rules.
    void keep_history() {
        keys_.clear();
        windows_.clear();
        for (const StateInfo& st : pos_.states()) {
            keys_.push_back(repetition_key(st));
            windows_.push_back(st.repetition_window);
        }
    }

    EditionPtr edition_;
    Position pos_;
    std::vector<uint64_t> keys_;
    std::vector<int> windows_;
};

Result<std::unique_ptr<BoardGame>> make_game(const Rules& rules) {
    auto edition = Edition::make(rules);
    if (!edition) return Error{edition.error()};
    return std::unique_ptr<BoardGame>(std::make_unique<GameOnBoard>(*edition));
}

} // namespace

} // namespace BRANAN_BOARD_NS
} // namespace branan

namespace branan {

#define BRANAN_FACTORY_NAME(bits) make_board_game_##bits
#define BRANAN_FACTORY(bits) BRANAN_FACTORY_NAME(bits)
Result<std::unique_ptr<BoardGame>> BRANAN_FACTORY(BRANAN_BOARD_BITS)(const Rules& rules) {
    return BRANAN_BOARD_NS::make_game(rules);
}

} // namespace branan
