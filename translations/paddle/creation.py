"""paddle: creation routines with numpy's signatures and default dtypes.

paddle's creation functions take shapes as lists, default to float32
(``paddle.get_default_dtype()``) and name ``eye``'s columns ``num_columns``;
these entries keep numpy's defaults (float64 for floats, int64 for integer
ranges) so that the arrays they make compare with numpy's, and take ``device=``
(a paddle place name such as ``"cpu"`` or ``"gpu:0"``) and ``order=`` (paddle's
tensors take strides: ``'F'`` lays the new tensor out in Fortran order).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import paddle
from dispatch.translations._composed._bound import fill_entries
from dispatch.translations._keywords import in_order
from dispatch.translations.paddle._common import _dtype, promote
from dispatch.translations.paddle.devices import _place
from paddle import Tensor

from dispatch.engine import merge_tables


def _shape(shape: Any) -> list:
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    return [int(shape)] if np.ndim(shape) == 0 else [int(s) for s in shape]


def _float(dtype: Any) -> Any:
    return _dtype(dtype) or paddle.float64


def _on(out: Tensor, device: Any) -> Tensor:
    place = _place(device)
    return out if place is None else out._copy_to(place, False)


def _laid(out: Tensor, order: Any) -> Tensor:
    """``out`` in numpy's memory ``order`` (numpy's ValueError for one it does not
    know); a new tensor is in C order already."""
    return out if order == "C" else in_order(out, order)


def _zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    return _laid(_on(paddle.zeros(_shape(shape), dtype=_float(dtype)), device), order)


def _ones(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    return _laid(_on(paddle.ones(_shape(shape), dtype=_float(dtype)), device), order)


def _empty(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    return _zeros(shape, dtype, order, device=device)


def _full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
          device: Any = None) -> Tensor:
    if isinstance(fill_value, Tensor):
        out = paddle.broadcast_to(fill_value, _shape(shape))
        return _laid(_on(out if dtype is None else out.astype(_dtype(dtype)), device), order)
    dt = _dtype(dtype) or _dtype(np.asarray(fill_value).dtype)
    return _laid(_on(paddle.full(_shape(shape), fill_value, dtype=dt), device), order)


def _like(fill: Any) -> Any:
    def like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
             shape: Any = None, *, device: Any = None) -> Tensor:
        dt = _dtype(dtype) or a.dtype
        out = paddle.full(_shape(a.shape if shape is None else shape), fill, dtype=dt)
        out = _on(out, device) if device is not None else out._copy_to(a.place, False)
        # 'K' and 'A' (the prototype's layout) give a C-ordered tensor: numpy's values
        return out if order == "K" else in_order(out, order)

    return like


def _full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K",
               subok: bool = True, shape: Any = None, *, device: Any = None) -> Tensor:
    dt = _dtype(dtype) or a.dtype
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if dt in (paddle.bool,):
        fill_value = bool(fill_value)
    elif dt not in (paddle.float16, paddle.bfloat16, paddle.float32, paddle.float64,
                    paddle.complex64, paddle.complex128) and not np.iscomplexobj(fill_value):
        fill_value = int(fill_value)
    out = _on(paddle.full(_shape(a.shape if shape is None else shape), fill_value, dtype=dt),
              device)
    # 'K' and 'A' (the prototype's layout) give a C-ordered tensor: numpy's values
    return out if order == "K" else in_order(out, order)


def _eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,
         device: Any = None) -> Tensor:
    M = N if M is None else M
    out = paddle.zeros([N, M], dtype=_float(dtype))
    if N and M:
        n = max(0, min(N - max(-k, 0), M - max(k, 0)))
        if n:
            rows = paddle.arange(n) + max(-k, 0)
            cols = paddle.arange(n) + max(k, 0)
            out[rows, cols] = paddle.ones([n], dtype=out.dtype)
    return _laid(_on(out, device), order)


def _identity(n: int, dtype: Any = None, *, device: Any = None) -> Tensor:
    return _eye(n, dtype=dtype, device=device)


def _arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None, *,
            device: Any = None) -> Tensor:
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, stop, step)]
    dt = _dtype(dtype) or _dtype(np.result_type(*values))
    n = max(math.ceil((values[1] - values[0]) / values[2]), 0)
    if all(isinstance(v, (int, np.integer)) for v in values):
        out = paddle.arange(n, dtype="int64") * int(values[2]) + int(values[0])
    else:
        out = paddle.arange(n, dtype="int64").astype("float64") * values[2] + values[0]
    return _on(out.astype(dt), device)


def _linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
              retstep: bool = False, dtype: Any = None, axis: int = 0, *,
              device: Any = None) -> Any:
    if isinstance(start, Tensor) or isinstance(stop, Tensor) or np.ndim(start) or np.ndim(
            stop):
        start, stop = promote(start, stop)
        # numpy's result: the endpoints' float (float32 stays float32), computed in float64
        inexact = start.dtype if (start.is_floating_point() or start.is_complex()) else None
        if dtype is None and inexact is not None and inexact != paddle.float64:
            dtype = inexact
        start, stop = start.astype("float64"), stop.astype("float64")
        div = (num - 1) if endpoint else num
        step = (stop - start) / max(div, 1)
        t = paddle.arange(num, dtype="float64").reshape([num] + [1] * start.ndim)
        out = start + t * step
        if endpoint and num > 1:
            out[-1] = stop
        out = paddle.moveaxis(out, 0, axis) if axis else out
    else:
        div = (num - 1) if endpoint else num
        step = (stop - start) / div if div > 0 else math.nan
        out = paddle.to_tensor(np.linspace(start, stop, num, endpoint=endpoint))
    dt = _dtype(dtype)
    if dt is not None:
        out = paddle.floor(out).astype(dt) if dt in (paddle.int8, paddle.int16, paddle.int32,
                                                     paddle.int64, paddle.uint8) else \
            out.astype(dt)
    out = _on(out, device)
    return (out, step) if retstep else out


def _tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None, *,
         device: Any = None) -> Tensor:
    M = N if M is None else M
    out = paddle.tril(paddle.ones([N, M], dtype="float64"), k)
    return _on(out.astype(_float(dtype)), device)


def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False,
              indexing: str = "xy") -> tuple:
    xs = [x.flatten() for x in xi]
    n = len(xs)
    if n == 0:
        return ()
    swap = indexing == "xy" and n > 1
    if sparse:
        out = []
        for i, x in enumerate(xs):
            shape = [1] * n
            shape[{0: 1, 1: 0}.get(i, i) if swap else i] = x.shape[0]
            # paddle's flatten and reshape share the input's memory: numpy's views, which
            # copy=False allows and copy=True does not
            out.append(x.reshape(shape).clone() if copy else x.reshape(shape))
        return tuple(out)
    if n == 1:
        return (xs[0].clone(),)
    # paddle.meshgrid is 'ij'; numpy's 'xy' is 'ij' of (x1, x0, x2...) with the first two
    # outputs swapped back
    order = [1, 0, *range(2, n)] if swap else list(range(n))
    grids = paddle.meshgrid(*[xs[i] for i in order])
    return tuple(grids[order.index(i)] for i in range(n))


def _indices(dimensions: Any, dtype: Any = int, sparse: bool = False, *,
             device: Any = None) -> Any:
    dims = [int(d) for d in dimensions]
    dt = _dtype(dtype) or paddle.int64
    ranges = [paddle.arange(d, dtype="int64").astype(dt) for d in dims]
    if sparse:
        out = []
        for i, r in enumerate(ranges):
            shape = [1] * len(dims)
            shape[i] = dims[i]
            out.append(_on(r.reshape(shape), device))
        return tuple(out)
    if not dims:
        return _on(paddle.zeros([0], dtype=dt), device)
    grids = paddle.meshgrid(*ranges) if len(dims) > 1 else [ranges[0]]
    return _on(paddle.stack(grids), device)


def _window(fn: Any) -> Any:
    # a window is made from its length alone: numpy's values, as a float64 tensor
    def window(M: Any, *beta: Any, device: Any = None) -> Tensor:
        return _on(paddle.to_tensor(fn(int(M), *beta), dtype="float64"), device)

    window.__name__ = window.__qualname__ = "_" + fn.__name__
    return window


TABLE = merge_tables(
    {
        "zeros": _zeros,
        "ones": _ones,
        "empty": _empty,
        "full": _full,
        "zeros_like": _like(0),
        "ones_like": _like(1),
        "empty_like": _like(0),
        "full_like": _full_like,
        "eye": _eye,
        "identity": _identity,
        "arange": _arange,
        "linspace": _linspace,
        "tri": _tri,
        "meshgrid": _meshgrid,
        "indices": _indices,
    },
    {name: _window(getattr(np, name))
     for name in ("bartlett", "blackman", "hamming", "hanning", "kaiser")},
    fill_entries("paddle", "geomspace", "logspace", "tril_indices", "triu_indices",
                 "diag_indices", "mask_indices"),
    names=("creation", "windows", "filled"),
)
