# Sourced by tools/tune/generate and tools/tune/round: the opening book of an
# edition, tools/openings/<edition>.txt, when there is one.
#
#   book_path EDITION    the book's path, or nothing when there is none
#   book_size FILE       its openings (lines that are not blank or '#')
#   book_args FILE SEED  the branan-match -openings arguments that play it:
#                        file=FILE format=tfen|moves order=random (TFEN when
#                        the first opening has a '/', else a move list)
#
# branan-match takes the openings of a file in a shuffled order and starts
# over after the last one; with fixed-node engines an opening played again
# is the same game again, so the callers never ask for more game pairs than
# the book has openings.

book_path() {
    local root
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    local file="$root/tools/openings/$1.txt"
    if [ -f "$file" ]; then echo "$file"; fi
}

book_size() {
    grep -cv '^[[:space:]]*\(#.*\)\?$' "$1" || true
}

book_args() {
    local first format=moves
    first="$(grep -v '^[[:space:]]*\(#.*\)\?$' "$1" | head -n 1)"
    case "$first" in */*) format=tfen ;; esac
    echo "file=$1 format=$format order=random"
}
