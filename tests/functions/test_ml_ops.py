"""The ML ops of keras.ops (docs/vocabulary.md, "ML ops") on every array library.

Each op is checked against a float64 reference written here from the op's
definition with Python's ``math`` (one element at a time), never against a
library's own implementation; then once against a library's native op (torch's)
as a cross-check of the definition. Inputs hold negative, positive, zero and
large values; float32 and float64 keep their dtype, integers come back in
``float_type()`` (float32), complex inputs and odd ``glu`` halves raise typed errors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import compiled_like_eager, to_backend, to_np, usable_backends

from dispatch import do

BACKENDS = [b for b in ("numpy", "torch", "jax", "tensorflow", "dask", "mlx", "paddle")
            if b in usable_backends()]
TOL = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-14)}

VALUES = np.array(
    [
        [-1000.0, -30.0, -3.0, -0.5, 0.0, 0.25],
        [1.0, 2.5, 4.0, 7.0, 50.0, 1000.0],
        [-6.0, -2.9, 2.9, 6.5, -0.01, 0.01],
        [-1.7, 0.3, 3.3, -4.2, 1.9, -0.8],
    ]
)

# ---------------------------------------------------------------- references, from definitions


def _sigmoid(v: float) -> float:
    if v >= 0:
        return 1.0 / (1.0 + math.exp(-v))
    e = math.exp(v)
    return e / (1.0 + e)


def _elu(v: float, alpha: float = 1.0) -> float:
    return v if v > 0 else alpha * math.expm1(v)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _log_sigmoid(v: float) -> float:
    # log(1 / (1 + exp(-v))), rewritten so that neither exp overflows
    return -math.log1p(math.exp(-v)) if v >= 0 else v - math.log1p(math.exp(v))


def _hard_sigmoid(v: float) -> float:
    return min(max(v + 3.0, 0.0), 6.0) / 6.0


def _gelu_tanh(v: float) -> float:
    return 0.5 * v * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v**3)))


ELEMENTWISE = {
    "relu": lambda v: max(v, 0.0),
    "relu6": lambda v: min(max(v, 0.0), 6.0),
    "gelu": lambda v: 0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))),
    "silu": lambda v: v * _sigmoid(v),
    "elu": _elu,
    "selu": lambda v: _SELU_SCALE * _elu(v, _SELU_ALPHA),
    "leaky_relu": lambda v: v if v >= 0 else 0.2 * v,
    "log_sigmoid": _log_sigmoid,
    "hard_sigmoid": _hard_sigmoid,
    "hard_silu": lambda v: v * _hard_sigmoid(v),
    "softsign": lambda v: v / (1.0 + abs(v)),
    "sigmoid": _sigmoid,
}
# keyword variants: (name, kwargs, reference)
KEYWORDS = [
    ("gelu", {"approximate": True}, _gelu_tanh),
    ("gelu", {"approximate": False}, ELEMENTWISE["gelu"]),
    ("elu", {"alpha": 0.5}, lambda v: _elu(v, 0.5)),
    ("leaky_relu", {"negative_slope": 0.01}, lambda v: v if v >= 0 else 0.01 * v),
]


def _elementwise_ref(fn, x: np.ndarray) -> np.ndarray:
    return np.array([fn(float(v)) for v in x.ravel()]).reshape(x.shape)


def _softmax_rows(x: np.ndarray, log: bool) -> np.ndarray:
    out = np.empty(x.shape)
    for i, row in enumerate(x.astype(float)):
        m = max(row)
        total = math.fsum(math.exp(v - m) for v in row)
        out[i] = [(v - m - math.log(total)) if log else math.exp(v - m) / total for v in row]
    return out


def _glu_ref(x: np.ndarray) -> np.ndarray:
    half = x.shape[-1] // 2
    a, b = x[..., :half], x[..., half:]
    return np.array([[u * _sigmoid(float(v)) for u, v in zip(ra, rb, strict=True)]
                     for ra, rb in zip(a, b, strict=True)])


# ---------------------------------------------------------------- helpers


def _check(result, ref: np.ndarray, dtype: str, backend: str) -> None:
    got = to_np(result)
    assert got.dtype == np.dtype(dtype), f"{backend}: dtype {got.dtype}, expected {dtype}"
    rtol, atol = TOL[dtype]
    np.testing.assert_allclose(got.astype(float), ref, rtol=rtol, atol=atol)


def _input(backend: str, dtype: str, values: np.ndarray = VALUES):
    return to_backend(values.astype(dtype), backend)


# ---------------------------------------------------------------- activations


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.parametrize("backend", BACKENDS)
def test_activation_matches_its_definition(backend: str, name: str, dtype: str) -> None:
    ref = _elementwise_ref(ELEMENTWISE[name], VALUES.astype(dtype))
    _check(do(name, _input(backend, dtype)), ref, dtype, backend)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", range(len(KEYWORDS)))
@pytest.mark.parametrize("backend", BACKENDS)
def test_activation_keywords(backend: str, case: int, dtype: str) -> None:
    name, kwargs, fn = KEYWORDS[case]
    ref = _elementwise_ref(fn, VALUES.astype(dtype))
    _check(do(name, _input(backend, dtype), **kwargs), ref, dtype, backend)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_softmax_along_the_last_axis_by_default(backend: str, name: str, dtype: str) -> None:
    x = VALUES.astype(dtype)
    log = name == "log_softmax"
    _check(do(name, _input(backend, dtype)), _softmax_rows(x, log), dtype, backend)
    _check(do(name, _input(backend, dtype), axis=0), _softmax_rows(x.T, log).T, dtype, backend)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_glu_halves_the_axis(backend: str, dtype: str) -> None:
    x = VALUES.astype(dtype)
    _check(do("glu", _input(backend, dtype)), _glu_ref(x), dtype, backend)
    _check(do("glu", _input(backend, dtype), axis=0), _glu_ref(x.T).T, dtype, backend)


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.parametrize("backend", BACKENDS)
def test_integers_are_computed_in_float32(backend: str, name: str) -> None:
    ints = np.array([[-4, -1, 0, 1, 2, 9]])
    ref = _elementwise_ref(ELEMENTWISE[name], ints.astype(float))
    _check(do(name, to_backend(ints, backend)), ref, "float32", backend)


@pytest.mark.parametrize("name", [*sorted(ELEMENTWISE), "softmax", "log_softmax", "glu"])
@pytest.mark.parametrize("backend", ["numpy", "torch", "mlx", "paddle"])
def test_complex_input_is_refused(backend: str, name: str) -> None:
    if backend not in BACKENDS:
        pytest.skip(f"{backend} is not installed")
    if name == "sigmoid":
        pytest.skip("sigmoid predates the ML ops and keeps its complex formula")
    z = to_backend(np.array([[1.0 + 1.0j, -2.0j]], "complex64"), backend)
    with pytest.raises(TypeError, match=f"{name} takes real numbers; got a complex input"):
        do(name, z)


@pytest.mark.parametrize("backend", BACKENDS)
def test_glu_of_an_odd_axis_raises(backend: str) -> None:
    x = _input(backend, "float32", VALUES[:, :5])
    with pytest.raises(ValueError, match="glu splits axis -1 in two halves; its length 5 is odd"):
        do("glu", x)


def test_activations_on_numpy_agree_with_torch_native() -> None:
    """Cross-check: the numpy path (dispatch's own formulas) against torch's kernels."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    native = {
        "relu": F.relu, "relu6": F.relu6, "gelu": F.gelu, "silu": F.silu, "elu": F.elu,
        "selu": F.selu, "leaky_relu": lambda t: F.leaky_relu(t, 0.2),
        "log_sigmoid": F.logsigmoid, "hard_sigmoid": F.hardsigmoid, "hard_silu": F.hardswish,
        "softsign": F.softsign, "sigmoid": torch.sigmoid,
        "softmax": lambda t: torch.softmax(t, -1),
        "log_softmax": lambda t: torch.log_softmax(t, -1),
        "glu": lambda t: F.glu(t, -1),
    }
    for name, fn in native.items():
        np.testing.assert_allclose(do(name, VALUES), fn(torch.tensor(VALUES)).numpy(),
                                   rtol=1e-12, atol=1e-14, err_msg=name)


