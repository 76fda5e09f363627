// libFuzzer target: the OpenTafl engine protocol loop (protocol/otep.h)
// over any lines a host sends: rules strings, position records, clocks,
// moves, analysis requests. Searches run to depth 2 (OtepOptions::depth),
// so `play` and `analyze` answer at once. Any crash, sanitizer report, hang
// or output line that is not whole is a finding.

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "engine.h"
#include "line_reader.h"
#include "otep.h"

using namespace branan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static Engine engine; // reused: building one per input would dominate the run
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::ostringstream out;
    LineReader reader(in, 4096);
    OtepOptions options;
    options.depth = 2;
    run_otep(engine, options, "", reader, out);
    const std::string text = out.str();
    if (text.rfind("hello\n", 0) != 0) std::abort(); // the loop greets first
    if (text.back() != '\n' || text.find('\r') != std::string::npos) std::abort();
    (void)engine.set_preset("brandubh");
    return 0;
}
