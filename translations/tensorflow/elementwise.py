"""tensorflow's elementwise functions: numpy's ufuncs and their relatives.

Every ufunc is an adapter over a ``tf`` op that asks numpy's own type resolution
(``ufunc.resolve_dtypes``, Python scalars weak as in NEP 50) which loop numpy would
run, casts the inputs to it and lets tf compute (``_unary``/``_binary``); the
adapters below fix what tf does differently from numpy (zero divisors, NaN, signed
zeros, bool and unsigned kernels tf lacks). Also ``round``, ``clip``, ``isclose``,
``where`` and ``complex``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf
from dispatch.translations._adapters import real_float_entries
from dispatch.translations._composed.elementwise import half_spacing
from dispatch.translations._keywords import NO_VALUE, clip_bounds, no_out, ufunc_call
from dispatch.translations.tensorflow._common import (
    _TENSOR,
    _as,
    _is_float,
    _is_int,
    _isnan,
    _np_dt,
    _np_out,
    _result_dtype,
    _t,
    _to,
    _truth,
)
from dispatch.translations.tensorflow.indexing import _nonzero

from dispatch.engine import merge_tables

_PI = math.pi


_SCALARS = frozenset({bool, int, float, complex})


def _cacheable(k: Any) -> bool:
    return isinstance(k, tf.DType) or k in _SCALARS


def _plan(ufunc: np.ufunc, args: tuple) -> tuple:
    """Casts (None: none needed) of the arguments and the result for numpy's loop."""
    loop = ufunc.resolve_dtypes(tuple(_np_dt(a) for a in args) + (None,) * ufunc.nout)
    ins = [tf.as_dtype(d) for d in loop[: ufunc.nin]]
    out = tf.as_dtype(loop[ufunc.nin])
    casts = tuple(
        None if isinstance(a, _TENSOR) and a.dtype == d else d
        for a, d in zip(args, ins, strict=True)
    )
    # the adapters return the loop's input dtype unless numpy's output differs
    return (*casts, None if all(d == out for d in ins) else out)


def _unary(np_name: str, fn: Callable) -> Callable:
    """numpy's unary ufunc ``np_name`` computed by ``fn`` on the loop dtype numpy picks."""
    ufunc = getattr(np, np_name)
    plans: dict = {}

    def op(x: Any) -> Any:
        key = getattr(x, "dtype", None) or type(x)
        plan = plans.get(key)
        if plan is None:
            plan = _plan(ufunc, (x,))
            if _cacheable(key):
                plans[key] = plan
        cin, cout = plan
        if cin is not None:
            x = _to(x, cin)
        r = fn(x)
        if cout is not None and r.dtype != cout:
            r = tf.cast(r, cout)
        return r

    op.__name__ = op.__qualname__ = f"_{np_name}"
    return op


def _binary(np_name: str, fn: Callable) -> Callable:
    """numpy's binary ufunc ``np_name`` computed by ``fn`` on the loop dtypes numpy picks."""
    ufunc = getattr(np, np_name)
    plans: dict = {}

    def op(x1: Any, x2: Any) -> Any:
        key = (getattr(x1, "dtype", None) or type(x1), getattr(x2, "dtype", None) or type(x2))
        plan = plans.get(key)
        if plan is None:
            plan = _plan(ufunc, (x1, x2))
            if _cacheable(key[0]) and _cacheable(key[1]):
                plans[key] = plan
        c1, c2, cout = plan
        if c1 is not None:
            x1 = _to(x1, c1)
        if c2 is not None:
            x2 = _to(x2, c2)
        r = fn(x1, x2)
        if cout is not None and r.dtype != cout:
            r = tf.cast(r, cout)
        return r

    op.__name__ = op.__qualname__ = f"_{np_name}"
    return op


def _signbit(x: Any) -> Any:
    # the sign bit itself, so that -0.0 and negative NaNs count as negative (as in numpy)
    if not x.dtype.is_floating:
        return tf.less(x, 0) if x.dtype.is_integer else tf.zeros_like(x, tf.bool)
    bits = {2: tf.int16, 4: tf.int32, 8: tf.int64}[x.dtype.size]
    return tf.less(tf.bitcast(x, bits), 0)


