"""dask: shapes, reshapes, splits, repeats, rolls and pads.

``shape`` and ``size`` compute the chunk sizes of an array whose sizes are
unknown (after boolean indexing or ``nonzero``: see ``GATHERS``). dask reshapes
only along chunk boundaries and in C order, splits nothing, repeats only by an
int, and pads a reflection only once: the adapters keep numpy's results lazily.
"""

from __future__ import annotations

import math
from typing import Any

import dask.array as da
import numpy as np
from dask.array import Array
from dispatch.translations._adapters import ravel_order, split_slices
from dispatch.translations._composed import _unique as composed_unique
from dispatch.translations._composed import shape as composed_shape
from dispatch.translations._keywords import reshape_order

from dispatch.engine import NATIVE, alias


def _known(x: Array) -> Array:
    """``x`` with its chunk sizes known (computes them only where they are not)."""
    if any(math.isnan(c) for c in x.shape):
        # e.g. after boolean indexing or nonzero: the sizes only exist once computed
        x = x.copy()
        x.compute_chunk_sizes()
    return x


def _shape(x: Array) -> tuple[int, ...]:
    return tuple(map(int, _known(x).shape))


def _size(x: Array) -> int:
    return math.prod(_shape(x))


def _transpose(a: Any, axes: Any = None) -> Array:
    # dask reads an empty ``axes`` as None (every axis reversed); numpy's () is the
    # permutation of a 0-d array's axes only
    if axes is not None and len(axes) != np.ndim(a):
        raise ValueError(f"transpose on dask: axes {tuple(axes)} don't match an array of "
                         f"{np.ndim(a)} dimensions")
    return da.transpose(a, axes)


def _ravel(a: Any, order: Any = "C") -> Array:
    # dask.array.ravel has no order; a dask array has no memory layout, so 'A' and
    # 'K' read it as the C-contiguous array it stands for
    a = da.asarray(a)
    if ravel_order(order) == "F":
        return da.ravel(a.T)
    return da.ravel(a)


def _reshape(a: Array, shape: Any, order: str = "C", *, copy: bool | None = None) -> Array:
    # dask arrays are immutable: copy=True cannot be told from a view; copy=False is
    # refused only where numpy's Fortran-order read needs a copy
    a = da.asarray(a)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if order != "C" and reshape_order(a.shape, shape, order, copy) == "F":
        # Fortran order is C order on the reversed axes
        return _reshape(a.T, shape[::-1]).T
    try:
        return da.reshape(a, shape)
    except NotImplementedError:
        # dask splits or merges dimensions only along chunk boundaries:
        # flatten first (a merge), then split the one dimension
        return da.reshape(da.reshape(a, (-1,)), shape)


def _split(a: Array, indices_or_sections: Any, axis: int = 0, *, _name: str = "split") -> list:
    # not in dask.array; slicing along the axis keeps it lazy
    a = da.asarray(a)
    axis = axis % a.ndim
    pieces = split_slices(_shape(a)[axis], indices_or_sections, _name)
    return [a[(slice(None),) * axis + (piece,)] for piece in pieces]


def _array_split(a: Array, indices_or_sections: Any, axis: int = 0) -> list:
    return _split(a, indices_or_sections, axis, _name="array_split")


def _hsplit(a: Array, indices_or_sections: Any) -> list:
    return _split(a, indices_or_sections, 1 if da.asarray(a).ndim > 1 else 0)


def _vsplit(a: Array, indices_or_sections: Any) -> list:
    return _split(a, indices_or_sections, 0)


def _repeat(a: Array, repeats: Any, axis: int | None = None) -> Array:
    # dask repeats only by a Python int along a given axis
    a = da.asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if 0 in _shape(a):  # dask concatenates no blocks for an empty array: numpy's shape
        if isinstance(repeats, Array):
            repeats = repeats.compute()
        return da.from_array(np.repeat(np.empty(_shape(a), a.dtype), repeats, axis=axis))
    if isinstance(repeats, (int, np.integer)):
        return da.repeat(a, int(repeats), axis=axis)
    if isinstance(repeats, Array):
        repeats = repeats.compute()  # the output shape depends on these values
    reps = np.broadcast_to(np.asarray(repeats), (_shape(a)[axis],))
    return da.take(a, np.repeat(np.arange(reps.size), reps), axis=axis)


def _roll(a: Any, shift: Any, axis: Any = None) -> Array:
    # dask wants one shift per axis; numpy applies an int shift to each axis of a tuple
    if isinstance(axis, (tuple, list)) and isinstance(shift, (int, np.integer)):
        shift = (int(shift),) * len(axis)
    return da.roll(da.asarray(a), shift, axis)


