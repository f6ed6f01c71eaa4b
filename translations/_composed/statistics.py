"""Order statistics and binning, numpy's, written once with ``do``: ``quantile``,
``percentile``, ``nanquantile``, ``nanpercentile``, ``nanmedian``, ``digitize``,
``histogram`` and ``histogram2d``.

The quantile family sorts the reduced axes (moved last and flattened into one)
and interpolates between order statistics with numpy's formulas for the methods
'linear' (the default), 'lower', 'higher', 'nearest' and 'midpoint'; the other
methods of numpy (and ``weights=``, which numpy takes for 'inverted_cdf' only)
raise ``NotImplementedError``. The NaN-skipping versions count the non-NaN
values of each slice, so every shape stays static. Result dtypes are numpy's:
a Python float ``q`` keeps a float input's dtype, an array ``q`` promotes with
it, integers give the library's default float (float64 on numpy).

``digitize`` and ``histogram`` are ``searchsorted`` against the bin edges.
``histogram`` computes its edges with numpy on the host (reading ``min`` and
``max`` of the data when ``range`` is not given), so the edges are numpy's to
the last bit; its counts are a ``bincount_fixed`` (static length).
``histogram2d`` does the same on each axis and counts the pairs of bins in one
``bincount_fixed``; its counts are float64, as numpy's.

The counting of the backend method list is here too: ``batched_bincount`` and
``histogram1d`` keep their list names (numpy has neither); two list methods
share a name with a numpy function of other semantics, so numpy keeps the bare
name and the list's version is reachable as:

=================================  ==========================  ================================
list method                        ``do`` name                 why renamed
=================================  ==========================  ================================
``bincount(x, weights, bins,       ``bincount_fixed``          numpy's ``bincount`` takes
x_sorted)``                                                    ``minlength`` and grows with
                                                               ``max(x)``; this one has exactly
                                                               ``bins`` entries (jit-friendly)
``quantile(x, quantiles)``         ``quantile_last``           numpy's takes ``axis``; this one
                                                               always reduces the last axis
=================================  ==========================  ================================

A library's native kernels for these names live in its own table
(``translations/numpy.py``, ``translations/<library>/statistics.py``), not here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from dispatch.translations._composed._common import (
    _arange,
    _cast,
    _combined,
    _dtype,
    _host,
    _index64,
    _kind,
)
from dispatch.translations._composed._ml_statistics import (  # noqa: F401 (re-exported)
    _ml_float,
    moments,
    normalize,
    segment_max,
    segment_min,
    segment_prod,
    segment_sum,
)
from dispatch.translations._composed._quantile import _quantile
from dispatch.translations._composed.reductions import _dt, _readable, default_float

from dispatch.engine import composed, do, infer_backend_multi, is_array

# ---------------------------------------------------------------- the quantile family


@composed("quantile")
def quantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Any:
    """The ``q``-th quantiles of ``a`` along ``axis``, numpy's ``quantile``.

    ``q`` is a number or an array (the result has ``q``'s shape in front);
    ``axis`` an int, a tuple or None; ``keepdims`` as numpy. A slice holding
    NaN gives NaN. Methods: 'linear' (default), 'lower', 'higher', 'nearest',
    'midpoint'. An empty reduction raises ``IndexError`` (as numpy).

    Examples
    --------
    >>> import numpy as np
    >>> do("quantile", np.array([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]]), 0.5, axis=1)
    array([2., 5.])
    >>> do("quantile", np.arange(5.0), [0.1, 0.9], method="lower")
    array([0., 3.])
    """
    extra = {"out": out, "weights": weights, "interpolation": interpolation}
    return _quantile(a, q, axis, method, keepdims, skip_nan=False, percent=False, extra=extra)


@composed("percentile")
def percentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Any:
    """The ``q``-th percentiles of ``a``, numpy's ``percentile``: ``quantile``
    at ``q / 100`` (same arguments and limits).

    Examples
    --------
    >>> import numpy as np
    >>> do("percentile", np.arange(5.0), 25)
    np.float64(1.0)
    """
    extra = {"out": out, "weights": weights, "interpolation": interpolation}
    return _quantile(a, q, axis, method, keepdims, skip_nan=False, percent=True, extra=extra)


@composed("nanquantile")
def nanquantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Any:
    """Quantiles ignoring NaN, numpy's ``nanquantile``.

    Each slice uses its non-NaN values only; an all-NaN slice gives NaN with a
    ``RuntimeWarning`` (as numpy). Otherwise as ``quantile``.

    Examples
    --------
    >>> import numpy as np
    >>> do("nanquantile", np.array([[1.0, np.nan, 3.0], [np.nan, 2.0, 2.0]]), 0.5, axis=1)
    array([2., 2.])
    """
    extra = {"out": out, "weights": weights, "interpolation": interpolation}
    return _quantile(a, q, axis, method, keepdims, skip_nan=True, percent=False, extra=extra)


@composed("nanpercentile")
def nanpercentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    interpolation: Any = None,
) -> Any:
    """Percentiles ignoring NaN, numpy's ``nanpercentile``: ``nanquantile`` at
    ``q / 100``.

    Examples
    --------
    >>> import numpy as np
    >>> do("nanpercentile", np.array([np.nan, 1.0, 2.0, 3.0]), [0, 50])
    array([1., 2.])
    """
    extra = {"out": out, "weights": weights, "interpolation": interpolation}
    return _quantile(a, q, axis, method, keepdims, skip_nan=True, percent=True, extra=extra)


@composed("nanmedian")
def nanmedian(
    a: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> Any:
    """Median ignoring NaN, numpy's ``nanmedian``: the 0.5 ``nanquantile``.

    An all-NaN (or empty) slice gives NaN with a ``RuntimeWarning``.

    Examples
    --------
    >>> import numpy as np
    >>> do("nanmedian", np.array([[1.0, np.nan, 4.0], [2.0, 3.0, 9.0]]), axis=1)
    array([2.5, 3. ])
    """
    extra = {"out": out}
    return _quantile(a, 0.5, axis, "linear", keepdims, skip_nan=True, percent=False, extra=extra)


# ---------------------------------------------------------------- digitize


def _common(x: Any, y: Any) -> tuple[Any, Any]:
    """``x`` and ``y`` cast to numpy's promotion of their dtypes."""
    rt = np.result_type(_dt(x), _dt(y)).name
    return do("astype", x, rt), do("astype", y, rt)


