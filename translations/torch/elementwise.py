"""torch: elementwise functions, comparisons and ``clip``.

Where torch's function of the same (or a close) name already has numpy's
signature and behaviour, the entry names it and ``do`` calls it with no wrapper
in between. Arithmetic that stays native (``add``, ``divide``...) follows torch's
type promotion: ``int64 tensor + 1.5`` is float32, where numpy gives float64. The
adapters cover what torch does differently: Python scalars refused by functions
that take tensors only, integer inputs of float-only kernels, NaN handling
(``sign``, ``heaviside``), integer division by zero and negative integer powers.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from dispatch.translations._adapters import real_float_entries
from dispatch.translations._composed.elementwise import glu as _composed_glu
from dispatch.translations._composed.elementwise import half_nextafter, half_spacing
from dispatch.translations._composed.elementwise import hard_shrink as _composed_hard_shrink
from dispatch.translations._composed.elementwise import soft_shrink as _composed_soft_shrink
from dispatch.translations._keywords import NO_VALUE, clip_bounds, refused_value, ufunc_call
from dispatch.translations._loops import in_loop, is_bool, key, loop
from dispatch.translations.torch._common import _DTYPES, _inexact, _promote, _tensor
from torch import Tensor

from dispatch.engine import kernels, merge_tables


def _complex(real: Any, imag: Any) -> Tensor:
    # torch.complex wants two floating tensors of the same dtype
    real, imag = _promote(real, imag)
    real, imag = _inexact(real), _inexact(imag)
    return torch.complex(real, imag)


def _binary(path: str, floats: bool = False) -> Callable:
    fn = _lookup(path)

    def binary(x1: Any, x2: Any, /, **kwargs: Any) -> Tensor:
        # the torch function takes tensors only; numpy takes Python scalars and lists too
        if not isinstance(x1, Tensor):
            x1 = _tensor(x1, x2 if isinstance(x2, Tensor) else None)
        if not isinstance(x2, Tensor):
            x2 = _tensor(x2, x1)
        if floats:  # torch has float kernels only; numpy computes integers in floats
            x1, x2 = _inexact(x1), _inexact(x2)
        return fn(x1, x2, **kwargs)

    binary.__name__ = binary.__qualname__ = "_" + path.rsplit(".", 1)[-1]
    return binary


def _lookup(path: str) -> Callable:
    obj: Any = torch
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _same_dtype(path: str) -> Callable:
    fn = _lookup(path)

    def same_dtype(x1: Any, x2: Any, /) -> Tensor:
        # the torch function needs both operands as tensors of one float dtype (numpy
        # computes integers in floats)
        return fn(*(_inexact(x) for x in _promote(x1, x2)))

    same_dtype.__name__ = same_dtype.__qualname__ = "_" + path
    return same_dtype


_nextafter_kernel = _same_dtype("nextafter")


def _nextafter(x1: Any, x2: Any, /) -> Tensor:
    out = _nextafter_kernel(x1, x2)
    return half_nextafter(x1, x2, out) if out.dtype is torch.float16 else out


def _sign(x: Tensor) -> Tensor:
    # torch.sign(nan) is 0 where numpy gives nan; torch.sgn is numpy's sign for complex
    out = torch.sgn(x)
    return torch.where(x.isnan(), x, out) if x.is_floating_point() else out


def _cbrt(x: Tensor) -> Tensor:
    # torch has no cube root
    x = _inexact(x)
    # a zero is itself, its sign kept (numpy's cbrt(-0.0) is -0.0)
    return torch.where(x == 0, x, torch.sgn(x) * x.abs().pow(1.0 / 3.0))


def _imag(val: Tensor) -> Tensor:
    # torch.imag refuses real tensors; numpy returns zeros
    return val.imag if val.is_complex() else torch.zeros_like(val)


def _positive(x: Tensor) -> Tensor:
    # torch.positive returns its input itself; numpy returns a new array
    return torch.positive(x).clone()


def _conj(x: Tensor) -> Tensor:
    # torch.conj returns the input (real) or a lazy view of its memory (complex);
    # numpy returns a new array
    return torch.conj_physical(x) if x.is_complex() else x.clone()


def _angle(z: Tensor, deg: bool = False) -> Tensor:
    out = torch.angle(z)
    return torch.rad2deg(out) if deg else out


def _round(a: Tensor, decimals: int = 0) -> Tensor:
    # torch.round takes ``decimals`` by keyword only and has no integer or complex kernel
    # with decimals; numpy keeps integers (rounded to tens... for negative decimals)
    if a.is_complex():
        return torch.complex(_round(a.real, decimals), _round(a.imag, decimals))
    if not a.is_floating_point():
        if decimals >= 0:
            return a.clone()
        f = 10 ** (-decimals)
        return (torch.round(a.to(torch.float64) / f) * f).to(a.dtype)
    return torch.round(a, decimals=decimals) if decimals else torch.round(a)


def _rint(x: Tensor) -> Tensor:
    # numpy's rint returns floats for integer input (the float width is the library's)
    if x.is_floating_point() or x.is_complex():
        return _round(x)
    return x.to(torch.get_default_dtype())


def _reciprocal(x: Tensor) -> Tensor:
    # numpy keeps integers integral (1 // x, truncated); torch returns floats
    if x.is_floating_point() or x.is_complex():
        return torch.reciprocal(x)
    return torch.div(torch.ones_like(x), x, rounding_mode="trunc")


def _nan_to_num(x: Tensor, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
                neginf: float | None = None) -> Tensor:
    if not copy:  # numpy's copy=False writes into x
        raise refused_value("nan_to_num", "torch", "copy", False, "is not supported: numpy "
                      "writes the result into x, and do never writes into an argument; "
                      "use the result instead")
    return torch.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


def _comparison(name: str, op: Callable, fn: Callable, mirrored: Callable) -> Callable:
    """numpy's comparison ufunc ``name``: the operator ``op`` (torch.eq and friends
    reject a Python scalar first; the operators take either side, but no keywords)."""

    def compare(x1: Any, x2: Any, /, out: Any = None, **kwargs: Any) -> Any:
        if out is None and not kwargs:
            return op(x1, x2)
        if kwargs:  # numpy's ufunc keywords, honoured or refused; then out= written
            result = ufunc_call(name, "torch", op, (x1, x2), None, kwargs)
            return result if out is None else out.copy_(result)  # bool: any out dtype
        # torch's own function writes into out (a Python scalar first: the mirrored one)
        return fn(x1, x2, out=out) if isinstance(x1, Tensor) else mirrored(x2, x1, out=out)

    compare.__name__ = compare.__qualname__ = "_" + name
    return compare


def _spacing(x: Tensor) -> Tensor:
    # torch has no spacing; the distance to the next float away from zero
    x = _inexact(x)
    if x.dtype is torch.float16:
        return half_spacing(x)
    away = torch.where(x < 0, -math.inf, math.inf).to(x.dtype)
    return torch.nextafter(x, away) - x


_NEGATIVE_POWER = "Integers to negative integer powers are not allowed."


def _is_int(x: Any) -> bool:
    if isinstance(x, Tensor):
        return not (x.is_floating_point() or x.is_complex() or x.dtype is torch.bool)
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _power(x1: Any, x2: Any, /) -> Tensor:
    if _has_bool(x1, x2):  # torch: bool ** True is bool, numpy's loop: int8
        return _in_numpys_loop("power", _power, x1, x2)
    # torch gives 0 (or garbage) for an integer to a negative integer power; numpy raises
    # (read from the values: one host read, for integer exponents only)
    if _is_int(x2) and _is_int(x1) and bool((x2 < 0).any() if isinstance(x2, Tensor) else x2 < 0):
        raise ValueError(_NEGATIVE_POWER)
    if not isinstance(x1, Tensor):
        x1 = _tensor(x1, x2)
    return torch.pow(x1, x2)


def _int_division(fn: Callable) -> Callable:
    def division(x1: Any, x2: Any, /) -> Tensor:
        if not (_is_int(x1) and _is_int(x2)):
            return fn(x1, x2)
        # torch raises ZeroDivisionError for an integer zero divisor; numpy gives 0
        # (and a RuntimeWarning): no host read, the zero slots are replaced
        x1, x2 = _promote(x1, x2)
        zero = x2 == 0
        # r is a new tensor: filling it in place writes into no input
        return fn(x1, x2.masked_fill(zero, 1)).masked_fill_(zero, 0)

    division.__name__ = division.__qualname__ = "_" + getattr(fn, "__name__", "division")
    return division


_NUMPY_DTYPE = {
    t: np.dtype(n) for n, t in _DTYPES.items() if isinstance(n, str) and n != "bfloat16"
}


def _np_dtype(x: Any) -> np.dtype:
    return _NUMPY_DTYPE[x.dtype] if isinstance(x, Tensor) else np.asarray(x).dtype


def _has_bool(x1: Any, x2: Any) -> bool:
    return is_bool(x1, torch.bool) or is_bool(x2, torch.bool)


def _in_numpys_loop(name: str, fn: Callable, x1: Any, x2: Any) -> Tensor:
    """``fn`` of the operands cast to numpy's loop for their dtypes (numpy's TypeError
    where it has none: ``bool - bool``); a boolean loop (``matmul``) in int64."""
    like = x1 if isinstance(x1, Tensor) else x2
    (a, b), out = in_loop(name, (x1, x2), _np_dtype, lambda x, d: _tensor(x, like).to(_DTYPES[d]))
    if out.kind == "b":
        return fn(a.to(torch.int64), b.to(torch.int64)) != 0
    return fn(a, b)


def _bool_operands(name: str, fn: Callable) -> Callable:
    """``fn``; where torch refuses a boolean operand (it has no boolean kernel of
    subtraction, division, remainders, shifts or products, and an integer divided by
    False raises), numpy's call: the operands in numpy's loop dtypes (int8 for two
    booleans, the other operand's dtype beside one). No cost until torch refuses."""

    def call(x1: Any, x2: Any, /, **kwargs: Any) -> Tensor:
        try:
            return fn(x1, x2, **kwargs)
        except (RuntimeError, NotImplementedError) as err:
            if kwargs:
                raise
            try:  # numpy's TypeError where numpy has no loop either (bitwise of floats)
                loop(name, (key(x1, _np_dtype), key(x2, _np_dtype)))
            except TypeError as refused:
                raise refused from err
            if not _has_bool(x1, x2):
                raise
        return _in_numpys_loop(name, fn, x1, x2)

    call.__name__ = call.__qualname__ = "_" + name
    return call


def _native_first(name: str, fn: Callable, *types: tuple[type, ...]) -> Callable:
    """:func:`_bool_operands` of torch's own ``fn``, which ``do`` calls directly for
    positional ``types`` (the adapter only answers where torch refuses)."""
    return kernels(_bool_operands(name, fn), dict.fromkeys(types, fn))


_TENSORS = (Tensor, Tensor)


_LEFT_SHIFT = _native_first("left_shift", torch.bitwise_left_shift, _TENSORS)
_RIGHT_SHIFT = _native_first("right_shift", torch.bitwise_right_shift, _TENSORS)


def _heaviside(x1: Any, x2: Any) -> Tensor:
    # numpy's heaviside is a float ufunc (integers give floats) and keeps NaN, where
    # torch's gives 0 for NaN
    x1, x2 = (_inexact(x) for x in _promote(x1, x2))
    return torch.where(x1.isnan(), x1, torch.heaviside(x1, x2))


def _ldexp(x1: Any, x2: Any) -> Tensor:
    if _has_bool(x1, x2):  # numpy's loop: float16 of a boolean, no float exponent
        return _in_numpys_loop("ldexp", _ldexp, x1, x2)
    x1, x2 = _tensor(x1, x2 if isinstance(x2, Tensor) else None), _tensor(x2, None)
    return torch.ldexp(_inexact(x1), x2.to(x1.device))


def _clip(a: Tensor, a_min: Any = NO_VALUE, a_max: Any = NO_VALUE, *, min: Any = NO_VALUE,
          max: Any = NO_VALUE) -> Tensor:
    # torch.clip takes two numbers or two tensors, not one of each
    lo, hi = clip_bounds(a_min, a_max, min, max)
    if lo is None and hi is None:  # numpy 2 clips by nothing, torch.clip refuses it
        return torch.clone(torch.as_tensor(a))
    if isinstance(lo, Tensor) != isinstance(hi, Tensor) and lo is not None and hi is not None:
        lo, hi = _tensor(lo, a), _tensor(hi, a)
    elif isinstance(lo, (np.ndarray, list)) or isinstance(hi, (np.ndarray, list)):
        lo = None if lo is None else _tensor(lo, a)
        hi = None if hi is None else _tensor(hi, a)
    return torch.clip(a, lo, hi)


def _array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    a1, a2 = _promote(a1, a2)
    if a1.shape != a2.shape:
        return False
    same = a1 == a2
    if equal_nan and (a1.is_floating_point() or a1.is_complex()):
        same = same | (a1.isnan() & a2.isnan())
    return bool(same.all())


def _isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> Tensor:
    # torch.isclose needs two tensors of one dtype
    a, b = _promote(a, b)
    return torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
              equal_nan: bool = False) -> bool:
    return bool(_isclose(a, b, rtol, atol, equal_nan).all())


