#!/usr/bin/env bash
# The learned evaluation's pipeline end to end on a tiny scale: self-play
# data (branan-nnue gen), a net trained on it for a moment (train.py), then
# the net file's header read back, and the same seed giving the same bytes.
#   tests/nnue_smoke.sh BRANAN_NNUE SOURCE_DIR WORK_DIR
set -euo pipefail
nnue="$1" src="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
"$nnue" gen --preset brandubh --games 60 --nodes 800 --threads 2 \
    --book "$src/tools/openings/brandubh.txt" -o "$work/data.bin" 2>/dev/null
"$nnue" info "$work/data.bin"
train=(/usr/bin/python3 "$src/tools/nnue/train.py" "$work/data.bin" --epochs 2 --batch 128
       --l1 32 --l2 8 --seed 3 --device cpu)
"${train[@]}" -o "$work/net.nnue"
"${train[@]}" -o "$work/again.nnue" 2>/dev/null
cmp "$work/net.nnue" "$work/again.nnue"
/usr/bin/python3 - "$work/net.nnue" <<'PY'
import hashlib, struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"BRNNNET\0", "magic"
version, size, planes, l1, l2, nf, nfs, nr, scale = struct.unpack_from("<HBBHHHHHH", data, 8)
payload_len, digest = struct.unpack_from("<I8s", data, 24)
assert (version, size, planes, l1, l2, scale) == (1, 7, 3, 32, 8, 400), (version, size, planes, l1, l2, scale)
texts = data[40:40 + nf + nfs + nr].decode()
assert texts.startswith("Brandubh" + "pieces3+side"), texts
payload = data[40 + nf + nfs + nr:]
assert len(payload) == payload_len == (3 * 49 + 1) * 32 * 2 + 32 * 2 + 8 * 32 + 8 * 4 + 8 + 4
assert hashlib.sha256(payload).digest()[:8] == digest, "hash"
print("net file ok:", len(data), "bytes")
PY