def _monotonic(edges: np.ndarray) -> int:
    """numpy's monotonicity of bins: 1 increasing, -1 decreasing, 0 neither."""
    if edges.size < 2 or np.all(edges[1:] == edges[:-1]):
        return 1
    if np.all(edges[1:] >= edges[:-1]):
        return 1
    if np.all(edges[1:] <= edges[:-1]):
        return -1
    return 0


@composed("digitize")
def digitize(x: Any, bins: Any, right: bool = False) -> Any:
    """Indices of the bins to which each value of ``x`` belongs, numpy's
    ``digitize``: ``bins[i-1] <= x < bins[i]`` (or ``<``/``<=`` with
    ``right=True``), for increasing or decreasing ``bins``.

    The monotonicity of ``bins`` is read from its values (``ValueError`` when
    neither increasing nor decreasing); while tracing for jit ``bins`` is taken
    as increasing. The result is int64 of ``x``'s shape.

    Examples
    --------
    >>> import numpy as np
    >>> do("digitize", np.array([0.2, 6.4, 3.0, 1.6]), np.array([0.0, 1.0, 2.5, 4.0, 10.0]))
    array([1, 4, 3, 2])
    >>> do("digitize", np.array([1.0, 2.0]), np.array([3.0, 2.0, 1.0]), right=True)
    array([3, 2])
    """
    if not is_array(bins):
        bins = do("asarray", np.asarray(bins), like=x)
    if not is_array(x):
        x = do("asarray", np.asarray(x), like=bins)
    if _dt(x).kind == "c":
        raise TypeError("x may not be complex")
    if len(do("shape", bins)) != 1:
        raise ValueError("object too deep for desired array")
    mono = _monotonic(_host(bins)) if _readable(bins) else 1
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    xs, bs = _common(x, bins)
    shape = tuple(do("shape", xs))
    flat = do("reshape", xs, (-1,))
    side = "left" if right else "right"
    if mono == 1:
        idx = do("searchsorted", bs, flat, side=side)
    else:
        nb = do("shape", bs)[0]
        idx = nb - do("searchsorted", do("flip", bs, axis=0), flat, side=side)
    return do("reshape", do("astype", idx, "int64"), shape)


# ---------------------------------------------------------------- histogram


