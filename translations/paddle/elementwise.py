"""paddle: numpy's ufuncs on tensors, with numpy's dtypes.

paddle computes integer inputs of float functions in float32 (numpy: float64),
refuses to mix integer and float tensors, reads Python floats as float32 and
lacks some names (``exp2``, ``cbrt``, ``fmod``). Every ufunc entry is one
:func:`_ufunc` adapter: numpy's own loop resolution (``ufunc.resolve_dtypes``)
says which dtypes the operands are computed in and which the result has, paddle's
kernel computes, and the result is cast where paddle's dtype differs. Operands
already of the loop's dtype go straight to paddle's kernel.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import paddle
from dispatch.translations._adapters import UFUNC_SPELLINGS
from dispatch.translations._keywords import (
    NO_VALUE,
    check_order,
    clip_bounds,
    no_out,
    refused_value,
    ufunc_call,
)
from dispatch.translations._loops import key, loop
from dispatch.translations.paddle._common import (
    _DTYPES,
    NP_NAMES,
    WIDER,
    equal,
    is_int,
    not_equal,
    power,
)
from paddle import Tensor

from dispatch.engine import merge_tables

_NP = {t: np.dtype(n) for t, n in NP_NAMES.items() if n != "bfloat16"}


def _np_dtype(a: Any) -> np.dtype:
    return _NP[a.dtype] if isinstance(a, Tensor) else np.asarray(a).dtype


def _key(a: Any) -> Any:
    return key(a, _np_dtype)


@functools.cache
def _loop(uf: np.ufunc, keys: tuple) -> tuple:
    """paddle dtypes of the operands and of the result of numpy's loop for ``keys``."""
    return tuple(_DTYPES[d.name] for d in loop(uf.__name__, keys))


def _operand(a: Any, dt: Any, like: Any) -> Tensor:
    if isinstance(a, Tensor):
        return a if a.dtype == dt else a.astype(dt)
    return paddle.to_tensor(np.asarray(a), dtype=dt, place=like)


def _keeps_float_dtypes(uf: np.ufunc) -> tuple:
    """The float dtypes (as paddle's, None where not) whose operands numpy's single-output
    loop of ``uf`` computes and returns in that dtype."""
    out = []
    for name in ("float32", "float64"):
        dt = np.dtype(name)
        try:
            loop = uf.resolve_dtypes((dt,) * uf.nin + (None,) * uf.nout)
        except TypeError:
            loop = ()
        keeps = uf.nout == 1 and loop and loop[:-1] == (dt,) * uf.nin
        out.append(_DTYPES[name] if keeps else None)
    return tuple(out)


# (ufunc, dtype) pairs whose paddle kernel is missing: computed in WIDER[dtype]
_NARROW: set[tuple[str, Any]] = set()


def _ufunc(name: str, fn: Callable) -> Callable:
    """numpy's ufunc ``name`` computed by ``fn`` on operands of numpy's loop dtypes."""
    uf = getattr(np, name)
    nin = uf.nin
    # operands that are all float32 or all float64 tensors go straight to the kernel where
    # numpy's loop computes in their dtype (not float_power, which computes in float64)
    fast = _keeps_float_dtypes(uf)

    def call(*args: Any, **kwargs: Any) -> Any:
        if kwargs:  # numpy's ufunc keywords (out=, dtype=, order=...): honoured or refused
            out = kwargs.pop("out", None)
            # paddle has one layout: every order numpy knows gives the same tensors
            # (a pair of them for divmod, frexp, modf)
            check_order(kwargs.pop("order", None))
            return ufunc_call(name, "paddle", call, args, out, kwargs)
        if fast and len(args) == nin:
            first = args[0]
            if type(first) is Tensor:
                dt = first.dtype
                if (dt is fast[0] or dt is fast[1]) and all(
                        type(a) is Tensor and a.dtype is dt for a in args):
                    return fn(*args)
        if len(args) != nin:
            raise TypeError(f"{name} takes {nin} array argument(s), got {len(args)}")
        dts = _loop(uf, tuple(_key(a) for a in args))
        place = next((a.place for a in args if isinstance(a, Tensor)), None)
        ops = [_operand(a, dt, place) for a, dt in zip(args, dts, strict=False)]
        wider = WIDER.get(dts[0])
        if wider is not None and (name, dts[0]) in _NARROW:
            ops = [o.astype(wider) if o.dtype == dts[0] else o for o in ops]
        try:
            out = fn(*ops)
        except RuntimeError as err:
            # paddle registers no kernel of this function for small integers or
            # float16: compute in a wider dtype (cast back below) from now on
            if wider is None or "not registered" not in str(err):
                raise
            _NARROW.add((name, dts[0]))
            return call(*args)
        if isinstance(out, tuple):
            return tuple(o if o.dtype == d else o.astype(d)
                         for o, d in zip(out, dts[nin:], strict=True))
        dt = dts[nin]
        return out if out.dtype == dt else out.astype(dt)

    call.__name__ = call.__qualname__ = "_" + name
    return call