def _gelu(x: Tensor, approximate: bool = False) -> Tensor:
    return F.gelu(x, approximate="tanh" if approximate else "none")


_FLOAT_DTYPES = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})
# torch's C kernels behind torch.nn.functional's Python wrappers (those add a
# __torch_function__ test and an ``inplace`` branch: a third of a small call's time)
_nn = torch._C._nn


def _softmax_like(fn: Callable, name: str) -> Callable:
    # the whole entry (no wrapper of real_float_entries around it): a float tensor and
    # an int axis take torch's kernel, anything else the composed op
    from dispatch.translations._composed import elementwise

    composed_op = getattr(elementwise, name)

    def along(x: Any, axis: Any = -1) -> Any:
        if isinstance(x, Tensor) and x.dtype in _FLOAT_DTYPES and type(axis) is int:
            return fn(x, axis)
        return composed_op(x, axis)

    along.__name__ = along.__qualname__ = name
    along.__doc__ = composed_op.__doc__
    return along


def _glu(x: Any, axis: Any = -1) -> Any:
    """Gated linear unit ``a * sigmoid(b)`` of the two halves of ``x`` along ``axis``:
    torch's kernel on a float tensor whose axis has an even length, the composed
    ``glu`` otherwise (integers, Python scalars, and its ValueError for an odd length).

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> do("glu", torch.tensor([1.0, 2.0, 0.0, 100.0]))
    tensor([0.5000, 2.0000])
    """
    if isinstance(x, Tensor) and x.dtype in _FLOAT_DTYPES and type(axis) is int \
            and x.ndim and -x.ndim <= axis < x.ndim and not x.shape[axis] % 2:
        return _nn.glu(x, axis)
    return _composed_glu(x, axis)


