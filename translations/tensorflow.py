"""tensorflow: numpy names with numpy semantics on tf tensors.

Plain names resolve in ``tensorflow.experimental.numpy`` (tnp), which covers
much of numpy's API on tf tensors. Without ``tnp.experimental_enable_numpy_behavior()``
(global state we must not touch) many tnp functions fail on integer inputs or
promote differently from numpy, so elementwise functions, reductions and most
shape functions are adapters over ``tf`` ops here. Dtypes follow numpy exactly:
elementwise adapters ask numpy's own type resolution (``ufunc.resolve_dtypes``,
Python scalars weak as in NEP 50) which loop numpy would run, cast the inputs to
it, and let tf compute. ``linalg``, ``fft``, ``random`` and ``scipy`` names map to
``tf.linalg``, ``tf.signal``, ``tf.math`` and a ``tf.random.Generator`` kept in
this module.

Tensors inside ``tf.function`` (symbolic tensors) and ``tf.Variable`` are
recognised too: their classes live under ``tensorflow.python``.

The last section holds tensorflow's entries for the backend method list, with the
layouts and semantics of the composed fallbacks in ``translations/_composed/``:
tf.GradientTape for ``jacobian``/``gradient``/``hessian``, tf.custom_gradient,
tf.function for ``jit_compile`` (numpy arguments folded as constants),
tf.while_loop, tf.vectorized_map, tf.numpy_function, tf.SparseTensor for every
sparse format (tf has no CSR/CSC type: ``csr_matrix``/``csc_matrix`` convert),
tf.nn convolutions, tf.signal FFTs over given axes, and bincount /
tensor_scatter_nd kernels where the composed versions would be slow.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
from dispatch.translations import _safety
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import default_rng as _default_rng
from dispatch.translations._adapters import first_output as _first
from dispatch.translations._adapters import ravel_order as _ravel_order
from dispatch.translations._adapters import stateful_random, take_index, take_mode
from dispatch.translations._composed.bound import backend_entries, fill_entries
from dispatch.translations._composed.control import numpy_call as _numpy_call_composed
from dispatch.translations._composed.counting import _searchsorted_batched_tensorflow
from dispatch.translations._composed.devices import ComputeDevice, list_devices_filtered
from dispatch.translations._composed.devices import (
    get_default_device as _get_default_device_composed,
)
from dispatch.translations._composed.indexing import _scatter_1d_scalar_tensorflow
from dispatch.translations._composed.reductions import masked
from dispatch.translations._composed.selection import gradient as finite_differences
from dispatch.translations._composed.signal import _complex_dtype
from dispatch.translations._composed.signal import conv as _conv_composed
from dispatch.translations._composed.solvers import _mul_matrix_batched_vector_tensorflow
from dispatch.translations._composed.special import hurwitz_edges, riemann_zeta

from dispatch.engine import NATIVE, alias, do, unsupported

TYPES = ("tensorflow",)
MODULES = {"": "tensorflow.experimental.numpy"}
# what a name may reach (docs/safety.md)
SUBMODULES = ("tensorflow.experimental.numpy.random",)
REFUSED = {
    "tensorflow.experimental.numpy.experimental_enable_numpy_behavior": _safety.GLOBAL,
}
# every adapter here converts numpy arrays itself (``_t``/``_to``), and tnp and tf
# functions accept them, so the engine need not wrap mixed calls
CONVERT_CONSTANTS = False

_TENSOR = (tf.Tensor, tf.Variable)
_BOOL = np.dtype(bool)
_PI = math.pi


# ---------------------------------------------------------------- dtypes


def _dt(dtype: Any) -> tf.DType | None:
    """A numpy-style dtype (name, numpy dtype, Python type, tf dtype) as a tf dtype."""
    if dtype is None or isinstance(dtype, tf.DType):
        return dtype
    return tf.as_dtype(np.dtype(dtype))


def _np_dt(x: Any) -> Any:
    """The dtype numpy's type resolution sees for ``x`` (Python scalars stay weak types)."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        if isinstance(x, bool):
            return _BOOL
        if isinstance(x, (int, float, complex)):
            return type(x)
        return np.asarray(x).dtype
    return np.dtype(dt.as_numpy_dtype) if isinstance(dt, tf.DType) else np.dtype(dt)


def _t(x: Any, dtype: Any = None) -> Any:
    """``x`` as a tf tensor (tensors pass through untouched)."""
    if isinstance(x, _TENSOR) and dtype is None:
        return x
    return tnp.asarray(x, dtype=_dt(dtype))


def _to(x: Any, dt: tf.DType) -> Any:
    """``x`` as a tensor of dtype ``dt``; Python scalars are converted exactly."""
    if isinstance(x, _TENSOR):
        if dt == tf.bool and x.dtype.is_complex:  # tf's cast reads the real part only
            return _truth(x)
        return x if x.dtype == dt else tf.cast(x, dt)
    if type(x) in (int, float) and dt != tf.bool:
        try:
            return tf.constant(x, dt)
        except (TypeError, ValueError, OverflowError):
            pass
    return tf.constant(np.asarray(x, dt.as_numpy_dtype))


@functools.cache
def _np_out(fname: str, dt: tf.DType) -> tf.DType:
    """The dtype numpy's ``fname`` returns for an input of dtype ``dt``."""
    fn: Any = np
    for part in fname.split("."):
        fn = getattr(fn, part)
    with np.errstate(all="ignore"):
        return tf.as_dtype(np.asarray(fn(np.ones((2, 2), dt.as_numpy_dtype))).dtype)


def _result_dtype(*args: Any) -> tf.DType:
    """numpy's ``result_type`` of the arguments, Python scalars weak (NEP 50)."""
    # Python scalars go in as values: numpy treats the types int/float as strong
    return tf.as_dtype(np.result_type(*(
        a if isinstance(a, (bool, int, float, complex)) else _np_dt(a) for a in args
    )))


def _inexact(x: Any) -> Any:
    """``x`` as a float or complex tensor: integers and booleans become float64 (numpy linalg)."""
    x = _t(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf.cast(x, tf.float64)


def _real_dtype(dt: tf.DType) -> tf.DType:
    return dt.real_dtype if dt.is_complex else dt


# ---------------------------------------------------------------- elementwise


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


def _is_int(x: Any) -> bool:
    return x.dtype.is_integer or x.dtype == tf.bool


def _is_float(x: Any) -> bool:
    return x.dtype.is_floating


def _truth(x: Any) -> Any:
    return x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros((), x.dtype))


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


def _isnan(x: Any) -> Any:
    if x.dtype.is_complex:
        return tf.logical_or(tf.math.is_nan(tf.math.real(x)), tf.math.is_nan(tf.math.imag(x)))
    return tf.math.is_nan(x) if _is_float(x) else tf.zeros_like(x, tf.bool)


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
    return tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1 / 3, x.dtype))


def _log_base(base: float) -> Callable:
    scale = 1 / math.log(base)
    return lambda x: tf.math.log(x) * tf.constant(scale, x.dtype)


def _spacing(x: Any) -> Any:
    inf = tf.where(_signbit(x), tf.constant(-math.inf, x.dtype), tf.constant(math.inf, x.dtype))
    return tf.math.nextafter(x, inf) - x


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
    r = tf.where(tf.equal(x1, x2), x2, r)
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
    "negative": tf.negative,
    "positive": tf.identity,
    "sign": tf.sign,
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
    "reciprocal": _reciprocal,
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
    "fmod": _int_safe(lambda x1, x2: (tf.math.floormod if x1.dtype.is_unsigned
                                      else tf.truncatemod)(x1, x2)),
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
    "left_shift": tf.bitwise.left_shift,
    "right_shift": tf.bitwise.right_shift,
    "gcd": _gcd_ints,
    "lcm": _lcm_ints,
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


def _clip(a: Any, a_min: Any = None, a_max: Any = None, out: None = None, **kw: Any) -> Any:
    # numpy 2 also spells the bounds min= and max=
    a_min = kw.pop("min", a_min)
    a_max = kw.pop("max", a_max)
    if kw:
        raise TypeError(f"clip() got unexpected keyword arguments {sorted(kw)}")
    r = _t(a)
    if a_min is not None:
        r = _ELEMENTWISE["maximum"](r, a_min)
    if a_max is not None:
        r = _ELEMENTWISE["minimum"](r, a_max)
    return r


def _as(x: Any, dtype: tf.DType) -> Any:
    """A number, array or tensor as a tensor of ``dtype``. tf.cast of a Python float
    makes a float32 constant first: 1e-9 would lose its digits for a float64 result."""
    if isinstance(x, _TENSOR):
        return tf.cast(x, dtype)
    return tf.constant(np.asarray(x, dtype=dtype.as_numpy_dtype))


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


# ---------------------------------------------------------------- creation


def creation_kwargs(like: Any) -> dict[str, Any]:
    """Keyword arguments creation functions take from an example tensor ``like``.

    Only the dtype: tf creation functions take no device argument (placement is
    a ``tf.device`` context).

    Examples
    --------
    >>> import tensorflow as tf
    >>> creation_kwargs(tf.ones(2, dtype=tf.float32))
    {'dtype': tf.float32}
    """
    return {"dtype": like.dtype}


def _asarray(a: Any, dtype: Any = None, copy: bool | None = None, **kw: Any) -> Any:
    if isinstance(a, tf.Tensor) and dtype is None:
        return tf.identity(a) if copy else a
    if isinstance(a, np.ndarray) and dtype is None:
        return tf.convert_to_tensor(a)
    return tnp.asarray(a, dtype=_dt(dtype))


def _array(a: Any, dtype: Any = None, copy: bool = True, **kw: Any) -> Any:
    return tf.identity(_asarray(a, dtype))


def _arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None,
            **kw: Any) -> Any:
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if step == 0:
        raise ZeroDivisionError("step must not be zero")
    dt = _result_dtype(start, stop, step)
    r = tf.range(_to(start, dt), _to(stop, dt), _to(step, dt))
    out = _dt(dtype)
    return r if out is None or out == dt else tf.cast(r, out)


def _copy(a: Any, order: str = "K", subok: bool = False) -> Any:
    return tf.identity(_t(a))


def _linspace(
    start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
    dtype: Any = None, axis: int = 0,
) -> Any:
    dt = _dt(dtype)
    fdt = tf.float64 if dt is None or not (dt.is_floating or dt.is_complex) else dt
    r = tnp.linspace(start, stop, num, endpoint=endpoint, retstep=retstep, dtype=fdt, axis=axis)
    # tnp.linspace computes in float64 whatever dtype it is given
    if retstep and r[0].dtype != fdt:
        r = (tf.cast(r[0], fdt), r[1])
    elif not retstep and r.dtype != fdt:
        r = tf.cast(r, fdt)
    if dt is not None and dt != fdt:
        # numpy floors towards an integer dtype
        if retstep:
            return tf.cast(tf.floor(r[0]), dt), r[1]
        r = tf.cast(tf.floor(r), dt)
    return r


def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> Any:
    xs = [tf.reshape(_t(x), [-1]) for x in xi]
    n = len(xs)
    if not sparse:
        return tuple(tf.meshgrid(*xs, indexing=indexing))
    out = []
    for i, x in enumerate(xs):
        shape = [1] * n
        j = i
        if indexing == "xy" and n >= 2 and i < 2:
            j = 1 - i
        shape[j] = -1
        out.append(tf.reshape(x, shape))
    return tuple(out)


def _indices(dimensions: Sequence[int], dtype: Any = int, sparse: bool = False) -> Any:
    dt = _dt(dtype)
    ranges = [tf.range(n, dtype=dt) for n in dimensions]
    if sparse:
        return tuple(
            tf.reshape(r, [-1 if j == i else 1 for j in range(len(ranges))])
            for i, r in enumerate(ranges)
        )
    if not ranges:
        return tf.zeros((0,), dt)
    return tf.stack(tf.meshgrid(*ranges, indexing="ij"))


def _full(shape: Any, fill_value: Any, dtype: Any = None, **kw: Any) -> Any:
    dt = _dt(dtype) or _result_dtype(fill_value)
    return tf.fill(_shape_arg(shape), _to(fill_value, dt))


def _full_like(a: Any, fill_value: Any, dtype: Any = None, shape: Any = None, **kw: Any) -> Any:
    a = _t(a)
    dt = _dt(dtype) or a.dtype
    return tf.fill(tf.shape(a) if shape is None else _shape_arg(shape), _to(fill_value, dt))


def _shape_arg(shape: Any) -> Any:
    return [shape] if isinstance(shape, int) else shape


def _tri_mask(shape: Any, k: int, lower: bool) -> Any:
    n, m = shape[-2], shape[-1]
    rows = tf.range(n)[:, None]
    cols = tf.range(m)[None, :]
    return cols - rows <= k if lower else cols - rows >= k


def _tril(m: Any, k: int = 0) -> Any:
    m = _t(m)
    mask = _tri_mask(tf.shape(m), k, lower=True)
    return tf.where(mask, m, tf.zeros_like(m))


def _triu(m: Any, k: int = 0) -> Any:
    m = _t(m)
    mask = _tri_mask(tf.shape(m), k, lower=False)
    return tf.where(mask, m, tf.zeros_like(m))


# ---------------------------------------------------------------- reductions


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (int, np.integer)):
        axis = (axis,)
    out = []
    for a in axis:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise np.exceptions.AxisError(a, ndim)
        out.append(a % ndim if ndim else 0)
    return tuple(out)


_ACC: dict = {}


def _acc(fname: str, x: Any, dtype: Any) -> Any:
    """``x`` cast to the dtype numpy's ``fname`` accumulates in (int32 sums are int64)."""
    if dtype is not None:
        return tf.cast(x, _dt(dtype))
    dt = x.dtype
    try:
        out = _ACC[fname, dt]
    except KeyError:
        out = _np_out(fname, dt)
        out = _ACC[fname, dt] = None if out == dt else out
    return x if out is None else tf.cast(x, out)


def _sum(a: Any, axis: Any = None, dtype: Any = None, out: None = None, keepdims: bool = False,
         initial: Any = None, where: Any = None) -> Any:
    if where is not None:  # tf reductions take no mask
        return masked("sum", a, axis, dtype, out, keepdims, initial=initial, where=where)
    x = _acc("sum", a if isinstance(a, _TENSOR) else _t(a), dtype)
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int64)
    r = tf.reduce_sum(x, axis=axis, keepdims=keepdims)
    return r if initial is None else r + initial


def _prod(a: Any, axis: Any = None, dtype: Any = None, out: None = None, keepdims: bool = False,
          initial: Any = None, where: Any = None) -> Any:
    if where is not None:
        return masked("prod", a, axis, dtype, out, keepdims, initial=initial, where=where)
    x = _acc("prod", _t(a), dtype)
    r = tf.reduce_prod(x, axis=axis, keepdims=keepdims)
    return r if initial is None else r * initial


def _mean(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
          keepdims: bool = False, *, where: Any = None) -> Any:
    if where is not None:
        return masked("mean", a, axis, dtype, out, keepdims, where=where)
    x = _acc("mean", a if isinstance(a, _TENSOR) else _t(a), dtype)
    if x.dtype == tf.float16:
        # numpy's mean accumulates float16 in float32 (a float16 sum overflows at 65504)
        return tf.cast(tf.reduce_mean(tf.cast(x, tf.float32), axis=axis, keepdims=keepdims),
                       tf.float16)
    if x.dtype.is_complex:  # tf's complex mean of nothing is 0j (numpy: nan+nanj)
        return tf.complex(tf.reduce_mean(tf.math.real(x), axis=axis, keepdims=keepdims),
                          tf.reduce_mean(tf.math.imag(x), axis=axis, keepdims=keepdims))
    return tf.reduce_mean(x, axis=axis, keepdims=keepdims)


def _var(a: Any, axis: Any = None, dtype: Any = None, out: None = None, ddof: float = 0,
         keepdims: bool = False, *, where: Any = None, mean: Any = None,
         correction: float | None = None) -> Any:
    if where is not None:
        return masked("var", a, axis, dtype, out, ddof, keepdims, where=where,
                      **_moment_kw(mean, correction))
    x = _t(a)
    if correction is not None:
        ddof = correction
    out_dt = _dt(dtype) or _np_out("var", x.dtype)
    if x.dtype.is_complex:
        x = tf.cast(x, tf.complex64 if out_dt == tf.float32 else tf.complex128)
    else:
        x = tf.cast(x, out_dt)
    m = tf.reduce_mean(x, axis=axis, keepdims=True) if mean is None else _t(mean)
    d = x - m
    sq = tf.math.real(d * tf.math.conj(d)) if d.dtype.is_complex else tf.square(d)
    s = tf.reduce_sum(sq, axis=axis, keepdims=keepdims)
    axes = list(_axes(axis, x.shape.rank))
    n = tf.cast(tf.reduce_prod(tf.gather(tf.shape(x), axes)) if axes else 1, out_dt)
    return s / tf.maximum(n - ddof, 0)