def _abs(x: Tensor) -> Tensor:
    # paddle's complex abs is accurate to float32 level only (|0.25j| is off by 1e-8)
    if x.is_complex():
        return paddle.hypot(paddle.real(x), paddle.imag(x))
    return paddle.abs(x)


def _exp(x: Tensor) -> Tensor:
    # paddle's complex exp is accurate to float32 level only (exp(0.25j) off by 5e-9)
    if x.is_complex():
        r = paddle.exp(paddle.real(x))
        i = paddle.imag(x)
        return paddle.complex(r * paddle.cos(i), r * paddle.sin(i))
    return paddle.exp(x)


def _exp2(x: Tensor) -> Tensor:
    return paddle.pow(paddle.full_like(x, 2), x)


def _cbrt(x: Tensor) -> Tensor:
    # pow(|x|, 1/3) is a few units of roundoff off; one Newton step on y^3 = |x| fixes it
    a = paddle.abs(x)
    y = power(a, 1.0 / 3.0)
    y = paddle.where(y > 0, y - (y * y * y - a) / (3.0 * y * y), y)
    return paddle.where(x == 0, x, paddle.sign(x) * y)  # a zero keeps its sign


def _fmod(x1: Tensor, x2: Tensor) -> Tensor:
    # C's fmod: the remainder takes the dividend's sign (paddle.remainder: the divisor's).
    # Of two positive operands the two agree, exactly (x1 - trunc(x1 / x2) * x2 cancels:
    # fmod(3, 1e-20) came out 0, not 1.86e-22)
    if x1.dtype in (paddle.float16, paddle.float32, paddle.float64):
        return paddle.copysign(paddle.remainder(paddle.abs(x1), paddle.abs(x2)), x1)
    # integers: numpy gives 0 for a zero divisor (paddle raises); no uint8/int8/int16 kernel
    zero = x2 == 0
    a, b = x1.astype("int64"), paddle.where(zero, paddle.ones_like(x2), x2).astype("int64")
    r = paddle.remainder(a, b)
    r = paddle.where((r != 0) & ((r < 0) != (a < 0)), r - b, r)
    return paddle.where(zero, paddle.zeros_like(r), r).astype(x1.dtype)


def _sign(x: Tensor) -> Tensor:
    if x.is_complex():
        a = paddle.abs(x)
        return paddle.where(equal(a, 0), paddle.zeros_like(x), x / paddle.cast(a, x.dtype))
    return paddle.sign(x)


def _positive(x: Tensor) -> Tensor:
    return x.clone()


def _rint(x: Tensor) -> Tensor:
    return paddle.round(x) if x.is_floating_point() else x.clone()


def _maximum(x1: Tensor, x2: Tensor) -> Tensor:
    # numpy's maximum/minimum propagate NaN from either side
    out = paddle.maximum(x1, x2)
    return _nan_either(x1, x2, out)


def _minimum(x1: Tensor, x2: Tensor) -> Tensor:
    return _nan_either(x1, x2, paddle.minimum(x1, x2))


