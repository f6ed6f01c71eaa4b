"""mlx: elementwise functions under numpy's names.

mlx has most of numpy's ufuncs under numpy's or the array API's names; the
entries rename (``absolute`` -> ``abs``, ``deg2rad`` -> ``radians``...) and write
the ones mlx lacks with its primitives (``copysign``, ``hypot``, ``fmod``,
``gcd``, ``ldexp``, ``sinc``...). mlx's arithmetic follows its own promotion:
a Python float with an integer array gives float32, where numpy gives float64.
"""

from __future__ import annotations

import operator
from typing import Any

import mlx.core as mx
import numpy as np
from dispatch.translations._composed.elementwise import half_spacing
from dispatch.translations._keywords import NO_VALUE, clip_bounds, no_out
from dispatch.translations._loops import bool_operands, in_loop, is_bool
from dispatch.translations.mlx._common import NO_COMPLEX128 as _NO_C128
from dispatch.translations.mlx._common import host_dtype, mx_dtype
from dispatch.translations.mlx.devices import _asarray

from dispatch.engine import merge_tables

_FLOATS = (mx.float16, mx.bfloat16, mx.float32, mx.float64)
_ARRAY = mx.array


def _arr(x: Any) -> Any:
    return x if isinstance(x, mx.array) else _asarray(x)


def _pair(x1: Any, x2: Any, promote: bool = True) -> tuple:
    """Both operands as mlx arrays, a Python scalar taking the dtype that mlx's
    promotion gives it beside the other (weakly, as numpy 2 reads Python scalars);
    two arrays (0-d ones too: numpy 2 reads them strongly) promoted to numpy's common
    dtype unless ``promote`` is false (``ldexp`` keeps its mantissa's)."""
    s1, s2 = _scalar(x1), _scalar(x2)
    if s1 and not s2:
        x2 = _arr(x2)
        return mx.array(x1, _weak(x1, x2.dtype)), x2
    if s2 and not s1:
        x1 = _arr(x1)
        return x1, mx.array(x2, _weak(x2, x1.dtype))
    x1, x2 = _arr(x1), _arr(x2)
    if promote and x1.dtype != x2.dtype:
        dt = mx_dtype(np.result_type(host_dtype(x1.dtype), host_dtype(x2.dtype)))
        x1, x2 = x1.astype(dt), x2.astype(dt)
    return x1, x2


def _weak(scalar: Any, dtype: Any) -> Any:
    """The dtype of a Python scalar beside an array of ``dtype``: mlx's promotion, but
    numpy's default int (int64) for an int beside booleans (mlx: int32)."""
    if dtype == mx.bool_ and type(scalar) is int:
        return mx.int64
    return (mx.zeros((), dtype) + scalar).dtype


def _binary(fn: Any, op: Any = None) -> Any:
    """``fn`` with numpy's promotion; ``op``: the same kernel as an operator of
    mlx's arrays (``+`` is ``mx.add``), a call about 70 ns cheaper than ``fn``'s."""
    kernel = fn if op is None else op

    def binary(x1: Any, x2: Any) -> Any:
        # two arrays of one dtype: mlx's kernel as it is (_pair would change nothing)
        if type(x1) is _ARRAY and type(x2) is _ARRAY and x1.dtype == x2.dtype:
            return kernel(x1, x2)
        return fn(*_pair(x1, x2))

    binary.__name__ = fn.__name__
    return binary


_BOOL = mx.bool_


def _subtract(x1: Any, x2: Any) -> Any:
    # _binary's, and numpy's TypeError for two booleans (mlx subtracts them)
    if type(x1) is _ARRAY and type(x2) is _ARRAY and x1.dtype == x2.dtype != _BOOL:
        return x1 - x2
    if is_bool(x1, _BOOL) and is_bool(x2, _BOOL):
        in_loop("subtract", (x1, x2), _np_dtype, _cast)  # numpy's refusal
    return mx.subtract(*_pair(x1, x2))


def _scalar(x: Any) -> bool:
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic)


def _inexact(x: Any) -> Any:
    x = _arr(x)
    return x if mx.issubdtype(x.dtype, mx.inexact) else x.astype(mx.float32)


