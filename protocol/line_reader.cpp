#include "line_reader.h"

#include <limits>

namespace branan {

// The buffer holds max_length + 1 characters and getline's terminating
// '\0': a line that fills it is longer than the limit.
LineReader::LineReader(std::istream& in, size_t max_length)
    : in_(in), max_length_(max_length), buffer_(max_length + 2) {}

LineReader::Status LineReader::next(std::string& line) {
    line.clear();
    if (!in_.good()) return Status::END;
    in_.getline(buffer_.data(), std::streamsize(buffer_.size()));
    const size_t got = size_t(in_.gcount());
    if (in_.bad()) return Status::END;
    if (in_.fail()) {
        if (in_.eof()) return Status::END; // end of input, nothing read
        // The buffer filled before a '\n': skip the rest of the line.
        in_.clear();
        in_.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
        return Status::TOO_LONG;
    }
    // gcount counts the '\n' that getline extracted and did not store.
    const size_t stored = in_.eof() ? got : got - 1;
    if (stored > max_length_) return Status::TOO_LONG;
    line.assign(buffer_.data(), stored);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return Status::LINE;
}

} // namespace branan
