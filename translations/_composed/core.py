"""Introspection and conversion helpers every backend gets for free."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dispatch.engine import composed


@composed("shape")
def shape(x: Any) -> tuple[int, ...]:
    """``tuple(x.shape)`` as Python ints."""
    return tuple(map(int, x.shape))


@composed("ndim")
def ndim(x: Any) -> int:
    """Number of dimensions."""
    return len(x.shape)


@composed("size")
def size(x: Any) -> int:
    """Number of elements (the product of the shape)."""
    return math.prod(map(int, x.shape))


@composed("to_numpy")
def to_numpy(x: Any) -> np.ndarray:
    """``numpy.asarray(x)``; libraries with devices or autodiff override it."""
    return np.asarray(x)


@composed("get_dtype_name")
def get_dtype_name(x: Any) -> str:
    """numpy-style dtype name: ``"float32"``, ``"int64"``, ``"complex128"``..."""
    dt = x.dtype
    name = getattr(dt, "name", None)
    if not isinstance(name, str):
        name = str(dt).rsplit(".", 1)[-1]
    return name
