"""Elementwise functions: numpy's names under the standard's, type promotion first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dispatch.translations._array_api._core import (
    _KIND,
    FACTORIES,
    Space,
    _member,
)

# ---- elementwise ----------------------------------------------------------

_UNARY = {
    "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
    "atan": "arctan", "atanh": "arctanh", "bitwise_invert": "invert",
    **{n: n for n in (
        "abs conj cos cosh exp expm1 imag isfinite isinf isnan log log1p log2 log10 "
        "logical_not negative positive real reciprocal sign signbit sin sinh square sqrt "
        "tan tanh"
    ).split()},
}  # fmt: skip
_BINARY = {
    "atan2": "arctan2", "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift", "pow": "power",
    **{n: n for n in (
        "add bitwise_and bitwise_or bitwise_xor copysign divide equal floor_divide greater "
        "greater_equal hypot less less_equal logaddexp logical_and logical_or logical_xor "
        "maximum minimum multiply nextafter not_equal remainder subtract"
    ).split()},
}  # fmt: skip


def _unary(space: Space, name: str) -> Callable:
    f = space.fn(_UNARY[name])

    def unary(x: Any, /) -> Any:
        return f(x)

    unary.__name__ = unary.__qualname__ = name
    unary.__doc__ = f"The array API's ``{name}``: ``do({_UNARY[name]!r}, x)``."
    return unary


for _n in _UNARY:
    FACTORIES[_n] = lambda space, _n=_n: _unary(space, _n)


def _binary(space: Space, name: str) -> Callable:
    f = space.fn(_BINARY[name])
    promoted = space.promoted

    def binary(x1: Any, x2: Any, /) -> Any:
        return f(*promoted(x1, x2))

    binary.__name__ = binary.__qualname__ = name
    binary.__doc__ = (
        f"The array API's ``{name}``: ``do({_BINARY[name]!r}, x1, x2)`` after the "
        "standard's type promotion."
    )
    return binary


for _n in _BINARY:
    FACTORIES[_n] = lambda space, _n=_n: _binary(space, _n)


def _rounding_member(name: str) -> Callable[[Space], Callable]:
    def factory(space: Space) -> Callable:
        f, astype, name_of = space.fn(name), space.fn("astype"), space.name_of

        def rounding(x: Any, /) -> Any:
            # integers and booleans are whole already: the same values and dtype
            if _KIND[name_of(x)] in "biu":
                return astype(x, x.dtype, copy=True)
            return f(x)

        rounding.__name__ = rounding.__qualname__ = name
        rounding.__doc__ = f"The array API's ``{name}``: integer input comes back as it is."
        return rounding

    return factory


for _n in ("ceil", "floor", "trunc", "round"):
    FACTORIES[_n] = _rounding_member(_n)


@_member("clip")
def _clip(space: Space) -> Callable:
    minimum, maximum, astype, name_of = (
        space.fn("minimum"), space.fn("maximum"), space.fn("astype"), space.name_of
    )
    def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
        """The array API's ``clip``: ``x`` limited to ``[min, max]``, in ``x``'s dtype."""
        dtype = x.dtype
        out = x
        if min is not None:
            out = maximum(out, min if not hasattr(min, "dtype") else astype(min, dtype))
        if max is not None:
            out = minimum(out, max if not hasattr(max, "dtype") else astype(max, dtype))
        if out is x:
            return astype(x, dtype, copy=True)
        return out if name_of(out) == name_of(x) else astype(out, dtype)

    return clip
