"""Results that an outside probe found to differ from numpy.

Each class is checked on every backend against numpy: a walk over every reduction of
the vocabulary that numpy gives ``where=``, the float width of integer inputs (the
dtype policy of docs/vocabulary.md), and the single cases the probe found.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
from conftest import assert_close, to_backend, to_np

from dispatch import do
from dispatch._errors import UnsupportedError
from dispatch._resolve import known_names


def _numpy_function(name: str):
    obj = np
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def default_float(backend: str) -> np.dtype:
    """The float width the backend gives an array created without a dtype."""
    return np.asarray(to_np(do("zeros", 2, like=backend))).dtype


def _reference(fn, *args, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _backend_call(name: str, backend: str, *args, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return to_np(do(name, *to_backend(args, backend), **to_backend(kwargs, backend)))


# ---------------------------------------------------------------- where= reductions


def _takes_where(name: str) -> bool:
    fn = _numpy_function(name)
    if fn is None or isinstance(fn, np.ufunc) or not callable(fn):
        return False
    try:
        return "where" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


WHERE_NAMES = sorted(n for n in known_names() if _takes_where(n))
EXTREMES = {"max", "min", "amax", "amin", "nanmax", "nanmin"}
MOMENTS = {"var", "std", "nanvar", "nanstd"}

rng = np.random.default_rng(11)
X = rng.standard_normal((3, 4))
X_NAN = X.copy()
X_NAN[0, 1] = X_NAN[2, 2] = np.nan
MASK = np.array([[True, False, True, True], [False, True, True, False], [True, True, False, True]])
ROW_MASK = np.array([True, False, True, True])  # broadcast along the rows

WHERE_CASES = {
    "axis1": (X, MASK, {"axis": 1}),
    "axis0_keepdims": (X, MASK, {"axis": 0, "keepdims": True}),
    "all_axes": (X, MASK, {}),
    "axis_tuple": (X, MASK, {"axis": (0, 1)}),
    "broadcast_mask": (X, ROW_MASK, {"axis": 1}),
    "nan": (X_NAN, MASK, {"axis": 1}),
    "int": (rng.integers(-4, 5, (3, 4)), MASK, {"axis": 1}),
    "float32": (X.astype("float32"), MASK, {"axis": 0}),
    "empty_row": (X, MASK & np.array([[False], [True], [True]]), {"axis": 1}),
}


def test_where_names_cover_numpy_reductions():
    # the walk below is over numpy's own list: it cannot shrink to nothing unnoticed
    expected = {"sum", "prod", "mean", "var", "std", "max", "min", "all", "any", "nansum"}
    assert expected <= set(WHERE_NAMES), WHERE_NAMES


@pytest.mark.parametrize("case", list(WHERE_CASES))
@pytest.mark.parametrize("name", WHERE_NAMES)
def test_where_reduction_matches_numpy(backend, name, case):
    x, mask, kwargs = WHERE_CASES[case]
    kwargs = dict(kwargs)
    if name in ("all", "any"):
        x = x > 0.3
    if name in EXTREMES:
        kwargs["initial"] = -10 if "max" in name else 10
    if name in MOMENTS and case == "axis1":
        kwargs["ddof"] = 1
    expected = _reference(_numpy_function(name), x, where=mask, **kwargs)
    actual = _backend_call(name, backend, x, where=mask, **kwargs)
    assert_close(actual, expected, dtype=_dtype_mode(x, expected, backend, actual))


def _dtype_mode(x: np.ndarray, expected, backend: str, actual) -> str:
    """Exact, except a float made from integers: the backend's default width."""
    e = np.asarray(expected)
    if x.dtype.kind in "biu" and e.dtype.kind == "f":
        assert np.asarray(actual).dtype == default_float(backend)
        return "kind"
    return "exact"


@pytest.mark.parametrize("name", sorted(EXTREMES & set(WHERE_NAMES)))
def test_where_extreme_needs_initial(backend, name):
    with pytest.raises(ValueError, match="initial"):
        _reference(_numpy_function(name), X, where=MASK)
    with pytest.raises(ValueError, match="initial"):
        _backend_call(name, backend, X, where=MASK)


def test_where_mask_of_another_library(backend):
    # a numpy mask with the backend's array
    x = do("asarray", X, like=backend)
    actual = to_np(do("sum", x, axis=1, where=MASK))
    assert_close(actual, np.sum(X, axis=1, where=MASK))


# ---------------------------------------------------------------- numpy 2's mean= and correction=


