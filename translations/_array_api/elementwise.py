"""Elementwise functions: numpy's names under the standard's, type promotion first."""

from __future__ import annotations

import math
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
    special = _COMPLEX_CASES.get(name)
    if special is not None:
        return _with_complex_cases(space, name, f, special)

    def unary(x: Any, /) -> Any:
        return f(x)

    unary.__name__ = unary.__qualname__ = name
    unary.__doc__ = f"The array API's ``{name}``: ``do({_UNARY[name]!r}, x)``."
    return unary


# -- the standard's special cases of complex functions that numpy (and the libraries
# following it) computes otherwise. Each takes the space, the input and the library's
# result, both complex, and returns the standard's result; real input never comes here.


def _expm1_cases(space: Space, x: Any, out: Any) -> Any:
    """expm1(a + bj) = exp(a)·cis(b) - 1 where numpy's differs: at b = ±0 the result
    is expm1(a) + bj (+0 for a = ±0, as 1 - 1 is +0; b's signed zero; no nan for
    a = +inf or nan); at a = -inf it is exactly -1 with a zero imaginary part of
    sin(b)'s sign; at a = +inf with b infinite or nan it is inf + nan j."""
    real, imag, where, signbit, isnan, isfinite, conj = (
        space.fn("real"), space.fn("imag"), space.fn("where"), space.fn("signbit"),
        space.fn("isnan"), space.fn("isfinite"), space.fn("conj"))
    a, b = real(x), imag(x)
    zero_b = b == 0
    # (a, ±0): the imaginary part is exp(a)·b, a zero of b's sign (some libraries
    # lose it in their vectorized loops): conj flips that sign only
    out = where(zero_b & (signbit(imag(out)) != signbit(b)), conj(out), out)
    # (±0, ±0) -> (+0, ±0), written as constants (torch's complex arithmetic loses
    # the signs of zeros)
    zero = zero_b & (a == 0)
    negative_b = signbit(b)
    out = where(zero & negative_b, complex(0.0, -0.0), out)
    out = where(zero & ~negative_b, complex(0.0, 0.0), out)
    # (+inf, ±0) and (nan, ±0) are their own results
    out = where(zero_b & ((a == math.inf) | isnan(a)), x, out)
    # (-inf, b): -1 and a zero of the sign the library found for finite b (that of
    # sin(b)), of b's sign for infinite b (conjugate symmetry; +0 for +inf as the
    # suite checks, though the standard leaves it open)
    negative_zero = signbit(where(isfinite(b), imag(out), b))
    minus_inf = a == -math.inf
    out = where(minus_inf & negative_zero, complex(-1.0, -0.0), out)
    out = where(minus_inf & ~negative_zero, complex(-1.0, 0.0), out)
    return where((a == math.inf) & ~isfinite(b), complex(math.inf, math.nan), out)


def _tanh_cases(space: Space, x: Any, out: Any) -> Any:
    """tanh(±inf + bj) for finite b is ±1 with a zero imaginary part of b's sign (the
    standard's 1 + 0j for b > 0, by conjugate symmetry and oddness elsewhere); numpy's
    zero follows sin(2b)."""
    real, imag, where, signbit, isinf, isfinite, conj = (
        space.fn("real"), space.fn("imag"), space.fn("where"), space.fn("signbit"),
        space.fn("isinf"), space.fn("isfinite"), space.fn("conj"))
    b = imag(x)
    wrong = isinf(real(x)) & isfinite(b) & (signbit(imag(out)) != signbit(b))
    return where(wrong, conj(out), out)


def _log1p_cases(space: Space, x: Any, out: Any) -> Any:
    """log1p(a + bj) with one part infinite and the other nan is +inf + nan j (the
    modulus is infinite whatever the nan; torch gives nan + nan j), and log1p(-1 ± 0j)
    is -inf ± 0j (tensorflow gives a nan imaginary part)."""
    real, imag, where, isinf, isnan, signbit = (
        space.fn("real"), space.fn("imag"), space.fn("where"), space.fn("isinf"),
        space.fn("isnan"), space.fn("signbit"))
    a, b = real(x), imag(x)
    infinite = (isinf(a) & isnan(b)) | (isnan(a) & isinf(b))
    out = where(infinite, complex(math.inf, math.nan), out)
    pole = (a == -1) & (b == 0)
    out = where(pole & signbit(b), complex(-math.inf, -0.0), out)
    return where(pole & ~signbit(b), complex(-math.inf, 0.0), out)


_COMPLEX_CASES: dict[str, Callable[[Space, Any, Any], Any]] = {
    "expm1": _expm1_cases, "tanh": _tanh_cases, "log1p": _log1p_cases,
}


def _with_complex_cases(space: Space, name: str, f: Callable,
                        special: Callable[[Space, Any, Any], Any]) -> Callable:
    name_of = space.name_of
    is_complex: dict[Any, bool] = {}  # dtype -> complex? (one lookup for real input)

    def unary(x: Any, /) -> Any:
        out = f(x)
        c = is_complex.get(x.dtype)
        if c is None:
            c = is_complex[x.dtype] = _KIND[name_of(x)] == "c"
        return special(space, x, out) if c else out

    unary.__name__ = unary.__qualname__ = name
    unary.__doc__ = (f"The array API's ``{name}``: ``do({_UNARY[name]!r}, x)``, with the "
                     "standard's special cases of complex input.")
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
        if space.foreign_scalar(min) or space.foreign_scalar(max):
            min, max = (v.item() if space.foreign_scalar(v) else v for v in (min, max))
        if min is not None:
            out = maximum(out, min if not hasattr(min, "dtype") else astype(min, dtype))
        if max is not None:
            out = minimum(out, max if not hasattr(max, "dtype") else astype(max, dtype))
        if out is x:
            return astype(x, dtype, copy=True)
        return out if name_of(out) == name_of(x) else astype(out, dtype)

    return clip
