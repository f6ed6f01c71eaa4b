"""paddle: take, where, nonzero, sorting, searching, diagonals and padding.

``paddle.take`` has no ``axis`` (numpy: along an axis), ``where`` refuses mixed
dtypes, ``nonzero`` returns column tensors, ``argsort`` is unstable unless asked,
``unique`` has no ``equal_nan`` and ``nn.functional.pad`` reverses the axis order
and pads at most three axes: the adapters gather indices instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import paddle
from dispatch.translations._adapters import pad_index
from dispatch.translations._keywords import check_sort, no_out, pad_keywords
from dispatch.translations.paddle._common import WIDER, by_parts, promote, truth, widened
from paddle import Tensor

from dispatch.engine import kernels


def _index(indices: Any, like: Tensor) -> Tensor:
    if isinstance(indices, Tensor):
        return indices.astype("int64") if indices.dtype != paddle.int64 else indices
    return paddle.to_tensor(np.asarray(indices, dtype=np.int64), place=like.place)


def _take(a: Tensor, indices: Any, axis: int | None = None, out: Any = None,
          mode: str = "raise") -> Tensor:
    no_out("take", "paddle", out)
    if a.dtype in (paddle.bool, paddle.int8, paddle.uint8, paddle.int16):
        # no index_select kernel for these: int32 holds their values exactly
        return _take(a.astype("int32"), indices, axis, None, mode).astype(a.dtype)
    idx = _index(indices, a)
    if axis is None:
        a, axis = a.flatten(), 0
    axis = axis % a.ndim
    n = a.shape[axis]
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: clipmode must be one of 'clip', 'raise', or 'wrap' "
                         f"(got {mode!r})")
    if mode == "wrap":
        idx = paddle.remainder(idx, paddle.to_tensor(n, dtype="int64"))
    elif mode == "clip":
        idx = paddle.clip(idx, 0, n - 1)
    else:
        if idx.size and bool(paddle.any(paddle.logical_or(idx >= n, idx < -n))):
            raise IndexError(f"take: index out of bounds for axis {axis} with size {n} "
                             f"on paddle")
        idx = paddle.where(idx < 0, idx + n, idx)
    flat = paddle.index_select(a, idx.flatten(), axis=axis)
    shape = [*a.shape[:axis], *idx.shape, *a.shape[axis + 1:]]
    return flat.reshape(shape)


def _take_along_axis(arr: Tensor, indices: Any, axis: int | None = -1) -> Tensor:
    idx = _index(indices, arr)
    if axis is None:
        arr, axis = arr.flatten(), 0
    n = arr.shape[axis]
    idx = paddle.where(idx < 0, idx + n, idx)
    # numpy broadcasts the two on every axis but ``axis``
    shape = list(np.broadcast_shapes(
        tuple(s for i, s in enumerate(arr.shape) if i != axis % arr.ndim),
        tuple(s for i, s in enumerate(idx.shape) if i != axis % arr.ndim)))
    ax = axis % arr.ndim
    arr = paddle.broadcast_to(arr, [*shape[:ax], arr.shape[ax], *shape[ax:]])
    idx = paddle.broadcast_to(idx, [*shape[:ax], idx.shape[ax], *shape[ax:]])
    return _gather_along(arr, idx, ax)


@by_parts
@widened
def _gather_along(arr: Tensor, idx: Tensor, axis: int) -> Tensor:
    return paddle.take_along_axis(arr, idx, axis, broadcast=False)


def _where(condition: Any, x: Any = None, y: Any = None) -> Any:
    if type(condition) is Tensor and type(x) is Tensor and type(y) is Tensor:
        # paddle refuses a condition that is not bool and x, y it would not promote as
        # numpy does; float32 with float64 gives float64, as numpy
        try:
            return paddle.where(condition, x, y)
        except (TypeError, ValueError, RuntimeError):
            pass
    if x is None and y is None:
        return _nonzero(condition)
    if not isinstance(condition, Tensor):
        condition = paddle.to_tensor(np.asarray(condition))
    condition = truth(condition)
    x, y = promote(x, y)
    wider = WIDER.get(x.dtype)
    if wider is not None and x.dtype is not paddle.bool:  # float16, int8...: no kernel
        return paddle.where(condition, x.astype(wider), y.astype(wider)).astype(x.dtype)
    return paddle.where(condition, x, y)


# three tensors: paddle's where, as the first step above; where it refuses (a condition
# that is not boolean, operands it would not promote as numpy), do calls _where
_where = kernels(_where, {(Tensor, Tensor, Tensor): paddle.where})


def _select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    choices = promote(*choicelist, default)
    out = paddle.broadcast_to(choices[-1], list(np.broadcast_shapes(
        *(tuple(c.shape) for c in choices), *(tuple(c.shape) for c in condlist))))
    for cond, choice in zip(reversed(condlist), reversed(choices[:-1]), strict=True):
        out = paddle.where(cond, choice, out)
    return out


def _nonzero(a: Tensor) -> tuple:
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return tuple(i.reshape([-1]) for i in paddle.nonzero(truth(a), as_tuple=True))


def _argwhere(a: Tensor) -> Tensor:
    if a.ndim == 0:
        a = a.reshape([1])
        return paddle.nonzero(truth(a))[:, :0]
    return paddle.nonzero(truth(a))


def _flatnonzero(a: Tensor) -> Tensor:
    return _nonzero(a.flatten())[0]


def _sort(a: Tensor, axis: int | None = -1, kind: Any = None, order: Any = None, *,
          stable: Any = None) -> Tensor:
    # paddle's stable algorithm on every call: the answer of every kind numpy knows (a
    # stable sort is a right quicksort too), so the kind is only checked
    check_sort(kind, order, stable)
    if axis is None:
        a, axis = a.flatten(), 0
    wider = WIDER.get(a.dtype)
    if wider is not None:
        return paddle.sort(a.astype(wider), axis=axis, stable=True).astype(a.dtype)
    return paddle.sort(a, axis=axis, stable=True)


def _argsort(a: Tensor, axis: int | None = -1, kind: Any = None, order: Any = None, *,
             stable: Any = None) -> Tensor:
    check_sort(kind, order, stable)  # always paddle's stable algorithm (see _sort)
    if axis is None:
        a, axis = a.flatten(), 0
    wider = WIDER.get(a.dtype)
    return paddle.argsort(a if wider is None else a.astype(wider), axis=axis, stable=True)


def _searchsorted(a: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Any:
    if sorter is not None:
        a = _take(a, sorter)
    scalar = not isinstance(v, Tensor) and np.ndim(v) == 0
    v = v if isinstance(v, Tensor) else paddle.to_tensor(np.asarray(v))
    a, v = promote(a, v)
    out = paddle.searchsorted(a, v.reshape([-1]) if v.ndim == 0 else v, right=side == "right")
    return out.reshape([]) if scalar or v.ndim == 0 else out


def _diagonal(a: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    return paddle.diagonal(a, offset=offset, axis1=axis1, axis2=axis2)


def _diagflat(v: Any, k: int = 0) -> Tensor:
    return _diag(v.flatten(), k)


def _diag(v: Tensor, k: int = 0) -> Tensor:
    if v.ndim == 1:
        return paddle.diag(v, offset=k)
    if v.ndim == 2:
        return paddle.diagonal(v, offset=k).clone()
    raise ValueError("Input must be 1- or 2-d.")


def _triangle(fn: Any) -> Any:
    @by_parts
    @widened
    def triangle(m: Tensor, k: int = 0) -> Tensor:
        return fn(m, diagonal=k)

    return triangle


def _trace(a: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
           out: Any = None) -> Tensor:
    no_out("trace", "paddle", out)
    from dispatch.translations.paddle.reductions import _sum

    return _sum(paddle.diagonal(a, offset=offset, axis1=axis1, axis2=axis2), axis=-1,
                dtype=dtype)


def _isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> Tensor:
    a, b = promote(a, b)
    if not (a.is_floating_point() or a.is_complex()):
        a, b = a.astype("float64"), b.astype("float64")
    a, b = paddle.broadcast_tensors([a, b])
    diff = paddle.abs(a - b)
    close = diff <= atol + rtol * paddle.abs(b)
    # infinities are close only to themselves (inf - inf is nan above)
    close = paddle.where(paddle.isinf(a) | paddle.isinf(b), a == b, close)
    if equal_nan:
        close = close | (paddle.isnan(a) & paddle.isnan(b))
    return close


def _allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
              equal_nan: bool = False) -> bool:
    return bool(paddle.all(_isclose(a, b, rtol, atol, equal_nan)))


def _pad(array: Tensor, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Tensor:
    kwargs = pad_keywords("paddle", mode, kwargs)
    # the widths of every axis as numpy reads them: one number, one pair, or a pair per axis
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (array.ndim, 2))
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    a = array
    if mode in ("constant", "empty"):
        value = kwargs.pop("constant_values", 0) if mode == "constant" else 0
        values = np.broadcast_to(np.asarray(value), (a.ndim, 2))
        for ax, (b, f) in enumerate(widths.tolist()):
            parts = []
            for w, val in ((b, values[ax][0]), (f, values[ax][1])):
                shape = list(a.shape)
                shape[ax] = w
                parts.append(paddle.full(shape, val.item(), dtype=a.dtype))
            a = paddle.concat([parts[0], a, parts[1]], axis=ax)
        return a
    if mode not in ("edge", "wrap", "symmetric", "reflect"):
        raise ValueError(f"pad on paddle: mode {mode!r} is not supported")
    for ax, (b, f) in enumerate(widths.tolist()):
        if b or f:
            idx = paddle.to_tensor(pad_index(a.shape[ax], b, f, mode), place=a.place)
            a = paddle.index_select(a, idx, axis=ax)
    return a if a is not array else array.clone()


def _one_nan(flat: Tensor, out: Any, return_index: bool, return_inverse: bool,
             return_counts: bool) -> Any:
    """paddle.unique's answer with its NaNs (sorted last, one entry each) merged into one,
    as numpy 2's ``equal_nan=True``. The index, inverse and counts of the NaN are read
    from ``flat``: paddle's for its NaN entries are wrong (index 0, count 0)."""
    parts = list(out) if isinstance(out, (tuple, list)) else [out]
    values = parts[0]
    k = int(paddle.sum(paddle.logical_not(paddle.isnan(values))).item())
    if values.shape[0] == k:
        return out
    parts[0] = values[:k + 1]
    at = 1
    if return_index:
        idx = parts[at]
        first = paddle.nonzero(paddle.isnan(flat))[0].astype(idx.dtype)
        parts[at] = paddle.concat([idx[:k], first])
        at += 1
    if return_inverse:
        inv = parts[at]
        parts[at] = paddle.where(paddle.isnan(flat), paddle.full_like(inv, k), inv)
        at += 1
    if return_counts:
        counts = parts[at]
        nans = paddle.sum(paddle.isnan(flat).astype(counts.dtype)).reshape([1])
        parts[at] = paddle.concat([counts[:k], nans])
    return tuple(parts) if isinstance(out, (tuple, list)) else parts[0]