# ---------------------------------------------------------------- one_hot, top_k, rsqrt, logdet


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_hot(backend: str) -> None:
    idx = np.array([[0, 3, 1], [5, -1, 2]])
    ref = np.array([[[1.0 if c == i else 0.0 for c in range(4)] for i in row] for row in idx])
    _check(do("one_hot", to_backend(idx, backend), 4), ref, "float32", backend)
    _check(do("one_hot", to_backend(idx, backend), 4, axis=0, dtype="float64"),
           np.moveaxis(ref, -1, 0), "float64", backend)
    got = to_np(do("one_hot", to_backend(idx, backend), 4, axis=1, dtype="int32"))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.moveaxis(ref, -1, 1))


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_hot_refuses_float_indices(backend: str) -> None:
    with pytest.raises(TypeError, match="one_hot takes integer class indices"):
        do("one_hot", to_backend(np.array([0.0, 1.0]), backend), 3)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_top_k(backend: str, dtype: str) -> None:
    x = VALUES.astype(dtype)  # no ties within a row
    values, indices = do("top_k", to_backend(x, backend), 3)
    ref_idx = np.array([sorted(range(x.shape[1]), key=lambda j, r=r: -r[j])[:3] for r in x])
    _check(values, np.take_along_axis(x, ref_idx, -1).astype(float), dtype, backend)
    np.testing.assert_array_equal(to_np(indices), ref_idx)
    assert to_np(indices).dtype.kind == "i"


