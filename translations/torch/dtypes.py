"""torch: the memory questions of numpy's array routines, read from a tensor's
strides and data pointer (``isfortran``, ``shares_memory``, ``may_share_memory``).

The dtype routines (``result_type``, ``can_cast``, ``isdtype``...) are the composed
ones of ``translations/_composed/dtypes.py``: numpy's answers, given as torch dtypes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from dispatch.translations._composed.dtypes import memory_view, overlap
from torch import Tensor


def _strided(x: Any, name: str) -> Tensor:
    if not isinstance(x, Tensor) or x.layout != torch.strided:
        got = type(x).__name__ if not isinstance(x, Tensor) else f"a {x.layout} tensor"
        raise TypeError(f"{name}: a strided torch tensor is needed, got {got}")
    return x


def _isfortran(a: Any) -> bool:
    # numpy's flags.fnc: Fortran-contiguous (the reversed axes are C-contiguous) and
    # not C-contiguous (torch, like numpy, ignores the strides of axes of length 1)
    a = _strided(a, "isfortran")
    return not a.is_contiguous() and a.permute(*range(a.ndim - 1, -1, -1)).is_contiguous()


def _memory(t: Any, name: str) -> tuple[str, np.ndarray | None]:
    """(device, numpy stand-in of its elements' memory) of a tensor."""
    t = _strided(t, name)
    if t.numel() == 0:
        return str(t.device), None
    size = t.element_size()
    view = memory_view(t.data_ptr(), tuple(t.shape), tuple(s * size for s in t.stride()), size)
    return str(t.device), view


def _shares_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    # numpy's exact test on the tensors' addresses and byte strides (tensors of two
    # storages can share memory: from_numpy of overlapping numpy views)
    return overlap(np.shares_memory, _memory(a, "shares_memory"), _memory(b, "shares_memory"),
                   max_work)


def _may_share_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    return overlap(np.may_share_memory, _memory(a, "may_share_memory"),
                   _memory(b, "may_share_memory"), max_work)


TABLE = {
    "isfortran": _isfortran,
    "shares_memory": _shares_memory,
    "may_share_memory": _may_share_memory,
}