def _takes(name: str, keyword: str) -> bool:
    fn = _numpy_function(name)
    if fn is None or isinstance(fn, np.ufunc) or not callable(fn):
        return False
    try:
        return keyword in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


# the moments, found in numpy's signatures (correction= is the array API's name of ddof),
# not listed: var, std, nanvar, nanstd today
MOMENT_NAMES = sorted(n for n in known_names() if _takes(n, "correction"))

MOMENT_CASES = {
    "mean": lambda x: {"axis": 1, "mean": _reference(np.nanmean, x, axis=1, keepdims=True)},
    "mean_off_centre": lambda x: {"axis": 0, "keepdims": True,
                                  "mean": _reference(np.nanmean, x, axis=0, keepdims=True) + 1},
    "correction": lambda x: {"axis": 1, "correction": 1},
    "correction_all_axes": lambda x: {"correction": 2},
    "mean_correction": lambda x: {"axis": 1, "correction": 1,
                                  "mean": _reference(np.nanmean, x, axis=1, keepdims=True)},
    "mean_where": lambda x: {"axis": 1, "where": MASK,
                             "mean": _reference(np.nanmean, x, axis=1, keepdims=True)},
    "correction_where": lambda x: {"axis": 1, "where": MASK, "correction": 1},
    "positional_ddof_correction_zero": lambda x: {"axis": 1, "ddof": 0, "correction": 1},
}


def test_moment_keyword_names_cover_numpy():
    # the walks below are over numpy's own signatures: they cannot shrink unnoticed
    assert {"var", "std", "nanvar", "nanstd"} <= set(MOMENT_NAMES)


@pytest.mark.parametrize("case", list(MOMENT_CASES))
@pytest.mark.parametrize("name", MOMENT_NAMES)
def test_moment_keywords_match_numpy(backend, name, case):
    x = X_NAN if name.startswith("nan") else X
    kwargs = MOMENT_CASES[case](x)
    if not all(_takes(name, k) for k in kwargs):
        pytest.skip(f"numpy's {name} takes no {sorted(kwargs)}")
    expected = _reference(_numpy_function(name), x, **kwargs)
    actual = _backend_call(name, backend, x, **kwargs)
    assert_close(actual, expected)


@pytest.mark.parametrize("name", MOMENT_NAMES)
def test_ddof_with_correction_is_refused(backend, name):
    # numpy's ValueError: the two name one parameter
    with pytest.raises(ValueError, match="ddof and correction"):
        _reference(_numpy_function(name), X, ddof=1, correction=1)
    with pytest.raises(ValueError, match="ddof and correction"):
        _backend_call(name, backend, X, ddof=1, correction=1)


# ------------------------------------------------------------ device='cpu' of creation routines

# every name whose numpy signature takes device= (found, not listed), with its call:
# (arguments, whether the first is the backend's array; else like=)
DEVICE_NAMES = sorted(n for n in known_names() if _takes(n, "device"))
DEVICE_CALLS = {
    "arange": ((1, 7, 2), False), "asanyarray": (([1.0, 2.0],), False),
    "asarray": (([1.0, 2.0],), False), "astype": ((X, "float32"), True),
    "empty": (((2, 3),), False), "empty_like": ((X,), True), "eye": ((3,), False),
    "fft.fftfreq": ((6, 0.5), False), "fft.rfftfreq": ((6, 0.5), False),
    "full": (((2, 3), 1.5), False), "full_like": ((X, 2.5), True),
    "linspace": ((0.0, 1.0, 5), False), "ones": (((2, 3),), False),
    "from_dlpack": ((X,), False),  # a numpy array into the library
    "ones_like": ((X,), True), "zeros": (((2, 3),), False), "zeros_like": ((X,), True),
}


def test_device_calls_cover_numpys_names():
    # a name numpy gives device= later is called here too, or this fails
    assert set(DEVICE_NAMES) <= set(DEVICE_CALLS), set(DEVICE_NAMES) - set(DEVICE_CALLS)


@pytest.mark.parametrize("name", DEVICE_NAMES)
def test_device_cpu_is_honoured(backend, name):
    """numpy's ``device='cpu'``: every library here has a CPU, so the call is the one
    without ``device=`` (the same values, the same dtype), never a refusal."""
    args, array_first = DEVICE_CALLS[name]
    if array_first:
        plain = _backend_call(name, backend, *args)
        placed = _backend_call(name, backend, *args, device="cpu")
    else:
        plain = to_np(do(name, *args, like=backend))
        placed = to_np(do(name, *args, like=backend, device="cpu"))
    if name.startswith("empty"):  # no values to compare
        assert np.shape(placed) == np.shape(plain)
        assert np.asarray(placed).dtype == np.asarray(plain).dtype
    else:
        assert_close(placed, plain)


