"""The later ML ops of keras.ops (docs/vocabulary.md, "ML ops") on every array library:
the shrink and sparse activations, ``sparsemax``, the ``swish`` aliases,
``segment_min``/``segment_prod``, ``in_top_k``, ``multi_hot``, the functional slices
(``slice``, ``slice_update``, ``scatter_update``), ``saturate_cast``, ``view``,
``psnr``, ``extract_sequences``, and numpy's window functions.

As in test_ml_ops.py, each op is checked against a float64 reference written here from
its definition (Python's ``math``, one element, row or frame at a time), then once
against a library's native op (torch's) as a cross-check. The window functions are
numpy names and are compared with numpy.
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
        [-1000.0, -30.0, -3.0, -1.0, -0.5, 0.0],
        [0.25, 0.5, 1.0, 2.5, 50.0, 1000.0],
        [-6.0, -0.9, 0.9, 6.5, -0.01, 0.01],
        [-1.7, 0.3, 3.3, -4.2, 1.9, -0.8],
    ]
)


def _check(result, ref: np.ndarray, dtype: str, backend: str) -> None:
    got = to_np(result)
    assert got.dtype == np.dtype(dtype), f"{backend}: dtype {got.dtype}, expected {dtype}"
    rtol, atol = TOL[dtype]
    np.testing.assert_allclose(got.astype(float), ref, rtol=rtol, atol=atol)


def _input(backend: str, dtype: str, values: np.ndarray = VALUES):
    return to_backend(values.astype(dtype), backend)


def _each(fn, x: np.ndarray) -> np.ndarray:
    return np.array([fn(float(v)) for v in x.ravel()]).reshape(x.shape)


def _sigmoid(v: float) -> float:
    return 1.0 / (1.0 + math.exp(-v)) if v >= 0 else math.exp(v) / (1.0 + math.exp(v))


def _hard_sigmoid(v: float) -> float:
    return min(max(v + 3.0, 0.0), 6.0) / 6.0


def _shrink(v: float, t: float) -> float:
    return v - t if v > t else (v + t if v < -t else 0.0)


# ---------------------------------------------------------------- activations

ELEMENTWISE = {
    "hard_tanh": lambda v: min(max(v, -1.0), 1.0),
    "hard_shrink": lambda v: v if abs(v) > 0.5 else 0.0,
    "soft_shrink": lambda v: _shrink(v, 0.5),
    "tanh_shrink": lambda v: v - math.tanh(v),
    "sparse_plus": lambda v: 0.0 if v <= -1 else (v if v >= 1 else (v + 1) ** 2 / 4),
    "sparse_sigmoid": lambda v: 0.0 if v <= -1 else (1.0 if v >= 1 else (v + 1) / 2),
    "squareplus": lambda v: (v + math.sqrt(v * v + 4.0)) / 2,
    "swish": lambda v: v * _sigmoid(v),
    "hard_swish": lambda v: v * _hard_sigmoid(v),
}
KEYWORDS = [
    ("hard_shrink", {"threshold": 2.0}, lambda v: v if abs(v) > 2.0 else 0.0),
    ("soft_shrink", {"threshold": 1.0}, lambda v: _shrink(v, 1.0)),
    ("soft_shrink", {"threshold": -0.5}, lambda v: v + 0.5 if v > -0.5 else v - 0.5),
    ("squareplus", {"b": 1.0}, lambda v: (v + math.sqrt(v * v + 1.0)) / 2),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.parametrize("backend", BACKENDS)
def test_activation_matches_its_definition(backend: str, name: str, dtype: str) -> None:
    values = _values(name, dtype)
    x = values.astype(dtype)
    _check(do(name, _input(backend, dtype, values)), _each(ELEMENTWISE[name], x), dtype,
           backend)


def _values(name: str, dtype: str) -> np.ndarray:
    # squareplus is computed as written (as keras and jax.nn): for x far below 0 the sum
    # x + sqrt(x**2 + b) cancels, and float32 keeps few digits of it
    return np.clip(VALUES, -7.0, 7.0) if name == "squareplus" and dtype == "float32" \
        else VALUES


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", range(len(KEYWORDS)))
@pytest.mark.parametrize("backend", BACKENDS)
def test_activation_keywords(backend: str, case: int, dtype: str) -> None:
    name, kwargs, fn = KEYWORDS[case]
    values = _values(name, dtype)
    x = values.astype(dtype)
    _check(do(name, _input(backend, dtype, values), **kwargs), _each(fn, x), dtype, backend)


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.parametrize("backend", BACKENDS)
def test_integers_are_computed_in_float32(backend: str, name: str) -> None:
    ints = np.array([[-4, -1, 0, 1, 2, 9]])
    _check(do(name, to_backend(ints, backend)), _each(ELEMENTWISE[name], ints.astype(float)),
           "float32", backend)


@pytest.mark.parametrize("name", [*sorted(ELEMENTWISE), "sparsemax"])
@pytest.mark.parametrize("backend", ["numpy", "torch", "mlx", "paddle"])
def test_complex_input_is_refused(backend: str, name: str) -> None:
    if backend not in BACKENDS:
        pytest.skip(f"{backend} is not installed")
    z = to_backend(np.array([[1.0 + 1.0j, -2.0j]], "complex64"), backend)
    # swish and hard_swish are silu and hard_silu: the message names those
    shown = {"swish": "silu", "hard_swish": "hard_silu"}.get(name, name)
    with pytest.raises(TypeError, match=f"{shown} takes real numbers; got a complex input"):
        do(name, z)


def test_swish_and_hard_swish_are_the_entries_of_silu_and_hard_silu() -> None:
    from dispatch._resolve import resolve

    for backend in BACKENDS:
        for alias, name in (("swish", "silu"), ("hard_swish", "hard_silu")):
            assert resolve(backend, alias) is resolve(backend, name), (backend, alias)


def _sparsemax_row(z: list[float]) -> list[float]:
    """The Euclidean projection of ``z`` onto the simplex, by its definition: the
    largest k with 1 + k z_(k) > z_(1) + ... + z_(k), tau = (that sum - 1) / k."""
    s = sorted(z, reverse=True)
    k = max(j for j in range(1, len(s) + 1) if 1 + j * s[j - 1] > math.fsum(s[:j]))
    tau = (math.fsum(s[:k]) - 1) / k
    return [max(v - tau, 0.0) for v in z]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_sparsemax_projects_onto_the_simplex(backend: str, dtype: str) -> None:
    x = (VALUES[:, 1:] / 10).astype(dtype)  # rows with several, and one, nonzero outputs
    ref = np.array([_sparsemax_row([float(v) for v in row]) for row in x])
    got = do("sparsemax", _input(backend, dtype, VALUES[:, 1:] / 10))
    _check(got, ref, dtype, backend)
    np.testing.assert_allclose(to_np(got).sum(-1), 1.0, rtol=1e-5)
    ref0 = np.array([_sparsemax_row([float(v) for v in col]) for col in x.T]).T
    _check(do("sparsemax", _input(backend, dtype, VALUES[:, 1:] / 10), axis=0), ref0, dtype,
           backend)


def test_activations_on_numpy_agree_with_torch_native() -> None:
    """Cross-check: the numpy path against torch's kernels."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    t = torch.tensor(VALUES)
    native = {
        "hard_tanh": F.hardtanh(t), "hard_shrink": F.hardshrink(t, 0.5),
        "soft_shrink": F.softshrink(t, 0.5), "tanh_shrink": F.tanhshrink(t),
        "swish": F.silu(t), "hard_swish": F.hardswish(t),
    }
    for name, want in native.items():
        np.testing.assert_allclose(do(name, VALUES), want.numpy(), rtol=1e-12, atol=1e-14,
                                   err_msg=name)


