# Sourced by tools/fuzz-smoke and tools/fuzz-long: the fuzz build and one
# target's run. Every target of fuzz/CMakeLists.txt is built (CMake target
# `fuzz`) and run: fuzz_NAME reads the seeds fuzz/corpus/NAME/ and the
# dictionary fuzz/dict/NAME.dict. A crash input, once fixed, is added to
# the seeds, so that every later run (the test run's smoke run too) replays
# it.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BRANAN_FUZZ_BUILD:-$ROOT/build-fuzz}"
JOBS="${BRANAN_JOBS:-$(nproc 2>/dev/null || echo 2)}"

# Builds the targets: in the build BRANAN_FUZZ_BUILD names (made with
# BRANAN_FUZZ=ON, as `tools/branan test` makes its sanitizer build), else in
# build-fuzz/ (clang, AddressSanitizer, libFuzzer's hooks in every library
# the targets link).
fuzz_build() {
    command -v clang++ >/dev/null || { log "clang++ not found: apt-get install clang libclang-rt-14-dev"; return 1; }
    if [ -z "${BRANAN_FUZZ_BUILD:-}" ]; then
        cmake -S "$ROOT" -B "$BUILD" \
            -DCMAKE_CXX_COMPILER=clang++ \
            -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            -DBRANAN_FUZZ=ON -DBRANAN_TESTS=OFF -DBRANAN_NATIVE=OFF \
            -DCMAKE_CXX_FLAGS="-fsanitize=address -fno-omit-frame-pointer" \
            -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address" >&2 || return 1
    fi
    cmake --build "$BUILD" -j "$JOBS" --target fuzz >&2
}

# The names (without fuzz_) of the targets the build made.
fuzz_targets() {
    local t
    for t in "$BUILD"/fuzz/fuzz_*; do
        [ -x "$t" ] && basename "${t#"$BUILD"/fuzz/fuzz_}"
    done
}

# Runs fuzz_NAME for SECONDS on CORPUS (new inputs go there; the committed
# seeds are read, never written), crashes to ARTIFACTS, the log to LOG;
# more libFuzzer flags may follow. Its status is libFuzzer's: 0 when
# nothing was found.
fuzz_run() { # name seconds corpus artifacts log [flags...]
    local name="$1" seconds="$2" corpus="$3" artifacts="$4" logfile="$5"
    shift 5
    local dict=()
    [ -f "$ROOT/fuzz/dict/$name.dict" ] && dict=(-dict="$ROOT/fuzz/dict/$name.dict")
    mkdir -p "$corpus" "$artifacts"
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
        "$BUILD/fuzz/fuzz_$name" -max_total_time="$seconds" -max_len=4096 -timeout=20 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "$@" \
        "$corpus" "$ROOT/fuzz/corpus/$name" 2>"$logfile"
}

# A figure of a finished run's log: runs (executions), cov (edges), ft
# (features), corpus (inputs), rss (MB).
fuzz_figure() { # log figure
    case "$2" in
    runs) awk '/stat::number_of_executed_units/ {print $2}' "$1" | tail -n 1 ;;
    rss) awk '/stat::peak_rss_mb/ {print $2}' "$1" | tail -n 1 ;;
    # The log holds the inputs' bytes too: read as text (-a).
    cov | ft) grep -aoE "$2: [0-9]+" "$1" | tail -n 1 | awk '{print $2}' ;;
    corpus) grep -aoE "corp: [0-9]+" "$1" | tail -n 1 | awk '{print $2}' ;;
    esac
}
