"""jax's take, where, sort and search where they depart from numpy (``take``'s
out-of-bounds indices, a list condition in ``where``, numpy's ``kind=``, intp
indices), jax's own selection functions, and the kernels of the backend method
list: the functional scatter (``x.at[i].add``), ``gather`` with numpy's
wrapping of negative indices and a vmapped batched ``searchsorted`` (all work
under ``jit``; their layouts are documented on the composed fallbacks in
``translations/_composed/``)."""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._adapters import take_index, take_mode
from dispatch.translations._composed._scatter import _check_mode
from dispatch.translations._keywords import check_sort, no_out

from dispatch.engine import NATIVE, do


def _where(condition: Any, x: Any = None, y: Any = None, /) -> Any:
    # jnp.where refuses a list condition; numpy reads it as an array
    if isinstance(condition, (list, tuple)):
        condition = jnp.asarray(condition)
    if x is None and y is None:
        return jnp.where(condition)
    return jnp.where(condition, x, y)


def _take(a: Any, indices: Any, axis: int | None = None, out: None = None,
          mode: Any = None, **kwargs: Any) -> Any:
    # jnp.take's default mode fills out-of-bounds slots (NaN, or the minimum integer)
    # where numpy's 'raise' refuses them: the indices are checked when they can be read
    # (eagerly); traced for jit, nothing can raise and jax's filling stays (documented)
    no_out("take", "jax", out)
    if mode == "fill" or kwargs:  # jax's own mode and keywords
        return jnp.take(a, indices, axis=axis, mode=mode, **kwargs)
    mode = take_mode(mode)
    if mode != "raise":
        return jnp.take(a, indices, axis=axis, mode=mode)
    a = jnp.asarray(a)
    if isinstance(indices, jax.core.Tracer):
        return jnp.take(a, indices, axis=axis, mode="fill")
    n = a.size if axis is None else a.shape[axis]
    idx = take_index(np.asarray(indices), n, axis or 0, mode)
    return jnp.take(a, idx, axis=axis, mode="clip")  # checked: clipping changes nothing


def _sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None):
    # jax rejects numpy's kind= (checked here as numpy checks it, with order= and
    # stable=); its sort is always a valid answer for every kind (stable, and the
    # default quicksort leaves the order of ties unspecified)
    check_sort(kind, order, stable)
    return jnp.sort(a, axis, stable=stable is not False)


def _argsort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None):
    check_sort(kind, order, stable)
    return jnp.argsort(a, axis, stable=stable is not False)


def _searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    # jax returns int32 indices whatever the default integer; numpy returns intp
    return jnp.searchsorted(a, v, side, sorter).astype(int)


def _gather(values: Any, indices: Any, axis: int = 0) -> Any:
    # jnp.take clamps or fills out-of-range indices; the list's gather wants numpy's
    # wrapping of negative indices, which take's mode="wrap" gives for in-range ones too
    return jnp.take(values, indices, axis=axis, mode="wrap")


def _scatter_1d_scalar_jax(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    # jax arrays are immutable: .at[] is the functional scatter (works under jit); jax
    # takes numpy constants as they are (no conversion), so a numpy base is made jax's
    _check_mode(mode)
    base_grid = jnp.asarray(base_grid)
    values = values.astype(base_grid.dtype) if hasattr(values, "astype") else values
    if base_grid.dtype == bool and mode == "add":
        mode = "max"
    ref = base_grid.at[indices]
    return {"update": ref.set, "add": ref.add, "max": ref.max, "min": ref.min}[mode](values)


def _searchsorted_batched_jax(
    sorted_sequence: Any, search_values: Any, side: str = "left", dtype: str = "int32"
) -> Any:
    # vmap over the flattened leading axes (jit-compatible)
    if sorted_sequence.ndim == 1:
        return jnp.searchsorted(sorted_sequence, search_values, side=side).astype(dtype)
    lead = jnp.broadcast_shapes(sorted_sequence.shape[:-1], search_values.shape[:-1])
    seq = jnp.broadcast_to(sorted_sequence, (*lead, sorted_sequence.shape[-1]))
    vals = jnp.broadcast_to(search_values, (*lead, search_values.shape[-1]))
    rows = math.prod(lead)
    one = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))
    out = one(seq.reshape(rows, seq.shape[-1]), vals.reshape(rows, vals.shape[-1]))
    return out.reshape(*lead, vals.shape[-1]).astype(dtype)


def _real(x: Any) -> bool:
    return isinstance(x, jax.Array) and (
        jnp.issubdtype(x.dtype, jnp.floating) or jnp.issubdtype(x.dtype, jnp.integer))


def _top_k(x: Any, k: int, sorted: bool = True) -> tuple[Any, Any]:
    # jax.lax.top_k: the last axis, largest first, the lower index first among ties
    if _real(x) and x.ndim and 0 <= k <= x.shape[-1]:
        values, indices = jax.lax.top_k(x, int(k))
        return values, indices
    from dispatch.translations._composed.indexing import top_k

    return top_k(x, k, sorted)


def _one_hot(x: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> Any:
    # jax.nn.one_hot: zeros outside [0, num_classes); integer indices only, as keras
    if isinstance(x, jax.Array) and jnp.issubdtype(x.dtype, jnp.integer):
        dt = do("float_type") if dtype is None else dtype
        return jax.nn.one_hot(x, int(num_classes), dtype=dt, axis=axis)
    from dispatch.translations._composed.indexing import one_hot

    return one_hot(x, num_classes, axis, dtype)


TABLE = {
    "top_k": _top_k,
    "one_hot": _one_hot,
    "where": _where,
    "take": _take,
    "sort": _sort,
    "argsort": _argsort,
    "searchsorted": _searchsorted,
    # jax's own beat the composed fallbacks of translations/_composed/
    "choose": NATIVE,
    "compress": NATIVE,
    "isin": NATIVE,
    "lexsort": NATIVE,
    # the backend method list: functional scatter, gather, vmapped search
    "scatter_1d_scalar": _scatter_1d_scalar_jax,
    "gather": _gather,
    "searchsorted_batched": _searchsorted_batched_jax,
}