# ---------------------------------------------------------------- diff's prepend= and append=

X_INT = np.array([[1, 4, 9, 16], [2, 3, 5, 7], [0, -1, 4, 4]])
DIFF_CASES = {
    "scalar_prepend": (X, {"prepend": 0.5}),
    "array_append": (X, {"append": X[:, :2], "axis": -1}),
    "both_axis0": (X, {"prepend": X[:1], "append": 2.0, "axis": 0}),
    "n2_both": (X, {"n": 2, "prepend": -1.0, "append": 1.0}),
    "int_with_float_end": (X_INT, {"prepend": 0.5}),
    "int_ends": (X_INT, {"prepend": 0, "append": X_INT[:, -1:], "axis": 1}),
}


@pytest.mark.parametrize("case", list(DIFF_CASES))
def test_diff_ends_match_numpy(backend, case):
    x, kwargs = DIFF_CASES[case]
    expected = np.diff(x, **kwargs)
    assert_close(_backend_call("diff", backend, x, **kwargs), expected)


# ---------------------------------------------------------------- float width of integers

# docs/vocabulary.md: the width of a float made from integers is the library's default,
# the width of an array created without a dtype. Every vocabulary name whose numpy result
# is a float for integer input is walked; these are found, not listed.
XI = np.array([[1, 2], [3, 4]])
XI_SPD = np.array([[2, 1], [1, 2]])  # linalg: symmetric positive definite, invertible
# a float64 result by definition, whatever the input (numpy's and torch's alike)
FLOAT64_BY_DEFINITION = {"float_power"}
# names whose arguments besides the array are not arrays of the same kind
EXTRA_ARGS = {
    "percentile": (XI, 50.0),
    "nanpercentile": (XI, 50.0),
    "quantile": (XI, 0.5),
    "nanquantile": (XI, 0.5),
    "average": (XI,),
    "linspace": (0, 4, 5),
    "logspace": (0, 4, 5),
    "geomspace": (1, 16, 5),
    "ldexp": (XI, XI),
    # poly of roots (a square matrix's poly needs an eigensolver: none on dask and sparse)
    "poly": (np.array([1, -2, 3]),),
}


def _int_to_float_calls() -> dict[str, tuple]:
    calls = {}
    for name in sorted(known_names()):
        # testing.*: the test modules' assertions, whose results are diagnostics
        if name.startswith(("random.", "scipy.", "testing.")) or name in FLOAT64_BY_DEFINITION:
            continue
        fn = _numpy_function(name)
        if fn is None or not callable(fn):
            continue
        x = XI_SPD if name.startswith("linalg.") else XI
        candidates = [EXTRA_ARGS[name]] if name in EXTRA_ARGS else [(x,), (x, x)]
        for args in candidates:
            try:
                out = _reference(fn, *args)
            except Exception:
                continue
            outs = out if isinstance(out, tuple) else (out,)
            if any(np.asarray(o).dtype == np.float64 for o in outs):
                calls[name] = args
            break
    return calls


INT_TO_FLOAT = _int_to_float_calls()


def test_int_to_float_walk_finds_the_names():
    expected = {"mean", "var", "std", "sqrt", "exp", "log", "sin", "true_divide", "median"}
    expected |= {"percentile", "quantile", "linalg.norm", "average", "linalg.inv", "hypot"}
    expected |= {"linalg.cholesky", "linalg.eigh", "linalg.det", "heaviside"}
    assert expected <= set(INT_TO_FLOAT), sorted(expected - set(INT_TO_FLOAT))


@pytest.mark.parametrize("name", sorted(INT_TO_FLOAT))
def test_int_to_float_width_is_the_default(backend, name):
    args = INT_TO_FLOAT[name]
    expected = _reference(_numpy_function(name), *args)
    if name in ("linspace", "logspace", "geomspace"):
        actual = to_np(do(name, *args, like=backend))
    else:
        actual = _backend_call(name, backend, *args)
    width = default_float(backend)
    outs = actual if isinstance(actual, (tuple, list)) else (actual,)
    floats = [np.asarray(o).dtype for o in outs if np.asarray(o).dtype.kind == "f"]
    assert floats, f"{name}: no float result ({[np.asarray(o).dtype for o in outs]})"
    assert set(floats) == {width}, f"{name}: {floats}, the default float is {width}"
    exp = expected if isinstance(expected, tuple) else (expected,)
    for a, e in zip(outs, exp, strict=True):
        e = np.asarray(e)
        unique = ("linalg.inv", "linalg.cholesky")
        if name.startswith("linalg.") and e.ndim == 2 and name not in unique:
            continue  # factors are unique up to signs: the values are checked elsewhere
        assert_close(np.asarray(a), e, dtype="kind")


