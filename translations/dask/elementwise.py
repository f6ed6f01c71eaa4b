"""dask: elementwise functions and comparisons.

Any numpy ufunc maps lazily over dask blocks (``__array_ufunc__``), so most
elementwise names need no entry. The adapters below take numpy's parameters
where dask's differ (``isclose``'s operand names, ``clip``'s ``a_min``/``a_max``,
``nan_to_num``'s replacement values), refuse what numpy refuses (an integer to a
negative integer power) and add what dask lacks (``array_equal``, ``complex``).
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
from dask.array import Array
from dispatch.translations._keywords import NO_VALUE, clip_bounds, refused_value

from dispatch.engine import NATIVE


def _isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> Array:
    # dask names the operands arr1/arr2; numpy's a/b may be passed by keyword
    return da.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
              equal_nan: bool = False) -> Array:
    return da.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _power(x1: Any, x2: Any, /) -> Array:
    # numpy refuses an integer to a negative integer power with a ValueError; dask's
    # dtype inference (on empty arrays) turns a host exponent's into a TypeError
    base = x1.dtype if hasattr(x1, "dtype") else np.asarray(x1).dtype
    exponent = x2 if isinstance(x2, Array) else np.asarray(x2)
    if not isinstance(x2, Array) and base.kind in "iu" and exponent.dtype.kind in "iu" and (
        np.any(exponent < 0)
    ):
        raise ValueError("Integers to negative integer powers are not allowed.")
    return da.power(x1, x2)


def _clip(a: Any, a_min: Any = NO_VALUE, a_max: Any = NO_VALUE, *, min: Any = NO_VALUE,
          max: Any = NO_VALUE) -> Any:
    # dask's clip takes only the array API's min/max, not numpy's a_min/a_max keywords
    return da.clip(a, *clip_bounds(a_min, a_max, min, max))


def _array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Any:
    a1, a2 = da.asarray(a1), da.asarray(a2)
    if a1.shape != a2.shape:
        return False
    if equal_nan:
        return da.all((a1 == a2) | (da.isnan(a1) & da.isnan(a2)))
    return da.all(a1 == a2)


def _nan_to_num(
    x: Any, copy: bool = True, nan: float = 0.0, posinf: Any = None, neginf: Any = None
) -> Array:
    # dask's nan_to_num has no nan/posinf/neginf: numpy's per block
    if not copy:
        raise refused_value("nan_to_num", "dask", "copy", False, "is not supported: numpy would "
                      "write into x, and do() never writes into an argument")
    x = da.asarray(x)
    return da.map_blocks(np.nan_to_num, x, nan=nan, posinf=posinf, neginf=neginf, dtype=x.dtype)


def _complex(real: Any, imag: Any) -> Array:
    return real + 1j * imag


TABLE = {
    # numpy's semantics, lazily per chunk
    "iscomplex": "iscomplex",
    "isreal": "isreal",
    "isclose": _isclose,
    "allclose": _allclose,
    "array_equal": _array_equal,
    "complex": _complex,
    "nan_to_num": _nan_to_num,
    "clip": _clip,
    "isneginf": da.isneginf,
    "isposinf": da.isposinf,
    "isin": da.isin,
    # the array API's spellings of dask's ufuncs
    "acos": "arccos",
    "acosh": "arccosh",
    "asin": "arcsin",
    "asinh": "arcsinh",
    "atan": "arctan",
    "atan2": "arctan2",
    "atanh": "arctanh",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    "bitwise_invert": "invert",
    "conjugate": "conj",
    "pow": "power",
    "power": _power,
    "heaviside": np.heaviside,
    "gcd": np.gcd,
    "lcm": np.lcm,
    # dask's own (lazy) beats the composed fallback
    "ediff1d": NATIVE,
    # dask wraps numpy's ufuncs
    "fabs": NATIVE,
    "divmod": NATIVE,
    "modf": NATIVE,
    "frexp": NATIVE,
}
