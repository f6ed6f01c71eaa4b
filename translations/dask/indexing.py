"""dask: take, sort, search, select and choose.

dask's ``take`` defaults to axis 0 and has no ``mode`` (out-of-bounds indices
give wrong data): numpy's indices are wrapped, clipped or checked first. Sorts
run numpy's per block with the whole axis in one chunk; ``take_along_axis``
aligns the blocks first; ``select`` and ``choose`` keep numpy's broadcasting and
modes.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
from dask.array import Array
from dispatch.translations._adapters import take_index
from dispatch.translations._keywords import check_sort, no_out
from dispatch.translations.dask._common import one_chunk

from dispatch.engine import NATIVE


def _take(a: Array, indices: Any, axis: int | None = None, out: Any = None,
          mode: Any = None) -> Array:
    # numpy flattens when axis is None; dask.take defaults to axis 0. dask.take has
    # no mode: its out-of-bounds indices give wrong data, so the indices are wrapped,
    # clipped or checked first (host indices now, dask indices block by block)
    no_out("take", "dask", out)
    a = da.asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = axis % a.ndim if a.ndim else axis
    n = a.shape[axis]
    if isinstance(indices, Array):
        idx: Any = da.map_blocks(take_index, indices, n, axis, mode, dtype=np.int64)
    else:
        idx = take_index(indices, n, axis, mode)
    if idx.ndim == 1:
        return da.take(a, idx, axis=axis)
    # dask indexes with 1-D index arrays only: take the flat indices, then
    # unflatten that axis into the index array's shape
    axis = axis % a.ndim
    out = da.take(a, idx.reshape(-1), axis=axis)
    return out.reshape(a.shape[:axis] + idx.shape + a.shape[axis + 1 :])


def _sort(a: Array, axis: int | None = -1, kind: Any = None, order: Any = None, *,
          stable: Any = None) -> Array:
    # dask has no sort: sort each block with the whole axis in one chunk (every
    # algorithm gives the same values: the kind is only checked, as numpy checks it)
    check_sort(kind, order, stable)
    a = da.asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = axis % a.ndim
    return da.map_blocks(np.sort, one_chunk(a, axis), axis=axis, dtype=a.dtype)


def _argsort(a: Array, axis: int | None = -1, kind: Any = None, order: Any = None, *,
             stable: Any = None) -> Array:
    check_sort(kind, order, stable)  # now, not when a block is computed
    a = da.asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = axis % a.ndim
    # numpy's kind/stable choose the order of ties: each block is numpy's argsort
    return da.map_blocks(np.argsort, one_chunk(a, axis), axis=axis, kind=kind,
                         stable=stable, dtype=np.intp)


def _take_along_axis(a: Array, indices: Any, axis: int | None = -1) -> Array:
    # not in dask.array: align blocks, then numpy's take_along_axis per block
    a = da.asarray(a)
    idx = da.asarray(indices)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = axis % a.ndim
    if idx.ndim != a.ndim:
        raise ValueError("take_along_axis: indices and arr must have the same number of dims")
    shape_a = list(a.shape)
    shape_i = list(idx.shape)
    for d in range(a.ndim):
        if d != axis:
            shape_a[d] = shape_i[d] = np.broadcast_shapes((a.shape[d],), (idx.shape[d],))[0]
    a = da.broadcast_to(a, tuple(shape_a))
    idx = da.broadcast_to(idx, tuple(shape_i))
    chunks = {d: (-1 if d == axis else a.chunks[d]) for d in range(a.ndim)}
    a = a.rechunk(chunks)
    idx = idx.rechunk({**chunks, axis: -1})
    return da.map_blocks(np.take_along_axis, a, idx, axis=axis, dtype=a.dtype, chunks=idx.chunks)


def _searchsorted(a: Array, v: Any, side: str = "left", sorter: Any = None) -> Array:
    # dask needs an array ``v``; numpy also takes a scalar (and returns a 0-d result)
    if sorter is not None:
        # searching ``a`` through ``sorter`` is searching ``a[sorter]``
        a, sorter = _take(a, sorter), None
    a, v = da.asarray(a), da.asarray(v)  # either may be a numpy constant
    if v.ndim == 0:
        return da.searchsorted(a, v.reshape(1), side=side, sorter=sorter)[0]
    return da.searchsorted(a, v, side=side, sorter=sorter)


def _argwhere(a: Any) -> Array:
    a = da.asarray(a)
    if a.ndim == 0:
        # dask's argwhere refuses 0-d input; numpy gives one row of no columns if true
        return da.argwhere(a.reshape((1,)))[:, :0]
    return da.argwhere(a)


def _select(condlist: Any, choicelist: Any, default: Any = 0) -> Array:
    # dask's select neither broadcasts nor takes 0-d or empty arrays: a chain of where
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [da.asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    # numpy's result dtype: Python scalars stay weak (NEP 50)
    dtype = np.result_type(*(
        c if type(c) in (int, float, complex) else da.asarray(c).dtype
        for c in [*choicelist, default]
    ))
    out = da.asarray(default)
    for cond, choice in zip(conds[::-1], choicelist[::-1], strict=True):
        out = da.where(cond, choice, out)
    return out.astype(dtype)


def _choose(a: Any, choices: Any, out: None = None, mode: str = "raise") -> Array:
    # da.choose has no mode: 'wrap' and 'clip' map the indices first (lazily); 'raise' is
    # numpy's check inside each block, when computed
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    no_out("choose", "dask", out)
    n = len(choices)
    a = da.asarray(a)
    if mode == "wrap":
        a = a % n
    elif mode == "clip":
        a = da.clip(a, 0, n - 1)
    return da.choose(a, choices)


TABLE = {
    "take": _take,
    "take_along_axis": _take_along_axis,
    "sort": _sort,
    "argsort": _argsort,
    "searchsorted": _searchsorted,
    "argwhere": _argwhere,
    "select": _select,
    "choose": _choose,
    # dask's own (lazy) beats the composed fallback
    "compress": NATIVE,
}
