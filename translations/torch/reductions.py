"""torch: sums, products, means, extrema and other reductions over axes.

torch's reductions take one ``dim`` (or a tuple), call ``keepdims`` ``keepdim``,
refuse means of integers and know neither ``initial`` nor ``where``; the adapters
give numpy's signatures. A ``where=`` mask goes to the composed :func:`masked`
(only when a mask is given). ``var`` and ``std`` use numpy's ``ddof=0``, not
torch's unbiased default.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
from dispatch.translations._adapters import empty_axes
from dispatch.translations._composed._moment_dtypes import in_dtype
from dispatch.translations._composed.reductions import ddof_of, mask_kw, masked
from dispatch.translations._composed.reductions import trapezoid as _composed_trapezoid
from dispatch.translations._keywords import bool_reduction, diff_ends, no_out
from dispatch.translations.torch._common import (
    _UNSIGNED,
    _UNSIGNED_WIDE,
    _accumulator,
    _axes,
    _dtype,
    _inexact,
    _int64_bits,
    _tensor,
)
from torch import Tensor

_torch_sum = torch.sum  # bound once: the common call skips a module attribute lookup


def _sum(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None,
         keepdims: bool = False, initial: Any = None, where: Any = None) -> Tensor:
    # torch.sum rejects keepdims without an axis and dtype names given as strings
    if axis is None and dtype is None and not keepdims and out is None and where is None \
            and initial is None and a.dtype not in _UNSIGNED:
        return _torch_sum(a)
    if where is not None:  # torch reductions take no mask
        return masked("sum", a, axis, dtype, out, keepdims, initial=initial, where=where)
    if initial is not None:
        return _sum(a, axis, dtype, out, keepdims) + initial
    no_out("sum", "torch", out)
    dtype = _accumulator(a, dtype)
    if dtype is not None:
        dtype = _dtype(dtype)
        if dtype in _UNSIGNED_WIDE:  # torch has no uint16/32/64 sum: int64, cast back
            return _sum(_int64_bits(a), axis, torch.int64, None, keepdims).to(dtype)
    if axis is None:
        total = torch.sum(a, dtype=dtype)
        return total.reshape((1,) * a.ndim) if keepdims else total
    return torch.sum(a, axis, keepdims, dtype=dtype)


def _prod(a: Tensor, axis: Any = None, dtype: Any = None, out: Any = None,
          keepdims: bool = False, initial: Any = None, where: Any = None) -> Tensor:
    if where is not None:
        return masked("prod", a, axis, dtype, out, keepdims, initial=initial, where=where)
    no_out("prod", "torch", out)
    if initial is not None:
        return _prod(a, axis, dtype, out, keepdims) * initial
    # torch.prod reduces one axis at a time
    dtype = _dtype(_accumulator(a, dtype))
    if dtype in _UNSIGNED_WIDE:  # torch has no uint16/32/64 product: int64, cast back
        return _prod(_int64_bits(a), axis, torch.int64, None, keepdims).to(dtype)
    if axis is None:
        r = torch.prod(a, dtype=dtype)
        return r.reshape((1,) * a.ndim) if keepdims else r
    axes = _axes(axis, a.ndim)
    if len(axes) == 1:
        return torch.prod(a, axes[0], keepdim=keepdims, dtype=dtype)
    for ax in sorted(axes, reverse=True):
        a = torch.prod(a, ax, keepdim=True, dtype=dtype)
    return a if keepdims else a.squeeze(axes)


def _mean(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None,
          keepdims: bool = False, *, where: Any = None) -> Tensor:
    if where is not None:
        return masked("mean", a, axis, dtype, out, keepdims, where=where)
    no_out("mean", "torch", out)
    dtype = _dtype(dtype)
    a = _inexact(a) if dtype is None else a.to(dtype)
    return torch.mean(a, dim=axis, keepdim=keepdims)


def _var(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None, ddof: float = 0,
         keepdims: bool = False, *, where: Any = None, mean: Any = None,
         correction: Any = None) -> Tensor:
    if correction is not None:  # numpy 2's (the array API's) name of ddof
        ddof = ddof_of(ddof, correction)
    if where is not None or mean is not None:
        return masked("var", a, axis, dtype, out, ddof, keepdims, **mask_kw(where, mean))
    no_out("var", "torch", out)
    # torch divides by n - 1 unless told otherwise; numpy's ddof defaults to 0
    dtype = _dtype(dtype)
    a = _inexact(a) if dtype is None else a.to(dtype)
    return torch.var(a, dim=axis, correction=ddof, keepdim=keepdims)


def _std(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None, ddof: float = 0,
         keepdims: bool = False, *, where: Any = None, mean: Any = None,
         correction: Any = None) -> Tensor:
    if correction is not None:  # numpy 2's (the array API's) name of ddof
        ddof = ddof_of(ddof, correction)
    if where is not None or mean is not None:
        return masked("std", a, axis, dtype, out, ddof, keepdims, **mask_kw(where, mean))
    no_out("std", "torch", out)
    if a.dtype is torch.float16:
        # torch.std works in float32 inside; numpy's is the root of its float16 var
        return torch.sqrt(_var(a, axis, dtype, out, ddof, keepdims))
    dtype = _dtype(dtype)
    a = _inexact(a) if dtype is None else a.to(dtype)
    return torch.std(a, dim=axis, correction=ddof, keepdim=keepdims)


def _any(a: Tensor, axis: Any = None, out: Any = None, keepdims: bool = False, *,
         where: Any = None) -> Tensor:
    if where is not None:
        return masked("any", a, axis, out, keepdims, where=where)
    no_out("any", "torch", out)
    # torch.any/all return uint8 for uint8 input; numpy always returns bool
    r = torch.any(a, dim=axis, keepdim=keepdims)
    return r if r.dtype is torch.bool else r.bool()


def _all(a: Tensor, axis: Any = None, out: Any = None, keepdims: bool = False, *,
          where: Any = None) -> Tensor:
    if where is not None:
        return masked("all", a, axis, out, keepdims, where=where)
    no_out("all", "torch", out)
    r = torch.all(a, dim=axis, keepdim=keepdims)
    return r if r.dtype is torch.bool else r.bool()


def _extreme(fn: Callable, name: str) -> Callable:
    def extreme(a: Tensor, axis: Any = None, out: None = None, keepdims: bool = False,
                initial: Any = None, where: Any = None) -> Tensor:
        # torch.amax/amin take neither numpy's positional order, ``initial`` nor a mask
        if where is not None:
            return masked(name, a, axis, out, keepdims, initial=initial, where=where)
        no_out(name, "torch", out)
        r = fn(a, () if axis is None else axis, keepdims)
        if initial is None:
            return r
        fold = torch.maximum if fn is torch.amax else torch.minimum
        return fold(r, _tensor(initial, r).to(r.dtype))

    extreme.__name__ = extreme.__qualname__ = "_" + name
    return extreme


def _nansum(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None,
            keepdims: bool = False, initial: Any = None, where: Any = None) -> Tensor:
    if where is not None:
        return masked("nansum", a, axis, dtype, out, keepdims, initial=initial, where=where)
    no_out("nansum", "torch", out)
    if _dtype(_accumulator(a, dtype)) in _UNSIGNED_WIDE:  # no unsigned kernel; no nan
        return _sum(a, axis, dtype, None, keepdims, initial)
    r = torch.nansum(a, () if axis is None else axis, keepdims, dtype=_dtype(dtype))
    return r if initial is None else r + initial


def _cumulative(fn: Callable) -> Callable:
    def cumulative(a: Tensor, axis: int | None = None, dtype: Any = None) -> Tensor:
        # torch needs an axis; numpy flattens when there is none
        if axis is None:
            a, axis = a.reshape(-1), 0
        dtype = _dtype(_accumulator(a, dtype))
        if dtype is torch.bool:  # torch has no boolean cumsum or cumprod
            return bool_reduction(fn.__name__, a, axis)
        if dtype in _UNSIGNED_WIDE:  # no uint16/32/64 kernel: int64, cast back
            return fn(_int64_bits(a), axis, dtype=torch.int64).to(dtype)
        return fn(a, axis, dtype=dtype)

    cumulative.__name__ = cumulative.__qualname__ = "_" + fn.__name__
    return cumulative


def _count_nonzero(a: Tensor, axis: Any = None, *, keepdims: bool = False) -> Tensor:
    # torch.count_nonzero has no keepdims
    return torch.sum(a != 0, dim=axis, keepdim=keepdims)


def _ptp(a: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return torch.amax(a, dim=axis, keepdim=keepdims) - torch.amin(a, dim=axis, keepdim=keepdims)


def _nanmean(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None,
             keepdims: bool = False, *, where: Any = None) -> Tensor:
    if where is not None:
        return masked("nanmean", a, axis, dtype, out, keepdims, where=where)
    no_out("nanmean", "torch", out)
    # torch.nanmean refuses integers (numpy: their mean in float64)
    dtype = _dtype(dtype)
    a = _inexact(a) if dtype is None else a.to(dtype)
    return torch.nanmean(a, dim=axis, keepdim=keepdims)


def _arg_extreme(fn: Any) -> Any:
    """torch's argmax/argmin refuse bool tensors; numpy orders False < True."""

    def arg(a: Tensor, axis: int | None = None, out: Any = None, *,
            keepdims: bool = False) -> Tensor:
        if a.dtype is torch.bool:
            a = a.to(torch.uint8)
        if out is not None:
            return fn(a, axis, keepdims, out=out)
        return fn(a, axis, keepdims)

    arg.__name__ = fn.__name__
    return arg