# ---------------------------------------------------------------- segments


def _segment_ref(data: np.ndarray, ids: np.ndarray, n: int, how: str) -> np.ndarray:
    start = {"min": math.inf, "prod": 1.0}[how]
    out = np.full((n, *data.shape[1:]), start)
    for row, s in zip(data.astype(float), ids, strict=True):
        if 0 <= s < n:
            out[s] = np.minimum(out[s], row) if how == "min" else out[s] * row
    return out


@pytest.mark.parametrize("how", ["min", "prod"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_segments(backend: str, dtype: str, how: str) -> None:
    data = (VALUES.T / 10).astype(dtype)  # 6 rows of 4
    ids = np.array([2, 0, 2, 5, -1, 0])
    name = f"segment_{how}"
    ref = _segment_ref(data, ids, 6, how)
    _check(do(name, to_backend(data, backend), to_backend(ids, backend)), ref, dtype, backend)
    ref4 = _segment_ref(data, ids, 4, how)  # id 5 is dropped
    _check(do(name, to_backend(data, backend), to_backend(ids, backend), num_segments=4), ref4,
           dtype, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_segments_of_integers(backend: str) -> None:
    data = np.array([3, -2, 7, 5, 4, -1, 2])
    ids = np.array([1, 1, 0, 3, 1, 0, 9])
    got_min = to_np(do("segment_min", to_backend(data, backend), to_backend(ids, backend),
                       num_segments=4))
    got_prod = to_np(do("segment_prod", to_backend(data, backend), to_backend(ids, backend),
                        num_segments=4))
    high = np.iinfo(data.dtype).max
    np.testing.assert_array_equal(got_min, [-1, -2, high, 5])
    np.testing.assert_array_equal(got_prod, [-7, -24, 1, 5])
    assert got_min.dtype == got_prod.dtype == data.dtype


@pytest.mark.parametrize("backend", BACKENDS)
def test_segment_prod_without_num_segments(backend: str) -> None:
    data = np.array([[1.5, 2.0], [2.0, -1.0], [4.0, 0.5]])
    got = do("segment_prod", to_backend(data, backend), to_backend(np.array([1, 1, 3]), backend))
    np.testing.assert_allclose(to_np(got), [[1, 1], [3.0, -2.0], [1, 1], [4.0, 0.5]])


@pytest.mark.parametrize("name", ["segment_min", "segment_prod"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_segments_refuse_float_ids(backend: str, name: str) -> None:
    with pytest.raises(TypeError, match=f"{name}: segment_ids must be integers"):
        do(name, _input(backend, "float32"), to_backend(np.zeros(4), backend))


# ---------------------------------------------------------------- in_top_k, multi_hot


def _in_top_k_ref(targets: np.ndarray, predictions: np.ndarray, k: int) -> np.ndarray:
    out = []
    for t, row in zip(targets, predictions, strict=True):
        if not 0 <= t < len(row) or math.isnan(row[t]):
            out.append(False)
        else:
            out.append(sum(1 for v in row if v > row[t]) < k)
    return np.array(out)


@pytest.mark.parametrize("k", [0, 1, 2, 6])
@pytest.mark.parametrize("backend", BACKENDS)
def test_in_top_k(backend: str, k: int) -> None:
    preds = np.array([[0.1, 0.9, 0.0], [0.2, 0.5, 0.3], [0.4, 0.4, 0.4], [0.3, 0.1, 0.2],
                      [0.0, 1.0, 0.5], [np.nan, 1.0, 1.0], [1.0, 2.0, 3.0]])
    targets = np.array([1, 0, 2, 0, 5, 0, -1])
    got = to_np(do("in_top_k", to_backend(targets, backend), to_backend(preds, backend), k))
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, _in_top_k_ref(targets, preds, k))


def _multi_hot_ref(x: np.ndarray, c: int) -> np.ndarray:
    rows = x if x.ndim > 1 else x[None]
    out = np.array([[1.0 if any(v == j for v in row) else 0.0 for j in range(c)]
                    for row in rows])
    return out if x.ndim > 1 else out[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_multi_hot(backend: str) -> None:
    x = np.array([[0, 3, 3], [5, -1, 2], [1, 1, 1]])
    ref = _multi_hot_ref(x, 4)
    _check(do("multi_hot", to_backend(x, backend), 4), ref, "float32", backend)
    _check(do("multi_hot", to_backend(x, backend), 4, axis=0, dtype="float64"), ref.T,
           "float64", backend)
    _check(do("multi_hot", to_backend(x[0], backend), 4), _multi_hot_ref(x[0], 4), "float32",
           backend)


@pytest.mark.parametrize("name", ["in_top_k", "multi_hot"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_float_indices_are_refused(backend: str, name: str) -> None:
    floats = to_backend(np.array([0.0, 1.0]), backend)
    args = (floats, _input(backend, "float32", VALUES[:2]), 1) if name == "in_top_k" \
        else (floats, 3)
    with pytest.raises(TypeError, match=f"{name} takes integer class indices"):
        do(name, *args)


# ---------------------------------------------------------------- slices


M34 = np.arange(12.0).reshape(3, 4) - 5.5


@pytest.mark.parametrize("starts", [(1, 1), [0, 2], np.array([2, 0])])
@pytest.mark.parametrize("backend", BACKENDS)
def test_slice(backend: str, starts) -> None:
    s = [int(v) for v in starts]
    ref = np.array([[M34[s[0] + i, s[1] + j] for j in range(2)] for i in range(1)])
    x = to_backend(M34, backend)
    _check(do("slice", x, starts, (1, 2)), ref, "float64", backend)
    np.testing.assert_array_equal(to_np(x), M34)


@pytest.mark.parametrize("backend", BACKENDS)
def test_slice_update_returns_a_new_array(backend: str) -> None:
    x = to_backend(M34, backend)
    updates = np.array([[100.0, 200.0], [300.0, 400.0]])
    ref = M34.copy()
    for i in range(2):
        for j in range(2):
            ref[1 + i, 2 + j] = updates[i, j]
    _check(do("slice_update", x, (1, 2), to_backend(updates, backend)), ref, "float64", backend)
    np.testing.assert_array_equal(to_np(x), M34)  # the input is unchanged


@pytest.mark.parametrize("backend", BACKENDS)
def test_scatter_update(backend: str) -> None:
    x = to_backend(M34, backend)
    ref = M34.copy()
    ref[0, 1], ref[2, 3] = 7.0, 8.0  # (2, -1) is (2, 3)
    got = do("scatter_update", x, to_backend(np.array([[0, 1], [2, -1]]), backend),
             to_backend(np.array([7.0, 8.0]), backend))
    _check(got, ref, "float64", backend)
    rows = M34.copy()
    rows[1] = [1.0, 2.0, 3.0, 4.0]  # k = 1 < ndim: whole rows
    _check(do("scatter_update", x, to_backend(np.array([[1]]), backend),
              to_backend(np.array([[1.0, 2.0, 3.0, 4.0]]), backend)), rows, "float64", backend)
    added = M34.copy()
    added[0, 0] += 3.0  # duplicates add up
    _check(do("scatter_update", x, to_backend(np.array([[0, 0], [0, 0]]), backend),
              to_backend(np.array([1.0, 2.0]), backend), reduction="add"), added, "float64",
           backend)
    np.testing.assert_array_equal(to_np(x), M34)


@pytest.mark.parametrize("backend", BACKENDS)
def test_slices_that_do_not_fit_raise(backend: str) -> None:
    x = to_backend(M34, backend)
    with pytest.raises(ValueError, match=r"slice: a slice of shape \(2, 2\) at \[2, 3\] does "
                                         r"not fit in the input of shape \(3, 4\)"):
        do("slice", x, (2, 3), (2, 2))
    with pytest.raises(ValueError, match="slice_update: a slice of shape"):
        do("slice_update", x, (0, 3), to_backend(np.ones((1, 2)), backend))
    if backend == "dask":
        return  # dask-array indices are not read on the client (that would compute them)
    with pytest.raises(IndexError, match="scatter_update: an index is out of bounds"):
        do("scatter_update", x, to_backend(np.array([[3, 0]]), backend),
           to_backend(np.ones(1), backend))


# ---------------------------------------------------------------- casts


def _saturate_ref(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return np.array([math.trunc(min(max(float(v), lo), hi)) for v in values])


@pytest.mark.parametrize("dst", ["uint8", "int8", "int16"])
@pytest.mark.parametrize("src", ["float32", "float64", "int64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_saturate_cast(backend: str, src: str, dst: str) -> None:
    values = np.array([-1000.0, -129.7, -1.5, 0.0, 0.4, 127.9, 254.6, 255.0, 300.0, 7e4])
    if src == "int64":
        values = np.trunc(values)
    info = np.iinfo(dst)
    got = to_np(do("saturate_cast", to_backend(values.astype(src), backend), dst))
    assert got.dtype == np.dtype(dst)
    np.testing.assert_array_equal(got, _saturate_ref(values, info.min, info.max))


@pytest.mark.parametrize("backend", BACKENDS)
def test_saturate_cast_between_floats(backend: str) -> None:
    x = np.array([-1e300, -1.0, 1e300, np.inf, -np.inf])
    got = to_np(do("saturate_cast", to_backend(x, backend), "float32"))
    big = float(np.finfo(np.float32).max)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, np.array([-big, -1.0, big, big, -big], np.float32))
    narrow = np.array([-3e38, -1.0, 3e38, np.inf, -np.inf], np.float32)
    wide = to_np(do("saturate_cast", to_backend(narrow, backend), "float64"))
    assert wide.dtype == np.float64
    np.testing.assert_array_equal(wide, narrow.astype(np.float64))  # nothing to clip


@pytest.mark.parametrize("case", [("float32", "int32"), ("int32", "float32"),
                                  ("int16", "uint8"), ("int64", "int16"),
                                  ("float64", "uint32"), ("uint8", "int8")])
@pytest.mark.parametrize("backend", BACKENDS)
def test_view_reinterprets_the_bits(backend: str, case) -> None:
    src, dst = case
    x = np.array([[1.5, -2.0, 3.25, 0.0], [7.0, 1e4, -1e-3, 42.0]])
    x = (np.abs(x) % 250 if src[0] == "u" else x).astype(src)
    got = to_np(do("view", to_backend(x, backend), dst))
    want = x.view(dst)  # the definition: numpy's reinterpretation of the same bytes
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


# ---------------------------------------------------------------- psnr, extract_sequences


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_psnr(backend: str, dtype: str) -> None:
    a = (VALUES[:, 1:5] / 10).astype(dtype)
    b = (VALUES[:, 2:6] / 10).astype(dtype)
    af, bf = a.astype(float).ravel(), b.astype(float).ravel()
    mse = math.fsum((u - v) ** 2 for u, v in zip(af, bf, strict=True)) / af.size
    ref = np.array(20 * math.log10(2.0) - 10 * math.log10(mse))
    _check(do("psnr", to_backend(a, backend), to_backend(b, backend), 2.0), ref, dtype, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_psnr_of_different_shapes_raises(backend: str) -> None:
    with pytest.raises(ValueError, match="psnr: x1 and x2 must have the same shape"):
        do("psnr", _input(backend, "float32"), _input(backend, "float32", VALUES[:2]), 1.0)


@pytest.mark.parametrize(("length", "stride"), [(3, 2), (4, 1), (6, 6), (2, 5), (7, 1)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_extract_sequences(backend: str, length: int, stride: int) -> None:
    x = VALUES  # rows of 6
    count = (6 - length) // stride + 1 if length <= 6 else 0
    ref = np.array([[[row[i * stride + j] for j in range(length)] for i in range(count)]
                    for row in x]).reshape(4, count, length)
    _check(do("extract_sequences", to_backend(x, backend), length, stride), ref, "float64",
           backend)


def test_second_batch_on_numpy_agrees_with_torch_native() -> None:
    """Cross-check: the numpy path against torch's scatter_reduce, topk, unfold."""
    torch = pytest.importorskip("torch")
    data, ids = VALUES.T, np.array([2, 0, 2, 1, 1, 0])
    t, ti = torch.tensor(data), torch.tensor(ids)
    index = ti[:, None].expand_as(t)
    for name, how, start in (("segment_min", "amin", math.inf), ("segment_prod", "prod", 1.0)):
        want = torch.full((3, 4), start, dtype=t.dtype).scatter_reduce_(0, index, t, how)
        np.testing.assert_allclose(do(name, data, ids), want.numpy(), rtol=1e-12)
    preds = torch.tensor(VALUES)
    targets = np.array([5, 0, 3, 2])
    top2 = torch.topk(preds, 2).indices.numpy()
    np.testing.assert_array_equal(do("in_top_k", targets, VALUES, 2),
                                  [t in row for t, row in zip(targets, top2, strict=True)])
    np.testing.assert_array_equal(do("extract_sequences", VALUES, 3, 2),
                                  preds.unfold(-1, 3, 2).numpy())


# ---------------------------------------------------------------- window functions


WINDOWS = ["bartlett", "blackman", "hamming", "hanning"]


@pytest.mark.parametrize("M", [0, 1, 2, 5, 8, -3])
@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_window_matches_numpy(backend: str, name: str, M: int) -> None:
    got = do(name, M, like=backend)
    want = getattr(np, name)(M)
    default = to_np(do("zeros", 0, like=backend)).dtype
    assert to_np(got).dtype == default, f"{backend}: the library's default float"
    np.testing.assert_allclose(to_np(got), want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(("M", "beta"), [(0, 5.0), (1, 5.0), (6, 0.0), (7, 5.0), (12, 14.0)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_kaiser_matches_numpy(backend: str, M: int, beta: float) -> None:
    got = to_np(do("kaiser", M, beta, like=backend))
    np.testing.assert_allclose(got, np.kaiser(M, beta), rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------- under the compilers

_IDS = np.array([0, 2, 0, 1])
_TRACED = {
    **{n: (lambda x, n=n: do(n, x)) for n in [*ELEMENTWISE, "sparsemax"]},
    "segment_min": lambda x: do("segment_min", x, do("asarray", _IDS, like=x), num_segments=3),
    "segment_prod": lambda x: do("segment_prod", x, do("asarray", _IDS, like=x),
                                 num_segments=3),
    "in_top_k": lambda x: do("in_top_k", do("asarray", np.array([0, 1, 2, 3]), like=x), x, 2),
    "multi_hot": lambda x: do("multi_hot", do("asarray", np.array([[0, 2], [1, 1]]), like=x),
                              3),
    "slice": lambda x: do("slice", x, (1, 1), (2, 2)),
    "slice_update": lambda x: do("slice_update", x, (1, 1), x[:2, :2] * 10),
    "saturate_cast": lambda x: do("saturate_cast", x * 100, "uint8"),
    "psnr": lambda x: do("psnr", x, x * 0.9, 1.0),
    "extract_sequences": lambda x: do("extract_sequences", x, 2, 1),
}


@pytest.mark.parametrize("name", sorted(_TRACED))
@pytest.mark.parametrize("backend", [b for b in ("jax", "tensorflow") if b in BACKENDS])
def test_traces_under_jax_jit_and_tf_function(backend: str, name: str) -> None:
    x = np.abs(VALUES[:, :4]) / 10 + 0.5
    fn = _TRACED[name]
    if backend == "jax":
        import jax

        compiled = jax.jit(fn)
    else:
        import tensorflow as tf

        compiled = tf.function(tf.autograph.experimental.do_not_convert(fn))
    _same(compiled(to_backend(x, backend)), fn(x))


def _same(got, want) -> None:
    got, want = to_np(got), np.asarray(want)
    assert got.dtype == want.dtype
    if got.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    else:
        np.testing.assert_array_equal(got, want)


def test_slices_with_starts_traced_by_jax_jit() -> None:
    jax = pytest.importorskip("jax")
    x = to_backend(M34, "jax")
    starts = to_backend(np.array([1, 2]), "jax")
    got = jax.jit(lambda a, s: do("slice", a, s, (2, 2)))(x, starts)
    np.testing.assert_array_equal(to_np(got), M34[1:3, 2:4])
    upd = jax.jit(lambda a, s: do("slice_update", a, s, a[:2, :2] * 0))(x, starts)
    ref = M34.copy()
    ref[1:3, 2:4] = 0
    np.testing.assert_array_equal(to_np(upd), ref)


@pytest.mark.parametrize("name", ["hard_tanh", "soft_shrink", "sparse_plus", "sparsemax",
                                  "segment_min", "segment_prod", "in_top_k", "slice_update",
                                  "psnr"])
def test_traces_under_torch_compile_in_one_graph(name: str) -> None:
    torch = pytest.importorskip("torch")
    fn = _TRACED[name]
    x = np.abs(VALUES[:, :4]) / 10 + 0.5
    _same(torch.compile(fn, fullgraph=True)(torch.tensor(x)), fn(x))


@pytest.mark.parametrize("name", sorted(_TRACED))
def test_every_op_traces_under_torch_compile(name: str) -> None:
    """Each op of the file in one graph of torch.compile(fullgraph=True) (dynamo's
    trace, run as captured), the same values as eager."""
    torch = pytest.importorskip("torch")
    compiled_like_eager(_TRACED[name], torch.tensor(np.abs(VALUES[:, :4]) / 10 + 0.5))
