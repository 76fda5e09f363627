#include "otep.h"

namespace branan {

bool otep_available() {
    return false;
}

void run_otep(Engine&, const std::string&, LineReader&, std::ostream&) {}

} // namespace branan