def _edges(a: Any, bins: Any, range_: Any) -> np.ndarray:
    """numpy's bin edges, computed on the host."""
    dt = _dt(a)
    if isinstance(bins, str):
        # data-driven rules ('auto', 'fd'...) need the values themselves
        return np.histogram_bin_edges(_host(a), bins, range=range_)
    if is_array(bins):
        return _host(bins)
    if np.ndim(bins) != 0:
        return np.asarray(bins)
    if range_ is None:
        if math.prod(do("shape", a)) == 0:
            range_ = (0, 1)
        else:
            lo, hi = _host(do("min", a)), _host(do("max", a))
            range_ = (lo.astype(dt)[()], hi.astype(dt)[()])
    # numpy derives the edge dtype from the range and the data: an empty array
    # of the data's dtype gives the same edges without reading anything else
    return np.histogram_bin_edges(np.empty(0, dt), bins, range=range_)


@composed("histogram")
def histogram(
    a: Any,
    bins: Any = 10,
    range: Any = None,  # numpy's keyword: shadows the builtin in this function only
    density: Any = None,
    weights: Any = None,
) -> tuple[Any, Any]:
    """Histogram of the values of ``a`` (flattened), numpy's ``histogram``.

    ``bins``: a number of equal bins over ``range`` (default: the data's min and
    max, read from the values), an increasing sequence of edges, or one of
    numpy's rule names ('auto', 'fd', ..., which read the values on the host).
    Values outside the edges are dropped; the last bin includes its right edge.
    ``weights`` sum instead of counting (the counts take their dtype);
    ``density=True`` gives float64 densities. Returns ``(hist, bin_edges)``,
    both arrays of ``a``'s library.

    Examples
    --------
    >>> import numpy as np
    >>> do("histogram", np.array([0.5, 1.5, 1.6, 2.0, 9.0]), bins=3, range=(0.0, 3.0))
    (array([1, 2, 1]), array([0., 1., 2., 3.]))
    >>> counts, _ = do("histogram", np.array([1.0, 2.0, 2.5]), np.array([0, 2, 3]), density=True)
    >>> counts
    array([0.16666667, 0.66666667])
    """
    if not is_array(a):
        a = do("asarray", np.asarray(a), like=weights)
    edges_h = _edges(a, bins, range)
    if edges_h.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if np.any(edges_h[:-1] > edges_h[1:]):
        raise ValueError("`bins` must increase monotonically, when an array")
    nbins = edges_h.shape[0] - 1
    edges = do("asarray", edges_h, like=a)
    flat = do("reshape", a, (-1,))
    if weights is not None:
        if not is_array(weights):
            weights = do("asarray", np.asarray(weights), like=a)
        if tuple(do("shape", weights)) != tuple(do("shape", a)):
            raise ValueError("weights should have the same shape as a.")
        weights = do("reshape", weights, (-1,))
    vals, cut = _common(flat, edges)
    idx = do("searchsorted", cut, vals, side="right") - 1
    idx = do("where", vals == cut[nbins], do("full_like", idx, nbins - 1), idx)
    inside = (vals >= cut[0]) & (vals <= cut[nbins])
    idx = do("where", inside, idx, do("full_like", idx, -1))
    hist = do("bincount_fixed", do("astype", idx, "int64"), weights, nbins)
    if weights is not None:
        hist = do("astype", hist, _dt(weights).name)
    if density:
        widths = do("asarray", np.diff(edges_h).astype(np.float64), like=a)
        hist = do("astype", hist, "float64")
        return hist / widths / do("sum", hist), _edges_width(a, bins, edges)
    return hist, _edges_width(a, bins, edges)


def _edges_width(a: Any, bins: Any, edges: Any) -> Any:
    """numpy's equal bins over integer data are float64 (from integers alone): the
    library's default float, as every int -> float result (docs/vocabulary.md)."""
    if np.ndim(bins) == 0 and not isinstance(bins, str) and _dt(a).kind in "biu":
        return do("astype", edges, default_float(a).name)
    return edges


