#pragma once

// The learned evaluation's accumulators and forward pass (the net:
// nnue_net.h; the integers: docs/nnue.md#training-toolsnnuetrainpy).
//
// The first layer's sums (the accumulator) are kept one per ply of the
// search: a move's child is its parent's plus and minus the rows of the
// inputs the move changed (the piece leaving its square and arriving, each
// capture, the side to move), never a sum over the whole board except at
// the root. A ply's sums are made only when its position is evaluated
// (about half of the positions the search enters are not: the table's
// stored evaluation or a cut-off comes first), from the nearest ply above
// that has them.
// the root. Every width compiles it (the Position it reads is the width's).

#include <vector>

#include "nnue_net.h"
#include "position.h"
#include "value.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// Whether `net` can evaluate the edition's positions: its board size, and
// its piece planes (3 only for editions without OpenTafl's special pieces).
Status nnue_fits(const NnueNet& net, const Edition& edition);

class NnueStack {
  public:
    // A fitting net (nnue_fits), or nullptr: no learned evaluation.
    void set_net(const NnueNet* net);
    bool active() const { return net_ != nullptr; }

    // The root: the first layer summed over the whole board.
    void refresh(const Position& pos);
    // After pos.make_move: the child from its parent, by the move's changes.
    void push_move(const Position& pos);
    // After pos.make_null: the side to move's input flipped.
    void push_null();
    void pop();

    // The position at the top, side to move's view, in centi-soldiers.
    Value evaluate() const;
    // The top accumulator (for the tests: it equals a refresh).
    const int16_t* top() const;

  private:
    // What a ply changed from its parent: rows to add and to subtract (the
    // side to move's among them when it changed). A move that takes more
    // pieces than `sub` holds has its sums made at once instead.
    struct Change {
        int add[2];
        int sub[8];
        int adds = 0, subs = 0;
    };

    int16_t* slot(int depth) const { return acc_.data() + size_t(depth) * size_t(net_->l1); }
    void add(int16_t* acc, int input) const;
    void sub(int16_t* acc, int input) const;
    void note_side(Change& c, Side now);
    void apply(int depth) const;
    // Makes the sums of every ply down to the top that lacks them.
    void update() const;

    const NnueNet* net_ = nullptr;
    // The sums are a cache of the changes: made on demand by const readers.
    mutable std::vector<int16_t> acc_;
    mutable std::vector<uint8_t> summed_;
    std::vector<Change> change_;
    std::vector<Side> side_;
    int depth_ = 0;
};

// The net's evaluation of a position from scratch (no stack).
Value nnue_evaluate(const NnueNet& net, const Position& pos);

} // namespace BRANAN_BOARD_NS
} // namespace branan
