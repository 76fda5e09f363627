#!/usr/bin/env bash
# The learned evaluation's pipeline end to end on a tiny scale: self-play
# data (branan-nnue gen), a net trained on it for a moment (train.py), then
# the net file's header read back, the same seed giving the same bytes (from
# the same games in another order), and the engine's integer evaluation
# (branan-nnue eval) equal to the trainer's integer pass and within 10
# centi-soldiers of its float net.
#   tests/nnue_smoke.sh BRANAN_NNUE SOURCE_DIR WORK_DIR
set -euo pipefail
nnue="$1" src="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
"$nnue" gen --preset brandubh --games 60 --nodes 800 --threads 2 \
    --book "$src/tools/openings/brandubh.txt" -o "$work/data.bin" 2>/dev/null
"$nnue" info "$work/data.bin"
train=(/usr/bin/python3 "$src/tools/nnue/train.py" "$work/data.bin" --epochs 2 --batch 128
       --l1 32 --l2 8 --seed 3 --device cpu)
status=0
"${train[@]}" -o "$work/net.nnue" --check-file "$work/trainer.txt" --check-count 200 \
    2> "$work/train.log" || status=$?
cat "$work/train.log" >&2
[ "$status" -eq 0 ]
# The same games with their records in reverse order, as another run of the
# threads could have written them: the same seed gives the same bytes.
/usr/bin/python3 - "$work/data.bin" "$work/reversed.bin" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
record, rules_len, spec_len = struct.unpack_from("<III", data, 12)
start = 32 + rules_len + spec_len
records = [data[i:i + record] for i in range(start, len(data), record)]
assert len(records) > 100 and len(records[-1]) == record, len(records)
open(sys.argv[2], "wb").write(data[:start] + b"".join(reversed(records)))
PY
"${train[@]/"$work/data.bin"/"$work/reversed.bin"}" -o "$work/again.nnue" 2>/dev/null
cmp "$work/net.nnue" "$work/again.nnue"
/usr/bin/python3 - "$work/net.nnue" "$work/train.log" <<'PY'
import re, struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"BRNNNET\0", "magic"
version, size, planes, l1, l2, nf, nfs, nr, scale = struct.unpack_from("<HBBHHHHHH", data, 8)
payload_len, digest, shift1, shift2, shift3, buckets = struct.unpack_from("<I8sBBBB", data, 24)
assert 7 <= shift1 <= 15 and 6 <= shift2 <= 15 and 6 <= shift3 <= 15, (shift1, shift2, shift3)
assert buckets == 2, buckets
assert (version, size, planes, l1, l2) == (3, 7, 3, 32, 8), (version, size, planes, l1, l2)
# The scale fitted to the data's results (--scale auto) is the one written.
fitted = re.search(r"scale auto: (\d+) centi-soldiers", open(sys.argv[2]).read())
assert fitted and int(fitted.group(1)) == scale and 10 <= scale <= 10000, (fitted, scale)
texts = data[40:40 + nf + nfs + nr].decode()
assert texts.startswith("Brandubh" + "pieces3+side"), texts
payload = data[40 + nf + nfs + nr:]
assert len(payload) == payload_len == (3 * 49 + 1) * 32 * 2 + 32 * 2 + 2 * (8 * 32 + 8 * 4 + 8 + 4)
h = 0xCBF29CE484222325
for byte in payload:
    h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
assert struct.pack("<Q", h) == digest, "hash"
print("net file ok:", len(data), "bytes")
PY
"$nnue" eval "$work/net.nnue" "$work/data.bin" --count 200 > "$work/engine.txt"
/usr/bin/python3 - "$work/trainer.txt" "$work/engine.txt" <<'PY'
import sys
trainer = [line.split() for line in open(sys.argv[1])]
engine = [line.split() for line in open(sys.argv[2])]
assert len(trainer) == len(engine) == 200, (len(trainer), len(engine))
worst = 0.0
for (i, integer, exact), (j, value) in zip(trainer, engine):
    assert i == j and integer == value, f"position {i}: trainer {integer}, engine {value}"
    worst = max(worst, abs(int(value) - float(exact)))
assert worst <= 10, f"the engine is {worst} centi-soldiers from the float net"
print(f"engine equals the trainer's integers on 200 positions; at most {worst:.1f} from the float net")
PY