@composed("histogram_bin_edges")
def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> Any:
    """The bin edges ``histogram`` uses for ``a`` (flattened), numpy's
    ``histogram_bin_edges``: ``bins`` equal bins over ``range`` (default: the data's
    min and max), the edges given, or one of numpy's rule names ('auto', 'fd', ...,
    computed on the host). An array of ``a``'s library.

    Examples
    --------
    >>> import numpy as np
    >>> do("histogram_bin_edges", np.array([0.5, 1.5, 1.6, 2.0, 9.0]), bins=4)
    array([0.5  , 2.625, 4.75 , 6.875, 9.   ])
    """
    if not is_array(a):
        a = do("asarray", np.asarray(a), like=weights)
    if weights is not None and isinstance(bins, str):
        raise TypeError(f"{bins} estimator does not support weights")
    edges = _edges(a, bins, range)
    if edges.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if np.any(edges[:-1] > edges[1:]):
        raise ValueError("`bins` must increase monotonically, when an array")
    out = do("asarray", edges, like=a)
    # numpy's float64 edges of integers: the library's default float (docs/vocabulary.md)
    return do("astype", out, default_float(a)) if _dt(a).kind in "biu" else out


# ---------------------------------------------------------------- histogram2d


def _pair(x: Any, y: Any, weights: Any) -> tuple[Any, Any, Any]:
    """``x``, ``y`` and ``weights`` as arrays of the call's library."""
    backend = infer_backend_multi(x, y, weights)
    x, y = (do("asarray", v if is_array(v) else np.asarray(v), like=backend) for v in (x, y))
    if weights is not None:
        weights = do("asarray", weights if is_array(weights) else np.asarray(weights),
                     like=backend)
    return x, y, weights


def _edges2d(x: Any, y: Any, bins: Any, range_: Any) -> tuple[np.ndarray, np.ndarray]:
    """numpy's bin edges of ``histogram2d``, computed on the host by numpy itself.

    numpy derives an axis' edges from its ``range`` or, without one, from the
    minimum and maximum of the data (in the dtype of the stacked sample): those two
    values are read here and handed to numpy as the range, with an empty sample of
    that dtype, so that the edges (and numpy's errors for bad ``bins`` or
    ``range``) are numpy's own.
    """
    sample = np.result_type(_dt(x), _dt(y))
    if is_array(bins):
        bins = _host(bins)
    elif isinstance(bins, (list, tuple)):
        bins = [_host(b) if is_array(b) else b for b in bins]
    # numpy's reading of bins: a pair (one entry per axis), else the same for both
    per_axis = list(bins) if hasattr(bins, "__len__") and len(bins) == 2 else [bins, bins]
    if range_ is not None and len(range_) != 2:
        raise ValueError("range argument must have one entry per dimension")
    ranges = [None, None] if range_ is None else list(range_)
    n = do("shape", x)[0]
    for i, (column, b) in enumerate(zip((x, y), per_axis, strict=True)):
        if ranges[i] is None and np.ndim(b) == 0 and n:
            lo, hi = _host(do("min", column)), _host(do("max", column))
            ranges[i] = (lo.astype(sample)[()], hi.astype(sample)[()])
    host_range = None if all(r is None for r in ranges) else ranges
    empty = np.empty(0, sample)
    _, ex, ey = np.histogram2d(empty, empty, bins, range=host_range)
    return ex, ey


def _bin_of(column: Any, edges_h: np.ndarray) -> tuple[Any, Any]:
    """(bin index, inside the edges) of each value, numpy's rule: half-open bins,
    the last one closed."""
    n = edges_h.shape[0] - 1
    vals, cut = _common(column, do("asarray", edges_h, like=column))
    idx = do("searchsorted", cut, vals, side="right") - 1
    idx = do("where", vals == cut[n], do("full_like", idx, n - 1), idx)
    inside = (vals >= cut[0]) & (vals <= cut[n])
    return do("astype", idx, "int64"), inside