def _nan_either(x1: Tensor, x2: Tensor, out: Tensor) -> Tensor:
    if not x1.is_floating_point():
        return out
    return paddle.where(paddle.isnan(x1), x1 + x2 * 0, paddle.where(paddle.isnan(x2),
                                                                    x2 + x1 * 0, out))


def _fmax(x1: Tensor, x2: Tensor) -> Tensor:
    if not x1.is_floating_point():
        return paddle.maximum(x1, x2)
    return paddle.fmax(x1, x2)


def _fmin(x1: Tensor, x2: Tensor) -> Tensor:
    if not x1.is_floating_point():
        return paddle.minimum(x1, x2)
    return paddle.fmin(x1, x2)


def _floor_divide(x1: Tensor, x2: Tensor) -> Tensor:
    if x1.is_floating_point():
        return paddle.floor(x1 / x2)
    # numpy's integer division by zero is 0 (paddle raises)
    safe = paddle.where(x2 == 0, paddle.ones_like(x2), x2)
    return paddle.where(x2 == 0, paddle.zeros_like(x1), paddle.floor_divide(x1, safe))


def _remainder(x1: Tensor, x2: Tensor) -> Tensor:
    if x1.is_floating_point():
        return paddle.remainder(x1, x2)
    safe = paddle.where(x2 == 0, paddle.ones_like(x2), x2)
    return paddle.where(x2 == 0, paddle.zeros_like(x1), paddle.remainder(x1, safe))


def _divmod(x1: Tensor, x2: Tensor) -> tuple:
    q, r = _floor_divide(x1, x2), _remainder(x1, x2)
    if q.is_floating_point():
        # numpy's quotient is (x1 - mod) / x2: NaN with the remainder (divmod(inf, 2)),
        # except for a zero divisor, where it is x1 / x2
        nan = paddle.logical_and(paddle.isnan(r), not_equal(x2, 0))
        q = paddle.where(nan, paddle.full_like(q, float("nan")), q)
    return q, r


def _power(x1: Tensor, x2: Tensor) -> Tensor:
    if is_int(x1) and is_int(x2) and x2.size and bool(paddle.any(x2 < 0)):
        raise ValueError("power: Integers to negative integer powers are not allowed.")
    return paddle.pow(x1, x2)


def _logaddexp2(x1: Tensor, x2: Tensor) -> Tensor:
    ln2 = math.log(2.0)
    return paddle.logaddexp(x1 * ln2, x2 * ln2) / ln2


def _sinc(x: Tensor) -> Tensor:
    # paddle.sinc has float kernels only: integers in float64, numpy's float for them
    return paddle.sinc(x if x.is_floating_point() or x.is_complex() else x.astype("float64"))


def _heaviside(x1: Tensor, x2: Tensor) -> Tensor:
    # numpy's heaviside(nan, h) is nan; paddle's is 1
    return paddle.where(paddle.isnan(x1), x1, paddle.heaviside(x1, x2))


def _reciprocal(x: Tensor) -> Tensor:
    if x.is_floating_point() or x.is_complex():
        return paddle.reciprocal(x)
    # numpy's integer reciprocal: 1 // x (0 for |x| > 1)
    return _floor_divide(paddle.ones_like(x), x)


def _scaled(x: Tensor, factor: float) -> Tensor:
    # a product with a tensor: paddle's product with a Python number is its scale
    # kernel, which adds a zero bias and so turns -0.0 into +0.0
    if not (x.is_floating_point() or x.is_complex()):
        return x * factor  # an integer: paddle's promotion, as before
    return x * paddle.full([], factor, x.dtype)


def _negative(x: Tensor) -> Tensor:
    # paddle.neg is the scale kernel too (numpy's negative(0.0) is -0.0)
    return _scaled(x, -1) if x.is_floating_point() or x.is_complex() else paddle.neg(x)


def _deg2rad(x: Tensor) -> Tensor:
    return _scaled(x, math.pi / 180.0)


def _rad2deg(x: Tensor) -> Tensor:
    return _scaled(x, 180.0 / math.pi)