def _trunc(x: Any) -> Any:
    if _is_int(x):
        return x
    return tf.where(x < 0, tf.math.ceil(x), tf.floor(x))


def _isinf(x: Any) -> Any:
    if x.dtype.is_complex:
        return tf.logical_or(tf.math.is_inf(tf.math.real(x)), tf.math.is_inf(tf.math.imag(x)))
    return tf.math.is_inf(x) if _is_float(x) else tf.zeros_like(x, tf.bool)


def _isfinite(x: Any) -> Any:
    if x.dtype.is_complex:
        re, im = tf.math.real(x), tf.math.imag(x)
        return tf.logical_and(tf.math.is_finite(re), tf.math.is_finite(im))
    return tf.math.is_finite(x) if _is_float(x) else tf.ones_like(x, tf.bool)


def _isposinf(x: Any) -> Any:
    x = _t(x)
    if x.dtype.is_complex:
        raise TypeError("This operation is not supported for complex values")
    return tf.equal(x, math.inf) if _is_float(x) else tf.zeros_like(x, tf.bool)


def _isneginf(x: Any) -> Any:
    x = _t(x)
    if x.dtype.is_complex:
        raise TypeError("This operation is not supported for complex values")
    return tf.equal(x, -math.inf) if _is_float(x) else tf.zeros_like(x, tf.bool)


def _reciprocal(x: Any) -> Any:
    if _is_int(x):
        # integer 1 / x truncates: only +-1 survive
        return tf.where(tf.equal(tf.abs(x), 1), x, tf.zeros_like(x))
    return tf.math.reciprocal(x)


def _cbrt(x: Any) -> Any:
    # a zero is itself, its sign kept (numpy's cbrt(-0.0) is -0.0)
    return tf.where(x == 0, x, tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1 / 3, x.dtype)))


def _log_base(base: float) -> Callable:
    scale = 1 / math.log(base)
    return lambda x: tf.math.log(x) * tf.constant(scale, x.dtype)


def _spacing(x: Any) -> Any:
    if x.dtype == tf.float16:
        return half_spacing(x)
    inf = tf.where(_signbit(x), tf.constant(-math.inf, x.dtype), tf.constant(math.inf, x.dtype))
    # the step from a zero (either sign, as numpy's) is the smallest subnormal, which
    # tf's arithmetic flushes to 0
    tiny = tf.constant(np.finfo(x.dtype.as_numpy_dtype).smallest_subnormal, x.dtype)
    return tf.where(tf.equal(x, 0), tiny, tf.math.nextafter(x, inf) - x)


def _real(x: Any) -> Any:
    x = _t(x)
    return tf.math.real(x) if x.dtype.is_complex else x


def _imag(x: Any) -> Any:
    x = _t(x)
    return tf.math.imag(x) if x.dtype.is_complex else tf.zeros_like(x)


def _angle(z: Any, deg: bool = False) -> Any:
    z = _t(z)
    out = _np_out("angle", z.dtype)
    if z.dtype.is_complex:
        r = tf.math.atan2(tf.math.imag(z), tf.math.real(z))
    else:
        x = tf.cast(z, out)
        r = tf.math.atan2(tf.zeros_like(x), x)
    r = tf.cast(r, out)
    return r * tf.constant(180 / _PI, out) if deg else r


def _round(a: Any, decimals: int = 0, out: None = None) -> Any:
    no_out("round", "tensorflow", out)
    a = _t(a)
    if a.dtype.is_complex:
        return tf.complex(_round(tf.math.real(a), decimals), _round(tf.math.imag(a), decimals))
    if _is_int(a):
        if decimals >= 0:
            return a
        f = 10 ** (-decimals)
        return tf.cast(tf.round(tf.cast(a, tf.float64) / f) * f, a.dtype)
    if decimals == 0:
        return tf.round(a)  # round half to even, as numpy
    f = tf.constant(10.0**decimals, a.dtype)
    return tf.round(a * f) / f


