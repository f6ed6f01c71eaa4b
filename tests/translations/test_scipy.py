"""The scipy backend: numpy names on scipy.sparse matrices and arrays.

The generic function tests run on array backends only; scipy.sparse containers
(2-D, zero-filled) get this table of their own, for the ``*_array`` and the
``*_matrix`` classes alike.
"""

from __future__ import annotations

import numpy as np
import pytest

ss = pytest.importorskip("scipy.sparse")
scipy_linalg = pytest.importorskip("scipy.linalg")
scipy_special = pytest.importorskip("scipy.special")

from dispatch import UnsupportedError, do, infer_backend  # noqa: E402

RNG = np.random.default_rng(3)
A = RNG.standard_normal((4, 5)) * (RNG.random((4, 5)) > 0.5)
B = RNG.standard_normal((4, 5)) * (RNG.random((4, 5)) > 0.5)
SQ = RNG.standard_normal((5, 5)) * (RNG.random((5, 5)) > 0.6) + 3 * np.eye(5)
KINDS = [ss.csr_array, ss.csc_array, ss.coo_array, ss.csr_matrix, ss.csc_matrix]


@pytest.fixture(params=KINDS, ids=lambda k: k.__name__)
def kind(request):
    return request.param


def dense(x):
    return do("to_numpy", x) if ss.issparse(x) else np.asarray(x)


def close(got, expected, **kw):
    got = dense(got)
    assert not isinstance(got, np.matrix)
    assert np.shape(got) == np.shape(expected), (np.shape(got), np.shape(expected))
    np.testing.assert_allclose(got, expected, atol=1e-12, **kw)


def test_inference_and_conversion(kind):
    x = kind(A)
    assert infer_backend(x) == "scipy"
    assert isinstance(do("to_numpy", x), np.ndarray)
    close(do("asarray", A, like="scipy"), A)
    close(do("astype", x, "float32"), A.astype("float32"))
    assert do("shape", x) == A.shape
    assert do("size", x) == A.size  # numpy's size, not scipy's stored count
    assert do("ndim", x) == 2


REDUCTIONS = [
    ("sum", {}),
    ("sum", {"axis": 0}),
    ("sum", {"axis": 1, "keepdims": True}),
    ("sum", {"axis": (0, 1)}),
    ("mean", {"axis": 0}),
    ("var", {"axis": 1}),
    ("std", {"ddof": 1}),
    ("max", {"axis": 1}),
    ("min", {}),
    ("argmax", {"axis": 0}),
    ("argmin", {"axis": 1}),
    ("count_nonzero", {"axis": 0}),
    ("count_nonzero", {}),
]


@pytest.mark.parametrize(("name", "kwargs"), REDUCTIONS)
def test_reductions_match_numpy(kind, name, kwargs):
    close(do(name, kind(A), **kwargs), getattr(np, name)(A, **kwargs))


@pytest.mark.parametrize(
    "name", ["sin", "sqrt", "abs", "tanh", "expm1", "floor", "sign", "square", "negative"]
)
def test_zero_keeping_elementwise(kind, name):
    x = np.abs(A) if name == "sqrt" else A
    out = do(name, kind(x))
    assert ss.issparse(out)
    close(out, getattr(np, name)(x))


def test_zero_keeping_special_functions(kind):
    close(do("scipy.special.erf", kind(A)), scipy_special.erf(A))
    close(do("cbrt", kind(A)), np.cbrt(A))


