"""numpy's dtype routines, predicates, conversions and functional helpers: numpy's
answers on every backend (dtypes answered as the backend's own dtype objects)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import case, missing_dtypes, params, to_backend, to_np

from dispatch import do
from dispatch._errors import UnsupportedError

rng = np.random.default_rng(19)
A = rng.standard_normal((3, 4))
A32 = A.astype("float32")
AI = rng.integers(-5, 5, (2, 3))
AB = rng.random((2, 3)) > 0.5
AC = (A + 1j * rng.standard_normal((3, 4)) * (rng.random((3, 4)) > 0.5)).astype("complex128")
AC64 = AC.astype("complex64")
NEAR = (A + 1e-15j).astype("complex128")
R = np.arange(4.0)
S = np.array(2.5)
X = np.linspace(-2.0, 2.0, 7)
X2 = np.arange(-6, 6).reshape(3, 4)
T3 = rng.standard_normal((2, 3, 4))


# functions given to the functional helpers: written with do, so that numpy's own
# function (the reference) and every backend run them
def _cumsum_flipped(v):
    return do("cumsum", do("flip", v, axis=0))


def _outer(v):
    return do("outer", v, v)


def _total(v):
    return do("sum", v)


def _sum_over(a, axis):
    return do("sum", a, axis=axis)


def _cumsum_over(a, axis):
    return do("cumsum", a, axis=axis)


def _negate(v):
    return -v


def _square(v):
    return v * v


def _half(v):
    return v / 2


def _index_sum(i, j):
    return i + 10 * j


def _index_prod(i, j, k):
    return i * j - k


CASES = [
    # predicates
    case("iscomplex", AC),
    case("iscomplex", AC64),
    case("iscomplex", A),
    case("iscomplex", AI),
    case("isreal", AC),
    case("isreal", A32),
    case("isreal", AB),
    case("iscomplexobj", AC),
    case("iscomplexobj", A),
    case("iscomplexobj", AI),
    case("isrealobj", AC64),
    case("isrealobj", AB),
    case("isscalar", A),
    case("isscalar", S),
    case("iterable", A),
    case("iterable", S),
    case("real_if_close", NEAR),
    case("real_if_close", AC),
    case("real_if_close", (A + 1e-13j).astype("complex128"), tol=1000),
    case("real_if_close", (A + 1e-13j).astype("complex128"), tol=1e-14),
    case("real_if_close", (A32 + 1e-8j).astype("complex64")),
    case("real_if_close", A),
    case("array_equiv", R, np.tile(R, (3, 1))),
    case("array_equiv", A, A[:2]),
    case("array_equiv", A, A + 1),
    case("array_equiv", AI, AI.astype("float64")),
    case("array_equiv", A[:1], A),
    case("isfortran", A),
    case("isfortran", R),
    # conversions
    case("asanyarray", A),
    case("asanyarray", AI, dtype="float32"),
    case("asanyarray", A.T, order="C"),
    case("ascontiguousarray", A.T),
    case("ascontiguousarray", S),
    case("ascontiguousarray", AI, dtype="float64"),
    case("asfortranarray", A),
    case("asfortranarray", AI, dtype="float32"),
    case("asarray_chkfinite", A),
    case("asarray_chkfinite", AI),
    case("asarray_chkfinite", AC64, dtype="complex128"),
    case("require", A, "float32", ["C"]),
    case("require", A.T, None, "CO"),
    case("require", AI, dtype="float64"),
    case("require", AB, None, ["A", "E"]),
    # functional helpers
    case("apply_along_axis", _cumsum_flipped, 1, A),
    case("apply_along_axis", _cumsum_flipped, 0, AI),
    case("apply_along_axis", _outer, -1, T3),
    case("apply_along_axis", _outer, 1, T3),
    case("apply_along_axis", _total, 0, A32),
    case("apply_over_axes", _sum_over, T3, [0, 2]),
    case("apply_over_axes", _sum_over, AI, 1),
    case("apply_over_axes", _sum_over, T3, (-1,)),
    case("apply_over_axes", _cumsum_over, A, [1, 0]),
    case("piecewise", X, [X < 0, X >= 0], [_negate, _square]),
    case("piecewise", X, [X < -1, X > 1], [_negate, 7.5, _half]),
    case("piecewise", X, X > 0, [_square]),
    case("piecewise", X2, [X2 < -2, X2 > 3], [_negate, 2.7, 1]),
    case("piecewise", A, [A > 0, A > 1], [_half, _negate]),
    case("piecewise", X, [X > 10], [_negate, 0.5]),
]

LIKE_CASES = [
    case("fromfunction", _index_sum, (2, 3), _like=True),
    case("fromfunction", _index_sum, (3, 2), dtype="int64", _like=True),
    case("fromfunction", _index_prod, (2, 3, 4), dtype="float32", _like=True),
    case("fromiter", range(5), "float32", _like=True),
    case("fromiter", range(7), "int64", count=3, _like=True),
    case("fromiter", [1.5, 2.5], "float64", _like=True),
    case("asanyarray", [[1, 2], [3, 4]], _like=True),
    case("ascontiguousarray", [1.0, 2.0], dtype="float32", _like=True),
]


@pytest.mark.parametrize(("name", "c"), params(CASES + LIKE_CASES))
def test_against_numpy(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)


# ---------------------------------------------------------------- dtypes answered


def _bdt(name: str, backend: str):
    return do("to_backend_dtype", name, like=backend)


RESULT_TYPE = [
    ((A32, 2.0), None),
    ((AI, A32), None),
    ((AB, 1), None),
    ((AI, 1.5), None),
    ((A32, AC64), None),
    (("int8", "uint8"), None),
    (("int8", 1.5), None),
    (("uint8", "int16", "float16"), None),
    ((np.array(1, "int16"), "int8"), None),
]


@pytest.mark.parametrize("i", range(len(RESULT_TYPE)))
@pytest.mark.parametrize("name", ["result_type"])
def test_result_type(name, i, backend):
    args, _ = RESULT_TYPE[i]
    expected = np.result_type(*args)
    got = do(name, *to_backend(args, backend), like=backend)
    assert got == _bdt(expected.name, backend), (got, expected)
    # the backend's dtype objects as arguments
    as_dtypes = [_bdt(np.dtype(a).name, backend) if isinstance(a, str) else a for a in args]
    assert do(name, *to_backend(as_dtypes, backend), like=backend) == got


@pytest.mark.parametrize("name", ["promote_types"])
def test_promote_types(name, backend):
    pairs = (("int8", "uint8"), ("int32", "float32"), ("float16", "int8"), ("bool", "int64"),
             ("float32", "complex64"), ("uint8", "int16"))
    for a, b in pairs:
        want = _bdt(np.promote_types(a, b).name, backend)
        assert do(name, _bdt(a, backend), _bdt(b, backend), like=backend) == want, (a, b)
        assert do(name, a, b, like=backend) == want, (a, b)  # numpy's names


@pytest.mark.parametrize("name", ["result_type"])
def test_result_type_decides_by_the_array(name, backend):
    x = to_backend(AI, backend)
    assert do(name, x, "float32") == _bdt("float64", backend)
    with pytest.raises(ValueError, match="at least one"):
        do(name, like=backend)


CASTS = [
    ("int32", "float64", "safe"), ("float64", "float32", "safe"),
    ("float64", "float32", "same_kind"), ("float64", "int64", "same_kind"),
    ("complex64", "float64", "unsafe"), ("uint8", "int16", "safe"), ("int64", "int64", "no"),
    ("bool", "int8", "equiv"), ("float32", "complex64", "safe"),
]


@pytest.mark.parametrize("name", ["can_cast"])
def test_can_cast(name, backend):
    for src, dst, casting in CASTS:
        expected = np.can_cast(src, dst, casting=casting)
        got = do(name, _bdt(src, backend), _bdt(dst, backend), casting, like=backend)
        assert got is expected, (src, dst, casting, got)
        x = to_backend(np.zeros(2, src), backend)
        assert do(name, x, _bdt(dst, backend), casting=casting) is expected
    with pytest.raises(TypeError, match="Python scalars"):
        do(name, 1.5, "float32", like=backend)


KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric", ("integral", "complex floating")]
DTYPES = ["bool", "int8", "int64", "uint8", "uint32", "float16", "float32", "float64",
          "complex64", "complex128"]


def _dtypes(backend: str) -> list[str]:
    """DTYPES less those the backend's library lacks (its table's MISSING_DTYPES: no
    object to ask about), each checked to be refused with the table's reason."""
    missing = missing_dtypes(backend)
    for dt in set(missing) & set(DTYPES):  # the list stays true: still refused
        with pytest.raises(TypeError, match=re.escape(missing[dt])):
            _bdt(dt, backend)
    return [dt for dt in DTYPES if dt not in missing]