def _nextafter(x1: Tensor, x2: Tensor) -> Tensor:
    """paddle's ``nextafter``; float16 by its bits: paddle has no float16 kernel, and
    the step of a wider dtype, cast back, is no float16 step (1.0 stayed 1.0)."""
    if x1.dtype != paddle.float16:
        return paddle.nextafter(x1, x2)
    # the choices in float32 (paddle's float16 kernels are few): every value is a
    # float16, so each comparison and the cast back are exact
    a, b = paddle.broadcast_tensors([x1.astype("float32"), x2.astype("float32")])
    # away from zero the bits (as int16, for either sign) grow by one, toward it shrink
    away = ((b > a) == (a > 0)).astype("int16")
    bits = a.astype("float16").view(paddle.int16) + (away * 2 - 1)
    moved = bits.view(paddle.float16).astype("float32")
    # from a zero: the smallest subnormal, signed as the direction; numpy's float16
    # loop returns x1 where the two are equal (+0.0 toward -0.0)
    tiny = paddle.full_like(a, 2.0 ** -24)
    moved = paddle.where(a == 0, paddle.where(b > 0, tiny, -tiny), moved)
    out = paddle.where(a == b, a, moved)
    return paddle.where(paddle.isnan(a) | paddle.isnan(b), a + b, out).astype("float16")


def _spacing(x: Tensor) -> Tensor:
    # float16: the steps from _nextafter, their differences in float32 (exact); numpy's
    # float16 loop steps toward +inf for either sign (-2.0: +9.766e-04), its wider
    # loops away from zero
    dt = x.dtype
    if dt == paddle.float16:
        up = _nextafter(x, paddle.full(x.shape, math.inf, "float32")).astype("float32")
        a = x.astype("float32")
        return paddle.where(paddle.isinf(a), paddle.full_like(a, math.nan), up - a).astype(dt)
    up = paddle.nextafter(x, paddle.full_like(x, math.inf))
    down = paddle.nextafter(x, paddle.full_like(x, -math.inf))
    return paddle.where(x < 0, down - x, up - x)


def _logical(fn: Callable) -> Callable:
    def logical(*xs: Tensor) -> Tensor:
        return fn(*(x if x.dtype == paddle.bool else x != 0 for x in xs))

    return logical


def _isneginf(x: Tensor) -> Tensor:
    return paddle.isinf(x) & (x < 0)


def _isposinf(x: Tensor) -> Tensor:
    return paddle.isinf(x) & (x > 0)


def _ldexp(x1: Tensor, x2: Tensor) -> Tensor:
    return x1 * paddle.pow(paddle.full_like(x1, 2.0), x2.astype(x1.dtype))


def _frexp(x: Tensor) -> tuple:
    if x.dtype is paddle.float16:  # paddle's frexp takes float32 and float64 only
        m, e = _frexp(x.astype("float32"))
        return m.astype(x.dtype), e
    m, e = paddle.frexp(x)
    # numpy's exponent of nan and inf is 0 (paddle: the int32 minimum)
    return m, paddle.where(paddle.isfinite(x), e.astype("int32"), paddle.zeros_like(x,
                                                                                  "int32"))


def _modf(x: Tensor) -> tuple:
    whole = paddle.trunc(x)
    frac = paddle.where(paddle.isinf(x), paddle.zeros_like(x) * paddle.sign(x), x - whole)
    return frac, whole


def _copysign(x1: Tensor, x2: Tensor) -> Tensor:
    return paddle.copysign(x1, x2)


def _signbit(x: Tensor) -> Tensor:
    return paddle.signbit(x)


def _log1p(x: Tensor) -> Tensor:
    # paddle's complex log1p adds 1 first, which turns the imaginary -0.0 of a point on
    # the cut (x < -1) into +0.0: numpy's side of the cut by conjugation, as for jax
    if not x.is_complex():
        return paddle.log1p(x)
    mirrored = paddle.conj(paddle.log1p(paddle.conj(x)))
    return paddle.where(paddle.signbit(paddle.imag(x)), mirrored, paddle.log1p(x))


