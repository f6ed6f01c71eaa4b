"""Counting, histograms, batched search and quantiles of the backend method list.

Where a list method shares its name with a numpy function of other semantics,
numpy keeps the bare name and the list's version is reachable as:

=================================  ==========================  ================================
list method                        ``do`` name                 why renamed
=================================  ==========================  ================================
``bincount(x, weights, bins,       ``bincount_fixed``          numpy's ``bincount`` takes
x_sorted)``                                                    ``minlength`` and grows with
                                                               ``max(x)``; this one has exactly
                                                               ``bins`` entries (jit-friendly)
``searchsorted(sorted_sequence,    ``searchsorted_batched``    numpy's is 1-D only and returns
search_values, side, dtype)``                                  int64
``quantile(x, quantiles)``         ``quantile_last``           numpy's takes ``axis``; this one
                                                               always reduces the last axis
``nonzero(values, length,          ``nonzero_static``          numpy's returns a tuple; this
fill_value)``                                                  one is ``argwhere`` padded or cut
                                                               to ``length`` (as
                                                               ``torch.nonzero_static``)
=================================  ==========================  ================================

``batched_bincount`` and ``histogram1d`` keep their list names (numpy has
neither). A library's native kernels for these names live in its own table
(``translations/numpy.py``, ``translations/<library>/statistics.py`` and
``indexing.py``), not here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from dispatch.translations._composed.indexing import (
    _arange,
    _cast,
    _combined,
    _dtype,
    _first_true,
    _index64,
    _kind,
)
from dispatch.translations._composed.reductions import default_float

from dispatch.engine import composed, do, infer_backend_multi


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


@composed("searchsorted_batched")
def searchsorted_batched(
    sorted_sequence: Any, search_values: Any, side: str = "left", dtype: str = "int32"
) -> Any:
    """Insertion indices of ``search_values`` in ``sorted_sequence``, batched
    over the leading axes (the method list's ``searchsorted``).

    Parameters
    ----------
    sorted_sequence : array, shape (..., m), sorted along the last axis
    search_values : array, shape (..., k); leading axes broadcast
    side : {'left', 'right'}
    dtype : str
        Integer dtype of the result (the list's default is int32).

    Examples
    --------
    >>> import numpy as np
    >>> do("searchsorted_batched", np.array([[1, 3], [0, 9]]), np.array([[2, 3], [9, 10]]))
    array([[1, 1],
           [1, 2]], dtype=int32)
    """
    sshape, vshape = do("shape", sorted_sequence), do("shape", search_values)
    if len(sshape) == 1:
        return _cast(do("searchsorted", sorted_sequence, search_values, side=side), dtype)
    lead = np.broadcast_shapes(sshape[:-1], vshape[:-1])
    rows = math.prod(lead)
    seq = do("reshape", do("broadcast_to", sorted_sequence, (*lead, sshape[-1])), (rows, -1))
    vals = do("reshape", do("broadcast_to", search_values, (*lead, vshape[-1])), (rows, -1))
    if rows == 0:
        return _cast(do("zeros", (*lead, vshape[-1]), like=seq), dtype)
    out = do("stack", [do("searchsorted", seq[r], vals[r], side=side) for r in range(rows)])
    return _cast(do("reshape", out, (*lead, vshape[-1])), dtype)


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


@composed("nonzero_static")
def nonzero_static(values: Any, length: int | None = None, fill_value: int = -1) -> Any:
    """Multi-indices of the non-zero entries, shape (count, ndim) as
    ``numpy.argwhere``; with ``length``, cut or padded with ``fill_value`` to
    exactly ``length`` rows (needed under jit). The method list's ``nonzero``.

    Examples
    --------
    >>> import numpy as np
    >>> do("nonzero_static", np.array([[0, 3], [4, 0]]), length=3)
    array([[ 0,  1],
           [ 1,  0],
           [-1, -1]])
    """
    if length is None:
        return _index64(do("argwhere", values))
    shape = do("shape", values)
    if math.prod(shape) == 0:
        return do("full", (length, len(shape)), fill_value, like=_index64(values))
    mask = do("reshape", _cast(values, "bool"), (math.prod(shape),))
    pos, valid = _first_true(mask, length)
    idx = do("unravel_index_stacked", pos, shape)
    return do("where", valid[:, None], idx, do("full_like", idx, fill_value))
