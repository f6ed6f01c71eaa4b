"""pydata sparse: reshapes, transposes, joins, splits, repeats, flips and pads.

pydata's own functions with numpy's parameters and results: new arrays where
pydata would return the input or share its buffers (``owned``), one fill value
for the arrays it joins, numpy's argument forms (``atleast_*d`` of a list,
Fortran order) and what it lacks (splits, ``rot90``, reflecting and wrapping
pads, which copy slices of the array itself).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sparse
from dispatch.translations._adapters import split_slices
from dispatch.translations._keywords import (
    NO_VALUE,
    cast_all,
    no_out,
    pad_keywords,
    reshape_order,
    reshape_shape,
)
from dispatch.translations.sparse._common import dense, owned, sp, zero_fill
from sparse import COO, SparseArray

from dispatch.engine import NATIVE, alias


def _reshape(a: Any, /, shape: Any = NO_VALUE, order: str = "C", *, newshape: Any = NO_VALUE,
             copy: bool | None = None) -> SparseArray:
    a = sp(a)
    shape = reshape_shape(shape, newshape)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    # numpy's checks, as of a C-ordered array (coordinates and values have no layout);
    # Fortran order is C order on the reversed axes
    order = reshape_order(a.shape, shape, order, copy)
    out = a.T.reshape(shape[::-1]).T if order == "F" else a.reshape(shape)
    # numpy's reshape(copy=True) returns a new array; pydata's shares the input's buffers
    return owned(out, a) if copy else out


def _ravel(a: Any, order: str = "C") -> SparseArray:
    # ravel's 'K' reads in memory order, C order for an array without a layout
    return _reshape(a, (-1,), order="C" if order in ("K", "k") else order)


def _transpose(a: Any, axes: Any = None) -> SparseArray:
    return sp(a).transpose(axes)


def _swapaxes(a: Any, axis1: int, axis2: int) -> SparseArray:
    return sp(a).swapaxes(axis1, axis2)


def _expand_dims(a: Any, axis: Any) -> SparseArray:
    a = sp(a)
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    nd = a.ndim + len(axes)
    shape = list(a.shape)
    for ax in sorted(ax % nd for ax in axes):
        shape.insert(ax, 1)
    return a.reshape(tuple(shape))


def _squeeze(a: Any, axis: Any = None) -> SparseArray:
    return sparse.squeeze(sp(a), axis=axis)


def _same_fill(arrays: Any) -> list:
    """Sparse arrays sharing one fill value, as pydata's concatenate needs."""
    arrays = [sp(x) for x in arrays]
    fills = {np.asarray(x.fill_value).item() for x in arrays}
    return arrays if len(fills) <= 1 else [zero_fill(x) for x in arrays]


def _concatenate(arrays: Any, /, axis: int | None = 0, out: Any = None, *, dtype: Any = None,
                 casting: str = "same_kind") -> SparseArray:
    no_out("concatenate", "sparse", out)
    arrays = _same_fill(cast_all([sp(x) for x in arrays], dtype, casting))
    if axis is None:
        arrays, axis = [x.reshape((-1,)) for x in arrays], 0
    return sparse.concatenate(arrays, axis=axis)


def _stack(arrays: Any, axis: int = 0, out: Any = None, *, dtype: Any = None,
           casting: str = "same_kind") -> SparseArray:
    no_out("stack", "sparse", out)
    return sparse.stack(_same_fill(cast_all([sp(x) for x in arrays], dtype, casting)), axis=axis)


def _atleast(x: Any, nd: int) -> SparseArray:
    x = sp(x)
    if x.ndim >= nd:
        return x
    if nd == 3 and x.ndim == 2:
        return x.reshape((*x.shape, 1))
    if nd == 3 and x.ndim == 1:
        return x.reshape((1, x.shape[0], 1))
    return x.reshape((1,) * (nd - x.ndim) + x.shape)


def _atleast_nd(nd: int) -> Any:
    def atleast(*arys: Any) -> Any:
        # numpy reads one list argument as one array (sparse arrays in it are stacked)
        # and returns several results as a tuple
        if len(arys) == 1:
            return _atleast(_nested(arys[0]), nd)
        return tuple(_atleast(a, nd) for a in arys)

    atleast.__name__ = atleast.__qualname__ = f"_atleast_{nd}d"
    return atleast