def _std(a: Any, axis: Any = None, dtype: Any = None, out: None = None, ddof: float = 0,
         keepdims: bool = False, *, where: Any = None, mean: Any = None,
         correction: float | None = None) -> Any:
    if where is not None:
        return masked("std", a, axis, dtype, out, ddof, keepdims, where=where,
                      **_moment_kw(mean, correction))
    return tf.sqrt(_var(a, axis, dtype, out, ddof, keepdims, mean=mean, correction=correction))


def _moment_kw(mean: Any, correction: Any) -> dict:
    kw = {} if mean is None else {"mean": mean}
    if correction is not None:
        kw["correction"] = correction
    return kw


def _check_nonempty(x: Any, axis: Any, name: str) -> None:
    shape = x.shape
    if shape.rank is None:
        return
    dims = [shape[i] for i in _axes(axis, shape.rank)] if shape.rank else []
    if any(d == 0 for d in dims) or (axis is None and shape.num_elements() == 0):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")


def _max(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
         initial: Any = None, where: Any = None) -> Any:
    if where is not None:
        return masked("max", a, axis, out, keepdims, initial=initial, where=where)
    x = _t(a)
    if initial is None:
        _check_nonempty(x, axis, "maximum")
    if x.dtype == tf.bool:
        r = tf.reduce_any(x, axis=axis, keepdims=keepdims)
    else:
        r = tf.reduce_max(x, axis=axis, keepdims=keepdims)
    return r if initial is None else _ELEMENTWISE["maximum"](r, initial)


def _min(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
         initial: Any = None, where: Any = None) -> Any:
    if where is not None:
        return masked("min", a, axis, out, keepdims, initial=initial, where=where)
    x = _t(a)
    if initial is None:
        _check_nonempty(x, axis, "minimum")
    if x.dtype == tf.bool:
        r = tf.reduce_all(x, axis=axis, keepdims=keepdims)
    else:
        r = tf.reduce_min(x, axis=axis, keepdims=keepdims)
    return r if initial is None else _ELEMENTWISE["minimum"](r, initial)


def _arg_reduce(tf_fn: Callable, name: str) -> Callable:
    def arg(a: Any, axis: int | None = None, out: None = None, *, keepdims: bool = False) -> Any:
        x = _t(a)
        nd = x.shape.rank
        if axis is None:
            _check_nonempty(x, None, name)
            flat = tf.reshape(x, [-1])
            r = _arg_1(tf_fn, flat, 0)
            return tf.reshape(r, [1] * nd) if keepdims else r
        ax = _axes(axis, nd)[0]
        _check_nonempty(x, ax, name)
        r = _arg_1(tf_fn, x, ax)
        return tf.expand_dims(r, ax) if keepdims else r

    arg.__name__ = arg.__qualname__ = f"_{name}"
    return arg


def _arg_1(tf_fn: Callable, x: Any, axis: int) -> Any:
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int8)
    r = tf_fn(x, axis=axis, output_type=tf.int64)
    if _is_float(x):
        # numpy returns the first NaN; tf skips NaNs
        nan = tf.math.is_nan(x)
        r = tf.where(tf.reduce_any(nan, axis=axis), tf.argmax(nan, axis=axis), r)
    return r


def _any(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
         *, where: Any = None) -> Any:
    if where is not None:
        return masked("any", a, axis, out, keepdims, where=where)
    return tf.reduce_any(_truth(_t(a)), axis=axis, keepdims=keepdims)


def _all(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
         *, where: Any = None) -> Any:
    if where is not None:
        return masked("all", a, axis, out, keepdims, where=where)
    return tf.reduce_all(_truth(_t(a)), axis=axis, keepdims=keepdims)


def _cumulative(tf_fn: Callable, name: str) -> Callable:
    def cum(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
        x = _acc(name, _t(a), dtype)
        if x.dtype == tf.bool:
            x = tf.cast(x, tf.int64)
        if axis is None:
            x, axis = tf.reshape(x, [-1]), 0
        return tf_fn(x, axis=axis)

    cum.__name__ = cum.__qualname__ = f"_{name}"
    return cum


def _count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Any:
    x = _t(a)
    return tf.math.count_nonzero(_truth(x), axis=axis, keepdims=keepdims, dtype=tf.int64)


def _median(a: Any, axis: Any = None, out: None = None, overwrite_input: bool = False,
            keepdims: bool = False) -> Any:
    x = _t(a)
    x = tf.cast(x, _np_out("median", x.dtype))
    nd = x.shape.rank
    axes = _axes(axis, nd)
    keep = [i for i in range(nd) if i not in axes]
    y = tf.transpose(x, keep + list(axes))
    y = tf.reshape(y, tf.concat([tf.shape(y)[: len(keep)], [-1]], 0))
    s = tf.sort(y, axis=-1)
    n = tf.shape(s)[-1]
    lo = tf.gather(s, (n - 1) // 2, axis=-1)
    hi = tf.gather(s, n // 2, axis=-1)
    r = lo + (hi - lo) / 2
    if _is_float(x):
        r = tf.where(tf.reduce_any(tf.math.is_nan(y), axis=-1), tf.constant(math.nan, x.dtype), r)
    if keepdims:
        r = tf.reshape(r, [1 if i in axes else d for i, d in enumerate(tf.unstack(tf.shape(x)))])
    return r


def _without_nan(a: Any, fill: float) -> Any:
    x = _t(a)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return x
    return tf.where(_isnan(x), tf.constant(fill, x.dtype), x)


def _nansum(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
            keepdims: bool = False, **kw: Any) -> Any:
    return _sum(_without_nan(a, 0), axis, dtype, keepdims=keepdims, **kw)


def _nanprod(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
             keepdims: bool = False, **kw: Any) -> Any:
    return _prod(_without_nan(a, 1), axis, dtype, keepdims=keepdims, **kw)


def _nancumsum(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
    return _cumulative(tf.math.cumsum, "cumsum")(_without_nan(a, 0), axis, dtype)


def _nan_extreme(fn: Callable, fill: float) -> Callable:
    def extreme(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
                **kw: Any) -> Any:
        if kw.get("where") is not None:
            return masked("nanmax" if fill < 0 else "nanmin", a, axis, out, keepdims, **kw)
        x = _t(a)
        if not _is_float(x):
            return fn(x, axis, keepdims=keepdims, **kw)
        nan = tf.math.is_nan(x)
        r = fn(tf.where(nan, tf.constant(fill, x.dtype), x), axis, keepdims=keepdims, **kw)
        # an all-NaN slice gives NaN (numpy also warns)
        allnan = tf.reduce_all(nan, axis=axis, keepdims=keepdims)
        return tf.where(allnan, tf.constant(math.nan, r.dtype), r)

    return extreme


def _nanvar(a: Any, axis: Any = None, dtype: Any = None, out: None = None, ddof: float = 0,
            keepdims: bool = False, **kw: Any) -> Any:
    if kw.get("where") is not None:
        return masked("nanvar", a, axis, dtype, out, ddof, keepdims, **kw)
    x = _t(a)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return _var(x, axis, dtype, ddof=ddof, keepdims=keepdims)
    out_dt = _dt(dtype) or _np_out("var", x.dtype)
    ok = tf.logical_not(_isnan(x))
    n = tf.reduce_sum(tf.cast(ok, out_dt), axis=axis, keepdims=True)
    x0 = tf.where(ok, x, tf.zeros_like(x))
    m = tf.reduce_sum(x0, axis=axis, keepdims=True) / tf.cast(n, x.dtype)
    d = tf.where(ok, x - m, tf.zeros_like(x))
    sq = tf.math.real(d * tf.math.conj(d)) if d.dtype.is_complex else tf.square(d)
    s = tf.cast(tf.reduce_sum(sq, axis=axis, keepdims=True), out_dt)
    r = s / tf.maximum(n - ddof, 0)
    return r if keepdims else tf.squeeze(r, _axes(axis, x.shape.rank))


def _nanstd(a: Any, axis: Any = None, dtype: Any = None, out: None = None, ddof: float = 0,
            keepdims: bool = False, **kw: Any) -> Any:
    if kw.get("where") is not None:
        return masked("nanstd", a, axis, dtype, out, ddof, keepdims, **kw)
    return tf.sqrt(_nanvar(a, axis, dtype, ddof=ddof, keepdims=keepdims))


def _nanmean(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
             keepdims: bool = False, *, where: Any = None) -> Any:
    # tf's numpy nanmean takes no mask (and no dtype): numpy's recipe, NaN left out
    # of the sum and the count (float16 summed in float16, as numpy's nanmean)
    x = _t(a)
    mask = tf.ones(tf.shape(x), tf.bool) if where is None else where
    return masked("nanmean", x, axis, dtype, out, keepdims, where=mask)


def _trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
           out: None = None) -> Any:
    d = _diagonal(a, offset, axis1, axis2)
    return _sum(d, axis=-1, dtype=dtype)


# ---------------------------------------------------------------- shape


def _reshape(a: Any, /, shape: Any = None, order: str = "C", *, newshape: Any = None,
             copy: bool | None = None) -> Any:
    shape = newshape if shape is None else shape
    x = _t(a)
    shape = _shape_arg(shape)
    if order == "F":
        rev = list(reversed(shape))
        return tf.transpose(tf.reshape(tf.transpose(x), rev))
    return tf.reshape(x, shape)


def _ravel(a: Any, order: Any = "C") -> Any:
    # a tensor exposes no memory layout: 'A' and 'K' read it in C order
    x = _t(a)
    if _ravel_order(order) == "F":
        x = tf.transpose(x)
    return tf.reshape(x, [-1])


def _transpose(a: Any, axes: Any = None) -> Any:
    return tf.transpose(a, perm=axes)


def _matrix_transpose(x: Any, /) -> Any:
    return tf.linalg.matrix_transpose(_t(x))


def _expand_dims(a: Any, axis: Any) -> Any:
    x = _t(a)
    if isinstance(axis, (int, np.integer)):
        return tf.expand_dims(x, axis)
    n = x.shape.rank + len(axis)
    pos = sorted(_axes(axis, n))
    if len(set(pos)) != len(pos):
        raise ValueError("repeated axis")
    for p in pos:
        x = tf.expand_dims(x, p)
    return x


def _squeeze(a: Any, axis: Any = None) -> Any:
    x = _t(a)
    if axis is None:
        return tf.squeeze(x)
    return tf.squeeze(x, list(_axes(axis, x.shape.rank)))


def _common(arrays: Sequence[Any], dtype: Any = None) -> Sequence[Any]:
    """The arrays as tensors of numpy's common dtype."""
    if dtype is None and arrays and isinstance(arrays[0], _TENSOR):
        d0 = arrays[0].dtype
        if all(isinstance(x, _TENSOR) and x.dtype == d0 for x in arrays):
            return arrays
    xs = [_t(x) for x in arrays]
    dt = _dt(dtype) or (_result_dtype(*xs) if xs else None)
    return [x if x.dtype == dt else tf.cast(x, dt) for x in xs]


def _concatenate(arrays: Sequence[Any], axis: int | None = 0, out: None = None,
                 dtype: Any = None, casting: str = "same_kind") -> Any:
    xs = _common(arrays, dtype)
    if axis is None:
        return tf.concat([tf.reshape(x, [-1]) for x in xs], 0)
    return tf.concat(xs, axis)


def _stack(arrays: Sequence[Any], axis: int = 0, out: None = None, *, dtype: Any = None,
           casting: str = "same_kind") -> Any:
    return tf.stack(_common(arrays, dtype), axis)


def _atleast(x: Any, n: int) -> Any:
    x = _t(x)
    r = x.shape.rank
    if r >= n:
        return x
    if n == 2 and r == 1:
        return x[None, :]
    if n == 3 and r == 2:
        return x[:, :, None]
    if n == 3 and r == 1:
        return x[None, :, None]
    return tf.reshape(x, [1] * n)


def _atleast_nd(n: int) -> Any:
    def atleast(*arys: Any) -> Any:
        # numpy returns several results as a tuple (tnp: a list); one list argument
        # is one array
        if len(arys) == 1:
            return _atleast(arys[0], n)
        return tuple(_atleast(a, n) for a in arys)

    atleast.__name__ = atleast.__qualname__ = f"_atleast_{n}d"
    return atleast


def _column_stack(tup: Sequence[Any]) -> Any:
    xs = [_t(x) for x in tup]
    return tf.concat(_common([x[:, None] if x.shape.rank == 1 else _atleast(x, 2) for x in xs]),
                     1)


def _vstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Any:
    return tf.concat(_common([_atleast(x, 2) for x in tup], dtype), 0)


def _hstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Any:
    xs = _common([_atleast(x, 1) for x in tup], dtype)
    return tf.concat(xs, 0 if xs and xs[0].shape.rank == 1 else 1)


def _dstack(tup: Sequence[Any]) -> Any:
    return tf.concat(_common([_atleast(x, 3) for x in tup]), 2)


def _split_points(x: Any, indices_or_sections: Any, axis: int, strict: bool) -> list:
    n = x.shape[axis]
    if n is None:
        n = int(tf.shape(x)[axis])
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        if strict and n % k:
            raise ValueError("array split does not result in an equal division")
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        points = np.cumsum([0, *sizes])
        return list(itertools.pairwise(points))
    idx = [int(i) for i in np.asarray(indices_or_sections).ravel()]
    bounds = [0, *idx, n]
    return list(itertools.pairwise(bounds))


def _pieces(ary: Any, indices_or_sections: Any, axis: int, strict: bool) -> list:
    x = _t(ary)
    axis = _axes(axis, x.shape.rank)[0]
    lead = [slice(None)] * axis
    points = _split_points(x, indices_or_sections, axis, strict)
    return [x[tuple([*lead, slice(int(s), int(e))])] for s, e in points]


def _split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    return _pieces(ary, indices_or_sections, axis, True)


def _array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    return _pieces(ary, indices_or_sections, axis, False)


def _ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Any:
    x = tf.reshape(_t(ary), [-1])
    parts = [x[1:] - x[:-1]]
    if to_begin is not None:
        parts.insert(0, tf.reshape(_to(to_begin, x.dtype), [-1]))
    if to_end is not None:
        parts.append(tf.reshape(_to(to_end, x.dtype), [-1]))
    return tf.concat(parts, 0)


def _repeat(a: Any, repeats: Any, axis: int | None = None) -> Any:
    return tf.repeat(_t(a), repeats, axis=axis)


def _flip(m: Any, axis: Any = None) -> Any:
    x = _t(m)
    return tf.reverse(x, list(_axes(axis, x.shape.rank)))


def _roll(a: Any, shift: Any, axis: Any = None) -> Any:
    x = _t(a)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    if isinstance(axis, (tuple, list)) and isinstance(shift, (int, np.integer)):
        shift = [int(shift)] * len(axis)  # numpy applies an int shift to each axis
    return tf.roll(x, shift, axis)


def _wrap_index(idx: Any, n: Any) -> Any:
    # numpy accepts negative indices; tf.gather does not
    idx = _t(idx)
    if idx.dtype == tf.bool:
        raise TypeError("boolean indices: use nonzero first")
    n = tf.cast(n, idx.dtype)
    return tf.where(idx < 0, idx + n, idx)


def _take(a: Any, indices: Any, axis: int | None = None, out: None = None,
          mode: str = "raise") -> Any:
    x = _t(a)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    n = tf.shape(x, out_type=tf.int64)[axis]
    idx = tf.cast(_t(indices), tf.int64)
    mode = take_mode(mode)
    if mode == "raise" and tf.executing_eagerly():
        # tf.gather's own error is an InvalidArgumentError; numpy's is an IndexError
        take_index(idx.numpy(), int(n), axis, mode)
    if mode == "wrap":
        idx = tf.math.floormod(idx, n)
    elif mode == "clip":
        idx = tf.clip_by_value(idx, 0, n - 1)
    else:
        idx = _wrap_index(idx, n)
    return tf.gather(x, idx, axis=axis)


def _take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> Any:
    x = _t(arr)
    idx = tf.cast(_t(indices), tf.int64)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    nd = x.shape.rank
    axis = _axes(axis, nd)[0]
    idx = _wrap_index(idx, tf.shape(x, out_type=tf.int64)[axis])
    xm = tf.experimental.numpy.moveaxis(x, axis, -1)
    im = tf.experimental.numpy.moveaxis(idx, axis, -1)
    batch = tf.broadcast_dynamic_shape(tf.shape(xm)[:-1], tf.shape(im)[:-1])
    xm = tf.broadcast_to(xm, tf.concat([batch, tf.shape(xm)[-1:]], 0))
    im = tf.broadcast_to(im, tf.concat([batch, tf.shape(im)[-1:]], 0))
    r = tf.gather(xm, im, axis=-1, batch_dims=nd - 1)
    return tf.experimental.numpy.moveaxis(r, -1, axis)


def _nonzero(a: Any) -> tuple:
    x = _t(a)
    if x.shape.rank == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use atleast_1d first.")
    idx = tf.where(_truth(x))
    return tuple(idx[:, i] for i in range(x.shape.rank))


def _argwhere(a: Any) -> Any:
    x = _t(a)
    if x.shape.rank == 0:
        return tf.zeros((1 if bool(_truth(x)) else 0, 0), tf.int64)
    return tf.where(_truth(x))


def _flatnonzero(a: Any) -> Any:
    return tf.where(_truth(tf.reshape(_t(a), [-1])))[:, 0]


def _diag(v: Any, k: int = 0) -> Any:
    x = _t(v)
    if x.shape.rank == 1:
        return tf.linalg.diag(x, k=k)
    if x.shape.rank == 2:
        return tf.linalg.diag_part(x, k=k) if _diag_len(x, k) > 0 else tf.zeros((0,), x.dtype)
    raise ValueError("Input must be 1- or 2-d.")


def _diag_len(x: Any, k: int) -> int:
    n, m = x.shape[-2], x.shape[-1]
    if n is None or m is None:
        return 1
    return min(n, m - k) if k >= 0 else min(n + k, m)


def _diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    x = _t(a)
    nd = x.shape.rank
    a1, a2 = _axes((axis1, axis2), nd)
    rest = [i for i in range(nd) if i not in (a1, a2)]
    x = tf.transpose(x, [*rest, a1, a2])
    if _diag_len(x, offset) <= 0:
        return tf.zeros(tf.concat([tf.shape(x)[:-2], [0]], 0), x.dtype)
    return tf.linalg.diag_part(x, k=offset)


def _sort_key(x: Any) -> Any:
    """Integers ordering floats as numpy sorts them: NaN last, -0.0 equal to 0.0."""
    x = tf.where(tf.math.is_nan(x), tf.constant(math.nan, x.dtype), x + 0)
    bits = {2: tf.int16, 4: tf.int32, 8: tf.int64}[x.dtype.size]
    i = tf.bitcast(x, bits)
    flip = tf.constant(np.iinfo(bits.as_numpy_dtype).max, bits)
    return tf.where(i < 0, tf.bitwise.bitwise_xor(i, flip), i)


def _sort(a: Any, axis: int | None = -1, kind: str | None = None, order: None = None, *,
          stable: bool | None = None) -> Any:
    x = _t(a)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if x.dtype == tf.bool:
        return tf.cast(tf.sort(tf.cast(x, tf.int8), axis=axis), tf.bool)
    if x.dtype.is_complex:
        raise TypeError("sorting complex tensors is not supported on tensorflow")
    if not _is_float(x):
        return tf.sort(x, axis=axis)
    nan = tf.math.is_nan(x)
    s = tf.sort(tf.where(nan, tf.constant(math.inf, x.dtype), x), axis=axis)
    # NaNs go last, as in numpy
    n = tf.shape(x)[axis]
    count = tf.reduce_sum(tf.cast(nan, tf.int32), axis=axis, keepdims=True)
    shape = [1] * x.shape.rank
    shape[axis] = -1
    pos = tf.reshape(tf.range(n), shape)
    return tf.where(pos >= n - count, tf.constant(math.nan, x.dtype), s)


def _argsort(a: Any, axis: int | None = -1, kind: str | None = None, order: None = None, *,
             stable: bool | None = None) -> Any:
    x = _t(a)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int8)
    elif _is_float(x):
        x = _sort_key(x)
    return tf.cast(tf.argsort(x, axis=axis, stable=True), tf.int64)


def _unique(ar: Any, return_index: bool = False, return_inverse: bool = False,
            return_counts: bool = False, axis: int | None = None, *,
            equal_nan: bool = True, sorted: bool = True) -> Any:
    x = _t(ar)
    if axis is not None:
        raise NotImplementedError("unique(axis=...) is not supported on tensorflow")
    flat = tf.reshape(x, [-1])
    order = _argsort(flat)
    s = tf.gather(flat, order)
    if _is_float(s):
        same = tf.logical_or(tf.equal(s[1:], s[:-1]), tf.logical_and(
            tf.math.is_nan(s[1:]), tf.math.is_nan(s[:-1])) if equal_nan else False)
    else:
        same = tf.equal(s[1:], s[:-1])
    first = tf.concat([tf.ones(tf.minimum(tf.size(s), 1), tf.bool), tf.logical_not(same)], 0)
    values = tf.boolean_mask(s, first)
    out = [values]
    if return_index:
        out.append(tf.boolean_mask(order, first))
    if return_inverse:
        group = tf.cumsum(tf.cast(first, tf.int64)) - 1
        inv = tf.scatter_nd(order[:, None], group, tf.shape(order, out_type=tf.int64))
        out.append(tf.reshape(inv, tf.shape(x)))
    if return_counts:
        starts = tf.where(first)[:, 0]
        ends = tf.concat([starts[1:], tf.shape(s, out_type=tf.int64)], 0)
        out.append(ends - starts)
    return out[0] if len(out) == 1 else tuple(out)


def _bincount(x: Any, weights: Any = None, minlength: int = 0) -> Any:
    x = _t(x)
    if x.shape.rank != 1:
        raise ValueError("object too deep for desired array")
    if weights is None:
        return tf.math.bincount(x, minlength=minlength, dtype=tf.int64)
    # numpy sums weights in float64 (complex128 for complex weights)
    w = _t(weights)
    w = tf.cast(w, tf.complex128 if w.dtype.is_complex else tf.float64)
    if w.dtype.is_complex:
        re = tf.math.bincount(x, tf.math.real(w), minlength=minlength)
        return tf.complex(re, tf.math.bincount(x, tf.math.imag(w), minlength=minlength))
    return tf.math.bincount(x, w, minlength=minlength)


def _scatter_1d_scalar(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    # tensor_scatter_nd_* refuse an empty target even with no updates
    if base_grid.shape[0] == 0 or indices.shape[0] == 0:
        return tf.identity(base_grid)
    return _scatter_1d_scalar_tensorflow(base_grid, indices, values, mode)


def _searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    a = _t(a)
    if sorter is not None:
        a = tf.gather(a, _t(sorter))
    dt = _result_dtype(a, v)
    a, vt = _to(a, dt), _to(v, dt)
    if _is_float(a):
        a, vt = _sort_key(a), _sort_key(vt)
    flat = tf.reshape(vt, [1, -1])
    r = tf.searchsorted(a[None, :], flat, side=side, out_type=tf.int64)
    return tf.reshape(r, tf.shape(vt))


def _pad_index(n: int, before: int, after: int, mode: str) -> np.ndarray:
    i = np.arange(-before, n + after)
    if mode == "edge":
        return np.clip(i, 0, n - 1)
    if mode == "wrap":
        return i % n
    if mode == "reflect":
        if n == 1:
            return np.zeros_like(i)
        period = 2 * (n - 1)
        j = i % period
        return np.where(j >= n, period - j, j)
    if mode == "symmetric":
        period = 2 * n
        j = i % period
        return np.where(j >= n, period - 1 - j, j)
    raise ValueError(f"mode {mode!r} is not supported on tensorflow")


def _pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Any:
    x = _t(array)
    nd = x.shape.rank
    w = np.asarray(pad_width, dtype=np.int64)
    if w.ndim == 1:
        w = w.reshape(()) if w.size == 1 else w.reshape(1, 2)  # (n,) or (before, after)
    widths = np.broadcast_to(w, (nd, 2))
    if np.any(widths < 0):
        raise ValueError("index can't contain negative values")
    if nd == 0:  # nothing to pad (tf.pad refuses a 0-d tensor)
        return tf.identity(x)
    if mode == "constant":
        cv = kwargs.get("constant_values", 0)
        if np.ndim(cv) == 0:
            return tf.pad(x, widths.tolist(), constant_values=_to(cv, x.dtype))
        cvs = np.broadcast_to(np.asarray(cv), (nd, 2))
        # one side at a time, axis by axis: later axes fill the corners, as in numpy
        for ax in range(nd):
            for side in (0, 1):
                pads = [[0, 0] for _ in range(nd)]
                pads[ax][side] = int(widths[ax, side])
                x = tf.pad(x, pads, constant_values=_to(cvs[ax, side].item(), x.dtype))
        return x
    if mode not in ("edge", "wrap", "reflect", "symmetric"):
        raise ValueError(f"pad mode {mode!r} is not supported on tensorflow")
    if kwargs.get("reflect_type", "even") != "even":
        raise ValueError("pad reflect_type='odd' is not supported on tensorflow")
    for ax in range(nd):
        before, after = (int(w) for w in widths[ax])
        if before == after == 0:
            continue
        n = x.shape[ax]
        if n == 0:
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant'")
        x = tf.gather(x, _pad_index(n, before, after, mode), axis=ax)
    return x


def _tile(A: Any, reps: Any) -> Any:
    x = _t(A)
    reps = [int(reps)] if np.ndim(reps) == 0 else [int(r) for r in reps]
    rank = x.shape.rank
    nd = max(rank, len(reps))
    if rank < nd:
        x = tf.reshape(x, tf.concat([tf.ones([nd - rank], tf.int32), tf.shape(x)], 0))
    return tf.tile(x, [1] * (nd - len(reps)) + reps)


def _broadcast_to(array: Any, shape: Any, subok: bool = False) -> Any:
    return tf.broadcast_to(_t(array), _shape_arg(shape))


def _moveaxis(a: Any, source: Any, destination: Any) -> Any:
    return tnp.moveaxis(_t(a), source, destination)


def _swapaxes(a: Any, axis1: int, axis2: int) -> Any:
    x = _t(a)
    nd = x.shape.rank
    a1, a2 = _axes((axis1, axis2), nd)
    perm = list(range(nd))
    perm[a1], perm[a2] = a2, a1
    return tf.transpose(x, perm)


# ---------------------------------------------------------------- products

_NO_MATMUL = frozenset({tf.bool, tf.int8, tf.int16, tf.uint8, tf.uint16})


def _matmul(x1: Any, x2: Any, /, out: None = None, **kw: Any) -> Any:
    if (isinstance(x1, _TENSOR) and isinstance(x2, _TENSOR) and x1.dtype == x2.dtype
            and x1.shape.rank >= 2 and x2.shape.rank >= 2 and x1.dtype not in _NO_MATMUL):
        return tf.matmul(x1, x2)
    dt = _result_dtype(x1, x2)
    if dt in _NO_MATMUL:
        # tf's MatMul has no kernel for these; int32 wraps around identically
        r = tnp.matmul(_to(x1, tf.int32), _to(x2, tf.int32))
        return tf.not_equal(r, 0) if dt == tf.bool else tf.cast(r, dt)
    return tnp.matmul(_to(x1, dt), _to(x2, dt))


def _dot(a: Any, b: Any, out: None = None) -> Any:
    dt = _result_dtype(a, b)
    a, b = _to(a, dt), _to(b, dt)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    if b.shape.rank <= 2:
        return _matmul(a, b)
    return tf.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 2]])


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    dt = _result_dtype(a, b)
    a, b = _to(a, dt), _to(b, dt)
    if not isinstance(axes, (int, np.integer)):
        axes = [[int(i) for i in np.atleast_1d(ax)] for ax in axes]
    return tf.tensordot(a, b, axes)


