#!/usr/bin/env bash
# The review's HTML page in a real browser (headless Chromium): a review of
# a real Copenhagen game is written, opened at one of its plies, and the page
# must load with no error or console message, show the graph, a board for
# every ply and the ply asked for. With BRANAN_SCREENSHOT=FILE.png it also
# keeps a screenshot (docs/images/review.png is made so).
#
#   review_page.sh BRANAN SOURCE_DIR WORK_DIR
set -euo pipefail
branan="$1" source_dir="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "review_page: $*" >&2; exit 1; }

chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || fail "no chromium (tools/branan setup installs it)"

game="$source_dir/tests/data/review/copenhagen-100.txt"
"$branan" review "$game" --depth 3 -o "$work/review.html" 2> "$work/review.err" ||
    fail "branan review failed: $(cat "$work/review.err")"

browse() { # extra chromium arguments...
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$work/profile" --enable-logging=stderr --v=0 "$@"
}
browse --dump-dom "file://$work/review.html#ply-40" > "$work/dom.html" 2> "$work/chromium.err" ||
    fail "chromium failed: $(tail -5 "$work/chromium.err")"

body=$(grep -o '<body[^>]*>' "$work/dom.html" || true)
[[ "$body" == *'data-ready="yes"'* ]] || fail "the page's script did not finish: $body"
[[ "$body" == *'data-errors="0"'* ]] || fail "the page reported errors: $body"
[[ "$body" == *'data-shown="40"'* ]] || fail "the page does not show ply 40: $body"
if grep -q "CONSOLE" "$work/chromium.err"; then
    grep "CONSOLE" "$work/chromium.err" >&2
    fail "console messages"
fi
grep -q 'id="graph"' "$work/dom.html" || fail "no graph"
boards=$(grep -o 'class="ply-board"' "$work/dom.html" | wc -l)
[ "$boards" -eq 100 ] || fail "$boards boards, not one for each of the 100 plies"
shown=$(grep -o '<div class="ply-board" id="board-40" data-ply="40">' "$work/dom.html" | wc -l)
[ "$shown" -eq 1 ] || fail "ply 40's board is not the one shown"
hidden=$(grep -o 'class="ply-board" id="board-[0-9]*" data-ply="[0-9]*" hidden' "$work/dom.html" | wc -l)
[ "$hidden" -eq 99 ] || fail "$hidden boards hidden, not 99"

if [ -n "${BRANAN_SCREENSHOT:-}" ]; then
    browse --hide-scrollbars --window-size=1150,1400 --screenshot="$BRANAN_SCREENSHOT" \
        "file://$work/review.html#ply-40" 2> /dev/null
    [ -s "$BRANAN_SCREENSHOT" ] || fail "no screenshot"
fi
echo "review_page: the page loads with no error, shows its graph, 100 boards and ply 40"
