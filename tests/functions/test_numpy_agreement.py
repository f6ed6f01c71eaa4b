"""Results that an outside probe found to differ from numpy (issue 11, section 3).

Each class is checked on every backend against numpy: a walk over every reduction of
the vocabulary that numpy gives ``where=``, the float width of integer inputs (the
dtype policy of docs/vocabulary.md), and the single cases of the issue.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
from conftest import assert_close, to_backend, to_np

from dispatch import do
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
MASK = np.array(
    [[True, False, True, True], [False, True, True, False], [True, True, False, True]]
)
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
}


def _int_to_float_calls() -> dict[str, tuple]:
    calls = {}
    for name in sorted(known_names()):
        if name.startswith(("random.", "scipy.")) or name in FLOAT64_BY_DEFINITION:
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
        if name.startswith("linalg.") and e.ndim == 2 and name not in ("linalg.inv", "linalg.cholesky"):
            continue  # factors are unique up to signs: the values are checked elsewhere
        assert_close(np.asarray(a), e, dtype="kind")