def _nested(x: Any) -> Any:
    """A list or tuple holding sparse arrays as one sparse array (numpy's asarray)."""
    if isinstance(x, (list, tuple)) and any(
        isinstance(e, (SparseArray, list, tuple)) for e in x
    ):
        parts = [_nested(e) for e in x]
        if any(isinstance(p, SparseArray) for p in parts):
            return sparse.stack([sp(p) for p in parts])
    return x


def _hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> SparseArray:
    arrs = [_atleast(x, 1) for x in tup]
    return _concatenate(arrs, axis=0 if arrs[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def _vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> SparseArray:
    return _concatenate([_atleast(x, 2) for x in tup], axis=0, dtype=dtype, casting=casting)


def _dstack(tup: Any) -> SparseArray:
    return _concatenate([_atleast(x, 3) for x in tup], axis=2)


def _split(a: Any, indices_or_sections: Any, axis: int = 0, *, _name: str = "split") -> list:
    # not in pydata sparse: slices along the axis
    a = sp(a)
    axis = axis % a.ndim
    pieces = split_slices(a.shape[axis], indices_or_sections, _name)
    return [a[(slice(None),) * axis + (piece,)] for piece in pieces]


def _array_split(a: Any, indices_or_sections: Any, axis: int = 0) -> list:
    return _split(a, indices_or_sections, axis, _name="array_split")


def _hsplit(a: Any, indices_or_sections: Any) -> list:
    return _split(a, indices_or_sections, 1 if sp(a).ndim > 1 else 0)


def _vsplit(a: Any, indices_or_sections: Any) -> list:
    return _split(a, indices_or_sections, 0)


def _repeat(a: Any, repeats: Any, axis: int | None = None) -> SparseArray:
    a = sp(a)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    if isinstance(repeats, (int, np.integer)):
        # pydata repeats by 1 on the input's buffers; numpy returns a new array
        return owned(sparse.repeat(a, int(repeats), axis=axis), a)
    # sparse repeats only by an integer: gather with repeated indices instead
    reps = np.broadcast_to(dense(repeats), (a.shape[axis],))
    return sparse.take(a, np.repeat(np.arange(reps.size), reps), axis=axis)


def _tile(A: Any, reps: Any) -> SparseArray:
    # pydata tiles by 1 on the input's buffers; numpy returns a new array
    a = sp(A)
    return owned(sparse.tile(a, reps), a)


def _flip(m: Any, axis: Any = None) -> SparseArray:
    return sparse.flip(sp(m), axis=axis)


def _rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> SparseArray:
    m = sp(m)
    k %= 4
    a0, a1 = axes
    if k == 0:
        return m.copy()
    if k == 2:
        return sparse.flip(m, axis=(a0, a1))
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return sparse.flip(m, axis=a1).transpose(perm)
    return sparse.flip(m.transpose(perm), axis=a1)


def _roll(a: Any, shift: Any, axis: Any = None) -> SparseArray:
    if isinstance(axis, tuple) and not axis:
        # no axis: nothing moves (sparse.roll takes the max of the empty axes); the
        # shifts must still broadcast against no axes, as numpy checks
        np.broadcast(np.asarray(shift), np.zeros(0, dtype=int))
        return sp(a).copy()
    return sparse.roll(sp(a), shift, axis=axis)


def _block(shape: tuple, value: Any, dtype: Any) -> COO:
    if value == 0:
        return sparse.zeros(shape, dtype=dtype)
    # a border of a nonzero constant: its entries are stored (fill value stays 0)
    return COO.from_numpy(np.full(shape, value, dtype=dtype))


def _pad_axis(x: COO, axis: int, before: int, after: int, mode: str, cv: Any) -> COO:
    def sl(start: int | None, stop: int | None) -> COO:
        index = [slice(None)] * x.ndim
        index[axis] = slice(start, stop)
        return x[tuple(index)]

    n = x.shape[axis]
    parts_before: list = []
    parts_after: list = []
    if mode == "constant":
        for w, value, parts in ((before, cv[0], parts_before), (after, cv[1], parts_after)):
            if w:
                shape = list(x.shape)
                shape[axis] = w
                parts.append(_block(tuple(shape), value, x.dtype))
    elif mode == "edge":
        if n == 0 and (before or after):
            raise ValueError("can't extend empty axis using modes other than 'constant'")
        for w, edge, parts in (
            (before, sl(0, 1), parts_before),
            (after, sl(n - 1, n), parts_after),
        ):
            if w:
                shape = list(x.shape)
                shape[axis] = w
                parts.append(sparse.broadcast_to(edge, tuple(shape)))
    else:
        # reflect and symmetric copy mirrored slices of the array itself, several
        # times over when the padding is wider than the axis (as numpy does)
        period = n - 1 if mode == "reflect" else n
        if n == 0 or (period == 0 and (before or after)):
            if mode == "reflect" and n == 1:
                return _pad_axis(x, axis, before, after, "edge", cv)
            raise ValueError("can't extend empty axis using modes other than 'constant'")
        while before or after:
            cur = x.shape[axis]
            b = min(before, period)
            a = min(after, period)
            if mode == "reflect":
                left = sparse.flip(sl(1, b + 1), axis=axis)
                right = sparse.flip(sl(cur - a - 1, cur - 1), axis=axis)
            else:
                left = sparse.flip(sl(0, b), axis=axis)
                right = sparse.flip(sl(cur - a, cur), axis=axis)
            pieces = [p for p, w in ((left, b), (x, 1), (right, a)) if w]
            x = sparse.concatenate(pieces, axis=axis) if len(pieces) > 1 else x
            before, after = before - b, after - a
        return x
    pieces = [*parts_before, x, *parts_after]
    return sparse.concatenate(pieces, axis=axis) if len(pieces) > 1 else x


def _pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> SparseArray:
    src = sp(array)
    # numpy always returns a new array; zero widths would return the input here
    return owned(_pad_sparse(src, pad_width, mode, **pad_keywords("sparse", mode, kwargs)), src)


def _pad_sparse(x: SparseArray, pad_width: Any, mode: str, constant_values: Any = 0,
                reflect_type: str = "even") -> SparseArray:
    # reflect_type: 'odd' is refused by pad_keywords
    x = x if isinstance(x, COO) else COO(x)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=int), (x.ndim, 2))
    if mode == "constant":
        cvs = np.broadcast_to(np.asarray(constant_values), (x.ndim, 2))
    elif mode in ("edge", "reflect", "symmetric", "wrap"):
        cvs = np.zeros((x.ndim, 2))
    else:
        raise NotImplementedError(f"pad mode {mode!r} is not available on sparse arrays")
    if mode == "wrap":
        # numpy wraps within the original axis: pad each axis from the original slices
        for ax in range(x.ndim):
            x = _pad_wrap(x, ax, int(widths[ax, 0]), int(widths[ax, 1]))
        return x
    for ax in range(x.ndim):
        x = _pad_axis(x, ax, int(widths[ax, 0]), int(widths[ax, 1]), mode, cvs[ax])
    return x


