"""autograd: numpy's names whose autograd primitive has no derivative, through
indexing and arithmetic, which autograd differentiates (``flip``, ``take``,
``copy``). Other primitives without a derivative (``cumprod``, ``median``,
``linalg.qr``, ``unique``, a multi-dimensional ``sort``) raise autograd's own
NotImplementedError when given a box: autograd knows no derivative for them."""

from __future__ import annotations

from typing import Any

import numpy as np
from autograd.tracer import getval
from dispatch.translations._adapters import take_index


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
    # a box is immutable: a copy is the same value, recorded as itself
    return a + np.zeros((), dtype=np.result_type(getval(a)))


TABLE = {
    "flip": _flip,
    "take": _take,
    "copy": _copy,
}
