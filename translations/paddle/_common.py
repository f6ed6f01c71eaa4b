"""Helpers shared by the paddle topic modules: dtypes, scalars and promotion.

Private to the package: no ``TABLE`` here. Adapters read numpy-style dtype names
through :func:`_dtype` and turn Python scalars and numpy constants into tensors with
:func:`_tensor`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import paddle
from paddle import Tensor

_NAMES = (
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
    "float64", "complex64", "complex128",
)
# the reason a wider unsigned dtype is refused (also the table's MISSING_DTYPES)
NO_WIDE_UNSIGNED = "paddle's only unsigned integer dtype is uint8"
_DTYPES: dict[Any, Any] = {name: getattr(paddle, name) for name in _NAMES}
_DTYPES.update({np.dtype(n): t for n, t in _DTYPES.items() if n != "bfloat16"})
_DTYPES.update({np.dtype(n).type: t for n, t in list(_DTYPES.items())
                if isinstance(n, str) and n != "bfloat16"})
_DTYPES.update({bool: paddle.bool, int: paddle.int64, float: paddle.float64,
                complex: paddle.complex128})
# paddle's dtype -> numpy's name
NP_NAMES: dict[Any, str] = {getattr(paddle, n): n for n in _NAMES}


def _dtype(dtype: Any) -> Any:
    """A paddle dtype from a paddle dtype, a numpy-style name, a numpy dtype or a type."""
    if dtype is None or isinstance(dtype, paddle.dtype):
        return dtype
    try:
        return _DTYPES[dtype]
    except (KeyError, TypeError):
        pass
    try:
        name = np.dtype(dtype).name
    except TypeError as err:
        raise TypeError(f"paddle has no dtype matching {dtype!r}") from err
    try:
        return _DTYPES[name]
    except KeyError:
        # paddle 3 stores no uint16/32/64 (its "uint16" is bfloat16's old storage name)
        raise TypeError(f"paddle has no dtype {name}: {NO_WIDE_UNSIGNED}") from None


def np_name(dtype: Any) -> str:
    """numpy's name of a paddle dtype."""
    return NP_NAMES[dtype]


def is_float(t: Tensor) -> bool:
    return t.dtype in (paddle.float16, paddle.bfloat16, paddle.float32, paddle.float64)


def is_complex(t: Tensor) -> bool:
    return t.dtype in (paddle.complex64, paddle.complex128)


def is_int(t: Tensor) -> bool:
    return t.dtype in (paddle.uint8, paddle.int8, paddle.int16, paddle.int32, paddle.int64)


def result_dtype(*xs: Any) -> Any:
    """numpy's result dtype of the arguments (tensors by dtype, Python scalars weak)."""
    parts = [np.dtype(np_name(x.dtype)) if isinstance(x, Tensor) else x for x in xs]
    return _DTYPES[np.result_type(*parts).name]


def _host(x: Any) -> Any:
    """A list or tuple holding tensors, with numpy arrays in their place (numpy cannot
    read a list of tensors: ``np.asarray([t, t])`` fails)."""
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, (list, tuple)):
        return [_host(v) for v in x]
    return x


def _tensor(x: Any, like: Tensor | None = None) -> Tensor:
    """``x`` as a tensor: Python scalars take ``like``'s dtype kind as numpy 2 does."""
    if isinstance(x, Tensor):
        return x
    if like is not None and isinstance(x, (bool, int, float, complex)):
        dt = result_dtype(like, x)
        return paddle.to_tensor(x, dtype=dt, place=like.place)
    return paddle.to_tensor(np.asarray(_host(x)))


def equal(x1: Any, x2: Any) -> Tensor:
    """numpy's exact ``x1 == x2`` (one of the two a tensor, the other a tensor or a
    Python number). paddle's ``equal``, ``not_equal``, ``==`` and ``!=`` call two
    floats (or complex parts) equal when they differ by less than 1e-15, so that
    ``1e-20 == 0`` is True there; its ``<=`` and ``>=`` are exact."""
    like = x1 if isinstance(x1, Tensor) else x2
    x1, x2 = _tensor(x1, like), _tensor(x2, like)
    if x1.is_complex() or x2.is_complex():
        return paddle.logical_and(equal(paddle.real(x1), paddle.real(x2)),
                                  equal(paddle.imag(x1), paddle.imag(x2)))
    if x1.is_floating_point() or x2.is_floating_point():
        return paddle.logical_and(paddle.less_equal(x1, x2), paddle.greater_equal(x1, x2))
    return paddle.equal(x1, x2)


