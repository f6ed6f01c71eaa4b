"""paddle: reductions and cumulative functions with numpy's keywords and dtypes.

paddle spells ``keepdims`` as ``keepdim``, takes axes as lists, refuses means of
integers, keeps int32 in products and names the variance's correction
``unbiased``; numpy's result dtype of each reduction (int64 sums of small
integers, float64 means of integers) is read from numpy itself on an empty array
of the input's dtype, once per dtype.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy as np
import paddle
from dispatch.translations._adapters import empty_axes
from dispatch.translations._composed import reductions as _composed_reductions
from dispatch.translations._composed._moment_dtypes import in_dtype
from dispatch.translations._keywords import bool_reduction, diff_ends, no_out
from dispatch.translations.paddle._common import _DTYPES, NO_WIDE_UNSIGNED, NP_NAMES, _dtype, truth
from paddle import Tensor

_F64, _F32 = paddle.float64, paddle.float32
_FLOATS = (paddle.float16, paddle.bfloat16, paddle.float32, paddle.float64)


@functools.cache
def _numpy_dtype(name: str, dtype: Any, arg: Any = None) -> Any:
    """paddle's dtype of numpy's ``name`` reduction of an array of ``dtype``."""
    sample = np.ones((1, 1), NP_NAMES[dtype])
    out = getattr(np, name)(sample, axis=0, dtype=arg) if arg is not None else getattr(
        np, name)(sample, axis=0)
    try:
        return _DTYPES[out.dtype.name]
    except KeyError:  # numpy accumulates uint8 in uint64, which paddle lacks
        raise TypeError(
            f"{name} of a {NP_NAMES[dtype]} tensor on paddle: numpy's result is "
            f"{out.dtype.name}, and {NO_WIDE_UNSIGNED}; pass dtype= (e.g. dtype='int64')"
        ) from None


def _axis(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple) else axis


def _cast(out: Tensor, dt: Any) -> Tensor:
    return out if out.dtype == dt else out.astype(dt)


def _initial(total: Tensor, initial: Any) -> Tensor:
    """numpy's ``initial=`` of a sum or product: the start value, cast to the result's
    dtype as numpy casts it (unsafely: ``sum(ints, initial=5.5)`` starts at 5)."""
    return paddle.to_tensor(np.asarray(initial).astype(NP_NAMES[total.dtype]),
                            place=total.place)


def _sum(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None,
         keepdims: bool = False, *, initial: Any = None) -> Tensor:
    if dtype is None and initial is None:
        dt = a.dtype
        if dt is _F64 or dt is _F32:  # numpy keeps the dtype
            if axis is None and not keepdims:
                return paddle.sum(a)
            return paddle.sum(a, axis=_axis(axis), keepdim=keepdims)
    dt = _dtype(dtype) or _numpy_dtype("sum", a.dtype)
    if a.dtype == paddle.bool:
        a = a.astype(dt)
    total = _cast(paddle.sum(a, axis=_axis(axis), dtype=dt, keepdim=keepdims), dt)
    return total if initial is None else total + _initial(total, initial)


def _prod(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None,
          keepdims: bool = False, *, initial: Any = None) -> Tensor:
    dt = _dtype(dtype) or _numpy_dtype("prod", a.dtype)
    if dt == paddle.bool:  # paddle multiplies no booleans
        return bool_reduction("prod", a, axis, keepdims, initial)
    a = _cast(a, dt)
    if isinstance(axis, (tuple, list)):
        for ax in sorted((x % max(a.ndim, 1) for x in axis), reverse=True):
            a = paddle.prod(a, axis=ax, keepdim=keepdims)
        total = a
    else:
        total = paddle.prod(a, axis=axis, keepdim=keepdims)
    return total if initial is None else total * _initial(total, initial)


def _mean(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None,
          keepdims: bool = False) -> Tensor:
    dt = _dtype(dtype) or _numpy_dtype("mean", a.dtype)
    if dt is paddle.float16:  # numpy sums float16 in float32 and rounds back
        return paddle.mean(a.astype("float32"), axis=_axis(axis), keepdim=keepdims).astype(dt)
    return paddle.mean(_cast(a, dt), axis=_axis(axis), keepdim=keepdims)


def _count(a: Tensor, axis: Any) -> int:
    if axis is None:
        return a.size
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


def _var(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None, ddof: float = 0,
         keepdims: bool = False, *, correction: float | None = None, mean: Any = None) -> Tensor:
    ddof = ddof if correction is None else _composed_reductions.ddof_of(ddof, correction)
    dt = _dtype(dtype) or _numpy_dtype("var", a.dtype)
    if dt is paddle.float16:  # paddle has no float16 mean: float32, rounded back
        return _var(a.astype("float32"), axis, None, None, ddof, keepdims, mean=mean).astype(dt)
    x = a if a.is_complex() else _cast(a, dt)
    m = paddle.mean(x, axis=_axis(axis), keepdim=True) if mean is None else mean
    d = x - m
    sq = paddle.real(d * paddle.conj(d)) if d.is_complex() else d * d
    n = _count(a, axis)
    return paddle.sum(sq, axis=_axis(axis), keepdim=keepdims) / max(n - ddof, 0)


def _std(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None, ddof: float = 0,
         keepdims: bool = False, *, correction: float | None = None, mean: Any = None) -> Tensor:
    v = _var(a, axis, dtype, None, ddof, keepdims, correction=correction, mean=mean)
    if v.dtype is paddle.float16:  # no float16 sqrt kernel: float32, rounded back
        return paddle.sqrt(v.astype("float32")).astype(v.dtype)
    return paddle.sqrt(v)


def _extreme(name: str, fn: Any) -> Any:
    def extreme(a: Tensor, axis: Any = None, out: Any = None, keepdims: bool = False,
                initial: Any = None, where: Any = True) -> Tensor:
        if out is not None:
            no_out(name, "paddle", out)
        if where is not True:
            if initial is None:
                raise ValueError("reduction operation does not have an identity, so to use "
                                 "a where mask one has to specify 'initial'")
            mask = paddle.broadcast_to(promote_mask(where), a.shape)
            a = paddle.where(mask, a, paddle.full_like(a, initial))
        if a.dtype == paddle.bool:
            res = fn(a.astype("int64"), axis=_axis(axis), keepdim=keepdims).astype("bool")
        else:
            res = fn(a, axis=_axis(axis), keepdim=keepdims)
        if initial is not None:
            bound = paddle.full_like(res, initial)
            res = paddle.maximum(res, bound) if fn is paddle.max else paddle.minimum(res, bound)
        return res

    return extreme


def _arg(name: str, fn: Any) -> Any:
    def arg(a: Tensor, axis: int | None = None, out: Any = None, *,
            keepdims: bool = False) -> Tensor:
        no_out(name, "paddle", out)
        if a.dtype == paddle.bool:
            a = a.astype("int64")
        if axis is None and keepdims:
            return fn(a.flatten(), axis=0).reshape([1] * a.ndim)
        out_ = fn(a, axis=axis, keepdim=keepdims)
        if a.is_floating_point():
            # numpy returns the first NaN's index (paddle skips NaN)
            nan = paddle.isnan(a)
            first = paddle.argmax(nan.astype("int32"), axis=axis, keepdim=keepdims)
            has = paddle.any(nan, axis=axis, keepdim=keepdims) if axis is not None else \
                paddle.any(nan)
            out_ = paddle.where(has, first, out_)
        return out_

    return arg


def _logical(name: str, fn: Any) -> Any:
    def logical(a: Tensor, axis: Any = None, out: Any = None, keepdims: bool = False, *,
                where: Any = True) -> Tensor:
        no_out(name, "paddle", out)
        a = truth(a)
        if where is not True:  # outside the mask: all's identity True, any's False
            mask = paddle.broadcast_to(promote_mask(where), a.shape)
            a = paddle.where(mask, a, paddle.full_like(a, fn is paddle.all))
        return fn(a, axis=_axis(axis), keepdim=keepdims)

    return logical


def _cumulative(name: str, fn: Any) -> Any:
    def cumulative(a: Tensor, axis: int | None = None, dtype: Any = None,
                   out: Any = None) -> Tensor:
        no_out(name, "paddle", out)
        dt = _dtype(dtype) or _numpy_dtype(name, a.dtype)
        if dt == paddle.bool:  # paddle accumulates no booleans
            return bool_reduction(name, a, axis)
        a = _cast(a, dt)
        if axis is None:
            a, axis = a.flatten(), 0
        return fn(a, axis)

    return cumulative


def _cumulative_sum(x: Tensor, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False) -> Tensor:
    return _cumulative_array("cumsum", x, axis, dtype, include_initial, 0)


def _cumulative_prod(x: Tensor, /, *, axis: int | None = None, dtype: Any = None,
                     include_initial: bool = False) -> Tensor:
    return _cumulative_array("cumprod", x, axis, dtype, include_initial, 1)


def _cumulative_array(name: str, x: Tensor, axis: Any, dtype: Any, initial: bool,
                      fill: int) -> Tensor:
    if x.ndim == 0:
        x = x.reshape([1])
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"cumulative_{name[3:]}: axis is required for arrays of more "
                             "than one dimension")
        axis = 0
    out = _CUM[name](x, axis, dtype)
    if initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = paddle.concat([paddle.full(shape, fill, dtype=out.dtype), out], axis=axis)
    return out


def _nan_free(a: Tensor, fill: float) -> Tensor:
    if a.dtype is paddle.float16:  # no float16 where kernel
        return _nan_free(a.astype("float32"), fill).astype(a.dtype)
    if a.is_floating_point() or a.is_complex():
        return paddle.where(paddle.isnan(a), paddle.full_like(a, fill), a)
    return a


def _nansum(a: Tensor, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    no_out("nansum", "paddle", out)
    return TABLE["sum"](_nan_free(a, 0.0), axis, dtype, keepdims=keepdims, initial=initial,
                        where=where)


def _nanprod(a: Tensor, axis: Any = None, dtype: Any = None, out: Any = None,
             keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    no_out("nanprod", "paddle", out)
    return TABLE["prod"](_nan_free(a, 1.0), axis, dtype, keepdims=keepdims, initial=initial,
                         where=where)


def _nanmean(a: Tensor, axis: Any = None, dtype: Any = None, out: Any = None,
             keepdims: bool = False, *, where: Any = True) -> Tensor:
    no_out("nanmean", "paddle", out)
    dt = _dtype(dtype) or _numpy_dtype("mean", a.dtype)
    a = _cast(a, dt)
    if not (a.is_floating_point() or a.is_complex()):
        return _mean(a, axis, keepdims=keepdims)
    mask = ~paddle.isnan(a)
    if where is not True:
        mask = mask & paddle.broadcast_to(promote_mask(where), a.shape)
    half = a.dtype is paddle.float16
    # no float16 where/divide kernels: float32, with the sum rounded to float16 first
    # (numpy's float16 nanmean sums in float16: inf where that overflows)
    x = a.astype("float32") if half else a
    count = _sum(mask, axis, keepdims=keepdims).astype(x.dtype)
    total = _sum(paddle.where(mask, x, paddle.zeros_like(x)), axis, keepdims=keepdims)
    if half:
        return (total.astype(a.dtype).astype(x.dtype) / count).astype(a.dtype)
    return total / count


def _median(a: Tensor, axis: Any = None, out: Any = None, overwrite_input: bool = False,
            keepdims: bool = False) -> Tensor:
    no_out("median", "paddle", out)
    dt = _numpy_dtype("median", a.dtype)
    a = _cast(a, dt)
    if isinstance(axis, (tuple, list)):
        return paddle.quantile(a, 0.5, axis=list(axis), keepdim=keepdims)
    return paddle.median(a, axis=axis, keepdim=keepdims, mode="avg")


def _count_nonzero(a: Tensor, axis: Any = None, *, keepdims: bool = False) -> Tensor:
    return paddle.count_nonzero(a, axis=_axis(axis), keepdim=keepdims).astype("int64")


def _ptp(a: Tensor, axis: Any = None, out: Any = None, keepdims: bool = False) -> Tensor:
    no_out("ptp", "paddle", out)
    hi = _EXTREMES["max"](a, axis, keepdims=keepdims)
    lo = _EXTREMES["min"](a, axis, keepdims=keepdims)
    return hi - lo


def _cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: Any = None,
         fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> Tensor:
    # numpy's recipe: float64 at least, rows are variables, weights multiply
    from dispatch.translations.paddle._common import promote

    x = promote(m)[0]
    dt = _dtype(dtype) or _DTYPES[np.result_type(NP_NAMES[x.dtype], np.float64).name]
    x = x.astype(dt).reshape([1, -1]) if x.ndim < 2 else x.astype(dt)
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if y is not None:
        yy = promote(y)[0].astype(dt)
        yy = yy.reshape([1, -1]) if yy.ndim < 2 else yy
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        x = paddle.concat([x, yy], axis=0)
    ddof = (0 if bias else 1) if ddof is None else ddof
    w = None
    if fweights is not None:
        w = promote(fweights)[0].astype("float64")
    if aweights is not None:
        a = promote(aweights)[0].astype("float64")
        w = a if w is None else w * a
    if w is None:
        avg = paddle.mean(x, axis=1)
        fact = x.shape[1] - ddof
    else:
        w = w.astype(dt) if x.is_complex() else w.astype(x.dtype)
        v1 = paddle.sum(w)
        avg = paddle.sum(x * w, axis=1) / v1
        if ddof == 0:
            fact = v1
        elif aweights is None:
            fact = v1 - ddof
        else:
            fact = v1 - ddof * paddle.sum(w * a.astype(w.dtype)) / v1
    x = x - avg.unsqueeze(1)
    xt = (x * w if w is not None else x).T
    c = paddle.matmul(x, paddle.conj(xt) if xt.is_complex() else xt) / fact
    return c.squeeze()


def _corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Tensor:
    c = _cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = paddle.diagonal(c)
    std = paddle.sqrt(paddle.real(d) if d.is_complex() else d)
    if c.is_complex():
        std = std.astype(c.dtype)
    c = c / std.unsqueeze(1) / std.unsqueeze(0)
    if c.is_complex():
        return paddle.complex(paddle.clip(paddle.real(c), -1, 1), paddle.clip(paddle.imag(c),
                                                                              -1, 1))
    return paddle.clip(c, -1, 1)


def _masked(fn: Any, fill: float | None) -> Any:
    """``fn`` with numpy's ``where=``: the elements outside the mask count as ``fill``
    (sum: 0, prod: 1); mean, var and std divide by the number of elements inside."""

    def reduce(a: Tensor, axis: Any = None, dtype: Any = None, out: Any = None,
               *args: Any, where: Any = True, **kwargs: Any) -> Tensor:
        if out is not None:
            no_out(fn.__name__[1:], "paddle", out)
        if where is True:
            return fn(a, axis, dtype, out, *args, **kwargs)
        mask = paddle.broadcast_to(promote_mask(where), a.shape)
        if fill is not None:
            a = paddle.where(mask, a, paddle.full_like(a, fill))
            return fn(a, axis, dtype, out, *args, **kwargs)
        return _masked_moment(fn, a, mask, axis, dtype, *args, **kwargs)

    reduce.__name__ = reduce.__qualname__ = fn.__name__
    reduce.__wrapped__ = fn  # its signature: where keepdims is (empty_axes reads it)
    return reduce


def promote_mask(where: Any) -> Tensor:
    from dispatch.translations.paddle._common import promote

    return truth(promote(where)[0])


def _masked_moment(fn: Any, a: Tensor, mask: Tensor, axis: Any, dtype: Any, *args: Any,
                   **kwargs: Any) -> Tensor:
    # the rest of fn's arguments, bound as fn binds them (mean: keepdims; var and std:
    # ddof, keepdims, correction, mean), so that none is dropped and an unknown one is
    # refused as fn refuses it
    given = inspect.signature(fn).bind(a, axis, dtype, None, *args, **kwargs).arguments
    keepdims = given.get("keepdims", False)
    dt = _dtype(dtype) or _numpy_dtype("mean", a.dtype)
    x = _cast(a, dt)
    zero = paddle.zeros_like(x)
    count = paddle.sum(mask.astype(dt), axis=_axis(axis), keepdim=True)
    mean = given.get("mean")  # var's and std's mean=: numpy's deviations from it
    if mean is None:
        mean = paddle.sum(paddle.where(mask, x, zero), axis=_axis(axis), keepdim=True) / count
    else:
        from dispatch.translations.paddle._common import promote

        mean = _cast(promote(mean)[0], dt)
    if fn is _mean:
        return mean if keepdims else _drop(mean, axis, a.ndim)
    ddof = given.get("ddof", 0)
    if given.get("correction") is not None:
        ddof = _composed_reductions.ddof_of(ddof, given["correction"])
    d = paddle.where(mask, x - mean, zero)
    sq = paddle.real(d * paddle.conj(d)) if d.is_complex() else d * d
    var = paddle.sum(sq, axis=_axis(axis), keepdim=True) / (count - ddof)
    out = paddle.sqrt(var) if fn is _std else var
    return out if keepdims else _drop(out, axis, a.ndim)


def _drop(x: Tensor, axis: Any, ndim: int) -> Tensor:
    if axis is None:
        return x.reshape([])
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    return paddle.squeeze(x, axis=[ax % ndim for ax in axes])


def _half_in_float32(fn: Any) -> Any:
    """``fn`` on a float16 tensor computed in float32 and rounded back (paddle's CPU has
    no float16 divide, where or sqrt kernels)."""

    def half(a: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(a, Tensor) and a.dtype is paddle.float16 and kwargs.get("dtype") is None:
            return fn(a.astype("float32"), *args, **kwargs).astype(a.dtype)
        return fn(a, *args, **kwargs)

    half.__name__ = half.__qualname__ = getattr(fn, "__name__", "half")
    return half


_NANVAR = _half_in_float32(_composed_reductions.nanvar)


def _nanstd(a: Any, *args: Any, **kwargs: Any) -> Any:
    # numpy's float16 nanstd is the root of its float16 nanvar (inf where that overflows)
    if isinstance(a, Tensor) and a.dtype is paddle.float16 and kwargs.get("dtype") is None:
        return paddle.sqrt(_NANVAR(a, *args, **kwargs).astype("float32")).astype(a.dtype)
    return _composed_reductions.nanstd(a, *args, **kwargs)


# paddle reads an empty tuple of axes as every axis (numpy: none); sum's entry takes
# empty_axes after its common call
_SUM = empty_axes(_masked(_sum, 0.0))


def _sum_first(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
               keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    """numpy's sum; the common call (nothing but the array) in one step, where the
    general path passes three layers (empty_axes, the mask, the dtype).

    paddle's own sum of a whole tensor has numpy's dtype for every dtype wider than
    two bytes (int32 and int64 give int64, floats and complexes keep theirs); the
    narrow integers are widened by the general path. The item size decides: reading
    it costs a third of reading a paddle dtype, before a call of about 2 us."""
    if (axis is None and dtype is None and out is None and not keepdims and initial is None
            and where is True and type(a) is Tensor and a.element_size() > 2):
        return paddle.sum(a)
    if initial is not None:  # numpy's signature, without a keyword-only parameter (_reshape)
        return _SUM(a, axis, dtype, out, keepdims, initial=initial, where=where)
    return _SUM(a, axis, dtype, out, keepdims, where=where)


_EXTREMES = {"max": _extreme("max", paddle.max), "min": _extreme("min", paddle.min)}
_CUM = {"cumsum": _cumulative("cumsum", paddle.cumsum),
        "cumprod": _cumulative("cumprod", lambda a, axis: paddle.cumprod(a, dim=axis))}

_TABLE = {
    "diff": diff_ends(paddle.diff),  # paddle's takes tensors only as its ends
    "sum": _sum_first,
    "prod": _masked(_prod, 1.0),
    # numpy's integer, boolean and complex dtype= of the moments: translations/_composed
    "mean": in_dtype("mean", _masked(_mean, None)),
    "var": in_dtype("var", _masked(_var, None)),
    "std": in_dtype("std", _masked(_std, None)),
    "max": _EXTREMES["max"],
    "amax": _EXTREMES["max"],
    "min": _EXTREMES["min"],
    "amin": _EXTREMES["min"],
    "ptp": _ptp,
    "argmax": _arg("argmax", paddle.argmax),
    "argmin": _arg("argmin", paddle.argmin),
    "all": _logical("all", paddle.all),
    "any": _logical("any", paddle.any),
    "cumsum": _CUM["cumsum"],
    "cumprod": _CUM["cumprod"],
    "cumulative_sum": _cumulative_sum,
    "cumulative_prod": _cumulative_prod,
    "median": _median,
    "nansum": _nansum,
    "nanprod": _nanprod,
    "nanmean": in_dtype("nanmean", _nanmean),
    "nanvar": in_dtype("nanvar", _NANVAR),
    "nanstd": in_dtype("nanstd", _nanstd),
    "count_nonzero": _count_nonzero,
    "cov": _cov,
    "corrcoef": _corrcoef,
}

# paddle reads an empty tuple of axes as every axis; numpy's axis=() is none (sum: above)
_NO_AXIS = ("prod", "mean", "var", "std", "max", "amax", "min", "amin", "ptp", "all",
            "any", "median", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
            "count_nonzero")
# these two take numpy's arguments as they come: numpy's signature tells empty_axes
# where axis and keepdims are
_NANVAR.__signature__ = inspect.signature(np.nanvar)
_nanstd.__signature__ = inspect.signature(np.nanstd)
TABLE = {name: empty_axes(fn) if name in _NO_AXIS else fn for name, fn in _TABLE.items()}