def _unique(ar: Tensor, return_index: bool = False, return_inverse: bool = False,
            return_counts: bool = False, axis: int | None = None, *,
            equal_nan: bool = True, sorted: bool = True) -> Any:
    flat = ar.flatten() if axis is None else ar
    wider = WIDER.get(ar.dtype)
    if wider is not None:
        out = _unique(flat.astype(wider), return_index, return_inverse, return_counts, axis)
        if isinstance(out, tuple):
            out = (out[0].astype(ar.dtype), *out[1:])
            if return_inverse and axis is None:
                k = 1 + return_index
                out = (*out[:k], out[k].reshape(ar.shape), *out[k + 1:])
            return out
        return out.astype(ar.dtype)
    out = paddle.unique(flat, return_index=return_index, return_inverse=return_inverse,
                        return_counts=return_counts, axis=axis)
    if axis is None and equal_nan and flat.is_floating_point():
        out = _one_nan(flat, out, return_index, return_inverse, return_counts)
    if not (return_index or return_inverse or return_counts):
        return out
    out = list(out)
    if return_inverse and axis is None:
        k = 1 + return_index
        out[k] = out[k].reshape(ar.shape)
    return tuple(out)


TABLE = {
    "take": _take,
    "take_along_axis": _take_along_axis,
    "where": _where,
    "nonzero": _nonzero,
    "select": _select,
    "isclose": _isclose,
    "allclose": _allclose,
    "argwhere": _argwhere,
    "flatnonzero": _flatnonzero,
    "sort": _sort,
    "argsort": _argsort,
    "searchsorted": _searchsorted,
    "diagonal": _diagonal,
    "diag": _diag,
    "diagflat": _diagflat,
    "tril": _triangle(paddle.tril),
    "triu": _triangle(paddle.triu),
    "trace": _trace,
    "pad": _pad,
    "unique": _unique,
}
