"""Helpers shared by several topics of the dask table (no entries here)."""

from __future__ import annotations

from dask.array import Array


def one_chunk(a: Array, axis: int) -> Array:
    """``a`` with ``axis`` in a single chunk (for operations along a whole axis)."""
    return a if a.numblocks[axis] == 1 else a.rechunk({axis: -1})
