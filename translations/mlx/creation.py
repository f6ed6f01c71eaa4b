"""mlx: arrays from shapes, ranges and grids.

mlx's creation functions take mlx dtypes only; the adapters take numpy dtype names,
numpy dtypes and mlx dtypes. With no dtype, creation from a shape gives mlx's
default float, float32 (float64 runs on the CPU device only), as mlx users expect;
data keeps numpy's reading (``asarray([0.1])`` is float64). ``geomspace``,
``logspace``, the index grids and the windows mlx lacks are the composed versions
bound to mlx (:func:`fill_entries`).
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np
from dispatch.translations._composed._bound import fill_entries
from dispatch.translations._composed.creation import (
    immutable_require,
    one_layout_asfortranarray,
)
from dispatch.translations._keywords import check_order
from dispatch.translations.mlx._common import host_dtype, mx_dtype, shape_tuple
from dispatch.translations.mlx.devices import _asarray, check_device

from dispatch.engine import merge_tables

_IMMUTABLE = "mlx arrays are immutable buffers, laid out in C order"


def _filled(shape: tuple, fill: Any, dt: Any) -> Any:
    # mlx's full makes int32 when asked for bool (mlx 0.32): cast after
    out = mx.full(shape, fill, dt)
    return out if dt is None or out.dtype == dt else out.astype(dt)


def _float(dtype: Any) -> Any:
    return mx.float32 if dtype is None else mx_dtype(dtype)


def _placed(name: str, order: Any, device: Any) -> None:
    """numpy's ``order`` and ``device`` of a creation routine, checked: mlx has one
    layout (every order gives numpy's values) and unified memory (an array made on one
    device is usable on every device)."""
    if order not in ("C", "K"):
        check_order(order)
    if device is not None:
        check_device(name, device)


def _zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Any:
    _placed("zeros", order, device)
    return mx.zeros(shape_tuple(shape), _float(dtype))


def _ones(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Any:
    _placed("ones", order, device)
    return mx.ones(shape_tuple(shape), _float(dtype))


def _full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
          device: Any = None) -> Any:
    _placed("full", order, device)
    # numpy's full takes its dtype from the fill value
    fill = fill_value if isinstance(fill_value, mx.array) else _asarray(fill_value)
    dt = fill.dtype if dtype is None else mx_dtype(dtype)
    if dtype is None and not isinstance(fill_value, mx.array) and dt == mx.float64 \
            and isinstance(fill_value, float):
        dt = mx.float32  # a Python float fill is the default float, as zeros
    return _filled(shape_tuple(shape), fill.astype(dt), dt)


def _like(name: str, fill: Any) -> Any:
    def like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
             shape: Any = None, *, device: Any = None) -> Any:
        _placed(name, order, device)
        a = _asarray(a)
        dt = a.dtype if dtype is None else mx_dtype(dtype)
        return _filled(a.shape if shape is None else shape_tuple(shape), fill, dt)

    like.__name__ = name
    return like


def _full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K",
               subok: bool = True, shape: Any = None, *, device: Any = None) -> Any:
    _placed("full_like", order, device)
    a = _asarray(a)
    dt = a.dtype if dtype is None else mx_dtype(dtype)
    if isinstance(fill_value, mx.array):
        fill = fill_value.astype(dt)
    else:
        # cast on the host, as numpy does: a Python complex fill of a complex64 array
        # would otherwise pass through complex128, which mlx lacks
        fill = _asarray(np.asarray(fill_value).astype(host_dtype(dt)))
    return _filled(a.shape if shape is None else shape_tuple(shape), fill, dt)


def _eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,
         device: Any = None) -> Any:
    _placed("eye", order, device)
    return mx.eye(int(N), None if M is None else int(M), int(k), _float(dtype))


def _identity(n: int, dtype: Any = None, *, device: Any = None) -> Any:
    check_device("identity", device)
    return mx.eye(int(n), dtype=_float(dtype))


def _tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None, *,
         device: Any = None) -> Any:
    check_device("tri", device)
    return mx.tri(int(N), None if M is None else int(M), int(k), dtype=_float(dtype))


def _arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None, *,
            device: Any = None) -> Any:
    check_device("arange", device)
    # numpy: integer bounds give int64, any float bound the default float; mlx gives
    # int32. The values are numpy's (its length rule for float steps included)
    host = np.arange(start, stop, step) if dtype is None else np.arange(
        start, stop, step, dtype=host_dtype(dtype))
    if dtype is None and host.dtype.kind == "f":
        return mx.array(host, mx.float32)
    return _asarray(host)


def _linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
              retstep: bool = False, dtype: Any = None, axis: int = 0, *,
              device: Any = None) -> Any:
    check_device("linspace", device)
    # mlx's linspace takes scalar bounds only and rounds in float32; numpy's values,
    # for array bounds in the bounds' float dtype, else in the default float
    arrays = [b for b in (start, stop) if isinstance(b, mx.array)]
    host = np.linspace(*(np.asarray(b) for b in (start, stop)), num, endpoint, retstep,
                       axis=axis)
    out, step = host if retstep else (host, None)
    if dtype is not None:
        dt = mx_dtype(dtype)
        out = np.floor(out) if host_dtype(dtype).kind in "iub" else out
    elif arrays and arrays[0].dtype in (mx.float64, mx.float16, mx.bfloat16):
        dt = arrays[0].dtype
    else:
        dt = mx.float32
    out = mx.array(out.astype(np.float64), dt)
    return (out, step) if retstep else out


def _empty(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Any:
    _placed("empty", order, device)
    return mx.zeros(shape_tuple(shape), _float(dtype))


def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> Any:
    return tuple(mx.meshgrid(*[_asarray(x) for x in xi], sparse=sparse, indexing=indexing))


TABLE = merge_tables(
    {
        "zeros": _zeros,
        "ones": _ones,
        "empty": _empty,
        "full": _full,
        "zeros_like": _like("zeros_like", 0),
        "ones_like": _like("ones_like", 1),
        "empty_like": _like("empty_like", 0),
        "full_like": _full_like,
        "eye": _eye,
        "identity": _identity,
        "tri": _tri,
        "arange": _arange,
        "linspace": _linspace,
        "meshgrid": _meshgrid,
        "asfortranarray": one_layout_asfortranarray("mlx"),
        "require": immutable_require("mlx", _IMMUTABLE),
    },
    fill_entries("mlx", "geomspace", "logspace", "tril_indices", "triu_indices",
                 "diag_indices", "mask_indices", "kaiser"),
    names=("creation", "fills"),
)