def _einsum(subscripts: str, *operands: Any, optimize: Any = False, **kw: Any) -> Any:
    ops = _common(operands, kw.pop("dtype", None))
    return tf.einsum(subscripts, *ops)


def _outer(a: Any, b: Any, out: None = None) -> Any:
    dt = _result_dtype(a, b)
    a, b = tf.reshape(_to(a, dt), [-1]), tf.reshape(_to(b, dt), [-1])
    return a[:, None] * b[None, :]


def _kron(a: Any, b: Any) -> Any:
    dt = _result_dtype(a, b)
    return tnp.kron(_to(a, dt), _to(b, dt))


def _inner(a: Any, b: Any) -> Any:
    dt = _result_dtype(a, b)
    a, b = _to(a, dt), _to(b, dt)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return tf.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 1]])


def _vdot(a: Any, b: Any) -> Any:
    dt = _result_dtype(a, b)
    a, b = tf.reshape(_to(a, dt), [-1]), tf.reshape(_to(b, dt), [-1])
    return tf.reduce_sum(_conj(a) * b)


# ---------------------------------------------------------------- linalg


class _Result(tuple):
    """A tuple with numpy's field names (``svd(x).U``).

    Rebuilt both as ``type(r)(iterable)`` (like a tuple) and ``type(r)(*fields)``
    (like a namedtuple, which is how ``tf.nest`` rebuilds it inside ``tf.function``).
    """

    _fields: tuple[str, ...] = ()

    def __new__(cls, *args: Any) -> _Result:
        return super().__new__(cls, args[0] if len(args) == 1 else args)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[type(self)._fields.index(name)]
        except ValueError:
            raise AttributeError(name) from None


def _result(name: str, fields: str) -> type:
    return type(name, (_Result,), {"_fields": tuple(fields.split()), "__slots__": ()})


_QR = _result("QRResult", "Q R")
_SVD = _result("SVDResult", "U S Vh")
_EIGH = _result("EighResult", "eigenvalues eigenvectors")
_EIG = _result("EigResult", "eigenvalues eigenvectors")
_SLOGDET = _result("SlogdetResult", "sign logabsdet")
_LSTSQ = _result("LstsqResult", "x residuals rank singular_values")


def _adjoint(x: Any) -> Any:
    return tf.linalg.adjoint(x) if x.dtype.is_complex else tf.linalg.matrix_transpose(x)


def _qr(a: Any, mode: str = "reduced") -> Any:
    x = _inexact(a)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr mode {mode!r} is not supported on tensorflow")
    q, r = tf.linalg.qr(x, full_matrices=mode == "complete")
    return r if mode == "r" else _QR((q, r))


def _svd(a: Any, full_matrices: bool = True, compute_uv: bool = True,
         hermitian: bool = False) -> Any:
    x = _inexact(a)
    if not compute_uv:
        return tf.linalg.svd(x, compute_uv=False)
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return _SVD((u, s, _adjoint(v)))


def _lower_hermitian(a: Any, UPLO: str) -> Any:
    x = _inexact(a)
    # tf reads the lower triangle; the adjoint moves numpy's upper one there
    return _adjoint(x) if UPLO.upper() == "U" else x


def _eigh(a: Any, UPLO: str = "L") -> Any:
    w, v = tf.linalg.eigh(_lower_hermitian(a, UPLO))
    return _EIGH((tf.math.real(w), v))


def _eigvalsh(a: Any, UPLO: str = "L") -> Any:
    return tf.math.real(tf.linalg.eigvalsh(_lower_hermitian(a, UPLO)))


def _maybe_real(x: Any, *parts: Any) -> tuple:
    # numpy returns real eigenvalues (and vectors) for real input when all are real;
    # the dtype depends on the values, so only eager calls can follow it
    if x.dtype.is_complex or not tf.executing_eagerly():
        return parts
    if bool(tf.reduce_all(tf.equal(tf.math.imag(parts[0]), 0))):
        return tuple(tf.math.real(p) for p in parts)
    return parts


def _eig(a: Any) -> Any:
    x = _inexact(a)
    w, v = tf.linalg.eig(x)
    return _EIG(_maybe_real(x, w, v))


def _eigvals(a: Any) -> Any:
    x = _inexact(a)
    return _maybe_real(x, tf.linalg.eigvals(x))[0]


def _solve(a: Any, b: Any) -> Any:
    dt = _result_dtype(a, b, 1.0)
    a, b = _to(a, dt), _to(b, dt)
    vec = b.shape.rank == 1
    if vec:
        b = b[:, None]
    batch = tf.broadcast_dynamic_shape(tf.shape(a)[:-2], tf.shape(b)[:-2])
    a = tf.broadcast_to(a, tf.concat([batch, tf.shape(a)[-2:]], 0))
    b = tf.broadcast_to(b, tf.concat([batch, tf.shape(b)[-2:]], 0))
    x = tf.linalg.solve(a, b)
    return x[..., 0] if vec else x