# the ML ops of keras.ops (docs/vocabulary.md, "ML ops"): torch's kernels on float
# tensors; integers, complex numbers and Python scalars take the composed path
_ML_OPS = real_float_entries(
    {
        "relu": torch.relu,  # torch's builtins, not their Python wrappers in F
        "relu6": _nn.relu6,
        "gelu": _gelu,
        "silu": _nn.silu,
        "elu": lambda x, alpha=1.0: _nn.elu(x, alpha),
        "selu": torch.selu,
        "leaky_relu": lambda x, negative_slope=0.2: _nn.leaky_relu(x, negative_slope),
        "log_sigmoid": F.logsigmoid,
        "hard_sigmoid": _nn.hardsigmoid,
        "hard_silu": _nn.hardswish,
        "softsign": F.softsign,
        "rsqrt": torch.rsqrt,
    },
    Tensor,
    _FLOAT_DTYPES,
)
_ML_OPS.update({
    "softmax": _softmax_like(torch.softmax, "softmax"),
    "log_softmax": _softmax_like(torch.log_softmax, "log_softmax"),
    "glu": _glu,
})
_glu.__name__ = _glu.__qualname__ = "glu"


def _hard_shrink(x: Any, threshold: float = 0.5) -> Any:
    """``x`` where ``|x| > threshold``, 0 elsewhere: torch's kernel on a float tensor,
    the composed ``hard_shrink`` otherwise (a whole entry: no wrapper around a wrapper).

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> do("hard_shrink", torch.tensor([-1.0, 0.25, 2.0]))
    tensor([-1.,  0.,  2.])
    """
    if isinstance(x, Tensor) and x.dtype in _FLOAT_DTYPES:
        # the default is torch's too: not passed, torch parses no Scalar
        return torch.hardshrink(x) if threshold == 0.5 else torch.hardshrink(x, threshold)
    return _composed_hard_shrink(x, threshold)


