#include "book_command_line.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

#include "atomic_file.h"
#include "book.h"
#include "text.h"

namespace branan::book {

namespace {

const char* const USAGE =
    "usage: branan-book --preset NAME --count N --plies MIN-MAX --nodes N --margin CP --seed S\n"
    "                   [--target CP] [--threads T] [--candidates N] [--screen-nodes N] "
    "[--screen-margin CP]\n"
    "                   [--playout-nodes N] [--playout-plies N] [--hash MB] -o FILE\n";

template <typename T>
Status parse_number(const std::string& option, const std::string& text, T& out) {
    // The type's range, within what parse_integer reads.
    const int64_t lo =
        std::max<int64_t>(std::numeric_limits<T>::min(), std::numeric_limits<int64_t>::min());
    const uint64_t max =
        std::min<uint64_t>(std::numeric_limits<T>::max(), std::numeric_limits<int64_t>::max());
    auto v = parse_integer(text, lo, int64_t(max));
    if (!v) return Error{option + ": " + v.error()};
    out = T(*v);
    return {};
}

// "4-8" or "6".
Status parse_plies(const std::string& text, BookSpec& spec) {
    const size_t dash = text.find('-');
    if (dash == std::string::npos) {
        if (Status st = parse_number("--plies", text, spec.min_plies); !st) return st;
        spec.max_plies = spec.min_plies;
        return {};
    }
    if (Status st = parse_number("--plies", text.substr(0, dash), spec.min_plies); !st) return st;
    return parse_number("--plies", text.substr(dash + 1), spec.max_plies);
}

// Words with spaces or quotes quoted, so the header's command runs as shown.
std::string shell_word(const std::string& w) {
    if (!w.empty() && w.find_first_of(" \t'\"\\$`*?;&|<>()") == std::string::npos) return w;
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

struct Parsed {
    BookSpec spec;
    std::string output;
};

Result<Parsed> parse(const std::vector<std::string>& args) {
    Parsed r;
    bool have_preset = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& opt = args[i];
        if (i + 1 >= args.size()) return Error{opt + ": missing value (or unknown option)"};
        const std::string& val = args[++i];
        Status st;
        BookSpec& s = r.spec;
        if (opt == "--preset") {
            s.preset = val;
            have_preset = true;
        } else if (opt == "--count")
            st = parse_number(opt, val, s.count);
        else if (opt == "--plies")
            st = parse_plies(val, s);
        else if (opt == "--nodes")
            st = parse_number(opt, val, s.nodes);
        else if (opt == "--margin")
            st = parse_number(opt, val, s.margin_cp);
        else if (opt == "--target")
            st = parse_number(opt, val, s.target_cp);
        else if (opt == "--seed")
            st = parse_number(opt, val, s.seed);
        else if (opt == "--threads")
            st = parse_number(opt, val, s.threads);
        else if (opt == "--candidates")
            st = parse_number(opt, val, s.candidates);
        else if (opt == "--screen-nodes")
            st = parse_number(opt, val, s.screen_nodes);
        else if (opt == "--screen-margin")
            st = parse_number(opt, val, s.screen_margin_cp);
        else if (opt == "--playout-nodes")
            st = parse_number(opt, val, s.playout_nodes);
        else if (opt == "--playout-plies")
            st = parse_number(opt, val, s.playout_plies);
        else if (opt == "--hash")
            st = parse_number(opt, val, s.hash_mb);
        else if (opt == "-o" || opt == "--output")
            r.output = val;
        else
            return Error{"unknown option '" + opt + "'"};
        if (!st) return Error{st.error()};
    }
    if (!have_preset) return Error{"--preset: missing"};
    if (r.output.empty()) return Error{"-o: missing output file"};
    if (Status st = check_spec(r.spec); !st) return Error{st.error()};
    if (Status st = check_writable(r.output); !st) return Error{"-o: " + st.error()};
    return r;
}

} // namespace

int run(const std::vector<std::string>& args, std::ostream& err) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        err << USAGE;
        return args.empty() ? 2 : 0;
    }
    auto parsed = parse(args);
    if (!parsed) {
        err << "branan-book: " << parsed.error() << "\n" << USAGE;
        return 2;
    }
    std::string command = "branan-book";
    for (const std::string& a : args) {
        command += ' ';
        command += shell_word(a);
    }

    const BookSpec spec = parsed->spec.resolved();
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    double last = -1e9;
    auto progress = [&](const BookStats& st) {
        // Plain lines, at most one every 5 s: logs stay readable.
        if (seconds() - last < 5 && st.kept < spec.count) return;
        last = seconds();
        char line[200];
        std::snprintf(line, sizeof line,
                      "branan-book: %s: %lld kept of %d, %lld tried, %lld searched, %.0f s\n",
                      spec.preset.c_str(), (long long)st.kept, spec.count, (long long)st.tried,
                      (long long)st.searched, last);
        err << line << std::flush;
    };
    auto book = make_book(spec, progress);
    if (!book) {
        err << "branan-book: " << book.error() << "\n";
        return 2;
    }
    if (book->entries.empty()) {
        err << "branan-book: no candidate of " << book->stats.tried
            << " passed; nothing written (widen --margin or --plies)\n";
        return 1;
    }
    if (int(book->entries.size()) < spec.count)
        err << "branan-book: warning: only " << book->entries.size() << " of " << spec.count
            << " openings within " << spec.candidates << " candidates\n";
    if (Status st = write_file_atomic(parsed->output, format_book(*book, command)); !st) {
        err << "branan-book: " << st.error() << "\n";
        return EXIT_FAILURE_AT_RUN_TIME;
    }
    err << "branan-book: wrote " << book->entries.size() << " openings to " << parsed->output
        << "\n";
    return 0;
}

} // namespace branan::book
