"""torch: arrays from shapes, ranges, grids and existing data.

torch's creation functions take torch dtypes only and no ``order``; the adapters
accept numpy-style dtype names, numpy dtypes and torch dtypes. With no dtype,
creation from a shape uses torch's default float dtype (float32 unless changed
with ``torch.set_default_dtype``), as torch users expect. ``geomspace`` and
``logspace`` are the composed versions bound to torch (:func:`fill_entries`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from dispatch.translations._composed._bound import fill_entries
from dispatch.translations._composed.creation import _window_length
from dispatch.translations._keywords import check_order, in_order
from dispatch.translations.torch._common import (
    _UNSIGNED_WIDE,
    _dtype,
    _inexact,
    _promote,
    _shape,
    _signed,
    _tensor,
)
from dispatch.translations.torch.devices import _asarray
from torch import Tensor

from dispatch.engine import alias, merge_tables


def _laid_out(out: Tensor, order: Any) -> Tensor:
    """A new array in numpy's creation ``order``: 'C' or 'F' (None: 'C'); numpy's
    ValueError for an order it does not know, and for 'A' and 'K' (no source array)."""
    if order is None:
        return out
    check_order(order)
    if order.upper() not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    return in_order(out, order)


def _zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    out = torch.zeros(_shape(shape), dtype=_dtype(dtype), device=device)
    return out if order == "C" else _laid_out(out, order)


def _ones(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    out = torch.ones(_shape(shape), dtype=_dtype(dtype), device=device)
    return out if order == "C" else _laid_out(out, order)


def _empty(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    out = torch.empty(_shape(shape), dtype=_dtype(dtype), device=device)
    return out if order == "C" else _laid_out(out, order)


def _full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
          device: Any = None) -> Tensor:
    # torch.full takes a Python number only; numpy broadcasts an array fill value
    dtype = _dtype(dtype)
    if isinstance(fill_value, Tensor) and fill_value.ndim:
        out = torch.broadcast_to(fill_value, _shape(shape)).to(dtype=dtype, device=device)
        out = out.clone(memory_format=torch.contiguous_format)
    else:
        if isinstance(fill_value, (Tensor, np.generic, np.ndarray)):
            fill_value = fill_value.item()
        out = torch.full(_shape(shape), fill_value, dtype=dtype, device=device)
    return out if order == "C" else _laid_out(out, order)


def _like(fn: Callable) -> Callable:
    def like(a: Tensor, dtype: Any = None, order: str = "K", subok: bool = True,
             shape: Any = None, *, device: Any = None) -> Tensor:
        # numpy's *_like also take numpy dtype names and a new shape
        dtype = _dtype(dtype) or a.dtype
        out = fn(a.shape if shape is None else _shape(shape), dtype=dtype,
                 device=a.device if device is None else device)
        return out if order == "K" else in_order(out, order)

    return like


def _full_like(a: Tensor, fill_value: Any, dtype: Any = None, order: str = "K",
               subok: bool = True, shape: Any = None, *, device: Any = None) -> Tensor:
    out = _full(a.shape if shape is None else shape, fill_value, _dtype(dtype) or a.dtype,
                device=a.device if device is None else device)
    return out if order == "K" else in_order(out, order)


def _eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,
         device: Any = None) -> Tensor:
    # torch.eye has no diagonal offset and no kernel for uint16/32/64: ones written
    # into the k-th diagonal of zeros serve every dtype (an offset past the corner
    # has an empty diagonal)
    out = torch.zeros(N, N if M is None else M, dtype=_dtype(dtype), device=device)
    out.diagonal(k).fill_(1)
    return out if order == "C" else _laid_out(out, order)


def _identity(n: int, dtype: Any = None, *, device: Any = None) -> Tensor:
    return torch.eye(n, dtype=_dtype(dtype), device=device)


def _tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None, *,
         device: Any = None) -> Tensor:
    # the triangle as booleans (torch.tril has no uint16/32/64 kernel), then the dtype
    M = N if M is None else M
    mask = torch.ones(N, M, dtype=torch.bool, device=device).tril(k)
    return mask.to(_dtype(dtype) or torch.get_default_dtype())


def _triangle(fn: Callable) -> Callable:
    def triangle(m: Tensor, k: int = 0) -> Tensor:
        # torch's k is ``diagonal``; uint16/32/64 go as their signed bits
        return fn(_signed(m), k).view(m.dtype)

    triangle.__name__ = triangle.__qualname__ = fn.__name__
    return triangle


def _arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None, *,
            device: Any = None) -> Tensor:
    # torch.arange takes torch dtypes only, refuses a range that is empty by the sign
    # of its step (numpy's is an empty array) and has no uint16/32/64 kernel
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if (step > 0 and stop < start) or (step < 0 and stop > start):
        stop = start  # an empty range, of the dtype torch infers from the bounds
    dtype = _dtype(dtype)
    if dtype in _UNSIGNED_WIDE:  # numpy's exact uint64 arithmetic, then torch's dtype
        bounds = [b.item() if isinstance(b, Tensor) else b for b in (start, stop, step)]
        return torch.from_numpy(np.arange(*bounds, dtype=str(dtype)[6:])).to(device)
    return torch.arange(start, stop, step, dtype=dtype, device=device)


def _linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
              retstep: bool = False, dtype: Any = None, axis: int = 0, *,
              device: Any = None) -> Any:
    # torch.linspace has no endpoint, retstep or axis and takes scalar bounds only
    dtype = _dtype(dtype)
    div = num - 1 if endpoint else num
    if isinstance(start, Tensor) or isinstance(stop, Tensor) or not (
        np.ndim(start) == 0 and np.ndim(stop) == 0
    ):
        ref = start if isinstance(start, Tensor) else stop if isinstance(stop, Tensor) else None
        start, stop = _promote(_tensor(start, ref), _tensor(stop, ref))
        start, stop = _inexact(start), _inexact(stop)
        delta = stop - start
        steps = torch.arange(num, dtype=start.dtype, device=start.device)
        steps = steps.reshape((-1,) + (1,) * delta.ndim)
        out = start + steps * (delta / div) if div > 0 else start + steps * delta
        if endpoint and num > 1:
            out[-1] = stop
        out = torch.moveaxis(out, 0, axis)
        step = delta / div if div > 0 else torch.full_like(delta, math.nan)
    else:
        start, stop = (v.item() if isinstance(v, np.generic) else v for v in (start, stop))
        step = (stop - start) / div if div > 0 else math.nan
        # computed in the floating dtype asked for (a float64 result of float32 steps
        # loses digits); without endpoint the first num points of num + 1, the
        # standard's definition
        work = dtype if dtype is not None and (dtype.is_floating_point or dtype.is_complex) \
            else None
        if endpoint:
            out = torch.linspace(start, stop, num, dtype=work, device=device)
        else:
            out = torch.linspace(start, stop, num + 1, dtype=work, device=device)[:-1]
    if dtype is not None:
        out = out.to(dtype)
    return (out, step) if retstep else out


def _meshgrid(*xi: Tensor, copy: bool = True, sparse: bool = False,
              indexing: str = "xy") -> tuple[Tensor, ...]:
    # torch defaults to "ij" indexing and has no sparse grids
    if not xi:
        return ()
    if sparse:
        n = len(xi)
        shapes = [[1] * n for _ in xi]
        for i in range(n):
            shapes[i][i] = -1
        if indexing == "xy" and n > 1:
            shapes[0][0], shapes[0][1] = 1, -1
            shapes[1][0], shapes[1][1] = -1, 1
        return tuple(x.reshape(s).clone() if copy else x.reshape(s)
                     for x, s in zip(xi, shapes, strict=True))
    grids = torch.meshgrid(*xi, indexing=indexing)
    return tuple(g.clone() for g in grids) if copy else tuple(grids)


def _indices(dimensions: Sequence[int], dtype: Any = int, sparse: bool = False, *,
             device: Any = None) -> Any:
    dtype = _dtype(dtype)
    ranges = [torch.arange(d, dtype=dtype, device=device) for d in dimensions]
    if sparse:
        n = len(ranges)
        return tuple(r.reshape([-1 if j == i else 1 for j in range(n)])
                     for i, r in enumerate(ranges))
    if not ranges:
        return torch.empty((0,), dtype=dtype, device=device)
    return torch.stack(torch.meshgrid(*ranges, indexing="ij"))


def _copy(a: Any, order: str = "K", subok: bool = False, *, only_mutable: bool = False) -> Any:
    # torch.clone takes neither numpy's ``order`` (laid out after the copy; clone keeps
    # the strides, numpy's 'K') nor the list's ``only_mutable`` (torch tensors are
    # mutable: always copied)
    out = a.clone() if isinstance(a, Tensor) else _asarray(a, copy=True)
    return out if order == "K" else in_order(out, order)


def _at_least_1d(a: Any, dtype: Any) -> Tensor:
    t = _asarray(a, dtype)
    return t.reshape(1) if t.ndim == 0 else t


def _ascontiguousarray(a: Any, dtype: Any = None) -> Tensor:
    # numpy's: C order (tensor.contiguous(), no copy when it already is), at least 1-d
    return _at_least_1d(a, dtype).contiguous()


def _asfortranarray(a: Any, dtype: Any = None) -> Tensor:
    # Fortran order: the reversed axes laid out contiguously, viewed back; no copy
    # when the tensor already is (torch, like numpy, ignores axes of length 1)
    t = _at_least_1d(a, dtype)
    reverse = tuple(range(t.ndim - 1, -1, -1))
    flipped = t.permute(*reverse)
    return t if flipped.is_contiguous() else flipped.contiguous().permute(*reverse)


def _window(kernel: Any) -> Any:
    # torch's window kernels, symmetric (periodic=False) as numpy's; no points below 1
    def window(M: Any, *, device: Any = None) -> Tensor:
        n = _window_length(M)
        if n < 1:
            return torch.ones(0, device=device)
        return kernel(n, periodic=False, device=device)

    window.__name__ = window.__qualname__ = kernel.__name__
    return window


def _kaiser(M: Any, beta: Any, *, device: Any = None) -> Tensor:
    # numpy's beta is required (torch's kaiser_window defaults it to 12)
    n = _window_length(M)
    if n < 1:
        return torch.ones(0, device=device)
    return torch.kaiser_window(n, periodic=False, beta=float(beta), device=device)

TABLE = merge_tables(
    {
        "ascontiguousarray": _ascontiguousarray,
        "asfortranarray": _asfortranarray,
        "copy": _copy,
        "zeros": _zeros,
        "ones": _ones,
        "empty": _empty,
        "full": _full,
        "zeros_like": _like(torch.zeros),
        "ones_like": _like(torch.ones),
        "empty_like": _like(torch.empty),
        "full_like": _full_like,
        "eye": _eye,
        "identity": _identity,
        "tri": _tri,
        "arange": _arange,
        "linspace": _linspace,
        "meshgrid": _meshgrid,
        "indices": _indices,
        "diagflat": alias("diagflat", k="offset"),
        "tril": _triangle(torch.tril),
        "triu": _triangle(torch.triu),
        "diag": alias("diag", k="diagonal"),
    },
    # torch has no geomspace; its logspace computes in float32 whatever dtype is asked
    # and takes no array base
    fill_entries("torch", "geomspace", "logspace"),
    # numpy's index routines (torch's tril_indices/triu_indices return one (2, N) tensor)
    fill_entries("torch", "tril_indices", "triu_indices", "diag_indices",
                 "mask_indices"),
    {  # numpy's window functions (torch's names end in _window, periodic by default)
        "hamming": _window(torch.hamming_window),
        "hanning": _window(torch.hann_window),
        "blackman": _window(torch.blackman_window),
        "bartlett": _window(torch.bartlett_window),
        "kaiser": _kaiser,
    },
    names=("creation", "fills", "index fills", "windows"),
)