@pytest.mark.parametrize("backend", BACKENDS)
def test_top_k_bad_k(backend: str) -> None:
    with pytest.raises(ValueError, match=r"top_k: k=7 is outside \[0, 6\]"):
        do("top_k", _input(backend, "float32"), 7)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_rsqrt(backend: str, dtype: str) -> None:
    x = np.array([[1e-6, 0.25, 1.0, 2.0, 1e6, 7.5]])
    ref = np.array([[1.0 / math.sqrt(v) for v in row] for row in x.astype(dtype).astype(float)])
    _check(do("rsqrt", to_backend(x.astype(dtype), backend)), ref, dtype, backend)


def _det(m: np.ndarray) -> float:
    """Laplace expansion along the first row: the definition, for small matrices."""
    if len(m) == 1:
        return float(m[0, 0])
    return math.fsum((-1) ** j * float(m[0, j]) * _det(np.delete(m[1:], j, axis=1))
                     for j in range(len(m)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_logdet(backend: str, dtype: str) -> None:
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])  # positive definite
    mats = np.stack([a, 10 * a, np.diag([1.0, -2.0, 3.0]), np.zeros((3, 3))]).astype(dtype)
    dets = [_det(m.astype(float)) for m in mats]
    ref = np.array([math.log(d) if d > 0 else (-math.inf if d == 0 else math.nan) for d in dets])
    rtol = 1e-5 if dtype == "float32" else 1e-12
    got = to_np(do("logdet", to_backend(mats, backend)))
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_allclose(got, ref, rtol=rtol)


# ---------------------------------------------------------------- moments, normalize, segments


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axes", [0, 1, (0, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_moments(backend: str, dtype: str, axes, keepdims: bool) -> None:
    x = (VALUES[:, 2:] / 7).astype(dtype)  # no +-1000: float32 variances stay exact enough
    xf = x.astype(float)
    mean = np.mean(xf, axis=axes, keepdims=True)
    var = np.mean((xf - mean) ** 2, axis=axes, keepdims=keepdims)
    if not keepdims:
        mean = np.squeeze(mean, axis=axes)
    m, v = do("moments", to_backend(x, backend), axes, keepdims=keepdims)
    _check(m, mean, dtype, backend)
    _check(v, var, dtype, backend)