def _soft_shrink(x: Any, threshold: float = 0.5) -> Any:
    """``x`` moved towards 0 by ``threshold``, 0 within it: torch's kernel on a float
    tensor (for a threshold of at least 0, which torch refuses below), the composed
    ``soft_shrink`` otherwise.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> do("soft_shrink", torch.tensor([-1.0, 0.25, 2.0]))
    tensor([-0.5000,  0.0000,  1.5000])
    """
    if isinstance(x, Tensor) and x.dtype in _FLOAT_DTYPES and threshold >= 0:
        return _nn.softshrink(x) if threshold == 0.5 else _nn.softshrink(x, threshold)
    return _composed_soft_shrink(x, threshold)


def _sparsemax(x: Tensor, axis: int = -1) -> Tensor:
    # the composed formula (torch has no sparsemax kernel) on torch's operations
    zs = torch.sort(x, dim=axis, descending=True).values
    cs = zs.cumsum(axis)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    r = torch.arange(1, x.shape[axis] + 1, dtype=x.dtype, device=x.device).view(shape)
    support = 1.0 + r * zs > cs
    k = support.sum(axis, keepdim=True).to(x.dtype)
    tau = (torch.where(support, zs, 0.0).sum(axis, keepdim=True) - 1.0) / k
    return torch.clamp(x - tau, min=0.0)


