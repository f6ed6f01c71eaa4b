"""tensorflow's reductions: sums, products, extrema, ``any``/``all``, cumulative
sums and their NaN-ignoring versions, ``trace``.

numpy's accumulator dtypes (int32 sums are int64), errors on empty extrema and
NaN-first ``argmax`` are kept; a ``where=`` mask, which tf reductions do not take,
goes to the composed masked reduction.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import tensorflow as tf
from dispatch.translations._composed.reductions import masked
from dispatch.translations._keywords import bool_reduction, no_out
from dispatch.translations.tensorflow._common import (
    _TENSOR,
    _acc,
    _axes,
    _is_float,
    _isnan,
    _t,
    _truth,
)
from dispatch.translations.tensorflow.elementwise import _ELEMENTWISE
from dispatch.translations.tensorflow.indexing import _diagonal


def _sum(a: Any, axis: Any = None, dtype: Any = None, out: None = None, keepdims: bool = False,
         initial: Any = None, where: Any = None) -> Any:
    if where is not None:  # tf reductions take no mask
        return masked("sum", a, axis, dtype, out, keepdims, initial=initial, where=where)
    no_out("sum", "tensorflow", out)
    x = _acc("sum", a if isinstance(a, _TENSOR) else _t(a), dtype)
    if x.dtype == tf.bool:  # dtype=bool (booleans alone accumulate in int64)
        return bool_reduction("sum", a, axis, keepdims, initial)
    r = tf.reduce_sum(x, axis=axis, keepdims=keepdims)
    return r if initial is None else r + initial


def _prod(a: Any, axis: Any = None, dtype: Any = None, out: None = None, keepdims: bool = False,
          initial: Any = None, where: Any = None) -> Any:
    if where is not None:
        return masked("prod", a, axis, dtype, out, keepdims, initial=initial, where=where)
    no_out("prod", "tensorflow", out)
    x = _acc("prod", _t(a), dtype)
    if x.dtype == tf.bool:  # dtype=bool: tf multiplies no booleans
        return bool_reduction("prod", a, axis, keepdims, initial)
    r = tf.reduce_prod(x, axis=axis, keepdims=keepdims)
    return r if initial is None else r * initial


def _check_nonempty(x: Any, axis: Any, name: str) -> None:
    shape = x.shape
    if shape.rank is None:
        return
    dims = [shape[i] for i in _axes(axis, shape.rank)] if shape.rank else []
    if any(d == 0 for d in dims) or (axis is None and shape.num_elements() == 0):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")


def _max(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
         initial: Any = None, where: Any = None) -> Any:
    if where is not None:
        return masked("max", a, axis, out, keepdims, initial=initial, where=where)
    no_out("max", "tensorflow", out)
    x = _t(a)
    if initial is None:
        _check_nonempty(x, axis, "maximum")
    if x.dtype == tf.bool:
        r = tf.reduce_any(x, axis=axis, keepdims=keepdims)
    else:
        r = tf.reduce_max(x, axis=axis, keepdims=keepdims)
    return r if initial is None else _ELEMENTWISE["maximum"](r, initial)


def _min(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
         initial: Any = None, where: Any = None) -> Any:
    if where is not None:
        return masked("min", a, axis, out, keepdims, initial=initial, where=where)
    no_out("min", "tensorflow", out)
    x = _t(a)
    if initial is None:
        _check_nonempty(x, axis, "minimum")
    if x.dtype == tf.bool:
        r = tf.reduce_all(x, axis=axis, keepdims=keepdims)
    else:
        r = tf.reduce_min(x, axis=axis, keepdims=keepdims)
    return r if initial is None else _ELEMENTWISE["minimum"](r, initial)


def _arg_reduce(tf_fn: Callable, name: str) -> Callable:
    def arg(a: Any, axis: int | None = None, out: None = None, *, keepdims: bool = False) -> Any:
        no_out(name, "tensorflow", out)
        x = _t(a)
        nd = x.shape.rank
        if axis is None:
            _check_nonempty(x, None, name)
            flat = tf.reshape(x, [-1])
            r = _arg_1(tf_fn, flat, 0)
            return tf.reshape(r, [1] * nd) if keepdims else r
        ax = _axes(axis, nd)[0]
        _check_nonempty(x, ax, name)
        r = _arg_1(tf_fn, x, ax)
        return tf.expand_dims(r, ax) if keepdims else r

    arg.__name__ = arg.__qualname__ = f"_{name}"
    return arg


def _arg_1(tf_fn: Callable, x: Any, axis: int) -> Any:
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int8)
    r = tf_fn(x, axis=axis, output_type=tf.int64)
    if _is_float(x):
        # numpy returns the first NaN; tf skips NaNs
        nan = tf.math.is_nan(x)
        r = tf.where(tf.reduce_any(nan, axis=axis), tf.argmax(nan, axis=axis), r)
    return r


def _any(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
         *, where: Any = None) -> Any:
    if where is not None:
        return masked("any", a, axis, out, keepdims, where=where)
    no_out("any", "tensorflow", out)
    return tf.reduce_any(_truth(_t(a)), axis=axis, keepdims=keepdims)


def _all(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
         *, where: Any = None) -> Any:
    if where is not None:
        return masked("all", a, axis, out, keepdims, where=where)
    no_out("all", "tensorflow", out)
    return tf.reduce_all(_truth(_t(a)), axis=axis, keepdims=keepdims)


def _cumulative(tf_fn: Callable, name: str) -> Callable:
    def cum(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
        no_out(name, "tensorflow", out)
        x = _acc(name, _t(a), dtype)
        if x.dtype == tf.bool:  # dtype=bool (booleans alone accumulate in int64)
            return bool_reduction(name, a, axis)
        if axis is None:
            x, axis = tf.reshape(x, [-1]), 0
        return tf_fn(x, axis=axis)

    cum.__name__ = cum.__qualname__ = f"_{name}"
    return cum


def _count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Any:
    x = _t(a)
    return tf.math.count_nonzero(_truth(x), axis=axis, keepdims=keepdims, dtype=tf.int64)


def _without_nan(a: Any, fill: float) -> Any:
    x = _t(a)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return x
    return tf.where(_isnan(x), tf.constant(fill, x.dtype), x)


def _nansum(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
            keepdims: bool = False, **kw: Any) -> Any:
    no_out("nansum", "tensorflow", out)
    return _sum(_without_nan(a, 0), axis, dtype, keepdims=keepdims, **kw)


def _nanprod(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
             keepdims: bool = False, **kw: Any) -> Any:
    no_out("nanprod", "tensorflow", out)
    return _prod(_without_nan(a, 1), axis, dtype, keepdims=keepdims, **kw)


def _nancumsum(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
    no_out("nancumsum", "tensorflow", out)
    return _cumulative(tf.math.cumsum, "cumsum")(_without_nan(a, 0), axis, dtype)


def _nan_extreme(fn: Callable, fill: float) -> Callable:
    name = "nanmax" if fill < 0 else "nanmin"

    def extreme(a: Any, axis: Any = None, out: None = None, keepdims: bool = False,
                **kw: Any) -> Any:
        if kw.get("where") is not None:
            return masked(name, a, axis, out, keepdims, **kw)
        no_out(name, "tensorflow", out)
        x = _t(a)
        if not _is_float(x):
            return fn(x, axis, keepdims=keepdims, **kw)
        nan = tf.math.is_nan(x)
        r = fn(tf.where(nan, tf.constant(fill, x.dtype), x), axis, keepdims=keepdims, **kw)
        # an all-NaN slice gives NaN (numpy also warns)
        allnan = tf.reduce_all(nan, axis=axis, keepdims=keepdims)
        return tf.where(allnan, tf.constant(math.nan, r.dtype), r)

    return extreme


def _trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
           out: None = None) -> Any:
    no_out("trace", "tensorflow", out)
    d = _diagonal(a, offset, axis1, axis2)
    return _sum(d, axis=-1, dtype=dtype)


TABLE = {
    "sum": _sum,
    "prod": _prod,
    "max": _max,
    "amax": _max,
    "min": _min,
    "amin": _min,
    "argmax": _arg_reduce(tf.argmax, "argmax"),
    "argmin": _arg_reduce(tf.argmin, "argmin"),
    "any": _any,
    "all": _all,
    "cumsum": _cumulative(tf.math.cumsum, "cumsum"),
    "cumprod": _cumulative(tf.math.cumprod, "cumprod"),
    "count_nonzero": _count_nonzero,
    "trace": _trace,
    "nansum": _nansum,
    "nanprod": _nanprod,
    "nancumsum": _nancumsum,
    "nanmax": _nan_extreme(_max, -math.inf),
    "nanmin": _nan_extreme(_min, math.inf),
    # nanargmax/nanargmin: the composed ones, which raise on an all-NaN
    # slice as numpy does
}
