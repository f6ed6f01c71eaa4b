"""tensorflow's indexing: take, gather and scatter, nonzero, diagonals, sorting,
``unique`` and searching.

numpy accepts negative indices and raises IndexError out of range, where tf.gather
refuses the first and raises its own error; floats sort with NaN last through an
integer key. The scatters of the backend method list run on ``tf.math.bincount``
(float and int adds) and ``tensor_scatter_nd_*`` (the other modes);
``_scatter_1d_scalar_tensorflow`` and ``_searchsorted_batched_tensorflow`` are the
native kernels behind ``scatter_1d_scalar`` and ``searchsorted_batched``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import tensorflow as tf
from dispatch.translations._adapters import take_index, take_mode
from dispatch.translations._composed._scatter import (
    _check_mode,
    scatter_layout,
    unbatched_forms,
)
from dispatch.translations._keywords import check_sort, no_out
from dispatch.translations.tensorflow._common import (
    _axes,
    _is_float,
    _promote,
    _result_dtype,
    _static_shape,
    _t,
    _to,
    _truth,
)
from dispatch.translations.tensorflow.statistics import _BINCOUNT_WEIGHTS, _bincount_weighted

from dispatch.engine import NATIVE, do


def _wrap_index(idx: Any, n: Any) -> Any:
    # numpy accepts negative indices; tf.gather does not
    idx = _t(idx)
    if idx.dtype == tf.bool:
        raise TypeError("boolean indices: use nonzero first")
    n = tf.cast(n, idx.dtype)
    return tf.where(idx < 0, idx + n, idx)


def _take(a: Any, indices: Any, axis: int | None = None, out: None = None,
          mode: str = "raise") -> Any:
    no_out("take", "tensorflow", out)
    x = _t(a)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    n = tf.shape(x, out_type=tf.int64)[axis]
    idx = tf.cast(_t(indices), tf.int64)
    mode = take_mode(mode)
    if mode == "raise" and tf.executing_eagerly():
        # tf.gather's own error is an InvalidArgumentError; numpy's is an IndexError
        take_index(idx.numpy(), int(n), axis, mode)
    if mode == "wrap":
        idx = tf.math.floormod(idx, n)
    elif mode == "clip":
        idx = tf.clip_by_value(idx, 0, n - 1)
    else:
        idx = _wrap_index(idx, n)
    return tf.gather(x, idx, axis=axis)


def _take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> Any:
    x = _t(arr)
    idx = tf.cast(_t(indices), tf.int64)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    nd = x.shape.rank
    axis = _axes(axis, nd)[0]
    idx = _wrap_index(idx, tf.shape(x, out_type=tf.int64)[axis])
    xm = tf.experimental.numpy.moveaxis(x, axis, -1)
    im = tf.experimental.numpy.moveaxis(idx, axis, -1)
    batch = tf.broadcast_dynamic_shape(tf.shape(xm)[:-1], tf.shape(im)[:-1])
    xm = tf.broadcast_to(xm, tf.concat([batch, tf.shape(xm)[-1:]], 0))
    im = tf.broadcast_to(im, tf.concat([batch, tf.shape(im)[-1:]], 0))
    r = tf.gather(xm, im, axis=-1, batch_dims=nd - 1)
    return tf.experimental.numpy.moveaxis(r, -1, axis)


def _nonzero(a: Any) -> tuple:
    x = _t(a)
    if x.shape.rank == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use atleast_1d first.")
    idx = tf.where(_truth(x))
    return tuple(idx[:, i] for i in range(x.shape.rank))


def _argwhere(a: Any) -> Any:
    x = _t(a)
    if x.shape.rank == 0:
        return tf.zeros((1 if bool(_truth(x)) else 0, 0), tf.int64)
    return tf.where(_truth(x))


def _flatnonzero(a: Any) -> Any:
    return tf.where(_truth(tf.reshape(_t(a), [-1])))[:, 0]


def _diag(v: Any, k: int = 0) -> Any:
    x = _t(v)
    if x.shape.rank == 1:
        return tf.linalg.diag(x, k=k)
    if x.shape.rank == 2:
        return tf.linalg.diag_part(x, k=k) if _diag_len(x, k) > 0 else tf.zeros((0,), x.dtype)
    raise ValueError("Input must be 1- or 2-d.")


def _diag_len(x: Any, k: int) -> int:
    n, m = x.shape[-2], x.shape[-1]
    if n is None or m is None:
        return 1
    return min(n, m - k) if k >= 0 else min(n + k, m)


def _diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    x = _t(a)
    nd = x.shape.rank
    a1, a2 = _axes((axis1, axis2), nd)
    rest = [i for i in range(nd) if i not in (a1, a2)]
    x = tf.transpose(x, [*rest, a1, a2])
    if _diag_len(x, offset) <= 0:
        return tf.zeros(tf.concat([tf.shape(x)[:-2], [0]], 0), x.dtype)
    return tf.linalg.diag_part(x, k=offset)


def _sort_key(x: Any) -> Any:
    """Integers ordering floats as numpy sorts them: NaN last, -0.0 equal to 0.0."""
    x = tf.where(tf.math.is_nan(x), tf.constant(math.nan, x.dtype), x + 0)
    bits = {2: tf.int16, 4: tf.int32, 8: tf.int64}[x.dtype.size]
    i = tf.bitcast(x, bits)
    flip = tf.constant(np.iinfo(bits.as_numpy_dtype).max, bits)
    return tf.where(i < 0, tf.bitwise.bitwise_xor(i, flip), i)


def _sort(a: Any, axis: int | None = -1, kind: str | None = None, order: None = None, *,
          stable: bool | None = None) -> Any:
    # every sort gives the same values: the kind is only checked, as numpy checks it
    check_sort(kind, order, stable)
    x = _t(a)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if x.dtype == tf.bool:
        return tf.cast(tf.sort(tf.cast(x, tf.int8), axis=axis), tf.bool)
    if x.dtype.is_complex:
        raise TypeError("sorting complex tensors is not supported on tensorflow")
    if not _is_float(x):
        return tf.sort(x, axis=axis)
    nan = tf.math.is_nan(x)
    s = tf.sort(tf.where(nan, tf.constant(math.inf, x.dtype), x), axis=axis)
    # NaNs go last, as in numpy
    n = tf.shape(x)[axis]
    count = tf.reduce_sum(tf.cast(nan, tf.int32), axis=axis, keepdims=True)
    shape = [1] * x.shape.rank
    shape[axis] = -1
    pos = tf.reshape(tf.range(n), shape)
    return tf.where(pos >= n - count, tf.constant(math.nan, x.dtype), s)


def _argsort(a: Any, axis: int | None = -1, kind: str | None = None, order: None = None, *,
             stable: bool | None = None) -> Any:
    # the sort below is always the stable one: any kind numpy knows is honoured
    check_sort(kind, order, stable)
    x = _t(a)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int8)
    elif _is_float(x):
        x = _sort_key(x)
    return tf.cast(tf.argsort(x, axis=axis, stable=True), tf.int64)


def _unique(ar: Any, return_index: bool = False, return_inverse: bool = False,
            return_counts: bool = False, axis: int | None = None, *,
            equal_nan: bool = True, sorted: bool = True) -> Any:
    x = _t(ar)
    if axis is not None:
        raise NotImplementedError("unique(axis=...) is not supported on tensorflow")
    flat = tf.reshape(x, [-1])
    order = _argsort(flat)
    s = tf.gather(flat, order)
    if _is_float(s):
        same = tf.logical_or(tf.equal(s[1:], s[:-1]), tf.logical_and(
            tf.math.is_nan(s[1:]), tf.math.is_nan(s[:-1])) if equal_nan else False)
    else:
        same = tf.equal(s[1:], s[:-1])
    first = tf.concat([tf.ones(tf.minimum(tf.size(s), 1), tf.bool), tf.logical_not(same)], 0)
    values = tf.boolean_mask(s, first)
    out = [values]
    if return_index:
        out.append(tf.boolean_mask(order, first))
    if return_inverse:
        group = tf.cumsum(tf.cast(first, tf.int64)) - 1
        inv = tf.scatter_nd(order[:, None], group, tf.shape(order, out_type=tf.int64))
        out.append(tf.reshape(inv, tf.shape(x)))
    if return_counts:
        starts = tf.where(first)[:, 0]
        ends = tf.concat([starts[1:], tf.shape(s, out_type=tf.int64)], 0)
        out.append(ends - starts)
    return out[0] if len(out) == 1 else tuple(out)


def _scatter_1d_scalar_tensorflow(
    base_grid: Any, indices: Any, values: Any, mode: str = "update"
) -> Any:
    # tensor_scatter_nd_* want (n, 1) indices, values of the base dtype, and
    # have no bool kernels
    _check_mode(mode)
    if base_grid.shape[0] == 0 or indices.shape[0] == 0:  # tf refuses empty targets
        return tf.identity(base_grid)
    n = tf.shape(indices)[0]
    values = tf.broadcast_to(tf.cast(values, base_grid.dtype), [n])
    if base_grid.dtype == tf.bool:
        out = _scatter_1d_scalar_tensorflow(
            tf.cast(base_grid, tf.int32), indices, tf.cast(values, tf.int32),
            "max" if mode == "add" else mode,
        )
        return tf.cast(out, tf.bool)
    fn = {
        "update": tf.tensor_scatter_nd_update,
        "add": tf.tensor_scatter_nd_add,
        "max": tf.tensor_scatter_nd_max,
        "min": tf.tensor_scatter_nd_min,
    }[mode]
    return fn(base_grid, tf.reshape(indices, [-1, 1]), values)


def _scatter_1d_scalar(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    # tensor_scatter_nd_* refuse an empty target even with no updates
    if base_grid.shape[0] == 0 or indices.shape[0] == 0:
        return tf.identity(base_grid)
    return _scatter_1d_scalar_tensorflow(base_grid, indices, values, mode)


def _searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    a = _t(a)
    if sorter is not None:
        a = tf.gather(a, _t(sorter))
    dt = _result_dtype(a, v)
    a, vt = _to(a, dt), _to(v, dt)
    if _is_float(a):
        a, vt = _sort_key(a), _sort_key(vt)
    flat = tf.reshape(vt, [1, -1])
    r = tf.searchsorted(a[None, :], flat, side=side, out_type=tf.int64)
    return tf.reshape(r, tf.shape(vt))


def _searchsorted_batched_tensorflow(
    sorted_sequence: Any, search_values: Any, side: str = "left", dtype: str = "int32"
) -> Any:
    # tf.searchsorted is batched over equal leading dims and wants one dtype
    values = tf.cast(search_values, sorted_sequence.dtype)
    if sorted_sequence.shape.rank == 1:
        out = tf.searchsorted(sorted_sequence, tf.reshape(values, [-1]), side=side)
        return tf.cast(tf.reshape(out, tf.shape(values)), dtype)
    lead = tf.broadcast_static_shape(sorted_sequence.shape[:-1], values.shape[:-1])
    seq = tf.broadcast_to(sorted_sequence, [*lead, sorted_sequence.shape[-1]])
    values = tf.broadcast_to(values, [*lead, values.shape[-1]])
    return tf.cast(tf.searchsorted(seq, values, side=side), dtype)


def _searchsorted_batched(sorted_sequence: Any, search_values: Any, side: str = "left",
                          dtype: str = "int32") -> Any:
    # the kernel above casts the values to the sequence's dtype (2.5 -> 2 in an int
    # sequence): promote both to numpy's common dtype first
    seq, vals = _promote(sorted_sequence, search_values)
    return _searchsorted_batched_tensorflow(seq, vals, side=side, dtype=dtype)


def _scatter(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    # float and int adds: one flat bincount; the other modes: one tensor_scatter_nd_*
    # with (batch, spatial...) multi-indices and channel vectors as slices
    if mode not in ("update", "add", "max", "min"):
        raise ValueError(
            f"scatter mode must be one of ('update', 'add', 'max', 'min'), got {mode!r}")
    base, idx, vals = _t(base_grid), _t(indices), _t(values)
    bshape, ishape, vshape = _static_shape(base), _static_shape(idx), _static_shape(vals)
    spatial, channels, n, batch = scatter_layout(bshape, ishape, vshape)
    base = _expand(base, (batch, *bshape[1:]))
    if n == 0 or math.prod(bshape[1:]) == 0:
        return tf.identity(base)
    if base.dtype == tf.bool:  # no bool kernels: a logical or is a max of integers
        out = _scatter(tf.cast(base, tf.int32), idx, tf.cast(vals, tf.int32),
                       "max" if mode == "add" else mode)
        return tf.cast(out, tf.bool)
    vals = _expand(vals if vals.dtype == base.dtype else tf.cast(vals, base.dtype),
                   (batch, n, channels))
    idx = idx if idx.dtype in (tf.int32, tf.int64) else tf.cast(idx, tf.int64)
    if mode == "add" and base.dtype in _BINCOUNT_WEIGHTS:
        cells = math.prod(spatial)
        # no spatial axes: every multi-index is empty, the one cell 0
        flat = tf.cast(idx[..., 0], tf.int64) if spatial else tf.zeros(ishape[:2], tf.int64)
        for k in range(1, len(spatial)):
            flat = flat * spatial[k] + tf.cast(idx[..., k], tf.int64)
        if batch > 1:  # (batch, n) from here on, whatever the batch of the indices
            flat = flat + tf.range(0, batch * cells, cells, dtype=tf.int64)[:, None]
        if channels > 1:
            flat = flat[..., None] * channels + tf.range(channels, dtype=tf.int64)
        flat = tf.reshape(flat, [-1])
        size = batch * cells * channels
        sums = _bincount_weighted(flat, tf.reshape(vals, [-1]), size)
        return base + tf.reshape(sums, base.shape)
    idx = _expand(idx, (batch, n, len(spatial)))
    if batch > 1 or not spatial:  # tf refuses index depth 0: index the batch too
        b = tf.broadcast_to(tf.range(batch, dtype=idx.dtype)[:, None, None], (batch, n, 1))
        idx = tf.concat([b, idx], axis=-1)
        target = base
    else:
        target = base[0]
    fn = {
        "update": tf.tensor_scatter_nd_update,
        "add": tf.tensor_scatter_nd_add,
        "max": tf.tensor_scatter_nd_max,
        "min": tf.tensor_scatter_nd_min,
    }[mode]
    out = fn(target, tf.reshape(idx, [batch * n, idx.shape[-1]]),
             tf.reshape(vals, [batch * n, channels]))
    return out if target is base else out[None]


def _expand(x: Any, shape: tuple) -> Any:
    """``broadcast_to`` that costs nothing when ``x`` has the shape already."""
    return x if tuple(x.shape.as_list()) == tuple(shape) else tf.broadcast_to(x, shape)


def _gather(values: Any, indices: Any, axis: int = 0) -> Any:
    # tf.gather refuses negative indices (numpy's take wraps them): try it as is on the
    # CPU, where it raises before computing anything, and wrap only when needed (tf.gather
    # on GPUs returns zeros instead of raising, and errors inside tf.function surface
    # only at run time: those take the wrapping path)
    x, idx = _t(values), _t(indices)
    if tf.executing_eagerly() and x.device.endswith("CPU:0") and idx.dtype.is_integer:
        try:
            return tf.gather(x, idx, axis=axis)
        except tf.errors.InvalidArgumentError:
            pass
    return _take(x, idx, axis)


def _top_k(x: Any, k: int, sorted: bool = True) -> tuple[Any, Any]:
    # tf.math.top_k: the last axis, largest first, the lower index first among ties
    if isinstance(x, tf.Tensor) and (x.dtype.is_floating or x.dtype.is_integer) \
            and x.shape.rank and 0 <= k <= x.shape[-1]:
        values, indices = tf.math.top_k(x, int(k), sorted=True)
        return values, indices
    from dispatch.translations._composed.indexing import top_k

    return top_k(x, k, sorted)


def _one_hot(x: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> Any:
    # tf.one_hot: zeros outside [0, num_classes); integer indices only, as keras
    if isinstance(x, tf.Tensor) and x.dtype.is_integer:
        dt = do("float_type") if dtype is None else dtype
        return tf.one_hot(x, int(num_classes), axis=axis, dtype=tf.as_dtype(np.dtype(dt)))
    from dispatch.translations._composed.indexing import one_hot

    return one_hot(x, num_classes, axis, dtype)


TABLE = {
    "top_k": _top_k,
    "one_hot": _one_hot,
    "take": _take,
    "take_along_axis": _take_along_axis,
    "compress": NATIVE,  # tf.experimental.numpy's beats the composed one
    "nonzero": _nonzero,
    "argwhere": _argwhere,
    "flatnonzero": _flatnonzero,
    "diag": _diag,
    "diagonal": _diagonal,
    "sort": _sort,
    "argsort": _argsort,
    "unique": _unique,
    "searchsorted": _searchsorted,
    "scatter_1d_scalar": _scatter_1d_scalar,
    # the backend method list
    "scatter": unbatched_forms(_scatter),
    "gather": _gather,
    "searchsorted_batched": _searchsorted_batched,
}
