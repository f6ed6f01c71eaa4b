"""numpy's ``partition``, ``argpartition``, ``lexsort`` and ``sort_complex``,
written once with ``do``.

A private module of the ``indexing`` topic (``indexing.py`` is near the module
size limit): the libraries' entries of these names are in their ``indexing``
tables, beside ``sort`` and ``argsort``.

numpy promises of ``partition`` only that the ``kth`` element is where a sort
would put it, the smaller ones before it and the larger ones after (in no
particular order); a sorted array keeps that promise for every ``kth`` at once,
so the fallbacks sort (O(n log n) where numpy's introselect is O(n)), with NaNs
last as numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed.reductions import _dt

from dispatch.engine import composed, do, is_array


def _check_kth(name: str, a: Any, kth: Any, axis: Any) -> tuple[Any, Any]:
    """``a`` (flattened when ``axis`` is None) and its axis, ``kth`` checked against
    the axis' length as numpy checks it."""
    if axis is None:
        a, axis = do("ravel", a), -1
    shape = tuple(do("shape", a))
    if not shape:
        raise ValueError(f"{name}: a 0-d array cannot be partitioned")
    if not -len(shape) <= axis < len(shape):
        raise np.exceptions.AxisError(axis, len(shape))
    n = shape[axis]
    ks = np.asarray(do("to_numpy", kth) if is_array(kth) else kth)
    if ks.dtype.kind not in "iu" and not (ks.size == 0 and ks.dtype.kind == "f"):
        raise TypeError(f"{name}: kth must hold integers, not {ks.dtype}")
    if n is not None and ks.size and (ks.min() < -int(n) or ks.max() >= int(n)):
        bad = int(ks.max()) if ks.max() >= int(n) else int(ks.min())
        raise ValueError(f"{name}: kth(={bad}) out of bounds ({int(n)})")
    return a, axis


@composed("partition")
def partition(a: Any, kth: Any, axis: Any = -1, kind: str = "introselect",
              order: Any = None) -> Any:
    """``a`` rearranged so that each ``kth`` element (an int or a sequence) along
    ``axis`` is where a sort would put it, the others on the right side of it,
    numpy's ``partition`` (``axis`` None: of the flattened array).

    The result is sorted along ``axis``, which keeps numpy's promise for any
    ``kth``; only the order numpy leaves unspecified differs.

    Examples
    --------
    >>> import numpy as np
    >>> out = do("partition", np.array([7.0, -1.0, 3.0, 0.5, 2.0]), 2)
    >>> float(out[2]), bool(out[:2].max() <= out[2] <= out[3:].min())
    (2.0, True)
    """
    if order is not None:
        raise ValueError("partition: order= needs a structured array, which this library lacks")
    a, axis = _check_kth("partition", a, kth, axis)
    return do("sort", a, axis=axis)


@composed("argpartition")
def argpartition(a: Any, kth: Any, axis: Any = -1, kind: str = "introselect",
                 order: Any = None) -> Any:
    """Indices that partition ``a`` around each ``kth`` element along ``axis``,
    numpy's ``argpartition``: ``take_along_axis(a, result, axis)`` is a partition
    of ``a`` (``axis`` None: indices into the flattened array).

    The indices sort ``a`` along ``axis`` (stably), which keeps numpy's promise
    for any ``kth``.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([7.0, -1.0, 3.0, 0.5, 2.0])
    >>> i = do("argpartition", x, 1)
    >>> int(i[1]), bool(x[i[:1]].max() <= x[i[1]] <= x[i[2:]].min())
    (3, True)
    """
    if order is not None:
        raise ValueError(
            "argpartition: order= needs a structured array, which this library lacks"
        )
    a, axis = _check_kth("argpartition", a, kth, axis)
    return do("argsort", a, axis=axis, stable=True)


@composed("lexsort")
def lexsort(keys: Any, axis: int = -1) -> Any:
    """Indices that sort by several keys along ``axis``, the last key first,
    numpy's ``lexsort``: ``keys`` is a sequence of arrays of one shape (or an
    array whose first axis holds the keys); ties keep their order.

    Examples
    --------
    >>> import numpy as np
    >>> surnames = np.array([2, 1, 2, 1])
    >>> first = np.array([0.5, 3.0, -1.0, 3.0])
    >>> do("lexsort", (first, surnames))
    array([1, 3, 2, 0])
    """
    if is_array(keys):
        keys = [keys[i] for i in range(int(do("shape", keys)[0]))]
    elif not isinstance(keys, Sequence):
        raise TypeError("lexsort: keys must be a sequence of arrays")
    if not keys:
        raise TypeError("lexsort: need sequence of keys with len > 0 in lexsort")
    keys = list(do("broadcast_arrays", *keys)) if len(keys) > 1 else list(keys)
    ndim = len(do("shape", keys[0]))
    if ndim == 0:
        raise np.exceptions.AxisError(axis, 0)
    order = do("argsort", keys[0], axis=axis, stable=True)
    for key in keys[1:]:
        step = do("argsort", do("take_along_axis", key, order, axis=axis), axis=axis, stable=True)
        order = do("take_along_axis", order, step, axis=axis)
    return order


@composed("sort_complex")
def sort_complex(a: Any) -> Any:
    """``a`` sorted along its last axis as complex numbers (by the real part, then
    the imaginary part), numpy's ``sort_complex``: real input becomes complex
    (complex64 for 1- and 2-byte integers, else complex128, as numpy).

    Examples
    --------
    >>> import numpy as np
    >>> do("sort_complex", np.array([1 + 2j, 2 - 1j, 1 - 1j, 0.5]))
    array([0.5+0.j, 1. -1.j, 1. +2.j, 2. -1.j])
    """
    dt = _dt(a)
    if dt.kind == "c":
        order = lexsort([do("imag", a), do("real", a)], axis=-1)
        return do("take_along_axis", a, order, axis=-1)
    target = "complex64" if dt.itemsize <= 2 and dt.kind in "iu" else "complex128"
    return do("astype", do("sort", a, axis=-1), target)