@pytest.mark.parametrize("name", ["isdtype"])
def test_isdtype(name, backend):
    for dt in _dtypes(backend):
        for kind in KINDS:
            expected = np.isdtype(np.dtype(dt), kind)
            assert do(name, _bdt(dt, backend), kind, like=backend) is expected, (dt, kind)
        # a dtype as the kind
        assert do(name, _bdt(dt, backend), _bdt(dt, backend), like=backend) is True
        assert do(name, _bdt(dt, backend), _bdt("int16", backend), like=backend) is (dt == "int16")
    with pytest.raises(ValueError, match="kind"):
        do(name, _bdt("float32", backend), "floating", like=backend)
    with pytest.raises(TypeError, match="not an array"):
        do(name, to_backend(A, backend), "numeric")


@pytest.mark.parametrize("name", ["issubdtype"])
def test_issubdtype(name, backend):
    for dt in _dtypes(backend):
        for other in (np.floating, np.integer, np.signedinteger, np.complexfloating, np.number,
                      np.generic, np.bool_, "float64", "int8"):
            expected = np.issubdtype(np.dtype(dt), other)
            target = _bdt(other, backend) if isinstance(other, str) else other
            assert do(name, _bdt(dt, backend), target, like=backend) is expected, (dt, other)


@pytest.mark.parametrize("name", ["min_scalar_type"])
def test_min_scalar_type(name, backend):
    lacks = missing_dtypes(backend)
    for value in (10, 300, -1, -200, 70000, 1.5, -260.0, 1e50, 1 + 2j, True):
        want = np.min_scalar_type(value).name
        if want in lacks:  # numpy's answer is a dtype the library cannot hold: refused
            with pytest.raises(TypeError, match=re.escape(lacks[want])):
                do(name, value, like=backend)
            continue
        got = do(name, value, like=backend)
        assert got == _bdt(want, backend), (value, got)
    zero_d = to_backend(np.array(300), backend)
    if "uint16" in lacks:
        with pytest.raises(TypeError, match=re.escape(lacks["uint16"])):
            do(name, zero_d)
    else:
        assert do(name, zero_d) == _bdt("uint16", backend)
    assert do(name, to_backend(A32, backend)) == _bdt("float32", backend)


