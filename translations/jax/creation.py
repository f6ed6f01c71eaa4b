"""jax's creation routines: the ones whose ``device=`` keyword jax lacks, and
``logspace`` with an array base (the others resolve to ``jax.numpy``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._adapters import native_byte_order
from dispatch.translations._composed.creation import (
    _window_length,
    immutable_require,
    one_layout_asfortranarray,
)
from dispatch.translations._keywords import copy_needed
from dispatch.translations.jax.devices import _device, _device_named

from dispatch.engine import merge_tables

_IMMUTABLE = "jax arrays are immutable XLA buffers, laid out in C order"


def _with_device(fn: Callable) -> Callable:
    """``fn`` plus the ``device=`` keyword jax did not give it."""

    name = fn.__name__.lstrip("_")

    @functools.wraps(fn)
    def placed(*args: Any, device: Any = None, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        return out if device is None else jax.device_put(out, _device(name, device))

    return placed


def _logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
              base: Any = 10.0, dtype: Any = None, axis: int = 0) -> Any:
    # jnp.logspace does not broadcast an array base with start and stop, as numpy does
    if not jnp.ndim(base):
        return jnp.logspace(start, stop, num, endpoint, base, dtype, axis)
    start, stop, base = jnp.broadcast_arrays(start, stop, base)
    y = jnp.linspace(start, stop, num, endpoint, axis=axis)
    out = jnp.power(jnp.expand_dims(base, axis), y)
    return out if dtype is None else out.astype(dtype)



@_with_device
def _tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Any:
    # jnp.tri makes float32 even with x64 enabled; numpy's default is the default float
    if dtype is None:
        dtype = jax.dtypes.canonicalize_dtype(jnp.float64)
    return jnp.tri(N, M, k, dtype)


def _window(fn: Callable) -> Callable:
    # jnp's window functions fail below 0 points, where numpy's give an empty window
    @functools.wraps(fn)
    def window(M: Any, *beta: Any) -> Any:
        return fn(max(_window_length(M), 0), *beta)

    return window


def _keeps_copy(name: str, fn: Callable, copy_at: int) -> Callable:
    """jax's conversion ``fn`` with numpy's ``copy=False``: the array itself, or
    numpy's ValueError where a copy is needed (jax copies host data into a buffer of
    its own, and a dtype or device change is a new array); ``copy_at``: the position
    of ``copy`` among ``fn``'s parameters (``array``'s third, ``asarray``'s keyword)."""

    @functools.wraps(fn)
    def convert(*args: Any, **kwargs: Any) -> Any:
        copy = args[copy_at] if len(args) > copy_at else kwargs.get("copy")
        if copy is False:
            a = args[0] if args else kwargs.get("a", kwargs.get("object"))
            dtype = args[1] if len(args) > 1 else kwargs.get("dtype")
            if not isinstance(a, jax.Array):
                raise copy_needed(name, "jax", "jax copies host data into a buffer of its own")
            if dtype is not None and jax.dtypes.canonicalize_dtype(dtype) != a.dtype:
                raise copy_needed(name, "jax", "a dtype change")
            device = kwargs.get("device")
            if device is not None and not isinstance(a, jax.core.Tracer) and (
                    a.devices() != {device}):
                raise copy_needed(name, "jax", "a device change")
        if args and type(args[0]) is np.ndarray:
            args = (native_byte_order(args[0]), *args[1:])
        return fn(*args, **kwargs)

    return convert


_CONVERSIONS = {
    "asarray": _keeps_copy("asarray", jnp.asarray, 1 << 30),
    "array": _keeps_copy("array", jnp.array, 2),
}
_DEVICE_NAMED = (
    "arange", "array", "asarray", "empty", "empty_like", "eye", "full", "full_like",
    "linspace", "ones", "ones_like", "zeros", "zeros_like")

TABLE = merge_tables(
    # jax's creation functions take jax's devices only: dispatch's device names too
    {name: _device_named(name, _CONVERSIONS.get(name) or getattr(jnp, name))
     for name in _DEVICE_NAMED},
    {
        # creation functions without jax's device keyword
        "identity": _with_device(jnp.identity),
        "logspace": _with_device(_logspace),
        "geomspace": _with_device(jnp.geomspace),
        "tri": _tri,
        # numpy's memory-order conversions: jax has one order only, so both are the
        # composed asarray, at least 1-d (numpy's answer, an equal array)
        "asfortranarray": one_layout_asfortranarray("jax"),
        "require": immutable_require("jax", _IMMUTABLE),
        # numpy's window functions
        "hamming": _window(jnp.hamming),
        "hanning": _window(jnp.hanning),
        "blackman": _window(jnp.blackman),
        "bartlett": _window(jnp.bartlett),
        "kaiser": _window(jnp.kaiser),
    },
)