def _shift(fn: Callable) -> Callable:
    def shift(x1: Tensor, x2: Tensor) -> Tensor:
        return fn(x1, x2)

    return shift


# numpy ufunc name -> paddle's kernel (numpy's loop dtypes in and out, see _ufunc)
_KERNELS: dict[str, Callable] = {
    "absolute": _abs, "fabs": paddle.abs, "negative": _negative, "positive": _positive,
    "sign": _sign, "sqrt": paddle.sqrt, "square": paddle.square, "cbrt": _cbrt,
    "exp": _exp, "exp2": _exp2, "expm1": paddle.expm1, "log": paddle.log,
    "log2": paddle.log2, "log10": paddle.log10, "log1p": _log1p, "sin": paddle.sin,
    "cos": paddle.cos, "tan": paddle.tan, "arcsin": paddle.asin, "arccos": paddle.acos,
    "arctan": paddle.atan, "sinh": paddle.sinh, "cosh": paddle.cosh, "tanh": paddle.tanh,
    "arcsinh": paddle.asinh, "arccosh": paddle.acosh, "arctanh": paddle.atanh,
    "floor": paddle.floor, "ceil": paddle.ceil, "trunc": paddle.trunc, "rint": _rint,
    "isnan": paddle.isnan, "isinf": paddle.isinf, "isfinite": paddle.isfinite,
    "signbit": _signbit, "reciprocal": _reciprocal,
    "logical_not": _logical(paddle.logical_not), "invert": paddle.bitwise_not,
    "deg2rad": _deg2rad, "rad2deg": _rad2deg, "radians": _deg2rad, "degrees": _rad2deg,
    "conjugate": paddle.conj, "spacing": _spacing, "frexp": _frexp, "modf": _modf,
    "add": paddle.add, "subtract": paddle.subtract, "multiply": paddle.multiply,
    "divide": paddle.divide, "floor_divide": _floor_divide, "remainder": _remainder,
    "fmod": _fmod, "divmod": _divmod, "power": _power, "float_power": _power,
    "maximum": _maximum, "minimum": _minimum, "fmax": _fmax, "fmin": _fmin,
    "hypot": paddle.hypot, "arctan2": paddle.atan2, "copysign": _copysign,
    "nextafter": _nextafter, "logaddexp": paddle.logaddexp, "logaddexp2": _logaddexp2,
    "heaviside": _heaviside, "equal": equal, "not_equal": not_equal,
    "less": paddle.less_than, "less_equal": paddle.less_equal,
    "greater": paddle.greater_than, "greater_equal": paddle.greater_equal,
    "logical_and": _logical(paddle.logical_and), "logical_or": _logical(paddle.logical_or),
    "logical_xor": _logical(paddle.logical_xor), "bitwise_and": paddle.bitwise_and,
    "bitwise_or": paddle.bitwise_or, "bitwise_xor": paddle.bitwise_xor,
    "left_shift": _shift(paddle.bitwise_left_shift),
    "right_shift": _shift(paddle.bitwise_right_shift), "gcd": paddle.gcd, "lcm": paddle.lcm,
    "ldexp": _ldexp,
}
_UFUNCS = {name: _ufunc(name, fn) for name, fn in _KERNELS.items()}


def _native_first(name: str, kernel: Callable) -> Callable:
    """The ufunc ``name`` with paddle's kernel called first on two tensors: paddle
    refuses operands of two dtypes where numpy would promote them (TypeError), and
    computes in numpy's dtype otherwise, so only a refusal takes the general path
    (reading dtypes costs as much as the kernel on small tensors)."""
    general = _UFUNCS[name]

    def call(x1: Any, x2: Any, /) -> Any:
        if type(x1) is Tensor and type(x2) is Tensor:
            try:
                return kernel(x1, x2)
            except (TypeError, ValueError, RuntimeError):
                pass
        return general(x1, x2)

    call.__name__ = call.__qualname__ = "_" + name
    return call


