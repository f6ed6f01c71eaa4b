"""Helpers several composed topics use: dtype names and kinds, casts, int64
indices, batch sizes and flat indices, each written with ``do``; values read on
the host, and the array whose library a call with several inputs runs on.

As ``_common`` in each library's package: not registered, no ``do`` name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dispatch.engine import do, is_array


def _dtype(x: Any) -> str:
    return do("get_dtype_name", x)


def _kind(name: str) -> str:
    """numpy's dtype kind letter from a dtype name ('bfloat16' included)."""
    if name == "bool":
        return "b"
    if name.startswith("complex"):
        return "c"
    if name.startswith("uint"):
        return "u"
    if name.startswith("int"):
        return "i"
    return "f"


def _cast(x: Any, name: str) -> Any:
    """``x`` as dtype ``name``, without a copy when it already is."""
    return x if _dtype(x) == name else do("astype", x, name)


def _index64(x: Any) -> Any:
    return _cast(x, "int64")


def _arange(n: int, like: Any) -> Any:
    """``arange(n)`` as int64 on the backend (and device) of the array ``like``."""
    return _index64(do("arange", n, like=like))


def _combined(*sizes: int) -> int:
    """The batch size of arrays whose batch axes are each 1 or one common size."""
    big = {s for s in sizes if s != 1}
    if len(big) > 1:
        raise ValueError(f"batch sizes {sizes} do not broadcast (each must be 1 or the same)")
    return big.pop() if big else 1


def _ravel(indices: Any, spatial: Sequence[int]) -> Any:
    """Flat C-order index from multi-indices stacked on the last axis (int64)."""
    indices = _index64(indices)
    if not spatial:  # no spatial axes: every multi-index is empty, flat index 0
        return do("sum", indices, axis=-1)
    flat = indices[..., 0]
    for k in range(1, len(spatial)):
        flat = flat * int(spatial[k]) + indices[..., k]
    return flat


def _host(x: Any) -> np.ndarray:
    return np.asarray(do("to_numpy", x))


def _on(x: Any, like: Any) -> Any:
    """``x`` as an array of the library of ``like`` (arrays pass unchanged)."""
    return x if is_array(x) else do("asarray", np.asarray(x), like=like)


def _first_array(*xs: Any) -> Any:
    for x in xs:
        if is_array(x) and not isinstance(x, (np.ndarray, np.generic)):
            return x
    for x in xs:
        if is_array(x):
            return x
    return None
