"""jax's elementwise functions where they depart from numpy: numpy's promotion
of integers with floats (jax keeps the float's width), integer ``power`` and
``floor_divide`` edge cases, ``reciprocal`` of integers, ``angle``'s width,
``complex`` built exactly, and numpy's ``a_min``/``a_max`` keywords of ``clip``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._adapters import UFUNC_SPELLINGS, frexp_from_bits, real_float_entries
from dispatch.translations._composed.elementwise import half_nextafter, half_spacing
from dispatch.translations._keywords import NO_VALUE, clip_bounds
from dispatch.translations._loops import bool_operands

from dispatch.engine import merge_tables


def _complex(real: Any, imag: Any) -> Any:
    # lax.complex builds the value exactly (real + 1j * imag turns an infinite
    # imaginary part into a nan real part) but wants equal float dtypes and shapes
    dtype = jnp.result_type(real, imag, 1.0)  # integers -> default float, as numpy
    if jnp.issubdtype(dtype, jnp.complexfloating):
        return real + 1j * imag
    real, imag = jnp.broadcast_arrays(jnp.asarray(real, dtype), jnp.asarray(imag, dtype))
    return jax.lax.complex(real, imag)


# (dtype, dtype, x64 mode) -> the dtype numpy promotes them to where jax differs, else None
_PROMOTIONS: dict[tuple, Any] = {}


def _numpy_promotion(d1: Any, d2: Any) -> Any:
    target = np.result_type(d1, d2)
    if target == jnp.result_type(d1, d2):
        return None
    return jax.dtypes.canonicalize_dtype(target)  # float64 stays float32 without x64


def _promoting(fn: Callable) -> Callable:
    """``fn`` promoting integers with floats as numpy does.

    jax keeps the float's width (int64 * float32 -> float32, int32 + complex64 ->
    complex64); numpy widens (float64, complex128). Other dtype pairs agree, so
    the usual call (equal dtypes, or a Python scalar) costs one identity test.
    """

    @functools.wraps(fn)
    def promoting(x1: Any, x2: Any, /, *args: Any, **kwargs: Any) -> Any:
        d1 = getattr(x1, "dtype", None)
        d2 = getattr(x2, "dtype", None)
        if d1 is d2 or d1 is None or d2 is None:
            return fn(x1, x2, *args, **kwargs)
        key = (d1, d2, jax.config.read("jax_enable_x64"))  # the answer depends on it
        try:
            target = _PROMOTIONS[key]
        except KeyError:
            target = _PROMOTIONS[key] = _numpy_promotion(d1, d2)
        if target is None:
            return fn(x1, x2, *args, **kwargs)
        return fn(x1.astype(target), x2.astype(target), *args, **kwargs)

    return promoting


# binary functions whose arguments numpy promotes to one dtype (ldexp takes an
# integer exponent as it is; bitwise functions take integers only); power,
# float_power and floor_divide have adapters of their own below
_BINARY = (
    "add", "subtract", "multiply",
    "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "logaddexp", "logaddexp2",
    "copysign", "heaviside", "equal", "not_equal", "less", "less_equal",
    "greater", "greater_equal",
)  # fmt: skip


def _reciprocal(x: Any) -> Any:
    # numpy keeps integers integer (1 // x rounded towards zero: 0 unless |x| == 1);
    # jax returns floats
    x = jnp.asarray(x)
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.where(jnp.abs(x) == 1, x, jnp.zeros_like(x))
    return jnp.reciprocal(x)


def _angle(z: Any, deg: bool = False) -> Any:
    # jnp.angle returns float64 for a 0-d float32 array under x64; numpy keeps the
    # argument's precision (complex64 -> float32)
    z = jnp.asarray(z)
    out = jnp.angle(z, deg)
    if jnp.issubdtype(z.dtype, jnp.inexact):
        return out.astype(jnp.finfo(z.dtype).dtype)
    return out


def _float_power(x1: Any, x2: Any) -> Any:
    # numpy computes float_power in float64 (complex128) whatever the inputs; jax keeps
    # float32 (without x64 the widest float is float32 anyway)
    wide = jax.dtypes.canonicalize_dtype(
        np.complex128 if jnp.iscomplexobj(x1) or jnp.iscomplexobj(x2) else np.float64
    )
    return jnp.float_power(jnp.asarray(x1, wide), jnp.asarray(x2, wide))


def _is_int(x: Any) -> bool:
    dt = x.dtype if hasattr(x, "dtype") else np.asarray(x).dtype
    return jnp.issubdtype(dt, jnp.integer)


_promoting_power = _promoting(jnp.power)


def _power(x1: Any, x2: Any, /) -> Any:
    # jax gives 0 for an integer to a negative integer power; numpy raises. The
    # exponent is read when it can be (eagerly); traced for jit, jax's 0 stays
    if (
        _is_int(x2)
        and _is_int(x1)
        and not isinstance(x2, jax.core.Tracer)
        and bool(np.any(np.asarray(x2) < 0))
    ):
        raise ValueError("Integers to negative integer powers are not allowed.")
    return _promoting_power(x1, x2)


_promoting_floor_divide = _promoting(jnp.floor_divide)


def _floor_divide(x1: Any, x2: Any, /) -> Any:
    # jax's integer floor_divide by zero gives arbitrary values (-1, -2, 255); numpy
    # gives 0 (with a RuntimeWarning), as jax's own remainder does
    r = _promoting_floor_divide(x1, x2)
    if _is_int(x1) and _is_int(x2):
        r = jnp.where(jnp.asarray(x2) == 0, jnp.zeros_like(r), r)
    return r


def _np_dtype(x: Any) -> np.dtype:
    return np.dtype(x.dtype) if hasattr(x, "dtype") else np.asarray(x).dtype


def _cast(x: Any, dtype: np.dtype) -> Any:
    return jnp.asarray(x, jax.dtypes.canonicalize_dtype(dtype))


def _numpy_loop(name: str, fn: Callable) -> Callable:
    """``fn``; a boolean operand first cast to numpy's loop for ``name`` (jax computes
    a floor division, remainder, power or shift of booleans in int32, numpy's loop in
    int8; an integer divided by False then follows the zero rule above)."""
    return bool_operands(name, fn, np.dtype(bool), _np_dtype, _cast)


def _clip(a: Any, a_min: Any = NO_VALUE, a_max: Any = NO_VALUE, *, min: Any = NO_VALUE,
          max: Any = NO_VALUE) -> Any:
    # jax accepts only the array API's min/max, not numpy's a_min/a_max keywords
    return jnp.clip(a, *clip_bounds(a_min, a_max, min, max))


def _glu(x: Any, axis: int = -1) -> Any:
    if x.shape[axis] % 2:  # the composed one raises the ValueError
        from dispatch.translations._composed.elementwise import glu

        return glu(x, axis)
    return jax.nn.glu(x, axis)


# the ML ops of keras.ops (docs/vocabulary.md, "ML ops"): jax.nn's functions on float
# arrays, with keras's defaults where jax's differ (gelu's exact form, leaky_relu's
# slope 0.2); integers, complex numbers and Python scalars take the composed path
_ML_OPS = real_float_entries(
    {
        "relu": jax.nn.relu,
        "relu6": jax.nn.relu6,
        "gelu": lambda x, approximate=False: jax.nn.gelu(x, approximate=bool(approximate)),
        "silu": jax.nn.silu,
        "elu": jax.nn.elu,
        "selu": jax.nn.selu,
        "leaky_relu": lambda x, negative_slope=0.2: jax.nn.leaky_relu(x, negative_slope),
        "log_sigmoid": jax.nn.log_sigmoid,
        "hard_sigmoid": jax.nn.hard_sigmoid,
        "hard_silu": jax.nn.hard_silu,
        "softsign": jax.nn.soft_sign,
        "softmax": lambda x, axis=-1: jax.nn.softmax(x, axis=axis),
        "log_softmax": lambda x, axis=-1: jax.nn.log_softmax(x, axis=axis),
        "glu": _glu,
        "rsqrt": jax.lax.rsqrt,
    },
    jax.Array,
    frozenset(np.dtype(t) for t in (jnp.float16, jnp.bfloat16, jnp.float32, jnp.float64)),
)

# the later ML ops: jax.nn's kernels where it has them; hard_shrink, soft_shrink,
# tanh_shrink and sparsemax are composed (jax.nn has none)
_MORE_ML_OPS = real_float_entries(
    {
        "hard_tanh": jax.nn.hard_tanh,
        "sparse_plus": jax.nn.sparse_plus,
        "sparse_sigmoid": jax.nn.sparse_sigmoid,
        "squareplus": lambda x, b=4: jax.nn.squareplus(x, b),
    },
    jax.Array,
    frozenset(np.dtype(t) for t in (jnp.float16, jnp.bfloat16, jnp.float32, jnp.float64)),
)
def _frexp(x: Any, /) -> tuple[Any, Any]:
    """numpy's ``frexp`` from the bits: XLA's CPU kernels flush subnormal numbers to
    zero, so arithmetic (``jnp.frexp``, ``log2``, ``x > 0``) cannot see them.

    Examples
    --------
    >>> [a.tolist() for a in _frexp(jnp.array([8.0, -0.375], jnp.float32))]
    [[0.5, -0.75], [4, -1]]
    """
    from dispatch.translations._composed.elementwise import _ufunc_float

    x = jnp.asarray(_ufunc_float(jnp.asarray(x), "frexp"))
    return frexp_from_bits(x, jnp, jax.lax.bitcast_convert_type)


def _sign(x: Any) -> Any:
    # numpy's sign of a zero is +0 (+0+0j); jax's keeps the zero's sign
    out = jnp.sign(x)
    if jnp.issubdtype(out.dtype, jnp.inexact):
        return jnp.where(x == 0, jnp.zeros((), out.dtype), out)
    return out


def _on_cut(fn: Any, odd: bool) -> Any:
    """jax's ``fn`` with numpy's value on its branch cut: XLA reads a zero on the cut as +0
    whatever its sign, so ``sqrt(-2-0j)`` came out as ``+1.41j`` (numpy: ``-1.41j``).
    A cut along the real axis is mirrored by conjugation, ``f(z) = conj(f(conj(z)))``; a
    cut along the imaginary axis (``arcsinh``, ``arctan``, odd functions) by negation,
    ``f(z) = -f(-z)``. The mirrored side is taken where the zero's sign says so."""

    def on_cut(x: Any, /) -> Any:
        dtype = getattr(x, "dtype", None)
        if not (isinstance(x, complex) or (dtype is not None and dtype.kind == "c")):
            return fn(x)
        z = jnp.asarray(x)
        if odd:
            return jnp.where(jnp.signbit(z.real), -fn(-z), fn(z))
        return jnp.where(jnp.signbit(z.imag), jnp.conj(fn(jnp.conj(z))), fn(z))

    on_cut.__name__ = on_cut.__qualname__ = fn.__name__
    return on_cut


