#pragma once

// Output files written whole or not at all: the text goes to a temporary
// file in the same folder, is flushed to disk (fsync), and is renamed over
// the destination. A run that fails or is killed before the rename leaves the
// destination as it was (at worst a stray temporary file beside it).

#include <string>
#include <string_view>

#include "types.h"

namespace branan {

// Whether `path` could be written: its folder exists and is writable and the
// path is not a folder. Checked before long work, so that a bad -o fails at
// once instead of after the fit.
Status check_writable(const std::string& path);

Status write_file_atomic(const std::string& path, std::string_view text);

} // namespace branan