@pytest.mark.parametrize("order", [1, 2, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_normalize(backend: str, dtype: str, order: int) -> None:
    x = np.concatenate([VALUES[:, 1:5], np.zeros((1, 4))]).astype(dtype)
    xf = x.astype(float)
    for axis in (-1, 0):
        norm = np.sum(np.abs(xf) ** order, axis=axis, keepdims=True) ** (1 / order)
        ref = xf / np.maximum(norm, 1e-7)
        _check(do("normalize", to_backend(x, backend), axis=axis, order=order), ref, dtype,
               backend)


@pytest.mark.parametrize("order", [0, 1.5, "fro"])
def test_normalize_refuses_an_order_that_is_not_an_int_of_at_least_1(order) -> None:
    with pytest.raises(ValueError, match="normalize: order must be an int >= 1"):
        do("normalize", VALUES, order=order)


def _segment_ref(data: np.ndarray, ids: np.ndarray, n: int, how: str) -> np.ndarray:
    out = np.full((n, *data.shape[1:]), 0.0 if how == "sum" else -math.inf)
    for row, s in zip(data.astype(float), ids, strict=True):
        if 0 <= s < n:
            out[s] = out[s] + row if how == "sum" else np.maximum(out[s], row)
    return out


@pytest.mark.parametrize("how", ["sum", "max"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_segments(backend: str, dtype: str, how: str) -> None:
    data = VALUES.T.astype(dtype)  # 6 rows of 4
    ids = np.array([2, 0, 2, 5, -1, 0])
    name = f"segment_{how}"
    ref = _segment_ref(data, ids, 6, how)
    _check(do(name, to_backend(data, backend), to_backend(ids, backend)), ref, dtype, backend)
    ref4 = _segment_ref(data, ids, 4, how)  # id 5 is dropped
    _check(do(name, to_backend(data, backend), to_backend(ids, backend), num_segments=4), ref4,
           dtype, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_segments_refuse_float_ids(backend: str) -> None:
    with pytest.raises(TypeError, match="segment_sum: segment_ids must be integers"):
        do("segment_sum", _input(backend, "float32"), to_backend(np.zeros(4), backend))


def test_second_batch_on_numpy_agrees_with_torch_native() -> None:
    """Cross-check: the numpy path against torch's own top_k, one_hot, rsqrt, logdet,
    var_mean, normalize."""
    torch = pytest.importorskip("torch")
    t = torch.tensor(VALUES)
    values, indices = do("top_k", VALUES, 2)
    tv, ti = torch.topk(t, 2)
    np.testing.assert_array_equal(values, tv.numpy())
    np.testing.assert_array_equal(indices, ti.numpy())
    idx = np.array([0, 3, 1])
    np.testing.assert_array_equal(do("one_hot", idx, 4),
                                  torch.nn.functional.one_hot(torch.tensor(idx), 4).numpy())
    pos = np.abs(VALUES) + 0.5
    np.testing.assert_allclose(do("rsqrt", pos), torch.rsqrt(torch.tensor(pos)).numpy(),
                               rtol=1e-15)
    m = VALUES[:, :4] / 100 + 3 * np.eye(4)
    np.testing.assert_allclose(do("logdet", m), torch.logdet(torch.tensor(m)).numpy(),
                               rtol=1e-12)
    var, mean = torch.var_mean(t, dim=1, correction=0)
    got_mean, got_var = do("moments", VALUES, 1)
    np.testing.assert_allclose(got_mean, mean.numpy(), rtol=1e-12)
    np.testing.assert_allclose(got_var, var.numpy(), rtol=1e-12)
    np.testing.assert_allclose(do("normalize", VALUES),
                               torch.nn.functional.normalize(t, dim=-1, eps=1e-7).numpy(),
                               rtol=1e-12)


# ---------------------------------------------------------------- under the compilers

_TRACED = {
    **{n: (lambda x, n=n: do(n, x)) for n in [*ELEMENTWISE, "softmax", "log_softmax", "glu",
                                                  "rsqrt"]},
    "top_k": lambda x: do("top_k", x, 2),
    "moments": lambda x: do("moments", x, 1),
    "normalize": lambda x: do("normalize", x),
    "segment_sum": lambda x: do("segment_sum", x, do("asarray", np.array([0, 2, 0, 1]),
                                                      like=x), num_segments=3),
    "segment_max": lambda x: do("segment_max", x, do("asarray", np.array([0, 2, 0, 1]),
                                                      like=x), num_segments=3),
}


# paddle's translator takes seconds per function: a sample of the ops runs on paddle
PADDLE_TRACED = {"gelu", "softmax", "top_k", "normalize"}


@pytest.mark.parametrize("name", sorted(_TRACED))
@pytest.mark.parametrize("backend", [b for b in ("jax", "tensorflow", "mlx", "paddle")
                                     if b in BACKENDS])
def test_traces_under_the_libraries_jit(backend: str, name: str) -> None:
    """jax.jit, tf.function, and jit_compile's mx.compile and paddle.jit.to_static."""
    if backend == "paddle" and name not in PADDLE_TRACED:
        pytest.skip("paddle's translation takes seconds per function: a sample runs")
    x = np.abs(VALUES[:, :4]) + 0.5
    fn = _TRACED[name]
    if backend == "jax":
        import jax

        compiled = jax.jit(fn)
    elif backend == "tensorflow":
        import tensorflow as tf

        compiled = tf.function(tf.autograph.experimental.do_not_convert(fn))
    else:
        compiled = do("jit_compile", fn, like=backend)
        if backend == "paddle":  # paddle's jit_compile runs a signature eagerly first
            compiled(to_backend(x, backend))
    got, want = compiled(to_backend(x, backend)), fn(x)
    for g, w in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, want)), strict=True):
        np.testing.assert_allclose(to_np(g), w, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["gelu", "hard_silu", "top_k", "moments", "normalize"])
def test_traces_under_torch_compile_in_one_graph(name: str) -> None:
    torch = pytest.importorskip("torch")
    fn = _TRACED[name]
    x = np.abs(VALUES[:, :4]) + 0.5
    got, want = torch.compile(fn, fullgraph=True)(torch.tensor(x)), fn(x)
    for g, w in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, want)), strict=True):
        np.testing.assert_allclose(to_np(g), w, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(_TRACED))
def test_every_op_traces_under_torch_compile(name: str) -> None:
    """Each op of the file in one graph of torch.compile(fullgraph=True) (dynamo's
    trace, run as captured), the same values as eager."""
    torch = pytest.importorskip("torch")
    compiled_like_eager(_TRACED[name], torch.tensor(np.abs(VALUES[:, :4]) / 10 + 0.5))
