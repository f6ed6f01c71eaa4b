"""jax's histograms, bincounts and quantiles: numpy's count dtypes and bin edges
for ``histogram`` and ``histogram2d``, the quantile family with numpy's ``q`` and methods,
``digitize``'s index dtype, and the kernels of the backend method list
(``bincount_fixed`` with a static length, ``histogram1d`` by one vmapped
searchsorted and one scatter-add: both work under ``jit``)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._composed import statistics as _statistics


def _histogram(
    a: Any, bins: Any = 10, range: Any = None, density: Any = None, weights: Any = None
) -> tuple:
    # jax counts in floats; numpy's plain counts are integers. numpy's edges are a
    # float64 linspace cast to the data's float type: jax's float32 linspace can move an
    # edge past a value (0.0 became 3.7e-09) and the value into the bin on the left
    a = jnp.asarray(a)
    if isinstance(bins, (int, np.integer)):
        wide = jax.dtypes.canonicalize_dtype(np.float64)
        if range is not None:
            lo, hi = jnp.asarray(range[0], wide), jnp.asarray(range[1], wide)
        elif a.size:
            lo, hi = a.min().astype(wide), a.max().astype(wide)
        else:
            lo, hi = jnp.asarray(0.0, wide), jnp.asarray(1.0, wide)
        lo, hi = jnp.where(lo == hi, lo - 0.5, lo), jnp.where(lo == hi, hi + 0.5, hi)
        kind = a.dtype if jnp.issubdtype(a.dtype, jnp.floating) else wide
        step = (hi - lo) / int(bins)  # numpy's linspace: arange * step + start, exact end
        edges = (jnp.arange(int(bins) + 1, dtype=wide) * step + lo).at[-1].set(hi)
        bins, range = edges.astype(kind), None
    hist, edges = jnp.histogram(a, bins, range, weights, density)
    if weights is not None and not density:  # numpy sums in the weights' dtype
        return hist.astype(jnp.asarray(weights).dtype), edges
    return (hist.astype(int) if weights is None and not density else hist), edges


def _readable(*values: Any) -> bool:
    # values that can be checked now (not while tracing)
    return not any(isinstance(v, jax.core.Tracer) for v in values)


def _outer_edges(column: Any, range_: Any) -> tuple[Any, Any, Any]:
    """numpy's first and last edge of one axis and the dtype of its linspace: from
    ``range`` (its values' dtype, floats for integers), else from the data's min and
    max (the sample's float dtype), else 0 and 1; equal ends widened by 0.5."""
    if range_ is not None:
        lo, hi = range_
        kinds = [getattr(v, "dtype", v) for v in (lo, hi)]
        if _readable(lo, hi):
            if lo > hi:
                raise ValueError("max must be larger than min in range parameter.")
            if not (np.isfinite(lo) and np.isfinite(hi)):
                raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")
    elif column.size:
        lo, hi = column.min(), column.max()
        kinds = [column.dtype]
        if _readable(lo, hi) and not bool(jnp.isfinite(lo) & jnp.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
    else:
        lo, hi, kinds = 0.0, 1.0, [np.float64]
    dtype = np.result_type(*kinds)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.result_type(dtype, 1.0)
    dtype = jax.dtypes.canonicalize_dtype(dtype)
    lo, hi = jnp.asarray(lo).astype(dtype), jnp.asarray(hi).astype(dtype)
    return jnp.where(lo == hi, lo - 0.5, lo), jnp.where(lo == hi, hi + 0.5, hi), dtype


def _axis_edges(column: Any, bins: Any, range_: Any) -> Any:
    """numpy's edges of one axis of ``histogram2d``: ``bins`` edges as given, or
    numpy's linspace (``arange * step + start``, the end exact) in its dtype."""
    if np.ndim(bins) == 1:
        edges = jnp.asarray(bins)
        if _readable(edges) and bool(jnp.any(edges[:-1] > edges[1:])):
            raise ValueError("`bins` must be monotonically increasing, when an array")
        return edges
    if np.ndim(bins) != 0:
        raise ValueError("`bins` must be a scalar or 1d array")
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    n = operator.index(bins)
    lo, hi, dtype = _outer_edges(column, range_)
    step = (hi - lo) / n
    return (jnp.arange(n + 1, dtype=dtype) * step + lo).at[-1].set(hi)


def _histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, density: Any = None,
                 weights: Any = None) -> tuple:
    # jnp.histogram2d takes weights before density (numpy: density first) and counts in
    # integers, where numpy's counts are float64 (numpy sums weights in float64 too);
    # its edges are a linspace in the sample's float type, where numpy's come from the
    # range's values (float64 for Python numbers) and keep the dtype of given edges.
    # numpy's edges are made here and jax counts the pairs against them
    x, y = jnp.asarray(x), jnp.asarray(y)
    if x.ndim != 1 or y.shape != x.shape:
        raise ValueError("x and y must be 1-D arrays of the same length")
    try:
        pair = len(bins)
    except TypeError:  # one number of bins for both axes
        pair = 1
    if pair == 1 and np.ndim(bins) != 0:
        raise ValueError("The dimension of bins must be equal to the dimension of the "
                         "sample x.")
    per_axis = list(bins) if pair == 2 else [bins, bins]
    if range is not None and len(range) != 2:
        raise ValueError("range argument must have one entry per dimension")
    ranges = (None, None) if range is None else range
    sample = jax.dtypes.canonicalize_dtype(np.result_type(x.dtype, y.dtype))  # numpy's
    ex, ey = (_axis_edges(c.astype(sample), b, r)
              for c, b, r in zip((x, y), per_axis, ranges, strict=True))
    wide = jax.dtypes.canonicalize_dtype(np.float64)
    if weights is not None:
        weights = jnp.asarray(weights)
        if jnp.iscomplexobj(weights):  # numpy's bincount sums real weights only
            raise TypeError("Cannot cast array data from dtype('complex128') to "
                            "dtype('float64') according to the rule 'safe'")
        weights = weights.astype(wide)
    pairs = jnp.stack([x, y], axis=1).astype(wide)  # exact: comparisons as numpy's
    hist, _ = jnp.histogramdd(pairs, [ex.astype(wide), ey.astype(wide)], weights=weights)
    hist = hist.astype(wide)
    if density:  # numpy's order: the widths of each axis, then the total
        total = hist.sum()
        hist = hist / jnp.diff(ex).astype(wide)[:, None] / jnp.diff(ey).astype(wide)[None, :]
        hist = hist / total
    return hist, ex, ey


def _q_array(fn: Callable) -> Callable:
    composed = getattr(_statistics, fn.__name__)

    def quantile(a: Any, q: Any, *args: Any, **kwargs: Any) -> Any:
        method = args[3] if len(args) > 3 else kwargs.get("method", "linear")
        if method == "nearest" or (method == "midpoint" and "percentile" in fn.__name__):
            # jnp's midpoint percentile averages the two neighbours even at an exact
            # order statistic (numpy takes that value), and its nearest rounds a half
            # index down (numpy: to even): the composed version
            return composed(a, q, *args, **kwargs)
        # jnp's quantiles take q as an array or a number; numpy's also as a list
        r = fn(a, jnp.asarray(q) if isinstance(q, (list, tuple)) else q, *args, **kwargs)
        keepdims = args[4] if len(args) > 4 else kwargs.get("keepdims", False)
        # jnp keeps a 0-d input's dimensions as (1,); numpy as ()
        return r.reshape(np.shape(q)) if keepdims and jnp.ndim(a) == 0 else r

    quantile.__name__ = quantile.__qualname__ = f"_{fn.__name__}"
    return quantile


def _median_of(fn: Callable) -> Callable:
    def median(a: Any, axis: Any = None, out: None = None, overwrite_input: bool = False,
               keepdims: bool = False) -> Any:
        r = fn(a, axis=axis, out=out, overwrite_input=overwrite_input, keepdims=keepdims)
        # jnp keeps a 0-d input's dimensions as (1,); numpy as ()
        return r.reshape(()) if keepdims and jnp.ndim(a) == 0 else r

    median.__name__ = median.__qualname__ = f"_{fn.__name__}"
    return median


def _widened(fn: Callable) -> Callable:
    def covariance(m: Any, y: Any = None, *args: Any, dtype: Any = None, **kwargs: Any) -> Any:
        # jnp keeps float32 data in float32; numpy computes in float64 at least
        if dtype is None:
            dtype = jnp.result_type(m, *(() if y is None else (y,)), jnp.float64)
        return fn(m, y, *args, dtype=dtype, **kwargs)

    covariance.__name__ = covariance.__qualname__ = f"_{fn.__name__}"
    return covariance


def _digitize(x: Any, bins: Any, right: bool = False) -> Any:
    return jnp.digitize(x, bins, right).astype(int)


def _histogram1d(values: Any, weights: Any, bin_edges: Any) -> Any:
    # one vmapped searchsorted and one flat scatter-add (static sizes: works under jit)
    edges = bin_edges.shape[-1]
    nbins = edges - 1
    batch = max(values.shape[0], bin_edges.shape[0], 1 if weights is None else weights.shape[0])
    v = jnp.broadcast_to(values, (batch, values.shape[-1]))
    e = jnp.broadcast_to(bin_edges, (batch, edges)).astype(jnp.result_type(v, bin_edges))
    slot = jax.vmap(lambda ee, vv: jnp.searchsorted(ee, vv, side="right"))(e, v.astype(e.dtype))
    slot = jnp.where(v == e[:, -1:], nbins, slot) - 1  # the last bin is closed
    valid = (slot >= 0) & (slot < nbins)
    flat = jnp.where(valid, slot + (jnp.arange(batch) * nbins)[:, None], batch * nbins)
    if weights is None:
        w = jnp.ones(v.shape, dtype=int)
    else:
        w = jnp.broadcast_to(weights, v.shape)
        w = w.astype(int) if w.dtype == bool else w
    out = jnp.zeros(batch * nbins + 1, w.dtype).at[flat.reshape(-1)].add(w.reshape(-1))
    return out[:-1].reshape(batch, nbins)


def _bincount_fixed_jax(x: Any, weights: Any, bins: int, x_sorted: bool = False) -> Any:
    # mode="drop" drops indices >= bins; negative ones would wrap, so they get
    # zero weight; static length: works under jit
    # counts in numpy's int64, or int32 where jax runs without 64-bit mode
    count = jax.dtypes.canonicalize_dtype(np.int64)
    w = jnp.ones_like(x, dtype=count) if weights is None else weights
    if w.dtype == bool:
        w = w.astype(count)
    w = jnp.where(x >= 0, w, jnp.zeros_like(w))
    return jnp.zeros(bins, w.dtype).at[x].add(w, mode="drop", indices_are_sorted=x_sorted)


def _segment(kernel: Callable, name: str) -> Callable:
    # jax.ops' segment reductions drop ids outside [0, num_segments); an empty segment
    # of segment_max holds the lowest value, of segment_min the highest, of segment_prod 1
    # (docs/vocabulary.md)
    fallback = getattr(_statistics, name)

    def segment(data: Any, segment_ids: Any, num_segments: Any = None,
                sorted: bool = False) -> Any:
        if isinstance(data, jax.Array) and isinstance(segment_ids, jax.Array) \
                and jnp.issubdtype(segment_ids.dtype, jnp.integer) and data.ndim \
                and segment_ids.ndim == 1 and data.shape[0] == segment_ids.shape[0]:
            if num_segments is None:
                num_segments = int(segment_ids.max()) + 1 if segment_ids.size else 0
            return kernel(data, segment_ids, int(num_segments), indices_are_sorted=bool(sorted))
        return fallback(data, segment_ids, num_segments, sorted)

    segment.__name__ = segment.__qualname__ = name
    return segment


TABLE = {
    "segment_sum": _segment(jax.ops.segment_sum, "segment_sum"),
    "segment_max": _segment(jax.ops.segment_max, "segment_max"),
    "segment_min": _segment(jax.ops.segment_min, "segment_min"),
    "segment_prod": _segment(jax.ops.segment_prod, "segment_prod"),
    "histogram": _histogram,
    "histogram2d": _histogram2d,
    "digitize": _digitize,
    "cov": _widened(jnp.cov),
    "corrcoef": _widened(jnp.corrcoef),
    "median": _median_of(jnp.median),
    "nanmedian": _median_of(jnp.nanmedian),
    "quantile": _q_array(jnp.quantile),
    "percentile": _q_array(jnp.percentile),
    "nanquantile": _q_array(jnp.nanquantile),
    "nanpercentile": _q_array(jnp.nanpercentile),
    # the backend method list: static-length bincount, histograms of rows
    "bincount_fixed": _bincount_fixed_jax,
    "histogram1d": _histogram1d,
}