def _inv(a: Any) -> Any:
    return tf.linalg.inv(_inexact(a))


def _det(a: Any) -> Any:
    return tf.linalg.det(_inexact(a))


def _slogdet(a: Any) -> Any:
    sign, logdet = tf.linalg.slogdet(_inexact(a))
    return _SLOGDET((sign, tf.math.real(logdet)))


def _cholesky(a: Any, /, *, upper: bool = False) -> Any:
    L = tf.linalg.cholesky(_inexact(a))
    return _adjoint(L) if upper else L


_NOVALUE = object()


def _pinv(a: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = _NOVALUE) -> Any:
    x = _inexact(a)
    m, n = x.shape[-2], x.shape[-1]
    if rcond is None:
        if rtol is _NOVALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(m, n) * np.finfo(_real_dtype(x.dtype).as_numpy_dtype).eps
        else:
            rcond = rtol
    s, u, v = tf.linalg.svd(x, full_matrices=False)
    cutoff = _as(rcond, s.dtype)[..., None] * tf.reduce_max(s, axis=-1, keepdims=True)
    s_inv = tf.where(s > cutoff, 1 / tf.where(s > cutoff, s, tf.ones_like(s)), tf.zeros_like(s))
    return tf.matmul(v * tf.cast(s_inv[..., None, :], v.dtype), u, adjoint_b=True)


def _matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Any:
    x = _inexact(A)
    if x.shape.rank < 2:
        return tf.cast(tf.reduce_any(tf.not_equal(x, 0)), tf.int64)
    s = tf.linalg.svd(x, compute_uv=False)
    smax = tf.reduce_max(s, axis=-1, keepdims=True)
    if tol is None:
        if rtol is None:
            rtol = max(x.shape[-2], x.shape[-1]) * np.finfo(s.dtype.as_numpy_dtype).eps
        tol = smax * _as(rtol, s.dtype)[..., None]
    else:
        tol = _as(tol, s.dtype)[..., None]
    return tf.math.count_nonzero(s > tol, axis=-1, dtype=tf.int64)


def _lstsq(a: Any, b: Any, rcond: Any = None) -> Any:
    dt = _result_dtype(a, b, 1.0)
    a, b = _to(a, dt), _to(b, dt)
    m, n = a.shape[-2], a.shape[-1]
    vec = b.shape.rank == 1
    if vec:
        b = b[:, None]
    if rcond is None:
        rcond = np.finfo(dt.real_dtype.as_numpy_dtype).eps * max(m, n)
    s, u, v = tf.linalg.svd(a, full_matrices=False)
    big = s > tf.cast(rcond, s.dtype) * tf.reduce_max(s)
    rank = tf.math.count_nonzero(big, dtype=tf.int32)  # LAPACK's int, as numpy
    s_inv = tf.where(big, 1 / tf.where(big, s, tf.ones_like(s)), tf.zeros_like(s))
    ub = tf.matmul(u, b, adjoint_a=True) * tf.cast(s_inv[:, None], dt)
    x = tf.matmul(v, ub)
    full = (not tf.executing_eagerly()) or int(rank) == n
    if m > n and full:
        r = b - tf.matmul(a, x)
        sq = tf.math.real(r * tf.math.conj(r)) if dt.is_complex else tf.square(r)
        resid = tf.reduce_sum(sq, axis=0)
    else:
        resid = tf.zeros((0,), dt.real_dtype)
    if vec:
        x = x[:, 0]
    return _LSTSQ((x, resid, rank, s))


def _matrix_power(a: Any, n: int) -> Any:
    x = _t(a)
    if n < 0:
        x, n = tf.linalg.inv(_inexact(x)), -n
    eye = tf.eye(tf.shape(x)[-1], batch_shape=tf.shape(x)[:-2], dtype=x.dtype)
    result = None
    while n:
        if n & 1:
            result = x if result is None else _matmul(result, x)
        n >>= 1
        if n:
            x = _matmul(x, x)
    return eye if result is None else result


def _multi_dot(arrays: Sequence[Any], *, out: None = None) -> Any:
    return functools.reduce(_matmul, arrays)


def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    x = _inexact(x)
    nd = x.shape.rank
    if axis is None:
        if ord is None:
            r = _sqsum(x, None)
            return tf.reshape(r, [1] * nd) if keepdims else r
        axis = tuple(range(nd))
        if nd not in (1, 2):
            raise ValueError("Improper number of dimensions to norm.")
    axes = _axes(axis, nd)
    if len(axes) == 1:
        r = _vector_norm(x, ord, axes[0])
    elif len(axes) == 2:
        r = _matrix_norm(x, ord, axes)
    else:
        raise ValueError("Improper number of dimensions to norm.")
    if keepdims:
        for ax in sorted(axes):
            r = tf.expand_dims(r, ax)
    return r


def _sqsum(x: Any, axis: Any) -> Any:
    a = tf.abs(x)
    return tf.sqrt(tf.reduce_sum(a * a, axis=axis))


def _vector_norm(x: Any, ord: Any, axis: int) -> Any:
    if ord is None or ord == 2:
        return _sqsum(x, axis)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    a = tf.abs(x)
    if ord == math.inf:
        return tf.reduce_max(a, axis=axis)
    if ord == -math.inf:
        return tf.reduce_min(a, axis=axis)
    if ord == 0:
        return tf.reduce_sum(tf.cast(tf.not_equal(a, 0), a.dtype), axis=axis)
    if ord == 1:
        return tf.reduce_sum(a, axis=axis)
    p = tf.constant(ord, a.dtype)
    return tf.pow(tf.reduce_sum(tf.pow(a, p), axis=axis), 1 / p)


def _matrix_norm(x: Any, ord: Any, axes: tuple[int, int]) -> Any:
    row, col = axes
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord is None or ord == "fro":
        return _sqsum(x, axes)
    if ord in (2, -2, "nuc"):
        rest = [i for i in range(x.shape.rank) if i not in axes]
        s = tf.linalg.svd(tf.transpose(x, [*rest, row, col]), compute_uv=False)
        if ord == "nuc":
            return tf.reduce_sum(s, axis=-1)
        return tf.reduce_max(s, axis=-1) if ord == 2 else tf.reduce_min(s, axis=-1)
    a = tf.abs(x)
    if ord in (1, -1):
        sums = tf.reduce_sum(a, axis=row)
        c = col - 1 if col > row else col
        return tf.reduce_max(sums, axis=c) if ord == 1 else tf.reduce_min(sums, axis=c)
    if ord in (math.inf, -math.inf):
        sums = tf.reduce_sum(a, axis=col)
        r = row - 1 if row > col else row
        return tf.reduce_max(sums, axis=r) if ord > 0 else tf.reduce_min(sums, axis=r)
    raise ValueError(f"Invalid norm order {ord!r} for matrices.")


def _expm(A: Any) -> Any:
    return tf.linalg.expm(_inexact(A))


def _lu_packed(x: Any) -> tuple[Any, Any]:
    """LU with partial pivoting (LAPACK getrf's steps) of (..., m, n) static-shaped ``x``:
    the packed factors and ``perm`` with ``x[perm] = L @ U``; a zero pivot column is left
    as it is, so that singular and non-square matrices factor, as in scipy."""
    m, n = int(x.shape[-2]), int(x.shape[-1])
    nb = x.shape.rank - 2
    rows, cols = tf.range(m), tf.range(n)
    perm = tf.broadcast_to(rows, tf.shape(x)[:-1])
    for j in range(min(m, n)):
        col = x[..., :, j]
        size = tf.abs(tf.math.real(col)) + tf.abs(tf.math.imag(col)) if x.dtype.is_complex \
            else tf.abs(col)  # LAPACK's i?amax: |re| + |im|
        size = tf.where(rows >= j, size, -tf.ones_like(size))
        p = tf.argmax(size, axis=-1, output_type=tf.int32)[..., None]
        swap = tf.where(tf.equal(rows, j), p, tf.where(tf.equal(rows, p), j, rows))
        x = tf.gather(x, swap, axis=nb, batch_dims=nb)
        perm = tf.gather(perm, swap, axis=nb, batch_dims=nb)
        factor = tf.math.divide_no_nan(x[..., :, j], x[..., j:j + 1, j])
        factor = tf.where(rows > j, factor, tf.zeros_like(factor))
        pivot_row = tf.where(cols > j, x[..., j, :], tf.zeros_like(x[..., j, :]))
        x = x - factor[..., :, None] * pivot_row[..., None, :]
        below = tf.logical_and((rows > j)[:, None], tf.equal(cols, j)[None, :])
        x = tf.where(below, factor[..., :, None] + tf.zeros_like(x), x)
    return x, perm


def _lu(a: Any, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True,
        p_indices: bool = False) -> Any:
    x = _inexact(a)
    m, n = int(x.shape[-2]), int(x.shape[-1])
    packed = None
    if m == n and tf.executing_eagerly():
        try:
            packed, perm = tf.linalg.lu(x)
        except tf.errors.InvalidArgumentError:  # tf refuses singular matrices; scipy factors
            packed = None
    elif m == n:  # traced: tf's own (singular matrices fail when the graph runs)
        packed, perm = tf.linalg.lu(x)
    if packed is None:
        packed, perm = _lu_packed(x)
    k = min(m, n)
    L = tf.linalg.band_part(packed[..., :, :k], -1, 0) * (1 - tf.eye(m, k, dtype=x.dtype)) \
        + tf.eye(m, k, dtype=x.dtype)
    U = tf.linalg.band_part(packed[..., :k, :], 0, -1)
    # tf: x[perm] = L @ U, so scipy's P (x = P @ L @ U) is the transposed permutation matrix
    if p_indices:
        P = tf.cast(tf.argsort(perm, axis=-1), tf.int32)
    else:
        P = tf.linalg.matrix_transpose(tf.one_hot(perm, m, dtype=x.dtype))
    if permute_l:
        return tf.matmul(tf.linalg.matrix_transpose(tf.one_hot(perm, m, dtype=x.dtype)), L), U
    return P, L, U


def _householder_product(A: Any, tau: Any) -> Any:
    # Q = H_1 ... H_k with H_i = I - tau_i v_i v_i^H (LAPACK orgqr), first n columns
    A = _t(A)
    tau = tf.cast(_t(tau), A.dtype)
    m, n = A.shape[-2], A.shape[-1]
    k = tau.shape[-1]
    eye = tf.eye(m, batch_shape=tf.shape(A)[:-2], dtype=A.dtype)
    Q = eye
    rows = tf.range(m)[:, None]
    for i in range(k):
        v = tf.where(rows > i, A[..., :, i : i + 1], tf.zeros_like(A[..., :, i : i + 1]))
        v = tf.where(tf.equal(rows, i), tf.ones_like(v), v)
        H = eye - tau[..., i, None, None] * tf.matmul(v, v, adjoint_b=True)
        Q = tf.matmul(Q, H)
    return Q[..., :, :n]


def _solve_triangular(a: Any, b: Any, trans: Any = 0, lower: bool = False,
                      unit_diagonal: bool = False, overwrite_b: bool = False,
                      check_finite: bool = True) -> Any:
    dt = _result_dtype(a, b, 1.0)
    a, b = _to(a, dt), _to(b, dt)
    if unit_diagonal:
        a = tf.linalg.set_diag(a, tf.ones_like(tf.linalg.diag_part(a)))
    vec = b.shape.rank == a.shape.rank - 1
    if vec:
        b = b[..., None]
    trans = {0: "N", 1: "T", 2: "C"}.get(trans, trans)
    if trans == "N":
        x = tf.linalg.triangular_solve(a, b, lower=lower)
    elif trans == "C" or not dt.is_complex:
        x = tf.linalg.triangular_solve(a, b, lower=lower, adjoint=True)
    else:
        # a^T x = b  <=>  a^H conj(x) = conj(b)
        x = tf.math.conj(tf.linalg.triangular_solve(a, tf.math.conj(b), lower=lower,
                                                    adjoint=True))
    return x[..., 0] if vec else x


def _cho_factor(a: Any, lower: bool = False, overwrite_a: bool = False,
                check_finite: bool = True) -> tuple:
    # the unused triangle is zero here (scipy leaves whatever it held)
    return _cholesky(a, upper=not lower), lower


def _cho_solve(c_and_lower: tuple, b: Any, overwrite_b: bool = False,
               check_finite: bool = True) -> Any:
    c, lower = c_and_lower
    dt = _result_dtype(c, b, 1.0)
    c, b = _to(c, dt), _to(b, dt)
    L = c if lower else _adjoint(c)
    L = tf.linalg.band_part(L, -1, 0)
    vec = b.shape.rank == 1
    x = tf.linalg.cholesky_solve(L, b[:, None] if vec else b)
    return x[:, 0] if vec else x


# ---------------------------------------------------------------- fft


def _complex_for(x: Any) -> Any:
    x = _t(x)
    if x.dtype.is_complex:
        return x
    return tf.cast(x, tf.complex64 if x.dtype in (tf.float32, tf.float16) else tf.complex128)


def _real_for(x: Any) -> Any:
    x = _t(x)
    if x.dtype.is_complex:
        raise TypeError("x must be a real sequence")
    return x if x.dtype in (tf.float32, tf.float64) else tf.cast(
        x, tf.float32 if x.dtype == tf.float16 else tf.float64)


def _fit(x: Any, n: int | None, axis: int) -> Any:
    """Crop or zero-pad ``x`` to length ``n`` along ``axis`` (numpy's ``n``/``s``)."""
    if n is None:
        return x
    have = x.shape[axis]
    if have is None:
        have = int(tf.shape(x)[axis])
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    if n < have:
        idx = [slice(None)] * x.shape.rank
        idx[axis] = slice(0, n)
        return x[tuple(idx)]
    if n > have:
        pad = [[0, 0]] * x.shape.rank
        pad[axis] = [0, n - have]
        return tf.pad(x, pad)
    return x


def _scale(x: Any, n: Any, norm: str | None, inverse: bool) -> Any:
    norm = norm or "backward"
    if norm not in ("backward", "ortho", "forward"):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')
    # tf's transforms are "backward" normalised (1/n on the inverse)
    if norm == "backward":
        return x
    n = tf.cast(n, _real_dtype(x.dtype))
    if norm == "ortho":
        n = tf.sqrt(n)
    return x * tf.cast(n if inverse else 1 / n, x.dtype)


def _last(fn: Callable, x: Any, axis: int) -> Any:
    """Apply the innermost-axis transform ``fn`` along ``axis``."""
    nd = x.shape.rank
    axis = axis % nd
    if axis == nd - 1:
        return fn(x)
    perm = list(range(nd))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return tf.transpose(fn(tf.transpose(x, perm)), perm)


def _c2c(forward: bool) -> Callable:
    tf_fn = tf.signal.fft if forward else tf.signal.ifft

    def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
            out: None = None) -> Any:
        x = _fit(_complex_for(a), n, axis)
        r = _last(tf_fn, x, axis)
        return _scale(r, tf.shape(x)[axis], norm, not forward)

    return fft


def _fftn_axes(x: Any, s: Any, axes: Any) -> tuple[list, list]:
    nd = x.shape.rank
    if axes is None:
        axes = list(range(nd)) if s is None else list(range(nd - len(s), nd))
    axes = [a % nd for a in axes]
    s = [None] * len(axes) if s is None else list(s)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    return axes, s


def _c2cn(forward: bool, default_axes: Any = None) -> Callable:
    fn = _c2c(forward)

    def fftn(a: Any, s: Any = None, axes: Any = default_axes, norm: str | None = None,
             out: None = None) -> Any:
        x = _complex_for(a)
        axes_, s_ = _fftn_axes(x, s, axes)
        for ax, n in zip(axes_[::-1], s_[::-1], strict=True):
            x = fn(x, n, ax, norm)
        return x

    return fftn


def _rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
          out: None = None) -> Any:
    x = _fit(_real_for(a), n, axis)
    m = tf.shape(x)[axis]
    r = _last(lambda y: tf.signal.rfft(y, [m]), x, axis)
    return _scale(r, m, norm, False)


def _irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
           out: None = None) -> Any:
    x = _complex_for(a)
    if n is None:
        n = 2 * (x.shape[axis] - 1)
    x = _fit(x, n // 2 + 1, axis)
    r = _last(lambda y: tf.signal.irfft(y, [n]), x, axis)
    return _scale(r, n, norm, True)


def _rfftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None,
           out: None = None) -> Any:
    x = _real_for(a)
    axes_, s_ = _fftn_axes(x, s, axes)
    x = _rfft(x, s_[-1], axes_[-1], norm)
    fn = _c2c(True)
    for ax, n in zip(axes_[-2::-1], s_[-2::-1], strict=True):
        x = fn(x, n, ax, norm)
    return x