def not_equal(x1: Any, x2: Any) -> Tensor:
    """numpy's exact ``x1 != x2`` (see :func:`equal`): True for NaN."""
    return paddle.logical_not(equal(x1, x2))


def truth(a: Tensor) -> Tensor:
    """``a != 0`` as numpy reads a condition: every nonzero value true, however small
    (paddle's ``!=`` takes ``1e-20`` for zero), NaN true."""
    return a if a.dtype == paddle.bool else not_equal(a, 0)


def promote(*xs: Any) -> list[Tensor]:
    """The arguments as tensors of numpy's common dtype."""
    first = xs[0] if xs else None
    if type(first) is Tensor:
        dt = first.dtype  # paddle's dtypes are singletons: compared by identity
        if all(type(x) is Tensor and x.dtype is dt for x in xs):
            return list(xs)  # the common case, kept cheap: nothing to promote
    xs = tuple(np.asarray(_host(x)) if isinstance(x, (list, tuple)) else x for x in xs)
    tensors = [x for x in xs if isinstance(x, Tensor)]
    dt = result_dtype(*xs)
    like = tensors[0] if tensors else None
    out = []
    for x in xs:
        t = x if isinstance(x, Tensor) else paddle.to_tensor(
            np.asarray(x), place=None if like is None else like.place)
        out.append(t if t.dtype == dt else t.astype(dt))
    return out


def axis_list(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple) else axis


# paddle registers many kernels for int32/int64/float32/float64 only: the dtypes
# computed in a wider one, then cast back (exact for values that only move)
WIDER: dict[Any, Any] = {
    paddle.bool: paddle.int32, paddle.uint8: paddle.int32, paddle.int8: paddle.int32,
    paddle.int16: paddle.int32, paddle.float16: paddle.float32,
    paddle.bfloat16: paddle.float32,
}


def widened(fn: Any) -> Any:
    """``fn(a, ...)`` computed on ``a`` in a dtype paddle has kernels for, its result
    cast back to ``a``'s dtype (for functions that move or select values)."""

    def wide(a: Tensor, *args: Any, **kwargs: Any) -> Any:
        wider = WIDER.get(a.dtype)
        if wider is None:
            return fn(a, *args, **kwargs)
        return fn(a.astype(wider), *args, **kwargs).astype(a.dtype)

    wide.__name__ = wide.__qualname__ = getattr(fn, "__name__", "wide")
    return wide


def by_parts(fn: Any) -> Any:
    """``fn`` on a complex tensor as ``fn`` of its real and imaginary parts (for
    functions that only move values, whose complex kernels paddle lacks)."""

    def parts(a: Tensor, *args: Any, **kwargs: Any) -> Any:
        if not a.is_complex():
            return fn(a, *args, **kwargs)
        return paddle.complex(fn(paddle.real(a), *args, **kwargs),
                              fn(paddle.imag(a), *args, **kwargs))

    parts.__name__ = parts.__qualname__ = getattr(fn, "__name__", "parts")
    return parts


def no_complex(name: str, a: Tensor) -> None:
    """UnsupportedError for a complex ``a``, where paddle has no complex kernel."""
    if a.is_complex():
        from dispatch.engine import UnsupportedError

        raise UnsupportedError(f"{name!r} is not supported on backend 'paddle' for complex "
                               "input: paddle has no complex kernel for it")


def power(x: Tensor, p: float) -> Tensor:
    """``x ** p`` for a Python float ``p``: paddle.pow reads a Python exponent as float32
    (``pow(3.0, 1/3)`` in float64 is off by 1.6e-8), a tensor exponent keeps its width."""
    return paddle.pow(x, paddle.full([], p, dtype=x.dtype))


def real_embedding(a: Tensor) -> Tensor:
    """The real 2n x 2n matrix [[Re, -Im], [Im, Re]] of complex matrices ``a``: sums,
    products, inverses and exponentials of these are those of ``a``, embedded."""
    re, im = paddle.real(a), paddle.imag(a)
    return paddle.concat([paddle.concat([re, -im], axis=-1), paddle.concat([im, re], axis=-1)],
                         axis=-2)
