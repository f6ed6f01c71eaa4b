"""numpy's ``histogramdd``, composed (beside ``_composed/statistics.py``'s histograms)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from dispatch.translations._composed._common import _host
from dispatch.translations._composed.reductions import _dt, default_float
from dispatch.translations._composed.statistics import _bin_of

from dispatch.engine import composed, do, infer_backend_multi, is_array


@composed("histogramdd")
def histogramdd(
    sample: Any,
    bins: Any = 10,
    range: Any = None,  # numpy's keyword: shadows the builtin in this function only
    density: Any = None,
    weights: Any = None,
) -> tuple[Any, list]:
    """D-dimensional histogram of the rows of ``sample`` ((N, D), or D arrays of
    length N), numpy's ``histogramdd``: ``bins`` and ``range`` per dimension as in
    ``histogram2d`` (edges computed on the host by numpy, from the data's min and
    max where no range is given). Returns ``(hist, edges)``: float64 ``hist`` (the
    library's default float for integer samples) and the list of the D edge arrays.

    Examples
    --------
    >>> import numpy as np
    >>> pts = np.array([[0.5, 0.0, 1.0], [1.5, 1.0, 1.0], [1.6, 2.0, 0.0]])
    >>> hist, edges = do("histogramdd", pts, bins=2, range=[(0, 2), (0, 2), (0, 2)])
    >>> hist[:, :, 0], len(edges)
    (array([[0., 0.],
           [0., 1.]]), 3)
    """
    if isinstance(sample, (list, tuple)):
        backend = infer_backend_multi(*sample, weights)
        sample = do("stack", [do("asarray", c if is_array(c) else np.asarray(c), like=backend)
                              for c in sample], axis=1)
    elif not is_array(sample):
        sample = do("asarray", np.asarray(sample), like=weights)
    if len(do("shape", sample)) == 1:
        sample = do("expand_dims", sample, -1)
    n, dims = (int(k) for k in do("shape", sample))
    dt = _dt(sample)
    if is_array(bins):
        bins = _host(bins)
    elif isinstance(bins, (list, tuple)):
        bins = [_host(b) if is_array(b) else b for b in bins]
    per_axis = list(bins) if isinstance(bins, (list, tuple, np.ndarray)) else [bins] * dims
    if len(per_axis) != dims:
        raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    ranges = [None] * dims if range is None else list(range)
    if len(ranges) != dims:
        raise ValueError("range argument must have one entry per dimension")
    for i, b in enumerate(per_axis):
        if ranges[i] is None and np.ndim(b) == 0 and n:
            col = sample[:, i]
            lo, hi = _host(do("min", col)), _host(do("max", col))
            ranges[i] = (lo.astype(dt)[()], hi.astype(dt)[()])
    host_range = None if all(r is None for r in ranges) else ranges
    _, edges_h = np.histogramdd(np.empty((0, dims), dt), bins, range=host_range)  # type: ignore[arg-type]
    sizes = [e.shape[0] - 1 for e in edges_h]
    flat: Any = None
    inside: Any = None
    for i, e in enumerate(edges_h):
        idx, ok = _bin_of(sample[:, i], e)
        flat = idx if flat is None else flat * sizes[i] + idx
        inside = ok if inside is None else inside & ok
    if flat is None:  # no dimension: numpy's 0-d count
        flat, inside = do("zeros", (n,), dtype="int64", like=sample), True
    flat = do("where", inside, flat, do("full_like", flat, -1))
    if weights is not None:
        if not is_array(weights):
            weights = do("asarray", np.asarray(weights), like=sample)
        weights = do("astype", weights, "float64")
    counts = do("bincount_fixed", flat, weights, math.prod(sizes))
    hist = do("reshape", do("astype", counts, "float64"), tuple(sizes))
    if density:
        total = do("sum", hist)
        for i, e in enumerate(edges_h):
            shape = [1] * dims
            shape[i] = sizes[i]
            hist = hist / do("asarray", np.diff(e).astype(np.float64).reshape(shape),
                             like=sample)
        hist = hist / total
    hist = do("asarray", hist, like=sample)
    edges = [do("asarray", e, like=sample) for e in edges_h]
    if dt.kind in "biu":  # numpy's float64 of integers: the library's default float
        wide = default_float(sample)
        hist, edges = do("astype", hist, wide), [do("astype", e, wide) for e in edges]
    return hist, edges
