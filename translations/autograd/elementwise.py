"""autograd: numpy's elementwise names whose autograd primitive has no derivative.

Each gives numpy's value (:func:`~._common.exact`) with the derivative of a formula
autograd differentiates: ``cbrt`` as a power of ``abs``, ``fmod`` as ``x1 - x2 * n``
for the truncated quotient ``n``, ``nextafter`` and ``positive`` as their first
argument, ``ldexp`` as a product with a power of two. Results with no derivative
(``signbit``, ``spacing``) are numpy's plain values, as autograd's own ``floor`` is.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from autograd import numpy as anp
from autograd.tracer import Box, getval
from dispatch.translations._keywords import refused_value

from ._common import exact, on_values, values, where


def _cbrt(x: Any) -> Any:
    """numpy's ``cbrt``, differentiated as ``sign(x) * |x| ** (1/3)``.

    >>> _cbrt(np.array([-8.0, 27.0]))
    array([-2.,  3.])
    """
    v = getval(x)
    return exact(np.cbrt(v), np.sign(v) * anp.abs(x) ** (1 / 3))


def _copysign(x1: Any, x2: Any) -> Any:
    """numpy's ``copysign``: ``x1`` or ``-x1`` (no derivative with respect to ``x2``).

    >>> _copysign(np.array([1.0, -2.0]), -1.0)
    array([-1., -2.])
    """
    v1, v2 = getval(x1), getval(x2)
    if not isinstance(x1, Box):  # nothing to differentiate (-x1 of booleans is refused)
        return np.copysign(v1, v2)
    return exact(np.copysign(v1, v2), where(np.signbit(v1) == np.signbit(v2), x1, -x1))


def _float_power(x1: Any, x2: Any) -> Any:
    """numpy's ``float_power``: ``power`` in float64 (complex128 for complex inputs)."""
    value = np.float_power(getval(x1), getval(x2))
    wide = value.dtype

    def cast(x: Any) -> Any:
        return x.astype(wide) if hasattr(x, "astype") else x

    return exact(value, anp.power(cast(x1), cast(x2)))


def _fmod(x1: Any, x2: Any) -> Any:
    """numpy's ``fmod``, differentiated as ``x1 - x2 * trunc(x1 / x2)``.

    >>> _fmod(np.array([-7.0, 7.0]), 4.0)
    array([-3.,  3.])
    """
    v1, v2 = getval(x1), getval(x2)
    with np.errstate(all="ignore"):
        n = np.trunc(np.true_divide(v1, v2))
    return exact(np.fmod(v1, v2), x1 - x2 * n)


def _heaviside(x1: Any, x2: Any) -> Any:
    """numpy's ``heaviside``: ``x2`` where ``x1`` is 0 (derivative 1 there), else a
    constant 0 or 1."""
    v1 = getval(x1)
    return exact(np.heaviside(v1, getval(x2)), where(v1 == 0, x2, 0.0))


def _ldexp(x1: Any, x2: Any) -> Any:
    """numpy's ``ldexp``, differentiated as ``x1 * 2 ** x2`` (``x2`` is an integer).

    >>> _ldexp(np.array([1.5]), 3)
    array([12.])
    """
    v2 = getval(x2)
    return exact(np.ldexp(getval(x1), v2), x1 * np.exp2(v2))


def _nextafter(x1: Any, x2: Any) -> Any:
    # the next float after x1 moves with x1 (derivative 1), never with x2
    return exact(np.nextafter(getval(x1), getval(x2)), x1)


def _positive(x: Any) -> Any:
    return exact(np.positive(getval(x)), x)


def _nan_to_num(x: Any, copy: bool = True, nan: Any = 0.0, posinf: Any = None,
                neginf: Any = None) -> Any:
    """numpy's ``nan_to_num``: ``x`` where finite (derivative 1), the replacements
    elsewhere (constants). autograd's own takes none of the keywords; ``copy=False``,
    which asks numpy to write into ``x``, is refused (a box is never written into)."""
    if not copy:
        raise refused_value("nan_to_num", "autograd", "copy", False, "asks numpy to write into "
                      "x, and a box records a pure function: it is never written into")
    v = getval(x)
    value = np.nan_to_num(v, copy=True, nan=values(nan), posinf=values(posinf),
                          neginf=values(neginf))
    return exact(value, where(np.isfinite(v), x, 0.0))


_UNSET = object()


def _clip(a: Any, a_min: Any = _UNSET, a_max: Any = _UNSET, out: Any = None, *,
          min: Any = _UNSET, max: Any = _UNSET, **kwargs: Any) -> Any:
    """numpy's ``clip``, differentiated as ``minimum(maximum(a, lo), hi)``: in ``a``
    inside the bounds, in a bound where it clips (autograd's own takes constant bounds
    by position only)."""
    if out is not None:
        raise TypeError("clip(out=...) writes into an array: autograd records pure functions")
    given = {k: v for k, v in (("a_min", a_min), ("a_max", a_max), ("min", min), ("max", max))
             if v is not _UNSET}
    value = np.clip(getval(a), **values(given), **kwargs)
    lo = given.get("a_min", given.get("min"))
    hi = given.get("a_max", given.get("max"))
    formula = a
    if lo is not None:
        formula = anp.maximum(formula, lo)
    if hi is not None:
        formula = anp.minimum(formula, hi)
    return exact(value, formula)


def _cumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    # autograd's cumsum takes no dtype: cast first (recorded), then sum
    if out is not None:
        raise TypeError("cumsum(out=...) writes into an array: autograd records pure functions")
    if dtype is not None and np.dtype(dtype) == np.bool_:  # no derivative: numpy's own
        return np.cumsum(getval(a), axis, dtype=np.bool_)
    if dtype is not None:
        a = a.astype(np.dtype(dtype))
    return anp.cumsum(a, axis)


TABLE = {
    "cbrt": _cbrt,
    "copysign": _copysign,
    "float_power": _float_power,
    "fmod": _fmod,
    "heaviside": _heaviside,
    "ldexp": _ldexp,
    "nextafter": _nextafter,
    "positive": _positive,
    "nan_to_num": _nan_to_num,
    "cumsum": _cumsum,
    "clip": _clip,
    # predicates: plain values, whichever argument the boxes are given as
    "allclose": on_values(np.allclose),
    "isclose": on_values(np.isclose),
    "array_equal": on_values(np.array_equal),
    "array_equiv": on_values(np.array_equiv),
    "signbit": on_values(np.signbit),
    "spacing": on_values(np.spacing),
    "i0": "scipy.special.i0",
}