def _pad_wrap(x: COO, axis: int, before: int, after: int) -> COO:
    n = x.shape[axis]
    if n == 0 and (before or after):
        raise ValueError("can't extend empty axis using modes other than 'constant'")
    if not (before or after):
        return x
    # position i of the padded axis holds element (i - before) mod n
    idx = (np.arange(-before, n + after)) % n
    return sparse.take(x, idx, axis=axis)


TABLE = {
    "reshape": _reshape,
    "ravel": _ravel,
    "transpose": _transpose,
    "permute_dims": _transpose,
    "matrix_transpose": NATIVE,  # sparse's own beats the composed one
    "swapaxes": _swapaxes,
    "moveaxis": "moveaxis",
    "expand_dims": _expand_dims,
    "squeeze": _squeeze,
    "concatenate": _concatenate,
    "concat": alias("concatenate"),
    "stack": _stack,
    "hstack": _hstack,
    "vstack": _vstack,
    "dstack": _dstack,
    "atleast_1d": _atleast_nd(1),
    "atleast_2d": _atleast_nd(2),
    "atleast_3d": _atleast_nd(3),
    "split": _split,
    "array_split": _array_split,
    "hsplit": _hsplit,
    "vsplit": _vsplit,
    "tile": _tile,
    "repeat": _repeat,
    "flip": _flip,
    "fliplr": lambda m: _flip(m, 1),
    "flipud": lambda m: _flip(m, 0),
    "rot90": _rot90,
    "roll": _roll,
    "pad": _pad,
    "broadcast_to": lambda x, shape: sparse.broadcast_to(sp(x), shape),
    "broadcast_arrays": lambda *args: sparse.broadcast_arrays(*map(sp, args)),
}
