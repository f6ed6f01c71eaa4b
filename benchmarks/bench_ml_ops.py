"""The ML ops of keras.ops: ``do(name, x)`` against the library's native op.

Rows: each ML op on numpy and torch, float32, at 1e3 and 1e6 elements: a 1-D array of
normal values (both signs) for the activations and ``rsqrt`` (of ``|x| + 0.1``); rows
of 100 for ``softmax``/``log_softmax`` along the last axis, ``top_k`` (k = 10),
``moments`` (over the rows) and ``normalize``; int64 indices for ``one_hot`` (n/10
indices, 10 classes) and ``segment_sum`` (ids in [0, 100)); ``logdet`` of a stack of
10x10 matrices (1e3) and of one 1000x1000 matrix (1e6), diagonally dominant; the layer
ops ``layer_normalization``, ``rms_normalization`` and ``categorical_crossentropy`` (from
logits) on rows of 100, ``max_pool`` and ``average_pool`` (windows of 2) on channels-last
(batch, 100, 10). The native
column is torch's own kernel (``torch.nn.functional``, ``torch.softmax``...) on torch;
numpy has no such kernels, so there it is the obvious numpy (scipy for erf and softmax)
expression of the same formula. The ratio is ``do`` over native; the goal is 1.3 or less.

How the figures hold still: one thread (``OMP_NUM_THREADS=1``,
``torch.set_num_threads(1)``); each round times ``do`` and native one right after the
other (interleaved, a block of calls of about 20 ms each), and the table gives the
median ratio over the rounds. Every ``do`` result is checked against the native one
first.

Rows that cannot reach 1.3 for a structural reason carry a note (``NOTES``): the
native op is a constant-time view or a sub-microsecond call, so ``do``'s own fixed cost
(about 0.1 us for one argument, 0.3-0.5 us for three arguments or a keyword) and the
argument checks that keep numpy's semantics are over 30% of it; or the native expression
skips a check the op needs (segment ids out of range are dropped, numpy's
``ufunc.at`` would wrap the negative ones).

Usage::

    python benchmarks/bench_ml_ops.py            # about a minute
    python benchmarks/bench_ml_ops.py --quick    # fewer rounds
    python benchmarks/bench_ml_ops.py --only relu,top_k
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402
import scipy.special as sc  # noqa: E402

from dispatch import do  # noqa: E402

warnings.filterwarnings("ignore")

_SQRT_HALF = float(np.sqrt(0.5))


def _np_sigmoid(x: np.ndarray) -> np.ndarray:
    return sc.expit(x)


NUMPY: dict[str, Callable] = {
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.clip(x, 0, 6),
    "gelu": lambda x: 0.5 * x * (1 + sc.erf(x * np.float32(_SQRT_HALF))),
    "silu": lambda x: x * sc.expit(x),
    "elu": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))),
    "selu": lambda x: 1.0507009873554805 * np.where(
        x > 0, x, 1.6732632423543772 * np.expm1(np.minimum(x, 0))),
    "leaky_relu": lambda x: np.where(x >= 0, x, 0.2 * x),
    "log_sigmoid": lambda x: -np.logaddexp(0, -x),
    "hard_sigmoid": lambda x: np.clip(x + 3, 0, 6) / 6,
    "hard_silu": lambda x: x * (np.clip(x + 3, 0, 6) / 6),
    "softsign": lambda x: x / (1 + np.abs(x)),
    "softmax": lambda x: sc.softmax(x, axis=-1),
    "log_softmax": lambda x: sc.log_softmax(x, axis=-1),
    "glu": lambda x: (lambda a, b: a * sc.expit(b))(*np.split(x, 2, axis=-1)),
}


NUMPY.update({
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "top_k": lambda x: (lambda i: (np.take_along_axis(x, i, -1), i))(
        np.argsort(-x, axis=-1, kind="stable")[..., :10]),
    "one_hot": lambda i: (i[..., None] == np.arange(10)).astype(np.float32),
    "moments": lambda x: (x.mean(axis=1), x.var(axis=1)),
    "normalize": lambda x: x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-7),
    "logdet": lambda x: np.linalg.slogdet(x)[1],
    "segment_sum": lambda d: np.bincount(_IDS[len(d)], d, minlength=100).astype(d.dtype),
})


def _np_sparsemax(x: np.ndarray) -> np.ndarray:
    zs = -np.sort(-x, axis=-1)
    cs = np.cumsum(zs, axis=-1)
    support = 1 + np.arange(1, x.shape[-1] + 1, dtype=x.dtype) * zs > cs
    k = support.sum(-1, keepdims=True)
    tau = (np.where(support, zs, 0).sum(-1, keepdims=True) - 1) / k.astype(x.dtype)
    return np.maximum(x - tau, 0)


def _np_in_top_k(p: np.ndarray) -> np.ndarray:
    t = _TARGETS[p.size]
    at = np.take_along_axis(p, t[:, None], axis=-1)
    return (t >= 0) & (t < p.shape[-1]) & ((p > at).sum(-1) < 5) & (at[:, 0] == at[:, 0])


def _np_scatter_update(x: np.ndarray) -> np.ndarray:
    out = x.copy()
    out[tuple(_SCATTER[x.size].T)] = _SCATTER_VALUES[x.size]
    return out


def _np_slice_update(x: np.ndarray) -> np.ndarray:
    out = x.copy()
    out[1:1 + x.shape[0] // 2, 10:60] = _UPDATES[x.size]
    return out


# the later ML ops (the second table of docs/vocabulary.md's "ML ops"); numpy has none of
# them, so the native column is the obvious numpy expression
NUMPY.update({
    "hard_tanh": lambda x: np.clip(x, -1, 1),
    "hard_shrink": lambda x: np.where(np.abs(x) > 0.5, x, 0),
    "soft_shrink": lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0)),
    "tanh_shrink": lambda x: x - np.tanh(x),
    "sparse_plus": lambda x: np.where(x <= -1, 0, np.where(x < 1, (x + 1) ** 2 / 4, x)),
    "sparse_sigmoid": lambda x: np.clip((x + 1) / 2, 0, 1),
    "squareplus": lambda x: (x + np.sqrt(x * x + 4)) / 2,
    "sparsemax": _np_sparsemax,
    "swish": lambda x: x * sc.expit(x),
    "hard_swish": lambda x: x * (np.clip(x + 3, 0, 6) / 6),
    "segment_min": lambda d: (lambda o: (np.minimum.at(o, _IDS[len(d)], d), o)[1])(
        np.full(100, np.inf, d.dtype)),
    "segment_prod": lambda d: (lambda o: (np.multiply.at(o, _IDS[len(d)], d), o)[1])(
        np.ones(100, d.dtype)),
    "in_top_k": _np_in_top_k,
    "multi_hot": lambda i: (i[..., None] == np.arange(10)).any(1).astype(np.float32),
    "slice": lambda x: x[1:1 + x.shape[0] // 2, 10:60],
    "slice_update": _np_slice_update,
    "scatter_update": _np_scatter_update,
    "saturate_cast": lambda x: np.clip(x, 0, 255).astype(np.uint8),
    "view": lambda x: x.view(np.int32),
    "psnr": lambda x: 20 * np.log10(4.0) - 10 * np.log10(np.mean(np.square(x - _OTHER[x.size]))),
    "extract_sequences": lambda x: np.lib.stride_tricks.sliding_window_view(x, 100)[::50],
    **{w: (lambda m, w=w: getattr(np, w)(int(m))) for w in
       ("bartlett", "blackman", "hamming", "hanning")},
    "kaiser": lambda m: np.kaiser(int(m), 5.0),
})
_WINDOWS = ("bartlett", "blackman", "hamming", "hanning", "kaiser")
_LIB = ["numpy"]  # the library being timed (the windows take no array)
_TARGETS: dict[int, object] = {}  # in_top_k's targets by prediction size (numpy, library)
_SCATTER: dict[int, object] = {}  # scatter_update's indices by input size
_SCATTER_VALUES: dict[int, object] = {}
_UPDATES: dict[int, object] = {}  # slice_update's block by input size
_OTHER: dict[int, object] = {}  # psnr's second image by size
def _np_layer_norm(x: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    return centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + 1e-7)


# the layer ops (docs/vocabulary.md, "Neural-network layers"): rows of 100 for the
# normalizations and the loss (from logits, against 0.01 everywhere), channels-last
# (batch, 100, 10) for the pooling (windows of 2)
NUMPY.update({
    "layer_normalization": _np_layer_norm,
    "rms_normalization": lambda x: x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-7),
    "categorical_crossentropy": lambda x: -np.sum(0.01 * sc.log_softmax(x, axis=-1), axis=-1),
    "max_pool": lambda x: x.reshape(x.shape[0], 50, 2, 10).max(axis=2),
    "average_pool": lambda x: x.reshape(x.shape[0], 50, 2, 10).mean(axis=2),
})
_TARGETS: dict[tuple, object] = {}  # the loss's targets by shape, for the library timed


def _targets(x):
    key = (type(x), tuple(x.shape))
    if key not in _TARGETS:
        _TARGETS[key] = do("full_like", x, 0.01)
    return _TARGETS[key]


# how do() is called for the rows that take more than x
CALLS: dict[str, Callable] = {
    "top_k": lambda x: do("top_k", x, 10),
    "one_hot": lambda i: do("one_hot", i, 10),
    "moments": lambda x: do("moments", x, 1),
    "segment_sum": lambda d: do("segment_sum", d, _IDS_LIB[len(d)], num_segments=100),
    "segment_min": lambda d: do("segment_min", d, _IDS_LIB[len(d)], num_segments=100),
    "segment_prod": lambda d: do("segment_prod", d, _IDS_LIB[len(d)], num_segments=100),
    "in_top_k": lambda p: do("in_top_k", _TARGETS[_size(p)], p, 5),
    "multi_hot": lambda i: do("multi_hot", i, 10),
    "slice": lambda x: do("slice", x, (1, 10), (x.shape[0] // 2, 50)),
    "slice_update": lambda x: do("slice_update", x, (1, 10), _UPDATES[_size(x)]),
    "scatter_update": lambda x: do("scatter_update", x, _SCATTER[_size(x)],
                                   _SCATTER_VALUES[_size(x)]),
    "saturate_cast": lambda x: do("saturate_cast", x, "uint8"),
    "view": lambda x: do("view", x, "int32"),
    "psnr": lambda x: do("psnr", x, _OTHER[_size(x)], 4.0),
    "extract_sequences": lambda x: do("extract_sequences", x, 100, 50),
    **{w: (lambda m, w=w: do(w, int(m), like=_LIB[0])) for w in
       ("bartlett", "blackman", "hamming", "hanning")},
    "kaiser": lambda m: do("kaiser", int(m), 5.0, like=_LIB[0]),
    "categorical_crossentropy": lambda x: do("categorical_crossentropy", _targets(x), x,
                                             from_logits=True),
    "max_pool": lambda x: do("max_pool", x, 2),
    "average_pool": lambda x: do("average_pool", x, 2),
}


def _size(x) -> int:
    return x.numel() if hasattr(x, "numel") else x.size
_IDS: dict[int, np.ndarray] = {}  # segment ids by length, numpy
_IDS_LIB: dict[int, object] = {}  # the same, for the library being timed


def _input(name: str, size: int, rng: np.random.Generator) -> np.ndarray:
    x = rng.standard_normal(size).astype(np.float32) * 4
    if name == "rsqrt":
        return np.abs(x) + 0.1
    if name in ("softmax", "log_softmax", "top_k", "moments", "normalize", "sparsemax",
                "slice", "slice_update", "in_top_k"):
        x = x.reshape(-1, 100)
        if name == "slice_update":
            _UPDATES[size] = rng.standard_normal((x.shape[0] // 2, 50)).astype(np.float32)
        if name == "in_top_k":
            _TARGETS[size] = rng.integers(0, 100, x.shape[0])
        return x
    if name in _WINDOWS:
        return np.array(size)
    if name == "multi_hot":
        return rng.integers(0, 10, (size // 40, 4))
    if name == "saturate_cast":
        return x * 40
    if name == "scatter_update":
        x = x.reshape(-1, 100)
        _SCATTER[size] = np.stack([rng.permutation(x.shape[0])[: x.shape[0] // 10],
                                   rng.integers(0, 100, x.shape[0] // 10)], axis=1)
        _SCATTER_VALUES[size] = rng.standard_normal(x.shape[0] // 10).astype(np.float32)
        return x
    if name == "psnr":
        _OTHER[size] = x + rng.standard_normal(size).astype(np.float32) * 0.1
    if name in ("max_pool", "average_pool"):
        return x.reshape(-1, 100, 10)
    if name in ("layer_normalization", "rms_normalization", "categorical_crossentropy"):
        return x.reshape(-1, 100)
    if name == "one_hot":
        return rng.integers(0, 10, size // 10)
    if name == "logdet":
        n = 10 if size == 1_000 else 1000
        m = x.reshape(-1, n, n) / n + np.eye(n, dtype=np.float32) * 4
        return m if size == 1_000 else m[0]
    if name in ("segment_sum", "segment_min", "segment_prod"):
        _IDS[size] = rng.integers(0, 100, size)
        if name == "segment_prod":  # products of about 1e4 factors each, near 1
            return (1 + x / 4e3).astype(np.float32)
    return x


def _torch_native() -> dict[str, Callable]:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    return {
        "relu": F.relu, "relu6": F.relu6, "gelu": F.gelu, "silu": F.silu, "elu": F.elu,
        "selu": F.selu, "leaky_relu": lambda x: F.leaky_relu(x, 0.2),
        "log_sigmoid": F.logsigmoid, "hard_sigmoid": F.hardsigmoid, "hard_silu": F.hardswish,
        "softsign": F.softsign, "softmax": lambda x: torch.softmax(x, -1),
        "log_softmax": lambda x: torch.log_softmax(x, -1), "glu": lambda x: F.glu(x, -1),
        "rsqrt": torch.rsqrt, "top_k": lambda x: tuple(torch.topk(x, 10)),
        "one_hot": lambda i: F.one_hot(i, 10).to(torch.float32),
        "moments": lambda x: torch.var_mean(x, dim=1, correction=0)[::-1],
        "normalize": lambda x: F.normalize(x, dim=-1, eps=1e-7), "logdet": torch.logdet,
        "segment_sum": lambda d: torch.zeros(100, dtype=d.dtype).index_add_(
            0, _IDS_LIB[len(d)], d),
        # the later ops: torch's kernels where it has them, else the torch expression
        "hard_tanh": F.hardtanh, "hard_shrink": F.hardshrink, "soft_shrink": F.softshrink,
        "tanh_shrink": F.tanhshrink, "swish": F.silu, "hard_swish": F.hardswish,
        "sparse_plus": lambda x: torch.where(x <= -1, 0, torch.where(x < 1, (x + 1) ** 2 / 4,
                                                                       x)),
        "sparse_sigmoid": lambda x: torch.clamp((x + 1) / 2, 0, 1),
        "squareplus": lambda x: (x + torch.sqrt(x * x + 4)) / 2,
        "sparsemax": lambda x: _torch_sparsemax(torch, x),
        "segment_min": lambda d: torch.full((100,), torch.inf, dtype=d.dtype).scatter_reduce_(
            0, _IDS_LIB[len(d)], d, "amin"),
        "segment_prod": lambda d: torch.ones(100, dtype=d.dtype).scatter_reduce_(
            0, _IDS_LIB[len(d)], d, "prod"),
        "in_top_k": lambda p: _torch_in_top_k(p),
        "multi_hot": lambda i: (i[..., None] == torch.arange(10)).any(1).to(torch.float32),
        "slice": lambda x: x[1:1 + x.shape[0] // 2, 10:60],
        "slice_update": lambda x: _torch_slice_update(x),
        "scatter_update": lambda x: x.index_put(tuple(_SCATTER[x.numel()].T),
                                                _SCATTER_VALUES[x.numel()]),
        "saturate_cast": lambda x: torch.clamp(x, 0, 255).to(torch.uint8),
        "view": lambda x: x.view(torch.int32),
        "psnr": lambda x: 20 * np.log10(4.0) - 10 * torch.log10(torch.mean(torch.square(
            x - _OTHER[x.numel()]))),
        "extract_sequences": lambda x: x.unfold(-1, 100, 50),
        "bartlett": lambda m: torch.bartlett_window(int(m), periodic=False),
        "blackman": lambda m: torch.blackman_window(int(m), periodic=False),
        "hamming": lambda m: torch.hamming_window(int(m), periodic=False),
        "hanning": lambda m: torch.hann_window(int(m), periodic=False),
        "kaiser": lambda m: torch.kaiser_window(int(m), periodic=False, beta=5.0),
        "layer_normalization": lambda x: F.layer_norm(x, (100,), eps=1e-7),
        "rms_normalization": lambda x: F.rms_norm(x, (100,), eps=1e-7),
        "categorical_crossentropy": lambda x: F.cross_entropy(x, _targets(x),
                                                              reduction="none"),
        "max_pool": lambda x: F.max_pool1d(x.movedim(-1, 1), 2).movedim(1, -1),
        "average_pool": lambda x: F.avg_pool1d(x.movedim(-1, 1), 2).movedim(1, -1),
    }


def _torch_sparsemax(torch, x):
    zs = torch.sort(x, dim=-1, descending=True).values
    cs = zs.cumsum(-1)
    support = 1 + torch.arange(1, x.shape[-1] + 1, dtype=x.dtype) * zs > cs
    k = support.sum(-1, keepdim=True).to(x.dtype)
    tau = (torch.where(support, zs, 0).sum(-1, keepdim=True) - 1) / k
    return torch.clamp(x - tau, min=0)


def _torch_in_top_k(p):
    t = _TARGETS[p.numel()]
    at = p.gather(-1, t[:, None])
    return (t >= 0) & (t < p.shape[-1]) & ((p > at).sum(-1) < 5) & (at[:, 0] == at[:, 0])


def _torch_slice_update(x):
    out = x.clone()
    out[1:1 + x.shape[0] // 2, 10:60] = _UPDATES[x.numel()]
    return out


# the rows over 1.3 for a structural reason, by (op, library) or (op, library, size)
NOTES: dict[tuple, str] = {
    ("slice", "numpy"): "native: a 0.2 us view; do's 3-argument call and the bounds check",
    ("slice", "torch"): "do's 3-argument call (0.4 us) and the bounds check",
    ("view", "numpy"): "native: a 0.2 us view",
    ("view", "torch"): "native: a 0.5 us view",
    ("extract_sequences", "torch"): "native: a 0.9 us view (unfold)",
    ("slice_update", "numpy", 1_000): "native: 0.8 us; do's 3-argument call and the check",
    ("segment_prod", "numpy", 1_000): "the id range check (a max over the ids), not in native",
    ("segment_prod", "torch", 1_000): "do's keyword call and the argument checks (4 us op)",
}


def _block(fn: Callable, x, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn(x)
    return (time.perf_counter() - t) / n


def _ratio(name: str, native: Callable, x, rounds: int) -> tuple[float, float, float]:
    ours = CALLS.get(name, lambda a: do(name, a))
    got, want = ours(x), native(x)
    pairs = zip(*(r if isinstance(r, tuple) else (r,) for r in (got, want)), strict=True)
    for g, w in pairs:
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype.kind == w.dtype.kind, (name, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=name)
    per = _block(native, x, 3)
    n = max(1, int(0.02 / max(per, 1e-9)))
    ratios, t_native, t_do = [], [], []
    for _ in range(rounds):
        a = _block(native, x, n)
        b = _block(ours, x, n)
        ratios.append(b / a)
        t_native.append(a)
        t_do.append(b)
    return statistics.median(t_native), statistics.median(t_do), statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--only", default="", help="comma-separated op names (default: all)")
    args = parser.parse_args()
    rounds = 5 if args.quick else 15
    rng = np.random.default_rng(0)
    libraries = {"numpy": (NUMPY, lambda a: a)}
    try:
        import torch

        libraries["torch"] = (_torch_native(), torch.from_numpy)
    except ImportError:
        print("torch is not installed: numpy only", file=sys.stderr)
    print("| op | library | size | native us | do us | do / native | note |")
    print("|---|---|---|---|---|---|---|")
    for name in args.only.split(",") if args.only else NUMPY:
        for lib, (natives, convert) in libraries.items():
            for size in (1_000, 1_000_000):
                _LIB[0] = lib
                x = _input(name, size, rng)
                if name in ("segment_sum", "segment_min", "segment_prod"):
                    _IDS_LIB[size] = convert(_IDS[size])
                for extra in (_TARGETS, _SCATTER, _SCATTER_VALUES, _UPDATES, _OTHER):
                    if size in extra and isinstance(extra[size], np.ndarray):
                        extra[size] = convert(extra[size])
                x = convert(x) if name not in _WINDOWS else x
                t_n, t_d, r = _ratio(name, natives[name], x, rounds)
                flag = "" if r <= 1.3 else " (over 1.3)"
                note = NOTES.get((name, lib, size), NOTES.get((name, lib), "")) if flag else ""
                print(f"| {name} | {lib} | {size:.0e} | {t_n * 1e6:.1f} | {t_d * 1e6:.1f} "
                      f"| {r:.2f}{flag} | {note} |", flush=True)


if __name__ == "__main__":
    main()
