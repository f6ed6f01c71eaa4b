"""dask: medians, quantiles, histograms and counts.

dask's medians and quantiles need an axis: ``axis=None`` reduces the flattened
array. Its quantiles compute in float64 where numpy keeps float32 data float32
(every block is cast back). ``histogram`` takes numpy's default range (the
data's, lazily) and edge dtype; ``bincount`` rechunks the weights like ``x``.
"""

from __future__ import annotations

import functools
from typing import Any

import dask.array as da
import numpy as np
from dask.array import Array

from dispatch.engine import NATIVE


def _median(fn: Any) -> Any:
    """dask's ``fn`` (``median`` or ``nanmedian``) with numpy's ``axis=None``."""

    def median(a: Array, axis: Any = None, keepdims: bool = False) -> Array:
        # dask's median and nanmedian refuse axis=None: reduce the flattened array instead
        a = da.asarray(a)
        if axis is None:
            out = fn(a.reshape(-1), axis=0)
            return out.reshape((1,) * a.ndim) if keepdims else out
        return fn(a, axis=axis, keepdims=keepdims)

    median.__name__ = median.__qualname__ = f"_{fn.__name__}"
    return median


def _quantile(a: Any, q: Any, axis: Any = None, keepdims: bool = False, *,
              _fn: Any = da.quantile, **kwargs: Any) -> Array:
    # dask's quantile needs an axis (and a 1-d array at least): reduce the flattened
    # array for axis=None; it computes in float64 where numpy keeps float32 data float32
    a = da.asarray(a)
    dtype = np.result_type(a.dtype, q if isinstance(q, (float, np.ndarray)) else np.asarray(q),
                           1.0)
    if axis is None:
        out = _fn(a.reshape(-1), q, axis=0, **kwargs)
        out = out.reshape(out.shape + (1,) * a.ndim) if keepdims else out
    else:
        out = _fn(a, q, axis=axis, keepdims=keepdims, **kwargs)
    # dask may declare the width it will cast to while its blocks compute in float64:
    # astype would be a no-op on the declared dtype, so every block is cast
    return out.map_blocks(lambda b: b.astype(dtype, copy=False), dtype=dtype)


def _percentile(a: Any, q: Any, axis: Any = None, keepdims: bool = False, *,
                _fn: Any = da.quantile, **kwargs: Any) -> Any:
    # a Python number stays weak (numpy 2): float32 data keeps float32 percentiles
    if isinstance(q, (int, float)):
        q = q / 100
    else:
        q = np.asarray(q) / np.asarray(100, np.asarray(q).dtype)
    return _quantile(a, q, axis=axis, keepdims=keepdims, _fn=_fn, **kwargs)


def _bincount(x: Any, weights: Any = None, minlength: int = 0) -> Array:
    # dask needs the weights chunked like x; numpy has no chunks to disagree
    x = da.asarray(x)
    if weights is not None:
        weights = da.asarray(weights)
        if weights.shape == x.shape and weights.chunks != x.chunks:
            weights = weights.rechunk(x.chunks)
    return da.bincount(x, weights=weights, minlength=minlength)


def _histogram(
    a: Any, bins: Any = 10, range: Any = None, density: Any = None, weights: Any = None
) -> tuple[Array, Array]:
    # dask needs a range with a number of bins; numpy takes the data's (lazy here),
    # widened by 0.5 on both sides when all values are equal, (0, 1) when empty
    a = da.asarray(a)
    edge_type = None
    if isinstance(bins, (int, np.integer)):
        # numpy's edges: the type of the data and the range (Python floats weak), float
        # at least; dask makes numpy edges of a range in float64
        ends = (0.0, 1.0) if range is None else range
        edge_type = np.result_type(
            *(e if type(e) in (int, float) else getattr(e, "dtype", e) for e in ends), a.dtype
        )
        if edge_type.kind in "biu":
            edge_type = np.result_type(edge_type, float)
    if isinstance(bins, (int, np.integer)) and range is None:
        if a.size == 0:
            range = (0.0, 1.0)
        else:
            lo, hi = a.min(), a.max()
            flat = lo == hi
            range = (da.where(flat, lo - 0.5, lo), da.where(flat, hi + 0.5, hi))
    if weights is not None:
        weights = da.asarray(weights)
        if weights.chunks != a.chunks and weights.shape == a.shape:
            weights = weights.rechunk(a.chunks)
    counts, edges = da.histogram(a, bins=bins, range=range, density=density, weights=weights)
    if edge_type is not None and edges.dtype != edge_type:
        edges = edges.astype(edge_type)
    # dask hands numpy bins back as they were: the edges are a dask array whatever the
    # bins were (a mixed call gives the same types as a dask-only one)
    return counts, da.asarray(edges)


TABLE = {
    "median": _median(da.median),
    "nanmedian": _median(da.nanmedian),
    "quantile": _quantile,
    "percentile": _percentile,
    "nanquantile": functools.partial(_quantile, _fn=da.nanquantile),
    "nanpercentile": functools.partial(_percentile, _fn=da.nanquantile),
    "bincount": _bincount,
    "histogram": _histogram,
    # dask's own (lazy) beats the composed fallback
    "digitize": NATIVE,
}
