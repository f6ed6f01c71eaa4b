"""tensorflow's shape functions: reshaping, transposing, joining, splitting,
repeating, flipping, rolling and padding.

Joins cast to numpy's common dtype first (tf concatenates one dtype only); ``pad``
builds the edge, wrap, reflect and symmetric modes from gathers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
from dispatch.translations._adapters import numpy_container, pad_index
from dispatch.translations._adapters import ravel_order as _ravel_order
from dispatch.translations._keywords import (
    NO_VALUE,
    cast_all,
    diff_ends,
    no_out,
    pad_keywords,
    reshape_order,
    reshape_shape,
)
from dispatch.translations.tensorflow._common import (
    _TENSOR,
    _axes,
    _dt,
    _result_dtype,
    _shape_arg,
    _t,
    _to,
)


def _reshape(a: Any, /, shape: Any = NO_VALUE, order: str = "C", *, newshape: Any = NO_VALUE,
             copy: bool | None = None) -> Any:
    shape = reshape_shape(shape, newshape)
    x = _t(a)
    shape = _shape_arg(shape)
    # tensors are immutable: copy=True cannot be told from a view; copy=False is
    # refused only where numpy's Fortran-order read needs a copy
    if order != "C" and reshape_order(x.shape.as_list(), shape, order, copy) == "F":
        rev = list(reversed(shape))
        return tf.transpose(tf.reshape(tf.transpose(x), rev))
    return tf.reshape(x, shape)


def _ravel(a: Any, order: Any = "C") -> Any:
    # a tensor exposes no memory layout: 'A' and 'K' read it in C order
    x = _t(a)
    if _ravel_order(order) == "F":
        x = tf.transpose(x)
    return tf.reshape(x, [-1])


def _transpose(a: Any, axes: Any = None) -> Any:
    return tf.transpose(a, perm=axes)


def _matrix_transpose(x: Any, /) -> Any:
    return tf.linalg.matrix_transpose(_t(x))


def _expand_dims(a: Any, axis: Any) -> Any:
    x = _t(a)
    if isinstance(axis, (int, np.integer)):
        return tf.expand_dims(x, axis)
    n = x.shape.rank + len(axis)
    pos = sorted(_axes(axis, n))
    if len(set(pos)) != len(pos):
        raise ValueError("repeated axis")
    for p in pos:
        x = tf.expand_dims(x, p)
    return x


def _squeeze(a: Any, axis: Any = None) -> Any:
    x = _t(a)
    if axis is None:
        return tf.squeeze(x)
    return tf.squeeze(x, list(_axes(axis, x.shape.rank)))


def _common(arrays: Sequence[Any], dtype: Any = None) -> Sequence[Any]:
    """The arrays as tensors of numpy's common dtype."""
    if dtype is None and arrays and isinstance(arrays[0], _TENSOR):
        d0 = arrays[0].dtype
        if all(isinstance(x, _TENSOR) and x.dtype == d0 for x in arrays):
            return arrays
    xs = [_t(x) for x in arrays]
    dt = _dt(dtype) or (_result_dtype(*xs) if xs else None)
    return [x if x.dtype == dt else tf.cast(x, dt) for x in xs]


def _cast_check(arrays: Sequence[Any], dtype: Any, casting: str) -> Sequence[Any]:
    """The arrays, checked against numpy's ``casting`` rule towards ``dtype`` (or
    their common dtype) where the rule can refuse a cast."""
    if dtype is None and casting == "same_kind":
        return arrays
    return cast_all([_t(x) for x in arrays], dtype, casting)


def _concatenate(arrays: Sequence[Any], axis: int | None = 0, out: None = None,
                 dtype: Any = None, casting: str = "same_kind") -> Any:
    no_out("concatenate", "tensorflow", out)
    xs = _common(_cast_check(arrays, dtype, casting), dtype)
    if axis is None:
        return tf.concat([tf.reshape(x, [-1]) for x in xs], 0)
    return tf.concat(xs, axis)


