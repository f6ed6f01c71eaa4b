"""The tensorflow table's entries for the backend method list: native kernels against
numpy/scipy references and the composed fallbacks, derivatives against finite
differences, and every entry inside ``tf.function``."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import pytest
import scipy.sparse as sp

tf = pytest.importorskip("tensorflow")

from dispatch.translations import tensorflow as tftable  # noqa: E402
from dispatch.translations._composed import indexing, signal, solvers, statistics  # noqa: E402

from dispatch import UnsupportedError, do, get_lib_fn, infer_backend  # noqa: E402

rng = np.random.default_rng(23)


def T(x, dtype=None):
    return tf.constant(np.asarray(x), dtype=dtype)


def N(x):
    if isinstance(x, (tuple, list)):
        return type(x)(N(v) for v in x)
    return np.asarray(do("to_numpy", x))


def graph(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` traced inside a tf.function (symbolic tensors)."""
    seen = []

    def traced(*a):
        seen.append(all(tf.is_symbolic_tensor(t) for t in a if isinstance(t, tf.Tensor)))
        return fn(*a, **kwargs)

    out = tf.function(traced)(*args)
    assert seen == [True]
    return out


def both(fn, *args, **kwargs):
    """Eager and tf.function results of the same call, as numpy."""
    return N(fn(*args, **kwargs)), N(graph(fn, *args, **kwargs))


def finite_difference(f, x, eps=1e-6):
    """d f / d x (f: array -> array) by central differences, f.shape + x.shape."""
    x = np.asarray(x, dtype=np.float64)
    cols = []
    for i in range(x.size):
        dx = np.zeros(x.size)
        dx[i] = eps
        dx = dx.reshape(x.shape)
        cols.append((np.asarray(f(x + dx)) - np.asarray(f(x - dx))) / (2 * eps))
    return np.moveaxis(np.array(cols), 0, -1).reshape(np.shape(f(x)) + x.shape)


# ---------------------------------------------------------------- resolution


def test_tensorflow_kernels_live_once_in_its_package():
    # tf's native kernels are defined once, in the table's package next to the entries
    # that use them (not copied into, nor left in, the composed modules); the composed
    # conv is referenced, not copied
    kernels = [
        (tftable.indexing, indexing, "_searchsorted_batched_tensorflow"),
        (tftable.indexing, indexing, "_scatter_1d_scalar_tensorflow"),
        (tftable.solvers, solvers, "_mul_matrix_batched_vector_tensorflow"),
    ]
    for topic, composed_module, name in kernels:
        assert getattr(topic, name).__module__ == topic.__name__
        assert not hasattr(composed_module, name)
    assert tftable.signal._conv_composed is signal.conv


NAMES_SOURCE = None  # set below: the text of the NAMES list, left out of the search
NAMES = [
    "scatter", "gather", "bincount_fixed", "histogram1d", "searchsorted_batched",
    "sparse_coo_tensor", "csr_matrix", "csc_matrix", "is_sparse", "get_sparse_format",
    "disassemble", "mul_matrix_batched_vector", "fft_axes", "ifft_axes", "conv", "grid_sample",
    "jacobian", "gradient", "hessian", "custom_gradient", "stop_gradient",
    "stop_gradient_tree", "jit_compile", "jit_compile_grad", "jit_compile_hessian",
    "while_loop", "vectorized_call", "numpy_call", "is_available", "list_devices",
    "get_default_device", "set_default_device", "get_device", "allocate_on_device",
    "get_peak_memory", "reset_peak_memory", "to_dlpack", "from_dlpack", "seed",
    "random_uniform", "variable", "is_module", "copy",
]
_src = Path(__file__).read_text()
NAMES_SOURCE = _src[_src.index("NAMES = ["):_src.index("]", _src.index("NAMES = ["))]


FUNCTION_TESTS = Path(__file__).resolve().parent.parent / "functions"


@pytest.mark.parametrize("name", NAMES)
def test_every_entry_resolves_and_runs_somewhere(name):
    """Each entry resolves, and a test that runs on tensorflow (the function tests
    run on every backend; this file on tensorflow) calls it and checks its result:
    resolving alone proves nothing about what the entry does."""
    assert callable(get_lib_fn("tensorflow", name))
    quoted = f'"{name}"'
    mine = Path(__file__).read_text().replace(NAMES_SOURCE, "")
    users = [p.name for p in sorted(FUNCTION_TESTS.glob("test_*.py")) if quoted in p.read_text()]
    assert users or quoted in mine, f"no test calls do({name!r}) on tensorflow"


def test_module_is_a_documented_gap():
    with pytest.raises(UnsupportedError, match="keras"):
        do("module", {}, lambda x: x, like="tensorflow")


# ---------------------------------------------------------------- scatter


def ref_scatter(base, indices, values, mode):
    batch = max(base.shape[0], indices.shape[0], values.shape[0])
    out = np.array(np.broadcast_to(base, (batch, *base.shape[1:])))
    vals = np.broadcast_to(values, (batch, indices.shape[1], base.shape[-1])).astype(base.dtype)
    for b in range(batch):
        idx = tuple(indices[min(b, indices.shape[0] - 1)].T)
        if mode == "update":
            out[b][idx] = vals[b]
        elif mode == "add":
            (np.logical_or if base.dtype == bool else np.add).at(out[b], idx, vals[b])
        else:
            (np.maximum if mode == "max" else np.minimum).at(out[b], idx, vals[b])
    return out