# ---------------------------------------------------------------- single cases the probe found


def _agree(name: str, backend: str, *args, dtype: str = "exact", **kwargs) -> None:
    expected = _reference(_numpy_function(name), *args, **kwargs)
    actual = _backend_call(name, backend, *args, **kwargs)
    assert_close(actual, expected, dtype=dtype)


def _refuse(name: str, backend: str, error: type, match: str, *args, **kwargs) -> None:
    """numpy raises ``error``; so does the backend (dask: when computed)."""
    with pytest.raises(error, match=match):
        _reference(_numpy_function(name), *args, **kwargs)
    with pytest.raises(error, match=match):
        _backend_call(name, backend, *args, **kwargs)


GRADIENT_CASES = {
    "1d": (np.array([1.0, 2.0, 4.0, 7.0, 11.0]), (), {}),
    "int": (np.array([1, 2, 4, 7, 11]), (), {}),
    "spacings": (np.arange(12.0).reshape(3, 4) ** 2, (2.0, 3.0), {}),
    "edge_order": (np.arange(12.0).reshape(3, 4) ** 2, (), {"edge_order": 2}),
    "coordinates": (np.arange(12.0).reshape(3, 4) ** 2, (np.array([0.0, 1.0, 3.0]),), {"axis": 0}),
    "axes": (np.arange(12.0).reshape(3, 4) ** 2, (), {"axis": (1, 0)}),
}


@pytest.mark.parametrize("case", list(GRADIENT_CASES))
def test_gradient_of_array_matches_numpy(backend, case):
    # numpy's finite differences on every library, dask included
    f, args, kwargs = GRADIENT_CASES[case]
    expected = _reference(np.gradient, f, *args, **kwargs)
    actual = _backend_call("gradient", backend, f, *args, **kwargs)
    assert_close(actual, expected, dtype=_dtype_mode(f, expected, backend, actual))


AUTODIFF = {"torch", "jax", "tensorflow", "paddle", "mlx"}


def _square_sum(x):
    return do("sum", x * x)


def test_gradient_of_function_without_like_raises():
    # the default backend is numpy: no autodiff, and numpy's gradient of an object is ()
    with pytest.raises(UnsupportedError, match="like='torch'"):
        do("gradient", _square_sum)


def test_gradient_of_function(backend):
    x = np.array([1.0, 2.0, 3.0])
    if backend not in AUTODIFF:
        with pytest.raises(UnsupportedError, match="automatic differentiation"):
            do("gradient", _square_sum, like=backend)
        return
    grad = do("gradient", _square_sum, like=backend)(do("asarray", x, like=backend))
    assert_close(to_np(grad[0]), 2 * x)


TAKE = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", None])
@pytest.mark.parametrize("axis", [None, 1, -2])
def test_take_modes_match_numpy(backend, mode, axis):
    idx = np.array([[0, 2], [-1, 1]])
    kwargs = {"axis": axis} if mode is None else {"axis": axis, "mode": mode}
    _agree("take", backend, TAKE, idx, **kwargs)
    if mode in ("wrap", "clip"):
        _agree("take", backend, TAKE, np.array([1, 7, -9, 15]), **kwargs)


@pytest.mark.parametrize("index", [[1, 12], [-13], [4, 0]])
def test_take_out_of_bounds_raises(backend, index):
    # numpy's default mode is 'raise'; jax filled, dask and sparse returned data
    axis = 1 if index == [4, 0] else None
    _refuse("take", backend, IndexError, "out of (bounds|range)", TAKE, np.array(index), axis=axis)


def test_take_bad_mode(backend):
    _refuse("take", backend, ValueError, "clipmode", TAKE, np.array([0]), mode="nearest")


@pytest.mark.parametrize(
    "exponent", [np.array([2, -1, 0]), -2, np.array([-3])], ids=["array", "scalar", "one"]
)
def test_integer_power_negative_exponent_raises(backend, exponent):
    base = np.array([1, 2, 3])
    _refuse("power", backend, ValueError, "negative integer powers", base, exponent)


