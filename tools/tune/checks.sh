# Sourced by tools/tune/round, sprt and final: their argument checks. Each
# failing check names what is wrong, prefixed with the script's name ($WHO),
# and exits 2 before anything is written.
#
#   need_tools PATH...        each an executable (else: tools/branan build)
#   need_whole_numbers VAR... each variable's value is 0, 1, 2, ...
#   need_decimals VAR...      each variable's value is a decimal (0.005, 1e-3),
#                             or empty; the range is the tool's to check
#   need_switches VAR...      each variable's value is 0 or 1
#   need_edition BIN EDITION  BIN knows the preset EDITION
#   need_file WHAT PATH       PATH is a file (WHAT names it in the message)
#   need_empty_dir DIR        DIR does not exist or is empty
#   abs_path PATH             PATH from the root (the scripts change folders)

need_tools() {
    local tool
    for tool in "$@"; do
        [ -x "$tool" ] || { echo "$WHO: $tool is missing (tools/branan build)" >&2; exit 2; }
    done
}

need_whole_numbers() {
    local n
    for n in "$@"; do
        [[ "${!n}" =~ ^[0-9]+$ ]] || { echo "$WHO: $n='${!n}' is not a whole number" >&2; exit 2; }
    done
}

need_decimals() {
    local n
    for n in "$@"; do
        [[ -z "${!n}" || "${!n}" =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]] ||
            { echo "$WHO: $n='${!n}' is not a decimal number" >&2; exit 2; }
    done
}

need_switches() {
    local n
    for n in "$@"; do
        [[ "${!n}" =~ ^[01]$ ]] || { echo "$WHO: $n='${!n}' is not 0 or 1" >&2; exit 2; }
    done
}

need_edition() {
    "$1" --variant "$2" perft 1 >/dev/null 2>&1 || { echo "$WHO: unknown edition '$2'" >&2; exit 2; }
}

need_file() {
    [ -f "$2" ] || { echo "$WHO: $1: no such file" >&2; exit 2; }
}

need_empty_dir() {
    if [ -e "$1" ] && [ -n "$(ls -A "$1" 2>/dev/null)" ]; then
        echo "$WHO: $1 is not empty (another OUT, or remove it)" >&2
        exit 2
    fi
}

abs_path() {
    echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}
