"""mlx: reductions with numpy's dtypes.

mlx sums and multiplies booleans and small integers in their own width (an int32
sum is int32) and returns argmax / argsort indices as uint32; numpy accumulates
in int64 (uint64 for unsigned) and indexes with int64. The adapters widen first
and take numpy's ``dtype=`` keyword.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mlx.core as mx
from dispatch.translations._adapters import empty_axes
from dispatch.translations._composed._covariance import corrcoef, cov
from dispatch.translations._composed._moment_dtypes import in_dtype
from dispatch.translations._composed.reductions import ddof_of, mask_kw, masked
from dispatch.translations._keywords import bool_reduction, diff_ends
from dispatch.translations.mlx._common import asks_bool, axis_arg, mx_dtype
from dispatch.translations.mlx.devices import _asarray
from dispatch.translations.mlx.elementwise import _pair

_UNSIGNED = (mx.bool_, mx.uint8, mx.uint16, mx.uint32)
_SIGNED = (mx.int8, mx.int16, mx.int32)
# dtypes that accumulate in their own width, as in numpy
_WIDE = frozenset((mx.float16, mx.bfloat16, mx.float32, mx.float64, mx.complex64, mx.int64,
                   mx.uint64))
_ARRAY = mx.array
_F32, _F64 = mx.float32, mx.float64


def _arr(x: Any) -> Any:
    return x if isinstance(x, mx.array) else _asarray(x)


def _accumulator(a: Any, dtype: Any) -> Any:
    if dtype is not None:
        return a.astype(mx_dtype(dtype))
    if a.dtype == mx.bool_ or a.dtype in _SIGNED:
        return a.astype(mx.int64)
    if a.dtype in _UNSIGNED:
        return a.astype(mx.uint64)
    return a


def _no_out(out: Any) -> None:
    if out is not None:
        raise TypeError("out= is not supported on mlx: its arrays are immutable")


def _masking(where: Any) -> bool:
    """Whether a reduction got a ``where=`` mask: mlx's reductions take none, so the
    composed :func:`masked` fills the masked-out elements and calls them again."""
    return where is not None and where is not True


def _accumulating(fn: Callable) -> Callable:
    def reduce(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
               keepdims: bool = False, initial: Any = None, where: Any = None) -> Any:
        # the common call (a wide array, no dtype/out/initial) goes straight through;
        # every 8-byte dtype (float64, int64, uint64, complex64) is wide, and reading
        # the item size is cheaper than making mlx's dtype object and comparing it
        if (type(a) is _ARRAY and dtype is None and out is None and initial is None
                and where is None and a.size and (a.itemsize == 8 or a.dtype in _WIDE)):
            return fn(a, axis, keepdims)
        _no_out(out)
        if _masking(where):
            return masked(fn.__name__, a, axis, dtype, out, keepdims, initial=initial,
                          where=where)
        if asks_bool(dtype):  # mlx counts booleans
            return bool_reduction(fn.__name__, a, axis, keepdims, initial)
        a = _accumulator(_arr(a), dtype)
        if a.size == 0:
            # mlx 0.32 reduces an empty array made from host data to 0 or inf (and has
            # hung on it); a fresh empty array of the same shape reduces to the identity
            a = mx.zeros(a.shape, dtype=a.dtype)
        res = fn(a, axis=axis_arg(axis), keepdims=keepdims)
        if initial is not None:
            res = mx.add(res, initial) if fn is mx.sum else mx.multiply(res, initial)
        return res

    reduce.__name__ = fn.__name__
    return reduce


def _cumulative(fn: Callable) -> Callable:
    def cumulate(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        _no_out(out)
        if asks_bool(dtype):  # mlx counts booleans
            return bool_reduction(fn.__name__, a, axis)
        a = _accumulator(_arr(a), dtype)
        return fn(a.reshape(-1) if axis is None else a, axis=0 if axis is None else int(axis))

    cumulate.__name__ = fn.__name__
    return cumulate


def _extreme(fn: Callable) -> Callable:
    def reduce(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
               initial: Any = None, where: Any = None) -> Any:
        _no_out(out)
        if _masking(where):
            return masked(fn.__name__, a, axis, out, keepdims, initial=initial, where=where)
        a = _arr(a)
        if a.size == 0 and axis is None and initial is None:
            raise ValueError(f"zero-size array to reduction operation {fn.__name__} which "
                             "has no identity")
        res = fn(a, axis=axis_arg(axis), keepdims=keepdims)
        if initial is not None:
            res = (mx.maximum if fn is mx.max else mx.minimum)(res, initial)
        return res

    reduce.__name__ = fn.__name__
    return reduce


def _mean_like(fn: Callable) -> Callable:
    def reduce(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
               keepdims: bool = False, *, where: Any = None) -> Any:
        _no_out(out)
        if _masking(where):
            return masked(fn.__name__, a, axis, dtype, out, keepdims=keepdims, where=where)
        a = _float_input(a, dtype)
        if a.dtype == mx.float16 and dtype is None:
            # numpy sums float16 in float32 for a mean (finite where a float16 sum
            # overflows) and rounds the mean back
            m = fn(a.astype(mx.float32), axis=axis_arg(axis), keepdims=keepdims)
            return m.astype(mx.float16)
        return fn(a, axis=axis_arg(axis), keepdims=keepdims)

    reduce.__name__ = fn.__name__
    return reduce


def _spread(fn: Callable) -> Callable:
    def reduce(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0,
               keepdims: bool = False, *, where: Any = None, mean: Any = None,
               correction: Any = None) -> Any:
        # numpy's var and std: ddof before keepdims, and the keywords mean= (deviations
        # from a given mean) and correction= (the array API's ddof)
        _no_out(out)
        if correction is not None:
            ddof = ddof_of(ddof, correction)
        if int(ddof) != ddof and not _masking(where):
            # the masked moment reads a fractional ddof (mlx's takes ints)
            where = mx.ones(_arr(a).shape, mx.bool_)
        if _masking(where) or mean is not None:
            kw = mask_kw(where if _masking(where) else None, mean)
            return masked(fn.__name__, a, axis, dtype, out, ddof, keepdims, **kw)
        a = _float_input(a, dtype)
        return fn(a, axis=axis_arg(axis), keepdims=keepdims, ddof=int(ddof))

    reduce.__name__ = fn.__name__
    return reduce


def _float_input(a: Any, dtype: Any) -> Any:
    a = _arr(a)
    if dtype is not None:
        return a.astype(mx_dtype(dtype))
    if not mx.issubdtype(a.dtype, mx.inexact):
        return a.astype(mx.float32)  # mlx's default float, as its mean of integers
    return a


def _arg(fn: Callable) -> Callable:
    def arg(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Any:
        _no_out(out)
        a = _arr(a)
        if a.size == 0:
            raise ValueError(f"attempt to get {fn.__name__} of an empty sequence")
        return fn(a, axis=None if axis is None else int(axis),
                  keepdims=keepdims).astype(mx.int64)

    arg.__name__ = fn.__name__
    return arg


def _ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
    _no_out(out)
    a = _arr(a)
    return mx.max(a, axis_arg(axis), keepdims) - mx.min(a, axis_arg(axis), keepdims)


def _count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Any:
    return mx.sum(_arr(a) != 0, axis=axis_arg(axis), keepdims=keepdims).astype(mx.int64)


def _logical(fn: Callable) -> Callable:
    def reduce(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *,
               where: Any = None) -> Any:
        _no_out(out)
        if _masking(where):
            return masked(fn.__name__, a, axis, out, keepdims, where=where)
        return fn(_arr(a), axis=axis_arg(axis), keepdims=keepdims)

    reduce.__name__ = fn.__name__
    return reduce


def _median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
            keepdims: bool = False) -> Any:
    _no_out(out)
    a = _arr(a)
    if not mx.issubdtype(a.dtype, mx.inexact):
        a = a.astype(mx.float32)
    return mx.median(a, axis=axis_arg(axis), keepdims=keepdims)


def _nansum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False, initial: Any = None, where: Any = None) -> Any:
    a = _arr(a)
    if mx.issubdtype(a.dtype, mx.inexact):
        a = mx.where(mx.isnan(a), 0, a)
    return TABLE["sum"](a, axis, dtype, out, keepdims, initial, where)


def _nanmean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
             keepdims: bool = False, *, where: Any = None) -> Any:
    _no_out(out)
    if _masking(where):
        return masked("nanmean", a, axis, dtype, out, keepdims, where=where)
    a = _arr(a)
    if not mx.issubdtype(a.dtype, mx.inexact):
        return TABLE["mean"](a, axis, dtype, keepdims=keepdims)
    keep = ~mx.isnan(a)
    total = mx.sum(mx.where(keep, a, 0), axis=axis_arg(axis), keepdims=keepdims)
    count = mx.sum(keep, axis=axis_arg(axis), keepdims=keepdims).astype(a.dtype)
    out = total / count
    return out if dtype is None else out.astype(mx_dtype(dtype))


def _all(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *,
         where: Any = None) -> Any:
    # mlx's all of an empty array is False; numpy's (an empty conjunction) is True
    _no_out(out)
    if _masking(where):
        return masked("all", a, axis, out, keepdims, where=where)
    return mx.logical_not(mx.any(mx.logical_not(_arr(a)), axis=axis_arg(axis),
                                 keepdims=keepdims))


def _isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> Any:
    # numpy's test in the inputs' own precision: mlx's isclose takes rtol and atol in
    # float32 (1e-9 rounds up to 1.0000000000000001e-09 - 1.0e-09 > 0 in float64), so
    # float64 inputs 9.9999998e-10 apart were not close
    a, b = _pair(a, b)
    if not mx.issubdtype(a.dtype, mx.inexact):
        a, b = a.astype(mx.float32), b.astype(mx.float32)
    a, b = mx.broadcast_arrays(a, b)
    close = mx.abs(a - b) <= atol + rtol * mx.abs(b)
    # infinities are close only to themselves (inf - inf is NaN above)
    close = mx.where(mx.isinf(a) | mx.isinf(b), a == b, close)
    if equal_nan:
        close = close | (mx.isnan(a) & mx.isnan(b))
    return close


def _array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Any:
    a1, a2 = _arr(a1), _arr(a2)
    if a1.shape != a2.shape:
        return False
    return bool(mx.array_equal(a1, a2, equal_nan=equal_nan).item())


TABLE = {
    # mlx has no covariance: numpy's, written with do
    "cov": cov,
    "corrcoef": corrcoef,
    "allclose": lambda *a, **k: bool(mx.all(_isclose(*a, **k)).item()),
    "isclose": _isclose,
    "array_equal": _array_equal,
    "nansum": _nansum,
    "nanmean": in_dtype("nanmean", _nanmean),
    "sum": _accumulating(mx.sum),
    "prod": _accumulating(mx.prod),
    "diff": diff_ends(mx.diff),  # mlx's takes no prepend= or append=
    "cumsum": _cumulative(mx.cumsum),
    "cumprod": _cumulative(mx.cumprod),
    "max": _extreme(mx.max),
    "min": _extreme(mx.min),
    "amax": _extreme(mx.max),
    "amin": _extreme(mx.min),
    # numpy's integer, boolean and complex dtype= of the moments: translations/_composed
    "mean": in_dtype("mean", _mean_like(mx.mean)),
    "var": in_dtype("var", _spread(mx.var)),
    "std": in_dtype("std", _spread(mx.std)),
    "argmax": _arg(mx.argmax),
    "argmin": _arg(mx.argmin),
    "ptp": _ptp,
    "count_nonzero": _count_nonzero,
    "all": _all,
    "any": _logical(mx.any),
    # mx.median of axis=() flattens wrongly (a ValueError for keepdims of a 1-element
    # array): numpy's reading, no axis, through empty_axes
    "median": empty_axes(_median),
}