@pytest.mark.parametrize("name", ["common_type"])
def test_common_type(name, backend):
    lacks = missing_dtypes(backend)
    for arrays in ((A32,), (AI,), (A32, AI), (AC64, A32), (A.astype("float16"),), (AC64, A)):
        expected = np.dtype(np.common_type(*arrays))
        if expected.name in lacks:  # numpy's answer is a dtype the library cannot hold
            with pytest.raises(TypeError, match=re.escape(lacks[expected.name])):
                do(name, *to_backend(arrays, backend))
            continue
        got = do(name, *to_backend(arrays, backend))
        want = _bdt(expected.name, backend)
        assert got == (want.type if isinstance(want, np.dtype) else want), (arrays, got)
    with pytest.raises(TypeError):
        do(name, to_backend(AB, backend))


@pytest.mark.parametrize("name", ["mintypecode"])
def test_mintypecode(name, backend):
    for chars in (["d", "f", "S"], "idF", ["f"], ["F", "d"], "?"):
        assert do(name, chars, like=backend) == np.mintypecode(chars)
    arrays = to_backend([A32, AC64], backend)
    assert do(name, arrays) == np.mintypecode([A32, AC64]) == "F"
    assert do(name, to_backend([A32, AI], backend), "fd", "f") == np.mintypecode(
        [A32, AI], "fd", "f")


