"""Helpers shared by tensorflow's topic modules: dtypes as numpy sees them, tensors
of a given dtype, axes, and the shape and batch checks of the backend method list.

No table here: the entries live in the topic modules.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

_TENSOR = (tf.Tensor, tf.Variable)
_BOOL = np.dtype(bool)


def _dt(dtype: Any) -> tf.DType | None:
    """A numpy-style dtype (name, numpy dtype, Python type, tf dtype) as a tf dtype."""
    if dtype is None or isinstance(dtype, tf.DType):
        return dtype
    return tf.as_dtype(np.dtype(dtype))


def _np_dt(x: Any) -> Any:
    """The dtype numpy's type resolution sees for ``x`` (Python scalars stay weak types)."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        if isinstance(x, bool):
            return _BOOL
        if isinstance(x, (int, float, complex)):
            return type(x)
        return np.asarray(x).dtype
    return np.dtype(dt.as_numpy_dtype) if isinstance(dt, tf.DType) else np.dtype(dt)


def _t(x: Any, dtype: Any = None) -> Any:
    """``x`` as a tf tensor (tensors pass through untouched)."""
    if isinstance(x, _TENSOR) and dtype is None:
        return x
    return tnp.asarray(x, dtype=_dt(dtype))


def _to(x: Any, dt: tf.DType) -> Any:
    """``x`` as a tensor of dtype ``dt``; Python scalars are converted exactly.

    A float zero goes through numpy: tensorflow's cache of scalar constants takes -0.0
    for a 0.0 made before (they are equal and hash alike) and gives back +0.0."""
    if isinstance(x, _TENSOR):
        if dt == tf.bool and x.dtype.is_complex:  # tf's cast reads the real part only
            return _truth(x)
        return x if x.dtype == dt else tf.cast(x, dt)
    if type(x) in (int, float) and dt != tf.bool and not (x == 0 and type(x) is float):
        try:
            return tf.constant(x, dt)
        except (TypeError, ValueError, OverflowError):
            pass
    return tf.constant(np.asarray(x, dt.as_numpy_dtype))


@functools.cache
def _np_out(fname: str, dt: tf.DType) -> tf.DType:
    """The dtype numpy's ``fname`` returns for an input of dtype ``dt``."""
    fn: Any = np
    for part in fname.split("."):
        fn = getattr(fn, part)
    with np.errstate(all="ignore"):
        return tf.as_dtype(np.asarray(fn(np.ones((2, 2), dt.as_numpy_dtype))).dtype)


def _result_dtype(*args: Any) -> tf.DType:
    """numpy's ``result_type`` of the arguments, Python scalars weak (NEP 50)."""
    # Python scalars go in as values: numpy treats the types int/float as strong
    return tf.as_dtype(np.result_type(*(
        a if isinstance(a, (bool, int, float, complex)) else _np_dt(a) for a in args
    )))


def _inexact(x: Any) -> Any:
    """``x`` as a float or complex tensor: integers and booleans become float64 (numpy linalg)."""
    x = _t(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf.cast(x, tf.float64)


def _real_dtype(dt: tf.DType) -> tf.DType:
    return dt.real_dtype if dt.is_complex else dt


def _is_int(x: Any) -> bool:
    return x.dtype.is_integer or x.dtype == tf.bool


def _is_float(x: Any) -> bool:
    return x.dtype.is_floating


def _truth(x: Any) -> Any:
    return x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros((), x.dtype))


def _isnan(x: Any) -> Any:
    if x.dtype.is_complex:
        return tf.logical_or(tf.math.is_nan(tf.math.real(x)), tf.math.is_nan(tf.math.imag(x)))
    return tf.math.is_nan(x) if _is_float(x) else tf.zeros_like(x, tf.bool)


def _as(x: Any, dtype: tf.DType) -> Any:
    """A number, array or tensor as a tensor of ``dtype``. tf.cast of a Python float
    makes a float32 constant first: 1e-9 would lose its digits for a float64 result."""
    if isinstance(x, _TENSOR):
        return tf.cast(x, dtype)
    return tf.constant(np.asarray(x, dtype=dtype.as_numpy_dtype))


def _shape_arg(shape: Any) -> Any:
    return [shape] if isinstance(shape, int) else shape


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (int, np.integer)):
        axis = (axis,)
    out = []
    for a in axis:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise np.exceptions.AxisError(a, ndim)
        out.append(a % ndim if ndim else 0)
    return tuple(out)


_ACC: dict = {}


def _acc(fname: str, x: Any, dtype: Any) -> Any:
    """``x`` cast to the dtype numpy's ``fname`` accumulates in (int32 sums are int64)."""
    if dtype is not None:
        return tf.cast(x, _dt(dtype))
    dt = x.dtype
    try:
        out = _ACC[fname, dt]
    except KeyError:
        out = _np_out(fname, dt)
        out = _ACC[fname, dt] = None if out == dt else out
    return x if out is None else tf.cast(x, out)


def _static_shape(x: Any) -> tuple[int, ...]:
    """``x``'s shape as ints; jit_compile retraces per shape, so sizes are static."""
    dims = x.shape.as_list()
    if any(d is None for d in dims):
        raise ValueError(f"this operation needs a static shape, got {x.shape}")
    return tuple(dims)


def _promote(*xs: Any) -> list:
    """Tensors of numpy's common dtype of ``xs`` (Python scalars weak)."""
    dt = _result_dtype(*xs)
    return [_to(x, dt) for x in xs]


_SPARSE = (tf.SparseTensor, tf.compat.v1.SparseTensorValue)