F = rng.standard_normal((2, 5, 3))
IDX = rng.integers(0, 5, (2, 7, 1))
VAL = rng.standard_normal((2, 7, 3))
GRID = rng.standard_normal((2, 4, 5, 2))
IDX2 = np.stack([rng.integers(0, 4, (1, 9)), rng.integers(0, 5, (1, 9))], -1)
IDX2[0, 3] = IDX2[0, 0]  # a duplicate
SCATTER = [
    (F, IDX, VAL),
    (F.astype(np.float32), IDX.astype(np.int32), VAL.astype(np.float32)),
    (rng.integers(-9, 9, (2, 5, 3)), IDX, rng.integers(-20, 20, (2, 7, 3))),
    (rng.integers(-9, 9, (2, 5, 3)).astype(np.int16), IDX, rng.integers(-20, 20, (2, 7, 3))),
    (F[:1], IDX, VAL[:, :, :1]),  # base batch 1 broadcast, values channel 1
    (F, IDX[:1], VAL[:1, :1]),  # indices and values batch 1, one value
    (GRID, IDX2, rng.standard_normal((2, 9, 2))),
    (GRID[:1], IDX2, np.ones((2, 1, 1))),
    (F, IDX[:, :0], VAL[:, :0]),  # no updates
    (np.zeros((1, 0, 2)), np.zeros((1, 0, 1), np.int64), np.ones((1, 0, 2))),  # empty grid
    (rng.standard_normal((1, 50, 1)), rng.integers(0, 50, (1, 80, 1)),
     rng.standard_normal((1, 80, 1))),  # the 1-D fast path
    (rng.random((2, 5, 3)) > 0.5, IDX, VAL > 0),
    (F.astype(np.float16), IDX, VAL.astype(np.float16)),
]


@pytest.mark.parametrize("mode", ["add", "max", "min"])
@pytest.mark.parametrize("k", range(len(SCATTER)))
def test_scatter_matches_numpy_eager_and_in_graph(mode, k):
    base, idx, vals = SCATTER[k]
    args = (T(base), T(idx), T(vals))
    before = [a.numpy().copy() for a in args]
    eager, traced = both(lambda *a: do("scatter", *a, mode), *args)
    expected = ref_scatter(base, idx, vals, mode)
    for got in (eager, traced):
        assert got.dtype == base.dtype
        np.testing.assert_allclose(got, expected, rtol=1e-3 if base.dtype == np.float16 else 1e-6)
    for a, b in zip(args, before, strict=True):
        np.testing.assert_array_equal(a.numpy(), b)


def test_scatter_update_and_errors():
    idx = np.array([[[0], [3], [1]]])
    out = do("scatter", T(F), T(idx), T(VAL[:, :3]), "update")
    np.testing.assert_array_equal(N(out), ref_scatter(F, idx, VAL[:, :3], "update"))
    with pytest.raises(ValueError, match="mode"):
        do("scatter", T(F), T(IDX), T(VAL), "mul")
    with pytest.raises(ValueError, match="components"):
        do("scatter", T(F), T(IDX2), T(VAL), "add")


def test_scatter_agrees_with_composed_fallback():
    no_spatial = (np.arange(6.0).reshape(2, 3), np.zeros((2, 4, 0), np.int64), np.ones((2, 4, 3)))
    for base, idx, vals in [(GRID, IDX2, np.ones((2, 9, 2))), no_spatial,
                            tuple(a[:1] for a in no_spatial)]:
        for mode in ("add", "max", "min"):
            np.testing.assert_allclose(N(do("scatter", T(base), T(idx), T(vals), mode)),
                                       indexing.scatter(base, idx, vals, mode))


@pytest.mark.parametrize("mode", ["add", "max", "min", "update"])
def test_scatter_gradients_against_finite_differences(mode):
    idx = IDX if mode != "update" else np.array([[[0], [3], [1]], [[4], [2], [0]]])
    vals = VAL[:, : idx.shape[1]]
    g = rng.standard_normal(F.shape)

    def loss(b, v):
        return tf.reduce_sum(do("scatter", b, T(idx), v, mode) * g)

    gb, gv = do("gradient", loss, (0, 1), like="tensorflow")(T(F), T(vals))
    fd_b = finite_difference(lambda b: np.sum(ref_scatter(b, idx, vals, mode) * g), F)
    fd_v = finite_difference(lambda v: np.sum(ref_scatter(F, idx, v, mode) * g), vals)
    np.testing.assert_allclose(N(gb), fd_b, atol=1e-7)
    np.testing.assert_allclose(N(gv), fd_v, atol=1e-7)


# ---------------------------------------------------------------- counting, gather


X_COUNT = np.array([0, 3, 3, -1, 9, 2, 3])
W_COUNT = rng.standard_normal(7)


@pytest.mark.parametrize(
    "weights",
    [None, W_COUNT, W_COUNT.astype(np.float32), np.arange(7), np.arange(7).astype(np.int16),
     W_COUNT > 0, W_COUNT + 1j * W_COUNT[::-1], W_COUNT.astype(np.float16)],
    ids=["count", "f8", "f4", "i8", "i2", "bool", "c16", "f2"],
)
def test_bincount_fixed_matches_composed(weights):
    args = (T(X_COUNT), None if weights is None else T(weights), 5)
    expected = statistics.bincount_fixed(X_COUNT, weights, 5)
    eager, traced = both(lambda x, *w: do("bincount_fixed", x, w[0] if w else None, 5),
                         *[a for a in args[:2] if a is not None])
    for got in (eager, traced):
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got, expected, rtol=1e-3)


def test_bincount_and_histogram_weight_gradients():
    w = T(W_COUNT)
    g = rng.standard_normal(5)
    grad = do("gradient", lambda v: tf.reduce_sum(do("bincount_fixed", T(X_COUNT), v, 5) * g),
              like="tensorflow")(w)
    fd = finite_difference(lambda v: np.sum(statistics.bincount_fixed(X_COUNT, v, 5) * g), W_COUNT)
    np.testing.assert_allclose(N(grad[0]), fd, atol=1e-8)
    vals, edges = rng.uniform(0, 4, (1, 9)), np.array([[0.0, 1.0, 2.5, 4.0]])
    jac = do("jacobian", lambda v: do("histogram1d", T(vals), v, T(edges)), get_output=False,
             like="tensorflow")(T(np.ones((1, 9))))
    slots = np.clip(np.searchsorted(edges[0], vals[0], "right") - 1, 0, 2)
    np.testing.assert_array_equal(N(jac[0])[0, :, 0], np.eye(3)[slots].T)