def _fix(x: Any) -> Any:
    x = _t(x)
    return tf.cast(_trunc(x), _np_out("fix", x.dtype))


def _sinc(x: Any) -> Any:
    x = _t(x)
    x = tf.cast(x, _np_out("sinc", x.dtype))
    zero = tf.equal(x, 0)
    y = tf.constant(_PI, x.dtype) * tf.where(zero, tf.ones_like(x), x)
    return tf.where(zero, tf.ones_like(x), tf.sin(y) / y)


def _nan_to_num(
    x: Any, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
    neginf: float | None = None,
) -> Any:
    x = _t(x)
    if x.dtype.is_complex:
        args = (copy, nan, posinf, neginf)
        return tf.complex(_nan_to_num(tf.math.real(x), *args), _nan_to_num(tf.math.imag(x), *args))
    if not _is_float(x):
        return tf.identity(x)
    info = np.finfo(x.dtype.as_numpy_dtype)
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf
    x = tf.where(tf.math.is_nan(x), tf.constant(nan, x.dtype), x)
    x = tf.where(tf.equal(x, math.inf), tf.constant(big, x.dtype), x)
    return tf.where(tf.equal(x, -math.inf), tf.constant(small, x.dtype), x)


def _i0(x: Any) -> Any:
    x = _t(x)
    if x.dtype.is_complex:
        raise TypeError("i0 not supported for complex values")
    out = _np_out("i0", x.dtype)
    return tf.math.bessel_i0(tf.cast(x, out))


def _floor_divide(x1: Any, x2: Any) -> Any:
    if _is_int(x1):
        # numpy gives 0 for a zero divisor where tf raises
        zero = tf.equal(x2, 0)
        safe = tf.where(zero, tf.ones_like(x2), x2)
        return tf.where(zero, tf.zeros_like(x1 + x2), tf.math.floordiv(x1, safe))
    # numpy's algorithm (divmod based), which floor(x1 / x2) gets wrong near integers
    mod = tf.truncatemod(x1, x2)
    div = (x1 - mod) / x2
    fix = tf.logical_and(tf.not_equal(mod, 0), tf.not_equal(x2 < 0, mod < 0))
    div = tf.where(fix, div - 1, div)
    floor = tf.floor(div)
    floor = tf.where(div - floor > 0.5, floor + 1, floor)
    floor = tf.where(tf.equal(div, 0), tf.zeros_like(div) * (x1 / x2), floor)
    return tf.where(tf.equal(x2, 0), x1 / x2, floor)


def _power(x1: Any, x2: Any) -> Any:
    if x1.dtype in _UNSIGNED:  # never a negative exponent; tf's pow has no unsigned kernel
        return _unsigned_pow(x1, x2)
    # tf's integer pow refuses a negative exponent with an InvalidArgumentError; numpy's
    # error is a ValueError (read eagerly; traced, tf's own error stays)
    if (
        _is_int(x2)
        and _is_int(x1)
        and tf.executing_eagerly()
        and bool(np.any(np.asarray(x2) < 0))
    ):
        raise ValueError("Integers to negative integer powers are not allowed.")
    return tf.pow(x1, x2)


def _int_safe(fn: Callable) -> Callable:
    def mod(x1: Any, x2: Any) -> Any:
        if not _is_int(x1):
            return fn(x1, x2)
        # numpy gives 0 for a zero divisor where tf raises
        zero = tf.equal(x2, 0)
        safe = tf.where(zero, tf.ones_like(x2), x2)
        return tf.where(zero, tf.zeros_like(x1 + x2), fn(x1, safe))

    return mod


def _fmod(x1: Any, x2: Any) -> Any:
    # C's fmod: truncatemod, which has no unsigned kernels (floormod is the same there)
    # and no int8 or int16 ones (computed in int32, cast back: exact)
    if x1.dtype.is_unsigned:
        return tf.math.floormod(x1, x2)
    if x1.dtype in (tf.int8, tf.int16):
        return tf.cast(tf.truncatemod(tf.cast(x1, tf.int32), tf.cast(x2, tf.int32)), x1.dtype)
    return tf.truncatemod(x1, x2)