# the operators of two tensors: the kernels of paddle.add, paddle.subtract and
# paddle.multiply, reached without those functions' Python layer (about 0.6 us of a
# 2.6 us add of two 4x4 tensors); the same dtypes, values and refusals on every pair of
# dtypes, 0-d and broadcast operands included (720 cases each, checked)
for _name, _kernel in (("add", operator.add), ("subtract", operator.sub),
                       ("multiply", operator.mul)):
    _UFUNCS[_name] = _native_first(_name, _kernel)


def _round(a: Tensor, decimals: int = 0, out: Any = None) -> Tensor:
    # paddle.round rounds half to even, as numpy does; numpy scales by 10**decimals
    if out is not None:
        no_out("round", "paddle", out)
    if not (a.is_floating_point() or a.is_complex()):
        return a.clone() if decimals >= 0 else _round(a.astype("float64"), decimals).astype(
            a.dtype)
    if decimals == 0:
        return paddle.round(a)
    scale = 10.0**decimals
    return paddle.round(a * scale) / scale


def _fix(x: Tensor, out: Any = None) -> Tensor:
    no_out("fix", "paddle", out)
    return paddle.trunc(x) if x.is_floating_point() else x.clone()


def _array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    a1, a2 = (a if isinstance(a, Tensor) else paddle.to_tensor(np.asarray(a)) for a in (a1, a2))
    if list(a1.shape) != list(a2.shape):
        return False
    same = _UFUNCS["equal"](a1, a2)
    if equal_nan and (a1.is_floating_point() or a1.is_complex()):
        same = same | (_UFUNCS["isnan"](a1) & _UFUNCS["isnan"](a2))
    return bool(paddle.all(same))


def _real(x: Tensor) -> Tensor:
    return paddle.real(x) if x.is_complex() else x


def _imag(x: Tensor) -> Tensor:
    return paddle.imag(x) if x.is_complex() else paddle.zeros_like(x)


def _angle(z: Tensor, deg: bool = False) -> Tensor:
    if not (z.is_floating_point() or z.is_complex()):
        z = z.astype("float64")
    out = paddle.angle(z)
    return out * (180.0 / math.pi) if deg else out


def _clip(a: Tensor, a_min: Any = NO_VALUE, a_max: Any = NO_VALUE, out: Any = None, *,
          min: Any = NO_VALUE, max: Any = NO_VALUE) -> Tensor:
    no_out("clip", "paddle", out)
    lo, hi = clip_bounds(a_min, a_max, min, max)
    out_ = a
    if lo is not None:
        out_ = _UFUNCS["maximum"](out_, lo)
    if hi is not None:
        out_ = _UFUNCS["minimum"](out_, hi)
    return out_.clone() if out_ is a else out_


def _nan_to_num(x: Tensor, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
                neginf: float | None = None) -> Tensor:
    if not copy:
        raise refused_value("nan_to_num", "paddle", "copy", False, "is not supported: numpy "
                      "writes the result into x, and do never writes into an argument; "
                      "use the result instead")
    if not (x.is_floating_point() or x.is_complex()):
        return x.clone()
    if x.is_complex():
        return paddle.complex(_nan_to_num(paddle.real(x), nan=nan, posinf=posinf,
                                          neginf=neginf),
                              _nan_to_num(paddle.imag(x), nan=nan, posinf=posinf,
                                          neginf=neginf))
    info = np.finfo(NP_NAMES[x.dtype])
    return paddle.nan_to_num(x, nan=nan, posinf=info.max if posinf is None else posinf,
                             neginf=info.min if neginf is None else neginf)


TABLE = merge_tables(
    _UFUNCS,
    {name: _UFUNCS[target] for name, target in UFUNC_SPELLINGS.items()},
    {
        "round": _round,
        "sinc": _sinc,
        "fix": _fix,
        "array_equal": _array_equal,
        "around": _round,
        "real": _real,
        "imag": _imag,
        "angle": _angle,
        "clip": _clip,
        "nan_to_num": _nan_to_num,
    },
    names=("ufuncs", "spellings", "adapters"),
)
