#include "default_nets.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace branan {

namespace {

struct ReadNet {
    NnueNetPtr net;
    Rules rules;
};

Result<ReadNet> read_embedded(const EmbeddedNet& embedded) {
    const std::string name =
        "the compiled-in net eval/nets/" + std::string(embedded.name) + ".nnue";
    auto net = read_nnue(std::string_view(reinterpret_cast<const char*>(embedded.bytes.data()),
                                          embedded.bytes.size()));
    if (!net) return Error{name + ": " + net.error()};
    // Compared as rules, not as text: a later build may print the same
    // rules with keys the net's build did not have.
    auto rules = parse_rules((*net)->rules);
    if (!rules) return Error{name + ": its rules do not read: " + rules.error()};
    return ReadNet{*net, *rules};
}

} // namespace

Result<NnueNetPtr> find_default_net(const Rules& rules, std::span<const EmbeddedNet> nets) {
    for (const EmbeddedNet& embedded : nets) {
        auto read = read_embedded(embedded);
        if (!read) return Error{read.error()};
        if (read->rules == rules) return read->net;
    }
    return NnueNetPtr{};
}

NnueNetPtr default_net(const Rules& rules) {
    static const std::vector<ReadNet> nets = [] {
        std::vector<ReadNet> out;
        for (const EmbeddedNet& embedded : embedded_nets()) {
            auto read = read_embedded(embedded);
            if (!read) {
                // Never reached by a tested build (tests/test_nnue.cpp).
                std::fprintf(stderr, "branan: %s\n", read.error().c_str());
                std::abort();
            }
            out.push_back(*read);
        }
        return out;
    }();
    for (const ReadNet& read : nets)
        if (read.rules == rules) return read.net;
    return nullptr;
}

} // namespace branan