def _stack(arrays: Sequence[Any], axis: int = 0, out: None = None, *, dtype: Any = None,
           casting: str = "same_kind") -> Any:
    no_out("stack", "tensorflow", out)
    return tf.stack(_common(_cast_check(arrays, dtype, casting), dtype), axis)


def _atleast(x: Any, n: int) -> Any:
    x = _t(x)
    r = x.shape.rank
    if r >= n:
        return x
    if n == 2 and r == 1:
        return x[None, :]
    if n == 3 and r == 2:
        return x[:, :, None]
    if n == 3 and r == 1:
        return x[None, :, None]
    return tf.reshape(x, [1] * n)


def _atleast_nd(n: int) -> Any:
    def atleast(*arys: Any) -> Any:
        # numpy returns several results as a tuple (tnp: a list); one list argument
        # is one array
        if len(arys) == 1:
            return _atleast(arys[0], n)
        return tuple(_atleast(a, n) for a in arys)

    atleast.__name__ = atleast.__qualname__ = f"_atleast_{n}d"
    return atleast


def _column_stack(tup: Sequence[Any]) -> Any:
    xs = [_t(x) for x in tup]
    return tf.concat(_common([x[:, None] if x.shape.rank == 1 else _atleast(x, 2) for x in xs]),
                     1)


def _vstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Any:
    return tf.concat(_common(_cast_check([_atleast(x, 2) for x in tup], dtype, casting), dtype),
                     0)


def _hstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Any:
    xs = _common(_cast_check([_atleast(x, 1) for x in tup], dtype, casting), dtype)
    return tf.concat(xs, 0 if xs and xs[0].shape.rank == 1 else 1)


def _dstack(tup: Sequence[Any]) -> Any:
    return tf.concat(_common([_atleast(x, 3) for x in tup]), 2)


def _split_points(x: Any, indices_or_sections: Any, axis: int, strict: bool) -> list:
    n = x.shape[axis]
    if n is None:
        n = int(tf.shape(x)[axis])
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        if strict and n % k:
            raise ValueError("array split does not result in an equal division")
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        points = np.cumsum([0, *sizes])
        return list(itertools.pairwise(points))
    idx = [int(i) for i in np.asarray(indices_or_sections).ravel()]
    bounds = [0, *idx, n]
    return list(itertools.pairwise(bounds))


def _pieces(ary: Any, indices_or_sections: Any, axis: int, strict: bool) -> list:
    x = _t(ary)
    axis = _axes(axis, x.shape.rank)[0]
    lead = [slice(None)] * axis
    points = _split_points(x, indices_or_sections, axis, strict)
    return [x[tuple([*lead, slice(int(s), int(e))])] for s, e in points]


def _split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    return _pieces(ary, indices_or_sections, axis, True)


def _array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    return _pieces(ary, indices_or_sections, axis, False)


def _ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Any:
    x = tf.reshape(_t(ary), [-1])
    parts = [x[1:] - x[:-1]]
    if to_begin is not None:
        parts.insert(0, tf.reshape(_to(to_begin, x.dtype), [-1]))
    if to_end is not None:
        parts.append(tf.reshape(_to(to_end, x.dtype), [-1]))
    return tf.concat(parts, 0)


def _repeat(a: Any, repeats: Any, axis: int | None = None) -> Any:
    return tf.repeat(_t(a), repeats, axis=axis)


def _flip(m: Any, axis: Any = None) -> Any:
    x = _t(m)
    return tf.reverse(x, list(_axes(axis, x.shape.rank)))


def _roll(a: Any, shift: Any, axis: Any = None) -> Any:
    x = _t(a)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    if isinstance(axis, (tuple, list)) and isinstance(shift, (int, np.integer)):
        shift = [int(shift)] * len(axis)  # numpy applies an int shift to each axis
    return tf.roll(x, shift, axis)