_CUTS = {name: _on_cut(getattr(jnp, name), odd) for name, odd in (
    ("sqrt", False), ("arcsin", False), ("arccos", False), ("arccosh", False),
    ("arctanh", False), ("arcsinh", True), ("arctan", True))}


def _spacing(x: Any) -> Any:
    # numpy's spacing of a zero is the smallest positive number, -0.0's too (jax's
    # keeps the zero's sign)
    out = jnp.spacing(x)
    if out.dtype == jnp.float16:
        return half_spacing(jnp.asarray(x, out.dtype))
    return jnp.where(x == 0, jnp.abs(out), out)


def _nextafter(x1: Any, x2: Any) -> Any:
    out = _promoting(jnp.nextafter)(x1, x2)
    return half_nextafter(x1, x2, out) if out.dtype == jnp.float16 else out


TABLE = merge_tables(
    {
        "complex": _complex,
        "sign": _sign,
        "spacing": _spacing,
        "nextafter": _nextafter,
        # numpy's semantics (imaginary part non-zero or zero, element-wise)
        "iscomplex": "iscomplex",
        "isreal": "isreal",
        # elementwise: jax dropped numpy's alias fix (round towards zero)
        "fix": "trunc",
        "reciprocal": _reciprocal,
        "float_power": _float_power,
        "power": _numpy_loop("power", _power),
        "pow": _numpy_loop("power", _power),
        "floor_divide": _numpy_loop("floor_divide", _floor_divide),
        "divide": _numpy_loop("divide", _promoting(jnp.divide)),
        "true_divide": _numpy_loop("divide", _promoting(jnp.divide)),
        "mod": _numpy_loop("remainder", _promoting(jnp.remainder)),
        "remainder": _numpy_loop("remainder", _promoting(jnp.remainder)),
        "fmod": _numpy_loop("fmod", _promoting(jnp.fmod)),
        "left_shift": _numpy_loop("left_shift", jnp.left_shift),
        "right_shift": _numpy_loop("right_shift", jnp.right_shift),
        "bitwise_left_shift": _numpy_loop("left_shift", jnp.left_shift),
        "bitwise_right_shift": _numpy_loop("right_shift", jnp.right_shift),
        "ldexp": _numpy_loop("ldexp", jnp.ldexp),
        "angle": _angle,
        "clip": _clip,
        "frexp": _frexp,
    },
    # numpy's promotion of integer with float arrays
    {name: _promoting(getattr(jnp, name)) for name in _BINARY},
    # numpy's values on the branch cuts of complex arguments, by both spellings
    _CUTS,
    {n: _CUTS[f] for n, f in UFUNC_SPELLINGS.items() if f in _CUTS},
    _ML_OPS,
    _MORE_ML_OPS,
    # keras's names of two activations: the same entries (docs/vocabulary.md)
    {"swish": _ML_OPS["silu"], "hard_swish": _ML_OPS["hard_silu"]},
    names=("elementwise", "promoting binary functions", "branch cuts", "their spellings",
           "ML ops", "more ML ops", "keras aliases"),
)
