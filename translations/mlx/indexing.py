"""mlx: sorting, searching, selection and numpy's index routines.

mlx sorts and searches natively (``sort``, ``argsort``, ``searchsorted``, ``take``,
``take_along_axis``) but returns indices as uint32 and has no ``kind``/``order``
keywords; numpy's indices are int64. Functions whose output shape depends on the
values (``nonzero``, ``argwhere``, ``flatnonzero``, ``unique`` and the set
routines built on it) read the mask on the host, eagerly, since mlx has no such
kernel outside a given ``size``.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np
from dispatch.translations._adapters import take_mode
from dispatch.translations._keywords import bool_reduction, check_order, check_sort, no_out
from dispatch.translations.mlx._common import asks_bool
from dispatch.translations.mlx.devices import _asarray

from dispatch.engine import kernels

_ARRAY = mx.array
_mx_where = mx.where


def _arr(x: Any) -> Any:
    return x if isinstance(x, mx.array) else _asarray(x)


# mlx's sort and argsort are stable on every device (std::stable_sort on the CPU, a
# merge sort on Metal and CUDA), so a stable sort asked for (kind='stable',
# stable=True) is the one they run


def _sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *,
          stable: Any = None) -> Any:
    if kind is not None or order is not None or stable is not None:
        check_sort(kind, order, stable)
    a = _arr(a)
    if axis is None:
        return mx.sort(a.reshape(-1))
    return mx.sort(a, axis=int(axis))


def _argsort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *,
             stable: Any = None) -> Any:
    if kind is not None or order is not None or stable is not None:
        check_sort(kind, order, stable)
    a = _arr(a)
    if axis is None:
        return mx.argsort(a.reshape(-1)).astype(mx.int64)
    return mx.argsort(a, axis=int(axis)).astype(mx.int64)


def _argpartition(a: Any, kth: Any, axis: Any = -1, kind: str = "introselect",
                  order: Any = None) -> Any:
    check_sort(order=order)  # numpy's error: order= names the fields of a structured array
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    n = a.shape[axis]
    for k in np.atleast_1d(np.asarray(kth)):  # numpy's error (mlx: 'invalid kth')
        if not -n <= int(k) < n:
            raise ValueError(f"kth(={int(k)}) out of bounds ({n})")
    if not isinstance(kth, (int, np.integer)):
        # several kth: a full sort is a partition at every one of them
        return mx.argsort(a, axis=axis).astype(mx.int64)
    return mx.argpartition(a, int(kth), axis=axis).astype(mx.int64)


def _searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    a = _arr(a)
    if sorter is not None:
        a = mx.take(a, _arr(sorter))
    v = _arr(v)
    if v.ndim == 0:
        return mx.searchsorted(a, v.reshape(1), side=side)[0].astype(mx.int64)
    return mx.searchsorted(a, v, side=side).astype(mx.int64)


def _nonzero(a: Any) -> tuple:
    host = np.nonzero(np.atleast_1d(np.asarray(_arr(a))))
    return tuple(_asarray(i.astype(np.int64)) for i in host)


def _flatnonzero(a: Any) -> Any:
    return _asarray(np.flatnonzero(np.asarray(_arr(a))).astype(np.int64))


def _argwhere(a: Any) -> Any:
    return _asarray(np.argwhere(np.asarray(_arr(a))).astype(np.int64))


def _where(condition: Any, x: Any = None, y: Any = None) -> Any:
    if type(condition) is _ARRAY and y is not None:
        # mlx reads a non-boolean condition as numpy does: nonzero (NaN included) is true
        return _mx_where(condition, x, y)
    if x is None and y is None:
        return _nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return mx.where(_arr(condition).astype(mx.bool_), x, y)


# an mlx condition and two operands (mlx arrays or Python numbers): mlx's where, as the
# first branch above
_where = kernels(_where, {(_ARRAY, a, b): mx.where for a in (_ARRAY, bool, int, float)
                          for b in (_ARRAY, bool, int, float)})


def _host_true(flag: Any) -> bool:
    """``flag``'s value, or False inside a trace (mx.compile refuses to evaluate)."""
    try:
        return bool(flag.item())
    except ValueError:  # "Attempting to eval an array during function transformations"
        return False


def _host_value(x: Any, name: str) -> Any:
    """``x``'s value read on the host; inside mx.compile's trace, which refuses to
    evaluate, the TypeError of a value-dependent answer (jax's is a TypeError too, and
    composed code falls back on it)."""
    try:
        return x.item()
    except ValueError as err:
        raise TypeError(f"{name} on mlx: the answer depends on the values, which cannot be "
                        f"read inside mx.compile ({err})") from None


def _take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Any:
    no_out("take", "mlx", out)
    a = _arr(a)
    idx = _arr(indices)
    mode = take_mode(mode)
    n = a.size if axis is None else a.shape[axis]
    if mode == "wrap":
        idx = mx.remainder(idx, n)
    elif mode == "clip":
        idx = mx.clip(idx, 0, n - 1)
    else:
        # numpy's 'raise' (mlx reads any index, wrapping or not): checked on the host
        # where the values can be read (not inside mx.compile's trace, as jax.jit)
        if idx.size and _host_true(mx.any((idx >= n) | (idx < -n))):
            raise IndexError(f"take: index out of bounds for axis "
                             f"{0 if axis is None else axis} with size {n} on mlx")
        idx = mx.where(idx < 0, idx + n, idx)
    return mx.take(a, idx, axis=axis) if axis is not None else mx.take(a.reshape(-1), idx)


