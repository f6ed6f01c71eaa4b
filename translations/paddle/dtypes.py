"""paddle: the memory questions of numpy's array routines, read from a tensor's
strides and data pointer (``isfortran``, ``shares_memory``, ``may_share_memory``), and
``asfortranarray``, which strides make possible.

paddle 3 keeps strided views (``transpose``, slices) of one allocation, as numpy
does; the dtype routines are the composed ones (numpy's answers as paddle dtypes).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import paddle
from dispatch.translations._composed.dtypes import memory_view, overlap
from dispatch.translations.paddle.devices import _asarray
from paddle import Tensor


def _tensor(x: Any, name: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}: a paddle tensor is needed, got {type(x).__name__}")
    return x


def _dense(shape: list, strides: list) -> bool:
    # numpy's contiguity: axes of length 1 may have any stride
    step = 1
    for n, s in zip(shape, strides, strict=True):
        if n != 1 and s != step:
            return False
        step *= n
    return True


def _isfortran(a: Any) -> bool:
    # numpy's flags.fnc: Fortran-contiguous and not C-contiguous
    a = _tensor(a, "isfortran")
    shape, strides = list(a.shape), list(a.strides)
    if a.size == 0 or _dense(shape[::-1], strides[::-1]):
        return False
    return _dense(shape, strides)


def _asfortranarray(a: Any, dtype: Any = None) -> Any:
    """numpy's ``asfortranarray``: at least 1-d, Fortran-ordered (paddle's tensors take
    strides: the transpose of a C-ordered copy of the transpose), ``a`` itself when it
    already is."""
    x = _asarray(a, dtype)
    if x.ndim == 0:
        return x.reshape([1])
    if x.ndim == 1:
        return x if x.is_contiguous() else x.contiguous()
    if _isfortran(x):
        return x
    perm = list(range(x.ndim))[::-1]
    return paddle.transpose(paddle.transpose(x, perm).contiguous(), perm)


def _memory(t: Any, name: str) -> tuple[str, np.ndarray | None]:
    """(device, numpy stand-in of its elements' memory) of a tensor."""
    t = _tensor(t, name)
    if t.size == 0:
        return str(t.place), None
    size = t.element_size()
    view = memory_view(t.data_ptr(), tuple(t.shape), tuple(s * size for s in t.strides), size)
    return str(t.place), view


def _shares_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    return overlap(np.shares_memory, _memory(a, "shares_memory"), _memory(b, "shares_memory"),
                   max_work)


def _may_share_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    return overlap(np.may_share_memory, _memory(a, "may_share_memory"),
                   _memory(b, "may_share_memory"), max_work)


TABLE = {
    "isfortran": _isfortran,
    "asfortranarray": _asfortranarray,
    "shares_memory": _shares_memory,
    "may_share_memory": _may_share_memory,
}
