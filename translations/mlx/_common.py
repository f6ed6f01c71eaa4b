"""Helpers of mlx's table that several of its topic modules use: dtypes and shapes."""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np

# mlx's dtypes by numpy's names; mlx has no complex128 (complex64 only) and no
# float128, and its float64 runs on the CPU device only
_BY_NAME = {
    "bool": mx.bool_, "int8": mx.int8, "int16": mx.int16, "int32": mx.int32,
    "int64": mx.int64, "uint8": mx.uint8, "uint16": mx.uint16, "uint32": mx.uint32,
    "uint64": mx.uint64, "float16": mx.float16, "float32": mx.float32,
    "float64": mx.float64, "bfloat16": mx.bfloat16, "complex64": mx.complex64,
}
_NAMES = {v: k for k, v in _BY_NAME.items()}
NO_COMPLEX128 = "mlx has no complex128 (its only complex dtype is complex64)"


def np_name(dtype: Any) -> str:
    """numpy's name of an mlx dtype."""
    return _NAMES[dtype]


def host_dtype(dtype: Any) -> np.dtype:
    """The numpy dtype of an mlx dtype, a numpy dtype or a name."""
    if isinstance(dtype, mx.Dtype):
        name = _NAMES[dtype]
        if name == "bfloat16":
            import ml_dtypes

            return np.dtype(ml_dtypes.bfloat16)
        return np.dtype(name)
    return np.dtype(dtype)


def mx_dtype(dtype: Any) -> Any:
    """The mlx dtype of a numpy dtype, a dtype name, a Python type or an mlx dtype
    (None stays None)."""
    if dtype is None or isinstance(dtype, mx.Dtype):
        return dtype
    if isinstance(dtype, mx.DtypeCategory):
        raise TypeError(f"mlx: a concrete dtype is needed, got {dtype!r}")
    name = dtype if dtype == "bfloat16" else np.dtype(dtype).name
    try:
        return _BY_NAME[name]
    except KeyError:
        if name == "complex128":
            raise TypeError(NO_COMPLEX128) from None
        raise TypeError(f"mlx has no dtype {name}") from None


def asks_bool(dtype: Any) -> bool:
    """Whether ``dtype=`` asks for booleans: numpy then adds with OR and multiplies with
    AND, where mlx's sums and products of booleans count."""
    return dtype is not None and mx_dtype(dtype) == mx.bool_


def shape_tuple(shape: Any) -> tuple[int, ...]:
    """numpy's shape argument (an int or a sequence) as a tuple of ints."""
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def axis_arg(axis: Any) -> Any:
    """numpy's axis (None, an int or a sequence) as mlx takes it."""
    if axis is None or isinstance(axis, int):
        return axis
    if isinstance(axis, np.integer):
        return int(axis)
    return [int(a) for a in axis]