def test_bincount_fixed_empty_and_sorted_hint():
    np.testing.assert_array_equal(N(do("bincount_fixed", T(np.zeros(0, int)), None, 3)), [0, 0, 0])
    x = np.sort(rng.integers(0, 10, 30))
    np.testing.assert_array_equal(N(do("bincount_fixed", T(x), None, 10, True)), np.bincount(x))


@pytest.mark.parametrize("weights", [None, "float", "int"])
def test_histogram1d_matches_numpy(weights):
    values = rng.uniform(-1, 11, (3, 40))
    values[0, :3] = [0.0, 10.0, np.nan]  # first and last edge, NaN not counted
    edges = np.stack([np.linspace(0, 10, 6), np.linspace(0, 10, 6) ** 1.2,
                      np.linspace(-1, 5, 6)])
    w = {None: None, "float": rng.random((1, 40)), "int": rng.integers(0, 4, (3, 40))}[weights]
    eager, traced = both(lambda v, e, *ws: do("histogram1d", v, ws[0] if ws else None, e),
                         T(values), T(edges), *([] if w is None else [T(w)]))
    for b in range(3):
        ref = np.histogram(values[b][~np.isnan(values[b])], edges[b],
                           weights=None if w is None else w[min(b, w.shape[0] - 1)][
                               ~np.isnan(values[b])])[0]
        np.testing.assert_allclose(eager[b], ref)
        np.testing.assert_allclose(traced[b], ref)
    assert eager.dtype == (np.int64 if w is None else w.dtype)


def test_searchsorted_batched_promotes_and_runs_in_graph():
    seq = np.array([[1, 3, 5], [0, 2, 9]])
    vals = np.array([[1.5, 3.0, 6.0], [9.0, -1.0, 2.5]])
    for side in ("left", "right"):
        expected = np.stack([np.searchsorted(seq[i], vals[i], side) for i in range(2)])
        eager, traced = both(lambda s, v, side=side: do("searchsorted_batched", s, v, side),
                             T(seq), T(vals))
        np.testing.assert_array_equal(eager, expected)
        np.testing.assert_array_equal(traced, expected)
        assert eager.dtype == np.int32
    out = do("searchsorted_batched", T(seq[:1]), T(vals), dtype="int64")  # leading dims broadcast
    assert N(out).dtype == np.int64
    assert N(out).shape == (2, 3)


def test_gather_wraps_negative_indices_like_numpy():
    v = rng.standard_normal((4, 6))
    idx = np.array([5, -1, 0, -6])
    eager, traced = both(lambda a, i: do("gather", a, i, 1), T(v), T(idx))
    np.testing.assert_array_equal(eager, np.take(v, idx, axis=1))
    np.testing.assert_array_equal(traced, np.take(v, idx, axis=1))
    np.testing.assert_array_equal(N(do("gather", T(v), T(np.array([3, 0])))), v[[3, 0]])
    with pytest.raises((IndexError, tf.errors.InvalidArgumentError)):
        do("gather", T(v), T(np.array([7])))


# ---------------------------------------------------------------- sparse

MAT = sp.random(5, 4, density=0.5, format="csr", random_state=3)
MAT.data[0] = 0.0  # an explicit zero
COO_IDX = np.stack([MAT.tocoo().row, MAT.tocoo().col], 1)[::-1].copy()  # not row-major
COO_VAL = MAT.tocoo().data[::-1].copy()


def test_sparse_constructors_match_scipy():
    dense = MAT.toarray()
    coo = do("sparse_coo_tensor", T(COO_IDX), T(COO_VAL), MAT.shape)
    csr = do("csr_matrix", T(MAT.indices), T(MAT.indptr), T(MAT.data), MAT.shape)
    csc_m = MAT.tocsc()
    csc = do("csc_matrix", T(csc_m.indptr), T(csc_m.indices), T(csc_m.data), MAT.shape)
    for m in (coo, csr, csc):
        assert isinstance(m, tf.SparseTensor)
        assert infer_backend(m) == "tensorflow"
        assert do("is_sparse", m)
        assert do("get_sparse_format", m) == "coo"
        np.testing.assert_array_equal(tf.sparse.to_dense(m).numpy(), dense)
        host = do("numpy", m)  # scipy.sparse
        assert sp.issparse(host)
        np.testing.assert_array_equal(host.toarray(), dense)
    per_axis = do("sparse_coo_tensor", (T(COO_IDX[:, 0]), T(COO_IDX[:, 1])), T(COO_VAL), MAT.shape)
    np.testing.assert_array_equal(tf.sparse.to_dense(per_axis).numpy(), dense)
    assert not do("is_sparse", T(dense))
    assert do("get_sparse_format", T(dense)) == "dense"


def test_sparse_duplicates_sum_in_products_and_on_the_host():
    idx = np.array([[0, 1], [1, 0], [0, 1]])
    m = do("sparse_coo_tensor", T(idx), T(np.array([1.0, 2.0, 3.0])), (2, 2))
    np.testing.assert_allclose(do("numpy", m).toarray(), [[0, 4], [2, 0]])
    out = do("mul_matrix_batched_vector", m, T(np.array([[1.0, 1.0]])))
    np.testing.assert_allclose(N(out), [[4.0, 2.0]])