def _shift(fn: Callable, left: bool) -> Callable:
    """numpy's shift: by a count outside [0, bits) a left shift gives 0 and a right
    shift the sign (0 or -1); tf's kernels give what the hardware does."""

    def shift(x1: Any, x2: Any) -> Any:
        out = fn(x1, x2)
        bits = 8 * x1.dtype.size
        outside = tf.logical_or(x2 < 0, x2 >= bits)
        if left or x1.dtype.is_unsigned:
            fill = tf.zeros_like(out)
        else:  # the sign: an arithmetic shift by bits - 1
            fill = fn(x1, tf.fill(tf.shape(x1), tf.constant(bits - 1, x1.dtype)))
        return tf.where(outside, fill, out)

    return shift


def _bool_or(fn: Callable, bool_fn: Callable) -> Callable:
    return lambda x1, x2: bool_fn(x1, x2) if x1.dtype == tf.bool else fn(x1, x2)


def _ordered(fn: Callable) -> Callable:
    # tf's ordering comparisons have no bool kernel
    def cmp(x1: Any, x2: Any) -> Any:
        if x1.dtype == tf.bool:
            return fn(tf.cast(x1, tf.int8), tf.cast(x2, tf.int8))
        return fn(x1, x2)

    return cmp


def _fmax(x1: Any, x2: Any) -> Any:
    if x1.dtype == tf.bool:
        return tf.logical_or(x1, x2)
    m = tf.maximum(x1, x2)
    if not _is_float(x1):
        return m
    return tf.where(tf.math.is_nan(x1), x2, tf.where(tf.math.is_nan(x2), x1, m))


def _fmin(x1: Any, x2: Any) -> Any:
    if x1.dtype == tf.bool:
        return tf.logical_and(x1, x2)
    m = tf.minimum(x1, x2)
    if not _is_float(x1):
        return m
    return tf.where(tf.math.is_nan(x1), x2, tf.where(tf.math.is_nan(x2), x1, m))


def _hypot(x1: Any, x2: Any) -> Any:
    a, b = tf.abs(x1), tf.abs(x2)
    big, small = tf.maximum(a, b), tf.minimum(a, b)
    safe = tf.where(tf.equal(big, 0), tf.ones_like(big), big)
    r = big * tf.sqrt(1 + tf.square(small / safe))
    r = tf.where(tf.equal(big, 0), tf.zeros_like(r), r)
    inf = tf.logical_or(tf.math.is_inf(a), tf.math.is_inf(b))  # inf even against NaN
    return tf.where(inf, tf.constant(math.inf, r.dtype), r)


def _logaddexp(x1: Any, x2: Any) -> Any:
    m = tf.maximum(x1, x2)
    r = m + tf.math.log1p(tf.exp(-tf.abs(x1 - x2)))
    return tf.where(tf.equal(x1, x2), x1 + math.log(2), r)


def _logaddexp2(x1: Any, x2: Any) -> Any:
    m = tf.maximum(x1, x2)
    r = m + tf.math.log1p(tf.pow(tf.constant(2, x1.dtype), -tf.abs(x1 - x2))) / math.log(2)
    return tf.where(tf.equal(x1, x2), x1 + 1, r)


def _copysign(x1: Any, x2: Any) -> Any:
    a = tf.abs(x1)
    return tf.where(_signbit(x2), -a, a)


def _heaviside(x1: Any, x2: Any) -> Any:
    one = tf.ones_like(x1 + x2)
    r = tf.where(x1 < 0, one * 0, tf.where(x1 > 0, one, x2 * one))
    return tf.where(tf.math.is_nan(x1), x1 * one, r) if _is_float(x1) else r


_UNSIGNED = frozenset({tf.uint8, tf.uint16, tf.uint32, tf.uint64})