@pytest.mark.parametrize("name", ["broadcast_shapes"])
def test_broadcast_shapes(name, backend):
    x = to_backend(np.zeros((3, 1)), backend)
    y = to_backend(np.zeros((4,)), backend)
    for shapes in [((3, 1), (4,)), ((2, 1, 5), (3, 1), ()), (5, (1,)), ((0, 1), (1, 7))]:
        assert do(name, *shapes, like=backend) == np.broadcast_shapes(*shapes)
    # the library's own shape objects (torch.Size, tf.TensorShape)
    assert do(name, x.shape, y.shape, like=backend) == (3, 4)
    with pytest.raises(ValueError, match="shape mismatch"):
        do(name, (3,), (4,), like=backend)


@pytest.mark.parametrize("name", ["einsum_path"])
def test_einsum_path(name, backend):
    ops = [rng.standard_normal(s) for s in [(2, 3), (3, 4), (4, 5)]]
    for subscripts, arrays, optimize in [
        ("ij,jk,kl->il", ops, "optimal"),
        ("ij,jk,kl->il", ops, "greedy"),
        ("ij,jk->ik", ops[:2], True),
        ("ii->i", [np.ones((3, 3))], "greedy"),
    ]:
        path, report = do(name, subscripts, *to_backend(arrays, backend), optimize=optimize)
        ref_path, ref_report = np.einsum_path(subscripts, *arrays, optimize=optimize)
        assert path == ref_path
        assert report == ref_report


# ---------------------------------------------------------------- layout and memory


@pytest.mark.parametrize("name", ["isfortran"])
def test_isfortran_by_layout(name, backend):
    x = do("asarray", A, like=backend)
    assert do(name, x) is False
    if backend in ("numpy", "torch", "cupy"):  # strided arrays: both orders
        assert do(name, x.T) is True
        assert do(name, do("asfortranarray", x)) is True
        assert do(name, do("asfortranarray", to_backend(R, backend))) is False  # 1-d: both
        assert do(name, to_backend(np.zeros((1, 3)), backend).T) is False  # both orders
    elif backend == "paddle":  # strided views, made Fortran-ordered by transposes
        assert do(name, do("transpose", x)) is True
        assert do(name, do("asfortranarray", x)) is True
        assert do(name, do("asfortranarray", to_backend(R, backend))) is False  # 1-d: both
        assert do(name, to_backend(np.zeros((1, 3)), backend).T) is False  # both orders
    else:  # jax, tensorflow, dask, sparse, mlx: one order, C
        assert do(name, do("transpose", x)) is False


@pytest.mark.parametrize("name", ["asfortranarray"])
def test_asfortranarray_layout(name, backend):
    x = do("asarray", A, like=backend)
    y = do(name, x)
    np.testing.assert_array_equal(to_np(y), A)
    if backend not in ("numpy", "torch", "cupy", "paddle"):
        # jax, tensorflow, dask, sparse, mlx: no order to set, numpy's answer is an equal
        # array (at least 1-d, as numpy's)
        assert tuple(do("shape", do(name, to_backend(np.array(2.5), backend)))) == (1,)
        return
    assert do("isfortran", y)
    assert do(name, y) is y  # already in Fortran order: no copy
    if backend == "torch":
        assert y.stride() == (1, 3)


@pytest.mark.parametrize("name", ["ascontiguousarray"])
def test_ascontiguousarray_layout(name, backend):
    x = do("asarray", A, like=backend)
    y = do(name, do("transpose", x))
    np.testing.assert_array_equal(to_np(y), A.T)
    if backend == "torch":
        assert y.is_contiguous()
        assert do(name, y) is y  # already in C order: no copy
    if backend == "numpy":
        assert y.flags.c_contiguous
        assert do(name, y) is y


