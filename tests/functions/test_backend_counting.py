"""Counting methods of the backend method list (bincount_fixed, batched_bincount,
histogram1d, searchsorted_batched, quantile_last, nonzero_static) on every
backend, against numpy references."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from conftest import assert_close, case, params, to_backend, to_np

from dispatch import do

rng = np.random.default_rng(11)


# ---------------------------------------------------------------- references


def ref_bincount(x, weights, bins, x_sorted=False):
    keep = (x >= 0) & (x < bins)
    w = None if weights is None else weights[keep]
    out = np.bincount(x[keep], w, minlength=bins)[:bins]
    if weights is None:
        return out.astype(np.int64)
    return out.astype(np.int64 if weights.dtype == bool else weights.dtype)


def ref_batched_bincount(x, weights, bins):
    batch = max(x.shape[0], 1 if weights is None else weights.shape[0])
    return np.stack([
        ref_bincount(x[min(b, x.shape[0] - 1)],
                     None if weights is None else weights[min(b, weights.shape[0] - 1)], bins)
        for b in range(batch)
    ])


def ref_histogram(values, weights, edges):
    batch = max(values.shape[0], edges.shape[0], 1 if weights is None else weights.shape[0])
    rows = []
    for b in range(batch):
        w = None if weights is None else weights[min(b, weights.shape[0] - 1)]
        h, _ = np.histogram(values[min(b, values.shape[0] - 1)], edges[min(b, edges.shape[0] - 1)],
                            weights=w)
        rows.append(h.astype(np.int64 if w is None else w.dtype))
    return np.stack(rows)


def ref_searchsorted(seq, vals, side="left", dtype="int32"):
    if seq.ndim == 1:
        return np.searchsorted(seq, vals, side=side).astype(dtype)
    lead = np.broadcast_shapes(seq.shape[:-1], vals.shape[:-1])
    rows = int(np.prod(lead))
    s = np.broadcast_to(seq, (*lead, seq.shape[-1])).reshape(rows, seq.shape[-1])
    v = np.broadcast_to(vals, (*lead, vals.shape[-1])).reshape(rows, vals.shape[-1])
    out = np.stack([np.searchsorted(a, b, side=side) for a, b in zip(s, v, strict=True)])
    return out.reshape(*lead, vals.shape[-1]).astype(dtype)


def ref_quantile(x, q):
    out = np.quantile(x, q, axis=-1)
    return out.astype(x.dtype) if x.dtype.kind == "f" else out


def ref_nonzero(values, length=None, fill_value=-1):
    out = np.argwhere(values)
    if length is None:
        return out
    if len(out) >= length:
        return out[:length]
    return np.concatenate([out, np.full((length - len(out), values.ndim), fill_value)])


# ---------------------------------------------------------------- cases

X = rng.integers(0, 6, 40)
X_OUT = np.concatenate([X, [6, 9, -1, -3]])  # out of range: dropped
W = rng.standard_normal(40)
W_OUT = rng.standard_normal(44)
BINCOUNT = [
    case("bincount_fixed", X, None, 6, _ref=ref_bincount),
    case("bincount_fixed", X, W, 6, _ref=ref_bincount),
    case("bincount_fixed", X, W.astype(np.float32), 8, _ref=ref_bincount),
    case("bincount_fixed", X, rng.integers(-3, 4, 40), 6, _ref=ref_bincount),
    case("bincount_fixed", X, W > 0, 6, _ref=ref_bincount),
    case("bincount_fixed", X_OUT, None, 6, _ref=ref_bincount),
    case("bincount_fixed", X_OUT, W_OUT, 4, _ref=ref_bincount),
    case("bincount_fixed", np.sort(X), W, 6, True, _ref=ref_bincount),
    case("bincount_fixed", X.astype(np.int32), None, 6, _ref=ref_bincount),
    case("bincount_fixed", X[:0], None, 3, _ref=ref_bincount),
    case("bincount_fixed", X[:0], W[:0], 3, _ref=ref_bincount),
    case("bincount_fixed", X, None, 0, _ref=ref_bincount),
]
XB = rng.integers(-1, 7, (3, 20))
WB = rng.standard_normal((3, 20))
BATCHED = [
    case("batched_bincount", XB, None, 6, _ref=ref_batched_bincount),
    case("batched_bincount", XB, WB, 6, _ref=ref_batched_bincount),
    case("batched_bincount", XB[:1], WB, 5, _ref=ref_batched_bincount),
    case("batched_bincount", XB, WB[:1].astype(np.float32), 7, _ref=ref_batched_bincount),
    case("batched_bincount", XB[:, :0], None, 2, _ref=ref_batched_bincount),
]
VALUES = rng.uniform(-1, 5, (2, 30))
VALUES[0, :3] = [4.0, 0.0, 2.0]  # exactly on edges, the last one included
EDGES = np.array([[0.0, 1.0, 2.0, 3.5, 4.0], [-2.0, 0.0, 0.5, 1.0, 6.0]])
HIST = [
    case("histogram1d", VALUES, rng.random((2, 30)), EDGES, _ref=ref_histogram),
    case("histogram1d", VALUES, None, EDGES, _ref=ref_histogram),
    case("histogram1d", VALUES, rng.random((2, 30)).astype(np.float32), EDGES[:1],
         _ref=ref_histogram),
    case("histogram1d", VALUES[:1], np.ones((1, 30)), EDGES, _ref=ref_histogram),
    case("histogram1d", VALUES[:, :0], np.ones((2, 0)), EDGES, _ref=ref_histogram),
]
SEQ = np.sort(rng.integers(0, 10, (2, 3, 8)), axis=-1).astype(np.float64)
SEARCH = [
    case("searchsorted_batched", SEQ[0, 0], np.array([-1.0, 3.0, 3.5, 20.0]),
         _ref=ref_searchsorted),
    case("searchsorted_batched", SEQ, rng.integers(-1, 11, (2, 3, 5)).astype(np.float64),
         side="right", _ref=ref_searchsorted),
    case("searchsorted_batched", SEQ, rng.integers(-1, 11, (2, 3, 5)).astype(np.float64),
         "left", "int64", _ref=ref_searchsorted),
    case("searchsorted_batched", SEQ[:1], rng.integers(0, 10, (2, 3, 4)).astype(np.float64),
         _ref=ref_searchsorted),
    case("searchsorted_batched", SEQ[0].astype(np.int64), rng.integers(0, 10, (3, 0)),
         _ref=ref_searchsorted),
]
XQ = rng.standard_normal((3, 4, 9))
QUANTILE = [
    case("quantile_last", XQ, [0.0, 0.25, 0.5, 0.9, 1.0], _ref=ref_quantile),
    case("quantile_last", XQ, 0.3, _ref=ref_quantile),
    case("quantile_last", XQ[0, 0], np.array([0.1, 0.7]), _ref=ref_quantile),
    case("quantile_last", XQ.astype(np.float32), [0.5], _ref=ref_quantile),
    case("quantile_last", rng.integers(0, 50, (4, 10)), (0.33, 0.5), _ref=ref_quantile),
    case("quantile_last", XQ[..., :1], [0.2, 0.8], _ref=ref_quantile),
]
NZ = rng.random((4, 5)) > 0.6
NONZERO = [
    case("nonzero_static", NZ, _ref=ref_nonzero),
    case("nonzero_static", NZ, length=20, _ref=ref_nonzero),
    case("nonzero_static", NZ, length=3, fill_value=0, _ref=ref_nonzero),
    case("nonzero_static", rng.integers(0, 2, (2, 3, 2)), 15, -7, _ref=ref_nonzero),
    case("nonzero_static", np.zeros(4), length=2, _ref=ref_nonzero),
    case("nonzero_static", np.zeros((0, 3)), length=2, _ref=ref_nonzero),
]
CASES = BINCOUNT + BATCHED + HIST + SEARCH + QUANTILE + NONZERO


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_matches_numpy(backend, name, c):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(BINCOUNT[1:2] + HIST[:1] + QUANTILE[:1]))
def test_inputs_not_mutated(backend, name, c):
    c.run_not_mutated(backend)


def test_bincount_large_matches_numpy(backend):
    x = rng.integers(0, 1000, 50_000)
    w = rng.random(50_000)
    out = to_np(do("bincount_fixed", *to_backend((x, w), backend), 1000))
    assert_close(out, np.bincount(x, w, minlength=1000))


def test_native_kernels_match_composed(backend):
    """The native kernels of the tables (their ``bincount_fixed`` and
    ``searchsorted_batched`` entries, which live with each library's translations)
    agree with numpy."""
    table = importlib.import_module(f"dispatch.translations.{backend}").TABLE
    ran = False
    for name in ("bincount_fixed", "searchsorted_batched"):
        kernel = table.get(name)
        if not callable(kernel):
            continue
        ran = True
        for c in {"bincount_fixed": BINCOUNT, "searchsorted_batched": SEARCH}[name]:
            args = to_backend(c.args, backend)
            kwargs = to_backend(c.kwargs, backend)
            assert_close(to_np(kernel(*args, **kwargs)), c.ref(*c.args, **c.kwargs))
    if not ran:
        pytest.skip(f"no native counting kernels written for {backend}")


JIT_CASES = [BINCOUNT[6], BATCHED[1], HIST[0], SEARCH[1], QUANTILE[0], NONZERO[1]]


@pytest.mark.parametrize(("name", "c"), params(JIT_CASES))
def test_under_jax_jit(name, c):
    jax = pytest.importorskip("jax")
    args = to_backend(c.args, "jax")
    arrays = [k for k, a in enumerate(args) if hasattr(a, "shape")]

    def f(*arrs):
        full = list(args)
        for k, a in zip(arrays, arrs, strict=True):
            full[k] = a
        return do(c.name, *full, **c.kwargs)

    out = jax.jit(f)(*[args[k] for k in arrays])
    assert_close(to_np(out), c.ref(*c.args, **c.kwargs))
