"""pydata sparse: take, where, nonzero, sort, search, select and unique.

Index results (``nonzero``, ``argwhere``, ``argsort``, ``searchsorted``,
``unique``'s values, indices and counts) are numpy arrays, as pydata sparse
returns them. ``take`` applies numpy's modes first (pydata's wraps some
out-of-bounds indices); ``nonzero`` leaves out explicitly stored zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sparse
from dispatch.translations._adapters import take_index
from dispatch.translations._keywords import check_sort, no_out
from dispatch.translations.sparse._common import dense, densified, sp
from sparse import COO, SparseArray


def _take(a: Any, indices: Any, axis: int | None = None, out: Any = None,
          mode: Any = None) -> SparseArray:
    no_out("take", "sparse", out)
    a = sp(a)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    axis = axis % a.ndim
    # sparse.take has no mode and wraps some out-of-bounds indices: numpy's modes first
    idx = take_index(dense(indices), a.shape[axis], axis, mode)
    # sparse indexes with 1-D index arrays only: flat indices, then unflatten
    out = sparse.take(a, idx.reshape(-1), axis=axis)
    return out.reshape(a.shape[:axis] + idx.shape + a.shape[axis + 1 :])


def _take_along_axis(a: Any, indices: Any, axis: int | None = -1) -> SparseArray:
    # gather through the flattened array with linear indices (sparse takes 1-D indices)
    a = sp(a)
    idx = dense(indices)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    axis = axis % a.ndim
    if idx.ndim != a.ndim:
        raise ValueError("take_along_axis: indices and arr must have the same number of dims")
    shape = tuple(
        len(np.empty(a.shape[d])[np.zeros(idx.shape[d], int)])
        if d == axis
        else np.broadcast_shapes((a.shape[d],), (idx.shape[d],))[0]
        for d in range(a.ndim)
    )
    idx = np.where(idx < 0, idx + a.shape[axis], idx)
    grids = list(np.indices(shape, sparse=True))
    grids[axis] = np.broadcast_to(idx, shape)
    full = tuple(np.broadcast_to(g, shape) if d != axis else g for d, g in enumerate(grids))
    src = sparse.broadcast_to(
        a, tuple(a.shape[d] if d == axis else shape[d] for d in range(a.ndim))
    )
    lin = np.ravel_multi_index(full, src.shape)
    return src.reshape((-1,))[lin.reshape(-1)].reshape(shape)


def _where(condition: Any, x: Any = None, y: Any = None) -> Any:
    if x is None and y is None:
        return _nonzero(condition)
    return sparse.where(sp(condition), x, y)


def _nonzero(a: Any) -> tuple:
    # pydata's nonzero lists the stored coordinates, explicitly stored zeros (such
    # as the -0.0 that from_numpy keeps) included: filter them
    a = sp(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d.")
    if a.fill_value != 0:
        # every unstored position is nonzero: the index result is dense by nature
        return np.nonzero(a.todense())
    c = COO(a)
    keep = c.data != 0
    coords = c.coords[:, keep]
    order = np.lexsort(coords[::-1])
    return tuple(np.asarray(row[order], dtype=np.intp) for row in coords)


def _argwhere(a: Any) -> np.ndarray:
    a = sp(a)
    if a.ndim == 0:
        return np.argwhere(bool(a.todense()))
    return np.stack(_nonzero(a), axis=-1).reshape(-1, a.ndim)


def _flatnonzero(a: Any) -> np.ndarray:
    return _nonzero(sp(a).reshape((-1,)))[0]


def _compress(condition: Any, a: Any, axis: int | None = None) -> SparseArray:
    a = sp(a)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    keep = np.nonzero(dense(condition))[0]
    return sparse.take(a, keep[keep < a.shape[axis]], axis=axis)


def _select(condlist: Any, choicelist: Any, default: Any = 0) -> SparseArray:
    # numpy's result dtype: Python scalars weak (NEP 50), where sparse makes them int64
    dtype = np.result_type(*(
        c if type(c) in (int, float, complex) else sp(c).dtype for c in [*choicelist, default]
    ))
    out = sp(default)
    for cond, choice in zip(condlist[::-1], choicelist[::-1], strict=True):
        out = sparse.where(sp(cond), sp(choice), out)
    return out.astype(dtype)


def _sort(a: Any, axis: int | None = -1, kind: Any = None, order: Any = None, *,
          stable: Any = None) -> SparseArray:
    # every algorithm gives the same values: the kind is only checked, as numpy checks it
    check_sort(kind, order, stable)
    a = sp(a)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    if a.size == 0:  # pydata's sort fails on empty arrays: nothing to order
        return sparse.zeros(a.shape, a.dtype)
    return sparse.sort(a, axis=axis)


def _unique(
    ar: Any,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: Any = None,
    *,
    equal_nan: bool = True,
    sorted: bool = True,
) -> Any:
    # from the stored values plus the fill value (if any position is not stored);
    # values, first indices and counts are numpy arrays (as pydata's
    # unique_values), the inverse is a sparse array of the input's shape. The values
    # come sorted, which numpy's sorted=False allows too
    if axis is not None:
        raise NotImplementedError("unique(axis=...) is not available on sparse arrays")
    x = COO(sp(ar))
    if not equal_nan and _has_nan(x):
        # every NaN is a value of its own, unstored ones included: numpy's, densely
        found = np.unique(x.todense(), return_index, return_inverse, return_counts,
                          equal_nan=False)
        if not (return_index or return_inverse or return_counts):
            return found
        return tuple(COO.from_numpy(r.reshape(x.shape)) if k == "inverse" else r
                     for k, r in zip(_unique_parts(return_index, return_inverse,
                                                   return_counts), found, strict=True))
    lin = x.linear_loc()
    order = np.argsort(lin, kind="stable")
    lin, data = lin[order], x.data[order]
    has_fill = x.nnz < x.size
    fill = np.asarray(x.fill_value, dtype=x.dtype)
    pool = np.concatenate([data, fill[None]]) if has_fill else data
    values = np.unique(pool)
    if not (return_index or return_inverse or return_counts):
        return values
    out: list = [values]
    pos = np.searchsorted(values, data)
    fill_pos = int(np.searchsorted(values, fill)) if has_fill else 0
    if return_index:
        first = np.full(values.shape, x.size, dtype=np.intp)
        np.minimum.at(first, pos, lin)
        if has_fill:
            gaps = np.nonzero(lin != np.arange(lin.size))[0]
            first_gap = int(gaps[0]) if gaps.size else lin.size
            first[fill_pos] = min(first[fill_pos], first_gap)
        out.append(first)
    if return_inverse:
        out.append(
            COO(
                x.coords.copy(),  # a new array, as numpy's: not the input's coordinates
                pos[np.argsort(order, kind="stable")].astype(np.intp),
                shape=x.shape,
                fill_value=fill_pos,
                has_duplicates=False,
            )
        )
    if return_counts:
        counts = np.bincount(pos, minlength=values.size).astype(np.intp)
        if has_fill:
            counts[fill_pos] += x.size - x.nnz
        out.append(counts)
    return tuple(out)


def _has_nan(x: COO) -> bool:
    fill = np.asarray(x.fill_value)
    return x.dtype.kind in "fc" and bool(
        np.isnan(x.data).any() or (x.nnz < x.size and np.isnan(fill)))


def _unique_parts(index: bool, inverse: bool, counts: bool) -> list[str]:
    return ["values"] + [k for k, on in (("index", index), ("inverse", inverse),
                                         ("counts", counts)) if on]


TABLE = {
    "take": _take,
    "take_along_axis": _take_along_axis,
    "where": _where,
    "nonzero": _nonzero,
    "argwhere": _argwhere,
    "flatnonzero": _flatnonzero,
    "compress": _compress,
    "select": _select,
    "sort": _sort,
    # dense by nature: index results of the dense values (see densified)
    "argsort": densified(np.argsort, index=True),
    "searchsorted": densified(np.searchsorted, index=True),
    "unique": _unique,
}
