"""dask: conversions, dtype casts, dlpack, devices, and what a host library answers.

Conversions to and from numpy (``to_numpy`` is the one that computes), casts,
``block_until_ready`` (persist: computed and held in memory), and the answers of
a host-only library without compiler or autodiff (``host_entries``: one CPU
device, ``jit_compile`` a pass-through, the autodiff names unsupported;
``stop_gradient`` is the identity).
"""

from __future__ import annotations

import sys
from typing import Any

import dask.array as da
import numpy as np
from dask.array import Array
from dispatch.translations._adapters import host_from_dlpack
from dispatch.translations._composed._bound import host_entries
from dispatch.translations._composed.devices import device_ref
from dispatch.translations._keywords import (
    array_shape,
    check_order,
    copy_needed,
    host_device,
)

from dispatch.engine import merge_tables, tree_flatten, tree_unflatten, unsupported


def _asarray(x: Any, dtype: Any = None, order: Any = None, *, device: Any = None,
             copy: bool | None = None, chunks: Any = None) -> Array:
    # dask's second positional parameter is ``allow_unknown_chunksizes``, not dtype;
    # da.asarray passes its keywords to from_array, which a dask array never reaches.
    # A dask array has one layout per chunk (numpy's answer without the order is the
    # same array) and lives in host memory. ``chunks=`` is dask's own keyword (the
    # blocks of the result): data is cut into them, a dask array rechunked
    check_order(order)
    host_device("asarray", "dask", device)
    if copy is False:
        # dask copies host data into its graph (a later write into a numpy array does
        # not show), and a dtype change is a new array
        if not isinstance(x, Array):
            raise copy_needed("asarray", "dask", "dask copies host data into a graph of its own")
        if dtype is not None and np.dtype(dtype) != x.dtype:
            raise copy_needed("asarray", "dask", "a dtype change")
    if copy is not None and not isinstance(x, Array):
        # numpy's copy rule on the data; a copy is not shared with the caller's array
        x = np.array(x, dtype=dtype, copy=copy)
    if chunks is None:
        return da.asarray(x, dtype=dtype)
    if isinstance(x, Array):
        return da.asarray(x, dtype=dtype).rechunk(chunks)
    return da.asarray(x, dtype=dtype, chunks=chunks)


def _array(x: Any, dtype: Any = None, *, copy: bool = True, order: str = "K",
           subok: bool = False, ndmin: int = 0, ndmax: int = 0) -> Array:
    # dask has no array subclasses (subok changes nothing); its arrays are immutable,
    # so only data from outside dask is copied
    return array_shape(_asarray(x, dtype, copy=False if copy is False else bool(copy) or None),
                       x, order, ndmin, ndmax)


def _from_numpy(x: Any) -> Array:
    return da.asarray(x)


def _to_numpy(x: Any) -> np.ndarray:
    return np.asarray(x.compute() if isinstance(x, Array) else x)


def _from_dlpack(x: Any, /, *, device: Any = None, copy: Any = None) -> Array:
    # dask.array has no from_dlpack: numpy takes the buffer, dask wraps it (no compute)
    return da.from_array(host_from_dlpack(x, device, copy))


def _astype(x: Array, dtype: Any, copy: bool = True, *, device: Any = None) -> Array:
    out = da.asarray(x).astype(np.dtype(dtype))
    return out if device is None else _to_device(out, device)


def _to_device(x: Array, device: Any = None) -> Array:
    device = device_ref(device)
    if device not in (None, "cpu"):
        raise ValueError(f"dask arrays are host arrays; cannot move to {device!r}")
    return x


def _block_until_ready(values: Any) -> Any:
    # ready means computed and held in memory: persist runs the graphs once (on the
    # workers under a distributed client) and returns arrays backed by the results,
    # which is what an eager loop over dask arrays needs at each step
    import dask

    leaves, ref = tree_flatten(values, get_ref=True)
    where = [i for i, v in enumerate(leaves) if isinstance(v, Array)]
    # the results get keys of their own: a distributed scheduler holding a persisted
    # key that another (still lazy) graph also defines mixes up the two submissions
    fresh = (da.map_blocks(_same, leaves[i], name="ready-" + leaves[i].name) for i in where)
    done = dask.persist(*fresh)
    for i, v in zip(where, done, strict=True):
        leaves[i] = v
    client = _client()
    if client is not None:
        from distributed import wait

        wait(list(done))
    return tree_unflatten(leaves, ref)


def _same(block: Any) -> Any:
    return block


def _client() -> Any:
    """The default dask.distributed client, or None (without importing distributed)."""
    if "distributed" not in sys.modules:
        return None
    from distributed import default_client

    try:
        return default_client()
    except ValueError:
        return None


TABLE = merge_tables(
    {
        "asarray": _asarray,
        "array": _array,
        "from_numpy": _from_numpy,
        "to_numpy": _to_numpy,
        "astype": _astype,
        "cast": _astype,
        "to_backend_dtype": np.dtype,
        "to_device": _to_device,
        "from_dlpack": _from_dlpack,
        "to_dlpack": unsupported(
            "a dask array is a task graph, not a buffer: export a computed array "
            "(do('to_numpy', x)) instead"
        ),
        "block_until_ready": _block_until_ready,
        "stop_gradient": lambda x: x,
        "view": lambda x, dtype: x.view(np.dtype(dtype)),  # numpy's view of every chunk
    },
    # dask computes on the host: the device, jit and autodiff answers of a host
    # library (translations/_composed/_bound.py)
    host_entries("dask", "dask"),
    names=("devices", "host entries"),
)