def test_disassemble_round_trips():
    m = do("csr_matrix", T(MAT.indices), T(MAT.indptr), T(MAT.data), MAT.shape)
    assemble, parts = do("disassemble", m)
    assert len(parts) == 2
    assert N(parts[0]).shape == (MAT.nnz, 2)
    again = assemble("tensorflow", *parts)
    np.testing.assert_array_equal(tf.sparse.to_dense(again).numpy(), MAT.toarray())
    on_numpy = assemble("numpy", *[N(p) for p in parts])
    np.testing.assert_array_equal(on_numpy.toarray(), MAT.toarray())
    assemble, parts = do("disassemble", T(np.eye(2)))
    np.testing.assert_array_equal(N(assemble("tensorflow", *parts)), np.eye(2))


def test_sparse_constructors_in_graph():
    def build(cols, ptrs, vals):
        m = do("csr_matrix", cols, ptrs, vals, MAT.shape)
        return tf.sparse.to_dense(m)

    np.testing.assert_array_equal(N(graph(build, T(MAT.indices), T(MAT.indptr), T(MAT.data))),
                                  MAT.toarray())


def test_batched_sparse_constructors_are_tuples_of_sparse_tensors():
    cols, ptrs = MAT.indices[None], MAT.indptr[None]
    vals = np.stack([MAT.data, 2 * MAT.data])[..., None]
    ms = do("csr_matrix_batched", T(cols), T(ptrs), T(vals), MAT.shape)
    assert len(ms) == 2
    assert all(isinstance(m, tf.SparseTensor) for m in ms)
    np.testing.assert_allclose(tf.sparse.to_dense(ms[1]).numpy(), 2 * MAT.toarray())


