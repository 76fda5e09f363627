#include "output.h"

namespace branan {

void LineWriter::line(std::string_view text) {
    std::string s;
    s.reserve(text.size() + 1);
    for (char c : text) s += (c == '\n' || c == '\r') ? ' ' : c;
    s += '\n';
    std::lock_guard lock(mutex_);
    out_.write(s.data(), std::streamsize(s.size()));
    out_.flush();
}

} // namespace branan