_PSNR_FLOATS = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})


def _psnr(x1: Any, x2: Any, max_val: Any) -> Any:
    # keras's psnr (docs/vocabulary.md, "ML ops") on torch's operations
    if isinstance(x1, Tensor) and isinstance(x2, Tensor) and x1.shape == x2.shape \
            and x1.dtype in _PSNR_FLOATS and x2.dtype == x1.dtype \
            and isinstance(max_val, int | float):
        return 20.0 * math.log10(max_val) - 10.0 * torch.log10(torch.mean(
            torch.square(x1 - x2)))
    from dispatch.translations._composed.reductions import psnr

    return psnr(x1, x2, max_val)

def _trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    # torch.trapezoid names the axis dim; it computes integers in the default float and
    # promotes mixed dtypes its own way: those (and bad shapes) take the composed recipe
    if isinstance(y, Tensor) and y.is_floating_point() and -y.ndim <= axis < y.ndim:
        if x is None and isinstance(dx, float):
            return torch.trapezoid(y, dx=dx, dim=axis)
        if isinstance(x, Tensor) and x.dtype == y.dtype and (
                x.shape == y.shape or (x.ndim == 1 and x.shape[0] == y.shape[axis])):
            return torch.trapezoid(y, x, dim=axis)
    return _composed_trapezoid(y, x, dx, axis)