@composed("histogram2d")
def histogram2d(
    x: Any,
    y: Any,
    bins: Any = 10,
    range: Any = None,  # numpy's keyword: shadows the builtin in this function only
    density: Any = None,
    weights: Any = None,
) -> tuple[Any, Any, Any]:
    """Two-dimensional histogram of the pairs ``(x[i], y[i])``, numpy's ``histogram2d``.

    ``bins``: a number of equal bins for both axes, a pair of numbers, an
    increasing array of edges for both axes, or a pair of arrays (or of an array
    and a number). Equal bins span ``range`` (``[[xmin, xmax], [ymin, ymax]]``,
    default: the data's min and max, read from the values). Values outside the
    edges are dropped; the last bin of each axis includes its right edge.
    ``weights`` sum instead of counting. Returns ``(hist, xedges, yedges)``:
    ``hist`` is float64 (counts, sums or, with ``density=True``, densities) as
    numpy's, of shape ``(len(xedges) - 1, len(yedges) - 1)``.

    Examples
    --------
    >>> import numpy as np
    >>> x, y = np.array([0.5, 1.5, 1.6, 2.0]), np.array([0.0, 1.0, 2.0, 2.0])
    >>> hist, xedges, yedges = do("histogram2d", x, y, bins=2, range=[(0, 2), (0, 2)])
    >>> hist
    array([[1., 0.],
           [0., 3.]])
    >>> xedges
    array([0., 1., 2.])
    """
    x, y, weights = _pair(x, y, weights)
    n = do("shape", x)[0] if len(do("shape", x)) == 1 else -1
    if n < 0 or tuple(do("shape", y)) != (n,):
        raise ValueError("x and y must be 1-D arrays of the same length")
    ex, ey = _edges2d(x, y, bins, range)
    sample = np.result_type(_dt(x), _dt(y)).name
    ix, in_x = _bin_of(do("astype", x, sample), ex)
    iy, in_y = _bin_of(do("astype", y, sample), ey)
    nx, ny = ex.shape[0] - 1, ey.shape[0] - 1
    flat = do("where", in_x & in_y, ix * ny + iy, do("full_like", ix, -1))
    if weights is not None:
        if tuple(do("shape", weights)) != (n,):
            raise ValueError("weights should have the same shape as x and y.")
        if _dt(weights).kind == "c":  # numpy sums weights in float64 (np.bincount)
            raise TypeError("Cannot cast array data from dtype('complex128') to "
                            "dtype('float64') according to the rule 'safe'")
        weights = do("astype", weights, "float64")
    counts = do("bincount_fixed", flat, weights, nx * ny)
    hist = do("reshape", do("astype", counts, "float64"), (nx, ny))
    if density:  # numpy's order: the widths of each axis, then the total
        total = do("sum", hist)
        dx = do("asarray", np.diff(ex).astype(np.float64)[:, None], like=x)
        dy = do("asarray", np.diff(ey).astype(np.float64)[None, :], like=x)
        hist = hist / dx / dy / total
    # (a library whose weighted bincount answers in numpy gets its own array back)
    return tuple(do("asarray", a, like=x) for a in (hist, ex, ey))


# ---------------------------------------------------------------- counting (method list)


def _weights_or_ones(x: Any, weights: Any) -> Any:
    if weights is None:
        return do("ones_like", x)  # int64, like x
    return _cast(weights, "int64") if _dtype(weights) == "bool" else weights


@composed("bincount_fixed")
def bincount_fixed(x: Any, weights: Any, bins: int, x_sorted: bool = False) -> Any:
    """Count (or sum ``weights`` of) the occurrences of each value in ``range(bins)``.

    The method list's ``bincount``: the result has exactly ``bins`` entries, so
    its shape never depends on the data; values outside ``[0, bins)`` are
    dropped.

    Parameters
    ----------
    x : 1-D int array
    weights : 1-D array like ``x``, or None (count)
    bins : int
    x_sorted : bool
        Hint that ``x`` is sorted (libraries with segment sums may use it).

    Returns
    -------
    1-D array of length ``bins``: int64 counts, or sums of the dtype of ``weights``.

    Examples
    --------
    >>> import numpy as np
    >>> do("bincount_fixed", np.array([0, 2, 2, 7]), None, 4)
    array([1, 0, 2, 0])
    >>> do("bincount_fixed", np.array([1, 1]), np.array([0.5, 2.0]), 3)
    array([0. , 2.5, 0. ])
    """
    x = _index64(x)
    w = _weights_or_ones(x, weights)
    valid = (x >= 0) & (x < bins)
    x = do("where", valid, x, do("zeros_like", x))
    w = do("where", valid, w, do("zeros_like", w))
    return do("scatter_1d_scalar", do("zeros", (bins,), like=w), x, w, "add")


