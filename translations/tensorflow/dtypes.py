"""tensorflow: the memory questions of numpy's array routines. A tensor is an
immutable buffer in C order with no views: it is never in Fortran order, and which
buffers two tensors share is not observable. The dtype routines are the composed
ones of ``translations/_composed/dtypes.py`` (numpy's answers, as tf dtypes).
"""

from __future__ import annotations

from typing import Any

from dispatch.engine import is_array, unsupported

_NO_VIEWS = ("tensorflow tensors are immutable buffers with no views: whether two tensors "
             "share memory is not observable (and never matters: no tensor can be written "
             "through another)")


def _isfortran(a: Any) -> bool:
    if not is_array(a):
        raise TypeError(f"isfortran: an array is needed, got {type(a).__name__}")
    return False  # tensorflow's buffers are in C order


TABLE = {
    "isfortran": _isfortran,
    "shares_memory": unsupported(_NO_VIEWS),
    "may_share_memory": unsupported(_NO_VIEWS),
}
