"""Shape rules of indexing under numpy's basic and advanced rules (``x[key]``),
``take``, ``take_along_axis`` and ``searchsorted``.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from dispatch.lazy._shapes_common import (
    _LAZY,
    _NODATA,
    Rule,
    Shape,
    ShapeError,
    _arg,
    _host,
    _is_array,
    broadcast,
    dtype_of_array,
    norm_axis,
    shape_of,
)

RULES: dict[str, Rule] = {}


def _take(args: tuple, kwargs: dict) -> tuple:
    x, ind = args[0], _arg(args, kwargs, 1, "indices")
    axis = _arg(args, kwargs, 2, "axis")
    shape = shape_of(x)
    ishape = shape_of(ind)
    if axis is None:
        return ishape, dtype_of_array(x)
    ax = norm_axis(operator.index(axis), len(shape))
    return shape[:ax] + ishape + shape[ax + 1:], dtype_of_array(x)


RULES["take"] = _take


def _take_along_axis(args: tuple, kwargs: dict) -> tuple:
    x, ind = args[0], _arg(args, kwargs, 1, "indices")
    axis = _arg(args, kwargs, 2, "axis", -1)
    shape, ishape = shape_of(x), shape_of(ind)
    if axis is None:
        return ishape, dtype_of_array(x)
    if len(shape) != len(ishape):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    ax = norm_axis(operator.index(axis), len(shape))
    s = list(shape)
    s[ax] = 1
    out = list(broadcast(tuple(s), tuple(1 if i == ax else d for i, d in enumerate(ishape))))
    out[ax] = ishape[ax]
    return tuple(out), dtype_of_array(x)


RULES["take_along_axis"] = _take_along_axis


def _searchsorted(args: tuple, kwargs: dict) -> tuple:
    return shape_of(_arg(args, kwargs, 1, "v")), "int64"


RULES["searchsorted"] = _searchsorted


def _is_int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, bool)


def index_shape(shape: Shape, key: Any) -> Shape:
    """Shape of ``x[key]`` under numpy's basic and advanced indexing rules."""
    if not isinstance(key, tuple):
        key = (key,)
    items: list[Any] = []
    for k in key:
        if isinstance(k, (list, bool, np.bool_)):
            k = np.asarray(k)
        items.append(k)
    consumed = 0
    n_ell = 0
    for k in items:
        if k is None:
            continue
        if k is Ellipsis:
            n_ell += 1
            continue
        if _is_array(k) and dtype_of_array(k) == "bool":
            consumed += len(shape_of(k))
        else:
            consumed += 1
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > len(shape):
        raise IndexError(
            f"too many indices for array: array is {len(shape)}-dimensional, "
            f"but {consumed} were indexed"
        )
    fill = len(shape) - consumed
    expanded: list[Any] = []
    for k in items:
        if k is Ellipsis:
            expanded.extend([slice(None)] * fill)
        else:
            expanded.append(k)
    if not n_ell:
        expanded.extend([slice(None)] * fill)
    has_adv = any(_is_array(k) for k in expanded)
    out: list[Any] = []
    adv_shapes: list[Shape] = []
    adv_pos: list[int] = []  # positions in ``expanded`` of advanced indices
    dim = 0
    for pos, k in enumerate(expanded):
        if k is None:
            out.append(1)
        elif isinstance(k, slice):
            if any(type(b) is _LAZY[0] for b in (k.start, k.stop, k.step)):
                raise ShapeError("slice bounds must be known integers, not lazy arrays")
            out.append(len(range(*k.indices(shape[dim]))))
            dim += 1
        elif _is_int(k):
            n = shape[dim]
            if not -n <= int(k) < n:
                raise IndexError(
                    f"index {int(k)} is out of bounds for axis {dim} with size {n}"
                )
            if has_adv:
                adv_shapes.append(())
                adv_pos.append(pos)
                out.append(_ADV)
            dim += 1
        elif _is_array(k):
            if dtype_of_array(k) == "bool":
                ks = shape_of(k)
                if tuple(shape[dim:dim + len(ks)]) != ks:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {dim}; "
                        f"size of axis is {shape[dim]} but size of boolean index is {ks}"
                    )
                if type(k) is _LAZY[0]:
                    if k._fn is not None or k._data is _NODATA[0]:
                        raise ShapeError(
                            "indexing with a lazy boolean mask has a data-dependent shape; "
                            "compute the mask first"
                        )
                    k = k._data
                count = int(np.count_nonzero(_host(k)))
                adv_shapes.append((count,))
                dim += len(ks)
            else:
                if not dtype_of_array(k).startswith(("int", "uint")):
                    raise IndexError(
                        "arrays used as indices must be of integer (or boolean) type"
                    )
                adv_shapes.append(shape_of(k))
                dim += 1
            adv_pos.append(pos)
            out.append(_ADV)
        else:
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                "and integer or boolean arrays are valid indices"
            )
    if not has_adv:
        return tuple(out)
    bshape = broadcast(*adv_shapes)
    adjacent = adv_pos == list(range(adv_pos[0], adv_pos[0] + len(adv_pos)))
    rest = [d for d in out if d is not _ADV]
    if adjacent:
        first = out.index(_ADV)
        before = [d for d in out[:first] if d is not _ADV]
        return tuple(before) + bshape + tuple(rest[len(before):])
    return bshape + tuple(rest)


_ADV = object()


def _getitem(args: tuple, kwargs: dict) -> tuple:
    x, key = args
    return index_shape(shape_of(x), key), dtype_of_array(x)


RULES["getitem"] = _getitem
