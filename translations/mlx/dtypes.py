"""mlx: the memory questions of numpy's array routines. An mlx array is an
immutable buffer in C order that mlx may share between arrays (views of a
reshape, a transpose) without exposing it: it is never in Fortran order, and which
buffers two arrays share is not observable from Python.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

from dispatch.engine import unsupported

_NO_VIEWS = ("mlx arrays are immutable and expose no buffer addresses: whether two arrays "
             "share memory is not observable (and never matters: no array can be written "
             "through another)")


def _isfortran(a: Any) -> bool:
    if not isinstance(a, mx.array):
        raise TypeError(f"isfortran: an array is needed, got {type(a).__name__}")
    return False  # mlx lays its arrays out in C order


TABLE = {
    "isfortran": _isfortran,
    "shares_memory": unsupported(_NO_VIEWS),
    "may_share_memory": unsupported(_NO_VIEWS),
}
