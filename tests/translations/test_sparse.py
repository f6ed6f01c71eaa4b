"""pydata sparse's quirks: fill values, stored zeros, sparse linear algebra, gaps."""

from __future__ import annotations

import numpy as np
import pytest

sparse = pytest.importorskip("sparse")
scipy_linalg = pytest.importorskip("scipy.linalg")

from dispatch import UnsupportedError, do  # noqa: E402

RNG = np.random.default_rng(7)
A = RNG.standard_normal((4, 5)) * (RNG.random((4, 5)) > 0.5)
SQ = RNG.standard_normal((5, 5)) * (RNG.random((5, 5)) > 0.6) + 3 * np.eye(5)


def coo(x):
    return sparse.COO.from_numpy(np.asarray(x))


def dense(x):
    return do("to_numpy", x)


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("exp", (A,), {}),
        ("add", (A, 1.0), {}),
        ("sum", (A,), {"axis": 0}),
        ("std", (A,), {"ddof": 1}),
        ("transpose", (A,), {}),
        ("tril", (SQ,), {"k": -1}),
        ("matmul", (A, A.T), {}),
        ("cumsum", (A,), {"axis": 1}),
        ("fft.fft", (A,), {}),
        ("linalg.inv", (SQ,), {}),
    ],
)
def test_results_are_sparse_and_equal_numpy(name, args, kwargs):
    out = do(name, *(coo(a) if isinstance(a, np.ndarray) else a for a in args), **kwargs)
    assert isinstance(out, sparse.SparseArray)
    ref = {"linalg.inv": np.linalg.inv, "fft.fft": np.fft.fft}.get(name) or getattr(np, name)
    np.testing.assert_allclose(dense(out), ref(*args, **kwargs), atol=1e-12)


def test_nonzero_fill_values_are_numpy_equal():
    x = coo(A)
    e = do("exp", x)
    assert e.fill_value == 1  # sparse keeps exp(0) as the fill value
    np.testing.assert_allclose(dense(e), np.exp(A))
    # operations pydata defines for zero fill only get the zero-fill form
    np.testing.assert_allclose(dense(do("tril", do("exp", coo(SQ)))), np.tril(np.exp(SQ)))
    np.testing.assert_allclose(dense(do("matmul", e, x.T)), np.exp(A) @ A.T)
    np.testing.assert_allclose(
        dense(do("concatenate", [x, e], axis=0)), np.concatenate([A, np.exp(A)])
    )


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_stored_negative_zero():
    # from_numpy stores -0.0 (so that 1 / x keeps its sign): not a nonzero, and
    # ties with the fill value like numpy
    v = np.array([-0.0, -1.0, 0.0, -1.0])
    x = do("asarray", v, like="sparse")
    np.testing.assert_array_equal(do("nonzero", x)[0], np.nonzero(v)[0])
    assert int(dense(do("argmax", x))) == np.argmax(v)
    np.testing.assert_array_equal(dense(do("divide", 1.0, x)), 1.0 / v)


def test_unique_flags():
    v = np.array([[0, 3, 0], [2, 3, 0]])
    got = do("unique", coo(v), return_index=True, return_inverse=True, return_counts=True)
    ref = np.unique(v, return_index=True, return_inverse=True, return_counts=True)
    for g, r in zip(got, ref, strict=True):
        np.testing.assert_array_equal(dense(g), r)
    assert isinstance(got[2], sparse.SparseArray)  # the inverse keeps the input's shape


@pytest.mark.parametrize("points", [[-2], [4, 2, 10], [-9, 3]])
def test_split_points_are_slice_bounds(points):
    # numpy's split points are Python slice bounds: a negative one counts from the end
    x = A.T
    got = do("array_split", coo(x), points)
    ref = np.array_split(x, points)
    assert len(got) == len(ref)
    for g, r in zip(got, ref, strict=True):
        np.testing.assert_array_equal(dense(g), r)


def test_linalg_is_sparse_work():
    x = coo(SQ)
    b = RNG.standard_normal(5)
    np.testing.assert_allclose(dense(do("linalg.solve", x, b)), np.linalg.solve(SQ, b))
    np.testing.assert_allclose(dense(do("linalg.det", x)), np.linalg.det(SQ))
    p, lo, up = do("linalg.lu", x)
    for g, r in zip((p, lo, up), scipy_linalg.lu(SQ), strict=True):
        np.testing.assert_allclose(dense(g), r, atol=1e-12)
    np.testing.assert_allclose(dense(do("linalg.expm", x / 4)), scipy_linalg.expm(SQ / 4))
    for ord_ in (None, "fro", 1, -1, 2, -2, np.inf, "nuc"):
        np.testing.assert_allclose(dense(do("linalg.norm", x, ord=ord_)), np.linalg.norm(SQ, ord_))


