#pragma once

// The nets compiled into the engine: every file eval/nets/<name>.nnue,
// written into default_nets.cpp in the build folder by eval/CMakeLists.txt
// (branan_embed_nets) when it configures, and again whenever a file is
// added, removed or changed. A net is the default learned evaluation of the
// rules it was trained on, the rules its header names (docs/nnue.md).

#include <span>
#include <string_view>

#include "nnue_net.h"
#include "rules.h"

namespace branan {

struct EmbeddedNet {
    std::string_view name; // the file's name without ".nnue"
    std::span<const unsigned char> bytes;
};

// Every file of eval/nets/, in the order of their names.
std::span<const EmbeddedNet> embedded_nets();

// The net of `nets` whose header names these rules, or nullptr; a net that
// does not read is an error naming it.
Result<NnueNetPtr> find_default_net(const Rules& rules, std::span<const EmbeddedNet> nets);
// The same over the compiled-in nets, each read once; nullptr where no net
// was trained on these rules (every compiled-in net reads: tests check it).
NnueNetPtr default_net(const Rules& rules);

} // namespace branan
