"""Shape methods of the backend method list, numpy's ``ediff1d`` and
``matrix_transpose``, and numpy's set routines (``intersect1d``, ``union1d``,
``setdiff1d``, ``setxor1d``: sorted 1-d results of eager, data-dependent size),
and ``append``, ``insert`` and ``delete`` (positions worked out on the host from
``obj``, then one ``take``), written once with ``do``.

Where the list's name clashes with numpy's, numpy keeps the bare name:

=========================================  ==========================  =========================
list method                                ``do`` name                 why renamed
=========================================  ==========================  =========================
``pad(value, pad_width, mode, ...)``       ``pad_boundary``            the list's mode names
                                                                       ('boundary', 'periodic')
``expand_dims(a, axis, number)``           ``expand_dims_n``           inserts ``number`` axes
``repeat(x, repeats, axis, new_length)``   ``repeat_n``                fixed ``new_length``
``flip(value, axes)``                      ``flip_axes``               ``axes`` is a sequence
=========================================  ==========================  =========================

The list's creation methods (``as_tensor``, ``range``, ``linspace_without_last``,
``meshgrid_ij``, ``copy_leaves``) are in :mod:`.creation`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed._sets import (  # noqa: F401 (re-exported)
    intersect1d,
    setdiff1d,
    setxor1d,
    union1d,
)
from dispatch.translations._composed._slices import (  # noqa: F401 (re-exported)
    scatter_update,
    scatter_update_unread,
    slice_,
    slice_unread,
    slice_update,
    slice_update_unread,
)
from dispatch.translations._composed.reductions import _dt

from dispatch.engine import composed, do, is_array

_PAD_MODES = {
    "constant": "constant",
    "zeros": "constant",
    "boundary": "edge",
    "edge": "edge",
    "periodic": "wrap",
    "wrap": "wrap",
    "symmetric": "symmetric",
    "reflect": "reflect",
}


# ---------------------------------------------------------------- shape


def _size(s: Any) -> int | None:
    if s is None:
        return None
    try:
        f = float(s)
    except TypeError:  # a symbolic size while tracing
        return None
    return None if math.isnan(f) else int(f)


@composed("staticshape")
def staticshape(x: Any) -> tuple:
    """The shape as a tuple of ints, None for sizes unknown until run time.

    Examples
    --------
    >>> import numpy as np
    >>> do("staticshape", np.ones((2, 3)))
    (2, 3)
    """
    if isinstance(x, numbers.Number):
        return ()
    return tuple(_size(s) for s in x.shape)


@composed("ndims")
def ndims(x: Any) -> int:
    """Number of dimensions (the list's name for ``ndim``).

    Examples
    --------
    >>> import numpy as np
    >>> do("ndims", np.ones((2, 3)))
    2
    """
    return 0 if isinstance(x, numbers.Number) else len(x.shape)


@composed("flatten")
def flatten(x: Any) -> Any:
    """``reshape(x, (-1,))``.

    Examples
    --------
    >>> import numpy as np
    >>> do("flatten", np.ones((2, 2)))
    array([1., 1., 1., 1.])
    """
    return do("reshape", x, (-1,))


@composed("stack_leaves")
def stack_leaves(trees: Sequence[Any], axis: int = 0) -> Any:
    """Stack the matching leaves of several trees of the same structure.

    Examples
    --------
    >>> import numpy as np
    >>> out = do("stack_leaves", [(np.zeros(2), np.ones(1)), (np.ones(2), np.ones(1))])
    >>> [o.shape for o in out]
    [(2, 2), (2, 1)]
    """
    first = trees[0]
    if isinstance(first, dict):
        return {k: stack_leaves([t[k] for t in trees], axis) for k in first}
    if isinstance(first, (tuple, list)):
        out = [stack_leaves([t[i] for t in trees], axis) for i in range(len(first))]
        return type(first)(*out) if hasattr(first, "_fields") else type(first)(out)
    return do("stack", list(trees), axis=axis)


@composed("pad_stack")
def pad_stack(
    tensors: Sequence[Any], shape: Sequence[int] | None = None, pad_value: Any = 0
) -> Any:
    """Pad (at the end of each axis) the tensors to one shape, then stack them.

    ``shape`` defaults to the largest size of each axis; larger tensors are cut.

    Examples
    --------
    >>> import numpy as np
    >>> do("pad_stack", [np.ones(1), np.ones(3)], pad_value=-1)
    array([[ 1., -1., -1.],
           [ 1.,  1.,  1.]])
    """
    shapes = [do("shape", t) for t in tensors]
    if shape is None:
        shape = [max(s[i] for s in shapes) for i in range(len(shapes[0]))]
    out = []
    for t in tensors:
        for axis, size in enumerate(shape):
            t = pad_to(t, axis, int(size), pad_value)
        out.append(t)
    return do("stack", out)


@composed("concat")
def concat(values: Sequence[Any], axis: int = 0) -> Any:
    """``concatenate(values, axis)`` (numpy 2's ``concat``).

    Examples
    --------
    >>> import numpy as np
    >>> do("concat", [np.zeros(1), np.ones(1)], 0)
    array([0., 1.])
    """
    return do("concatenate", list(values), axis=axis)


@composed("pad_boundary")
def pad_boundary(
    value: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0
) -> Any:
    """Pad with the list's boundary modes (the list's ``pad``).

    Parameters
    ----------
    value : array
    pad_width : sequence of (before, after) pairs, one per axis
    mode : str
        'constant' (also 'zeros'), 'boundary' (= numpy 'edge'), 'periodic'
        (= numpy 'wrap'), 'symmetric' or 'reflect'; numpy's names work too.
    constant_values : scalar, for mode 'constant'

    Examples
    --------
    >>> import numpy as np
    >>> do("pad_boundary", np.array([1, 2, 3]), [(1, 2)], "periodic")
    array([3, 1, 2, 3, 1, 2])
    """
    try:
        np_mode = _PAD_MODES[mode]
    except KeyError:
        raise ValueError(f"pad mode must be one of {sorted(_PAD_MODES)}, got {mode!r}") from None
    width = [tuple(int(w) for w in pair) for pair in _pairs(pad_width)]
    if all(w == (0, 0) for w in width):
        return value
    if np_mode == "constant":
        return do("pad", value, width, mode="constant", constant_values=constant_values)
    return do("pad", value, width, mode=np_mode)


def _pairs(pad_width: Any) -> list:
    if is_array(pad_width):
        pad_width = do("to_numpy", pad_width).tolist()
    return [tuple(p) for p in pad_width]


@composed("pad_to")
def pad_to(x: Any, axis: int, new_size: int, fill_value: Any = 0) -> Any:
    """Pad the end of ``axis`` with ``fill_value``, or cut it, to ``new_size``.

    Examples
    --------
    >>> import numpy as np
    >>> do("pad_to", np.array([1, 2]), 0, 4)
    array([1, 2, 0, 0])
    """
    shape = do("shape", x)
    axis = axis % len(shape)
    current = shape[axis]
    if new_size > current:
        width = [(0, new_size - current) if i == axis else (0, 0) for i in range(len(shape))]
        return do("pad", x, width, mode="constant", constant_values=fill_value)
    if new_size < current:
        return x[(slice(None),) * axis + (slice(0, new_size),)]
    return x


@composed("tile_to")
def tile_to(x: Any, axis: int, size: int) -> Any:
    """Tile ``axis`` until it has ``size`` entries (a multiple of its size).

    Examples
    --------
    >>> import numpy as np
    >>> do("tile_to", np.array([[1, 2]]), 0, 3)
    array([[1, 2],
           [1, 2],
           [1, 2]])
    """
    shape = do("shape", x)
    axis = axis % len(shape)
    current = shape[axis]
    if current == size:
        return x
    if current == 0 or size % current:
        raise ValueError(f"cannot tile an axis of size {current} to size {size}")
    reps = tuple(size // current if i == axis else 1 for i in range(len(shape)))
    return do("tile", x, reps)


@composed("unstack")
def unstack(x: Any, axis: int = 0, keepdims: bool = False) -> tuple:
    """Split ``x`` along ``axis`` into a tuple of its slices.

    Examples
    --------
    >>> import numpy as np
    >>> do("unstack", np.arange(4).reshape(2, 2), 1)
    (array([0, 2]), array([1, 3]))
    """
    shape = do("shape", x)
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"axis {axis} is out of bounds for {len(shape)} dimensions")
    axis = axis % len(shape)
    lead = (slice(None),) * axis
    if keepdims:
        return tuple(x[(*lead, slice(i, i + 1))] for i in range(shape[axis]))
    return tuple(x[(*lead, i)] for i in range(shape[axis]))


@composed("determine_size")
def determine_size(tensors: Sequence[Any], axis: int) -> int:
    """The common size of ``axis`` over tensors whose sizes are each 1 or one size.

    Examples
    --------
    >>> import numpy as np
    >>> do("determine_size", [np.ones((1, 2)), np.ones((3, 2))], 0)
    3
    """
    sizes = {do("shape", t)[axis] for t in tensors}
    big = sizes - {1}
    if len(big) > 1:
        raise ValueError(f"sizes {sorted(sizes)} along axis {axis} do not broadcast")
    return big.pop() if big else 1


@composed("get_diagonal")
def get_diagonal(matrices: Any, offset: int = 0) -> Any:
    """Diagonals of (batch, rows, cols, channels) matrices -> (batch, length, channels).

    ``offset`` > 0 is above the main diagonal, < 0 below.

    Examples
    --------
    >>> import numpy as np
    >>> m = np.arange(9).reshape(1, 3, 3, 1)
    >>> do("get_diagonal", m)[0, :, 0]
    array([0, 4, 8])
    """
    d = do("diagonal", matrices, offset, axis1=1, axis2=2)  # (batch, channels, length)
    return do("moveaxis", d, -1, 1)


@composed("expand_dims_n")
def expand_dims_n(a: Any, axis: int = 0, number: int = 1) -> Any:
    """Insert ``number`` singleton axes at ``axis`` (the list's ``expand_dims``).

    Examples
    --------
    >>> import numpy as np
    >>> do("expand_dims_n", np.ones((2, 3)), -1, 2).shape
    (2, 3, 1, 1)
    """
    shape = list(do("shape", a))
    pos = axis if axis >= 0 else len(shape) + axis + 1
    if not 0 <= pos <= len(shape):
        raise ValueError(f"axis {axis} is out of bounds for {len(shape)} dimensions")
    return do("reshape", a, tuple(shape[:pos] + [1] * number + shape[pos:]))


@composed("repeat_n")
def repeat_n(x: Any, repeats: Any, axis: int, new_length: int | None = None) -> Any:
    """Repeat each element along ``axis`` (``numpy.repeat``), optionally to a
    fixed length (the list's ``repeat``).

    With ``new_length``, the result has exactly that many entries along
    ``axis``: extra ones are dropped and missing ones repeat the last element
    (jax's ``total_repeat_length``); the shape no longer depends on the data.

    Examples
    --------
    >>> import numpy as np
    >>> do("repeat_n", np.array([1, 2]), np.array([2, 1]), 0, new_length=5)
    array([1, 1, 2, 2, 2])
    """
    if new_length is None:
        return do("repeat", x, repeats, axis=axis)
    n = do("shape", x)[axis]
    if isinstance(repeats, numbers.Integral):
        repeats = do("full", (n,), int(repeats), dtype="int64", like=x)
    ends = do("cumsum", repeats)
    idx = do("searchsorted", ends, do("arange", new_length, like=ends), side="right")
    idx = do("clip", idx, 0, max(n - 1, 0))
    return do("take", x, idx, axis=axis)


@composed("flip_axes")
def flip_axes(value: Any, axes: Sequence[int]) -> Any:
    """Reverse the given axes (the list's ``flip``).

    Examples
    --------
    >>> import numpy as np
    >>> do("flip_axes", np.arange(4).reshape(2, 2), (0, 1))
    array([[3, 2],
           [1, 0]])
    """
    axes = tuple(axes)
    if not axes:
        return value
    return do("flip", value, axis=axes)


@composed("column_stack")
def column_stack(tup: Sequence[Any]) -> Any:
    """numpy's ``column_stack``: 1-D arrays (and 0-d ones) become columns, arrays
    of two or more dimensions stay; all are joined along the second axis.

    Composed of ``reshape`` and ``concatenate`` (lazy on dask).

    Examples
    --------
    >>> import numpy as np
    >>> do("column_stack", [np.array([1, 2]), np.array([[3, 4], [5, 6]])])
    array([[1, 3, 4],
           [2, 5, 6]])
    """
    ref = next((v for v in tup if is_array(v)), None)
    cols = []
    for v in tup:
        if not is_array(v):  # numbers and lists, as numpy.asanyarray reads them
            v = do("asarray", v) if ref is None else do("asarray", v, like=ref)
        cols.append(do("reshape", v, (-1, 1)) if do("ndim", v) < 2 else v)
    return do("concatenate", cols, axis=1)


# ---------------------------------------------------------------- ediff1d, matrix_transpose


def _extra(value: Any, like: Any, dtype: np.dtype, name: str) -> Any:
    if is_array(value) and not isinstance(value, (np.ndarray, np.generic)):
        src = _dt(value)
        arr = do("reshape", value, (-1,))
    else:
        host = np.asanyarray(value).ravel()
        src = host.dtype
        arr = do("asarray", host, like=like)
    if not np.can_cast(src, dtype, casting="same_kind"):
        raise TypeError(
            f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule."
        )
    return do("astype", arr, dtype.name)


@composed("ediff1d")
def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Any:
    """Differences between consecutive elements of the flattened array, numpy's
    ``ediff1d``, with ``to_begin`` and ``to_end`` (scalars or arrays, cast to
    ``ary``'s dtype under numpy's 'same_kind' rule) around them.

    Examples
    --------
    >>> import numpy as np
    >>> do("ediff1d", np.array([1, 2, 4, 7]), to_begin=-99, to_end=np.array([88, 99]))
    array([-99,   1,   2,   3,  88,  99])
    """
    flat = do("reshape", ary, (-1,))
    dtype = _dt(flat)
    parts = [flat[1:] - flat[:-1]]
    if to_begin is not None:
        parts.insert(0, _extra(to_begin, flat, dtype, "to_begin"))
    if to_end is not None:
        parts.append(_extra(to_end, flat, dtype, "to_end"))
    if len(parts) == 1:
        return do("astype", parts[0], dtype.name)
    return do("concatenate", parts, axis=0)


@composed("matrix_transpose")
def matrix_transpose(x: Any, /) -> Any:
    """Swap the last two axes, numpy's ``matrix_transpose`` (the array API's).

    Examples
    --------
    >>> import numpy as np
    >>> do("matrix_transpose", np.arange(6).reshape(1, 2, 3)).shape
    (1, 3, 2)
    """
    if len(do("shape", x)) < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return do("swapaxes", x, -1, -2)


# ---------------------------------------------------------------- append / insert / delete


def _along(arr: Any, axis: Any) -> tuple[Any, int, tuple]:
    """``arr`` (flattened when ``axis`` is None), its axis made non-negative, its shape."""
    if axis is None:
        arr, axis = do("ravel", arr), 0
    shape = tuple(int(n) for n in do("shape", arr))
    ndim = len(shape)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return arr, axis % ndim, shape


def _host_index(obj: Any) -> np.ndarray:
    """``obj`` (an int, slice, sequence or array of any library) as a host array."""
    if is_array(obj):
        return np.asarray(do("to_numpy", obj))
    return np.asarray(obj)


def _take(arr: Any, index: np.ndarray, axis: int) -> Any:
    return do("take", arr, do("asarray", index.astype(np.int64), like=arr), axis=axis)


@composed("append")
def append(arr: Any, values: Any, axis: Any = None) -> Any:
    """``values`` appended to ``arr`` along ``axis`` (both flattened when it is
    None), numpy's ``append``.

    Examples
    --------
    >>> import numpy as np
    >>> do("append", np.array([[1.0, -2.0]]), np.array([[3.0, 4.0]]), axis=0)
    array([[ 1., -2.],
           [ 3.,  4.]])
    """
    if axis is None:
        arr, values = do("ravel", arr), do("ravel", values)
    return do("concatenate", [arr, values], axis=0 if axis is None else axis)


@composed("delete")
def delete(arr: Any, obj: Any, axis: Any = None) -> Any:
    """``arr`` without the entries ``obj`` (an int, a slice, integer indices or a
    boolean mask) along ``axis`` (of the flattened array when it is None),
    numpy's ``delete``.

    Examples
    --------
    >>> import numpy as np
    >>> do("delete", np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]), [0, 2], axis=1)
    array([[-2.],
           [ 5.]])
    """
    arr, axis, shape = _along(arr, axis)
    keep = np.ones(shape[axis], dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        index = _host_index(obj)
        if index.size == 0:  # nothing to delete (an empty list arrives as floats)
            index = index.astype(np.int64)
        if index.dtype == bool:
            if index.shape != keep.shape:
                raise ValueError(
                    f"delete: boolean array argument obj to delete must be one dimensional "
                    f"and match the axis length of {shape[axis]}"
                )
            keep &= ~index
        else:
            if index.size and index.dtype.kind not in "iu":
                raise IndexError("delete: arrays used as indices must be of integer type")
            n = shape[axis]
            if index.size and (index.min() < -n or index.max() >= n):
                raise IndexError(f"delete: index out of bounds for axis {axis} with size {n}")
            keep[index] = False
    return _take(arr, np.flatnonzero(keep), axis)


@composed("insert")
def insert(arr: Any, obj: Any, values: Any, axis: Any = None) -> Any:
    """``values`` inserted into ``arr`` before the indices ``obj`` (an int, a slice
    or integer indices) along ``axis`` (of the flattened array when it is None),
    numpy's ``insert``: ``values`` take ``arr``'s dtype and broadcast as numpy's do.

    Examples
    --------
    >>> import numpy as np
    >>> do("insert", np.array([[1, 2], [3, 4]]), 1, [-5, 6], axis=1)
    array([[ 1, -5,  2],
           [ 3,  6,  4]])
    >>> do("insert", np.array([1.0, 2.0, 3.0]), [0, 2], [-1.0, -2.0])
    array([-1.,  1.,  2., -2.,  3.])
    """
    arr, axis, shape = _along(arr, axis)
    n, ndim = shape[axis], len(shape)
    if isinstance(obj, slice):
        index = np.arange(*obj.indices(n))
    else:
        index = _host_index(obj)
        if index.dtype == bool:
            raise IndexError("insert: obj must hold integer indices, not booleans")
        if index.size == 0:
            index = index.astype(np.int64)
        if index.ndim > 1 or index.dtype.kind not in "iu":
            raise ValueError("insert: index array argument obj must be one dimensional "
                             "integers or a scalar")
    if index.size and (index.min() < -n or index.max() > n):
        raise IndexError(f"insert: index out of bounds for axis {axis} with size {n}")
    index = np.where(index < 0, index + n, index)
    values = do("astype", do("asarray", values, like=arr), _dt(arr))
    vshape = tuple(int(k) for k in do("shape", values))
    if index.size == 1:
        # one position: values (at least arr's dimensions, a scalar obj's leading axis
        # moved to ``axis``) may hold several entries along ``axis``
        values = do("reshape", values, (1,) * (ndim - len(vshape)) + vshape)
        if index.ndim == 0:
            values = do("moveaxis", values, 0, axis)
        count = int(do("shape", values)[axis])
        new = int(index.reshape(-1)[0]) + np.arange(count)
    else:
        count = index.size
        order = np.argsort(index, kind="stable")
        new = index.copy()
        new[order] += np.arange(count)
    target = list(shape)
    target[axis] = count
    values = do("broadcast_to", values, tuple(target))
    total = n + count
    source = np.empty(total, dtype=np.int64)
    old = np.ones(total, dtype=bool)
    old[new] = False
    source[old] = np.arange(n)
    source[new] = n + np.arange(count)
    return _take(do("concatenate", [arr, values], axis=axis), source, axis)
