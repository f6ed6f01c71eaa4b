"""The ML ops of keras.ops: ``do(name, x)`` against the library's native op.

Rows: each ML op on numpy and torch, float32, at 1e3 and 1e6 elements: a 1-D array of
normal values (both signs) for the activations and ``rsqrt`` (of ``|x| + 0.1``); rows
of 100 for ``softmax``/``log_softmax`` along the last axis, ``top_k`` (k = 10),
``moments`` (over the rows) and ``normalize``; int64 indices for ``one_hot`` (n/10
indices, 10 classes) and ``segment_sum`` (ids in [0, 100)); ``logdet`` of a stack of
10x10 matrices (1e3) and of one 1000x1000 matrix (1e6), diagonally dominant. The native
column is torch's own kernel (``torch.nn.functional``, ``torch.softmax``...) on torch;
numpy has no such kernels, so there it is the obvious numpy (scipy for erf and softmax)
expression of the same formula. The ratio is ``do`` over native; the goal is 1.3 or less.

How the figures hold still: one thread (``OMP_NUM_THREADS=1``,
``torch.set_num_threads(1)``); each round times ``do`` and native one right after the
other (interleaved, a block of calls of about 20 ms each), and the table gives the
median ratio over the rounds. Every ``do`` result is checked against the native one
first.

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
# how do() is called for the rows that take more than x
CALLS: dict[str, Callable] = {
    "top_k": lambda x: do("top_k", x, 10),
    "one_hot": lambda i: do("one_hot", i, 10),
    "moments": lambda x: do("moments", x, 1),
    "segment_sum": lambda d: do("segment_sum", d, _IDS_LIB[len(d)], num_segments=100),
}
_IDS: dict[int, np.ndarray] = {}  # segment ids by length, numpy
_IDS_LIB: dict[int, object] = {}  # the same, for the library being timed


def _input(name: str, size: int, rng: np.random.Generator) -> np.ndarray:
    x = rng.standard_normal(size).astype(np.float32) * 4
    if name == "rsqrt":
        return np.abs(x) + 0.1
    if name in ("softmax", "log_softmax", "top_k", "moments", "normalize"):
        return x.reshape(-1, 100)
    if name == "one_hot":
        return rng.integers(0, 10, size // 10)
    if name == "logdet":
        n = 10 if size == 1_000 else 1000
        m = x.reshape(-1, n, n) / n + np.eye(n, dtype=np.float32) * 4
        return m if size == 1_000 else m[0]
    if name == "segment_sum":
        _IDS[size] = rng.integers(0, 100, size)
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
    print("| op | library | size | native us | do us | do / native |")
    print("|---|---|---|---|---|---|")
    for name in args.only.split(",") if args.only else NUMPY:
        for lib, (natives, convert) in libraries.items():
            for size in (1_000, 1_000_000):
                x = _input(name, size, rng)
                if name == "segment_sum":
                    _IDS_LIB[size] = convert(_IDS[size])
                x = convert(x)
                t_n, t_d, r = _ratio(name, natives[name], x, rounds)
                flag = "" if r <= 1.3 else " (over 1.3)"
                print(f"| {name} | {lib} | {size:.0e} | {t_n * 1e6:.1f} | {t_d * 1e6:.1f} "
                      f"| {r:.2f}{flag} |", flush=True)


if __name__ == "__main__":
    main()