def _unsigned(fn: Callable, *, uint64: bool = True) -> Callable:
    """``fn`` (a kernel on tensors of one dtype) for the unsigned integers, which
    tensorflow's kernels lack: computed in int64 and wrapped back to the dtype, numpy's
    modular result (uint64 by bitcast: a sum's or a product's low 64 bits are the same
    signed or not). ``uint64=False``: a kernel whose result depends on the value's sign
    (gcd), for which uint64 stays tensorflow's error rather than a wrong answer."""

    def kernel(*xs: Any) -> Any:
        dt = xs[0].dtype
        if dt not in _UNSIGNED or (dt == tf.uint64 and not uint64):
            return fn(*xs)
        if dt == tf.uint64:
            return tf.bitcast(fn(*(tf.bitcast(x, tf.int64) for x in xs)), tf.uint64)
        return tf.cast(fn(*(tf.cast(x, tf.int64) for x in xs)), dt)

    kernel.__name__ = kernel.__qualname__ = getattr(fn, "__name__", "kernel")
    return kernel


_unsigned_pow = _unsigned(tf.pow)


def _gcd_ints(x1: Any, x2: Any) -> Any:
    a, b = tf.abs(x1), tf.abs(x2)
    a, b = a + tf.zeros_like(b), b + tf.zeros_like(a)

    def step(a: Any, b: Any) -> tuple:
        nz = tf.not_equal(b, 0)
        safe = tf.where(nz, b, tf.ones_like(b))
        return tf.where(nz, b, a), tf.where(nz, tf.math.floormod(a, safe), b)

    a, _ = tf.while_loop(lambda a, b: tf.reduce_any(tf.not_equal(b, 0)), step, (a, b))
    return a


def _lcm_ints(x1: Any, x2: Any) -> Any:
    g = _gcd_ints(x1, x2)
    safe = tf.where(tf.equal(g, 0), tf.ones_like(g), g)
    return tf.abs(tf.math.floordiv(x1, safe) * x2)


def _nextafter(x1: Any, x2: Any) -> Any:
    if x1.dtype != tf.float16:
        return tf.math.nextafter(x1, x2)
    # no half kernel: step the bit pattern by one unit in the last place
    bits = tf.bitcast(x1, tf.int16)
    up = tf.math.logical_xor(x2 > x1, x1 < 0)
    step = tf.where(up, bits + 1, bits - 1)
    tiny = tf.bitcast(tf.constant(1, tf.int16), tf.float16)
    r = tf.bitcast(step, tf.float16)
    r = tf.where(tf.equal(x1, 0), tf.where(x2 > 0, tiny, -tiny), r)
    r = tf.where(tf.equal(x1, x2), x1, r)  # numpy's half loop: x1 where equal
    return tf.where(tf.logical_or(tf.math.is_nan(x1), tf.math.is_nan(x2)), x1 + x2, r)


def _ldexp(x1: Any, x2: Any) -> Any:
    return x1 * tf.pow(tf.constant(2, x1.dtype), tf.cast(x2, x1.dtype))


def _angle_conv(scale: float) -> Callable:
    return lambda x: x * tf.constant(scale, x.dtype)


def _identity_if_int(fn: Callable) -> Callable:
    return lambda x: x if _is_int(x) else fn(x)


def _bool_keep(fn: Callable) -> Callable:
    return lambda x: x if x.dtype == tf.bool else fn(x)


def _abs(x: Any) -> Any:
    if x.dtype == tf.bool or x.dtype.is_unsigned:
        return x
    return tf.abs(x)


def _conj(x: Any) -> Any:
    return tf.math.conj(x) if x.dtype.is_complex else x


def _invert(x: Any) -> Any:
    return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


def _exp2(x: Any) -> Any:
    return tf.pow(tf.constant(2, x.dtype), x)


