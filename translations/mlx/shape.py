"""mlx: numpy's shape routines (stacks, splits, flips, rotations) on mlx arrays.

mlx has ``concatenate``, ``stack``, ``split`` and ``moveaxis`` with numpy's
arguments, except that its ``split`` takes a list of indices only as a list and
its ``moveaxis`` one axis only; the others are written with them.
"""

from __future__ import annotations

import itertools
from typing import Any

import mlx.core as mx
import numpy as np
from dispatch.translations._adapters import pad_index
from dispatch.translations._keywords import (
    cast_all,
    check_order,
    no_out,
    pad_keywords,
    reshape_order,
)
from dispatch.translations.mlx._common import shape_tuple
from dispatch.translations.mlx.devices import _asarray

from dispatch.engine import kernels

_ARRAY = mx.array
_mx_reshape = mx.reshape
_mx_transpose = mx.transpose
_mx_stack = mx.stack


def _arr(x: Any) -> Any:
    return x if isinstance(x, mx.array) else _asarray(x)


def _arrs(seq: Any) -> list:
    return [_arr(x) for x in seq]


def _concatenate(arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None,
                 casting: str = "same_kind") -> Any:
    no_out("concatenate", "mlx", out)
    parts = _arrs(arrays)
    if dtype is not None or casting != "same_kind":
        parts = cast_all(parts, dtype, casting)
    if axis is None:
        parts, axis = [p.reshape(-1) for p in parts], 0
    return mx.concatenate(parts, axis=int(axis))


def _stack(arrays: Any, axis: int = 0, out: Any = None, dtype: Any = None,
           casting: str = "same_kind") -> Any:
    # numpy's dtype and casting are keyword-only: here they may be passed by position
    # too (see _reshape)
    if dtype is None and out is None and casting == "same_kind":
        try:  # mlx takes a sequence of its own arrays only: anything else goes below
            return _mx_stack(arrays, axis) if axis else _mx_stack(arrays)
        except TypeError:
            pass
    no_out("stack", "mlx", out)
    return mx.stack(cast_all(_arrs(arrays), dtype, casting), axis=int(axis))


def _atleast(n: int) -> Any:
    fn = getattr(mx, f"atleast_{n}d")

    def atleast(*arys: Any) -> Any:
        # mlx's takes its own arrays only: numpy reads each argument (a list too) as
        # one array, and returns one array for one argument, a tuple for several
        outs = tuple(fn(_arr(a)) for a in arys)
        return outs[0] if len(outs) == 1 else outs

    atleast.__name__ = f"atleast_{n}d"
    return atleast


def _pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Any:
    kwargs = pad_keywords("mlx", mode, kwargs)
    a = _arr(array)
    if mode not in ("edge", "wrap", "symmetric", "reflect"):
        return mx.pad(a, _pad_widths(pad_width, a.ndim), mode, **kwargs)
    # mlx has no 'wrap' (and its reflections stop at one length of the axis): numpy's
    # pattern of indices, taken along each axis
    for ax, (before, after) in enumerate(_pad_widths(pad_width, a.ndim)):
        if before or after:
            idx = mx.array(pad_index(a.shape[ax], before, after, mode))
            a = mx.take(a, idx, axis=ax)
    return a


def _pad_widths(pad_width: Any, ndim: int) -> list:
    """numpy's pad widths (one number, one pair, or a pair per axis) as a pair per axis."""
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (ndim, 2))
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    return [(int(b), int(f)) for b, f in widths.tolist()]