# the later ML ops (docs/vocabulary.md, "ML ops"): torch's kernels where torch has
# them (hardtanh, hardshrink, softshrink, tanhshrink), the composed formulas written
# with torch's operations where it has none
_MORE_ML_OPS = real_float_entries(
    {
        "hard_tanh": F.hardtanh,
        "tanh_shrink": F.tanhshrink,
        "sparse_plus": lambda x: torch.where(x >= 1.0, x, 0.25 * (x.clamp(-1.0, 1.0) + 1.0)
                                             .square()),
        "sparse_sigmoid": lambda x: 0.5 * (x.clamp(-1.0, 1.0) + 1.0),
        "squareplus": lambda x, b=4: 0.5 * (x + torch.sqrt(x * x + b)),
        "sparsemax": _sparsemax,
    },
    Tensor,
    frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64}),
)

TABLE = merge_tables(_ML_OPS, {
    # whole entries (their own dtype test): hard_shrink, soft_shrink
    "hard_shrink": _hard_shrink,
    "soft_shrink": _soft_shrink,
    "complex": _complex,
    # unary: torch's function of the same or a close name where it matches
    "abs": "abs",
    "absolute": "abs",
    "negative": "negative",
    "positive": _positive,
    "sign": _sign,
    "sqrt": "sqrt",
    "cbrt": _cbrt,
    "square": "square",
    "exp": "exp",
    "exp2": "exp2",
    "expm1": "expm1",
    "log": "log",
    "log2": "log2",
    "log10": "log10",
    "log1p": "log1p",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "arcsin": "arcsin",
    "arccos": "arccos",
    "arctan": "arctan",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "arcsinh": "arcsinh",
    "arccosh": "arccosh",
    "arctanh": "arctanh",
    "floor": "floor",
    "ceil": "ceil",
    "trunc": "trunc",
    "rint": _rint,
    "round": _round,
    "around": _round,
    "fix": "fix",
    "isnan": "isnan",
    "isinf": "isinf",
    "isfinite": "isfinite",
    "isneginf": "isneginf",
    "isposinf": "isposinf",
    "signbit": "signbit",
    "real": "real",
    "imag": _imag,
    "conj": _conj,
    "conjugate": _conj,
    "angle": _angle,
    "reciprocal": _reciprocal,
    "logical_not": "logical_not",
    "invert": "bitwise_not",
    "bitwise_not": "bitwise_not",
    "bitwise_invert": "bitwise_not",
    "deg2rad": "deg2rad",
    "rad2deg": "rad2deg",
    "degrees": "rad2deg",
    "radians": "deg2rad",
    "sinc": "sinc",
    "nan_to_num": _nan_to_num,
    "i0": "i0",
    "spacing": _spacing,
    # binary: these torch functions take Python scalars on either side
    "add": "add",
    "subtract": _native_first("subtract", torch.subtract, _TENSORS, (Tensor, int),
                              (Tensor, float)),
    "multiply": "multiply",
    "divide": "divide",
    "true_divide": "true_divide",
    "floor_divide": _bool_operands("floor_divide", _int_division(torch.floor_divide)),
    "power": _power,
    "pow": _power,
    "float_power": "float_power",
    "mod": _bool_operands("remainder", _int_division(torch.remainder)),
    "remainder": _bool_operands("remainder", _int_division(torch.remainder)),
    "bitwise_and": _native_first("bitwise_and", torch.bitwise_and, _TENSORS),
    "bitwise_or": _native_first("bitwise_or", torch.bitwise_or, _TENSORS),
    "bitwise_xor": _native_first("bitwise_xor", torch.bitwise_xor, _TENSORS),
    "left_shift": _LEFT_SHIFT,
    "right_shift": _RIGHT_SHIFT,
    "bitwise_left_shift": _LEFT_SHIFT,
    "bitwise_right_shift": _RIGHT_SHIFT,
    "equal": _comparison("equal", operator.eq, torch.eq, torch.eq),
    "not_equal": _comparison("not_equal", operator.ne, torch.ne, torch.ne),
    "less": _comparison("less", operator.lt, torch.lt, torch.gt),
    "less_equal": _comparison("less_equal", operator.le, torch.le, torch.ge),
    "greater": _comparison("greater", operator.gt, torch.gt, torch.lt),
    "greater_equal": _comparison("greater_equal", operator.ge, torch.ge, torch.le),
    # these torch functions take tensors only
    "fmod": _bool_operands("fmod", _int_division(_binary("fmod"))),
    "maximum": _binary("maximum"),
    "minimum": _binary("minimum"),
    "fmax": _binary("fmax"),
    "fmin": _binary("fmin"),
    "arctan2": _binary("arctan2"),
    "atan2": _binary("arctan2"),
    "hypot": _binary("hypot", floats=True),
    "logaddexp": _binary("logaddexp", floats=True),
    "logaddexp2": _binary("logaddexp2", floats=True),
    "copysign": _binary("copysign"),
    "gcd": _bool_operands("gcd", _binary("gcd")),
    "lcm": _bool_operands("lcm", _binary("lcm")),
    "logical_and": _binary("logical_and"),
    "logical_or": _binary("logical_or"),
    "logical_xor": _binary("logical_xor"),
    "nextafter": _nextafter,
    "heaviside": _heaviside,
    "ldexp": _ldexp,
    "clip": _clip,
    "isclose": _isclose,
    "allclose": _allclose,
    "array_equal": _array_equal,
}, _MORE_ML_OPS,
    # keras's names of two activations: the same entries (docs/vocabulary.md)
    {"swish": _ML_OPS["silu"], "hard_swish": _ML_OPS["hard_silu"]},
    names=("ML ops", "elementwise", "more ML ops", "keras aliases"))
