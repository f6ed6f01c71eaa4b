"""dask: creation routines (lazy arrays, chunked by dask's defaults).

``zeros``/``ones``/``empty`` are dask.array's own (functools wrappers, given
directly); ``eye`` and ``identity`` keep numpy's parameters (dask's second is
``chunks``); ``geomspace`` and ``logspace``, which dask lacks, are composed of
its lazy ``arange`` and arithmetic (``fill_entries``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import dask.array as da
from dask.array import Array
from dispatch.translations._adapters import linspace_dtype
from dispatch.translations._composed._bound import fill_entries
from dispatch.translations._composed.creation import one_layout_asfortranarray
from dispatch.translations._keywords import host_place, takes_device

from dispatch.engine import merge_tables


def _copy(x: Array) -> Array:
    # dask arrays support __setitem__, so a copy must be a distinct object
    return da.asarray(x).copy()


def _eye(N: int, M: int | None = None, k: int = 0, dtype: Any = float, **kwargs: Any) -> Array:
    # dask's second positional parameter is ``chunks``, numpy's is M; and dask's
    # blocks for M > N miss keys (dask 2026.8): slice a square identity instead
    dtype = dtype or float
    if M is None or M == N:
        return da.eye(N, k=k, dtype=dtype, **kwargs)
    return da.eye(max(N, M), k=k, dtype=dtype, **kwargs)[:N, :M]


def _identity(n: int, dtype: Any = None, **kwargs: Any) -> Array:
    return da.eye(n, dtype=dtype or float, **kwargs)


def _linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
              retstep: bool = False, dtype: Any = None, **kwargs: Any) -> Any:
    # dask's points are start + i * step, so the last one may miss stop by a rounding;
    # numpy's last point is stop itself
    if dtype is None:  # numpy's: float32 endpoints stay float32 (dask's are float64)
        dtype = linspace_dtype(start, stop, num)
    out = da.linspace(start, stop, num, endpoint=endpoint, retstep=retstep, dtype=dtype,
                      **kwargs)
    points = out[0] if retstep else out
    if endpoint and num > 1 and points.dtype.kind in "fc":
        last = da.arange(num, chunks=points.chunks) == num - 1
        points = da.where(last, da.asarray(stop, dtype=points.dtype), points)
    return (points, out[1]) if retstep else points


def _shaped(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def creation(shape: Any, *args: Any, **kwargs: Any) -> Array:
        return fn(shape, *args, **kwargs)

    return creation


def _diagflat(v: Any, k: int = 0) -> Array:
    return da.diag(da.ravel(v), k)


TABLE = merge_tables(
    {
        # numpy's memory orders: a dask array has none of its own (its chunks are numpy
        # arrays), so both conversions are the composed asarray, at least 1-d (numpy's
        # answer, an equal array)
        "asfortranarray": one_layout_asfortranarray("dask"),
        "copy": _copy,
        # zeros/ones/empty are functools wrappers in dask.array, with no shape
        # parameter of their own: a missing shape is numpy's TypeError here
        "zeros": _shaped(da.zeros),
        "ones": _shaped(da.ones),
        "empty": _shaped(da.empty),
        "identity": _identity,
        "diagflat": _diagflat,
    },
    # dask's take no device=: its arrays are host arrays, device='cpu' is theirs
    {n: takes_device(n, f, host_place("dask")) for n, f in (
        ("arange", da.arange), ("eye", _eye), ("linspace", _linspace),
        ("empty_like", da.empty_like), ("full_like", da.full_like),
        ("ones_like", da.ones_like), ("zeros_like", da.zeros_like))},
    # dask.array has none of these: composed of its lazy arange and arithmetic
    fill_entries("dask", "geomspace", "logspace"),
    # numpy's index routines
    fill_entries("dask", "tril_indices", "triu_indices", "diag_indices",
                 "mask_indices"),
    # numpy's window functions
    fill_entries("dask", "hamming", "hanning", "blackman", "bartlett", "kaiser"),
    names=("creation", "host devices", "fill entries", "index fills", "windows"),
)