_UNARY = {
    "absolute": _abs,
    "negative": _unsigned(tf.negative),
    "positive": tf.identity,
    "sign": _unsigned(tf.sign),
    "sqrt": tf.sqrt,
    "cbrt": _cbrt,
    "square": _bool_keep(tf.square),
    "exp": tf.exp,
    "exp2": _exp2,
    "expm1": tf.math.expm1,
    "log": tf.math.log,
    "log2": _log_base(2),
    "log10": _log_base(10),
    "log1p": tf.math.log1p,
    "sin": tf.sin,
    "cos": tf.cos,
    "tan": tf.tan,
    "arcsin": tf.asin,
    "arccos": tf.acos,
    "arctan": tf.atan,
    "sinh": tf.sinh,
    "cosh": tf.cosh,
    "tanh": tf.tanh,
    "arcsinh": tf.asinh,
    "arccosh": tf.acosh,
    "arctanh": tf.atanh,
    "floor": _identity_if_int(tf.floor),
    "ceil": _identity_if_int(tf.math.ceil),
    "trunc": _trunc,
    "rint": _identity_if_int(tf.math.rint),
    "isnan": _isnan,
    "isinf": _isinf,
    "isfinite": _isfinite,
    "signbit": _signbit,
    "conjugate": _conj,
    "reciprocal": _unsigned(_reciprocal),
    "logical_not": lambda x: tf.logical_not(_truth(x)),
    "invert": _invert,
    "deg2rad": _angle_conv(_PI / 180),
    "rad2deg": _angle_conv(180 / _PI),
    "spacing": _spacing,
}

_BINARY = {
    "add": _bool_or(tf.add, tf.logical_or),
    "subtract": tf.subtract,
    "multiply": _bool_or(tf.multiply, tf.logical_and),
    "divide": tf.math.truediv,
    "floor_divide": _floor_divide,
    "power": _power,
    "float_power": tf.pow,
    "remainder": _int_safe(tf.math.floormod),
    # tf's truncatemod has no unsigned kernels; for unsigned integers it is floormod
    "fmod": _int_safe(_fmod),
    "maximum": _bool_or(tf.maximum, tf.logical_or),
    "minimum": _bool_or(tf.minimum, tf.logical_and),
    "fmax": _fmax,
    "fmin": _fmin,
    "arctan2": tf.atan2,
    "hypot": _hypot,
    "logaddexp": _logaddexp,
    "logaddexp2": _logaddexp2,
    "copysign": _copysign,
    "nextafter": _nextafter,
    "heaviside": _heaviside,
    "equal": tf.equal,
    "not_equal": tf.not_equal,
    "less": _ordered(tf.less),
    "less_equal": _ordered(tf.less_equal),
    "greater": _ordered(tf.greater),
    "greater_equal": _ordered(tf.greater_equal),
    "logical_and": lambda a, b: tf.logical_and(_truth(a), _truth(b)),
    "logical_or": lambda a, b: tf.logical_or(_truth(a), _truth(b)),
    "logical_xor": lambda a, b: tf.math.logical_xor(_truth(a), _truth(b)),
    "bitwise_and": _bool_or(tf.bitwise.bitwise_and, tf.logical_and),
    "bitwise_or": _bool_or(tf.bitwise.bitwise_or, tf.logical_or),
    "bitwise_xor": _bool_or(tf.bitwise.bitwise_xor, tf.math.logical_xor),
    "left_shift": _shift(tf.bitwise.left_shift, left=True),
    "right_shift": _shift(tf.bitwise.right_shift, left=False),
    "gcd": _unsigned(_gcd_ints, uint64=False),
    "lcm": _unsigned(_lcm_ints, uint64=False),
    "ldexp": _ldexp,
}

_ELEMENTWISE: dict[str, Callable] = {n: _unary(n, f) for n, f in _UNARY.items()}
_ELEMENTWISE.update({n: _binary(n, f) for n, f in _BINARY.items()})
for _name, _same in {
    "abs": "absolute", "conj": "conjugate", "bitwise_not": "invert", "true_divide": "divide",
    "mod": "remainder", "radians": "deg2rad", "degrees": "rad2deg",
    # numpy 2's array API spellings
    "acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh",
    "asinh": "arcsinh", "atanh": "arctanh", "atan2": "arctan2", "pow": "power",
    "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
}.items():
    _ELEMENTWISE[_name] = _ELEMENTWISE[_same]