@pytest.mark.parametrize("name", ["shares_memory", "may_share_memory"])
def test_memory_of_views(name, backend):
    x = to_backend(np.arange(24.0).reshape(4, 6), backend)
    exact = name == "shares_memory"
    assert do(name, x, x) is True
    assert do(name, x[:2], x[2:]) is False
    assert do(name, x[:3], x[2:]) is True
    assert do(name, x[:, 0::2], x[:, 1::2]) is (not exact)  # interleaved: bounds overlap
    assert do(name, x, do("copy", x)) is False
    assert do(name, x[1], do("transpose", x)) is True
    assert do(name, x[:0], x) is False
    if backend == "torch":
        import torch

        host = np.arange(10.0)  # two tensors over overlapping numpy views: two storages
        assert do(name, torch.from_numpy(host[:6]), torch.from_numpy(host[4:])) is True
        assert do(name, torch.from_numpy(host[:4]), torch.from_numpy(host[4:])) is False
        with pytest.raises(TypeError, match="strided torch tensor"):
            do(name, x.to_sparse(), x)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("name", ["asarray_chkfinite"])
def test_asarray_chkfinite_raises(name, backend):
    # complex64: a complex width every library has (mlx has no complex128)
    nan_c = np.array([1j, np.nan], dtype=np.complex64)
    for bad in (np.array([1.0, np.nan]), np.array([[np.inf, 0.0]]), nan_c):
        with pytest.raises(ValueError, match="infs or NaNs"):
            do(name, to_backend(bad, backend))
    with pytest.raises(ValueError, match="infs or NaNs"):
        do(name, [1.0, float("inf")], like=backend)


@pytest.mark.parametrize("name", ["require"])
def test_require_flags(name, backend):
    x = to_backend(A, backend)
    with pytest.raises(ValueError, match='both "C" and "F" order'):
        do(name, x, None, "CF")
    with pytest.raises(KeyError, match="'X'"):
        do(name, x, None, ["X"])
    y = do(name, x[1:], None, ["O"])
    np.testing.assert_array_equal(to_np(y), A[1:])
    if backend in ("numpy", "torch"):  # a view owns no data: copied
        assert not do("may_share_memory", y, x)
    if backend in ("jax", "tensorflow", "mlx"):  # immutable arrays
        with pytest.raises(ValueError, match="writeable"):
            do(name, x, None, "W")
    else:
        np.testing.assert_array_equal(to_np(do(name, x, None, "W")), A)


@pytest.mark.parametrize("name", ["apply_along_axis"])
def test_apply_along_axis_over_nothing(name, backend):
    empty = to_backend(np.zeros((0, 3)), backend)
    with pytest.raises(ValueError, match="Cannot apply_along_axis"):
        do(name, _total, 1, empty)


@pytest.mark.parametrize("name", ["piecewise"])
def test_piecewise_function_count(name, backend):
    x = to_backend(A, backend)
    with pytest.raises(ValueError, match=r"either 1 or 2 functions"):
        do(name, x, [do("greater", x, 0)], [_negate, _negate, _negate])


@pytest.mark.parametrize("name", ["apply_over_axes"])
def test_apply_over_axes_wrong_shape(name, backend):
    x = to_backend(A, backend)
    with pytest.raises(ValueError, match="not returning an array of the correct shape"):
        do(name, lambda a, axis: do("sum", a), x, 0)


@pytest.mark.parametrize("fn", ["shares_memory", "may_share_memory", "isfortran",
                                "asfortranarray"])
def test_refusals_name_the_reason(fn, backend):
    # ``fn``, not ``name``: the backend fixture would make these strict xfails
    from conftest import known_gap

    reason = known_gap(backend, fn)
    if reason is None:
        pytest.skip(f"{fn} is supported on {backend}")
    x = to_backend(A, backend)
    with pytest.raises(UnsupportedError, match=backend) as err:
        do(fn, *((x, x) if "memory" in fn else (x,)))
    assert reason in str(err.value)
