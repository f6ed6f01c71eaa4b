"""jax's reductions where they depart from numpy: the truth of complex values in
``all``/``any``, the accumulator of small integers in cumulative sums and
products, ``nanargmax``/``nanargmin`` of an all-NaN slice; and jax's own
NaN-skipping reductions, which beat the composed fallbacks."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._composed._moment_dtypes import in_dtype
from dispatch.translations._composed.reductions import numpy_moment
from dispatch.translations._composed.reductions import trapezoid as _composed_trapezoid
from dispatch.translations._keywords import no_out

from dispatch.engine import NATIVE, merge_tables


def _trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    # jax's reads y[0] of an empty axis (IndexError), where numpy's sum of nothing is 0;
    # those (and bad axes) take the composed recipe
    shape = jnp.shape(y)
    if -len(shape) <= axis < len(shape) and shape[axis]:
        return jnp.trapezoid(y, x, dx, axis)
    return _composed_trapezoid(y, x, dx, axis)


def _truth(fn: Any) -> Any:
    """jax's all/any read a complex value by its real part (jnp.all(0.25j) is False);
    numpy's truth of a complex is ``z != 0``."""

    def reduce(a: Any, axis: Any = None, out: None = None, keepdims: bool = False, *,
               where: Any = None) -> Any:
        no_out(fn.__name__, "jax", out)
        a = jnp.asarray(a)
        if jnp.iscomplexobj(a):
            a = a != 0
        if where is None:
            return fn(a, axis=axis, keepdims=keepdims)
        return fn(a, axis=axis, keepdims=keepdims, where=where)

    reduce.__name__ = fn.__name__
    return reduce


def _accumulating(fn: Callable) -> Callable:
    """``fn`` (a cumulative sum or product) accumulating small integers and bools in
    the default integer, as numpy does (jax keeps the input's integer type)."""

    @functools.wraps(fn)
    def run(a: Any, axis: Any = None, dtype: Any = None, out: None = None) -> Any:
        no_out(fn.__name__, "jax", out)
        a = jnp.asarray(a)
        if dtype is None:
            dtype = _accumulator(a.dtype)
        return fn(a, axis=axis, dtype=dtype)

    return run


def _accumulator(dt: Any) -> Any:
    dt = np.dtype(dt)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < np.dtype(np.int_).itemsize):
        return jax.dtypes.canonicalize_dtype(np.int_)
    if dt.kind == "u" and dt.itemsize < np.dtype(np.uint).itemsize:
        return jax.dtypes.canonicalize_dtype(np.uint)
    return None


def _nan_arg(fn: Callable) -> Callable:
    def arg(a: Any, axis: Any = None, out: None = None, *, keepdims: bool = False) -> Any:
        no_out(fn.__name__, "jax", out)
        r = fn(a, axis=axis, keepdims=keepdims)
        # jnp marks an all-NaN slice with -1 (a jitted function needs a value); numpy
        # raises, which is done here where the values can be read (not while tracing)
        if not isinstance(r, jax.core.Tracer) and bool(jnp.any(r < 0)):
            raise ValueError("All-NaN slice encountered")
        return r

    arg.__name__ = arg.__qualname__ = f"_{fn.__name__}"
    return arg


TABLE = merge_tables(
    {
        "all": _truth(jnp.all),
        "any": _truth(jnp.any),
        "nanargmax": _nan_arg(jnp.nanargmax),
        "nanargmin": _nan_arg(jnp.nanargmin),
        # jax's own beat the composed fallbacks of translations/_composed/
        "nanmax": NATIVE,
        "nanmin": NATIVE,
        "nanprod": NATIVE,
        # with numpy 2's correction= (and mean=), which jax's nan* moments do not take
        # and numpy's integer, boolean and complex dtype= of the moments (jax's var in
        # int32 is a float variance, cast): translations/_composed
        "nanvar": in_dtype("nanvar", numpy_moment("nanvar", jnp.nanvar)),
        "nanstd": in_dtype("nanstd", numpy_moment("nanstd", jnp.nanstd)),
        "mean": in_dtype("mean", jnp.mean),
        "var": in_dtype("var", jnp.var),
        "std": in_dtype("std", jnp.std),
        "nanmean": in_dtype("nanmean", jnp.nanmean),
        "average": NATIVE,
        "trapezoid": _trapezoid,
    },
    # numpy accumulates small integers in the default integer
    {
        name: _accumulating(getattr(jnp, name))
        for name in ("cumsum", "cumprod", "nancumsum", "nancumprod")
    },
    names=("reductions", "accumulations"),
)