def _clip(a: Any, a_min: Any = NO_VALUE, a_max: Any = NO_VALUE, out: None = None, *,
          min: Any = NO_VALUE, max: Any = NO_VALUE, **kw: Any) -> Any:
    # numpy 2 also spells the bounds min= and max=
    a_min, a_max = clip_bounds(a_min, a_max, min, max)
    if out is not None or kw:  # clip is a ufunc in numpy: its keywords, honoured or refused
        return ufunc_call("clip", "tensorflow", lambda x: _clip(x, a_min, a_max), (a,), out, kw)
    r = _t(a)
    if a_min is not None:
        r = _ELEMENTWISE["maximum"](r, a_min)
    if a_max is not None:
        r = _ELEMENTWISE["minimum"](r, a_max)
    return r


def _isclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Any:
    dt = _result_dtype(a, b, 1.0)
    a, b = _to(a, dt), _to(b, dt)
    diff = tf.abs(a - b)
    tol = _as(atol, diff.dtype) + _as(rtol, diff.dtype) * tf.abs(b)
    finite = tf.logical_and(_isfinite(a), _isfinite(b))
    close = tf.where(finite, tf.less_equal(diff, tol), tf.equal(a, b))
    if equal_nan:
        close = tf.logical_or(close, tf.logical_and(_isnan(a), _isnan(b)))
    return close


def _allclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Any:
    return tf.reduce_all(_isclose(a, b, rtol, atol, equal_nan))


def _where(condition: Any, x: Any = None, y: Any = None) -> Any:
    if x is None and y is None:
        return _nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if isinstance(x, _TENSOR) and isinstance(y, _TENSOR) and x.dtype == y.dtype:
        c = condition if getattr(condition, "dtype", None) == tf.bool else _truth(_t(condition))
        return tf.where(c, x, y)
    dt = _result_dtype(x, y)
    return tf.where(_truth(_t(condition)), _to(x, dt), _to(y, dt))


def _complex(real: Any, imag: Any) -> Any:
    dt = _result_dtype(real, imag, 1j)
    return tf.complex(_to(real, dt.real_dtype), _to(imag, dt.real_dtype))


def _gelu(x: tf.Tensor, approximate: bool = False) -> tf.Tensor:
    # the formula on tf.math's kernels: tf.nn.gelu loses digits in float64 (1e-7 relative)
    if approximate:
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + tf.math.tanh(inner))
    return 0.5 * x * (1.0 + tf.math.erf(x * math.sqrt(0.5)))


def _elu(x: tf.Tensor, alpha: float = 1.0) -> tf.Tensor:
    if alpha == 1.0:
        return tf.nn.elu(x)
    from dispatch.translations._composed.elementwise import elu  # tf.nn.elu has no alpha

    return elu(x, alpha)


def _softmax_like(fn: Callable, name: str) -> Callable:
    def along(x: tf.Tensor, axis: Any = -1) -> tf.Tensor:
        if isinstance(axis, int):
            return fn(x, axis=axis)
        from dispatch.translations._composed import elementwise  # a tuple of axes

        return getattr(elementwise, name)(x, axis)

    return along


# the ML ops of keras.ops (docs/vocabulary.md, "ML ops"): tf.nn's kernels on float
# tensors (hard_sigmoid, hard_silu and glu are composed: tf.nn has none);
# integers, complex numbers and Python scalars take the composed path
_ML_OPS = real_float_entries(
    {
        "relu": tf.nn.relu,
        "relu6": tf.nn.relu6,
        "gelu": _gelu,
        "silu": tf.nn.silu,
        "elu": _elu,
        "selu": tf.nn.selu,
        # tf.nn.leaky_relu holds its slope in float32 (float64 results off by 1e-8)
        "leaky_relu": lambda x, negative_slope=0.2: tf.where(x >= 0, x, negative_slope * x),
        "log_sigmoid": tf.math.log_sigmoid,
        "softsign": tf.nn.softsign,
        "softmax": _softmax_like(tf.nn.softmax, "softmax"),
        "log_softmax": _softmax_like(tf.nn.log_softmax, "log_softmax"),
        "rsqrt": tf.math.rsqrt,
    },
    tf.Tensor,
    frozenset({tf.float16, tf.bfloat16, tf.float32, tf.float64}),
)