def _hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Any:
    parts = [mx.atleast_1d(p) for p in _arrs(tup)]
    return _concatenate(parts, 0 if parts[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def _vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Any:
    return _concatenate([mx.atleast_2d(p) for p in _arrs(tup)], 0, dtype=dtype,
                        casting=casting)


def _dstack(tup: Any) -> Any:
    return mx.concatenate([mx.atleast_3d(p) for p in _arrs(tup)], axis=2)


def _column_stack(tup: Any) -> Any:
    parts = [p.reshape(-1, 1) if p.ndim < 2 else p for p in _arrs(tup)]
    return mx.concatenate(parts, axis=1)


def _array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    a = _arr(ary)
    n = a.shape[axis]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, k)
        sizes = [each + 1] * extra + [each] * (k - extra)
        bounds = [sum(sizes[:i]) for i in range(1, k)]
    else:
        bounds = [int(i) for i in indices_or_sections]
    edges = [0, *bounds, n]
    index = [slice(None)] * a.ndim
    out = []
    for lo, hi in itertools.pairwise(edges):
        index[axis] = slice(lo, max(lo, hi))
        out.append(a[tuple(index)])
    return out


def _split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    a = _arr(ary)
    if isinstance(indices_or_sections, int) and a.shape[axis] % indices_or_sections:
        raise ValueError("array split does not result in an equal division")
    return _array_split(a, indices_or_sections, axis)


def _hsplit(ary: Any, indices_or_sections: Any) -> list:
    a = _arr(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def _vsplit(ary: Any, indices_or_sections: Any) -> list:
    a = _arr(ary)
    if a.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split(a, indices_or_sections, 0)


def _dsplit(ary: Any, indices_or_sections: Any) -> list:
    a = _arr(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split(a, indices_or_sections, 2)


def _ravel(a: Any, order: str = "C") -> Any:
    a = _arr(a)
    if order == "C":
        return a.reshape(-1)
    # mlx has one layout, C's: 'A' and 'K' read it in C order
    check_order(order)
    if order in ("F", "f"):
        return mx.transpose(a).reshape(-1)
    return a.reshape(-1)


def _reshape(a: Any, shape: Any = None, order: str = "C", copy: bool | None = None,
             newshape: Any = None) -> Any:
    # numpy's copy (and the old newshape) are keyword-only: here they may be passed by
    # position too, as in torch's table; a keyword-only parameter keeps CPython from
    # specialising the call (about 60 ns a call with two of them, on a 270 ns reshape)
    if type(a) is _ARRAY and order == "C" and newshape is None and type(shape) is not int:
        return _mx_reshape(a, shape)
    shape = newshape if shape is None else shape
    a = _arr(a)
    if reshape_order(a.shape, shape, order, copy) == "C":
        return a.reshape(shape_tuple(shape))
    return mx.transpose(mx.transpose(a).reshape(shape_tuple(shape)[::-1]))


# an mlx array and a tuple or list shape: mlx's reshape, as the first branch above
_reshape = kernels(_reshape, {(_ARRAY, tuple): mx.reshape, (_ARRAY, list): mx.reshape})


def _moveaxis(a: Any, source: Any, destination: Any) -> Any:
    a = _arr(a)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number "
                         "of elements")
    src = [s % a.ndim for s in src]
    dst = [d % a.ndim for d in dst]
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return mx.transpose(a, order)


def _flip(m: Any, axis: Any = None) -> Any:
    a = _arr(m)
    axes = range(a.ndim) if axis is None else ([axis] if isinstance(axis, int) else axis)
    index = [slice(None)] * a.ndim
    for ax in axes:
        index[ax] = slice(None, None, -1)
    return a[tuple(index)]


def _fliplr(m: Any) -> Any:
    a = _arr(m)
    if a.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return _flip(a, 1)


def _flipud(m: Any) -> Any:
    a = _arr(m)
    if a.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return _flip(a, 0)


def _rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> Any:
    a = _arr(m)
    ax0, ax1 = axes
    k %= 4
    if k == 0:
        return a
    if k == 2:
        return _flip(_flip(a, ax0), ax1)
    order = list(range(a.ndim))
    order[ax0], order[ax1] = order[ax1], order[ax0]
    return mx.transpose(_flip(a, ax1), order) if k == 1 else _flip(mx.transpose(a, order), ax1)


def _transpose(a: Any, axes: Any = None) -> Any:
    if type(a) is _ARRAY:
        return _mx_transpose(a) if axes is None else _mx_transpose(a, axes)
    return mx.transpose(_arr(a)) if axes is None else mx.transpose(_arr(a), list(axes))


# an mlx array (and a tuple or list of axes): mlx's transpose, as the first branch above
_transpose = kernels(_transpose, {(_ARRAY,): mx.transpose, (_ARRAY, tuple): mx.transpose,
                                  (_ARRAY, list): mx.transpose})


def _squeeze(a: Any, axis: Any = None) -> Any:
    a = _arr(a)
    return mx.squeeze(a) if axis is None else mx.squeeze(a, axis)


def _expand_dims(a: Any, axis: Any) -> Any:
    return mx.expand_dims(_arr(a), axis if isinstance(axis, int) else list(axis))


def _broadcast_to(array: Any, shape: Any, subok: bool = False) -> Any:
    return mx.broadcast_to(_arr(array), shape_tuple(shape))


def _broadcast_arrays(*args: Any, subok: bool = False) -> tuple:
    return tuple(mx.broadcast_arrays(*_arrs(args)))


def _tile(A: Any, reps: Any) -> Any:
    return mx.tile(_arr(A), shape_tuple(reps))


def _roll(a: Any, shift: Any, axis: Any = None) -> Any:
    a = _arr(a)
    if axis is None:
        return mx.roll(a.reshape(-1), shift).reshape(a.shape)
    return mx.roll(a, shift, axis)


TABLE = {
    "pad": _pad,
    "atleast_1d": _atleast(1),
    "atleast_2d": _atleast(2),
    "atleast_3d": _atleast(3),
    "concatenate": _concatenate,
    "stack": _stack,
    "hstack": _hstack,
    "vstack": _vstack,
    "dstack": _dstack,
    "column_stack": _column_stack,
    "split": _split,
    "array_split": _array_split,
    "hsplit": _hsplit,
    "vsplit": _vsplit,
    "dsplit": _dsplit,
    "ravel": _ravel,
    "reshape": _reshape,
    "moveaxis": _moveaxis,
    "flip": _flip,
    "fliplr": _fliplr,
    "flipud": _flipud,
    "rot90": _rot90,
    "transpose": _transpose,
    "squeeze": _squeeze,
    "expand_dims": _expand_dims,
    "broadcast_to": _broadcast_to,
    "broadcast_arrays": _broadcast_arrays,
    "tile": _tile,
    "roll": _roll,
}