def _irfftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None,
            out: None = None) -> Any:
    x = _complex_for(a)
    axes_, s_ = _fftn_axes(x, s, axes)
    fn = _c2c(False)
    for ax, n in zip(axes_[-2::-1], s_[-2::-1], strict=True):
        x = fn(x, n, ax, norm)
    return _irfft(x, s_[-1], axes_[-1], norm)


def _fft2(fn: Callable) -> Callable:
    def fft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: str | None = None,
             out: None = None) -> Any:
        return fn(a, s, axes, norm)

    return fft2


def _fftfreq(n: int, d: float = 1.0, device: Any = None, dtype: Any = None) -> Any:
    k = np.fft.fftfreq(n, d)
    return tf.constant(k, _dt(dtype) or tf.float64)


def _rfftfreq(n: int, d: float = 1.0, device: Any = None, dtype: Any = None) -> Any:
    k = np.fft.rfftfreq(n, d)
    return tf.constant(k, _dt(dtype) or tf.float64)


def _shift(inverse: bool) -> Callable:
    def shift(x: Any, axes: Any = None) -> Any:
        x = _t(x)
        nd = x.shape.rank
        ax = _axes(axes, nd)
        if not ax:
            return x
        dims = tf.shape(x)
        shifts = [(-(dims[a] // 2) if inverse else dims[a] // 2) for a in ax]
        return tf.roll(x, shifts, list(ax))

    return shift


# ---------------------------------------------------------------- random


class Generator:
    """A numpy-like random generator over a ``tf.random.Generator``.

    Returned by ``do("random.default_rng", seed, like="tensorflow")``; the
    module-level ``random.*`` functions use one kept in this module, which
    ``random.seed`` replaces. Float draws default to float64, as numpy's.

    Examples
    --------
    >>> rng = Generator(42)
    >>> rng.normal(size=(2,)).shape
    TensorShape([2])
    """

    def __init__(self, seed: Any = None):
        self._seed_value = seed
        self._gen: Any = None

    @property
    def gen(self) -> Any:
        # made on first use, and outside any tf.function graph: a tf.random.Generator
        # holds a tf.Variable, whose creation inside a trace makes tf.function trace
        # again (importing this table inside a trace would do that)
        if self._gen is None:
            with tf.init_scope():
                seed = self._seed_value
                self._gen = (
                    tf.random.Generator.from_non_deterministic_state()
                    if seed is None
                    else tf.random.Generator.from_seed(int(seed))
                )
        return self._gen

    def _seed(self) -> Any:
        return self.gen.make_seeds(1)[:, 0]

    def _float(self, dtype: Any) -> tf.DType:
        return _dt(dtype) or tf.float64

    def random(self, size: Any = None, dtype: Any = None, out: None = None) -> Any:
        """Uniform floats in [0, 1)."""
        return self.gen.uniform(_size(size), dtype=self._float(dtype))

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = None) -> Any:
        """Uniform floats in [low, high)."""
        dt = self._float(dtype)
        low, high = _to(low, dt), _to(high, dt)
        shape = _size(size, low, high)
        return low + (high - low) * self.gen.uniform(shape, dtype=dt)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = None) -> Any:
        """Gaussian draws with mean ``loc`` and standard deviation ``scale``."""
        dt = self._float(dtype)
        loc, scale = _to(loc, dt), _to(scale, dt)
        return loc + scale * self.gen.normal(_size(size, loc, scale), dtype=dt)

    def standard_normal(self, size: Any = None, dtype: Any = None, out: None = None) -> Any:
        """Gaussian draws with mean 0 and standard deviation 1."""
        return self.gen.normal(_size(size), dtype=self._float(dtype))

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = "int64",
                 endpoint: bool = False) -> Any:
        """Integers in [low, high) (or [low, high] with ``endpoint``)."""
        if high is None:
            low, high = 0, low
        dt = _dt(dtype)
        gen_dt = dt if dt in (tf.int32, tf.int64) else tf.int64
        low_t, high_t = _to(low, gen_dt), _to(high, gen_dt)
        if endpoint:
            high_t = high_t + 1
        shape = _size(size, low_t, high_t)
        if low_t.shape.rank or high_t.shape.rank:
            u = self.gen.uniform(shape, dtype=tf.float64)
            span = tf.cast(high_t - low_t, tf.float64)
            r = low_t + tf.cast(tf.floor(u * span), gen_dt)
        else:
            r = self.gen.uniform(shape, low_t, high_t, dtype=gen_dt)
        return r if gen_dt == dt else tf.cast(r, dt)

    def permutation(self, x: Any, axis: int = 0) -> Any:
        """A shuffled copy of ``x`` along ``axis``, or a permutation of ``range(x)``."""
        if isinstance(x, (int, np.integer)):
            return tf.cast(tf.argsort(self.gen.uniform([int(x)])), tf.int64)
        x = _t(x)
        n = tf.shape(x)[axis]
        return tf.gather(x, tf.argsort(self.gen.uniform([n])), axis=axis)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0, shuffle: bool = True) -> Any:
        """Draws from ``a`` (an int ``n`` means ``range(n)``)."""
        pool = None if isinstance(a, (int, np.integer)) else _t(a)
        n = int(a) if pool is None else pool.shape[axis]
        shape = _size(size)
        k = int(np.prod(shape, dtype=np.int64))
        if p is None and replace:
            idx = self.gen.uniform([k], 0, n, dtype=tf.int64)
        elif p is None:
            if k > n:
                raise ValueError("Cannot take a larger sample than population when replace=False")
            idx = tf.cast(tf.argsort(self.gen.uniform([n]))[:k], tf.int64)
        else:
            logp = tf.math.log(tf.cast(_t(p), tf.float64))
            if replace:
                idx = tf.random.stateless_categorical(logp[None], k, seed=self._seed())[0]
            else:
                # Gumbel top-k: k draws without replacement, weighted by p
                g = -tf.math.log(-tf.math.log(self.gen.uniform([n], dtype=tf.float64)))
                idx = tf.cast(tf.math.top_k(logp + g, k).indices, tf.int64)
        idx = tf.reshape(idx, shape)
        if pool is None:
            return idx
        return tf.gather(pool, idx, axis=axis)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Exponential draws with mean ``scale``."""
        scale = _to(scale, tf.float64)
        u = self.gen.uniform(_size(size, scale), dtype=tf.float64)
        return -tf.math.log1p(-u) * scale

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        """Gamma draws with shape ``shape`` and scale ``scale``."""
        k, theta = _to(shape, tf.float64), _to(scale, tf.float64)
        out = _size(size, k, theta)
        g = tf.random.stateless_gamma(out, seed=self._seed(), alpha=k, dtype=tf.float64)
        return g * theta

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        """Beta draws with parameters ``a`` and ``b``."""
        a, b = _to(a, tf.float64), _to(b, tf.float64)
        out = _size(size, a, b)
        x = tf.random.stateless_gamma(out, seed=self._seed(), alpha=a, dtype=tf.float64)
        y = tf.random.stateless_gamma(out, seed=self._seed(), alpha=b, dtype=tf.float64)
        return x / (x + y)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson draws with rate ``lam``."""
        lam = _to(lam, tf.float64)
        out = _size(size, lam)
        return tf.random.stateless_poisson(out, seed=self._seed(), lam=lam, dtype=tf.int64)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial draws: successes in ``n`` trials of probability ``p``."""
        n, p = _to(n, tf.float64), _to(p, tf.float64)
        out = _size(size, n, p)
        return self.gen.binomial(out, counts=n, probs=p, dtype=tf.int64)


def _size(size: Any, *params: Any) -> list:
    """numpy's ``size``: None means the broadcast shape of the parameters."""
    if size is None:
        shape: list = []
        for q in params:
            shape = list(np.broadcast_shapes(tuple(shape), tuple(q.shape)))
        return shape
    return [int(size)] if np.ndim(size) == 0 else [int(s) for s in size]


