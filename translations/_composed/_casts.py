"""keras.ops' casts between dtypes: ``saturate_cast`` (clamped to the target's range)
and ``view`` (the same bytes read as another dtype), written once with ``do``."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from dispatch.translations._composed.devices import np_dtype

from dispatch.engine import composed, do

# ---------------------------------------------------------------- keras.ops casts


def _range(dt: np.dtype) -> tuple[Any, Any]:
    if dt.kind == "b":
        return 0, 1
    if dt.kind in "iu":
        return int(np.iinfo(dt).min), int(np.iinfo(dt).max)
    if dt.kind == "f":
        return -math.inf, math.inf
    raise TypeError(f"saturate_cast takes real or boolean dtypes; got {dt}")


def _limit(src: np.dtype, dst: np.dtype, side: int) -> Any:
    """The bound (``side`` -1: lower, 1: upper) of the values of dtype ``src`` that fit
    in ``dst``, as a value of ``src``; None where every value of ``src`` fits."""
    (src_lo, src_hi), (dst_lo, dst_hi) = _range(src), _range(dst)
    if dst.kind == "f":  # a float target: its finite range, infinity stays infinity
        big = float(np.finfo(dst).max)
        dst_lo, dst_hi = -big, big
        if src.kind == "f" and float(np.finfo(src).max) <= big:
            return None
    want = max(src_lo, dst_lo) if side < 0 else min(src_hi, dst_hi)
    if want == (src_lo if side < 0 else src_hi):
        return None
    bound = np.array(want).astype(src)
    if side * bound.item() > side * want and src.kind == "f":  # Python compares exactly
        bound = np.nextafter(bound, np.zeros((), src))  # rounded past the target's range
    return bound.item()


@functools.cache
def saturation_bounds(src: np.dtype, dst: np.dtype) -> tuple[Any, Any]:
    """``saturate_cast``'s (lower, upper) clip bounds from ``src`` to ``dst`` (None: no
    clip on that side), Python numbers that ``src`` holds exactly.

    >>> saturation_bounds(np.dtype("float64"), np.dtype("uint8"))
    (0.0, 255.0)
    """
    return _limit(src, dst, -1), _limit(src, dst, 1)


@composed("saturate_cast")
def saturate_cast(x: Any, dtype: Any) -> Any:
    """``x`` cast to ``dtype`` after clipping to the values ``dtype`` holds, so that
    nothing wraps around (``-1.0`` to ``uint8`` is 0, ``300`` is 255).

    Each side is clipped only where ``dtype``'s range is narrower than ``x``'s (as
    ``tf.dtypes.saturate_cast``): a float narrowed to a float saturates at the largest
    finite value (``inf`` included); a bound that the input dtype cannot hold exactly
    is moved towards 0 (float32 to int32 saturates at 2147483520, as keras). NaN has no
    defined result when cast to an integer. Complex dtypes are refused.

    Examples
    --------
    >>> import numpy as np
    >>> do("saturate_cast", np.array([-1.5, 0.4, 254.6, 300.0]), "uint8")
    array([  0,   0, 254, 255], dtype=uint8)
    """
    src, dst = do("dtype_of", x), np_dtype(dtype)
    lo, hi = saturation_bounds(src, dst)
    if lo is not None:
        x = do("maximum", x, do("asarray", np.array(lo, src), like=x))
    if hi is not None:
        x = do("minimum", x, do("asarray", np.array(hi, src), like=x))
    return do("astype", x, dst)


@composed("view")
def view(x: Any, dtype: Any) -> Any:
    """The bits of ``x`` read as ``dtype``, numpy's ``x.view(dtype)``: the same shape
    for a dtype of the same size; otherwise the last axis (contiguous) is scaled by
    the ratio of the sizes (``ValueError`` where it does not divide).

    This fallback goes through the host (libraries without a bit-cast); numpy, torch,
    jax, tensorflow and dask reinterpret natively.

    Examples
    --------
    >>> import numpy as np
    >>> do("view", np.array([1.0], dtype="float32"), "int32")
    array([1065353216], dtype=int32)
    """
    host = np.ascontiguousarray(do("to_numpy", x)).view(np_dtype(dtype))
    return do("asarray", host, like=x)
