"""The backend method list's gather and scatter family (``gather``, ``gather_nd``,
``batched_gather_*``, ``boolean_mask``, ``scatter``, ``scatter_nd``...), composed: a
subtopic of indexing that stands on its own, re-exported by ``indexing.py`` (the topic
whose table modules hold these names), so both paths import them. The layout
conventions are in ``indexing.py``'s docstring."""

from __future__ import annotations

import math
from typing import Any

from dispatch.translations._composed._common import (
    _arange,
    _cast,
    _combined,
    _dtype,
    _index64,
    _kind,
    _ravel,
)
from dispatch.translations._composed._scatter import _check_mode, _scatter, unbatched_forms

from dispatch.engine import composed, do

# ---------------------------------------------------------------- small helpers


def _first_true(mask: Any, length: int) -> tuple[Any, Any]:
    """Positions of the first ``length`` true entries of a 1-D mask, in order,
    and which of those slots exist; static shapes only (works under jit)."""
    n = do("shape", mask)[0]
    counts = do("cumsum", _cast(mask, "int64"))
    slots = _arange(length, counts)
    if n == 0:
        return slots * 0, slots < 0
    pos = do("searchsorted", counts, slots + 1, side="left")
    valid = slots < counts[n - 1]
    return do("minimum", _index64(pos), n - 1), valid


# ---------------------------------------------------------------- scatter


scatter = composed("scatter")(unbatched_forms(_scatter))


