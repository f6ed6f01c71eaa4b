"""tensorflow's creation functions: ``asarray``, ranges, grids, filled and triangular
arrays.

tf creation functions take a dtype but no device (placement is a ``tf.device``
context). ``copy`` is the backend method list's (``only_mutable``: tf tensors are
immutable, variables are not). ``geomspace`` and ``logspace`` are the composed ones,
bound to tensorflow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
from dispatch.translations._adapters import linspace_dtype
from dispatch.translations._composed._bound import fill_entries
from dispatch.translations._composed.creation import (
    immutable_require,
    one_layout_asfortranarray,
)
from dispatch.translations._keywords import array_shape, check_order, copy_needed, takes_device
from dispatch.translations.tensorflow._common import (
    _dt,
    _result_dtype,
    _shape_arg,
    _t,
    _to,
)
from dispatch.translations.tensorflow.devices import placed

from dispatch.engine import merge_tables


def _asarray(a: Any, dtype: Any = None, order: Any = None, *, device: Any = None,
             copy: bool | None = None) -> Any:
    # tensorflow has one memory layout: numpy's answer without the order is the same
    if order is not None:
        check_order(order)
    if device is not None:
        return placed("asarray", _asarray(a, dtype, copy=copy), device)
    if isinstance(a, tf.Tensor) and (dtype is None or _dt(dtype) == a.dtype):
        return tf.identity(a) if copy else a
    if copy is False:
        raise copy_needed("asarray", "tensorflow", "a dtype change" if isinstance(a, tf.Tensor)
                          else "tensorflow copies host data into a tensor of its own")
    if isinstance(a, np.ndarray) and dtype is None:
        return tf.convert_to_tensor(a)
    if type(a) in (float, complex) and a == 0:
        # through numpy: tensorflow's cache of scalar constants gives a -0.0 (or a
        # complex zero of other signs) the tensor of a 0.0 made before
        out = _dt(dtype)
        return tf.convert_to_tensor(np.asarray(a, None if out is None else out.as_numpy_dtype))
    return tnp.asarray(a, dtype=_dt(dtype))


def _array(a: Any, dtype: Any = None, *, copy: bool = True, order: str = "K",
           subok: bool = False, ndmin: int = 0, ndmax: int = 0) -> Any:
    # tf has no array subclasses (subok changes nothing)
    out = _asarray(a, dtype, copy=False if copy is False else None)
    if copy:
        out = tf.identity(out)
    return array_shape(out, a, order, ndmin, ndmax)


def _arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None, *,
            device: Any = None) -> Any:
    if device is not None:
        return placed("arange", _arange(start, stop, step, dtype), device)
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if step == 0:
        raise ZeroDivisionError("step must not be zero")
    if (step > 0 and stop < start) or (step < 0 and stop > start):
        stop = start  # numpy's empty range; tf.range raises
    dt = _result_dtype(start, stop, step)
    r = tf.range(_to(start, dt), _to(stop, dt), _to(step, dt))
    out = _dt(dtype)
    return r if out is None or out == dt else tf.cast(r, out)


def _copy(a: Any, order: str = "K", subok: bool = False) -> Any:
    check_order(order)  # one memory layout: every order gives numpy's values
    return tf.identity(_t(a))


def _copy_leaf(a: Any, order: str = "K", subok: bool = False, *,
               only_mutable: bool = False) -> Any:
    # the list's ``copy`` adds ``only_mutable``: tf tensors are immutable, so only
    # variables (and, without the flag, every array) are copied
    if only_mutable and isinstance(a, tf.Tensor):
        return a
    return _copy(a, order, subok)


def _numpy_dtype(dt: Any) -> np.dtype:
    return np.dtype(tf.as_dtype(dt).as_numpy_dtype)


def _linspace(
    start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
    dtype: Any = None, axis: int = 0,
) -> Any:
    dt = _dt(dtype)
    if dt is None:  # numpy's: float32 endpoints stay float32
        fdt = tf.as_dtype(linspace_dtype(start, stop, num, _numpy_dtype))
    else:
        fdt = tf.float64 if not (dt.is_floating or dt.is_complex) else dt
    r = tnp.linspace(start, stop, num, endpoint=endpoint, retstep=retstep, dtype=fdt, axis=axis)
    # tnp.linspace computes in float64 whatever dtype it is given
    if retstep and r[0].dtype != fdt:
        r = (tf.cast(r[0], fdt), r[1])
    elif not retstep and r.dtype != fdt:
        r = tf.cast(r, fdt)
    if dt is not None and dt != fdt:
        # numpy floors towards an integer dtype
        if retstep:
            return tf.cast(tf.floor(r[0]), dt), r[1]
        r = tf.cast(tf.floor(r), dt)
    return r


def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> Any:
    xs = [tf.reshape(_t(x), [-1]) for x in xi]
    n = len(xs)
    if not sparse:
        return tuple(tf.meshgrid(*xs, indexing=indexing))
    out = []
    for i, x in enumerate(xs):
        shape = [1] * n
        j = i
        if indexing == "xy" and n >= 2 and i < 2:
            j = 1 - i
        shape[j] = -1
        out.append(tf.reshape(x, shape))
    return tuple(out)


def _indices(dimensions: Sequence[int], dtype: Any = int, sparse: bool = False) -> Any:
    dt = _dt(dtype)
    ranges = [tf.range(n, dtype=dt) for n in dimensions]
    if sparse:
        return tuple(
            tf.reshape(r, [-1 if j == i else 1 for j in range(len(ranges))])
            for i, r in enumerate(ranges)
        )
    if not ranges:
        return tf.zeros((0,), dt)
    return tf.stack(tf.meshgrid(*ranges, indexing="ij"))


def _full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
          device: Any = None) -> Any:
    check_order(order)  # one memory layout: numpy's answer without the order
    dt = _dt(dtype) or _result_dtype(fill_value)
    out = tf.fill(_shape_arg(shape), _to(fill_value, dt))
    return out if device is None else placed("full", out, device)


def _full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K",
               subok: bool = True, shape: Any = None, *, device: Any = None) -> Any:
    check_order(order)  # one memory layout, no array subclasses
    a = _t(a)
    dt = _dt(dtype) or a.dtype
    out = tf.fill(tf.shape(a) if shape is None else _shape_arg(shape), _to(fill_value, dt))
    return out if device is None else placed("full_like", out, device)


def _tri_mask(shape: Any, k: int, lower: bool) -> Any:
    n, m = shape[-2], shape[-1]
    rows = tf.range(n)[:, None]
    cols = tf.range(m)[None, :]
    return cols - rows <= k if lower else cols - rows >= k


def _tril(m: Any, k: int = 0) -> Any:
    m = _t(m)
    mask = _tri_mask(tf.shape(m), k, lower=True)
    return tf.where(mask, m, tf.zeros_like(m))


def _triu(m: Any, k: int = 0) -> Any:
    m = _t(m)
    mask = _tri_mask(tf.shape(m), k, lower=False)
    return tf.where(mask, m, tf.zeros_like(m))


_IMMUTABLE = "tensorflow tensors are immutable buffers, laid out in C order"

TABLE = merge_tables(
    {
        # numpy's memory-order conversions: tensorflow has one order only, so both are
        # the composed asarray, at least 1-d (numpy's answer, an equal array)
        "asfortranarray": one_layout_asfortranarray("tensorflow"),
        "require": immutable_require("tensorflow", _IMMUTABLE),
        "asarray": _asarray,
        "array": _array,
        "copy": _copy_leaf,
        "arange": _arange,
        "linspace": takes_device("linspace", _linspace, placed),
        "meshgrid": _meshgrid,
        "indices": _indices,
        "full": _full,
        "full_like": _full_like,
        "tril": _tril,
        "triu": _triu,
    },
    # tnp's creation routines take no device=: the result placed on it
    {n: takes_device(n, getattr(tnp, n), placed)
     for n in ("empty", "empty_like", "eye", "ones", "ones_like", "zeros", "zeros_like")},
    # tnp's logspace ignores dtype and takes no array base; its geomspace fails on complex
    fill_entries("tensorflow", "geomspace", "logspace"),
    # numpy's index routines
    fill_entries("tensorflow", "tril_indices", "triu_indices", "diag_indices",
                 "mask_indices"),
    # numpy's window functions
    fill_entries("tensorflow", "hamming", "hanning", "blackman", "bartlett", "kaiser"),
    names=("creation", "placed", "composed fills", "index fills", "windows"),
)
