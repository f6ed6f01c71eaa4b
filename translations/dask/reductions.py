"""dask: reductions (sums, means, extremes, cumulative sums), lazy.

dask's own reductions, given numpy's ``where=`` (the masked composition of
``translations/_composed/reductions.py``), numpy's float16 rules (``mean``
accumulates in float32; moments computed as numpy does), ``initial`` for
``nanmax``/``nanmin``, results on empty arrays, ``keepdims`` where dask lacks
it, and numpy's flattening when a cumulative function gets no axis.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
from dask.array import Array
from dispatch.translations._composed._moment_dtypes import in_dtype
from dispatch.translations._composed.reductions import masked, numpy_moment
from dispatch.translations.dask._common import written

from dispatch.engine import NATIVE, merge_tables


def _average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *,
             keepdims: bool = False) -> Any:
    # da.average takes weights of a's shape or 1-D along one axis; numpy also takes
    # weights spanning a tuple of axes: they are broadcast to a's shape first (lazily)
    a = da.asarray(a)
    if weights is None and not returned:
        return _mean(a, axis, keepdims=keepdims)  # numpy's float16 rule is mean's
    if weights is not None and isinstance(axis, (tuple, list)) and np.shape(weights) != a.shape:
        axes = tuple(int(ax) % a.ndim for ax in axis)
        if tuple(np.shape(weights)) != tuple(a.shape[ax] for ax in axes):
            raise ValueError(
                "Shape of weights must be consistent with shape of a along specified axis."
            )
        w = da.asarray(weights).transpose(tuple(int(i) for i in np.argsort(axes)))
        w = w.reshape(tuple(s if i in axes else 1 for i, s in enumerate(a.shape)))
        weights = da.broadcast_to(w, a.shape)
    return da.average(a, axis=axis, weights=weights, returned=returned, keepdims=keepdims)


def _masking(name: str, fn: Any = None) -> Any:
    """``fn`` (dask's ``name`` by default) with numpy's ``where=``."""
    fn = getattr(da, name) if fn is None else fn

    spread = name in ("var", "std", "nanvar", "nanstd")

    def reduce(a: Any, *args: Any, where: Any = None, **kwargs: Any) -> Array:
        # dask's reductions take no mask: numpy's result from the masked input
        if where is not None:
            return masked(name, a, *args, where=where, **kwargs)
        if spread and getattr(a, "dtype", None) == np.float16:
            # dask's moments of float16 give NaN where numpy's two passes in float16
            # overflow to inf: numpy's recipe (the masked one, with nothing masked)
            return masked(name, a, *args, where=da.ones(a.shape, bool), **kwargs)
        if spread and kwargs.get("out") is not None:
            # dask's std writes the variance into out= (it passes out= to var, then
            # takes the root): the result is written here instead
            out = kwargs.pop("out")
            return written(name, out, fn(a, *args, **kwargs))
        return fn(a, *args, **kwargs)

    reduce.__name__ = reduce.__qualname__ = f"_{name}"
    return reduce


def _mean(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
          keepdims: bool = False, *, where: Any = None, **kwargs: Any) -> Array:
    if where is not None:
        return masked("mean", a, axis, dtype, out, keepdims, where=where)
    a = da.asarray(a)
    if dtype is None and a.dtype == np.float16:
        # numpy's mean accumulates float16 in float32 (dask's sums in float16 overflow)
        r = da.mean(a, axis=axis, dtype=np.float32, keepdims=keepdims, **kwargs)
        return written("mean", out, r.astype(np.float16))
    return written("mean", out, da.mean(a, axis=axis, dtype=dtype, keepdims=keepdims, **kwargs))


def _nan_extreme(fn: Any, fold: Any) -> Any:
    def extreme(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
                initial: Any = None, where: Any = None) -> Array:
        if where is not None:
            return masked(fn.__name__, a, axis, out, keepdims, initial=initial, where=where)
        # dask's nanmax/nanmin take no ``initial``: numpy folds it in with fmax/fmin
        r = fn(a, axis=axis, keepdims=keepdims)
        return written(fn.__name__, out, r if initial is None else fold(r, initial))

    return extreme


def _count_nonzero(a: Array, axis: Any = None, keepdims: bool = False) -> Array:
    # dask's count_nonzero has no keepdims
    return (da.asarray(a) != 0).sum(axis=axis, keepdims=keepdims)


def _empty_reduction(name: str) -> Any:
    fn = getattr(np, name)

    def reduce(a: Any, axis: Any = None, keepdims: bool = False, **kwargs: Any) -> Array:
        if kwargs.get("where") is not None:  # dask's reductions take no mask
            return masked(name, a, axis=axis, keepdims=keepdims, **kwargs)
        a = da.asarray(a)
        if 0 in a.shape:
            # dask's blocks fail on empty arrays even where numpy's result is a
            # well-defined empty array: numpy on a data-free array of that shape
            # gives the result (or numpy's error)
            out = kwargs.pop("out", None)
            r = fn(np.empty(a.shape, a.dtype), axis=axis, keepdims=keepdims, **kwargs)
            return written(name, out, da.asarray(r))
        return getattr(da, name)(a, axis=axis, keepdims=keepdims, **kwargs)

    reduce.__name__ = reduce.__qualname__ = f"_{name}"
    return reduce


def _cumulative(fn: Any) -> Any:
    def cumulative(a: Any, axis: Any = None, dtype: Any = None) -> Array:
        # dask's cumulative functions fail on 0-d arrays (nancumsum needs an axis):
        # numpy flattens when there is no axis
        a = da.asarray(a)
        if axis is None:
            a, axis = a.reshape(-1), 0
        return fn(a, axis=axis, dtype=dtype)

    return cumulative


def _ptp(a: Any, axis: Any = None, keepdims: bool = False) -> Array:
    # dask's ptp has no keepdims
    a = da.asarray(a)
    return da.max(a, axis=axis, keepdims=keepdims) - da.min(a, axis=axis, keepdims=keepdims)


TABLE = merge_tables(
    {
        "average": _average,
        # numpy's integer, boolean and complex dtype= of the moments: _composed
        "mean": in_dtype("mean", _mean),
        "nanmax": _nan_extreme(da.nanmax, np.fmax),
        "nanmin": _nan_extreme(da.nanmin, np.fmin),
        # dask's own (lazy) beat the composed fallbacks
        "nanargmax": NATIVE,
        "nanargmin": NATIVE,
        "max": _empty_reduction("max"),
        "min": _empty_reduction("min"),
        "amax": _empty_reduction("max"),
        "amin": _empty_reduction("min"),
        "argmax": _empty_reduction("argmax"),
        "argmin": _empty_reduction("argmin"),
        "count_nonzero": _count_nonzero,
        "cumsum": _cumulative(da.cumsum),
        "cumprod": _cumulative(da.cumprod),
        "nancumsum": _cumulative(da.nancumsum),
        "nancumprod": _cumulative(da.nancumprod),
        "ptp": _ptp,
    },
    # dask's own (lazy, beating the composed ones), with numpy's where= (and the
    # moments with numpy 2's mean= and correction=, which dask's take neither of)
    {n: _masking(n) for n in "sum prod all any nansum nanprod".split()},
    {"nanmean": in_dtype("nanmean", _masking("nanmean"))},
    {n: in_dtype(n, numpy_moment(n, _masking(n))) for n in ("var", "std", "nanvar", "nanstd")},
    names=("reductions", "masked reductions", "nanmean", "masked moments"),
)