@pytest.mark.parametrize("fmt", ["dense", "sparse"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_mul_matrix_batched_vector(fmt, dtype):
    a = MAT.toarray().astype(dtype)
    if dtype == "complex128":
        a = a + 1j * np.flip(a)
    b = rng.standard_normal((3, 4)).astype(dtype)
    if dtype == "complex128":
        b = b - 2j * b
    if fmt == "sparse":
        c = sp.coo_array(a)
        A = do("sparse_coo_tensor", T(np.stack([c.row, c.col], 1)), T(c.data), a.shape)
    else:
        A = T(a)
    eager, traced = both(lambda v: do("mul_matrix_batched_vector", A, v), T(b))
    np.testing.assert_allclose(eager, b @ a.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(traced, b @ a.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(N(do("mul_matrix_batched_vector", A, T(b[0]))), a @ b[0],
                               rtol=1e-5, atol=1e-5)
    mixed = do("mul_matrix_batched_vector", A, b.astype("complex128"))  # numpy constant, promoted
    np.testing.assert_allclose(N(mixed), b @ a.T, rtol=1e-5, atol=1e-5)


def test_conjugate_gradient_on_a_sparse_tensor():
    n = 6
    lap = sp.diags([-np.ones(n - 1), 2.5 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1]).tocoo()
    A = do("sparse_coo_tensor", T(np.stack([lap.row, lap.col], 1)), T(lap.data), (n, n))
    y = rng.standard_normal((2, n))
    res = do("conjugate_gradient", A, T(y), rtol=1e-10, max_iter=100)
    np.testing.assert_allclose(N(res.x) @ lap.toarray().T, y, atol=1e-8)


# ---------------------------------------------------------------- fft, conv, grid_sample

X5 = rng.standard_normal((2, 3, 4, 2, 3))


@pytest.mark.parametrize("axes", [(0,), (4,), (1, 3), (0, 2, 4), (1, 2, 3, 4), (0, 1, 2, 3, 4), ()])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64"])
def test_fft_axes_matches_numpy(axes, dtype):
    x = (X5 * 3).astype(dtype) if dtype != "complex64" else (X5 + 1j * X5[::-1]).astype(dtype)
    cdt = {"float64": "complex128", "int64": "complex64"}.get(dtype, "complex64")
    ref = (np.fft.fftn(x, axes=axes) if axes else x).astype(cdt)
    eager, traced = both(lambda v: do("fft_axes", v, axes), T(x))
    tol = 1e-4 if cdt == "complex64" else 1e-10
    for got in (eager, traced):
        assert got.dtype == cdt
        np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * 10)
    back = N(do("ifft_axes", T(ref), axes))
    np.testing.assert_allclose(back, x.astype(cdt), rtol=tol, atol=tol * 10)


def test_fft_axes_follows_precision():
    from dispatch import precision

    with precision(64):
        assert N(do("fft_axes", T(np.ones(4, "float32")), (0,))).dtype == np.complex128


def ref_conv(value, kernel, strides=1, out_sizes=None, transpose=False, zero_padding=True):
    """out[b, o, y] = sum value[b, i, y * s + m - p] kernel[b, o, i, m], p = k // 2 (or 0);
    transposed: value[b, i, j] kernel[b, o, i, m] added at y = j * s + m - p."""
    d = value.ndim - 2
    s = (strides,) * d if np.ndim(strides) == 0 else tuple(strides)
    n, k = value.shape[2:], kernel.shape[3:]
    p = [kk // 2 if zero_padding else 0 for kk in k]
    sizes = list(zip(n, s, k, strict=True))
    if out_sizes is None and transpose:
        o = [i * st if zero_padding else (i - 1) * st + kk for i, st, kk in sizes]
    elif out_sizes is None:
        o = [-(-i // st) if zero_padding else max((i - kk) // st + 1, 0) for i, st, kk in sizes]
    else:
        o = list(out_sizes)
    batch = max(value.shape[0], kernel.shape[0])
    out = np.zeros((batch, kernel.shape[1], *o), np.result_type(value, kernel))
    for b in range(batch):
        v, w = value[min(b, value.shape[0] - 1)], kernel[min(b, kernel.shape[0] - 1)]
        for m in itertools.product(*(range(kk) for kk in k)):
            wm = w[(slice(None), slice(None), *m)]
            if not transpose:
                for y in itertools.product(*(range(oo) for oo in o)):
                    src = [yy * st + mm - pp for yy, st, mm, pp in zip(y, s, m, p, strict=True)]
                    if all(0 <= q < nn for q, nn in zip(src, n, strict=True)):
                        out[(b, slice(None), *y)] += wm @ v[(slice(None), *src)]
            else:
                for j in itertools.product(*(range(nn) for nn in n)):
                    y = [st * jj + mm - pp for st, jj, mm, pp in zip(s, j, m, p, strict=True)]
                    if all(0 <= q < oo for q, oo in zip(y, o, strict=True)):
                        out[(b, slice(None), *y)] += wm @ v[(slice(None), *j)]
    return out


V1 = rng.standard_normal((2, 3, 7))
K1 = rng.standard_normal((1, 2, 3, 3))
K1E = rng.standard_normal((2, 2, 3, 4))
V2 = rng.standard_normal((2, 2, 5, 6))
K2 = rng.standard_normal((1, 3, 2, 3, 2))
V3 = rng.standard_normal((1, 2, 4, 3, 5))
K3 = rng.standard_normal((1, 2, 2, 3, 2, 3))
CONV = [
    (V1, K1, {}), (V1, K1, {"zero_padding": False}), (V1, K1E, {}),
    (V1, K1, {"strides": 2}), (V1, K1E, {"strides": 3, "zero_padding": False}),
    (V1, K1, {"out_sizes": (9,)}), (V1[:1], K1E, {"strides": 2}),
    (V1, K1, {"transpose": True}), (V1, K1E, {"transpose": True, "strides": 2}),
    (V1, K1, {"transpose": True, "strides": 2, "zero_padding": False}),
    (V1, K1E, {"transpose": True, "strides": 3, "out_sizes": (25,)}),
    (V2, K2, {}), (V2, K2, {"strides": (2, 1), "zero_padding": False}),
    (V2, K2, {"transpose": True, "strides": (1, 2)}),
    (V3, K3, {}), (V3, K3, {"strides": 2}), (V3, K3, {"transpose": True, "strides": (2, 1, 2)}),
    (V2.astype("float32"), K2.astype("float32"), {}),
    (rng.integers(-3, 4, (1, 2, 6)), rng.integers(-2, 3, (1, 2, 2, 3)), {}),  # composed
    (V1 + 1j * V1, K1, {}),  # complex: composed
    (np.zeros((1, 3, 0)), K1, {}),
]


@pytest.mark.parametrize(("value", "kernel", "kw"), CONV, ids=[str(i) for i in range(len(CONV))])
def test_conv_matches_direct_sum_eager_and_in_graph(value, kernel, kw):
    expected = ref_conv(value, kernel, **kw)
    eager, traced = both(lambda v, k: do("conv", v, k, **kw), T(value), T(kernel))
    tol = 1e-4 if value.dtype == np.float32 else 1e-9
    for got in (eager, traced):
        assert got.shape == expected.shape
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def test_conv_gradients_against_finite_differences():
    g = rng.standard_normal((2, 2, 4))

    def loss(v, k):
        return tf.reduce_sum(do("conv", v, k, strides=2) * g)

    grad = do("gradient", loss, (0, 1), like="tensorflow")
    gv, gk = grad(T(V1), T(K1))
    fd_v = finite_difference(lambda v: np.sum(ref_conv(v, K1, strides=2) * g), V1)
    fd_k = finite_difference(lambda k: np.sum(ref_conv(V1, k, strides=2) * g), K1)
    np.testing.assert_allclose(N(gv), fd_v, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(N(gk), fd_k, rtol=1e-6, atol=1e-8)


def test_grid_sample_composed_in_graph_and_gradient():
    grid = rng.standard_normal((1, 4, 5, 2))
    coords = rng.uniform(0.2, 2.8, (1, 6, 2))
    eager, traced = both(lambda g, c: do("grid_sample", g, c, "zeros"), T(grid), T(coords))
    np.testing.assert_allclose(traced, eager, rtol=1e-12)

    def sample(c):
        return do("grid_sample", T(grid), c, "zeros")

    jac = do("jacobian", sample, like="tensorflow", get_output=False)(T(coords))
    fd = finite_difference(lambda c: N(sample(T(c))), coords)
    np.testing.assert_allclose(N(jac[0]), fd, rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------- autodiff


def f_vec(x, y):
    return tf.sin(x) * tf.reduce_sum(y**2), x


def test_jacobian_against_finite_differences():
    x, y = rng.standard_normal(3), rng.standard_normal(2)
    jac = do("jacobian", f_vec, wrt=(0, 1), like="tensorflow")
    (out, aux), (jx, jy) = jac(T(x), T(y))
    np.testing.assert_allclose(N(aux), x)
    ref = lambda a, b: np.sin(a) * np.sum(b**2)
    np.testing.assert_allclose(N(out), ref(x, y))
    np.testing.assert_allclose(N(jx), finite_difference(lambda a: ref(a, y), x), rtol=1e-6,
                               atol=1e-8)
    np.testing.assert_allclose(N(jy), finite_difference(lambda b: ref(x, b), y), rtol=1e-6,
                               atol=1e-8)
    only = do("jacobian", f_vec, wrt=1, get_output=False, like="tensorflow")(T(x), T(y))
    np.testing.assert_allclose(N(only), N(jy))


def test_gradient_of_scalar_with_int_argument_and_variable():
    def loss(x, w, scale):
        return tf.reduce_sum(tf.cast(x, w.dtype) ** 2 * w) * scale

    x, w = np.array([1, 2, 3]), rng.standard_normal(3)
    grad = do("gradient", loss, (0, 1), like="tensorflow")
    gx, gw = grad(T(x), tf.Variable(w), 2.0)
    assert gx.dtype == tf.float32  # integers differentiate as floats of the current precision
    np.testing.assert_allclose(N(gx), 4 * x * w, rtol=1e-6)
    np.testing.assert_allclose(N(gw), 2 * x**2, rtol=1e-12)
    value, g = do("gradient", loss, 1, get_output=True, like="tensorflow")(T(x), T(w), 1.0)
    np.testing.assert_allclose(N(value), np.sum(x**2 * w))
    np.testing.assert_allclose(N(g), x**2)


def test_gradients_are_dense_and_flow_through_jit():
    v = T(np.arange(4.0))
    idx = T(np.array([1, 1, 3]))
    g = do("gradient", lambda a: tf.reduce_sum(do("gather", a, idx) ** 2), like="tensorflow")(v)
    assert isinstance(g[0], tf.Tensor)
    np.testing.assert_allclose(N(g[0]), [0.0, 4.0, 0.0, 6.0])
    jf = do("jit_compile", lambda a: tf.reduce_sum(tf.sin(a)), like="tensorflow")
    gj = do("gradient", jf, like="tensorflow")(v)
    np.testing.assert_allclose(N(gj[0]), np.cos(np.arange(4.0)))


def test_jacobian_inside_tf_function_and_nested():
    x = rng.standard_normal(3)
    grad = do("gradient", lambda v: tf.reduce_sum(tf.sin(v) * v), like="tensorflow")
    hess_of_grad = do("jacobian", lambda v: grad(v)[0], get_output=False, like="tensorflow")
    h = N(graph(lambda v: hess_of_grad(v)[0], T(x)))
    ref = np.diag(2 * np.cos(x) - x * np.sin(x))
    np.testing.assert_allclose(h, ref, rtol=1e-9, atol=1e-12)
    jitted = do("jit_compile_grad", f_vec, wrt=(0,), like="tensorflow")
    (_, _), (jx,) = jitted(T(x), T(np.ones(2)))
    np.testing.assert_allclose(N(jx), np.diag(2 * np.cos(x)), rtol=1e-9)


def test_hessian_per_batch_entry_against_finite_differences():
    x = rng.standard_normal((3, 2))
    y = rng.standard_normal((3, 4))

    def loss(a, b):
        return tf.reduce_sum(tf.sin(a), -1) * tf.reduce_sum(b**2, -1) + tf.reduce_sum(a, -1) ** 3

    def ref(a, b):
        return np.sum(np.sin(a), -1) * np.sum(b**2, -1) + np.sum(a, -1) ** 3

    hess = do("hessian", loss, wrt=(0, 1), like="tensorflow")
    for run in (lambda *a: hess(*a), lambda *a: graph(hess, *a)):
        out, (gx, gy), ((hxx, hxy), (hyx, hyy)) = run(T(x), T(y))
        np.testing.assert_allclose(N(out), ref(x, y))
        # finite differences carry an absolute error near 1e-9: entries close to
        # zero need an absolute tolerance as well
        np.testing.assert_allclose(N(gx), finite_difference(lambda a: ref(a, y).sum(), x),
                                   rtol=1e-6, atol=1e-8)
        # analytic second derivatives of each batch entry's loss
        sy = np.sum(y**2, -1)
        ref_xx = (-np.sin(x) * sy[:, None])[:, :, None] * np.eye(2) + 6 * x.sum(-1)[:, None, None]
        ref_xy = 2 * np.cos(x)[:, :, None] * y[:, None, :]
        ref_yy = 2 * np.sin(x).sum(-1)[:, None, None] * np.eye(4)
        np.testing.assert_allclose(N(hxx), ref_xx, rtol=1e-9)
        np.testing.assert_allclose(N(hxy), ref_xy, rtol=1e-9)
        np.testing.assert_allclose(N(hyx), np.swapaxes(ref_xy, 1, 2), rtol=1e-9)
        np.testing.assert_allclose(N(hyy), ref_yy, rtol=1e-9)
        np.testing.assert_allclose(N(gy), finite_difference(lambda q: ref(x, q).sum(), y),
                                   rtol=1e-6, atol=1e-8)
    only = do("hessian", loss, wrt=1, get_output=False, get_gradient=False,
              like="tensorflow")(T(x), T(y))
    assert isinstance(only, tuple)
    assert len(only) == 1
    assert N(only[0]).shape == (3, 4, 4)
    jh = do("jit_compile_hessian", loss, wrt=0, like="tensorflow")(T(x), T(y))
    np.testing.assert_allclose(N(jh[2]), N(hxx), rtol=1e-9)


def test_custom_gradient_replaces_the_derivative():
    def f(x, scale):
        return x**2 * scale

    def grad(inputs, y, dy):
        x, _ = inputs
        return 10 * dy * x, None  # the true derivative is 2 * scale * x

    cf = do("custom_gradient", f, grad, like="tensorflow")
    x = T(np.array([1.0, -2.0]))
    np.testing.assert_allclose(N(cf(x, 3.0)), [3.0, 12.0])
    g = do("gradient", lambda v: tf.reduce_sum(cf(v, 3.0)), like="tensorflow")
    np.testing.assert_allclose(N(g(x)[0]), [10.0, -20.0])
    np.testing.assert_allclose(N(graph(lambda v: g(v)[0], x)), [10.0, -20.0])
    # tensor arguments without a gradient get zeros; tuple outputs get a tuple of cotangents
    cf2 = do("custom_gradient", lambda a, b: (a * b, a + b),
             lambda xs, ys, dys: (dys[0] + dys[1], None), like="tensorflow")
    ga, gb = do("gradient", lambda a, b: tf.reduce_sum(cf2(a, b)[0]), (0, 1),
                like="tensorflow")(x, 2 * x)
    np.testing.assert_allclose(N(ga), [1.0, 1.0])
    np.testing.assert_allclose(N(gb), [0.0, 0.0])


def test_stop_gradient_and_tree():
    x = T(np.array([1.0, 2.0]))
    g = do("gradient", lambda v: tf.reduce_sum(do("stop_gradient", v) * v), like="tensorflow")
    np.testing.assert_allclose(N(g(x)[0]), [1.0, 2.0])
    tree = {"a": [x, np.ones(2)], "b": (3, x)}
    out = do("stop_gradient_tree", tree)
    assert isinstance(out["a"], list)
    assert isinstance(out["b"], tuple)
    assert out["b"][0] == 3
    assert isinstance(out["a"][1], np.ndarray)
    gt = do("gradient", lambda v: tf.reduce_sum(do("stop_gradient_tree", (v,))[0] * v),
            like="tensorflow")
    np.testing.assert_allclose(N(gt(x)[0]), [1.0, 2.0])


# ---------------------------------------------------------------- jit


def test_jit_compile_folds_numpy_constants():
    host_calls = []

    def prepare(c):
        host_calls.append(1)  # runs at trace time only
        return np.sin(c) ** 2

    def f(x, c, power=2):
        return x * do("sum", prepare(c)) + x**power

    jf = do("jit_compile", f, like="tensorflow")
    c = np.array([0.5, 1.0])
    x = T(np.array([1.0, 2.0, 3.0]))
    for _ in range(3):
        np.testing.assert_allclose(N(jf(x, c)), N(f(x, c)))
    assert len(jf.traces) == 1
    assert len(host_calls) == 1 + 3  # one trace, three eager reference calls
    c[0] = 2.0  # the caller changes the array: new content, new trace, new constant
    np.testing.assert_allclose(N(jf(x, c)), N(f(x, c)))
    np.testing.assert_allclose(N(jf(x, c, power=3)), N(f(x, c, power=3)))
    assert len(jf.traces) == 3
    np.testing.assert_allclose(N(jf(T(np.ones((2, 2))), c)), N(f(T(np.ones((2, 2))), c)))
    assert len(jf.traces) == 3  # a new shape retraces inside the same tf.function


def test_jit_compile_graph_is_symbolic_and_takes_structures():
    seen = []

    def f(pair, scale=1.0):
        seen.append(do("is_available", pair[0]))
        return {"sum": pair[0] + pair[1] * scale}

    jf = do("jit_compile", f, like="tensorflow")
    out = jf((T(np.ones(2)), T(np.arange(2.0))), scale=2.0)
    np.testing.assert_allclose(N(out["sum"]), [1.0, 3.0])
    assert seen == [False]
    v = tf.Variable(np.ones(2))
    out = do("jit_compile", lambda a: a * 2, like="tensorflow")(v)
    np.testing.assert_allclose(N(out), [2.0, 2.0])


def test_jit_compile_with_xla():
    jf = do("jit_compile", lambda a, b: tf.reduce_sum(a * b), xla=True, like="tensorflow")
    np.testing.assert_allclose(N(jf(T(np.ones(3)), T(np.arange(3.0)))), 3.0)


def test_jit_compile_draws_fresh_random_numbers():
    jf = do("jit_compile", lambda x: x + do("random_normal", (3,), "float64", like="tensorflow"),
            like="tensorflow")
    a, b = N(jf(T(np.zeros(3)))), N(jf(T(np.zeros(3))))
    assert not np.allclose(a, b)


# ---------------------------------------------------------------- control flow, host calls


def collatz_step(go, x, n):
    nxt = tf.where(x % 2 == 0, x // 2, 3 * x + 1)
    x = tf.where(go, nxt, x)
    return x != 1, x, n + tf.cast(go, n.dtype)


X0 = np.array([6, 7, 1, 27])
STEPS = np.array([8, 16, 0, 111])


def start():
    return T(X0) != 1, T(X0), T(np.zeros(4, np.int32))


@pytest.mark.parametrize("max_iter", [None, 10, [0, 5, 20, 200, 300], [20, 0, 5, 5]])
def test_while_loop_matches_composed_eager_and_in_graph(max_iter):
    from dispatch.translations._composed.control import while_loop as composed_loop

    ref = composed_loop(collatz_step, start(), max_iter)
    if max_iter is not None and not isinstance(max_iter, int):
        cps = np.array(max_iter)
        ref_n = np.minimum(STEPS[None], cps[:, None])
    else:
        ref_n = STEPS if max_iter is None else np.minimum(STEPS, max_iter)
    eager = do("while_loop", collatz_step, start(), max_iter)
    traced = graph(lambda *v: do("while_loop", collatz_step, v, max_iter), *start())
    for out in (eager, traced):
        assert isinstance(out, tuple)
        assert len(out) == 3
        np.testing.assert_array_equal(N(out[2]), ref_n)
        if max_iter is None or isinstance(max_iter, int) or sorted(max_iter) == list(max_iter):
            for a, b in zip(N(out), N(ref), strict=True):
                np.testing.assert_array_equal(a, b)


def test_while_loop_casts_outputs_and_stops_gradients():
    x = T(np.array([1.0, 2.0]))

    def loss(v):
        _, y = do("while_loop", lambda go, w: (go & False, w * 2), (tf.constant(True), v))
        return tf.reduce_sum(y * v)

    np.testing.assert_allclose(N(do("gradient", loss, like="tensorflow")(x)[0]), [2.0, 4.0])
    # a Python int and a numpy value come back as tensors of the loop variables' dtypes
    _, k = do("while_loop", lambda go, i: (i + 1 < 5, i + 1), (T(True), np.int64(0)), 100)
    assert N(k) == 5
    assert N(k).dtype == np.int64
    _, k = do("while_loop", lambda go, i: (i + 1 < 50, i + 1), (T(True), T(0)), tf.constant(7))
    assert N(k) == 7


def test_vectorized_call_vmap_map_fn_and_graph():
    a = rng.standard_normal((4, 3))
    b = rng.standard_normal((1, 3))
    ref = np.sum(a * b, -1)
    out = do("vectorized_call", lambda u, v: tf.reduce_sum(u * v), T(a), T(b))
    np.testing.assert_allclose(N(out), ref)
    dot = lambda p, q: tf.reduce_sum(p * q)
    np.testing.assert_allclose(N(graph(lambda u, v: do("vectorized_call", dot, u, v), T(a), T(b))),
                               ref)

    def python_branch(u, scale):  # value-dependent Python: tf.vectorized_map refuses it
        return (u * scale, tf.reduce_sum(u)) if u[0] > 0 else (-u * scale, tf.reduce_sum(u))

    s, t = do("vectorized_call", python_branch, T(a), scale=2.0, output_dtypes=("float32", None))
    np.testing.assert_allclose(N(s), np.where(a[:, :1] > 0, a, -a) * 2, rtol=1e-6)
    assert N(s).dtype == np.float32
    np.testing.assert_allclose(N(t), a.sum(-1))
    with pytest.raises(ValueError, match="size 0"):
        do("vectorized_call", lambda u: u, T(np.zeros((0, 2))))


def test_numpy_call_eager_and_in_graph():
    def f(v, offset):
        assert isinstance(v, np.ndarray)
        return np.sort(v) + offset, np.argsort(v)

    x = T(np.array([3.0, 1.0, 2.0]))
    for run in (lambda fn, v: fn(v), graph):
        s, i = run(lambda v: do("numpy_call", f, ((3,), (3,)), ("float32", "int64"), v,
                                offset=1.0), x)
        np.testing.assert_allclose(N(s), [2.0, 3.0, 4.0])
        assert N(s).dtype == np.float32
        np.testing.assert_array_equal(N(i), [1, 2, 0])

    shapes = []

    def single(v):
        out = do("numpy_call", np.cumsum, (3,), "float64", v)
        shapes.append(out.shape)
        return out

    np.testing.assert_allclose(N(graph(single, x)), [3.0, 4.0, 6.0])
    assert shapes == [tf.TensorShape([3])]


def test_is_available():
    x = T(np.ones(2))
    assert do("is_available", x)
    assert do("is_available", tf.Variable(x))
    assert do("is_available", do("sparse_coo_tensor", T(np.array([[0]])), T(np.ones(1)), (2,)))
    seen = []

    @tf.function
    def f(a, v):
        seen.append((do("is_available", a), do("is_available", v), do("is_available", np.ones(1))))
        return a

    f(x, tf.Variable(x))
    assert seen == [(False, False, True)]


# ---------------------------------------------------------------- devices, interop


def test_devices():
    from dispatch.translations._composed.devices import ComputeDevice

    devices = do("list_devices", like="tensorflow")
    assert devices
    assert all(isinstance(d, ComputeDevice) for d in devices)
    cpus = do("list_devices", "CPU", like="tensorflow")
    assert cpus
    assert all(d.device_type == "CPU" for d in cpus)
    assert all(d.device_type == "TPU" for d in do("list_devices", "TPU", like="tensorflow"))
    x = T(np.arange(3.0))
    dev = do("get_device", x)
    assert dev in devices
    moved = do("allocate_on_device", x, cpus[0])
    assert do("get_device", moved) == cpus[0]
    np.testing.assert_array_equal(N(moved), N(x))
    assert do("get_device_by_ref", cpus[0].ref, like="tensorflow") == cpus[0]
    assert do("set_default_device", cpus[0], like="tensorflow")
    assert do("get_default_device", like="tensorflow") == cpus[0]
    with pytest.warns(RuntimeWarning):
        assert do("set_default_device", "TPU", like="tensorflow") is False
    peak = do("get_peak_memory", like="tensorflow")
    assert isinstance(peak, int)
    assert peak >= 0
    do("reset_peak_memory", cpus[0], like="tensorflow")
    got = graph(lambda a: tf.constant(float(do("get_device", a).device_type == "CPU")), x)
    assert N(got) == 1.0


def test_dlpack_round_trip():
    x = T(np.arange(6.0).reshape(2, 3))
    capsule = do("to_dlpack", x)
    back = do("from_dlpack", capsule, like="tensorflow")
    np.testing.assert_array_equal(N(back), N(x))
    ext = do("from_external_array_dlpack", np.arange(3.0), like="tensorflow")
    assert infer_backend(ext) == "tensorflow"


def test_variable_copy_and_identity():
    v = do("variable", np.array([1, 2]), like="tensorflow")
    assert isinstance(v, tf.Variable)
    assert v.dtype == tf.float32
    assert do("is_module", tf.Module())
    assert not do("is_module", v)
    assert do("prefers_channels_last", like="tensorflow") is True
    assert do("requires_fixed_shapes_when_tracing", like="tensorflow") is False
    x = T(np.ones(2))
    assert do("copy", x, only_mutable=True) is x
    c = do("copy", v, only_mutable=True)
    v.assign([5.0, 5.0])
    np.testing.assert_array_equal(N(c), [1.0, 2.0])
    assert do("is_tensor", x, True, like="tensorflow")
    assert do("is_tensor", 2.0, like="tensorflow")


def test_random_methods_reproducible():
    do("seed", 5, like="tensorflow")
    a = N(do("random_uniform", (3,), 0, 1, "float64", like="tensorflow"))
    do("seed", 5, like="tensorflow")
    b = N(do("random_uniform", (3,), 0, 1, "float64", like="tensorflow"))
    np.testing.assert_array_equal(a, b)


def test_gamma_inc_matches_scipy():
    import scipy.special

    a, x = np.array([0.5, 2.0, 3.0]), np.array([1.0, 0.5, 4.0])
    np.testing.assert_allclose(N(do("gamma_inc_l", T(a), T(x))), scipy.special.gammainc(a, x))
    np.testing.assert_allclose(N(do("gamma_inc_u", T(a), T(x))), scipy.special.gammaincc(a, x))
    out = do("scipy.special.gammainc", T(a.astype("float32")), 1.5)
    assert N(out).dtype == np.float64  # scipy reads a Python float as float64
