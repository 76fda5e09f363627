#!/usr/bin/python3
"""Trains a net for Branan's learned evaluation from branan-nnue's data files
and writes it as a quantised net file (docs/nnue.md has both formats, the
loss and the scaling).

    tools/nnue/train.py DATA.bin [DATA2.bin ...] -o NET.nnue [--epochs N] ...

Runs on a CUDA GPU when there is one (--device to choose), else on the
CPU. Seeded: the same data, options and device give the same net.
"""

import argparse
import math
import struct
import sys
import time

import numpy as np
import torch

DATA_MAGIC = b"BRNNPOS\0"
DATA_VERSION = 1
DATA_HEADER_BYTES = 32
RECORD_FIXED_BYTES = 10

NET_MAGIC = b"BRNNNET\0"
NET_VERSION = 3

# The quantisation (docs/nnue.md): every layer's weights are fixed-point at
# 2^shift a unit, the shift chosen per layer as the largest its integers
# hold: the first layer's as int16 (its sums must stay inside int16 in every
# position), the later ones' as int8. The activations are 0..ACT_MAX in
# units of 2^-ACT_SHIFT (the float net clips at 127/128), as bytes.
ACT_SHIFT = 7
ACT_MAX = 127
MIN_SHIFT = 6
MAX_SHIFT = 15


def transform(t, s, n):
    """Image of square s under symmetry t, as tools/nnue/symmetry.cpp numbers them."""
    f, r = s % n, s // n
    if t & 4:
        f, r = r, f
    if t & 1:
        f = n - 1 - f
    if t & 2:
        r = n - 1 - r
    return r * n + f


