"""pydata sparse: elementwise functions and comparisons.

numpy's ufuncs, which pydata sparse implements on its arrays
(``__array_ufunc__``), fill value included: ``exp`` of a COO with fill value 0
is a COO with fill value 1, equal to numpy's result. The adapters write
numpy's non-ufunc functions (``sinc``, ``nan_to_num``, ``isclose``, ``angle``...)
with sparse's ``where`` and ufuncs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc
import sparse
from dispatch.translations._adapters import UFUNC_SPELLINGS
from dispatch.translations._keywords import (
    NO_VALUE,
    clip_bounds,
    diff_ends,
    no_out,
    refused_value,
    ufunc_call,
)
from dispatch.translations.sparse._common import sp, ufunc_entry
from sparse import SparseArray

from dispatch.engine import NATIVE, merge_tables

_UFUNCS = (
    "absolute negative positive sign sqrt cbrt square exp exp2 expm1 log log2 log10 "
    "log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh "
    "floor ceil trunc rint isnan isinf isfinite signbit conjugate reciprocal "
    "logical_not invert deg2rad rad2deg degrees radians spacing add subtract multiply "
    "divide floor_divide power float_power remainder fmod maximum minimum fmax fmin "
    "arctan2 hypot logaddexp logaddexp2 copysign nextafter heaviside equal not_equal "
    "less less_equal greater greater_equal logical_and logical_or logical_xor "
    "bitwise_and bitwise_or bitwise_xor left_shift right_shift gcd lcm ldexp"
).split()



def _angle(z: Any, deg: bool = False) -> SparseArray:
    z = sp(z)
    out = (
        np.arctan2(sparse.imag(z), sparse.real(z))
        if z.dtype.kind == "c"
        else np.arctan2(sparse.zeros_like(z, dtype=np.result_type(z.dtype, np.float16)), z)
    )
    return np.degrees(out) if deg else out


def _round(a: Any, decimals: int = 0, out: Any = None) -> SparseArray:
    no_out("round", "sparse", out)
    return sparse.round(sp(a), decimals=decimals)


def _sign_inf(fn: Any) -> Any:
    def test(x: Any, out: Any = None) -> SparseArray:
        # pydata's isneginf/isposinf take out= and leave it as it was
        no_out(fn.__name__, "sparse", out)
        return fn(sp(x))

    test.__name__ = test.__qualname__ = f"_{fn.__name__}"
    return test


def _sinc(x: Any) -> SparseArray:
    # numpy's sinc is not a ufunc; its formula, with sparse's where
    x = sp(x)
    y = np.pi * sparse.where(x == 0, 1.0e-20, x)
    return np.sin(y) / y


def _nan_to_num(
    x: Any, copy: bool = True, nan: float = 0.0, posinf: Any = None, neginf: Any = None
) -> SparseArray:
    # numpy's nan_to_num is not a ufunc; sparse's where per replacement
    if not copy:
        raise refused_value("nan_to_num", "sparse", "copy", False, "is not supported: numpy would "
                      "write into x, and do() never writes into an argument")
    x = sp(x)
    if x.dtype.kind == "c":
        re = _nan_to_num(sparse.real(x), nan=nan, posinf=posinf, neginf=neginf)
        im = _nan_to_num(sparse.imag(x), nan=nan, posinf=posinf, neginf=neginf)
        return re + 1j * im
    if x.dtype.kind != "f":
        return x.copy()
    info = np.finfo(x.dtype)
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf
    out = sparse.where(np.isnan(x), x.dtype.type(nan), x)
    out = sparse.where(np.isposinf(out), x.dtype.type(big), out)
    return sparse.where(np.isneginf(out), x.dtype.type(small), out).astype(x.dtype)


def _isclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> SparseArray:
    # numpy's isclose is not a ufunc; its formula on sparse arrays
    a, b = sp(a), sp(b)
    with np.errstate(invalid="ignore"):
        out = (abs(a - b) <= atol + rtol * abs(b)) & np.isfinite(b) | (a == b)
    if equal_nan:
        out = out | (np.isnan(a) & np.isnan(b))
    return out


def _allclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    return bool(sparse.all(_isclose(a, b, rtol, atol, equal_nan)))


def _array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    a1, a2 = sp(a1), sp(a2)
    if a1.shape != a2.shape:
        return False
    eq = a1 == a2
    if equal_nan:
        eq = eq | (np.isnan(a1) & np.isnan(a2))
    return bool(sparse.all(eq))


def _complex(real: Any, imag: Any) -> SparseArray:
    return sp(real) + 1j * sp(imag)


def _clip(a: Any, a_min: Any = NO_VALUE, a_max: Any = NO_VALUE, out: Any = None, *,
          min: Any = NO_VALUE, max: Any = NO_VALUE, **ufunc_keywords: Any) -> SparseArray:
    # numpy 2's signature: min=/max= spell the bounds too, and a ufunc's keywords
    lo, hi = clip_bounds(a_min, a_max, min, max)
    if out is not None or ufunc_keywords:
        return ufunc_call("clip", "sparse", lambda x: _clip(x, lo, hi), (a,), out,
                          ufunc_keywords)
    return sparse.clip(sp(a), lo, hi)


def _diff(a: Any, n: int = 1, axis: int = -1, **kwargs: Any) -> SparseArray:
    return sparse.diff(sp(a), axis=axis, n=n, **kwargs)


TABLE = merge_tables(
    {
        "fix": np.trunc,
        "round": _round,
        "around": _round,
        "real": "real",
        "imag": "imag",
        "isneginf": _sign_inf(sparse.isneginf),
        "isposinf": _sign_inf(sparse.isposinf),
        "angle": _angle,
        "sinc": _sinc,
        "i0": sc.i0,
        "nan_to_num": _nan_to_num,
        "isclose": _isclose,
        "allclose": _allclose,
        "array_equal": _array_equal,
        "clip": _clip,
        "complex": _complex,
        "diff": diff_ends(_diff),  # pydata's takes sparse arrays only as its ends
        "interp": NATIVE,  # pydata's own (numpy's, over the stored values and the fill value)
    },
    # numpy's ufuncs, which sparse implements (__array_ufunc__), and the array API's
    # spellings of them
    {n: ufunc_entry(n, getattr(np, n)) for n in _UFUNCS},
    {n: ufunc_entry(n, getattr(np, f)) for n, f in UFUNC_SPELLINGS.items()},
    names=("elementwise", "ufuncs", "ufunc spellings"),
)