@composed("scatter_nd")
def scatter_nd(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    """Scatter without a batch axis: base (spatial..., channels), indices (n, d),
    values (n or 1, channels or 1); see ``scatter``.

    Examples
    --------
    >>> import numpy as np
    >>> do("scatter_nd", np.zeros((2, 2, 1)), np.array([[0, 1]]), np.array([[5.0]]))[..., 0]
    array([[0., 5.],
           [0., 0.]])
    """
    out = do("scatter", base_grid[None], indices[None], values[None], mode)
    return out[0]


@composed("scatter_nd_scalar")
def scatter_nd_scalar(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    """Scatter scalars into an n-d array without channels: base (spatial...),
    indices (n, d), values (n or 1,); see ``scatter``.

    Examples
    --------
    >>> import numpy as np
    >>> do("scatter_nd_scalar", np.zeros((2, 2)), np.array([[1, 1], [1, 1]]), np.ones(2), "add")
    array([[0., 0.],
           [0., 2.]])
    """
    out = do("scatter", base_grid[None, ..., None], indices[None], values[None, :, None], mode)
    return out[0, ..., 0]


@composed("scatter_1d_scalar")
def scatter_1d_scalar(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    """Scatter scalars into a 1-D array: base (size,), indices (n,), values (n or 1,).

    The kernel behind every scatter. This composed version uses ``bincount``
    for floating-point adds (summing in float64) and a sort with
    ``searchsorted`` otherwise (exact for integers; floating adds without a
    usable ``bincount``, e.g. under jit, take differences of float64 prefix
    sums, accurate to about ``n * eps`` of the total), so it needs no in-place
    update and works under jit; it costs O(n log n). Libraries with a native
    scatter override it in their table.

    Examples
    --------
    >>> import numpy as np
    >>> do("scatter_1d_scalar", np.zeros(3, int), np.array([2, 0, 2]), np.array([1, 2, 3]), "max")
    array([2, 0, 3])
    """
    _check_mode(mode)
    size = do("shape", base_grid)[0]
    n = do("shape", indices)[0]
    name = _dtype(base_grid)
    values = _cast(values, name)
    if do("shape", values) != (n,):
        values = do("broadcast_to", values, (n,))
    if n == 0 or size == 0:
        return do("copy", base_grid)
    indices = _index64(indices)
    kind = _kind(name)
    if kind == "b":  # a logical or, computed on integers
        mode = "max" if mode == "add" else mode
        out = scatter_1d_scalar(_cast(base_grid, "int8"), indices, _cast(values, "int8"), mode)
        return _cast(out, "bool")
    if mode == "add" and kind == "f":
        try:
            sums = do("bincount", indices, weights=values, minlength=size)
        except (AttributeError, TypeError, NotImplementedError):
            # no bincount, or one whose length depends on values (under jit):
            # the sort below, with prefix sums in float64
            pass
        else:
            return _cast(base_grid + _cast(sums, name), name)
    if mode in ("max", "min"):
        # sort by value, then by index with the value rank as tie-breaker: the
        # last entry of each index group is its max (min: values descending)
        by_value = do("argsort", values)
        if mode == "min":
            by_value = do("flip", by_value, 0)
        key = do("take", indices, by_value) * n + _arange(n, indices)
        order = do("take", by_value, do("argsort", key))
    else:
        order = do("argsort", indices)
    sorted_idx = do("take", indices, order)
    sorted_val = do("take", values, order)
    cells = _arange(size, indices)
    if mode == "add":  # prefix sums between group bounds (exact for integers)
        if kind in "fc":
            sorted_val = _cast(sorted_val, "float64" if kind == "f" else "complex128")
        zero = do("zeros_like", sorted_val[:1])
        prefix = do("concatenate", [zero, do("cumsum", sorted_val)])
        end = do("searchsorted", sorted_idx, cells, side="right")
        start = do("searchsorted", sorted_idx, cells, side="left")
        return base_grid + _cast(do("take", prefix, end) - do("take", prefix, start), name)
    last = _index64(do("searchsorted", sorted_idx, cells, side="right")) - 1
    safe = do("maximum", last, 0)
    hit = (last >= 0) & (do("take", sorted_idx, safe) == cells)
    new = do("take", sorted_val, safe)
    if mode == "max":
        new = do("maximum", base_grid, new)
    elif mode == "min":
        new = do("minimum", base_grid, new)
    return do("where", hit, new, base_grid)


# ---------------------------------------------------------------- gather


@composed("gather")
def gather(values: Any, indices: Any, axis: int = 0) -> Any:
    """Take the entries ``indices`` (1-D) along ``axis`` (``numpy.take``).

    Examples
    --------
    >>> import numpy as np
    >>> do("gather", np.arange(6).reshape(2, 3), np.array([2, 0]), 1)
    array([[2, 0],
           [5, 3]])
    """
    return do("take", values, indices, axis=axis)


@composed("gather_1d")
def gather_1d(values: Any, indices: Any) -> Any:
    """``gather`` along axis 0.

    Examples
    --------
    >>> import numpy as np
    >>> do("gather_1d", np.array([10, 20, 30]), np.array([2, 2]))
    array([30, 30])
    """
    return do("take", values, indices, axis=0)


@composed("batched_gather_nd")
def batched_gather_nd(values: Any, indices: Any) -> Any:
    """Gather channel vectors at multi-indices, per batch entry.

    Parameters
    ----------
    values : array, shape (batch or 1, spatial..., channels)
    indices : int array, shape (batch or 1, any..., d), d = number of spatial axes

    Returns
    -------
    array, shape (batch, any..., channels)

    Examples
    --------
    >>> import numpy as np
    >>> v = np.arange(12).reshape(1, 2, 3, 2)
    >>> do("batched_gather_nd", v, np.array([[[1, 2], [0, 0]]]))
    array([[[10, 11],
            [ 0,  1]]])
    """
    vshape, ishape = do("shape", values), do("shape", indices)
    spatial = vshape[1:-1]
    if ishape[-1] != len(spatial):
        raise ValueError(f"indices have {ishape[-1]} components for {len(spatial)} spatial axes")
    batch = _combined(vshape[0], ishape[0])
    cells = math.prod(spatial)
    flat = _ravel(indices, spatial)
    if vshape[0] > 1:
        offsets = _arange(batch, flat) * cells
        flat = flat + do("reshape", offsets, (batch,) + (1,) * (len(ishape) - 2))
    table = do("reshape", values, (vshape[0] * cells, vshape[-1]))
    return do("take", table, flat, axis=0)


@composed("batched_gather_1d")
def batched_gather_1d(values: Any, indices: Any) -> Any:
    """``values[b, indices[b, k]]``: values (batch or 1, n), indices (batch or 1, k)
    -> (batch, k).

    Examples
    --------
    >>> import numpy as np
    >>> do("batched_gather_1d", np.array([[1, 2, 3], [4, 5, 6]]), np.array([[2, 0]]))
    array([[3, 1],
           [6, 4]])
    """
    out = do("batched_gather_nd", values[:, :, None], indices[:, :, None])
    return out[..., 0]


@composed("gather_nd")
def gather_nd(values: Any, indices: Any) -> Any:
    """Unbatched ``batched_gather_nd``: values (spatial..., channels), indices
    (n, d) -> (n, channels).

    Examples
    --------
    >>> import numpy as np
    >>> do("gather_nd", np.arange(8).reshape(2, 2, 2), np.array([[1, 0]]))
    array([[4, 5]])
    """
    return do("batched_gather_nd", values[None], indices[None])[0]


@composed("gather_by_component_indices")
def gather_by_component_indices(values: Any, *component_indices: Any) -> Any:
    """``values[i0, i1, ...]`` with one (broadcasting) index array per leading axis.

    Examples
    --------
    >>> import numpy as np
    >>> do("gather_by_component_indices", np.arange(6).reshape(2, 3), np.array([1, 0]), 2)
    array([5, 2])
    """
    shape = do("shape", values)
    k = len(component_indices)
    flat: Any = 0
    for axis, idx in enumerate(component_indices):
        stride = math.prod(shape[axis + 1 : k])
        term = (_index64(idx) if hasattr(idx, "shape") else int(idx)) * stride
        flat = term if axis == 0 else flat + term
    table = do("reshape", values, (math.prod(shape[:k]), *shape[k:]))
    if not hasattr(flat, "shape"):
        return table[flat]
    return do("take", table, flat, axis=0)


@composed("batch_gather")
def batch_gather(tensor: Any, batches: Any) -> Any:
    """``tensor[batches, ...]``, keeping the batch axis for a single int.

    Examples
    --------
    >>> import numpy as np
    >>> do("batch_gather", np.arange(6).reshape(3, 2), 1)
    array([[2, 3]])
    """
    if isinstance(batches, int):
        batches = [batches]
    if isinstance(batches, (list, tuple, range)):
        batches = do("asarray", list(batches), like=tensor)
    return do("take", tensor, batches, axis=0)


@composed("boolean_mask")
def boolean_mask(
    x: Any, mask: Any, axis: int = 0, new_length: int | None = None, fill_value: Any = 0
) -> Any:
    """Select the entries of ``x`` along ``axis`` where the 1-D ``mask`` is true.

    Parameters
    ----------
    new_length : int, optional
        Fixed output size along ``axis`` (needed under jit): the selection is
        cut or padded with ``fill_value``.

    Examples
    --------
    >>> import numpy as np
    >>> m = np.array([True, False, True])
    >>> do("boolean_mask", np.array([1, 2, 3]), m)
    array([1, 3])
    >>> do("boolean_mask", np.array([1, 2, 3]), m, new_length=4, fill_value=-1)
    array([ 1,  3, -1, -1])
    """
    if new_length is None:
        return do("take", x, do("nonzero", mask)[0], axis=axis)
    shape = do("shape", x)
    ndim = len(shape)
    axis = axis % ndim
    if shape[axis] == 0:  # nothing to take from: all fill
        out_shape = tuple(new_length if i == axis else s for i, s in enumerate(shape))
        return do("full", out_shape, fill_value, like=x)
    pos, valid = _first_true(mask, new_length)
    out = do("take", x, pos, axis=axis)
    valid = do("reshape", valid, tuple(-1 if i == axis else 1 for i in range(ndim)))
    return do("where", valid, out, do("full_like", out, fill_value))