TABLE = {
    "psnr": _psnr,
    "trapezoid": _trapezoid,
    # reductions: torch.sum, amax, argmax... take numpy's axis/keepdims keywords natively
    # torch reads an empty dim as every axis, numpy's axis=() is none: empty_axes
    # (it also gives prod over no axis numpy's int64 result for int32 data)
    "sum": empty_axes(_sum),
    "prod": empty_axes(_prod),
    # numpy's integer, boolean and complex dtype= of the moments: translations/_composed
    "mean": in_dtype("mean", empty_axes(_mean)),
    "std": in_dtype("std", empty_axes(_std)),
    "var": in_dtype("var", empty_axes(_var)),
    "max": empty_axes(_extreme(torch.amax, "max")),
    "min": empty_axes(_extreme(torch.amin, "min")),
    "amax": empty_axes(_extreme(torch.amax, "amax")),
    "amin": empty_axes(_extreme(torch.amin, "amin")),
    "argmax": _arg_extreme(torch.argmax),
    "argmin": _arg_extreme(torch.argmin),
    "any": _any,
    "all": _all,
    "cumsum": _cumulative(torch.cumsum),
    "cumprod": _cumulative(torch.cumprod),
    "count_nonzero": empty_axes(_count_nonzero),
    "ptp": empty_axes(_ptp),
    "nansum": empty_axes(_nansum),
    "nanmean": in_dtype("nanmean", empty_axes(_nanmean)),
    "diff": diff_ends(torch.diff),  # torch's takes tensors only as its ends
}
