"""Helpers shared by several topics of the dask table (no entries here)."""

from __future__ import annotations

from typing import Any

from dask.array import Array
from dask.array.core import handle_out
from dispatch.translations._keywords import refused


def one_chunk(a: Array, axis: int) -> Array:
    """``a`` with ``axis`` in a single chunk (for operations along a whole axis)."""
    return a if a.numblocks[axis] == 1 else a.rechunk({axis: -1})


def written(name: str, out: Any, result: Array) -> Array:
    """``result`` given numpy's ``out=``, as dask's own reductions take it: a dask
    buffer becomes the result (dask's ``handle_out``: its graph is replaced, as a
    write into an immutable array can be); any other buffer is refused, where dask's
    ``handle_out`` would leave it as it was."""
    if out is None:
        return result
    if not isinstance(out, Array):
        raise refused(name, "dask", "out", "must be a dask array (dask writes a result "
                      "into a dask array only)")
    return handle_out(out, result)