def _pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Any:
    kwargs = pad_keywords("tensorflow", mode, kwargs)
    x = _t(array)
    nd = x.shape.rank
    w = np.asarray(pad_width, dtype=np.int64)
    if w.ndim == 1:
        w = w.reshape(()) if w.size == 1 else w.reshape(1, 2)  # (n,) or (before, after)
    widths = np.broadcast_to(w, (nd, 2))
    if np.any(widths < 0):
        raise ValueError("index can't contain negative values")
    if nd == 0:  # nothing to pad (tf.pad refuses a 0-d tensor)
        return tf.identity(x)
    if mode == "constant":
        cv = kwargs.get("constant_values", 0)
        if np.ndim(cv) == 0:
            return tf.pad(x, widths.tolist(), constant_values=_to(cv, x.dtype))
        cvs = np.broadcast_to(np.asarray(cv), (nd, 2))
        # one side at a time, axis by axis: later axes fill the corners, as in numpy
        for ax in range(nd):
            for side in (0, 1):
                pads = [[0, 0] for _ in range(nd)]
                pads[ax][side] = int(widths[ax, side])
                x = tf.pad(x, pads, constant_values=_to(cvs[ax, side].item(), x.dtype))
        return x
    if mode not in ("edge", "wrap", "reflect", "symmetric"):
        raise ValueError(f"pad mode {mode!r} is not supported on tensorflow")
    for ax in range(nd):
        before, after = (int(w) for w in widths[ax])
        if before == after == 0:
            continue
        n = x.shape[ax]
        if n == 0:
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant'")
        x = tf.gather(x, pad_index(n, before, after, mode), axis=ax)
    return x


def _tile(A: Any, reps: Any) -> Any:
    x = _t(A)
    reps = [int(reps)] if np.ndim(reps) == 0 else [int(r) for r in reps]
    rank = x.shape.rank
    nd = max(rank, len(reps))
    if rank < nd:
        x = tf.reshape(x, tf.concat([tf.ones([nd - rank], tf.int32), tf.shape(x)], 0))
    return tf.tile(x, [1] * (nd - len(reps)) + reps)


def _broadcast_to(array: Any, shape: Any, subok: bool = False) -> Any:
    return tf.broadcast_to(_t(array), _shape_arg(shape))


def _moveaxis(a: Any, source: Any, destination: Any) -> Any:
    return tnp.moveaxis(_t(a), source, destination)


def _swapaxes(a: Any, axis1: int, axis2: int) -> Any:
    x = _t(a)
    nd = x.shape.rank
    a1, a2 = _axes((axis1, axis2), nd)
    perm = list(range(nd))
    perm[a1], perm[a2] = a2, a1
    return tf.transpose(x, perm)


TABLE = {
    "diff": diff_ends(tnp.diff),  # tnp's takes no prepend= or append=
    # tnp returns a list; numpy 2 a tuple
    "broadcast_arrays": numpy_container(tnp.broadcast_arrays, tuple),
    "reshape": _reshape,
    "ravel": _ravel,
    "transpose": _transpose,
    "permute_dims": _transpose,
    "matrix_transpose": _matrix_transpose,
    "moveaxis": _moveaxis,
    "swapaxes": _swapaxes,
    "expand_dims": _expand_dims,
    "squeeze": _squeeze,
    "concatenate": _concatenate,
    "concat": _concatenate,
    "stack": _stack,
    "hstack": _hstack,
    "vstack": _vstack,
    "dstack": _dstack,
    "column_stack": _column_stack,
    "atleast_1d": _atleast_nd(1),
    "atleast_2d": _atleast_nd(2),
    "atleast_3d": _atleast_nd(3),
    "ediff1d": _ediff1d,
    "split": _split,
    "array_split": _array_split,
    "tile": _tile,
    "repeat": _repeat,
    "flip": _flip,
    "roll": _roll,
    "pad": _pad,
    "broadcast_to": _broadcast_to,
}
