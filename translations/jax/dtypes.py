"""jax: the memory questions of numpy's array routines. A jax array is an immutable
buffer that XLA lays out in C order, with no views: it is never in Fortran order,
and which buffers two arrays share is not observable. The dtype routines are the
composed ones of ``translations/_composed/dtypes.py`` (numpy's answers; jax's
dtypes are numpy's).
"""

from __future__ import annotations

from typing import Any

from dispatch.engine import is_array, unsupported

_NO_VIEWS = ("jax arrays are immutable XLA buffers with no views: whether two arrays share "
             "memory is not observable (and never matters: no array can be written through "
             "another)")


def _isfortran(a: Any) -> bool:
    if not is_array(a):
        raise TypeError(f"isfortran: an array is needed, got {type(a).__name__}")
    return False  # XLA's buffers are in C order


TABLE = {
    "isfortran": _isfortran,
    "shares_memory": unsupported(_NO_VIEWS),
    "may_share_memory": unsupported(_NO_VIEWS),
}