def _take_along_axis(arr: Any, indices: Any, axis: Any = -1) -> Any:
    a = _arr(arr)
    idx = _arr(indices)
    if axis is None:
        a, axis = a.reshape(-1), 0
    n = a.shape[axis]
    return mx.take_along_axis(a, mx.where(idx < 0, idx + n, idx), axis=axis)


def _diag(v: Any, k: int = 0) -> Any:
    return mx.diag(_arr(v), int(k))


def _diagflat(v: Any, k: int = 0) -> Any:
    return mx.diag(_arr(v).reshape(-1), int(k))


def _diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    return mx.diagonal(_arr(a), int(offset), int(axis1), int(axis2))


def _trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
           out: Any = None) -> Any:
    from dispatch.translations.mlx.reductions import _accumulator

    no_out("trace", "mlx", out)
    d = mx.diagonal(_arr(a), int(offset), int(axis1), int(axis2))
    if asks_bool(dtype):  # mlx counts booleans
        return bool_reduction("sum", d, -1)
    return mx.sum(_accumulator(d, dtype), axis=-1)


def _select(condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    choices = [_arr(c) for c in choicelist]
    out = mx.broadcast_to(_arr(default).astype(choices[0].dtype) if choices else _arr(default),
                          mx.broadcast_shapes(*(c.shape for c in choices),
                                              *(_arr(c).shape for c in condlist)))
    for cond, choice in zip(reversed(condlist), reversed(choices), strict=True):
        out = mx.where(_arr(cond), choice, out)
    return out


def _indices(dimensions: Any, dtype: Any = int, sparse: bool = False) -> Any:
    dims = tuple(int(d) for d in dimensions)
    grids = []
    for i, n in enumerate(dims):
        shape = [1] * len(dims)
        shape[i] = n
        g = mx.arange(n, dtype=_asarray(0, dtype).dtype).reshape(shape)
        grids.append(g if sparse else mx.broadcast_to(g, dims))
    return tuple(grids) if sparse else (mx.stack(grids) if grids else mx.zeros((0,), mx.int64))


def _unique(ar: Any, return_index: bool = False, return_inverse: bool = False,
            return_counts: bool = False, axis: Any = None, *, equal_nan: bool = True,
            sorted: bool = True) -> Any:
    # the number of distinct values decides the shape: read on the host, eager
    res = np.unique(np.asarray(_arr(ar)), return_index, return_inverse, return_counts,
                    axis, equal_nan=equal_nan)
    if not isinstance(res, tuple):
        return _asarray(res)
    first, *rest = res
    return (_asarray(first), *(_asarray(r.astype(np.int64)) for r in rest))


def _copy(a: Any, order: str = "K", subok: bool = False) -> Any:
    # mlx has one layout: every order gives numpy's values
    check_order(order)
    return mx.array(_arr(a))


def _bincount(x: Any, weights: Any = None, minlength: int = 0) -> Any:
    # numpy's length depends on the largest value: read on the host (eager); the counts
    # are mlx's scatter-add
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("bincount: object too deep for desired array (x must be 1-d)")
    if mx.issubdtype(x.dtype, mx.floating):
        raise TypeError("bincount: cannot cast array data from float to int64")
    if x.size and _host_value(mx.min(x), "bincount") < 0:
        raise ValueError("bincount: 'list' argument must have no negative elements")
    length = max(int(_host_value(mx.max(x), "bincount")) + 1 if x.size else 0, int(minlength))
    if not x.size:
        # mlx's scatter refuses empty updates
        w = None if weights is None else _arr(weights)
        dt = mx.int64 if w is None else (mx.complex64 if w.dtype == mx.complex64 else mx.float64)
        return mx.zeros((length,), dt)
    if weights is None:
        return mx.zeros((length,), mx.int64).at[x].add(mx.ones(x.shape, mx.int64))
    w = _arr(weights)
    dt = mx.complex64 if w.dtype == mx.complex64 else mx.float64
    return mx.zeros((length,), dt).at[x].add(w.astype(dt))


def _repeat(a: Any, repeats: Any, axis: Any = None) -> Any:
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if isinstance(repeats, (int, np.integer)):
        return mx.repeat(a, int(repeats), axis)
    # repeats per element: the output length depends on them (read on the host)
    reps = np.asarray(repeats).astype(np.int64)
    index = np.repeat(np.arange(a.shape[axis]), reps)
    return mx.take(a, mx.array(index), axis=axis)


TABLE = {
    "bincount": _bincount,
    "repeat": _repeat,
    "sort": _sort,
    "argsort": _argsort,
    "argpartition": _argpartition,
    "searchsorted": _searchsorted,
    "nonzero": _nonzero,
    "flatnonzero": _flatnonzero,
    "argwhere": _argwhere,
    "where": _where,
    "take": _take,
    "take_along_axis": _take_along_axis,
    "diag": _diag,
    "diagflat": _diagflat,
    "diagonal": _diagonal,
    "trace": _trace,
    "select": _select,
    "indices": _indices,
    "unique": _unique,
    "copy": _copy,
}