def _copysign(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = _inexact(x1), _arr(x2)
    neg = _signbit(x2)
    return mx.where(neg, -mx.abs(x1), mx.abs(x1))


def _sign(x: Any) -> Any:
    # numpy's sign of a complex zero is +0+0j; mlx's keeps the zeros' signs
    x = _arr(x)
    out = mx.sign(x)
    if mx.issubdtype(out.dtype, mx.complexfloating):
        return mx.where(x == 0, mx.zeros((), out.dtype), out)
    return out


def _signbit(x: Any) -> Any:
    x = _arr(x)
    if not mx.issubdtype(x.dtype, mx.floating):
        return x < 0
    # -0.0 has its sign bit set: 1 / -0.0 is -inf
    return (x < 0) | ((x == 0) & (mx.reciprocal(x) < 0))


def _hypot(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = mx.abs(_inexact(x1)), mx.abs(_inexact(x2))
    big, small = mx.maximum(x1, x2), mx.minimum(x1, x2)
    ratio = mx.where(big == 0, 0, small / mx.where(big == 0, 1, big))
    out = big * mx.sqrt(1 + ratio * ratio)
    return mx.where(mx.isinf(x1) | mx.isinf(x2), mx.inf, out)


def _int_zero(x2: Any) -> Any:
    """Where an integer divisor is zero (numpy's answer there is 0, with a warning;
    mlx's integer kernels give the dividend or garbage), else None."""
    return None if mx.issubdtype(x2.dtype, mx.inexact) else x2 == 0


def _remainder(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    zero = _int_zero(x2)
    if zero is None:
        return mx.remainder(x1, x2)
    r = mx.remainder(x1, mx.where(zero, 1, x2).astype(x2.dtype))
    return mx.where(zero, 0, r).astype(r.dtype)


def _floor_divide(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    q = mx.floor_divide(x1, x2)
    if not mx.issubdtype(q.dtype, mx.inexact):
        return q
    # numpy's floor division (its divmod): an infinite dividend over a nonzero divisor
    # is NaN (mlx: inf), a finite nonzero dividend over an infinite divisor of the other
    # sign is -1 (mlx: -0)
    q = mx.where(mx.isinf(x1) & (x2 != 0), mx.nan, q)
    other = mx.isfinite(x1) & (x1 != 0) & mx.isinf(x2) & ((x1 < 0) != (x2 < 0))
    return mx.where(other, -1, q).astype(q.dtype)


def _fmod(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    # C's fmod: the sign of the dividend (numpy's remainder takes the divisor's)
    x1, x2 = _arr(x1), _arr(x2)
    zero = _int_zero(x2)
    safe = x2 if zero is None else mx.where(zero, 1, x2).astype(x2.dtype)
    r = mx.remainder(x1, safe)
    fix = (r != 0) & ((r < 0) != (x1 < 0))
    r = mx.where(fix, r - safe, r)
    return r if zero is None else mx.where(zero, 0, r).astype(r.dtype)


def _power(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    if not mx.issubdtype(x1.dtype, mx.inexact) and not mx.issubdtype(x2.dtype, mx.inexact) \
            and x2.size and mx.any(x2 < 0).item():
        # numpy refuses (mlx answers 0 or garbage); read on the host, as numpy decides
        raise ValueError("power: Integers to negative integer powers are not allowed.")
    return mx.power(x1, x2)


def _clip(a: Any, a_min: Any = NO_VALUE, a_max: Any = NO_VALUE, out: Any = None, *,
          min: Any = NO_VALUE, max: Any = NO_VALUE) -> Any:
    # numpy 2's signature (min=/max= keywords, neither bound a copy), which mx.clip lacks
    if out is not None:
        raise TypeError("clip: out= is not supported on mlx: its arrays are immutable")
    lo, hi = clip_bounds(a_min, a_max, min, max)
    res = _arr(a)
    if lo is not None:
        res = mx.maximum(*_pair(res, lo))
    if hi is not None:
        res = mx.minimum(*_pair(res, hi))
    return res


def _fmax(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = _arr(x1), _arr(x2)
    return mx.where(mx.isnan(x1), x2, mx.where(mx.isnan(x2), x1, mx.maximum(x1, x2)))


def _fmin(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = _arr(x1), _arr(x2)
    return mx.where(mx.isnan(x1), x2, mx.where(mx.isnan(x2), x1, mx.minimum(x1, x2)))


def _gcd(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    a, b = mx.abs(x1), mx.abs(x2)
    a, b = mx.broadcast_arrays(a, b)
    # Euclid's steps, all lanes at once, until every divisor is zero (eager); 64-bit
    # integers need at most 92 steps (Fibonacci pairs are the slowest), and the bound
    # also ends the lanes whose absolute value overflows (abs of the most negative)
    for _ in range(96):
        if not mx.any(b != 0).item():
            break
        safe = mx.where(b == 0, 1, b)
        a, b = mx.where(b == 0, a, b), mx.where(b == 0, 0, mx.remainder(a, safe)).astype(b.dtype)
    return a


def _lcm(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    a, b = mx.abs(x1), mx.abs(x2)
    g = _gcd(a, b)
    return mx.where(g == 0, 0, (a // mx.where(g == 0, 1, g)) * b).astype(g.dtype)


def _heaviside(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = _inexact(x1), _arr(x2)
    return mx.where(mx.isnan(x1), x1, mx.where(x1 == 0, x2, (x1 > 0).astype(x1.dtype)))


def _ldexp(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2, promote=False)
    x1 = _inexact(x1)
    return x1 * mx.power(mx.array(2.0, x1.dtype), _arr(x2).astype(x1.dtype))


def _np_dtype(x: Any) -> np.dtype:
    return host_dtype(x.dtype) if isinstance(x, _ARRAY) else np.asarray(x).dtype


def _cast(x: Any, dtype: np.dtype) -> Any:
    dt = mx_dtype(dtype)
    return x.astype(dt) if isinstance(x, _ARRAY) else mx.array(x, dt)


def _numpy_loop(name: str, fn: Any, always: bool = False) -> Any:
    """``fn`` of operands in numpy's loop dtypes for ``name``, where an operand is
    boolean (mlx keeps bool for a floor division or a power of booleans, uint8 for
    their shifts, int32 for an int beside them) or, with ``always``, for every call
    (``gcd``: numpy refuses floats). numpy's TypeError where it has no loop
    (``bool - bool``, ``ldexp`` of a float exponent)."""
    return bool_operands(name, fn, _BOOL, _np_dtype, _cast, always)


def _shift(fn: Any, left: bool) -> Any:
    """numpy's shift: by a count outside [0, bits) a left shift gives 0 and a right
    shift the sign (0 or -1); mlx's kernels give what the hardware does."""

    def shift(x1: Any, x2: Any) -> Any:
        x1, x2 = _pair(x1, x2)
        out = fn(x1, x2)
        outside = (x2 < 0) | (x2 >= 8 * out.dtype.size)
        fill = mx.zeros((), out.dtype) if left else mx.where(x1 < 0, -1, 0).astype(out.dtype)
        return mx.where(outside, fill, out)

    shift.__name__ = shift.__qualname__ = "_" + fn.__name__
    return shift


def _exp2(x: Any) -> Any:
    x = _inexact(x)
    return mx.power(mx.array(2.0, x.dtype), x)


def _logaddexp2(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = _inexact(x1), _inexact(x2)
    ln2 = mx.array(0.6931471805599453, x1.dtype)
    return _logaddexp(x1 * ln2, x2 * ln2) / ln2


def _cbrt(x: Any) -> Any:
    x = _inexact(x)
    # a zero is itself, its sign kept (numpy's cbrt(-0.0) is -0.0)
    return mx.where(x == 0, x, mx.sign(x) * mx.power(mx.abs(x), mx.array(1 / 3, x.dtype)))


def _sinc(x: Any) -> Any:
    x = _inexact(x)
    y = mx.pi * mx.where(x == 0, 1.0e-20, x).astype(x.dtype)
    return mx.where(x == 0, mx.array(1, x.dtype), _sin(y) / y)


def _fix(x: Any) -> Any:
    x = _arr(x)
    return mx.where(x < 0, mx.ceil(x), mx.floor(x)) if mx.issubdtype(
        x.dtype, mx.floating) else x


def _float_power(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = _arr(x1), _arr(x2)
    dt = mx.complex64 if any(mx.issubdtype(x.dtype, mx.complexfloating) for x in (x1, x2)) \
        else mx.float64
    return mx.power(x1.astype(dt), x2.astype(dt))


def _angle(z: Any, deg: bool = False) -> Any:
    z = _arr(z)
    out = mx.arctan2(mx.imag(z), mx.real(z)) if z.dtype == mx.complex64 else mx.arctan2(
        mx.zeros_like(_inexact(z)), _inexact(z))
    return mx.degrees(out) if deg else out


def _around(a: Any, decimals: int = 0, out: Any = None) -> Any:
    # numpy rounds half to even (as mlx does at 0 decimals); integers stay integers
    no_out("around", "mlx", out)
    a = _arr(a)
    if not mx.issubdtype(a.dtype, mx.inexact):
        if decimals >= 0:
            return a
        f = 10 ** (-decimals)
        return (mx.round(a.astype(mx.float64) / f) * f).astype(a.dtype)
    if decimals == 0 or a.dtype != mx.float64:
        return mx.round(a, int(decimals))
    # mlx scales by 10**decimals in float32: numpy's float64 scaling, then rounding
    f = 10.0 ** abs(int(decimals))
    return mx.round(a * f) / f if decimals > 0 else mx.round(a / f) * f


def _rint(x: Any) -> Any:
    x = _arr(x)
    return mx.round(x) if mx.issubdtype(x.dtype, mx.inexact) else x.astype(mx.float32)


def _nextafter(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = _inexact(x1), _inexact(x2)
    # one unit in the last place by the bits: step the integer view up or down
    bits = {mx.float32: mx.int32, mx.float64: mx.int64, mx.float16: mx.int16}[x1.dtype]
    x2 = x2.astype(x1.dtype)
    i = x1.view(bits)
    tiny = mx.array(1, bits).view(x1.dtype)
    up = (x2 > x1) == (x1 >= 0)
    stepped = mx.where(up, i + 1, i - 1).view(x1.dtype)
    zero = mx.where(x2 > x1, tiny, -tiny)
    out = mx.where(x1 == 0, zero, stepped)
    # numpy's float16 loop returns x1 where the two are equal, its wider loops x2
    same = x1 if x1.dtype == mx.float16 else x2
    return mx.where(x1 == x2, same, mx.where(mx.isnan(x1) | mx.isnan(x2), mx.nan, out))


def _spacing(x: Any) -> Any:
    x = _inexact(x)
    if x.dtype == mx.float16:
        return half_spacing(x)
    big = mx.array(mx.finfo(x.dtype).max, x.dtype)
    return _nextafter(x, mx.where(x < 0, -big, big) * 2) - x


def _i0(x: Any) -> Any:
    # the modified Bessel function of order 0: its power series, to float64 roundoff
    # for |x| <= 30 (numpy's argument range in practice), with exp scaling past it
    x = mx.abs(_inexact(x))
    q = (x / 2) ** 2
    term = mx.ones_like(x)
    total = mx.ones_like(x)
    for k in range(1, 120):
        term = term * q / (k * k)
        total = total + term
    return total


_RENAMES_AND_ADAPTERS = {
    "absolute": "abs",
    "bitwise_not": "bitwise_invert",
    "invert": "bitwise_invert",
    "deg2rad": "radians",
    "rad2deg": "degrees",
    # numpy's dtypes for Python scalars and mixed arrays (mlx's own promotion differs)
    "add": _binary(mx.add, operator.add),
    "subtract": _subtract,
    "multiply": _binary(mx.multiply, operator.mul),
    "maximum": _binary(mx.maximum),
    "minimum": _binary(mx.minimum),
    "clip": _clip,
    "mod": _numpy_loop("remainder", _remainder),
    "remainder": _numpy_loop("remainder", _remainder),
    "floor_divide": _numpy_loop("floor_divide", _floor_divide),
    "power": _numpy_loop("power", _power),
    "pow": _numpy_loop("power", _power),
    "bitwise_and": _numpy_loop("bitwise_and", mx.bitwise_and),
    "bitwise_or": _numpy_loop("bitwise_or", mx.bitwise_or),
    "bitwise_xor": _numpy_loop("bitwise_xor", mx.bitwise_xor),
    "left_shift": _numpy_loop("left_shift", _shift(mx.left_shift, True)),
    "right_shift": _numpy_loop("right_shift", _shift(mx.right_shift, False)),
    "bitwise_left_shift": _numpy_loop("left_shift", _shift(mx.left_shift, True)),
    "bitwise_right_shift": _numpy_loop("right_shift", _shift(mx.right_shift, False)),
    "true_divide": "divide",
    "conj": "conjugate",
    "sign": _sign,
    "copysign": _copysign,
    "signbit": _signbit,
    "hypot": _hypot,
    "fmod": _numpy_loop("fmod", _fmod),
    "fmax": _fmax,
    "fmin": _fmin,
    "gcd": _numpy_loop("gcd", _gcd, always=True),
    "lcm": _numpy_loop("lcm", _lcm, always=True),
    "heaviside": _heaviside,
    "ldexp": _numpy_loop("ldexp", _ldexp),
    "exp2": _exp2,
    "logaddexp2": _logaddexp2,
    "cbrt": _cbrt,
    "sinc": _sinc,
    "fix": _fix,
    "float_power": _float_power,
    "angle": _angle,
    "around": _around,
    "round": _around,
    "rint": _rint,
    "nextafter": _nextafter,
    "spacing": _spacing,
    "i0": _i0,
}


# mlx's float64 kernels of exp, sin and cos (and those built on them inside mlx:
# logaddexp, sigmoid, softmax, logsumexp) are accurate to float32 only: measured over
# 20001 points, relative errors 1.9e-6 (exp on [-20, 20]) and absolute 9.5e-7 (sin,
# cos on [-30, 30]), where its power, tan and log are exact to roundoff. In float64
# they are written with those
_LOG2E = 1.4426950408889634


def _exp(x: Any) -> Any:
    x = _arr(x)
    if x.dtype != mx.float64:
        return mx.exp(x)
    return mx.power(mx.array(2.0, mx.float64), x * _LOG2E)


def _half_tan(x: Any) -> Any:
    t = mx.tan(x / 2)
    return t, 1 + t * t


# the derivatives mlx would take through tan call its float32-accurate cos: each
# function states its own, written with the other
@mx.custom_function
def _sin64(x: Any) -> Any:
    t, d = _half_tan(x)
    return mx.where(mx.isinf(t), 0.0, 2 * t / d)


@mx.custom_function
def _cos64(x: Any) -> Any:
    t, d = _half_tan(x)
    return mx.where(mx.isinf(t), -1.0, (1 - t * t) / d)


@_sin64.vjp
def _sin64_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    return cotangent * _cos64(primals)


@_cos64.vjp
def _cos64_vjp(primals: Any, cotangent: Any, output: Any) -> Any:
    return -cotangent * _sin64(primals)


@_sin64.jvp
def _sin64_jvp(primals: Any, tangents: Any) -> Any:
    return tangents * _cos64(primals)


@_cos64.jvp
def _cos64_jvp(primals: Any, tangents: Any) -> Any:
    return -tangents * _sin64(primals)


def _sin(x: Any) -> Any:
    x = _arr(x)
    if x.dtype == mx.float64:
        return _sin64(x)
    if mx.issubdtype(x.dtype, mx.floating):  # mlx's kernel gives sin(-0.0) = +0.0
        return mx.where(x == 0, x, mx.sin(x))
    return mx.sin(x)


def _cos(x: Any) -> Any:
    x = _arr(x)
    return _cos64(x) if x.dtype == mx.float64 else mx.cos(x)


def _logaddexp(x1: Any, x2: Any) -> Any:
    x1, x2 = _pair(x1, x2)
    x1, x2 = _arr(x1), _arr(x2)
    if mx.float64 not in (x1.dtype, x2.dtype):
        return mx.logaddexp(x1, x2)
    hi = mx.maximum(x1, x2)
    safe = mx.where(mx.isinf(hi), 0.0, hi)
    return mx.where(mx.isinf(hi) & (hi > 0), hi,
                    safe + mx.log1p(_exp(x1 - safe) + _exp(x2 - safe) - 1))


def _nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: Any = None,
                neginf: Any = None) -> Any:
    # mlx's nan_to_num refuses float64 (mlx 0.32); numpy's, with where
    x = _arr(x)
    if x.dtype == mx.complex64:
        parts = (_nan_to_num(mx.real(x), copy, nan, posinf, neginf),
                 _nan_to_num(mx.imag(x), copy, nan, posinf, neginf))
        return parts[0].astype(mx.complex64) + 1j * parts[1].astype(mx.complex64)
    if not mx.issubdtype(x.dtype, mx.floating):
        return x
    info = mx.finfo(x.dtype)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    out = mx.where(mx.isnan(x), nan, x)
    return mx.where(mx.isposinf(x), hi, mx.where(mx.isneginf(x), lo, out)).astype(x.dtype)


def _complex(real: Any, imag: Any) -> Any:
    real, imag = _inexact(real), _inexact(imag)
    if mx.float64 in (real.dtype, imag.dtype):
        raise TypeError(f"complex: float64 parts make complex128 in numpy, and {_NO_C128}")
    return real.astype(mx.complex64) + 1j * imag.astype(mx.complex64)


TABLE = merge_tables(
    _RENAMES_AND_ADAPTERS,
    {"exp": _exp, "sin": _sin, "cos": _cos, "logaddexp": _logaddexp,
     "nan_to_num": _nan_to_num, "complex": _complex},
    names=("elementwise", "float64 accuracy and dtypes"),
)