def test_products_and_shapes(kind):
    x, y = kind(A), kind(B)
    close(do("matmul", x, y.T), A @ B.T)
    close(do("matmul", x, np.ones(5)), A @ np.ones(5))
    close(do("dot", x, 2.0), 2 * A)
    close(do("multiply", x, y), A * B)  # elementwise, also for the *_matrix classes
    close(do("multiply", x, B), A * B)
    close(do("add", x, y), A + B)
    close(do("subtract", x, y), A - B)
    close(do("divide", x, 4.0), A / 4)
    close(do("maximum", x, y), np.maximum(A, B))
    close(do("transpose", x), A.T)
    close(do("reshape", x, (5, 4)), A.reshape(5, 4))
    close(do("kron", x, y), np.kron(A, B))
    close(do("tril", x, k=1), np.tril(A, 1))
    close(do("trace", kind(SQ)), np.trace(SQ))
    close(do("diagonal", x, 1), np.diagonal(A, 1))
    close(do("power", x, 3), A**3)
    for got, ref in zip(do("nonzero", x), np.nonzero(A), strict=True):
        np.testing.assert_array_equal(got, ref)


def test_creation():
    close(do("zeros", (3, 2), like="scipy"), np.zeros((3, 2)))
    close(do("eye", 3, 4, k=1, like="scipy"), np.eye(3, 4, k=1))
    close(do("identity", 3, like="scipy"), np.identity(3))
    close(do("ravel", ss.csr_array(A)), A.ravel())


def test_linalg_is_sparse_work(kind):
    x = kind(SQ)
    b = RNG.standard_normal(5)
    close(do("linalg.solve", x, b), np.linalg.solve(SQ, b))
    close(do("linalg.solve", x, np.eye(5)), np.linalg.inv(SQ))
    close(do("linalg.inv", x), np.linalg.inv(SQ))
    close(do("linalg.det", x), np.linalg.det(SQ))
    sign, logdet = do("linalg.slogdet", x)
    close(sign, np.linalg.slogdet(SQ)[0])
    close(logdet, np.linalg.slogdet(SQ)[1])
    for got, ref in zip(do("linalg.lu", x), scipy_linalg.lu(SQ), strict=True):
        close(got, ref)
    close(do("scipy.linalg.expm", x / 4), scipy_linalg.expm(SQ / 4))
    low = np.tril(SQ)
    close(
        do("scipy.linalg.solve_triangular", kind(low), b, lower=True),
        scipy_linalg.solve_triangular(low, b, lower=True),
    )
    close(
        do("scipy.linalg.solve_triangular", kind(low), b, trans="T", lower=True),
        scipy_linalg.solve_triangular(low, b, trans="T", lower=True),
    )
    for ord_ in (None, "fro", 1, -1, np.inf, 2):
        close(do("linalg.norm", x, ord=ord_), np.linalg.norm(SQ, ord_), rtol=1e-7)
    close(do("linalg.norm", x, axis=0, keepdims=True), np.linalg.norm(SQ, axis=0, keepdims=True))


def test_singular_determinant_is_zero():
    assert do("linalg.det", ss.csr_array(np.ones((3, 3)))) == 0


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
    # SuperLU's factors (translations/_superlu.py, shared with the sparse table):
    # numpy's values and dtypes, integers and booleans in float64
    a = DET_CASES[name]
    det, (sign, logdet) = do("linalg.det", ss.csr_array(a)), do("linalg.slogdet", ss.csr_array(a))
    ref_sign, ref_logdet = np.linalg.slogdet(a)
    for got, ref in ((det, np.linalg.det(a)), (sign, ref_sign), (logdet, ref_logdet)):
        assert np.asarray(got).dtype == ref.dtype
        np.testing.assert_allclose(got, ref, rtol=1e-6)


@pytest.mark.parametrize("name", ["exp", "cos", "ones", "fft.fft", "linalg.qr", "sort"])
def test_gaps_say_why(name):
    arg = (2, 2) if name == "ones" else ss.csr_array(SQ)
    with pytest.raises(UnsupportedError):
        do(name, arg, like="scipy")


def test_dense_results_are_refused_not_wrong():
    with pytest.raises(NotImplementedError, match="fills every entry"):
        do("add", ss.csr_array(A), 1.0)
    with pytest.raises(NotImplementedError, match="positive scalar power"):
        do("power", ss.csr_array(A), -1)