_RNG = [Generator()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = Generator(seed)


# ---------------------------------------------------------------- scipy.special


def _special_dtype(dt: tf.DType) -> tf.DType:
    """The loop dtype of scipy's float-only special functions (single or double)."""
    if dt in (tf.float32, tf.float64, tf.complex64, tf.complex128):
        return dt
    if dt in (tf.float16, tf.bool, tf.int8, tf.uint8, tf.int16, tf.uint16):
        return tf.float32
    return tf.float64


def _special(tf_fn: Callable) -> Callable:
    def special(x: Any) -> Any:
        x = _t(x)
        return tf_fn(tf.cast(x, _special_dtype(x.dtype)))

    return special


def _xlogy(x: Any, y: Any) -> Any:
    # scipy's xlogy treats Python floats as float64 (no weak scalars)
    dt = _special_dtype(_result_dtype(*(_np_dt(np.asarray(v)) if isinstance(v, (int, float))
                                        else v for v in (x, y))))
    return tf.math.xlogy(_to(x, dt), _to(y, dt))


def _logit(x: Any) -> Any:
    x = _t(x)
    x = tf.cast(x, _special_dtype(x.dtype))
    return tf.math.log(x) - tf.math.log1p(-x)


# scipy.special, issue 5 (H9): Bessel functions, psi, ndtri, xlog1py and zeta are tf's own;
# entr, erfcx, ndtr, log_ndtr, multigammaln and polygamma are composed
# (translations/_composed/special.py)


def _digamma(x: Any) -> Any:
    # tf.math.digamma(0) is nan; scipy's psi(+0) is -inf and psi(-0) is +inf
    x = _t(x)
    x = tf.cast(x, _special_dtype(x.dtype))
    return tf.where(tf.equal(x, 0), -1 / x, tf.math.digamma(x))


def _nan_below_zero(tf_fn: Callable) -> Callable:
    # tf's y0, y1, k0, k1, k0e, k1e give -inf/inf for x < 0 (outside the domain); scipy: nan
    def special(x: Any) -> Any:
        x = _t(x)
        x = tf.cast(x, _special_dtype(x.dtype))
        return tf.where(x < 0, tf.constant(math.nan, x.dtype), tf_fn(x))

    return special


def _xlog1py(x: Any, y: Any) -> Any:
    # scipy's xlog1py treats Python floats as float64; tf.math.xlog1py(0, nan) is 0, scipy's nan
    dt = _special_dtype(_result_dtype(*(_np_dt(np.asarray(v)) if isinstance(v, (int, float))
                                        else v for v in (x, y))))
    x, y = _to(x, dt), _to(y, dt)
    return tf.where(tf.math.is_nan(y), y, tf.math.xlog1py(x, y))


def _zeta(x: Any, q: Any = None) -> Any:
    # tf.math.zeta is Hurwitz's zeta, nan for x < 1; scipy's q=None is Riemann's, continued
    # below 1 (riemann_zeta)
    if q is None:
        x = _t(x)
        return riemann_zeta(tf.cast(x, _special_dtype(x.dtype)), tf.math.zeta)
    dt = _special_dtype(_result_dtype(x, q))  # zeta's first loop is float32: scalars weak
    x, q = _to(x, dt), _to(q, dt)
    return hurwitz_edges(x, q, tf.math.zeta(x, q))  # tf: nan at the poles q = 0, -1, ...


def _logsumexp(a: Any, axis: Any = None, b: Any = None, keepdims: bool = False,
               return_sign: bool = False) -> Any:
    x = _inexact(a)
    if b is None and not return_sign:
        return tf.reduce_logsumexp(x, axis=axis, keepdims=keepdims)
    m = tf.stop_gradient(tf.reduce_max(x, axis=axis, keepdims=True))
    m = tf.where(tf.math.is_finite(m), m, tf.zeros_like(m))
    e = tf.exp(x - m)
    if b is not None:
        e = e * tf.cast(_t(b), e.dtype)
    s = tf.reduce_sum(e, axis=axis, keepdims=True)
    out = tf.math.log(tf.abs(s)) + m
    sign = tf.sign(s)
    if not keepdims:
        out = tf.squeeze(out, axis=_axes(axis, x.shape.rank))
        sign = tf.squeeze(sign, axis=_axes(axis, x.shape.rank))
    return (out, sign) if return_sign else out


def _softmax(x: Any, axis: Any = None) -> Any:
    x = _inexact(x)
    e = tf.exp(x - tf.stop_gradient(tf.reduce_max(x, axis=axis, keepdims=True)))
    return e / tf.reduce_sum(e, axis=axis, keepdims=True)


def _log_softmax(x: Any, axis: Any = None) -> Any:
    x = _inexact(x)
    return x - tf.reduce_logsumexp(x, axis=axis, keepdims=True)


# ---------------------------------------------------------------- conversion


def _astype(x: Any, dtype: Any, copy: bool = True, **kw: Any) -> Any:
    x = _t(x)
    dt = _dt(dtype)
    if x.dtype == dt:
        return tf.identity(x) if copy else x
    return tf.cast(x, dt)


def _to_numpy(x: Any) -> np.ndarray:
    # .numpy() of a 0-d tensor is a numpy scalar, not an array
    try:
        return np.asarray(x.numpy())
    except AttributeError:
        return np.asarray(x)


def _from_numpy(x: Any) -> Any:
    return tf.convert_to_tensor(x)


def _from_dlpack(x: Any) -> Any:
    capsule = x.__dlpack__() if hasattr(x, "__dlpack__") else x
    return tf.experimental.dlpack.from_dlpack(capsule)


def _device_name(device: Any) -> str:
    name = str(getattr(device, "name", device))
    low = name.lower()
    if low.startswith("/") or low.startswith("/job"):
        return name
    kind, _, index = low.partition(":")
    kind = {"cuda": "GPU", "gpu": "GPU", "cpu": "CPU", "tpu": "TPU"}.get(kind, kind.upper())
    return f"/{kind}:{index or 0}"


def _to_device(x: Any, device: Any = None) -> Any:
    if device is None:
        return x
    with tf.device(_device_name(device)):
        return tf.identity(x)


def _to_backend_dtype(name: Any) -> tf.DType:
    return _dt(name)


def _get_dtype_name(x: Any) -> str:
    return x.dtype.name


# ---------------------------------------------------------------- table


TABLE = {
    **_ELEMENTWISE,
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
    # creation
    "asarray": _asarray,
    "array": _array,
    "from_numpy": _from_numpy,
    "copy": _copy,
    "arange": _arange,
    "linspace": _linspace,
    "meshgrid": _meshgrid,
    "indices": _indices,
    "full": _full,
    "full_like": _full_like,
    "tril": _tril,
    "triu": _triu,
    # reductions
    "sum": _sum,
    "prod": _prod,
    "mean": _mean,
    "var": _var,
    "std": _std,
    "max": _max,
    "amax": _max,
    "min": _min,
    "amin": _min,
    "argmax": _arg_reduce(tf.argmax, "argmax"),
    "argmin": _arg_reduce(tf.argmin, "argmin"),
    "any": _any,
    "all": _all,
    "cumsum": _cumulative(tf.math.cumsum, "cumsum"),
    "cumprod": _cumulative(tf.math.cumprod, "cumprod"),
    "count_nonzero": _count_nonzero,
    "median": _median,
    "trace": _trace,
    "nansum": _nansum,
    "nanprod": _nanprod,
    "nancumsum": _nancumsum,
    "nanmax": _nan_extreme(_max, -math.inf),
    "nanmin": _nan_extreme(_min, math.inf),
    # nanargmax/nanargmin: the composed ones (issue 5, H8), which raise on an all-NaN
    # slice as numpy does
    "nanvar": _nanvar,
    "nanmean": _nanmean,
    "nanstd": _nanstd,
    # "average": the composed one (translations/_composed/reductions.py), issue 5 (H8)
    # shape and indexing
    "reshape": _reshape,
    "ravel": _ravel,
    "transpose": _transpose,
    "permute_dims": _transpose,
    "matrix_transpose": _matrix_transpose,
    "compress": NATIVE,  # issue 5 (H8): tf.experimental.numpy's beats the composed one
    "moveaxis": _moveaxis,
    "swapaxes": _swapaxes,
    "expand_dims": _expand_dims,
    "squeeze": _squeeze,
    "concatenate": _concatenate,
    "concat": _concatenate,
    "stack": _stack,
    "hstack": _hstack,
    "vstack": _vstack,
    "dstack": _dstack,
    "column_stack": _column_stack,
    "atleast_1d": _atleast_nd(1),
    "atleast_2d": _atleast_nd(2),
    "atleast_3d": _atleast_nd(3),
    "ediff1d": _ediff1d,
    "split": _split,
    "array_split": _array_split,
    "tile": _tile,
    "repeat": _repeat,
    "flip": _flip,
    "roll": _roll,
    "pad": _pad,
    "broadcast_to": _broadcast_to,
    "take": _take,
    "take_along_axis": _take_along_axis,
    "nonzero": _nonzero,
    "argwhere": _argwhere,
    "flatnonzero": _flatnonzero,
    "diag": _diag,
    "diagonal": _diagonal,
    "sort": _sort,
    "argsort": _argsort,
    "unique": _unique,
    "searchsorted": _searchsorted,
    "bincount": _bincount,
    "scatter_1d_scalar": _scatter_1d_scalar,
    # products
    "matmul": _matmul,
    "dot": _dot,
    "tensordot": _tensordot,
    "einsum": _einsum,
    "outer": _outer,
    "kron": _kron,
    "inner": _inner,
    "vdot": _vdot,
    # linalg
    "linalg.qr": _qr,
    "linalg.svd": _svd,
    "linalg.eigh": _eigh,
    "linalg.eigvalsh": _eigvalsh,
    "linalg.eig": _eig,
    "linalg.eigvals": _eigvals,
    "linalg.solve": _solve,
    "linalg.inv": _inv,
    "linalg.pinv": _pinv,
    "linalg.det": _det,
    "linalg.slogdet": _slogdet,
    "linalg.norm": _norm,
    "linalg.cholesky": _cholesky,
    "linalg.lstsq": _lstsq,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.matrix_power": _matrix_power,
    "linalg.multi_dot": _multi_dot,
    "linalg.expm": _expm,
    "linalg.lu": _lu,
    "linalg.householder_product": _householder_product,
    "scipy.linalg.expm": _expm,
    "scipy.linalg.lu": _lu,
    "scipy.linalg.solve_triangular": _solve_triangular,
    "scipy.linalg.cho_factor": _cho_factor,
    "scipy.linalg.cho_solve": _cho_solve,
    "scipy.linalg.lu_factor": unsupported(
        "tensorflow's LU returns a permutation, not LAPACK pivots; use scipy.linalg.lu"
    ),
    # fft
    "fft.fft": _c2c(True),
    "fft.ifft": _c2c(False),
    "fft.fftn": _c2cn(True),
    "fft.ifftn": _c2cn(False),
    "fft.fft2": _fft2(_c2cn(True)),
    "fft.ifft2": _fft2(_c2cn(False)),
    "fft.rfft": _rfft,
    "fft.irfft": _irfft,
    "fft.rfftn": _rfftn,
    "fft.irfftn": _irfftn,
    "fft.rfft2": _fft2(_rfftn),
    "fft.irfft2": _fft2(_irfftn),
    "fft.fftfreq": _fftfreq,
    "fft.rfftfreq": _rfftfreq,
    "fft.fftshift": _shift(False),
    "fft.ifftshift": _shift(True),
    # random
    "random.default_rng": _default_rng(Generator),
    "random.seed": _seed,
    **stateful_random(_RNG),
    # scipy.special
    "scipy.special.erf": _special(tf.math.erf),
    "scipy.special.erfc": _special(tf.math.erfc),
    "scipy.special.erfinv": _special(tf.math.erfinv),
    "scipy.special.gammaln": _special(tf.math.lgamma),
    "scipy.special.digamma": _digamma,
    "scipy.special.expit": _special(tf.math.sigmoid),
    "scipy.special.logit": _logit,
    "scipy.special.xlogy": _xlogy,
    "scipy.special.logsumexp": _logsumexp,
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
    # scipy.special, issue 5 (H9); polygamma is composed: tf.math.polygamma is nan at the
    # poles (x = 0, -1, ...) where scipy gives +-inf
    "scipy.special.psi": _digamma,
    "scipy.special.i0": _special(tf.math.bessel_i0),
    "scipy.special.i0e": _special(tf.math.bessel_i0e),
    "scipy.special.i1": _special(tf.math.bessel_i1),
    "scipy.special.i1e": _special(tf.math.bessel_i1e),
    "scipy.special.j0": _special(tf.math.special.bessel_j0),
    "scipy.special.j1": _special(tf.math.special.bessel_j1),
    "scipy.special.y0": _nan_below_zero(tf.math.special.bessel_y0),
    "scipy.special.y1": _nan_below_zero(tf.math.special.bessel_y1),
    "scipy.special.k0": _nan_below_zero(tf.math.special.bessel_k0),
    "scipy.special.k0e": _nan_below_zero(tf.math.special.bessel_k0e),
    "scipy.special.k1": _nan_below_zero(tf.math.special.bessel_k1),
    "scipy.special.k1e": _nan_below_zero(tf.math.special.bessel_k1e),
    "scipy.special.ndtri": _special(tf.math.ndtri),
    "scipy.special.xlog1py": _xlog1py,
    "scipy.special.zeta": _zeta,
    # conversion and helpers
    "astype": _astype,
    "cast": _astype,
    "to_numpy": _to_numpy,
    "from_dlpack": _from_dlpack,
    "to_device": _to_device,
    "to_backend_dtype": _to_backend_dtype,
    "get_dtype_name": _get_dtype_name,
    "stop_gradient": alias("stop_gradient", module="tensorflow"),
}


# ================================================================ the backend method list
# tensorflow's entries for the backend method list (issue 3). Layouts and semantics are
# those of the composed fallbacks in ``translations/_composed/`` (documented there); the
# adapters below are tf's native ways: GradientTape for derivatives, tf.function for
# jit_compile, tf.while_loop / tf.vectorized_map / tf.numpy_function for control flow,
# tf.SparseTensor for sparse matrices, tf.nn convolutions, tf.signal FFTs, and
# bincount / tensor_scatter_nd kernels where the composed versions would be slow.


def _float_type() -> tf.DType:
    """The float dtype of the current precision (float32 when none is set)."""
    from dispatch.engine import get_precision

    return tf.as_dtype(f"float{get_precision() or 32}")


def _static_shape(x: Any) -> tuple[int, ...]:
    """``x``'s shape as ints; jit_compile retraces per shape, so sizes are static."""
    dims = x.shape.as_list()
    if any(d is None for d in dims):
        raise ValueError(f"this operation needs a static shape, got {x.shape}")
    return tuple(dims)


def _combined_size(*sizes: int) -> int:
    big = {s for s in sizes if s != 1}
    if len(big) > 1:
        raise ValueError(f"batch sizes {sizes} do not broadcast (each must be 1 or the same)")
    return big.pop() if big else 1


def _promote(*xs: Any) -> list:
    """Tensors of numpy's common dtype of ``xs`` (Python scalars weak)."""
    dt = _result_dtype(*xs)
    return [_to(x, dt) for x in xs]


# ---------------------------------------------------------------- indexing, counting

_BINCOUNT_WEIGHTS = frozenset({tf.int32, tf.int64, tf.float32, tf.float64})


def _bincount_float(x: Any, w: Any, length: int) -> Any:
    # tf registers no gradient for bincount: d sums[x[i]] / d w[i] = 1, so the gradient
    # of the weights gathers the upstream gradient at x (zero for dropped values)
    @tf.custom_gradient
    def sums(w: Any) -> Any:
        def grad(dy: Any) -> Any:
            kept = x < length
            return tf.where(kept, tf.gather(dy, tf.where(kept, x, tf.zeros_like(x))),
                            tf.zeros_like(w))

        return tf.math.bincount(x, weights=w, minlength=length, maxlength=length), grad

    return sums(w)


def _bincount_weighted(x: Any, w: Any, length: int) -> Any:
    """Sums of ``w`` per value of the int ``x`` in ``[0, length)``; larger values are
    dropped (bincount's ``maxlength``), negative ones must be masked by the caller."""
    if w is None:
        return tf.math.bincount(x, minlength=length, maxlength=length, dtype=tf.int64)
    if w.dtype == tf.bool:
        w = tf.cast(w, tf.int64)
    if w.dtype.is_complex:
        re = _bincount_weighted(x, tf.math.real(w), length)
        return tf.complex(re, _bincount_weighted(x, tf.math.imag(w), length))
    if w.dtype.is_floating and w.dtype in _BINCOUNT_WEIGHTS:
        return _bincount_float(x, w, length)
    if w.dtype in _BINCOUNT_WEIGHTS:
        return tf.math.bincount(x, weights=w, minlength=length, maxlength=length)
    # bincount sums int32/int64/float32/float64 weights only
    wide = tf.float32 if w.dtype.is_floating else tf.int64
    return tf.cast(_bincount_weighted(x, tf.cast(w, wide), length), w.dtype)


def _bincount_fixed(x: Any, weights: Any, bins: int, x_sorted: bool = False) -> Any:
    # tf.math.bincount (about 7x faster than unsorted_segment_sum or tensor_scatter_nd_add
    # here) drops values >= maxlength and refuses negative ones: those are sent past
    # `bins`, where maxlength drops them too
    x = _t(x)
    if x.dtype not in (tf.int32, tf.int64):
        x = tf.cast(x, tf.int64)
    w = None if weights is None else _t(weights)
    if tf.executing_eagerly() and x.device.endswith("CPU:0"):
        try:  # the common case, no negative value: one kernel
            return _bincount_weighted(x, w, int(bins))
        except tf.errors.InvalidArgumentError:
            pass
    x = tf.where(x < 0, tf.cast(bins, x.dtype), x)
    return _bincount_weighted(x, w, int(bins))


def _scatter(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    # float and int adds: one flat bincount; the other modes: one tensor_scatter_nd_*
    # with (batch, spatial...) multi-indices and channel vectors as slices
    if mode not in ("update", "add", "max", "min"):
        raise ValueError(
            f"scatter mode must be one of ('update', 'add', 'max', 'min'), got {mode!r}")
    base, idx, vals = _t(base_grid), _t(indices), _t(values)
    bshape, ishape, vshape = _static_shape(base), _static_shape(idx), _static_shape(vals)
    if len(bshape) < 2 or len(ishape) != 3 or len(vshape) != 3:
        raise ValueError(
            f"scatter needs base (batch, spatial..., channels), indices (batch, n, d), "
            f"values (batch, n, channels); got shapes {bshape}, {ishape}, {vshape}"
        )
    spatial, channels, n = bshape[1:-1], bshape[-1], ishape[1]
    if ishape[2] != len(spatial):
        raise ValueError(f"indices have {ishape[2]} components for {len(spatial)} spatial axes")
    batch = _combined_size(bshape[0], ishape[0], vshape[0])
    base = _expand(base, (batch, *bshape[1:]))
    if n == 0 or math.prod(bshape[1:]) == 0:
        return tf.identity(base)
    if base.dtype == tf.bool:  # no bool kernels: a logical or is a max of integers
        out = _scatter(tf.cast(base, tf.int32), idx, tf.cast(vals, tf.int32),
                       "max" if mode == "add" else mode)
        return tf.cast(out, tf.bool)
    vals = _expand(vals if vals.dtype == base.dtype else tf.cast(vals, base.dtype),
                   (batch, n, channels))
    idx = idx if idx.dtype in (tf.int32, tf.int64) else tf.cast(idx, tf.int64)
    if mode == "add" and base.dtype in _BINCOUNT_WEIGHTS:
        cells = math.prod(spatial)
        # no spatial axes: every multi-index is empty, the one cell 0
        flat = tf.cast(idx[..., 0], tf.int64) if spatial else tf.zeros(ishape[:2], tf.int64)
        for k in range(1, len(spatial)):
            flat = flat * spatial[k] + tf.cast(idx[..., k], tf.int64)
        if batch > 1:  # (batch, n) from here on, whatever the batch of the indices
            flat = flat + tf.range(0, batch * cells, cells, dtype=tf.int64)[:, None]
        if channels > 1:
            flat = flat[..., None] * channels + tf.range(channels, dtype=tf.int64)
        flat = tf.reshape(flat, [-1])
        size = batch * cells * channels
        sums = _bincount_weighted(flat, tf.reshape(vals, [-1]), size)
        return base + tf.reshape(sums, base.shape)
    idx = _expand(idx, (batch, n, len(spatial)))
    if batch > 1 or not spatial:  # tf refuses index depth 0: index the batch too
        b = tf.broadcast_to(tf.range(batch, dtype=idx.dtype)[:, None, None], (batch, n, 1))
        idx = tf.concat([b, idx], axis=-1)
        target = base
    else:
        target = base[0]
    fn = {
        "update": tf.tensor_scatter_nd_update,
        "add": tf.tensor_scatter_nd_add,
        "max": tf.tensor_scatter_nd_max,
        "min": tf.tensor_scatter_nd_min,
    }[mode]
    out = fn(target, tf.reshape(idx, [batch * n, idx.shape[-1]]),
             tf.reshape(vals, [batch * n, channels]))
    return out if target is base else out[None]


def _expand(x: Any, shape: tuple) -> Any:
    """``broadcast_to`` that costs nothing when ``x`` has the shape already."""
    return x if tuple(x.shape.as_list()) == tuple(shape) else tf.broadcast_to(x, shape)


def _gather(values: Any, indices: Any, axis: int = 0) -> Any:
    # tf.gather refuses negative indices (numpy's take wraps them): try it as is on the
    # CPU, where it raises before computing anything, and wrap only when needed (tf.gather
    # on GPUs returns zeros instead of raising, and errors inside tf.function surface
    # only at run time: those take the wrapping path)
    x, idx = _t(values), _t(indices)
    if tf.executing_eagerly() and x.device.endswith("CPU:0") and idx.dtype.is_integer:
        try:
            return tf.gather(x, idx, axis=axis)
        except tf.errors.InvalidArgumentError:
            pass
    return _take(x, idx, axis)


def _histogram1d(values: Any, weights: Any, bin_edges: Any) -> Any:
    # one batched searchsorted and one flat bincount, instead of a bincount per row
    values, edges = _promote(values, bin_edges)
    (be, nedges), (bv, n) = _static_shape(edges), _static_shape(values)
    nbins = nedges - 1
    w = None if weights is None else _t(weights)
    batch = _combined_size(bv, be, *(() if w is None else (_static_shape(w)[0],)))
    v = tf.broadcast_to(values, (batch, n))
    e = tf.broadcast_to(edges, (batch, nedges))
    # NaN compares false everywhere: it lands past the last edge and is not counted
    slot = tf.searchsorted(e, v, side="right", out_type=tf.int64) - 1
    slot = tf.where(v == e[:, -1:], tf.constant(nbins - 1, tf.int64), slot)  # last bin closed
    valid = (slot >= 0) & (slot < nbins)
    offset = tf.range(0, batch * nbins, nbins, dtype=tf.int64)[:, None]
    flat = tf.reshape(tf.where(valid, slot + offset, batch * nbins), [-1])
    if w is not None:
        w = tf.reshape(tf.broadcast_to(w, (batch, n)), [-1])
    out = _bincount_weighted(flat, w, batch * nbins)
    return tf.reshape(out, (batch, nbins))


def _searchsorted_batched(sorted_sequence: Any, search_values: Any, side: str = "left",
                          dtype: str = "int32") -> Any:
    # the composed module's kernel casts the values to the sequence's dtype (2.5 -> 2 in
    # an int sequence): promote both to numpy's common dtype first
    seq, vals = _promote(sorted_sequence, search_values)
    return _searchsorted_batched_tensorflow(seq, vals, side=side, dtype=dtype)


def _copy_leaf(a: Any, order: str = "K", subok: bool = False, *,
               only_mutable: bool = False) -> Any:
    # the list's ``copy`` adds ``only_mutable``: tf tensors are immutable, so only
    # variables (and, without the flag, every array) are copied
    if only_mutable and isinstance(a, tf.Tensor):
        return a
    return _copy(a, order, subok)


# ---------------------------------------------------------------- sparse
# tf.SparseTensor is tf's only sparse type: COO with int64 (nnz, dims) indices in
# row-major order. tf has no CSR or CSC type (its CSRSparseMatrix is internal), so
# ``csr_matrix`` and ``csc_matrix`` build the same matrix as a SparseTensor: the
# result is a COO matrix (``get_sparse_format`` says 'coo'), with every operation of one.


def _sparse_coo_tensor(indices: Any, values: Any, shape: Sequence[int]) -> Any:
    # indices (nnz, dims), or one 1-D array per axis; reordered once here because tf's
    # sparse kernels (to_dense, sparse_dense_matmul...) expect row-major order
    if isinstance(indices, (tuple, list)) and indices and all(
            hasattr(i, "shape") and len(i.shape) == 1 for i in indices):
        idx = tf.stack([tf.cast(_t(i), tf.int64) for i in indices], axis=1)
    else:
        idx = tf.cast(_t(indices), tf.int64)
    return tf.sparse.reorder(tf.SparseTensor(idx, _t(values), [int(s) for s in shape]))


def _compressed_to_coo(pointers: Any, indices: Any, values: Any, shape: Sequence[int],
                       rows_compressed: bool) -> Any:
    ptr = tf.cast(_t(pointers), tf.int64)
    n = int(shape[0] if rows_compressed else shape[1])
    major = tf.repeat(tf.range(n, dtype=tf.int64), ptr[1:] - ptr[:-1])
    minor = tf.cast(_t(indices), tf.int64)
    idx = tf.stack([major, minor] if rows_compressed else [minor, major], axis=1)
    return tf.sparse.reorder(tf.SparseTensor(idx, _t(values), [int(s) for s in shape]))


def _csr_matrix(column_indices: Any, row_pointers: Any, values: Any,
                shape: Sequence[int]) -> Any:
    # tf has no CSR type: the same matrix as a (COO) tf.SparseTensor
    return _compressed_to_coo(row_pointers, column_indices, values, shape, True)


def _csc_matrix(column_pointers: Any, row_indices: Any, values: Any,
                shape: Sequence[int]) -> Any:
    # tf has no CSC type: the same matrix as a (COO) tf.SparseTensor
    return _compressed_to_coo(column_pointers, row_indices, values, shape, False)


_SPARSE = (tf.SparseTensor, tf.compat.v1.SparseTensorValue)


def _is_sparse(x: Any) -> bool:
    return isinstance(x, _SPARSE)


def _get_sparse_format(x: Any) -> str:
    return "coo" if isinstance(x, _SPARSE) else "dense"


def _disassemble(x: Any) -> tuple[Callable[..., Any], tuple]:
    # COO parts (indices (nnz, dims), values), as the composed disassemble returns them
    if not isinstance(x, _SPARSE):
        return (lambda backend, t: do("asarray", t, like=backend)), (x,)
    static = x.shape
    shape = tuple(static.as_list()) if static.is_fully_defined() else tuple(
        int(s) for s in x.dense_shape.numpy())

    def coo(backend: str, indices: Any, values: Any) -> Any:
        return do("sparse_coo_tensor", indices, values, shape, like=backend)

    return coo, (x.indices, x.values)


def _mul_matrix_batched_vector(A: Any, b: Any) -> Any:
    # tf.matmul and sparse_dense_matmul want one dtype; the composed module's kernel does
    # the products (its sparse path takes b's adjoint, which conjugates complex vectors:
    # those are transposed here instead)
    b = _t(b)
    if isinstance(A, _SPARSE):
        dt = _result_dtype(A.values, b)
        if A.values.dtype != dt:
            A = tf.SparseTensor(A.indices, tf.cast(A.values, dt), A.dense_shape)
        b = _to(b, dt)
        if dt.is_complex and b.shape.rank == 2:
            return tf.transpose(tf.sparse.sparse_dense_matmul(A, tf.transpose(b)))
        return _mul_matrix_batched_vector_tensorflow(A, b)
    A, b = _promote(A, b)
    return _mul_matrix_batched_vector_tensorflow(A, b)


# ---------------------------------------------------------------- fft, conv


def _fft_axes_tf(x: Any, axes: Sequence[int], inverse: bool) -> Any:
    # the axes are moved to the end once and transformed three at a time (fft3d), where
    # fft.fftn transforms one axis at a time, transposing around each
    x = _t(x)
    target = tf.as_dtype(_complex_dtype(x))
    x = x if x.dtype == target else tf.cast(x, target)
    if not axes:
        return x
    nd = x.shape.rank
    axes = sorted({a % nd for a in axes})
    order = [a for a in range(nd) if a not in axes] + axes
    y = x if order == list(range(nd)) else tf.transpose(x, order)
    fns = ((tf.signal.ifft, tf.signal.ifft2d, tf.signal.ifft3d) if inverse
           else (tf.signal.fft, tf.signal.fft2d, tf.signal.fft3d))
    k, left = len(axes), len(axes)
    while left:
        c = min(left, 3)
        y = fns[c - 1](y)
        left -= c
        if left:  # bring the next axes to the end: rotate the last k axes by c
            rot = list(range(nd - k)) + [nd - c + i for i in range(c)] + list(range(nd - k, nd - c))
            y = tf.transpose(y, rot)
            order = [order[i] for i in rot]
    return tf.transpose(y, np.argsort(order).tolist()) if order != list(range(nd)) else y


def _fft_axes(x: Any, axes: Sequence[int]) -> Any:
    return _fft_axes_tf(x, axes, inverse=False)


def _ifft_axes(k: Any, axes: Sequence[int]) -> Any:
    return _fft_axes_tf(k, axes, inverse=True)


def _pad_crop(x: Any, axis: int, before: int, after: int) -> Any:
    """Zero-pad (positive) or cut (negative) ``before``/``after`` entries of ``axis``."""
    if before > 0 or after > 0:
        width = [[0, 0]] * x.shape.rank
        width[axis] = [max(before, 0), max(after, 0)]
        x = tf.pad(x, width)
    if before < 0 or after < 0:
        n = x.shape[axis]
        sl = [slice(None)] * x.shape.rank
        sl[axis] = slice(max(-before, 0), n - max(-after, 0))
        x = x[tuple(sl)]
    return x


def _conv(value: Any, kernel: Any, strides: Any = 1, out_sizes: Any = None,
          transpose: bool = False, zero_padding: bool = True) -> Any:
    # tf.nn.convolution / conv_transpose, channels last (the only layout tf's CPU kernels
    # take) and 'VALID', with the list's padding (k // 2 zeros before, scipy's centring of
    # even kernels, which tf's 'SAME' does not do) applied explicitly; integer, complex,
    # empty and >3-D cases take the composed im2col version
    value, kernel = _t(value), _t(kernel)
    dt = _result_dtype(value, kernel)
    vshape, kshape = value.shape.as_list(), kernel.shape.as_list()
    d = len(vshape) - 2
    if (dt not in (tf.float32, tf.float64) or d not in (1, 2, 3) or len(kshape) != d + 3
            or None in vshape or None in kshape or 0 in vshape or 0 in kshape
            or kshape[2] != vshape[1]):
        return _conv_composed(value, kernel, strides, out_sizes, transpose, zero_padding)
    value, kernel = _to(value, dt), _to(kernel, dt)
    s = (int(strides),) * d if np.ndim(strides) == 0 else tuple(int(v) for v in strides)
    n, ks = vshape[2:], kshape[3:]
    p = [k // 2 if zero_padding else 0 for k in ks]
    if out_sizes is not None:
        sizes = [int(o) for o in out_sizes]
    elif transpose:
        sizes = [nn * ss if zero_padding else (nn - 1) * ss + k
                 for nn, ss, k in zip(n, s, ks, strict=True)]
    else:
        sizes = [-(-nn // ss) if zero_padding else max((nn - k) // ss + 1, 0)
                 for nn, ss, k in zip(n, s, ks, strict=True)]
    batch = _combined_size(vshape[0], kshape[0])
    if 0 in sizes:
        return tf.zeros((batch, kshape[1], *sizes), dt)
    x = tf.transpose(value, [0, *range(2, d + 2), 1])  # (batch, spatial..., in)
    spatial = list(range(3, d + 3))
    if not transpose:
        for i in range(d):
            after = (sizes[i] - 1) * s[i] + ks[i] - n[i] - p[i]
            x = _pad_crop(x, 1 + i, p[i], after)
        filt = tf.transpose(kernel, [0, *spatial, 2, 1])  # (kb, spatial..., in, out)

        def one(v: Any, f: Any) -> Any:
            return tf.nn.convolution(v, f, strides=s, padding="VALID")
    else:
        # the adjoint of the strided conv: the full 'VALID' transposed conv, of length
        # (n - 1) * s + k, holds output position j at j + p
        full = [(nn - 1) * ss + k for nn, ss, k in zip(n, s, ks, strict=True)]
        filt = tf.transpose(kernel, [0, *spatial, 1, 2])  # (kb, spatial..., out, in)

        def one(v: Any, f: Any) -> Any:
            out_shape = [v.shape[0], *full, kshape[1]]
            y = tf.nn.conv_transpose(v, f, out_shape, strides=s, padding="VALID")
            for i in range(d):
                y = _pad_crop(y, 1 + i, -p[i], sizes[i] + p[i] - full[i])
            return y

    if kshape[0] == 1:
        y = one(x, filt[0])
    else:  # one kernel per batch entry
        y = tf.concat([one(x[min(b, vshape[0] - 1)][None], filt[b]) for b in range(batch)], 0)
    return tf.transpose(y, [0, d + 1, *range(1, d + 1)])


# ---------------------------------------------------------------- autodiff
# Derivatives use tf.GradientTape, eagerly and inside tf.function. Nested calls nest
# tapes, so derivatives of derivatives (``hessian``, ``jacobian`` of ``gradient``) work.


def _diff_args(args: tuple, argnums: tuple[int, ...]) -> list:
    # arguments to differentiate become float tensors (integers and bools: of the current
    # precision); variables stay variables, so that their own gradients are the ones seen
    out = list(args)
    for i in argnums:
        a = out[i]
        if not isinstance(a, _TENSOR):
            a = _t(a)
        if not (a.dtype.is_floating or a.dtype.is_complex):
            a = tf.cast(a, _float_type())
        out[i] = a
    return out


_ZERO = tf.UnconnectedGradients.ZERO


def _dense(g: Any) -> Any:
    # gradients of gathers arrive as tf.IndexedSlices: the list's are dense arrays
    return tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g


def _tape_jacobian(tape: tf.GradientTape, y: Any, xs: list) -> list:
    try:  # vectorized (pfor); ops without a pfor rule fall back to a while loop
        return tape.jacobian(y, xs, unconnected_gradients=_ZERO)
    except (ValueError, TypeError, NotImplementedError, tf.errors.OpError):
        return tape.jacobian(y, xs, unconnected_gradients=_ZERO, experimental_use_pfor=False)


def _jacobian(f: Callable, wrt: Any = (0,), get_output: bool = True,
              is_f_scalar: bool = False) -> Callable:
    """The list's ``jacobian``: a function returning the derivatives of ``f``.

    ``f(*args)`` returns an array, or a tuple/list whose first entry is the array to
    differentiate (the others are auxiliary outputs). The derivative with respect to
    ``args[i]`` for ``i`` in ``wrt`` has shape ``first.shape + args[i].shape``. The
    returned function gives ``(output, grads)`` with ``get_output`` (``output`` as ``f``
    returned it), else ``grads``: a tuple, one entry per index of ``wrt``, or one array
    when ``wrt`` is an int. ``is_f_scalar`` takes one reverse pass (``tape.gradient``,
    which sums a non-scalar output) instead of a Jacobian (``tape.jacobian``).
    """
    argnums, single = _argnums(wrt)

    @functools.wraps(f)
    def jacobian_of_f(*args: Any, **kwargs: Any) -> Any:
        full = _diff_args(args, argnums)
        xs = [full[i] for i in argnums]
        with tf.GradientTape(persistent=not is_f_scalar) as tape:
            for x in xs:
                tape.watch(x)
            out = f(*full, **kwargs)
            y = _t(_first(out))
        if is_f_scalar:
            grads = [_dense(g) for g in tape.gradient(y, xs, unconnected_gradients=_ZERO)]
        else:
            grads = _tape_jacobian(tape, y, xs)
        del tape
        result = grads[0] if single else tuple(grads)
        return (out, result) if get_output else result

    return jacobian_of_f


def _gradient(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The list's ``gradient`` of a scalar function (``jacobian`` with
    ``is_f_scalar=True``); numpy's ``gradient`` (finite differences) of an array."""
    if not callable(f):
        # numpy keeps the bare name for finite differences, which tf has no kernel for:
        # the composed version (translations/_composed/selection.py)
        return finite_differences(f, *args, **kwargs)
    return _gradient_of(f, *args, **kwargs)


def _gradient_of(f: Callable, wrt: Any = (0,), get_output: bool = False) -> Callable:
    return _jacobian(f, wrt, get_output, is_f_scalar=True)


def _hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
             get_gradient: bool = True) -> Callable:
    """The list's ``hessian``: per-batch-entry Hessians of ``f``'s first output.

    Axis 0 of every argument is a batch axis, and batch entries are independent; the
    first output of ``f`` is a loss per batch entry (batch,) or its sum. The returned
    function gives the tuple ``(output, gradients, hessians)``, without the output or
    gradients unless asked for. Gradients (of the summed loss) have the arguments'
    shapes; ``hessians[i][j]`` has shape (batch, *args[i].shape[1:],
    *args[j].shape[1:]). With an int ``wrt``: one gradient and one Hessian, no tuples.
    Two nested tapes: the inner one's gradient, summed over the batch, is
    differentiated by the outer one's Jacobian.
    """
    argnums, single = _argnums(wrt)

    @functools.wraps(f)
    def hessian_of_f(*args: Any, **kwargs: Any) -> tuple:
        full = _diff_args(args, argnums)
        xs = [full[i] for i in argnums]
        with tf.GradientTape(persistent=True) as outer:
            for x in xs:
                outer.watch(x)
            with tf.GradientTape() as inner:
                for x in xs:
                    inner.watch(x)
                out = f(*full, **kwargs)
                loss = tf.reduce_sum(_t(_first(out)))
            g = [_dense(gi) for gi in inner.gradient(loss, xs, unconnected_gradients=_ZERO)]
            sums = [tf.reduce_sum(gi, axis=0) for gi in g]
        hess = []
        for si in sums:
            rows = _tape_jacobian(outer, si, xs)  # (*si, batch, *sj) each
            k = si.shape.rank
            hess.append(tuple(
                tf.transpose(r, [k, *range(k), *range(k + 1, r.shape.rank)]) for r in rows))
        del outer
        result: tuple = (out,) if get_output else ()
        if get_gradient:
            result += (g[0] if single else tuple(g),)
        return (*result, hess[0][0] if single else tuple(hess))

    return hessian_of_f


def _custom_gradient(f: Callable, gradient: Callable, get_external_cache: Any = None,
                     on_call_skipped: Any = None) -> Callable:
    """The list's ``custom_gradient``: ``f`` with the derivative ``gradient``.

    ``gradient(x, y, dy)`` gets the tuple of inputs, ``f``'s output and its cotangent
    (of the output's structure) and returns one gradient (or None) per input. Built on
    tf.custom_gradient over the tensor arguments (the others are passed through
    unchanged); a ``jit_compile``d caller traces ``f`` like any op, so
    ``get_external_cache``/``on_call_skipped`` (hooks for callers that skip ``f``) are
    accepted and never needed. Variables that ``f`` reads get no gradient.
    """

    @functools.wraps(f)
    def with_custom_gradient(*args: Any) -> Any:
        pos = [i for i, a in enumerate(args) if isinstance(a, _TENSOR)]

        @tf.custom_gradient
        def run(*tensors: Any) -> Any:
            full = list(args)
            for i, t in zip(pos, tensors, strict=True):
                full[i] = t
            y = f(*full)
            several = isinstance(y, (tuple, list))

            def backward(*dy: Any, variables: Any = None) -> Any:
                dx = gradient(tuple(full), y, tuple(dy) if several else dy[0])
                dx = tuple(dx) if isinstance(dx, (tuple, list)) else (dx,)
                grads = [tf.zeros_like(full[i]) if dx[i] is None else _to(dx[i], full[i].dtype)
                         for i in pos]
                if variables:
                    return grads, [tf.zeros_like(v) for v in variables]
                return grads

            return y, backward

        return run(*[tf.convert_to_tensor(args[i]) for i in pos])

    return with_custom_gradient


def _stop_gradient(x: Any) -> Any:
    if isinstance(x, _SPARSE):
        return tf.SparseTensor(x.indices, tf.stop_gradient(x.values), x.dense_shape)
    return tf.stop_gradient(x)


def _stop_gradient_tree(tree: Any) -> Any:
    # tensor leaves only: numpy arrays and Python numbers are constants already
    from dispatch.engine import tree_map

    return tree_map(_stop_gradient, tree, is_leaf=lambda t: isinstance(t, (*_TENSOR, *_SPARSE)))


# ---------------------------------------------------------------- jit
# ``jit_compile(f)`` is a tf.function over the tensor arguments of ``f``. Every other
# argument is a constant of the trace, as numpy arrays are in the method list: a
# numpy array (keyed by its content, and copied, so that later changes to the caller's
# array cannot leak into a retrace), a Python number (keyed by value, as tf.function
# does) or any other object (keyed by identity). Code on those constants (``do`` calls
# on numpy arrays) runs once per trace, at trace time; the graph holds its results.
# One tf.function per combination of constants; each retraces per tensor signature
# itself. XLA compilation (``tf.function(jit_compile=True)``) is off by default: it
# compiles for seconds, helps only large fused graphs, and refuses ops without XLA
# kernels (strings, some sparse ops, host callbacks); ``xla=True`` turns it on.

_TRACEABLE = (tf.Tensor, tf.Variable, tf.SparseTensor, tf.RaggedTensor)


def _flatten(tree: Any, leaves: list) -> Any:
    """Leaves of nested tuples/lists/dicts appended to ``leaves``; returns a hashable
    description of the structure."""
    if isinstance(tree, (tuple, list)):
        kind = type(tree)
        return (kind, tuple(_flatten(t, leaves) for t in tree))
    if isinstance(tree, dict):
        keys = tuple(tree)
        return (dict, keys, tuple(_flatten(tree[k], leaves) for k in keys))
    leaves.append(tree)
    return None


def _unflatten(struct: Any, leaves: Any) -> Any:
    if struct is None:
        return next(leaves)
    if struct[0] is dict:
        return {k: _unflatten(s, leaves) for k, s in zip(struct[1], struct[2], strict=True)}
    kind, items = struct
    out = [_unflatten(s, leaves) for s in items]
    return kind(*out) if hasattr(kind, "_fields") else kind(out)


def _constant_key(x: Any) -> Any:
    if isinstance(x, np.ndarray) and x.dtype != object:
        import hashlib

        digest = hashlib.blake2b(np.ascontiguousarray(x).tobytes(), digest_size=16).digest()
        return ("array", x.dtype.str, x.shape, digest)
    if isinstance(x, np.generic):
        return ("scalar", x.dtype.str, x.item())
    try:
        hash(x)
    except TypeError:
        return ("id", id(x))
    return (type(x), x)


class _JitFunction:
    """``f`` as tf.functions, one per combination of constant arguments (see above)."""

    def __init__(self, f: Callable, xla: bool):
        self.f = f
        self.xla = xla
        self.traces: dict = {}
        functools.update_wrapper(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        leaves: list = []
        struct = _flatten((args, kwargs), leaves)
        dynamic = tuple(i for i, v in enumerate(leaves) if isinstance(v, _TRACEABLE))
        key = (struct, dynamic,
               tuple(_constant_key(v) for i, v in enumerate(leaves) if i not in dynamic))
        fn = self.traces.get(key)
        if fn is None:
            fn = self.traces[key] = self._trace(struct, leaves, dynamic)
        return fn(*[leaves[i] for i in dynamic])

    def _trace(self, struct: Any, leaves: list, dynamic: tuple) -> Callable:
        constants = [np.array(v, copy=True) if isinstance(v, np.ndarray) else v for v in leaves]
        f = self.f

        def run(*tensors: Any) -> Any:
            full = list(constants)
            for i, t in zip(dynamic, tensors, strict=True):
                full[i] = t
            args, kwargs = _unflatten(struct, iter(full))
            return f(*args, **kwargs)

        return tf.function(run, jit_compile=self.xla or None)

    def __repr__(self) -> str:
        return f"<jit_compile'd {getattr(self.f, '__name__', 'function')} (tf.function)>"


def _jit_compile(f: Callable, xla: bool = False) -> Callable:
    """``f`` compiled with tf.function, numpy arrays and Python values as constants;
    ``xla=True`` compiles the graphs with XLA (tf.function's ``jit_compile``)."""
    return _JitFunction(f, xla)


def _jit_compile_grad(f: Callable, wrt: Any = (0,), get_output: bool = True,
                      is_f_scalar: bool = False) -> Callable:
    return _jit_compile(_jacobian(f, wrt, get_output, is_f_scalar))


def _jit_compile_hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
                         get_gradient: bool = True) -> Callable:
    return _jit_compile(_hessian(f, wrt, get_output, get_gradient))


# ---------------------------------------------------------------- control flow, host calls


def _loop_var(v: Any) -> Any:
    return tf.stop_gradient(v if isinstance(v, tf.Tensor) else _t(v))


def _while_loop(loop: Callable, values: Sequence[Any], max_iter: Any = None) -> Any:
    # tf.while_loop: a Python loop when eager, a graph loop inside tf.function. The
    # composed loop's semantics (see ``while_loop`` there); checkpoints run one loop
    # per segment between them, so the trajectory needs no unrolling. Loop outputs are
    # cast to the loop variables' dtypes (tf.while_loop demands equal dtypes).
    values = tuple(tf.nest.map_structure(_loop_var, tuple(values)))

    def body(*v: Any) -> tuple:
        out = tuple(loop(*v))
        return tuple(tf.nest.map_structure(lambda o, r: _to(o, r.dtype), out, v))

    def run(v: tuple, i: Any, limit: Any) -> tuple:
        if limit is None:
            return tuple(tf.while_loop(lambda *w: tf.reduce_any(w[0]), body, v)), i
        out = tf.while_loop(lambda j, *w: tf.logical_and(j < limit, tf.reduce_any(w[0])),
                            lambda j, *w: (j + 1, *body(*w)), (i, *v))
        return tuple(out[1:]), out[0]

    start = tf.constant(0, tf.int64)
    if max_iter is None or np.ndim(max_iter) == 0:
        out, _ = run(values, start, None if max_iter is None else _to(max_iter, tf.int64))
        return tuple(tf.nest.map_structure(tf.stop_gradient, out))
    checkpoints = [int(c) for c in np.asarray(
        max_iter.numpy() if isinstance(max_iter, tf.Tensor) else max_iter).reshape(-1)]
    states, v, i = {}, values, start
    for c in sorted(set(checkpoints)):
        if c > 0:
            v, i = run(v, i, tf.constant(c, tf.int64))
        states[c] = v
    trajectory = [states[c] for c in checkpoints]
    stacked = tf.nest.map_structure(lambda *xs: tf.stop_gradient(tf.stack(xs)), *trajectory)
    return tuple(stacked)


def _vectorized_call(f: Callable, *args: Any, output_dtypes: Any = None,
                     **aux_args: Any) -> Any:
    # tf.vectorized_map over axis 0 (arguments of size 1 there are shared, not tiled);
    # functions it cannot convert (Python control flow on values, host calls) run in
    # tf.map_fn, eagerly one entry at a time or as a graph loop inside tf.function
    if not args:
        raise ValueError("vectorized_call needs at least one batched argument")
    args = tuple(_t(a) for a in args)
    sizes = [a.shape[0] if a.shape.rank else None for a in args]
    if None in sizes:
        raise ValueError("vectorized_call needs arguments with a static first axis")
    batch = _combined_size(*sizes)
    if batch == 0:
        raise ValueError("vectorized_call cannot infer the outputs of a batch of size 0")
    mapped = [i for i, s in enumerate(sizes) if s == batch]
    shared = {i: a[0] for i, (a, s) in enumerate(zip(args, sizes, strict=True)) if s != batch}

    def one(elems: tuple) -> Any:
        full = [shared.get(i) for i in range(len(args))]
        for i, e in zip(mapped, elems, strict=True):
            full[i] = e
        return f(*full, **aux_args)

    elems = tuple(args[i] for i in mapped)
    try:
        out = tf.vectorized_map(one, elems)
    except Exception:  # map_fn below raises the function's own error, if it has one
        trial = one(tuple(e[0] for e in elems))
        spec = tf.nest.map_structure(lambda o: tf.TensorSpec(_t(o).shape, _t(o).dtype), trial)
        out = tf.map_fn(one, elems, fn_output_signature=spec)
    return _cast_outputs(out, output_dtypes)


def _cast_outputs(out: Any, output_dtypes: Any) -> Any:
    if output_dtypes is None:
        return out
    if isinstance(out, (tuple, list)):
        many = isinstance(output_dtypes, (tuple, list))
        dts = output_dtypes if many else [output_dtypes] * len(out)
        return type(out)(o if dt is None else tf.cast(o, _dt(dt))
                         for o, dt in zip(out, dts, strict=True))
    return tf.cast(out, _dt(output_dtypes))


def _several_outputs(output_shapes: Any, output_dtypes: Any) -> bool:
    """Whether numpy_call declares several outputs: a sequence of shapes or dtypes."""
    if isinstance(output_dtypes, (tuple, list)):
        return True
    return isinstance(output_shapes, (tuple, list)) and any(
        isinstance(s, (tuple, list, tf.TensorShape)) for s in output_shapes)


def _numpy_call(f: Callable, output_shapes: Any, output_dtypes: Any, *args: Any,
                **aux_args: Any) -> Any:
    # eagerly a direct call on host copies; inside tf.function a tf.numpy_function op,
    # declared with the output dtypes and shapes (not differentiable either way)
    tensors = [i for i, a in enumerate(args) if isinstance(a, (*_TENSOR, *_SPARSE))]
    if all(_is_available(args[i]) for i in tensors):
        return _numpy_call_composed(f, output_shapes, output_dtypes, *args, **aux_args)
    several = _several_outputs(output_shapes, output_dtypes)
    shapes = list(output_shapes) if several else [output_shapes]
    dts = list(output_dtypes) if isinstance(output_dtypes, (tuple, list)) else (
        [output_dtypes] * len(shapes))
    if any(dt is None for dt in dts):
        raise ValueError("numpy_call inside tf.function needs the output dtypes")
    tout = [_dt(dt) for dt in dts]

    def host(*arrays: Any) -> list:
        full = list(args)
        for i, a in zip(tensors, arrays, strict=True):
            full[i] = a
        out = f(*full, **aux_args)
        outs = list(out) if several else [out]
        return [np.asarray(o, dtype=t.as_numpy_dtype) for o, t in zip(outs, tout, strict=True)]

    res = tf.numpy_function(host, [args[i] for i in tensors], tout, stateful=True)
    for r, shape in zip(res, shapes, strict=True):
        r.set_shape(shape)
    return tuple(res) if several else res[0]


def _is_available(x: Any) -> bool:
    # symbolic tensors (inside tf.function) have no value; variables read there neither
    if isinstance(x, _SPARSE):
        x = x.values
    if isinstance(x, tf.Variable):
        return tf.executing_eagerly()
    if isinstance(x, tf.Tensor):
        return not tf.is_symbolic_tensor(x)
    return True


# ---------------------------------------------------------------- devices, interop


@functools.cache
def _devices() -> list:
    import os

    out = []
    for d in tf.config.list_logical_devices():
        cores = (os.cpu_count() or -1) if d.device_type == "CPU" else -1
        out.append(ComputeDevice("tensorflow", d.name, d.device_type, -1, cores,
                                 f"tensorflow {d.device_type} {d.name}", d.name))
    return out


def _list_devices(device_type: str | None = None) -> list:
    return list_devices_filtered(_devices(), device_type)


def _device_record(name: str) -> Any:
    """The ComputeDevice of a tf device string ('/job:.../device:GPU:0', 'GPU:0'...)."""
    tail = name.rsplit("device:", 1)[-1].upper()
    for d in _devices():
        if d.name.upper().endswith(tail):
            return d
    kind = tail.split(":", 1)[0]
    return ComputeDevice("tensorflow", name, kind if kind in ("CPU", "GPU", "TPU") else "CPU",
                         ref=name)


def _get_device(x: Any) -> Any:
    if isinstance(x, _SPARSE):
        x = x.values
    name = getattr(x, "device", "") or ""
    if not name:  # a symbolic tensor not yet placed: where tf places new ops
        return _get_default_device_composed(backend="tensorflow")
    return _device_record(name)


def _device_of(device: Any) -> str:
    if device is None:
        device = _get_default_device_composed(backend="tensorflow")
    return device.name if isinstance(device, ComputeDevice) else _device_name(device)


def _allocate_on_device(x: Any, device: Any) -> Any:
    # tf has no .to(device): a copy made under the device scope lives there
    with tf.device(_device_of(device)):
        if isinstance(x, _SPARSE):
            return tf.SparseTensor(tf.identity(x.indices), tf.identity(x.values),
                                   tf.identity(x.dense_shape))
        return tf.identity(x)


def _memory_name(device: Any) -> str:
    return _device_of(device).rsplit("device:", 1)[-1].lstrip("/")


def _get_peak_memory(device: Any = None) -> int:
    # tf's allocator statistics (GPUs; the CPU reports 0 or nothing)
    try:
        return int(tf.config.experimental.get_memory_info(_memory_name(device))["peak"])
    except (ValueError, RuntimeError, tf.errors.OpError):
        return 0


def _reset_peak_memory(device: Any = None) -> None:
    with contextlib.suppress(ValueError, RuntimeError, tf.errors.OpError):
        tf.config.experimental.reset_memory_stats(_memory_name(device))


def _to_dlpack(x: Any) -> Any:
    return tf.experimental.dlpack.to_dlpack(x)


def _variable(x: Any) -> Any:
    # a trainable tf.Variable of a float dtype (integers: the current precision)
    t = _t(x)
    if not (t.dtype.is_floating or t.dtype.is_complex):
        t = tf.cast(t, _float_type())
    return tf.Variable(t)


def _is_module(obj: Any) -> bool:
    return isinstance(obj, tf.Module)


def _gammainc(upper: bool) -> Callable:
    def gammainc(a: Any, x: Any) -> Any:
        # scipy's gammainc/gammaincc: float32 or float64, Python floats as float64
        dt = _special_dtype(_result_dtype(*(np.asarray(v).dtype if isinstance(v, (int, float))
                                            else v for v in (a, x))))
        return (tf.math.igammac if upper else tf.math.igamma)(_to(a, dt), _to(x, dt))

    return gammainc


TABLE.update({
    **backend_entries("tensorflow"),  # list methods written once, bound to tensorflow
    # tnp's logspace ignores dtype and takes no array base; its geomspace fails on complex
    **fill_entries("tensorflow", "geomspace", "logspace"),
    "copy": _copy_leaf,
    "scipy.special.gammainc": _gammainc(False),
    "scipy.special.gammaincc": _gammainc(True),
    # indexing and counting
    "scatter": _scatter,
    "gather": _gather,
    "bincount_fixed": _bincount_fixed,
    "histogram1d": _histogram1d,
    "searchsorted_batched": _searchsorted_batched,
    # sparse: tf.SparseTensor (COO; CSR and CSC input is converted)
    "sparse_coo_tensor": _sparse_coo_tensor,
    "csr_matrix": _csr_matrix,
    "csc_matrix": _csc_matrix,
    "is_sparse": _is_sparse,
    "get_sparse_format": _get_sparse_format,
    "disassemble": _disassemble,
    "mul_matrix_batched_vector": _mul_matrix_batched_vector,
    # fft, convolution (grid_sample: the composed gathers; tf core has no resampler)
    "fft_axes": _fft_axes,
    "ifft_axes": _ifft_axes,
    "conv": _conv,
    # autodiff and jit
    "jacobian": _jacobian,
    "gradient": _gradient,
    "hessian": _hessian,
    "custom_gradient": _custom_gradient,
    "stop_gradient": _stop_gradient,
    "stop_gradient_tree": _stop_gradient_tree,
    "jit_compile": _jit_compile,
    "jit_compile_grad": _jit_compile_grad,
    "jit_compile_hessian": _jit_compile_hessian,
    # control flow and host calls
    "while_loop": _while_loop,
    "vectorized_call": _vectorized_call,
    "numpy_call": _numpy_call,
    "is_available": _is_available,
    # devices, interop, modules
    "list_devices": _list_devices,
    "get_device": _get_device,
    "allocate_on_device": _allocate_on_device,
    "get_peak_memory": _get_peak_memory,
    "reset_peak_memory": _reset_peak_memory,
    "to_dlpack": _to_dlpack,
    "variable": _variable,
    "module": unsupported(
        "tensorflow's modules are keras models, built by keras: use keras directly"
    ),
    "is_module": _is_module,
    "prefers_channels_last": lambda: True,  # tf's CPU convolutions are channels last
    "requires_fixed_shapes_when_tracing": lambda: False,  # tf.function retraces per shape
})


# inside tf.function these adapters trace tf ops directly (explicit tf.where and
# tf.while_loop, Python branches on static dtypes and shapes only): mark them as
# AutoGraph artifacts (the attribute tf.autograph checks) so that they are called
# as plain Python instead of being re-parsed and converted on every trace
for _fn in TABLE.values():
    if callable(_fn):
        setattr(_fn, "autograph_info__", None)  # noqa: B010
