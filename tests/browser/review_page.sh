#!/usr/bin/env bash
# The review's HTML page in a real browser (headless Chromium): a review of
# a real Copenhagen game is written and opened
#   - at one of its plies by its address (#ply-40): the page must load with
#     no error, show the graph, a board for every ply, and that ply's board;
#   - through WebDriver (chromedriver, driven with curl), in a wide and a
#     narrow window: a click on a row of the moves, on a point of the graph
#     and on a critical moment must show that ply's board, and the browser's
#     console must stay empty.
# With BRANAN_SCREENSHOT=FILE.png it also keeps a screenshot.
#
#   review_page.sh BRANAN SOURCE_DIR WORK_DIR
set -euo pipefail
branan="$1" source_dir="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "review_page: $*" >&2; exit 1; }

chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || fail "no chromium (tools/branan setup installs it)"
command -v chromedriver > /dev/null || fail "no chromedriver (tools/branan setup installs it)"
command -v curl > /dev/null || fail "no curl (tools/branan setup installs it)"
# Chromium's flags on a machine with no display and no network.
FLAGS=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync)

game="$source_dir/tests/data/review/copenhagen-100.txt"
# The hand-made evaluation: with it this game has a critical moment to click
# (Copenhagen's net sees the defenders winning from early on, and no mistake).
"$branan" --option "Use NNUE=false" review "$game" --depth 3 -o "$work/review.html" \
    2> "$work/review.err" ||
    fail "branan review failed: $(cat "$work/review.err")"
page="file://$work/review.html"

# 1. The address opens a ply; the page's own error count stays 0.
timeout 120 "$chromium" "${FLAGS[@]}" --user-data-dir="$work/profile" --enable-logging=stderr \
    --v=0 --dump-dom "$page#ply-40" > "$work/dom.html" 2> "$work/chromium.err" ||
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
grep -q '<div class="ply-board" id="board-40" data-ply="40">' "$work/dom.html" ||
    fail "ply 40's board is not the one shown"
hidden=$(grep -o 'class="ply-board" id="board-[0-9]*" data-ply="[0-9]*" hidden' "$work/dom.html" | wc -l)
[ "$hidden" -eq 99 ] || fail "$hidden boards hidden, not 99"

# 2. Clicks, through WebDriver.
port=$((20000 + RANDOM % 20000))
chromedriver --port="$port" > "$work/chromedriver.log" 2>&1 &
driver=$!
trap 'kill "$driver" 2> /dev/null || true' EXIT
url="http://127.0.0.1:$port"
for _ in $(seq 100); do
    curl -s "$url/status" | grep -q '"ready":true' && break
    sleep 0.1
done
call() { # METHOD PATH [JSON]
    curl -s -X "$1" "$url$2" -H 'Content-Type: application/json' ${3:+-d "$3"}
}
value_of() { # a string value of the reply's JSON: KEY
    { grep -o "\"$1\":\"[^\"]*\"" || true; } | head -1 | cut -d'"' -f4
}
check_clicks() { # WIDTH,HEIGHT
    local args flags session reply element shown
    flags=$(printf '"%s",' "${FLAGS[@]}")
    args="[${flags}\"--window-size=$1\"]"
    reply=$(call POST /session "{\"capabilities\":{\"alwaysMatch\":{\"goog:loggingPrefs\":{\"browser\":\"ALL\"},\"goog:chromeOptions\":{\"binary\":\"$chromium\",\"args\":$args}}}}")
    session=$(value_of sessionId <<< "$reply")
    [ -n "$session" ] || fail "no WebDriver session: $reply"
    call POST "/session/$session/url" "{\"url\":\"$page\"}" > /dev/null
    for target in "#row-60" "circle[data-ply='70']" "figure.moment" "#row-3"; do
        reply=$(call POST "/session/$session/element" "{\"using\":\"css selector\",\"value\":\"$target\"}")
        element=$(value_of element-6066-11e4-a52e-4f735466cecf <<< "$reply")
        if [ -z "$element" ]; then
            [ "$target" = "figure.moment" ] && continue # a game without mistakes has none
            fail "window $1: no element $target: $reply"
        fi
        # A reader scrolls the moves to a row before clicking it; the browser's
        # own scroll must leave the row below the sticky header of the table.
        [[ "$target" == "#row-"* ]] && call POST "/session/$session/execute/sync" \
            "{\"script\":\"document.querySelector(arguments[0]).scrollIntoView();\",\"args\":[\"$target\"]}" > /dev/null
        reply=$(call POST "/session/$session/element/$element/click" '{}')
        [[ "$reply" == '{"value":null}' ]] || fail "window $1: click on $target: $reply"
        reply=$(call POST "/session/$session/execute/sync" "{\"script\":\"var e = document.querySelector(arguments[0]); var p = e.getAttribute('data-ply'); var shown = document.querySelectorAll('.ply-board:not([hidden])'); return [document.body.getAttribute('data-shown'), p, String(shown.length), shown.length ? shown[0].id : '', document.body.getAttribute('data-errors')].join(' ');\",\"args\":[\"$target\"]}")
        shown=$(value_of value <<< "$reply")
        read -r now ply visible id errors <<< "$shown"
        [ "$now" = "$ply" ] && [ "$visible" = 1 ] && [ "$id" = "board-$ply" ] && [ "$errors" = 0 ] ||
            fail "window $1: a click on $target shows '$shown' (shown ply, its ply, boards shown, the board, errors)"
    done
    reply=$(call POST "/session/$session/se/log" '{"type":"browser"}')
    [ "$reply" = '{"value":[]}' ] || fail "window $1: the console: $reply"
    call DELETE "/session/$session" > /dev/null
}
check_clicks 1150,1400
check_clicks 700,900

if [ -n "${BRANAN_SCREENSHOT:-}" ]; then
    timeout 120 "$chromium" "${FLAGS[@]}" --user-data-dir="$work/profile" --hide-scrollbars \
        --window-size=1150,1400 --screenshot="$BRANAN_SCREENSHOT" "$page#ply-40" 2> /dev/null
    [ -s "$BRANAN_SCREENSHOT" ] || fail "no screenshot"
fi
echo "review_page: the page loads with no error, shows its graph, 100 boards and ply 40; clicks show their plies"
