"""Shape rules of functions that rearrange arrays: ``reshape``, ``transpose`` and
axis moves, joining and splitting, ``tile``/``repeat``/``pad``/``broadcast_to``,
``flip``/``roll``/``sort``, triangles and rotations, diagonals and ``trace``, ``diff``.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from dispatch.lazy._shapes_abstract import abstract
from dispatch.lazy._shapes_common import (
    _LAZY,
    _NODATA,
    Rule,
    Shape,
    ShapeError,
    _arg,
    _as_shape,
    _host,
    _same,
    broadcast,
    dtype_name,
    dtype_of,
    dtype_of_array,
    eval_dtype,
    norm_axes,
    norm_axis,
    promote,
    shape_of,
)

RULES: dict[str, Rule] = {}


def reshape_shape(shape: Shape, new: Any) -> Shape:
    new = _as_shape(new)
    size = math.prod(shape)
    if new.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in new:
        known = math.prod(d for d in new if d != -1)
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {new}")
        new = tuple(size // known if d == -1 else d for d in new)
    if math.prod(new) != size or any(d < 0 for d in new):
        raise ValueError(f"cannot reshape array of size {size} into shape {new}")
    return new


def _reshape(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    new = args[1] if len(args) > 1 else kwargs.get("shape", kwargs.get("newshape"))
    if len(args) > 2:  # reshape(x, 2, 3) is not numpy's signature, but x.reshape(2, 3) is
        new = args[1:]
    return reshape_shape(shape_of(x), new), dtype_of_array(x)


RULES["reshape"] = _reshape


def _ravel(args: tuple, kwargs: dict) -> tuple:
    return (math.prod(shape_of(args[0])),), dtype_of_array(args[0])


RULES["ravel"] = RULES["flatten"] = _ravel


def _transpose(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    axes = _arg(args, kwargs, 1, "axes")
    if len(args) > 2:
        axes = args[1:]
    if axes is None:
        return shape[::-1], dtype_of_array(x)
    axes = tuple(norm_axis(operator.index(a), len(shape)) for a in axes)
    if sorted(axes) != list(range(len(shape))):
        raise ValueError("axes don't match array")
    return tuple(shape[a] for a in axes), dtype_of_array(x)


RULES["transpose"] = _transpose


def _moveaxis(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    n = len(shape)
    src = norm_axes(_arg(args, kwargs, 1, "source"), n)
    dst = norm_axes(_arg(args, kwargs, 2, "destination"), n)
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of elements")
    order = [i for i in range(n) if i not in src]
    for d, s in sorted(zip(dst, src, strict=False)):
        order.insert(d, s)
    return tuple(shape[i] for i in order), dtype_of_array(x)


RULES["moveaxis"] = _moveaxis


def _swapaxes(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = list(shape_of(x))
    a = norm_axis(operator.index(_arg(args, kwargs, 1, "axis1")), len(shape))
    b = norm_axis(operator.index(_arg(args, kwargs, 2, "axis2")), len(shape))
    shape[a], shape[b] = shape[b], shape[a]
    return tuple(shape), dtype_of_array(x)


RULES["swapaxes"] = _swapaxes


def _expand_dims(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    axis = _arg(args, kwargs, 1, "axis")
    n = len(shape) + (len(axis) if isinstance(axis, (tuple, list)) else 1)
    axes = norm_axes(axis, n)
    it = iter(shape)
    return tuple(1 if i in axes else next(it) for i in range(n)), dtype_of_array(x)


RULES["expand_dims"] = _expand_dims


def _squeeze(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    axis = _arg(args, kwargs, 1, "axis")
    if axis is None:
        return tuple(d for d in shape if d != 1), dtype_of_array(x)
    axes = norm_axes(axis, len(shape))
    if any(shape[a] != 1 for a in axes):
        raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return tuple(d for i, d in enumerate(shape) if i not in axes), dtype_of_array(x)


RULES["squeeze"] = _squeeze


def _seq_dtype(arrays: Sequence) -> str:
    return promote(*(dtype_of(a) for a in arrays))


def _concatenate(args: tuple, kwargs: dict) -> tuple:
    arrays = args[0]
    axis = _arg(args, kwargs, 1, "axis", 0)
    shapes = [shape_of(a) for a in arrays]
    dt = kwargs.get("dtype")
    dt = dtype_name(dt) if dt is not None else _seq_dtype(arrays)
    if axis is None:
        return (sum(math.prod(s) for s in shapes),), dt
    first = shapes[0]
    if not first:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = norm_axis(operator.index(axis), len(first))
    total = 0
    for s in shapes:
        if len(s) != len(first) or any(
            d != e for i, (d, e) in enumerate(zip(s, first, strict=False)) if i != ax
        ):
            raise ValueError(f"concatenate: shapes {shapes} do not match outside axis {ax}")
        total += s[ax]
    return (*first[:ax], total, *first[ax + 1:]), dt


RULES["concatenate"] = RULES["concat"] = _concatenate


def _stack(args: tuple, kwargs: dict) -> tuple:
    arrays = args[0]
    axis = _arg(args, kwargs, 1, "axis", 0)
    shapes = [shape_of(a) for a in arrays]
    if not shapes:
        raise ValueError("need at least one array to stack")
    if any(s != shapes[0] for s in shapes):
        raise ValueError("all input arrays must have the same shape")
    ax = norm_axis(operator.index(axis), len(shapes[0]) + 1)
    first = shapes[0]
    dt = kwargs.get("dtype")
    dt = dtype_name(dt) if dt is not None else _seq_dtype(arrays)
    return (*first[:ax], len(shapes), *first[ax:]), dt


RULES["stack"] = _stack


def _atleast(n: int) -> Callable[[Shape], Shape]:
    def f(s: Shape) -> Shape:
        if len(s) >= n:
            return s
        if n == 1:
            return (1,)
        if n == 2:
            return (1,) * (2 - len(s)) + s
        return {0: (1, 1, 1), 1: (1, *s, 1), 2: (*s, 1)}[len(s)]

    return f


def _hstack(args: tuple, kwargs: dict) -> tuple:
    arrays = args[0]
    shapes = [_atleast(1)(shape_of(a)) for a in arrays]
    axis = 0 if len(shapes[0]) == 1 else 1
    return _join_shapes(shapes, axis), _seq_dtype(arrays)


def _vstack(args: tuple, kwargs: dict) -> tuple:
    arrays = args[0]
    return _join_shapes([_atleast(2)(shape_of(a)) for a in arrays], 0), _seq_dtype(arrays)


def _dstack(args: tuple, kwargs: dict) -> tuple:
    arrays = args[0]
    return _join_shapes([_atleast(3)(shape_of(a)) for a in arrays], 2), _seq_dtype(arrays)


def _join_shapes(shapes: list, axis: int) -> Shape:
    first = shapes[0]
    for s in shapes:
        if len(s) != len(first) or any(
            d != e for i, (d, e) in enumerate(zip(s, first, strict=True)) if i != axis
        ):
            raise ValueError(f"shapes {shapes} do not match outside axis {axis}")
    return (*first[:axis], sum(s[axis] for s in shapes), *first[axis + 1:])


RULES["hstack"] = _hstack
RULES["vstack"] = RULES["row_stack"] = _vstack
RULES["dstack"] = _dstack


def _atleast_nd(n: int) -> Rule:
    def rule(args: tuple, kwargs: dict) -> Any:
        if len(args) == 1:
            return _atleast(n)(shape_of(args[0])), dtype_of_array(args[0])
        return [(_atleast(n)(shape_of(a)), dtype_of_array(a)) for a in args]

    return rule


for _i in (1, 2, 3):
    RULES[f"atleast_{_i}d"] = _atleast_nd(_i)


def _split_sizes(n: int, sections: Any, name: str) -> list[int]:
    if isinstance(sections, (int, np.integer)):
        k = int(sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        if name == "split" and n % k:
            raise ValueError("array split does not result in an equal division")
        q, r = divmod(n, k)
        return [q + 1] * r + [q] * (k - r)
    bounds = [0, *(int(b) for b in sections), n]
    out = []
    for lo, hi in itertools.pairwise(bounds):
        lo = min(max(lo + n if lo < 0 else lo, 0), n)
        hi = min(max(hi + n if hi < 0 else hi, 0), n)
        out.append(max(hi - lo, 0))
    return out


def _split(name: str, default_axis: int | None = 0) -> Rule:
    def rule(args: tuple, kwargs: dict) -> list:
        x = args[0]
        shape = shape_of(x)
        sections = _arg(args, kwargs, 1, "indices_or_sections")
        if default_axis is None:  # hsplit
            axis = 0 if len(shape) == 1 else 1
        else:
            axis = _arg(args, kwargs, 2, "axis", default_axis)
        ax = norm_axis(operator.index(axis), len(shape))
        dt = dtype_of_array(x)
        return [
            ((*shape[:ax], n, *shape[ax + 1:]), dt)
            for n in _split_sizes(shape[ax], sections, name)
        ]

    return rule


RULES["split"] = _split("split")
RULES["array_split"] = _split("array_split")
RULES["hsplit"] = _split("split", None)
RULES["vsplit"] = _split("split", 0)


def _tile(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    reps = _as_shape(_arg(args, kwargs, 1, "reps"))
    n = max(len(shape), len(reps))
    shape = (1,) * (n - len(shape)) + shape
    reps = (1,) * (n - len(reps)) + reps
    return tuple(d * r for d, r in zip(shape, reps, strict=False)), dtype_of_array(x)


RULES["tile"] = _tile


def _repeat(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    reps = _arg(args, kwargs, 1, "repeats")
    axis = _arg(args, kwargs, 2, "axis")
    if type(reps) is _LAZY[0]:
        if reps._data is _NODATA[0]:
            raise ShapeError("repeat with lazy repeat counts has a data-dependent shape")
        reps = _host(reps._data)
    reps_a = np.asarray(reps)
    if axis is None:
        n = math.prod(shape)
        total = n * int(reps_a) if reps_a.ndim == 0 or reps_a.size == 1 else int(reps_a.sum())
        return (total,), dtype_of_array(x)
    ax = norm_axis(operator.index(axis), len(shape))
    n = shape[ax]
    total = n * int(reps_a.ravel()[0]) if reps_a.size == 1 else int(reps_a.sum())
    return (*shape[:ax], total, *shape[ax + 1:]), dtype_of_array(x)


RULES["repeat"] = _repeat


def _pad_widths(width: Any, ndim: int) -> list[tuple[int, int]]:
    w = np.broadcast_to(np.asarray(width, dtype=np.int64), (ndim, 2))
    return [(int(a), int(b)) for a, b in w]


def _pad(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    width = _arg(args, kwargs, 1, "pad_width")
    ws = _pad_widths(width, len(shape))
    return tuple(d + a + b for d, (a, b) in zip(shape, ws, strict=False)), dtype_of_array(x)


RULES["pad"] = _pad


def _broadcast_to(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    new = _as_shape(_arg(args, kwargs, 1, "shape"))
    if broadcast(shape_of(x), new) != new:
        raise ValueError(f"cannot broadcast shape {shape_of(x)} to {new}")
    return new, dtype_of_array(x)


RULES["broadcast_to"] = _broadcast_to


def _broadcast_arrays(args: tuple, kwargs: dict) -> list:
    arrays = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    s = broadcast(*(shape_of(a) for a in arrays))
    return [(s, dtype_of_array(a)) for a in arrays]


RULES["broadcast_arrays"] = _broadcast_arrays


def _same_shape_axis(name: str) -> Rule:
    """flip, roll, sort...: same shape, checked axis; axis=None flattens for sort."""

    def rule(args: tuple, kwargs: dict) -> tuple:
        x = args[0]
        shape = shape_of(x)
        pos = 2 if name == "roll" else 1
        axis = _arg(args, kwargs, pos, "axis", -1 if name in ("sort", "argsort") else None)
        if axis is not None:
            norm_axes(axis, len(shape))
        elif name in ("sort", "argsort"):
            shape = (math.prod(shape),)
        dt = "int64" if name == "argsort" else dtype_of_array(x)
        return shape, dt

    return rule


for _n in ("flip", "roll", "sort", "argsort"):
    RULES[_n] = _same_shape_axis(_n)


def _matrix_same(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    if len(shape_of(x)) < 2:
        raise ValueError("input must be at least 2-d")
    return shape_of(x), dtype_of_array(x)


for _n in ("tril", "triu", "fliplr", "flipud"):
    RULES[_n] = _matrix_same if _n != "flipud" else _same


def _rot90(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    k = _arg(args, kwargs, 1, "k", 1)
    axes = _arg(args, kwargs, 2, "axes", (0, 1))
    a, b = norm_axes(axes, len(shape))
    if k % 2:
        s = list(shape)
        s[a], s[b] = s[b], s[a]
        shape = tuple(s)
    return shape, dtype_of_array(x)


RULES["rot90"] = _rot90


def _diag(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    k = operator.index(_arg(args, kwargs, 1, "k", 0))
    if len(shape) == 1:
        n = shape[0] + abs(k)
        return (n, n), dtype_of_array(x)
    if len(shape) == 2:
        return (_diag_len(shape[0], shape[1], k),), dtype_of_array(x)
    raise ValueError("Input must be 1- or 2-d.")


def _diag_len(n: int, m: int, k: int) -> int:
    return max(0, min(n, m - k) if k >= 0 else min(n + k, m))


RULES["diag"] = _diag


def _diagonal(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    k = operator.index(_arg(args, kwargs, 1, "offset", 0))
    a = norm_axis(_arg(args, kwargs, 2, "axis1", 0), len(shape))
    b = norm_axis(_arg(args, kwargs, 3, "axis2", 1), len(shape))
    if a == b:
        raise ValueError("axis1 and axis2 cannot be the same")
    rest = tuple(d for i, d in enumerate(shape) if i not in (a, b))
    return (*rest, _diag_len(shape[a], shape[b], k)), dtype_of_array(x)


RULES["diagonal"] = _diagonal


def _trace(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape, _ = _diagonal(args, {k: v for k, v in kwargs.items() if k != "dtype"})
    dt = kwargs.get("dtype")
    return shape[:-1], dtype_name(dt) if dt is not None else eval_dtype("sum", (dtype_of(x),))


RULES["trace"] = _trace


def _diff(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    shape = shape_of(x)
    n = _arg(args, kwargs, 1, "n", 1)
    axis = norm_axis(_arg(args, kwargs, 2, "axis", -1), len(shape))
    if kwargs.get("prepend") is not None or kwargs.get("append") is not None:
        return abstract("diff", args, kwargs)
    s = list(shape)
    s[axis] = max(s[axis] - n, 0)
    return tuple(s), dtype_of_array(x) if dtype_of_array(x) != "bool" else "bool"


RULES["diff"] = _diff