# float type -> (mantissa bits, exponent bits, the bias that puts a mantissa in [0.5, 1),
# the exponent of the smallest subnormal, the integer type of the same width)
_FLOAT_BITS = {
    tf.float32: (23, 8, 126, -149, tf.int32),
    tf.float64: (52, 11, 1022, -1074, tf.int64),
}


def _frexp(x: Any, /) -> tuple[Any, Any]:
    """numpy's ``frexp`` from the bits: tensorflow's CPU kernels flush subnormal
    numbers to zero, so arithmetic (``log2``, ``x > 0``) cannot see them.

    Examples
    --------
    >>> [t.numpy().tolist() for t in _frexp(tf.constant([8.0, -0.375, 5e-324], tf.float64))]
    [[0.5, -0.75, 0.5], [4, -1, -1073]]
    """
    from dispatch.translations._composed.elementwise import _ufunc_float

    x = _t(_ufunc_float(_t(x), "frexp"))
    if x.dtype == tf.float16:  # float16 values and their mantissas are float32 numbers
        m, e = _frexp(tf.cast(x, tf.float32))
        return tf.cast(m, tf.float16), e
    nbits, ebits, bias, tiny, itype = _FLOAT_BITS[x.dtype]
    bw = tf.bitwise
    frac_mask = bw.left_shift(tf.constant(1, itype), nbits) - 1
    full = (1 << ebits) - 1
    sign_bit = bw.left_shift(tf.constant(1, itype), nbits + ebits)

    def parts(v: Any) -> tuple[Any, Any, Any]:
        bits = tf.bitcast(v, itype)
        return bw.bitwise_and(bits, sign_bit), bw.bitwise_and(bw.right_shift(bits, nbits), full), \
            bw.bitwise_and(bits, frac_mask)

    def mantissa(sign: Any, frac: Any) -> Any:
        biased = bw.left_shift(tf.constant(bias, itype), nbits)
        return tf.bitcast(bw.bitwise_or(bw.bitwise_or(sign, frac), biased), x.dtype)

    sign, field, frac = parts(x)
    normal = tf.logical_and(field > 0, field < full)
    subnormal = tf.logical_and(tf.equal(field, 0), frac > 0)
    # a subnormal is frac * 2**tiny, and frac as a float is a normal number
    _, f_field, f_frac = parts(tf.cast(frac, x.dtype))
    m = tf.where(normal, mantissa(sign, frac), tf.where(subnormal, mantissa(sign, f_frac), x))
    e = tf.where(normal, field - bias,
                 tf.where(subnormal, f_field - bias + tiny, tf.zeros_like(field)))
    return m, tf.cast(e, tf.int32)


TABLE = merge_tables(
    _ELEMENTWISE,  # the ufuncs above and their other spellings
    {
        "frexp": _frexp,
        "round": _round,
        "around": _round,
        "fix": _fix,
        "isposinf": _isposinf,
        "isneginf": _isneginf,
        "real": _real,
        "imag": _imag,
        "angle": _angle,
        "sinc": _sinc,
        "nan_to_num": _nan_to_num,
        "i0": _i0,
        "clip": _clip,
        "isclose": _isclose,
        "allclose": _allclose,
        "where": _where,
        "complex": _complex,
    },
    _ML_OPS,
    # keras's name of silu: the same entry (hard_swish is composed, as hard_silu)
    {"swish": _ML_OPS["silu"]},
    names=("ufuncs", "elementwise", "ML ops", "keras aliases"),
)
