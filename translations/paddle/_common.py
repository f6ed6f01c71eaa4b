"""Helpers shared by the paddle topic modules: dtypes, scalars and promotion.

Private to the package: no ``TABLE`` here. Adapters read numpy-style dtype names
through :func:`_dtype` and turn Python scalars and numpy constants into tensors with
:func:`_tensor`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import paddle
from paddle import Tensor

_NAMES = (
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
    "float64", "complex64", "complex128",
)
_DTYPES: dict[Any, Any] = {name: getattr(paddle, name) for name in _NAMES}
_DTYPES.update({np.dtype(n): t for n, t in _DTYPES.items() if n != "bfloat16"})
_DTYPES.update({np.dtype(n).type: t for n, t in list(_DTYPES.items())
                if isinstance(n, str) and n != "bfloat16"})
_DTYPES.update({bool: paddle.bool, int: paddle.int64, float: paddle.float64,
                complex: paddle.complex128})
# paddle's dtype -> numpy's name
NP_NAMES: dict[Any, str] = {getattr(paddle, n): n for n in _NAMES}


def _dtype(dtype: Any) -> Any:
    """A paddle dtype from a paddle dtype, a numpy-style name, a numpy dtype or a type."""
    if dtype is None or isinstance(dtype, paddle.dtype):
        return dtype
    try:
        return _DTYPES[dtype]
    except (KeyError, TypeError):
        pass
    try:
        name = np.dtype(dtype).name
    except TypeError as err:
        raise TypeError(f"paddle has no dtype matching {dtype!r}") from err
    try:
        return _DTYPES[name]
    except KeyError:
        # paddle 3 stores no uint16/32/64 (its "uint16" is bfloat16's old storage name)
        raise TypeError(f"paddle has no dtype {name}") from None


def np_name(dtype: Any) -> str:
    """numpy's name of a paddle dtype."""
    return NP_NAMES[dtype]


def is_float(t: Tensor) -> bool:
    return t.dtype in (paddle.float16, paddle.bfloat16, paddle.float32, paddle.float64)


def is_complex(t: Tensor) -> bool:
    return t.dtype in (paddle.complex64, paddle.complex128)


def is_int(t: Tensor) -> bool:
    return t.dtype in (paddle.uint8, paddle.int8, paddle.int16, paddle.int32, paddle.int64)


def result_dtype(*xs: Any) -> Any:
    """numpy's result dtype of the arguments (tensors by dtype, Python scalars weak)."""
    parts = [np.dtype(np_name(x.dtype)) if isinstance(x, Tensor) else x for x in xs]
    return _DTYPES[np.result_type(*parts).name]


def _tensor(x: Any, like: Tensor | None = None) -> Tensor:
    """``x`` as a tensor: Python scalars take ``like``'s dtype kind as numpy 2 does."""
    if isinstance(x, Tensor):
        return x
    if like is not None and isinstance(x, (bool, int, float, complex)):
        dt = result_dtype(like, x)
        return paddle.to_tensor(x, dtype=dt, place=like.place)
    return paddle.to_tensor(np.asarray(x))


def promote(*xs: Any) -> list[Tensor]:
    """The arguments as tensors of numpy's common dtype."""
    tensors = [x for x in xs if isinstance(x, Tensor)]
    dt = result_dtype(*xs)
    like = tensors[0] if tensors else None
    out = []
    for x in xs:
        t = x if isinstance(x, Tensor) else paddle.to_tensor(
            np.asarray(x), place=None if like is None else like.place)
        out.append(t if t.dtype == dt else t.astype(dt))
    return out


def axis_list(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple) else axis