@composed("batched_bincount")
def batched_bincount(x: Any, weights: Any, bins: int) -> Any:
    """``bincount_fixed`` of each row: x (batch or 1, n), weights (batch or 1, n)
    or None -> (batch, bins).

    Examples
    --------
    >>> import numpy as np
    >>> do("batched_bincount", np.array([[0, 1, 1], [2, 2, 2]]), None, 3)
    array([[1, 2, 0],
           [0, 0, 3]])
    """
    xs = do("shape", x)
    batch = _combined(xs[0], *([] if weights is None else [do("shape", weights)[0]]))
    x = _index64(x)
    n = xs[1]
    w = _weights_or_ones(x, weights)
    if n == 0:  # the library of the call (x's or w's, whichever wins), w's dtype
        backend = infer_backend_multi(x, w)
        dtype = do("to_backend_dtype", do("get_dtype_name", w), like=backend)
        return do("zeros", (batch, bins), dtype=dtype, like=backend)
    offset = do("reshape", _arange(batch, x) * bins, (batch, 1))
    flat = do("where", (x >= 0) & (x < bins), x + offset, do("full_like", x + offset, -1))
    flat = do("reshape", do("broadcast_to", flat, (batch, n)), (batch * n,))
    w = do("reshape", do("broadcast_to", w, (batch, n)), (batch * n,))
    return do("reshape", do("bincount_fixed", flat, w, batch * bins), (batch, bins))


@composed("histogram1d")
def histogram1d(values: Any, weights: Any, bin_edges: Any) -> Any:
    """Weighted histograms of each row, as ``numpy.histogram(values[b],
    bin_edges[b], weights=weights[b])[0]``.

    Parameters
    ----------
    values : array, shape (batch or 1, n)
    weights : array, shape (batch or 1, n), or None (counts)
    bin_edges : array, shape (batch or 1, edges), increasing

    Returns
    -------
    array, shape (batch, edges - 1), the dtype of ``weights`` (int64 counts for
    None). Bins are half-open except the last, which includes its right edge;
    values outside the edges are not counted.

    Examples
    --------
    >>> import numpy as np
    >>> do("histogram1d", np.array([[0.5, 1.0, 2.0, 9.0]]), None, np.array([[0.0, 1.0, 2.0]]))
    array([[1, 2]])
    """
    edges = do("shape", bin_edges)[-1]
    slot = _index64(do("searchsorted_batched", bin_edges, values, side="right")) - 1
    last_edge = bin_edges[:, edges - 1 :]
    slot = do("where", values == last_edge, do("full_like", slot, edges - 2), slot)
    return do("batched_bincount", slot, weights, edges - 1)


@composed("quantile_last")
def quantile_last(x: Any, quantiles: Any) -> Any:
    """Quantiles of the last axis, with numpy's default linear interpolation
    (the method list's ``quantile``).

    Parameters
    ----------
    x : array, shape (..., n), no NaN
    quantiles : float, sequence of floats or 1-D array, in [0, 1]

    Returns
    -------
    array, shape (len(quantiles), ...) (or (...) for a scalar); floating inputs
    keep their dtype, integers give the library's default float.

    Examples
    --------
    >>> import numpy as np
    >>> do("quantile_last", np.array([[1.0, 2.0, 3.0, 4.0]]), [0.0, 0.5])
    array([[1. ],
           [2.5]])
    """
    shape = do("shape", x)
    n = shape[-1]
    name = _dtype(x)
    ftype = name if _kind(name) == "f" else default_float(x).name
    scalar = not hasattr(quantiles, "shape") and not isinstance(quantiles, (list, tuple))
    if hasattr(quantiles, "shape") and not isinstance(quantiles, np.ndarray):
        q = _cast(do("reshape", quantiles, (-1,)), "float64")
        scalar = len(do("shape", quantiles)) == 0
        pos = q * (n - 1)
        lo = _index64(do("floor", pos))
        frac = _cast(pos - _cast(lo, "float64"), ftype)
    else:  # host quantiles: the positions are computed once, in numpy
        qh = np.asarray(quantiles, dtype=np.float64).reshape(-1)
        pos_h = qh * (n - 1)
        lo_h = np.floor(pos_h).astype(np.int64)
        lo = do("asarray", lo_h, like=x)
        frac = _cast(do("asarray", pos_h - lo_h, like=x), ftype)
    lo = do("clip", lo, 0, max(n - 1, 0))
    hi = do("minimum", lo + 1, max(n - 1, 0))
    xs = _cast(do("sort", x, axis=-1), ftype)
    below = do("take", xs, lo, axis=-1)
    above = do("take", xs, hi, axis=-1)
    out = below + (above - below) * frac  # (..., q)
    out = do("moveaxis", out, -1, 0)
    return out[0] if scalar else out
