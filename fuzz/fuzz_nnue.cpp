// libFuzzer target: the learned evaluation's files, the net file
// (eval/nnue_net.h, which EvalFile reads) and the training data file
// (tools/nnue/training_data.h, which branan-nnue and the trainer read). The
// first byte picks the reader, the rest is the file. A reader either
// refuses with a message or gives a value: a net it accepts evaluates a
// position of its board size (incrementally too, equal to a fresh sum); a
// data header and record it accepts are written back as the same bytes.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "movegen.h"
#include "nnue.h"
#include "nnue/training_data.h"
#include "rules.h"

using namespace branan;

namespace {

// An edition of each size the seeds' nets have.
EditionPtr edition_of_size(int size) {
    static const auto make = [](const char* preset) {
        return *Edition::make(*preset_rules(preset));
    };
    static const EditionPtr brandubh = make("brandubh"), tablut = make("tablut"),
                            copenhagen = make("copenhagen");
    return size == 7 ? brandubh : size == 9 ? tablut : size == 11 ? copenhagen : nullptr;
}

void net(std::string_view bytes) {
    auto read = read_nnue(bytes);
    if (!read) {
        if (read.error().empty()) std::abort();
        return;
    }
    const NnueNet& n = **read;
    if (n.w1.size() != size_t(n.inputs()) * size_t(n.l1) ||
        n.b2.size() != size_t(n.buckets) * size_t(n.l2) || n.b3.size() != size_t(n.buckets))
        std::abort();
    const EditionPtr e = edition_of_size(n.size);
    if (!e || !nnue_fits(n, *e)) return;
    Position pos(e);
    NnueStack stack;
    stack.set_net(&n);
    stack.refresh(pos);
    MoveList moves;
    generate_moves(pos, moves);
    if (moves.empty()) return;
    pos.make_move(moves.moves[0]);
    stack.push_move(pos);
    if (stack.evaluate() != nnue_evaluate(n, pos)) std::abort();
}

void data(std::string_view bytes) {
    auto header = nnue::decode_header(bytes);
    if (!header) {
        if (header.error().empty()) std::abort();
        return;
    }
    const auto& [h, length] = *header;
    if (nnue::encode_header(h) != bytes.substr(0, length)) std::abort();
    const size_t record = nnue::record_bytes(h.size);
    for (size_t at = length; at + record <= bytes.size(); at += record) {
        auto p = nnue::decode_record(bytes.substr(at, record), h.size);
        if (!p) {
            if (p.error().empty()) std::abort();
            continue;
        }
        std::string again;
        nnue::append_record(*p, h.size, again);
        if (again != bytes.substr(at, record)) std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data_in, size_t size) {
    if (size == 0) return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data_in) + 1, size - 1);
    if (data_in[0] % 2 == 0)
        net(bytes);
    else
        data(bytes);
    return 0;
}
