"""autograd: numpy's names whose autograd primitive has no derivative, through
indexing and arithmetic, which autograd differentiates (``flip``, ``take``,
``copy``, ``take_along_axis``, and ``sort`` along any axis as a gather by its
``argsort``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from autograd import numpy as anp
from autograd.numpy.numpy_boxes import ArrayBox
from autograd.tracer import Box, getval
from dispatch.translations._adapters import take_index
from dispatch.translations._composed.indexing import nonzero_static
from dispatch.translations._keywords import check_order

from ._common import exact, on_values, values, where


def _flip(m: Any, axis: Any = None) -> Any:
    """numpy's ``flip`` as a reversed slice of each axis.

    >>> _flip(np.arange(3))
    array([2, 1, 0])
    """
    ndim = np.ndim(getval(m))
    axes = range(ndim) if axis is None else np.atleast_1d(axis).tolist()
    index = [slice(None)] * ndim
    for ax in axes:
        index[ax % ndim if ndim else ax] = slice(None, None, -1)
    return m[tuple(index)]


def _take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: Any = None) -> Any:
    """numpy's ``take`` as an index along ``axis`` (the flattened array for None).

    >>> _take(np.arange(6).reshape(2, 3), [2, 0], axis=1).tolist()
    [[2, 0], [5, 3]]
    """
    if out is not None:
        raise TypeError("take(out=...) writes into an array: autograd records pure functions")
    if axis is None:
        a, axis = a.ravel() if hasattr(a, "ravel") else np.ravel(a), 0
    shape = np.shape(getval(a))
    axis = axis % len(shape)
    idx = take_index(indices, shape[axis], axis, mode)
    return a[(slice(None),) * axis + (idx,)]


def _copy(a: Any, order: str = "K", subok: bool = False) -> Any:
    # a box is immutable: a copy is the same value (times one, which keeps -0.0 and
    # nan), recorded as itself; it has no memory layout of its own: any order gives
    # numpy's values
    check_order(order)
    return a * np.ones((), dtype=np.result_type(getval(a)))


def _take_along_axis(arr: Any, indices: Any, axis: Any = -1) -> Any:
    """numpy's ``take_along_axis`` as one advanced index (numpy's own construction):
    ``indices`` on ``axis``, a broadcast ``arange`` on every other axis.

    >>> _take_along_axis(np.array([[3.0, 1.0], [2.0, 5.0]]), np.array([[1], [0]]), 1)
    array([[1.],
           [2.]])
    """
    idx = np.asarray(getval(indices))
    if axis is None:
        arr, axis = anp.ravel(arr), 0
    shape = np.shape(getval(arr))
    if idx.ndim != len(shape):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = axis % len(shape)
    ones = (1,) * len(shape)
    index = tuple(idx if d == axis else np.arange(n).reshape((*ones[:d], -1, *ones[d + 1:]))
                  for d, n in enumerate(shape))
    return arr[index]


def _sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *,
          stable: Any = None) -> Any:
    """numpy's ``sort``: ``a`` gathered by its ``argsort`` (autograd differentiates the
    sort of a vector only)."""
    if order is not None:
        raise ValueError("sort(order=...) needs a structured array: autograd's are numeric")
    if axis is None:
        a, axis = anp.ravel(a), -1
    order_ = np.argsort(getval(a), axis=axis, kind=kind, stable=stable)
    return _take_along_axis(a, order_, axis)


_NO_VALUE = object()
_ND = np.ndarray


def _where(condition: Any, x: Any = _NO_VALUE, y: Any = _NO_VALUE, /) -> Any:
    # the common call first, as where() takes it: arrays or boxes of arrays of one shape
    # (nothing to broadcast) go to autograd's own, one frame less
    if type(condition) is _ND:
        vx = x._value if type(x) is ArrayBox else x
        vy = y._value if type(y) is ArrayBox else y
        if type(vx) is _ND and type(vy) is _ND and condition.shape == vx.shape == vy.shape:
            return _anp_where(condition, x, y)
    if x is not _NO_VALUE and y is not _NO_VALUE:
        return where(condition, x, y)
    # numpy's where(condition) alone is nonzero(condition): indices, no derivative
    if x is _NO_VALUE and y is _NO_VALUE:
        return np.nonzero(getval(condition))
    raise ValueError("either both or neither of x and y should be given")


_anp_where = anp.where


def _select(condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    """numpy's ``select``: the choices laid over ``default`` with ``where``, the first
    true condition last (autograd's own boxes every element one by one, in float64)."""
    value = np.select(values(list(condlist)), values(list(choicelist)), values(default))
    out = default
    for cond, choice in zip(reversed(list(condlist)), reversed(list(choicelist)), strict=False):
        out = where(getval(cond), choice, out)
    return exact(value, out)


def _unique(ar: Any, return_index: bool = False, return_inverse: bool = False,
            return_counts: bool = False, axis: Any = None, *, equal_nan: bool = True,
            sorted: bool = True) -> Any:
    """numpy's ``unique``: the distinct values gathered from ``ar`` at their first
    positions (a box's derivative flows to those entries); indices and counts are
    integers."""
    extra = {} if sorted else {"sorted": False}
    first, index, *rest = np.unique(getval(ar), True, return_inverse, return_counts, axis,
                                    equal_nan=equal_nan, **extra)
    if isinstance(ar, Box):
        taken = anp.ravel(ar)[index] if axis is None else _along(ar, axis, index)
        first = exact(first, taken)
    if not (return_index or return_inverse or return_counts):
        return first
    return (first, *([index] if return_index else []), *rest)


def _along(x: Any, axis: int, idx: Any) -> Any:
    return x[(slice(None),) * (axis % np.ndim(getval(x))) + (idx,)]


TABLE = {
    "unique": _unique,
    "select": _select,
    "flip": _flip,
    "take": _take,
    "copy": _copy,
    "take_along_axis": _take_along_axis,
    "sort": _sort,
    "where": _where,
    # indices, no derivative: the composed one on the values
    "nonzero_static": on_values(nonzero_static),
}