def test_singular_determinant_is_zero():
    assert dense(do("linalg.det", coo(np.ones((3, 3))))) == 0
    sign, logdet = do("linalg.slogdet", coo(np.ones((3, 3))))
    assert dense(sign) == 0
    assert np.isneginf(dense(logdet))


DET_CASES = {
    "odd permutation": np.eye(4)[[1, 2, 3, 0]],
    "even permutation": np.eye(3)[[1, 2, 0]],
    "negative, pivoting": np.eye(3)[[2, 0, 1]] @ np.diag([1.0, -2.0, 3.0]),
    "singular": np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]),
    "zero column": np.array([[1.0, 0.0], [4.0, 0.0]]),
    "complex": np.array([[1 + 2j, 2.0], [3.0, 1 - 1j]]),
    "float32": np.array([[0.0, 2.0], [3.0, 1.0]], np.float32),
    "int8": np.array([[0, 2], [3, 1]], np.int8),
    "bool": np.array([[True, False], [True, True]]),
}


@pytest.mark.parametrize("name", DET_CASES)
def test_determinants_are_numpys(name):
    # SuperLU's factors (translations/_superlu.py, shared with the scipy table):
    # numpy's values and dtypes, integers and booleans in float64
    a = DET_CASES[name]
    det, (sign, logdet) = do("linalg.det", coo(a)), do("linalg.slogdet", coo(a))
    ref_sign, ref_logdet = np.linalg.slogdet(a)
    for got, ref in ((det, np.linalg.det(a)), (sign, ref_sign), (logdet, ref_logdet)):
        assert dense(got).dtype == ref.dtype
        np.testing.assert_allclose(dense(got), ref, rtol=1e-6)


def test_float16_determinant_is_refused_as_numpy():
    with pytest.raises(TypeError, match="float16 is unsupported in linalg"):
        do("linalg.det", coo(np.eye(2, dtype=np.float16)))


@pytest.mark.parametrize("name", ["linalg.qr", "linalg.svd", "linalg.eigh", "linalg.cholesky"])
def test_dense_decompositions_are_gaps(name):
    with pytest.raises(UnsupportedError, match="not sparse work"):
        do(name, coo(SQ))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("width", [1, ((0, 5), (7, 1))])
def test_pad_modes(mode, width):
    np.testing.assert_array_equal(
        dense(do("pad", coo(A), width, mode=mode)), np.pad(A, width, mode=mode)
    )


def test_gcxs_input():
    g = sparse.GCXS.from_numpy(A)
    np.testing.assert_allclose(dense(do("sum", g, axis=1)), A.sum(axis=1))
    np.testing.assert_allclose(dense(do("matmul", g, g.T)), A @ A.T)


def test_random_seed_repeats_draws():
    do("random.seed", 3, like="sparse")
    a = do("random.normal", size=(4,), like="sparse")
    do("random.seed", 3, like="sparse")
    b = do("random.normal", size=(4,), like="sparse")
    assert isinstance(a, sparse.SparseArray)
    np.testing.assert_array_equal(dense(a), dense(b))
    g = do("random.default_rng", 1, like="sparse")
    assert isinstance(g.uniform(size=3), sparse.SparseArray)


def test_numpy_constant_is_converted():
    out = do("add", coo(A), np.ones_like(A))
    assert isinstance(out, sparse.SparseArray)
    np.testing.assert_allclose(dense(out), A + 1)


def test_to_device():
    x = coo(A)
    assert do("to_device", x, "cpu") is x
    with pytest.raises(ValueError, match="CPU"):
        do("to_device", x, "cuda")


@pytest.mark.parametrize("name", ["random.uniform", "random.normal"])
@pytest.mark.parametrize("density", [0.0, 0.3, 1.0])
def test_random_draws_take_sparse_randoms_density_format_and_fill_value(name, density):
    do("random.seed", 0, like="sparse")
    x = do(name, size=(40, 50), like="sparse", density=density, format="gcxs", fill_value=0)
    assert isinstance(x, sparse.GCXS)
    assert x.shape == (40, 50)
    assert x.fill_value == 0
    assert abs(x.nnz / 2000 - density) < 0.06
