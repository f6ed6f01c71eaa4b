"""The neural-network layer ops of keras.ops (docs/vocabulary.md, "Neural-network
layers") on every array library.

Each op is checked against a float64 reference written here from the op's
definition, one output element at a time (Python loops and ``math``), never
against a library's own implementation; then the numpy path is cross-checked once
against torch's native kernels (``torch.nn.functional``). float32 and float64 keep
their dtype; layouts are keras's (channels last unless said otherwise).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from conftest import to_backend, to_np, usable_backends

from dispatch import do

BACKENDS = [b for b in ("numpy", "torch", "jax", "tensorflow", "dask") if b in usable_backends()]
TOL = {"float32": (2e-5, 2e-6), "float64": (1e-12, 1e-13)}
RNG = np.random.default_rng(19)


def _check(result, ref: np.ndarray, dtype: str, backend: str) -> None:
    got = to_np(result)
    assert got.dtype == np.dtype(dtype), f"{backend}: dtype {got.dtype}, expected {dtype}"
    assert got.shape == ref.shape, f"{backend}: shape {got.shape}, expected {ref.shape}"
    rtol, atol = TOL[dtype]
    np.testing.assert_allclose(got.astype(float), ref, rtol=rtol, atol=atol)


def _b(x: np.ndarray, backend: str, dtype: str | None = None):
    return to_backend(x if dtype is None else x.astype(dtype), backend)


X3 = RNG.normal(size=(2, 7, 3)) * 3 + 0.5  # (batch, length, channels)
X4 = RNG.normal(size=(2, 5, 6, 3)) * 2  # (batch, h, w, channels)

# ---------------------------------------------------------------- normalizations


def _bn_ref(x, mean, var, axis, offset, scale, eps):
    out = np.empty(x.shape)
    for idx in np.ndindex(x.shape):
        c = idx[axis]
        v = (x[idx] - mean[c]) / math.sqrt(var[c] + eps)
        out[idx] = v * (1.0 if scale is None else scale[c]) + (0.0 if offset is None
                                                              else offset[c])
    return out


@pytest.mark.parametrize("axis", [-1, 1])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_batch_normalization(backend: str, dtype: str, axis: int) -> None:
    x = X4.astype(dtype)
    c = x.shape[axis]
    mean, var = RNG.normal(size=c), RNG.uniform(0.5, 2.0, size=c)
    offset, scale = RNG.normal(size=c), RNG.normal(size=c)
    ps = [p.astype(dtype) for p in (mean, var, offset, scale)]
    ref = _bn_ref(x.astype(float), *(p.astype(float) for p in ps[:2]), axis,
                  ps[2].astype(float), ps[3].astype(float), 1e-3)
    got = do("batch_normalization", _b(x, backend), *(_b(p, backend) for p in ps[:2]), axis,
             offset=_b(ps[2], backend), scale=_b(ps[3], backend))
    _check(got, ref, dtype, backend)
    ref = _bn_ref(x.astype(float), ps[0].astype(float), ps[1].astype(float), axis, None,
                  None, 0.1)
    got = do("batch_normalization", _b(x, backend), _b(ps[0], backend), _b(ps[1], backend),
             axis, epsilon=0.1)
    _check(got, ref, dtype, backend)


def _ln_ref(x, axes, gamma, beta, eps, rms=False):
    out = np.empty(x.shape)
    keep = [d for d in range(x.ndim) if d not in axes]
    for outer in np.ndindex(*(x.shape[d] for d in keep)):
        sel = [slice(None)] * x.ndim
        for d, i in zip(keep, outer, strict=True):
            sel[d] = i
        block = x[tuple(sel)]
        vals = block.ravel().tolist()
        if rms:
            denom = math.sqrt(math.fsum(v * v for v in vals) / len(vals) + eps)
            res = block / denom
        else:
            m = math.fsum(vals) / len(vals)
            var = math.fsum((v - m) ** 2 for v in vals) / len(vals)
            res = (block - m) / math.sqrt(var + eps)
        if gamma is not None:
            res = res * gamma
        if beta is not None:
            res = res + beta
        out[tuple(sel)] = res
    return out


@pytest.mark.parametrize("params", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_layer_normalization(backend: str, dtype: str, params: bool) -> None:
    x = X4.astype(dtype)
    gamma = RNG.normal(size=3).astype(dtype) if params else None
    beta = RNG.normal(size=3).astype(dtype) if params else None
    ref = _ln_ref(x.astype(float), [3], None if gamma is None else gamma.astype(float),
                  None if beta is None else beta.astype(float), 1e-7)
    kw = {} if not params else {"gamma": _b(gamma, backend), "beta": _b(beta, backend)}
    _check(do("layer_normalization", _b(x, backend), **kw), ref, dtype, backend)
    # two axes, not the last: gamma holds the values of the normalized axes
    g2 = RNG.normal(size=(5, 6)).astype(dtype)
    ref = _ln_ref(x.astype(float), [1, 2], g2.astype(float), None, 1e-3)
    _check(do("layer_normalization", _b(x, backend), gamma=_b(g2, backend), axis=(1, 2),
              epsilon=1e-3), ref, dtype, backend)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_rms_normalization(backend: str, dtype: str) -> None:
    x = X4.astype(dtype)
    scale = RNG.normal(size=3).astype(dtype)
    ref = _ln_ref(x.astype(float), [3], scale.astype(float), None, 1e-7, rms=True)
    _check(do("rms_normalization", _b(x, backend), scale=_b(scale, backend)), ref, dtype,
           backend)
    _check(do("rms_normalization", _b(x, backend)),
           _ln_ref(x.astype(float), [3], None, None, 1e-7, rms=True), dtype, backend)
    ref = _ln_ref(x.astype(float), [1], None, None, 0.5, rms=True)
    _check(do("rms_normalization", _b(x, backend), axis=1, epsilon=0.5), ref, dtype, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_normalizations_compute_integers_in_float32(backend: str) -> None:
    x = np.array([[1, 2, 6], [0, -3, 3]])
    _check(do("layer_normalization", _b(x, backend)),
           _ln_ref(x.astype(float), [1], None, None, 1e-7), "float32", backend)


# ---------------------------------------------------------------- cross-entropy losses

EPS = 1e-7


def _clip(p: float) -> float:
    return min(max(p, EPS), 1 - EPS)


def _log_sigmoid(z: float) -> float:
    return -math.log1p(math.exp(-z)) if z >= 0 else z - math.log1p(math.exp(z))


def _bce_ref(t, p, logits):
    out = np.empty(t.shape)
    for idx in np.ndindex(t.shape):
        tv, pv = float(t[idx]), float(p[idx])
        if logits:  # -t log(sigmoid(z)) - (1 - t) log(sigmoid(-z)), no clipping
            out[idx] = -(tv * _log_sigmoid(pv) + (1 - tv) * _log_sigmoid(-pv))
        else:
            out[idx] = -(tv * math.log(_clip(pv)) + (1 - tv) * math.log(_clip(1 - pv)))
    return out


def _log_probs_row(row, logits):
    if logits:
        m = max(row)
        lse = m + math.log(math.fsum(math.exp(v - m) for v in row))
        return [v - lse for v in row]
    total = math.fsum(row)
    return [math.log(_clip(v / total)) for v in row]


def _cce_ref(t, p, logits, axis):
    t, p = np.moveaxis(t, axis, -1), np.moveaxis(p, axis, -1)
    out = np.empty(t.shape[:-1])
    for idx in np.ndindex(out.shape):
        lp = _log_probs_row(p[idx].tolist(), logits)
        out[idx] = -math.fsum(tv * lv for tv, lv in zip(t[idx].tolist(), lp, strict=True))
    return out


def _scce_ref(t, p, logits, axis):
    p = np.moveaxis(p, axis, -1)
    out = np.empty(t.shape)
    for idx in np.ndindex(t.shape):
        c = int(t[idx])
        out[idx] = -_log_probs_row(p[idx].tolist(), logits)[c] if 0 <= c < p.shape[-1] else 0.0
    return out


LOGITS = np.array([[-40.0, -3.0, 0.0, 0.5], [2.0, 7.5, -0.25, 30.0], [1.0, 1.0, -1.0, 0.0]])
PROBS = np.array([[0.0, 0.2, 0.5, 1.0], [0.9, 0.05, 0.3, 0.999], [0.25, 0.25, 0.25, 0.25]])
TARGET = np.array([[0.0, 1.0, 0.5, 1.0], [1.0, 0.0, 0.25, 0.0], [0.0, 0.0, 1.0, 0.0]])


@pytest.mark.parametrize("from_logits", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_binary_crossentropy(backend: str, dtype: str, from_logits: bool) -> None:
    out = (LOGITS if from_logits else PROBS).astype(dtype)
    t = TARGET.astype(dtype)
    ref = _bce_ref(t.astype(float), out.astype(float), from_logits)
    _check(do("binary_crossentropy", _b(t, backend), _b(out, backend), from_logits=from_logits),
           ref, dtype, backend)


@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("from_logits", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_categorical_crossentropy(backend: str, dtype: str, from_logits: bool,
                                  axis: int) -> None:
    out = (LOGITS if from_logits else PROBS + 0.01).astype(dtype)
    t = TARGET.astype(dtype)
    ref = _cce_ref(t.astype(float), out.astype(float), from_logits, axis)
    _check(do("categorical_crossentropy", _b(t, backend), _b(out, backend),
              from_logits=from_logits, axis=axis), ref, dtype, backend)


@pytest.mark.parametrize("from_logits", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_sparse_categorical_crossentropy(backend: str, dtype: str, from_logits: bool) -> None:
    out = (LOGITS if from_logits else PROBS + 0.01).astype(dtype)
    t = np.array([3, 0, 1])
    ref = _scce_ref(t, out.astype(float), from_logits, -1)
    _check(do("sparse_categorical_crossentropy", _b(t, backend), _b(out, backend),
              from_logits=from_logits), ref, dtype, backend)
    # a trailing axis of length 1 is dropped; an index out of range gives 0
    t2 = np.array([[2], [4], [-1]])
    ref = _scce_ref(t2[:, 0], out.astype(float), from_logits, -1)
    _check(do("sparse_categorical_crossentropy", _b(t2, backend), _b(out, backend),
              from_logits=from_logits), ref, dtype, backend)
    # the class axis first: out is (classes, batch)
    ref = _scce_ref(np.array([1, 2, 0, 1]), out.astype(float), from_logits, 0)
    _check(do("sparse_categorical_crossentropy", _b(np.array([1, 2, 0, 1]), backend),
              _b(out, backend), from_logits=from_logits, axis=0), ref, dtype, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_crossentropy_shape_mismatch_raises(backend: str) -> None:
    with pytest.raises(ValueError, match="categorical_crossentropy: target and output must "
                                         "have the same shape"):
        do("categorical_crossentropy", _b(TARGET[:2], backend), _b(PROBS, backend))


# ---------------------------------------------------------------- pooling


def _geometry(n, k, s, padding):
    """Window starts of one axis, from the definition of 'valid' and 'same'."""
    if padding == "valid":
        return [i * s for i in range((n - k) // s + 1)] if n >= k else []
    out = -(-n // s)
    before = max((out - 1) * s + k - n, 0) // 2
    return [i * s - before for i in range(out)]


def _pool_ref(x, pool, strides, padding, how, channels_first=False):
    if channels_first:
        x = np.moveaxis(x, 1, -1)
    spatial = x.shape[1:-1]
    starts = [_geometry(n, k, s, padding) for n, k, s in zip(spatial, pool, strides,
                                                             strict=True)]
    out = np.empty((x.shape[0], *(len(s) for s in starts), x.shape[-1]))
    for b, c in itertools.product(range(x.shape[0]), range(x.shape[-1])):
        for pos in itertools.product(*(range(len(s)) for s in starts)):
            vals = [float(x[(b, *cell, c)])
                    for cell in itertools.product(*(range(st[p], st[p] + k) for st, p, k
                                                    in zip(starts, pos, pool, strict=True)))
                    if all(0 <= i < n for i, n in zip(cell, spatial, strict=True))]
            out[(b, *pos, c)] = max(vals) if how == "max" else math.fsum(vals) / len(vals)
    return np.moveaxis(out, -1, 1) if channels_first else out


POOLS = [  # (input, pool_size, strides, padding)
    (X3, 2, None, "valid"),
    (X3, 3, 2, "same"),
    (X3, 2, 1, "same"),
    (X4, (2, 3), None, "valid"),
    (X4, 3, (2, 1), "same"),
    (X4, (2, 2), 2, "same"),
]


@pytest.mark.parametrize("case", range(len(POOLS)))
@pytest.mark.parametrize("name", ["max_pool", "average_pool"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_pooling(backend: str, dtype: str, name: str, case: int) -> None:
    x, pool, strides, padding = POOLS[case]
    d = x.ndim - 2
    ps = (pool,) * d if isinstance(pool, int) else pool
    ss = ps if strides is None else ((strides,) * d if isinstance(strides, int) else strides)
    how = "max" if name == "max_pool" else "mean"
    x = x.astype(dtype)
    ref = _pool_ref(x.astype(float), ps, ss, padding, how)
    _check(do(name, _b(x, backend), pool, strides, padding), ref, dtype, backend)
    xf = np.moveaxis(x, -1, 1)
    ref = _pool_ref(xf.astype(float), ps, ss, padding, how, channels_first=True)
    _check(do(name, _b(xf, backend), pool, strides, padding, data_format="channels_first"),
           ref, dtype, backend)


def _adaptive_ref(x, sizes, how):
    spatial = x.shape[1:-1]
    wins = [[(i * n // o, -(-(i + 1) * n // o)) for i in range(o)]
            for n, o in zip(spatial, sizes, strict=True)]
    out = np.empty((x.shape[0], *sizes, x.shape[-1]))
    for b, c in itertools.product(range(x.shape[0]), range(x.shape[-1])):
        for pos in itertools.product(*(range(o) for o in sizes)):
            cells = itertools.product(*(range(*w[p]) for w, p in zip(wins, pos, strict=True)))
            vals = [float(x[(b, *cell, c)]) for cell in cells]
            out[(b, *pos, c)] = max(vals) if how == "max" else math.fsum(vals) / len(vals)
    return out


@pytest.mark.parametrize("sizes", [(3,), (4, 2), (5, 6)])
@pytest.mark.parametrize("name", ["adaptive_max_pool", "adaptive_average_pool"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_adaptive_pooling(backend: str, dtype: str, name: str, sizes: tuple) -> None:
    x = (X3 if len(sizes) == 1 else X4).astype(dtype)
    how = "max" if name == "adaptive_max_pool" else "mean"
    ref = _adaptive_ref(x.astype(float), sizes, how)
    _check(do(name, _b(x, backend), sizes), ref, dtype, backend)
    ref_first = np.moveaxis(ref, -1, 1)
    _check(do(name, _b(np.moveaxis(x, -1, 1), backend), sizes, data_format="channels_first"),
           ref_first, dtype, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_pooling_bad_padding_raises(backend: str) -> None:
    with pytest.raises(ValueError, match="max_pool: padding must be 'valid' or 'same'"):
        do("max_pool", _b(X3, backend), 2, padding="full")


# ---------------------------------------------------------------- attention


def _attention_ref(q, k, v, bias=None, mask=None, scale=None, causal=False, cap=None):
    b_, t_, n_, h_ = q.shape
    s_ = k.shape[1]
    scale = 1 / math.sqrt(h_) if scale is None else scale
    out = np.empty((b_, t_, n_, v.shape[-1]))
    big = -0.7 * 3.38953e38
    for b, n, t in itertools.product(range(b_), range(n_), range(t_)):
        logits = []
        for s in range(s_):
            z = math.fsum(float(q[b, t, n, i]) * float(k[b, s, n, i]) for i in range(h_)) * scale
            if cap is not None:
                z = cap * math.tanh(z / cap)
            if bias is not None:
                z += float(np.broadcast_to(bias, (b_, n_, t_, s_))[b, n, t, s])
            keep = True if mask is None else bool(np.broadcast_to(mask, (b_, n_, t_, s_))[
                b, n, t, s])
            if causal and s > t:
                keep = False
            logits.append(z if keep else big)
        m = max(logits)
        w = [math.exp(z - m) for z in logits]
        total = math.fsum(w)
        for j in range(v.shape[-1]):
            out[b, t, n, j] = math.fsum(wi * float(v[b, s, n, j])
                                        for s, wi in enumerate(w)) / total
    return out


Q = RNG.normal(size=(2, 4, 3, 5))
K = RNG.normal(size=(2, 6, 3, 5))
V = RNG.normal(size=(2, 6, 3, 5))
BIAS = RNG.normal(size=(1, 3, 4, 6))
MASK = RNG.uniform(size=(2, 1, 4, 6)) > 0.3
MASK[0, 0, 1] = False  # a fully masked row: the average of all values
ATTENTION = [
    {},
    {"scale": 0.3},
    {"is_causal": True},
    {"bias": BIAS},
    {"mask": MASK},
    {"bias": BIAS, "mask": MASK, "is_causal": True},
    {"attn_logits_soft_cap": 2.0},
]


@pytest.mark.parametrize("case", range(len(ATTENTION)))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_dot_product_attention(backend: str, dtype: str, case: int) -> None:
    kw = ATTENTION[case]
    q, k, v = (a.astype(dtype) for a in (Q, K, V))
    ref = _attention_ref(q.astype(float), k.astype(float), v.astype(float),
                         kw.get("bias"), kw.get("mask"), kw.get("scale"),
                         kw.get("is_causal", False), kw.get("attn_logits_soft_cap"))
    kwb = {key: (_b(val.astype(dtype) if val.dtype.kind == "f" else val, backend)
                 if isinstance(val, np.ndarray) else val) for key, val in kw.items()}
    got = do("dot_product_attention", _b(q, backend), _b(k, backend), _b(v, backend), **kwb)
    _check(got, ref, dtype, backend)


# ---------------------------------------------------------------- depth_to_space, unfold


def _d2s_ref(x, b, channels_first):
    if channels_first:
        n, c, h, w = x.shape
        out = np.empty((n, c // b // b, h * b, w * b))
        for idx in np.ndindex(out.shape):
            i, y, xx = idx[1], idx[2], idx[3]
            out[idx] = x[idx[0], i * b * b + (y % b) * b + xx % b, y // b, xx // b]
        return out
    n, h, w, c = x.shape
    cc = c // b // b
    out = np.empty((n, h * b, w * b, cc))
    for idx in np.ndindex(out.shape):
        y, xx, i = idx[1], idx[2], idx[3]
        out[idx] = x[idx[0], y // b, xx // b, ((y % b) * b + xx % b) * cc + i]
    return out


@pytest.mark.parametrize("fmt", ["channels_last", "channels_first"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_depth_to_space_and_back(backend: str, dtype: str, fmt: str) -> None:
    first = fmt == "channels_first"
    x = RNG.normal(size=(2, 8, 3, 4) if first else (2, 3, 4, 8)).astype(dtype)
    ref = _d2s_ref(x.astype(float), 2, first)
    got = do("depth_to_space", _b(x, backend), 2, data_format=fmt)
    _check(got, ref, dtype, backend)
    _check(do("space_to_depth", _b(ref.astype(dtype), backend), 2, data_format=fmt),
           x.astype(float), dtype, backend)


def _unfold_ref(x, k, d, p, s):
    n, c, h, w = x.shape
    xp = np.zeros((n, c, h + 2 * p[0], w + 2 * p[1]))
    xp[:, :, p[0] : p[0] + h, p[1] : p[1] + w] = x
    bh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    bw = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.empty((n, c * k[0] * k[1], bh * bw))
    for b, ch, i, j, y, x_ in itertools.product(range(n), range(c), range(k[0]), range(k[1]),
                                                range(bh), range(bw)):
        out[b, ch * k[0] * k[1] + i * k[1] + j, y * bw + x_] = xp[
            b, ch, y * s[0] + i * d[0], x_ * s[1] + j * d[1]]
    return out


def _fold_ref(cols, size, k, d, p, s):
    n, ckk, _ = cols.shape
    c = ckk // (k[0] * k[1])
    hp, wp = size[0] + 2 * p[0], size[1] + 2 * p[1]
    bh = (hp - d[0] * (k[0] - 1) - 1) // s[0] + 1
    bw = (wp - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.zeros((n, c, hp, wp))
    for b, ch, i, j, y, x_ in itertools.product(range(n), range(c), range(k[0]), range(k[1]),
                                                range(bh), range(bw)):
        out[b, ch, y * s[0] + i * d[0], x_ * s[1] + j * d[1]] += cols[
            b, ch * k[0] * k[1] + i * k[1] + j, y * bw + x_]
    return out[:, :, p[0] : p[0] + size[0], p[1] : p[1] + size[1]]


UNFOLDS = [  # kernel, dilation, padding, stride
    ((2, 2), (1, 1), (0, 0), (1, 1)),
    ((3, 2), (1, 2), (1, 0), (2, 1)),
    ((2, 3), (2, 1), (1, 2), (1, 3)),
]


@pytest.mark.parametrize("case", range(len(UNFOLDS)))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_unfold_and_fold(backend: str, dtype: str, case: int) -> None:
    k, d, p, s = UNFOLDS[case]
    x = RNG.normal(size=(2, 3, 6, 7)).astype(dtype)
    ref = _unfold_ref(x.astype(float), k, d, p, s)
    got = do("unfold", _b(x, backend), k, dilation=d, padding=p, stride=s)
    _check(got, ref, dtype, backend)
    cols = ref.astype(dtype)
    _check(do("fold", _b(cols, backend), (6, 7), k, dilation=d, padding=p, stride=s),
           _fold_ref(cols.astype(float), (6, 7), k, d, p, s), dtype, backend)


# ---------------------------------------------------------------- depthwise, separable, transposed


def _same_before(n, k, s, d):
    keff = (k - 1) * d + 1
    out = -(-n // s)
    return out, max((out - 1) * s + keff - n, 0) // 2


def _depthwise_ref(x, kern, strides, padding, dilation):
    """out[b, p, c M + j] = sum_m x[b, p s + m d - before, c] kern[m, c, j], zeros outside."""
    spatial, d = x.shape[1:-1], x.ndim - 2
    geo = []
    for n, k, s, dd in zip(spatial, kern.shape[:d], strides, dilation, strict=True):
        if padding == "valid":
            geo.append(((n - (k - 1) * dd - 1) // s + 1, 0))
        else:
            geo.append(_same_before(n, k, s, dd))
    c_in, mult = kern.shape[-2:]
    out = np.zeros((x.shape[0], *(g[0] for g in geo), c_in * mult))
    for b, c, j in itertools.product(range(x.shape[0]), range(c_in), range(mult)):
        for pos in itertools.product(*(range(g[0]) for g in geo)):
            total = 0.0
            for tap in itertools.product(*(range(k) for k in kern.shape[:d])):
                cell = [p * s + m * dd - g[1] for p, s, m, dd, g
                        in zip(pos, strides, tap, dilation, geo, strict=True)]
                if all(0 <= i < n for i, n in zip(cell, spatial, strict=True)):
                    total += float(x[(b, *cell, c)]) * float(kern[(*tap, c, j)])
            out[(b, *pos, c * mult + j)] = total
    return out


def _transpose_ref(x, kern, strides, out_sizes, before):
    """The adjoint of the strided correlation: each input entry spreads ``x[b, q, i]
    kern[m, o, i]`` to output position ``q s + m - before``; kern is (k..., out, in)."""
    d = x.ndim - 2
    out = np.zeros((x.shape[0], *out_sizes, kern.shape[-2]))
    for b in range(x.shape[0]):
        for q in itertools.product(*(range(n) for n in x.shape[1:-1])):
            for tap in itertools.product(*(range(k) for k in kern.shape[:d])):
                pos = [qq * s + m - bf for qq, s, m, bf in zip(q, strides, tap, before,
                                                                strict=True)]
                if all(0 <= p < n for p, n in zip(pos, out_sizes, strict=True)):
                    out[(b, *pos)] += kern[tap] @ x[(b, *q)]
    return out


CONVS = [  # (input, kernel spatial, strides, padding, dilation)
    (X3, (3,), (1,), "valid", (1,)),
    (X3, (3,), (2,), "same", (1,)),
    (X3, (2,), (1,), "same", (2,)),
    (X4, (2, 3), (1, 2), "same", (1, 1)),
    (X4, (3, 2), (2, 1), "valid", (1, 2)),
]


@pytest.mark.parametrize("fmt", ["channels_last", "channels_first"])
@pytest.mark.parametrize("case", range(len(CONVS)))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_depthwise_and_separable_conv(backend: str, dtype: str, case: int, fmt: str) -> None:
    x, ks, strides, padding, dilation = CONVS[case]
    x = x.astype(dtype)
    kern = RNG.normal(size=(*ks, 3, 2)).astype(dtype)
    point = RNG.normal(size=(*(1,) * len(ks), 6, 4)).astype(dtype)
    ref = _depthwise_ref(x.astype(float), kern.astype(float), strides, padding, dilation)
    sep = ref @ point.reshape(6, 4).astype(float)
    first = fmt == "channels_first"
    xin = np.moveaxis(x, -1, 1) if first else x

    def back(r):
        return np.moveaxis(r, -1, 1) if first else r

    kw = {"strides": strides, "padding": padding, "data_format": fmt,
          "dilation_rate": dilation}
    _check(do("depthwise_conv", _b(xin, backend), _b(kern, backend), **kw), back(ref), dtype,
           backend)
    _check(do("separable_conv", _b(xin, backend), _b(kern, backend), _b(point, backend), **kw),
           back(sep), dtype, backend)


TRANSPOSES = [  # (input, kernel spatial, strides, padding, output_padding)
    (X3, (3,), (2,), "valid", None),
    (X3, (3,), (2,), "same", None),
    (X3, (4,), (3,), "same", 1),
    (X3, (2,), (3,), "valid", None),
    (X4, (2, 3), (2, 1), "same", None),
    (X4, (3, 2), (1, 2), "valid", (0, 1)),
]


def _transpose_geometry(n, k, s, padding, op):
    """keras's output size and the padding taken off the front (keras's rules)."""
    if padding == "valid":
        op = max(k, s) - k if op is None else op
        return (n - 1) * s + k + op, 0
    total = s + k - 2 if op is None else k + k % 2 - 2 + op
    left = min(total // 2 + total % 2, k - 1)
    return (n - 1) * s + 1 + total - k + 1, k - 1 - left


@pytest.mark.parametrize("case", range(len(TRANSPOSES)))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_conv_transpose(backend: str, dtype: str, case: int) -> None:
    x, ks, strides, padding, op = TRANSPOSES[case]
    x = x.astype(dtype)
    kern = RNG.normal(size=(*ks, 4, 3)).astype(dtype)
    ops = op if isinstance(op, tuple) else (op,) * len(ks)
    geo = [_transpose_geometry(n, k, s, padding, o)
           for n, k, s, o in zip(x.shape[1:-1], ks, strides, ops, strict=True)]
    ref = _transpose_ref(x.astype(float), kern.astype(float), strides, [g[0] for g in geo],
                         [g[1] for g in geo])
    got = do("conv_transpose", _b(x, backend), _b(kern, backend), strides=strides,
             padding=padding, output_padding=op)
    _check(got, ref, dtype, backend)
    got = do("conv_transpose", _b(np.moveaxis(x, -1, 1), backend), _b(kern, backend),
             strides=strides, padding=padding, output_padding=op, data_format="channels_first")
    _check(got, np.moveaxis(ref, -1, 1), dtype, backend)


# ---------------------------------------------------------------- cross-check with torch


def test_numpy_path_agrees_with_torch_native() -> None:
    """Cross-check of the definitions: the numpy path (the composed formulas) against
    torch's own kernels, in float64."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    t = torch.tensor
    x = RNG.normal(size=(2, 3, 8, 6))
    m, v, o, s = (RNG.normal(size=3), RNG.uniform(0.5, 2, 3), RNG.normal(size=3),
                  RNG.normal(size=3))
    np.testing.assert_allclose(do("batch_normalization", x, m, v, 1, o, s),
                               F.batch_norm(t(x), t(m), t(v), t(s), t(o), False, 0.0, 1e-3),
                               rtol=1e-12)
    np.testing.assert_allclose(do("layer_normalization", x, axis=(2, 3)),
                               F.layer_norm(t(x), (8, 6), eps=1e-7), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(do("rms_normalization", x), F.rms_norm(t(x), (6,), eps=1e-7),
                               rtol=1e-12)
    np.testing.assert_allclose(
        do("binary_crossentropy", TARGET, LOGITS, from_logits=True),
        F.binary_cross_entropy_with_logits(t(LOGITS), t(TARGET), reduction="none"), rtol=1e-12,
        atol=1e-16)  # torch's kernel gives 0 for log1p(exp(-40)) = 4.2e-18
    np.testing.assert_allclose(
        do("categorical_crossentropy", TARGET, LOGITS, from_logits=True),
        F.cross_entropy(t(LOGITS), t(TARGET), reduction="none"), rtol=1e-12)
    np.testing.assert_allclose(
        do("sparse_categorical_crossentropy", np.array([3, 0, 1]), LOGITS, from_logits=True),
        F.cross_entropy(t(LOGITS), t(np.array([3, 0, 1])), reduction="none"), rtol=1e-12)
    xl = np.moveaxis(x, 1, -1)  # keras's channels last
    for name, fn in (("max_pool", F.max_pool2d), ("average_pool", F.avg_pool2d)):
        np.testing.assert_allclose(do(name, xl, 2, padding="valid"),
                                   fn(t(x), 2).permute(0, 2, 3, 1), rtol=1e-12)
    np.testing.assert_allclose(do("average_pool", xl, 3, 1, padding="same"),
                               F.avg_pool2d(t(x), 3, 1, 1, count_include_pad=False)
                               .permute(0, 2, 3, 1), rtol=1e-12)
    np.testing.assert_allclose(do("adaptive_average_pool", xl, (3, 4)),
                               F.adaptive_avg_pool2d(t(x), (3, 4)).permute(0, 2, 3, 1),
                               rtol=1e-12)
    np.testing.assert_allclose(do("adaptive_max_pool", xl, (5, 4)),
                               F.adaptive_max_pool2d(t(x), (5, 4)).permute(0, 2, 3, 1))
    causal = F.scaled_dot_product_attention(t(Q).transpose(1, 2), t(K).transpose(1, 2),
                                            t(V).transpose(1, 2), is_causal=True)
    np.testing.assert_allclose(do("dot_product_attention", Q, K, V, is_causal=True),
                               causal.transpose(1, 2), rtol=1e-12)
    np.testing.assert_allclose(do("depth_to_space", x.reshape(2, 12, 2, 6), 2,
                                  data_format="channels_first"),
                               F.pixel_shuffle(t(x.reshape(2, 12, 2, 6)), 2))
    kern = RNG.normal(size=(3, 2, 3, 2))  # keras's (kh, kw, channels, multiplier)
    weight = t(np.moveaxis(kern, (2, 3), (0, 1)).reshape(6, 1, 3, 2))  # torch's (out, 1, k)
    np.testing.assert_allclose(
        do("depthwise_conv", xl, kern, strides=(2, 1), dilation_rate=(1, 2)),
        F.conv2d(t(x), weight, stride=(2, 1), dilation=(1, 2), groups=3).permute(0, 2, 3, 1),
        rtol=1e-12, atol=1e-13)
    kt = RNG.normal(size=(3, 2, 4, 3))  # keras's (kh, kw, filters, channels)
    np.testing.assert_allclose(  # 'valid' with stride 2: torch's padding 0
        do("conv_transpose", xl, kt, strides=2),
        F.conv_transpose2d(t(x), t(np.moveaxis(kt, (3, 2), (0, 1))), stride=2,
                           output_padding=0).permute(0, 2, 3, 1),
        rtol=1e-12, atol=1e-13)
    cols = do("unfold", x, (3, 2), dilation=(1, 2), padding=1, stride=(2, 1))
    np.testing.assert_allclose(cols, F.unfold(t(x), (3, 2), (1, 2), 1, (2, 1)))
    np.testing.assert_allclose(do("fold", cols, (8, 6), (3, 2), dilation=(1, 2), padding=1,
                                  stride=(2, 1)),
                               F.fold(t(cols), (8, 6), (3, 2), (1, 2), 1, (2, 1)), rtol=1e-12)


# ---------------------------------------------------------------- under the compilers

_TRACED = {
    "layer_normalization": lambda x: do("layer_normalization", x),
    "rms_normalization": lambda x: do("rms_normalization", x),
    "max_pool": lambda x: do("max_pool", x, 2, padding="same"),
    "average_pool": lambda x: do("average_pool", x, 3, 2, padding="same"),
    "adaptive_average_pool": lambda x: do("adaptive_average_pool", x, (2, 3)),
    "categorical_crossentropy": lambda x: do("categorical_crossentropy", x * 0 + 0.25, x,
                                             from_logits=True),
    "space_to_depth": lambda x: do("space_to_depth", x[:, :4], 2),
}


@pytest.mark.parametrize("name", sorted(_TRACED))
@pytest.mark.parametrize("backend", [b for b in ("jax", "tensorflow") if b in BACKENDS])
def test_traces_under_jax_jit_and_tf_function(backend: str, name: str) -> None:
    x = X4[:1]  # (1, 5, 6, 3)
    fn = _TRACED[name]
    if backend == "jax":
        import jax

        compiled = jax.jit(fn)
    else:
        import tensorflow as tf

        compiled = tf.function(tf.autograph.experimental.do_not_convert(fn))
    np.testing.assert_allclose(to_np(compiled(to_backend(x, backend))), fn(x), rtol=1e-12,
                               atol=1e-13)


_COMPILED = {
    "layer_normalization": lambda x: do("layer_normalization", x),
    "rms_normalization": lambda x: do("rms_normalization", x),
    "max_pool": lambda x: do("max_pool", x, 2, padding="same"),
    "average_pool": lambda x: do("average_pool", x, 3, 1, padding="same"),
    "categorical_crossentropy": _TRACED["categorical_crossentropy"],
    "dot_product_attention": lambda x: do("dot_product_attention", x, x, x, is_causal=True),
    "depthwise_conv": lambda x: do("depthwise_conv", x, x[0, :2, :2, :, None], padding="same"),
}


@pytest.mark.parametrize("name", sorted(_COMPILED))
def test_traces_under_torch_compile_in_one_graph(name: str) -> None:
    torch = pytest.importorskip("torch")
    fn = _COMPILED[name]
    x = torch.tensor(X4[:1])
    torch._dynamo.reset()
    got = torch.compile(fn, fullgraph=True)(x)  # compiled first: its misses run in the trace
    want = fn(x)
    np.testing.assert_allclose(to_np(got), to_np(want), rtol=1e-12, atol=1e-13)
