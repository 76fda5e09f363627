// libFuzzer target: hnefatafl.org's engine protocol (HTP, protocol/htp.h)
// over any commands a driver sends: board sizes, clocks, moves, undo, the
// board shown, generate_move at depth 2. A timed game's generate_move
// thinks on the clock (minutes): there it is left out, as fuzz_commands
// leaves out `go`. Every line goes through a real HtpSession; a reply that
// does not say what went wrong, a crash, a sanitizer report or a hang is a
// finding.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine.h"
#include "htp.h"
#include "text.h"

using namespace branan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static Engine engine; // reused: building one per input would dominate the run
    const std::string input(reinterpret_cast<const char*>(data), size);
    HtpOptions options;
    options.depth = 2;
    {
        HtpSession session(engine, options);
        bool timed = false;
        for (std::string_view line : split(input, '\n')) {
            const auto words = split_words(line);
            if (!words.empty() && words[0] == "generate_move" && timed) continue;
            auto reply = session.handle(line);
            if (reply && !reply->ok && reply->text.empty()) std::abort();
            if (reply && reply->ok && !words.empty() && words[0] == "time_settings")
                timed = words.size() > 1 && words[1] == "fischer";
            if (session.quit()) break;
        }
        if (session.final_status().empty()) std::abort();
    }
    (void)engine.set_preset("brandubh");
    return 0;
}