def _pad_index(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """Source positions of numpy's periodic pads along an axis of length ``n``."""
    i = np.arange(-before, n + after)
    if mode == "wrap":
        return i % n
    if n == 1:
        return np.zeros_like(i)
    period = 2 * (n - 1) if mode == "reflect" else 2 * n
    j = i % period
    return np.where(j >= n, period - j if mode == "reflect" else period - 1 - j, j)


def _pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Array:
    # da.pad reflects, mirrors and wraps once: a pad wider than the axis gets the wrong
    # shape, where numpy repeats the pattern. Those modes are a take of numpy's positions
    a = da.asarray(array)
    if mode not in ("reflect", "symmetric", "wrap") or kwargs.get("reflect_type", "even") != "even":
        return da.pad(a, pad_width, mode=mode, **kwargs)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (a.ndim, 2))
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    for axis, (before, after) in enumerate(widths.tolist()):
        if before or after:
            if a.shape[axis] == 0:
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
            a = da.take(a, _pad_index(a.shape[axis], before, after, mode), axis=axis)
    return a


# numpy's set routines: dask's unique has sizes known only once computed, which the
# composed routines (translations/_composed/shape.py) slice; the unique values are
# computed first (the result stays lazy where its size depends on the values)
def _unique_known(ar: Any) -> Array:
    return _known(da.unique(da.asarray(ar)))


def _intersect1d(
    ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False
) -> Any:
    if return_indices:
        # the first occurrences need unique(return_index=True), which dask lacks: the
        # (flattened, 1-d) inputs are computed and numpy's answer wrapped again
        h1, h2 = (np.asarray(da.asarray(a).compute()) for a in (ar1, ar2))
        found = np.intersect1d(h1, h2, assume_unique=assume_unique, return_indices=True)
        return tuple(da.from_array(r) for r in found)
    return composed_shape.intersect1d(_unique_known(ar1), _unique_known(ar2), True)


def _setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Any:
    ar1 = _known(da.ravel(da.asarray(ar1))) if assume_unique else _unique_known(ar1)
    return composed_shape.setdiff1d(ar1, ar2, True)


def _setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Any:
    return composed_shape.setxor1d(_unique_known(ar1), _unique_known(ar2), True)


def _unravel_index(indices: Any, shape: Any, order: str = "C") -> Any:
    # dask's own (lazy: an index out of bounds raises when computed) takes no int shape
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(shape)
    return da.unravel_index(da.asarray(indices), shape, order=order)


def _unique_named(name: str) -> Any:
    """numpy 2's ``unique_*``: dask's ``unique`` where it gives numpy's answer lazily,
    else the input computed and the composed answer wrapped again (``GATHERS``)."""
    on_host = getattr(composed_unique, name)

    def unique(x: Any, /) -> Any:
        x = da.asarray(x)
        if name == "unique_all" or x.dtype.kind in "fc":
            # dask's unique has no return_index and keeps its NaNs together, where
            # numpy 2's unique_* count each NaN apart
            out = on_host(np.asarray(x.compute()))
            if name == "unique_values":
                return da.from_array(out)
            return type(out)(*(da.from_array(np.asarray(v)) for v in out))
        flat = da.ravel(x)
        if name == "unique_values":
            return da.unique(flat)
        if name == "unique_counts":
            return composed_unique.UniqueCountsResult(*da.unique(flat, return_counts=True))
        values, inverse = da.unique(flat, return_inverse=True)
        return composed_unique.UniqueInverseResult(values, inverse.reshape(x.shape))

    unique.__name__ = unique.__qualname__ = f"_{name}"
    unique.__doc__ = f"numpy 2's ``{name}`` on a dask array (see ``_unique_named``)."
    return unique


TABLE = {
    "unique_values": _unique_named("unique_values"),
    "unique_counts": _unique_named("unique_counts"),
    "unique_inverse": _unique_named("unique_inverse"),
    "unique_all": _unique_named("unique_all"),
    # dask's own (lazy)
    "union1d": NATIVE,
    "rollaxis": NATIVE,
    "block": NATIVE,
    "extract": NATIVE,
    "unravel_index": _unravel_index,
    "append": NATIVE,
    "intersect1d": _intersect1d,
    "setdiff1d": _setdiff1d,
    "setxor1d": _setxor1d,
    "shape": _shape,
    "size": _size,
    "ravel": _ravel,
    "reshape": _reshape,
    "transpose": _transpose,
    "permute_dims": _transpose,  # the array API's spelling
    "concat": alias("concatenate"),
    "split": _split,
    "array_split": _array_split,
    "hsplit": _hsplit,
    "vsplit": _vsplit,
    "repeat": _repeat,
    "roll": _roll,
    "pad": _pad,
    # keras's slices, composed, without reading dask-array starts or indices on the client
    # (that would compute them): those are not checked against the shape
    "slice": composed_shape.slice_unread,
    "slice_update": composed_shape.slice_update_unread,
    "scatter_update": composed_shape.scatter_update_unread,
}