class DataFile:
    """One training data file: its header and its records as arrays."""

    def __init__(self, path):
        with open(path, "rb") as f:
            head = f.read(DATA_HEADER_BYTES)
            if len(head) < DATA_HEADER_BYTES or head[:8] != DATA_MAGIC:
                raise ValueError(f"{path}: not a Branan training data file")
            version, size, flags, record, rules_len, spec_len = struct.unpack_from("<HBBIII", head, 8)
            if version != DATA_VERSION:
                raise ValueError(f"{path}: data version {version}, this trainer reads {DATA_VERSION}")
            if record != RECORD_FIXED_BYTES + (size * size + 1) // 2:
                raise ValueError(f"{path}: record size {record} does not fit a {size}x{size} board")
            self.rules = f.read(rules_len).decode()
            self.spec = f.read(spec_len).decode()
        self.path = path
        self.size = size
        self.symmetric = bool(flags & 1)
        offset = DATA_HEADER_BYTES + rules_len + spec_len
        dtype = np.dtype([("game", "<u4"), ("ply", "<u2"), ("score", "<i2"), ("stm", "u1"),
                          ("result", "u1"), ("squares", "u1", ((size * size + 1) // 2,))])
        raw = np.fromfile(path, dtype=np.uint8, offset=offset)
        whole = len(raw) // record * record
        rec = raw[:whole].view(dtype)
        self.game = rec["game"].astype(np.int64)
        self.ply = rec["ply"].astype(np.int64)
        self.score = rec["score"].astype(np.float32)
        self.stm = rec["stm"].astype(np.int64)
        self.result = rec["result"].astype(np.float32) / 2.0  # loss 0, draw 0.5, win 1
        packed = rec["squares"]
        board = np.empty((len(rec), packed.shape[1] * 2), dtype=np.uint8)
        board[:, 0::2] = packed & 15
        board[:, 1::2] = packed >> 4
        self.board = board[:, : size * size]
        if len(rec) and (self.board.max() > 7 or self.stm.max() > 1 or rec["result"].max() > 2):
            raise ValueError(f"{path}: a record out of range")


class Net(torch.nn.Module):
    """planes x n x n one-hot squares + side to move -> L1 -> L2 -> 1 (centi-soldiers).

    The first layer is a sum of the rows of the inputs that are set (an
    EmbeddingBag over their indices, as the engine's accumulator is): a
    position sets fewer than one input in ten. Row `inputs` pads the index
    lists and stays zero. The layers after it come in `buckets` stacks, one
    for each side to move when there are two."""

    def __init__(self, inputs, l1, l2, buckets):
        super().__init__()
        self.inputs = inputs
        self.l1 = torch.nn.EmbeddingBag(inputs + 1, l1, mode="sum", padding_idx=inputs)
        self.b1 = torch.nn.Parameter(torch.zeros(l1))
        with torch.no_grad():
            # The scale of a dense layer's default start over these inputs.
            bound = 1 / math.sqrt(inputs)
            self.l1.weight.uniform_(-bound, bound)
            self.l1.weight[inputs].zero_()
            self.b1.uniform_(-bound, bound)
        self.buckets, self.width2 = buckets, l2
        # Every bucket's hidden layer in one, bucket after bucket; the output
        # layer's row b is bucket b's.
        self.l2 = torch.nn.Linear(l1, buckets * l2)
        self.out = torch.nn.Linear(l2, buckets)

    def forward(self, idx, bucket):
        # The clipping is the quantised engine's: activations in 0..127/128.
        top = ACT_MAX / 2 ** ACT_SHIFT
        h = torch.clamp(self.l1(idx) + self.b1, 0.0, top)
        h = torch.clamp(self.l2(h), 0.0, top).view(-1, self.buckets, self.width2)
        h = h[torch.arange(len(bucket), device=h.device), bucket]
        return (h * self.out.weight[bucket]).sum(dim=1, keepdim=True) + self.out.bias[bucket][:, None]

    def first_weights(self):
        """The first layer as (l1, inputs), the way a dense layer holds it."""
        return self.l1.weight[: self.inputs].t()


def features(board, stm, planes, n, device):
    """The indices of the inputs that are set: one per (plane, square) of a
    piece, then the side to move's (1 = defenders), padded with `inputs`."""
    squares = n * n
    inputs = planes * squares + 1
    b = board.astype(np.int64)
    idx = np.where(b > 0, (b - 1) * squares + np.arange(squares), inputs)
    # The padding sorts last: keep as many columns as the fullest board needs.
    idx = np.sort(idx, axis=1)
    width = max(1, int((b > 0).sum(axis=1).max(initial=0)))
    side = np.where(np.asarray(stm) == 1, inputs - 1, inputs)[:, None]
    return torch.as_tensor(np.concatenate([idx[:, :width], side], axis=1), device=device)


def buckets_of(stm, buckets, device):
    """The bucket of each position: its side to move when there are two."""
    stm = np.asarray(stm, dtype=np.int64)
    return torch.as_tensor(stm if buckets == 2 else np.zeros_like(stm), device=device)


# The weights' bounds: what the integer layers hold. A square holds one
# piece at most, so the first layer's sum is at most its bias, a weight a
# square and the side to move's: within 250 units, its int16 shift is at
# least ACT_SHIFT (250 x 128 < 32768).
WEIGHT_LIMIT = 127 / 2 ** MIN_SHIFT


def l1_weight_limit(n):
    return 250 / (n * n + 2)


def clip_weights(net, n):
    with torch.no_grad():
        net.l1.weight.clamp_(-l1_weight_limit(n), l1_weight_limit(n))
        net.b1.clamp_(-l1_weight_limit(n), l1_weight_limit(n))
        net.l2.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
        net.out.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)


def quantised_eval(layers, x, bucket, scale):
    """The engine's integer forward pass, in centi-soldiers (numpy, for the check)."""
    (w1, b1, w2, b2, w3, b3), (shift1, shift2, shift3) = layers
    w1, b1, w2, b2, w3, b3 = (t.numpy().astype(np.int64) for t in (w1, b1, w2, b2, w3, b3))
    rows = np.vstack([w1.T, np.zeros((1, w1.shape[0]), dtype=np.int64)])  # the padding row last
    acc = rows[x].sum(axis=1) + b1
    h1 = np.clip(acc >> (shift1 - ACT_SHIFT), 0, ACT_MAX)
    buckets = len(b3)
    # In doubles for the BLAS's speed, exactly: every sum is below 2^53.
    products = (h1.astype(np.float64) @ w2.T.astype(np.float64)).astype(np.int64)
    h2 = np.clip((products + b2) >> shift2, 0, ACT_MAX).reshape(len(x), buckets, -1)
    h2 = h2[np.arange(len(x)), bucket]
    out = (h2 * w3.reshape(buckets, -1)[bucket]).sum(axis=1) + b3[bucket]
    # Rounded down, as the engine does.
    return (out * scale) >> (ACT_SHIFT + shift3)


def fitted_scale(score, result):
    """The k of sigmoid(score / k) that best predicts the results (least
    cross-entropy), searched on log k between 10 and 10000 centi-soldiers:
    the spread of this data's scores."""
    s = score.astype(np.float64)
    r = result.astype(np.float64)

    def loss(log_k):
        p = 1 / (1 + np.exp(-s / math.exp(log_k)))
        p = np.clip(p, 1e-9, 1 - 1e-9)
        return -np.mean(r * np.log(p) + (1 - r) * np.log(1 - p))

    lo, hi = math.log(10), math.log(10000)
    golden = (math.sqrt(5) - 1) / 2
    a, b = hi - golden * (hi - lo), lo + golden * (hi - lo)
    fa, fb = loss(a), loss(b)
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - golden * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + golden * (hi - lo)
            fb = loss(b)
    return int(round(math.exp((lo + hi) / 2)))


def main(argv):
    ap = argparse.ArgumentParser(description="Train a Branan net from branan-nnue data files.")
    ap.add_argument("data", nargs="+")
    ap.add_argument("-o", "--out", required=True, help="net file to write")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lr-decay", type=float, default=1.0,
                    help="the step size is multiplied by this after every epoch")
    ap.add_argument("--l1", type=int, default=256)
    ap.add_argument("--l2", type=int, default=32)
    ap.add_argument("--buckets", type=int, default=2, choices=(1, 2),
                    help="stacks of the layers after the first: 2, one for each side to move")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.7,
                    help="weight of the search score in the target (the rest: the result)")
    ap.add_argument("--scale", default="auto",
                    help="centi-soldiers per unit of the sigmoid that maps scores to expected "
                         "results, or auto: the one that best predicts the training games' results")
    ap.add_argument("--validation", type=float, default=0.1, help="share of games kept out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", default="auto", help="auto, cpu or cuda")
    ap.add_argument("--family", default="", help="the edition family named in the net's header")
    ap.add_argument("--max-seconds", type=float, default=0, help="stop after this long (0: no limit)")
    ap.add_argument("--model-out", default="",
                    help="also write the float model (PyTorch), to go on training it later")
    ap.add_argument("--model-in", default="",
                    help="start from a float model written by --model-out (same widths and board)")
    ap.add_argument("--check-file", default="",
                    help="write the integer and float evaluations of the first data file's first "
                         "--check-count positions, one line each (for branan-nnue eval)")
    ap.add_argument("--check-count", type=int, default=256)
    args = ap.parse_args(argv)

    files = [DataFile(p) for p in args.data]
    n = files[0].size
    for f in files:
        if f.size != n or f.rules != files[0].rules:
            raise SystemExit(f"train.py: {f.path} is another edition's data than {files[0].path}")
    symmetric = all(f.symmetric for f in files)
    board = np.concatenate([f.board for f in files])
    stm = np.concatenate([f.stm for f in files])
    score = np.concatenate([f.score for f in files])
    result = np.concatenate([f.result for f in files])
    # Games are numbered per file: keep a game's positions together.
    game = np.concatenate([f.game * len(files) + i for i, f in enumerate(files)])
    # A generator with several threads writes its games in the order they
    # end: by game and ply, the net depends on the games, not on that order.
    order = np.lexsort((np.concatenate([f.ply for f in files]), game))
    board, stm, score, result, game = (a[order] for a in (board, stm, score, result, game))
    if len(board) == 0:
        raise SystemExit("train.py: the data files hold no positions")
    planes = 3 if board.max() <= 3 else 7

    device = args.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(args.seed)
    # CUDA has no deterministic kernel for some of these steps: there the
    # run warns instead (the CPU run is the reproducible one).
    torch.use_deterministic_algorithms(True, warn_only=(device == "cuda"))
    rng = np.random.default_rng(args.seed)
    games = np.unique(game)
    held = rng.choice(games, size=int(len(games) * args.validation), replace=False)
    is_val = np.isin(game, held)
    train_idx, val_idx = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    if args.scale == "auto":
        args.scale = fitted_scale(score[train_idx], result[train_idx])
        print(f"train.py: scale auto: {args.scale} centi-soldiers a unit", file=sys.stderr)
    else:
        try:
            args.scale = int(args.scale)
        except ValueError:
            raise SystemExit(f"train.py: --scale {args.scale}: give a whole number or auto")
        if not 1 <= args.scale <= 65535:
            raise SystemExit(f"train.py: --scale {args.scale} is out of range (1..65535)")
    print(f"train.py: {len(board)} positions of {len(games)} games ({len(val_idx)} kept out), "
          f"{n}x{n}, {planes} planes, symmetries {'8' if symmetric else '1'}, device {device}",
          file=sys.stderr)

    perms = np.array([[transform(t, s, n) for s in range(n * n)] for t in range(8)], dtype=np.int64)
    inputs = planes * n * n + 1
    net = Net(inputs, args.l1, args.l2, args.buckets)
    if args.model_in:
        try:
            net.load_state_dict(torch.load(args.model_in, map_location="cpu"))
        except (OSError, RuntimeError) as e:
            raise SystemExit(f"train.py: {args.model_in}: not a model of these widths and board ({e})")
    net = net.to(device)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    schedule = torch.optim.lr_scheduler.ExponentialLR(opt, args.lr_decay)

    def batch_loss(idx, augment):
        b = board[idx]
        if augment and symmetric:
            t = rng.integers(0, 8, size=len(idx))
            b = np.take_along_axis(b, perms[t], axis=1)
        x = features(b, stm[idx], planes, n, device)
        target_score = torch.sigmoid(torch.as_tensor(score[idx], device=device) / args.scale)
        target = args.lam * target_score + (1 - args.lam) * torch.as_tensor(result[idx], device=device)
        # The net's output is in units of the sigmoid: times --scale, centi-soldiers.
        pred = torch.sigmoid(net(x, buckets_of(stm[idx], args.buckets, device)).squeeze(1))
        return torch.mean((pred - target) ** 2)

    start = time.time()
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(train_idx)
        net.train()
        total, batches = 0.0, 0
        for i in range(0, len(order), args.batch):
            loss = batch_loss(order[i:i + args.batch], True)
            opt.zero_grad()
            loss.backward()
            opt.step()
            clip_weights(net, n)
            total += loss.item()
            batches += 1
        schedule.step()
        net.eval()
        with torch.no_grad():
            val = [batch_loss(val_idx[i:i + args.batch], False).item() * len(val_idx[i:i + args.batch])
                   for i in range(0, len(val_idx), args.batch)]
        val_loss = sum(val) / max(1, len(val_idx))
        print(f"epoch {epoch}: train loss {total / max(1, batches):.6f}, validation loss {val_loss:.6f}, "
              f"{time.time() - start:.1f} s", file=sys.stderr)
        if args.max_seconds and time.time() - start > args.max_seconds:
            break

    family = args.family or files[0].rules.split(" name:")[-1].split(" ")[0]
    net = net.cpu()
    # How far the integers are from the float net, on (up to) 4096 kept-out positions.
    check = (val_idx if len(val_idx) else train_idx)[:4096]
    x = features(board[check], stm[check], planes, n, "cpu")
    bucket = buckets_of(stm[check], args.buckets, "cpu")
    with torch.no_grad():
        exact = net(x, bucket).squeeze(1).numpy() * args.scale
    layers = quantised(net, planes, n)
    approx = quantised_eval(layers, x.numpy(), bucket.numpy(), args.scale)
    print(f"train.py: quantised against float on {len(check)} positions: mean |difference| "
          f"{np.mean(np.abs(approx - exact)):.1f}, max {np.max(np.abs(approx - exact)):.1f} "
          f"centi-soldiers", file=sys.stderr)
    write_net(args.out, net, layers, n, planes, family, files[0].rules, args.scale)
    if args.model_out:
        torch.save(net.state_dict(), args.model_out)
    if args.check_file:
        count = min(args.check_count, len(files[0].board))
        x = features(files[0].board[:count], files[0].stm[:count], planes, n, "cpu")
        bucket = buckets_of(files[0].stm[:count], args.buckets, "cpu")
        with torch.no_grad():
            exact = net(x, bucket).squeeze(1).numpy() * args.scale
        approx = quantised_eval(layers, x.numpy(), bucket.numpy(), args.scale)
        with open(args.check_file, "w") as f:
            for i in range(count):
                f.write(f"{i} {int(approx[i])} {exact[i]:.2f}\n")
    print(f"train.py: wrote {args.out}", file=sys.stderr)


def weight_shift(weight):
    """The most fractional bits that keep every weight of a layer within int8."""
    largest = float(weight.detach().abs().max())
    shift = MIN_SHIFT
    while shift < MAX_SHIFT and round(largest * 2 ** (shift + 1)) <= 127:
        shift += 1
    return shift


def first_layer(net, planes, n):
    """The first layer as int16 at the largest shift whose sums stay inside
    int16 in every position (as the engine checks on loading)."""
    for shift in range(MAX_SHIFT, ACT_SHIFT - 1, -1):
        w1 = torch.round(net.first_weights().detach().double() * 2 ** shift)
        # Half an activation unit in the bias: the shift to the activations
        # then rounds to nearest.
        half = 2 ** (shift - ACT_SHIFT - 1) if shift > ACT_SHIFT else 0
        b1 = torch.round(net.b1.detach().double() * 2 ** shift) + half
        squares = w1[:, : planes * n * n].abs().reshape(-1, planes, n * n).amax(dim=1).sum(dim=1)
        bound = b1.abs() + w1[:, planes * n * n].abs() + squares
        if float(bound.max()) <= 32767:
            return w1.to(torch.int16), b1.to(torch.int16), shift
    raise SystemExit("train.py: the first layer's weights are too large for int16 sums")


def quantised(net, planes, n):
    """The integer layers the engine computes with and their shifts
    (docs/nnue.md)."""
    w1, b1, shift1 = first_layer(net, planes, n)
    shift2, shift3 = weight_shift(net.l2.weight), weight_shift(net.out.weight)
    w2 = torch.round(net.l2.weight.detach() * 2 ** shift2).clamp(-127, 127).to(torch.int8)
    # Half a unit in the bias: the engine's shift then rounds to nearest.
    b2 = torch.round(net.l2.bias.detach().double() * 2 ** (ACT_SHIFT + shift2)) + 2 ** (shift2 - 1)
    b2 = b2.clamp(-2 ** 31, 2 ** 31 - 1).to(torch.int32)
    w3 = torch.round(net.out.weight.detach().flatten() * 2 ** shift3).clamp(-127, 127).to(torch.int8)
    b3 = torch.round(net.out.bias.detach().double() * 2 ** (ACT_SHIFT + shift3))
    b3 = b3.clamp(-2 ** 31, 2 ** 31 - 1).to(torch.int32)
    return (w1, b1, w2, b2, w3, b3), (shift1, shift2, shift3)


def fnv1a(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def write_net(path, net, layers, n, planes, family, rules, scale):
    """The net file of `net`, quantised as `layers` (quantised())."""
    (w1, b1, w2, b2, w3, b3), shifts = layers
    payload = b"".join([
        w1.t().contiguous().numpy().astype("<i2").tobytes(),  # input-major: one row per input
        b1.numpy().astype("<i2").tobytes(),
        w2.contiguous().numpy().astype("i1").tobytes(),  # one row per hidden unit, bucket after bucket
        b2.numpy().astype("<i4").tobytes(),
        w3.contiguous().numpy().astype("i1").tobytes(),
        b3.numpy().astype("<i4").tobytes(),
    ])
    family_b, rules_b = family.encode(), rules.encode()
    feature_set = f"pieces{planes}+side".encode()
    digest = struct.pack("<Q", fnv1a(payload))
    head = NET_MAGIC + struct.pack("<HBBHHHHHH", NET_VERSION, n, planes, net.b1.numel(),
                                   net.width2, len(family_b), len(feature_set),
                                   len(rules_b), int(round(scale)))
    head += struct.pack("<I", len(payload)) + digest + struct.pack("<BBBB", *shifts, net.buckets)
    assert len(head) == 40
    with open(path, "wb") as f:
        f.write(head + family_b + feature_set + rules_b + payload)


if __name__ == "__main__":
    main(sys.argv[1:])