def test_integer_power_nonnegative_exponent(backend):
    _agree("power", backend, np.array([1, 2, 3]), np.array([2, 0, 3]))
    _agree("power", backend, np.array([1, -2, 3]), 3)
    _agree("power", backend, np.array([1.0, 2.0, 4.0]), np.array([-1.0, 0.5, -2.0]))


DIVISION = ["floor_divide", "remainder", "mod", "fmod"]


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
@pytest.mark.parametrize("name", DIVISION)
def test_integer_division_by_zero_gives_numpy_value(backend, name, dtype):
    # numpy: 0 (and a RuntimeWarning); jax gave -1/-2/255, torch raised
    num = np.array([5, 7, 0, 9, 3], dtype=dtype)
    if np.dtype(dtype).kind == "i":
        num = num * np.array([1, -1, 1, -1, 1], dtype=dtype)
    den = np.array([0, 0, 0, 2, 4], dtype=dtype)
    _agree(name, backend, num, den)


F16 = np.array([60000.0, 60000.0, -1000.0, 2.5], dtype=np.float16)
F16_2D = np.array([[60000.0, 60000.0], [-1000.0, 3.25], [7.5, 60000.0]], dtype=np.float16)


@pytest.mark.parametrize(
    "name", ["mean", "average", "sum", "nansum", "var", "std", "nanmean", "nanvar", "nanstd"]
)
@pytest.mark.parametrize("axis", [None, 0])
def test_float16_reductions_follow_numpy(backend, name, axis):
    # numpy's mean (and average) sums float16 in float32: finite where a float16 sum
    # overflows; its sum, var, std and nan* reductions stay in float16 (inf)
    x = F16 if axis is None else F16_2D
    _agree(name, backend, x, axis=axis)


def test_heaviside_nan(backend):
    x = np.array([np.nan, 0.0, -1.0, 2.0, -np.inf])
    _agree("heaviside", backend, x, np.array(0.5))
    _agree("heaviside", backend, x, np.array([1.0, 0.25, 0.5, np.nan, 1.0]))


@pytest.mark.parametrize("UPLO", ["L", "U"])
@pytest.mark.parametrize("name", ["linalg.eigh", "linalg.eigvalsh"])
def test_eigh_reads_the_uplo_triangle(backend, name, UPLO):
    # a matrix that is not symmetric: numpy reads one triangle only
    a = np.array([[2.0, 1.0, -3.0], [5.0, 4.0, 0.5], [0.25, 7.0, 1.0]])
    expected = np.linalg.eigvalsh(a, UPLO=UPLO)
    result = do(name, do("asarray", a, like=backend), UPLO=UPLO)
    w = result if name.endswith("eigvalsh") else result[0]
    assert_close(to_np(w), expected)
    if name == "linalg.eigh":  # the vectors diagonalize the triangle's matrix
        h = np.tril(a) + np.tril(a, -1).T if UPLO == "L" else np.triu(a) + np.triu(a, 1).T
        v = to_np(result[1])
        assert_close(v.T @ h @ v, np.diag(expected), atol=1e-9)


@pytest.mark.parametrize("name", ["isclose", "allclose"])
def test_isclose_tolerances_in_the_inputs_precision(backend, name):
    # 9.9999998e-10 <= 1e-9 in float64; a float32 atol (9.99999972e-10) says no
    a = np.array([0.0, 1.0, 0.0])
    b = np.array([9.9999998e-10, 1.0 + 1.00000001e-5, 2e-9])
    _agree(name, backend, a, b, atol=1e-9, rtol=0)
    _agree(name, backend, a[1:2], b[1:2], atol=0, rtol=1e-5)
    _agree(name, backend, a.astype("float32"), b.astype("float32"), atol=1e-9, rtol=0)


@pytest.mark.parametrize(
    "kwargs", [{"stable": True}, {"kind": "stable"}, {"axis": 0, "stable": True}]
)
def test_argsort_stable_keeps_ties_in_order(backend, kwargs):
    x = np.array([[3, 1, 3, 1, 2, 1, 3], [1, 1, 1, 0, 0, 0, 2]])
    if kwargs.get("axis") != 0:
        x = x[0]
    _agree("argsort", backend, x, **kwargs)


PAD_MODES = ["reflect", "symmetric", "wrap", "edge", "constant"]


@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize(
    "width", [((1, 2), (3, 1)), ((5, 4), (0, 7)), 6], ids=["narrow", "wide", "scalar"]
)
def test_pad_wider_than_the_axis(backend, mode, width):
    # numpy repeats the reflection or the period; dask reflected once (wrong shape)
    _agree("pad", backend, np.arange(6.0).reshape(2, 3), width, mode=mode)
