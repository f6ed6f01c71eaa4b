"""torch: the numpy vocabulary on ``torch.Tensor``, with numpy semantics.

Where torch's own function already has numpy's signature and behaviour the
table names it directly (``"sum"``, ``"add"``, ``"matmul"``...), so that ``do``
calls it with no wrapper in between. The adapters below exist only where torch
differs; each says why in one line. Creation functions from a shape (``zeros``,
``arange``, ``linspace``, ``random.*``...) use torch's default float dtype
(float32 unless changed with ``torch.set_default_dtype``) when no dtype is given,
as torch users expect; data keeps numpy's reading (``asarray([0.1])`` is float64).
Every adapter accepts numpy-style dtype names (``"float32"``), numpy dtypes and
torch dtypes. Arithmetic that stays native (``add``, ``divide``...) follows
torch's type promotion: ``int64 tensor + 1.5`` is float32, where numpy gives
float64.
"""

from __future__ import annotations

import contextlib
import functools
import math
import operator
from collections import namedtuple
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from torch import Tensor

from dispatch.spec import alias

TYPES = ("torch",)

# ---------------------------------------------------------------- dtypes and devices

_DTYPES: dict[Any, torch.dtype] = {
    name: getattr(torch, name)
    for name in (
        "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
        "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    )
}


def _dtype(dtype: Any) -> torch.dtype | None:
    """A torch dtype from a torch dtype, a numpy-style name, a numpy dtype or a type."""
    if dtype is None or isinstance(dtype, torch.dtype):
        return dtype
    try:
        return _DTYPES[dtype]
    except (KeyError, TypeError):
        pass
    try:
        found = _DTYPES[np.dtype(dtype).name]
    except (KeyError, TypeError) as err:
        raise TypeError(f"torch has no dtype matching {dtype!r}") from err
    with contextlib.suppress(TypeError):  # unhashable spellings are converted each time
        _DTYPES[dtype] = found
    return found


def _to_backend_dtype(dtype_name: Any) -> torch.dtype:
    out = _dtype(dtype_name)
    if out is None:
        raise TypeError("a dtype name is needed, got None")
    return out


def creation_kwargs(like: Tensor) -> dict[str, Any]:
    """The dtype and device that creation functions take from an example tensor.

    Parameters
    ----------
    like : torch.Tensor
        The array passed as ``like=`` to a creation function.

    Returns
    -------
    dict
        ``{"dtype": like.dtype, "device": like.device}``.

    Examples
    --------
    >>> creation_kwargs(torch.zeros(2, dtype=torch.float64))
    {'dtype': torch.float64, 'device': device(type='cpu')}
    """
    return {"dtype": like.dtype, "device": like.device}


def _inexact(a: Tensor) -> Tensor:
    # numpy computes means, medians and norms of integers in float64; torch refuses
    if a.is_floating_point() or a.is_complex():
        return a
    return a.to(torch.float64)


def _tensor(x: Any, like: Tensor | None = None) -> Tensor:
    """``x`` as a tensor (on ``like``'s device), leaving tensors as they are.

    Python scalars and lists go through numpy so that a float keeps all its digits
    (float64); as a 0-d tensor it still takes the other operand's float dtype.
    """
    if isinstance(x, Tensor):
        return x
    return torch.as_tensor(np.asarray(x), device=None if like is None else like.device)


def _promote(x1: Any, x2: Any) -> tuple[Tensor, Tensor]:
    """Two tensors of one common dtype (torch's promotion, Python scalars weak)."""
    x1 = _tensor(x1, x2 if isinstance(x2, Tensor) else None)
    x2 = _tensor(x2, x1)
    if x1.dtype != x2.dtype:
        dt = torch.result_type(x1, x2)
        x1, x2 = x1.to(dt), x2.to(dt)
    return x1, x2


def _axes(axis: int | Sequence[int], ndim: int) -> tuple[int, ...]:
    """Non-negative axis numbers from an int or a sequence of ints."""
    if isinstance(axis, (int, np.integer)) or _is_0d(axis):
        axis = (axis,)
    out = []
    for ax in axis:
        ax = operator.index(ax)
        if not -ndim <= ax < max(ndim, 1):
            raise np.exceptions.AxisError(ax, ndim)
        out.append(ax % ndim if ndim else 0)
    return tuple(out)


def _is_0d(x: Any) -> bool:
    # dispatch converts numpy scalars (np.int64(2) as an axis or a size) to 0-d tensors
    return isinstance(x, Tensor) and x.ndim == 0


def _shape(size: Any) -> tuple[int, ...]:
    if size is None:
        return ()
    if isinstance(size, (int, np.integer)) or _is_0d(size):
        return (int(size),)
    return tuple(int(s) for s in size)


# ---------------------------------------------------------------- creation and conversion


def _asarray(
    a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
    copy: bool | None = None,
) -> Any:
    # torch.as_tensor rejects numpy dtype names, read-only or negatively strided numpy
    # arrays and lists of (non-scalar) tensors, all of which numpy.asarray takes, and
    # reads Python floats as float32
    dtype = _dtype(dtype)
    if isinstance(a, Tensor):
        out = a if dtype is None and device is None else a.to(device=device, dtype=dtype)
        return out.clone() if copy and out is a else out
    if isinstance(a, np.ndarray):
        if not a.flags.writeable or any(s < 0 for s in a.strides):
            return torch.tensor(np.array(a), dtype=dtype, device=device)
        out = torch.as_tensor(a, dtype=dtype, device=device)
        return out.clone() if copy and out.data_ptr() == a.ctypes.data and a.size else out
    if isinstance(a, np.dtype):
        # dispatch reads a numpy dtype argument (``astype(x, np.dtype("int64"))``) as a
        # numpy constant and converts it with this function: leave it a dtype
        return a
    if isinstance(a, (list, tuple)) and _holds_tensor(a):
        parts = [_asarray(e, device=device) for e in a]
        out = torch.stack(parts) if parts else torch.empty(0, device=device)
        return out if dtype is None else out.to(dtype)
    # through numpy: Python floats are float64 data, as numpy.asarray reads them
    return torch.as_tensor(np.asarray(a), dtype=dtype, device=device)


def _from_numpy(a: Any) -> Any:
    # torch.from_numpy shares memory and costs a third of torch.as_tensor; it needs a
    # writeable, positively strided array of a dtype torch has
    if (
        type(a) is np.ndarray
        and a.flags.writeable
        and a.dtype.isnative
        and a.dtype.name in _DTYPES
        and all(st >= 0 for st in a.strides)
    ):
        return torch.from_numpy(a)
    return _asarray(a)


def _holds_tensor(seq: Any) -> bool:
    return any(isinstance(e, Tensor) or (isinstance(e, (list, tuple)) and _holds_tensor(e))
               for e in seq)


def _array(a: Any, dtype: Any = None, *, copy: bool = True, device: Any = None,
           **_: Any) -> Tensor:
    return _asarray(a, dtype, device=device, copy=copy)


def _to_numpy(x: Any) -> np.ndarray:
    # numpy cannot hold autograd graphs, device memory, lazy conj/neg bits or bfloat16
    if not isinstance(x, Tensor):
        return np.asarray(x)
    x = x.detach()
    if x.device.type != "cpu":
        x = x.cpu()
    if x.dtype is torch.bfloat16:
        x = x.float()
    return x.resolve_conj().resolve_neg().numpy()


def _to_device(x: Tensor, device: Any = None) -> Tensor:
    return x if device is None else x.to(device)


def _astype(x: Tensor, dtype: Any, copy: bool = True) -> Tensor:
    # Tensor.to takes only torch dtypes, and returns ``x`` itself unless told to copy
    return x.to(_dtype(dtype), copy=copy)


def _zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    return torch.zeros(_shape(shape), dtype=_dtype(dtype), device=device)


def _ones(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    return torch.ones(_shape(shape), dtype=_dtype(dtype), device=device)


def _empty(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    return torch.empty(_shape(shape), dtype=_dtype(dtype), device=device)


def _full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
          device: Any = None) -> Tensor:
    # torch.full takes a Python number only; numpy broadcasts an array fill value
    dtype = _dtype(dtype)
    if isinstance(fill_value, Tensor) and fill_value.ndim:
        out = torch.broadcast_to(fill_value, _shape(shape)).to(dtype=dtype, device=device)
        return out.clone(memory_format=torch.contiguous_format)
    if isinstance(fill_value, (Tensor, np.generic, np.ndarray)):
        fill_value = fill_value.item()
    return torch.full(_shape(shape), fill_value, dtype=dtype, device=device)


def _like(fn: Callable) -> Callable:
    def like(a: Tensor, dtype: Any = None, order: str = "K", subok: bool = True,
             shape: Any = None, *, device: Any = None) -> Tensor:
        # numpy's *_like also take numpy dtype names and a new shape
        dtype = _dtype(dtype) or a.dtype
        return fn(a.shape if shape is None else _shape(shape), dtype=dtype,
                  device=a.device if device is None else device)

    return like


def _full_like(a: Tensor, fill_value: Any, dtype: Any = None, order: str = "K",
               subok: bool = True, shape: Any = None, *, device: Any = None) -> Tensor:
    return _full(a.shape if shape is None else shape, fill_value, _dtype(dtype) or a.dtype,
                 device=a.device if device is None else device)


def _eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,
         device: Any = None) -> Tensor:
    # torch.eye has no diagonal offset
    M = N if M is None else M
    dtype = _dtype(dtype)
    if k == 0:
        return torch.eye(N, M, dtype=dtype, device=device)
    return torch.ones(N, M, dtype=dtype, device=device).triu(k).tril(k)


def _identity(n: int, dtype: Any = None, *, device: Any = None) -> Tensor:
    return torch.eye(n, dtype=_dtype(dtype), device=device)


def _tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None, *,
         device: Any = None) -> Tensor:
    M = N if M is None else M
    return torch.ones(N, M, dtype=_dtype(dtype), device=device).tril(k)


def _arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None, *,
            device: Any = None) -> Tensor:
    # torch.arange takes torch dtypes only
    if stop is None:
        start, stop = 0, start
    return torch.arange(start, stop, 1 if step is None else step, dtype=_dtype(dtype),
                        device=device)


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
        start, stop = float(start) if isinstance(start, np.generic) else start, stop
        step = (stop - start) / div if div > 0 else math.nan
        if endpoint:
            out = torch.linspace(start, stop, num, device=device)
        else:
            out = torch.linspace(start, start + step * (num - 1), num, device=device)
    if dtype is not None:
        out = out.to(dtype)
    return (out, step) if retstep else out


def _logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
              base: float = 10.0, dtype: Any = None, axis: int = 0, *,
              device: Any = None) -> Tensor:
    out = torch.pow(base, _linspace(start, stop, num, endpoint, axis=axis, device=device))
    return out if dtype is None else out.to(_dtype(dtype))


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


def _complex(real: Any, imag: Any) -> Tensor:
    # torch.complex wants two floating tensors of the same dtype
    real, imag = _promote(real, imag)
    real, imag = _inexact(real), _inexact(imag)
    return torch.complex(real, imag)


# ---------------------------------------------------------------- elementwise


def _binary(path: str) -> Callable:
    fn = _lookup(path)

    def binary(x1: Any, x2: Any, /, **kwargs: Any) -> Tensor:
        # the torch function takes tensors only; numpy takes Python scalars and lists too
        if not isinstance(x1, Tensor):
            x1 = _tensor(x1, x2 if isinstance(x2, Tensor) else None)
        if not isinstance(x2, Tensor):
            x2 = _tensor(x2, x1)
        return fn(x1, x2, **kwargs)

    binary.__name__ = binary.__qualname__ = "_" + path.rsplit(".", 1)[-1]
    return binary


def _lookup(path: str) -> Callable:
    obj: Any = torch
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _same_dtype(path: str) -> Callable:
    fn = _lookup(path)

    def same_dtype(x1: Any, x2: Any, /) -> Tensor:
        # the torch function needs both operands as tensors of one dtype
        return fn(*_promote(x1, x2))

    same_dtype.__name__ = same_dtype.__qualname__ = "_" + path
    return same_dtype


def _sign(x: Tensor) -> Tensor:
    # torch.sign(nan) is 0 where numpy gives nan; torch.sgn is numpy's sign for complex
    out = torch.sgn(x)
    return torch.where(x.isnan(), x, out) if x.is_floating_point() else out


def _cbrt(x: Tensor) -> Tensor:
    # torch has no cube root
    x = _inexact(x)
    return torch.sgn(x) * x.abs().pow(1.0 / 3.0)


def _imag(val: Tensor) -> Tensor:
    # torch.imag refuses real tensors; numpy returns zeros
    return val.imag if val.is_complex() else torch.zeros_like(val)


def _angle(z: Tensor, deg: bool = False) -> Tensor:
    out = torch.angle(z)
    return torch.rad2deg(out) if deg else out


def _round(a: Tensor, decimals: int = 0) -> Tensor:
    # torch.round takes ``decimals`` by keyword only
    return torch.round(a, decimals=decimals) if decimals else torch.round(a)


def _reciprocal(x: Tensor) -> Tensor:
    # numpy keeps integers integral (1 // x, truncated); torch returns floats
    if x.is_floating_point() or x.is_complex():
        return torch.reciprocal(x)
    return torch.div(torch.ones_like(x), x, rounding_mode="trunc")


def _nan_to_num(x: Tensor, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
                neginf: float | None = None) -> Tensor:
    # numpy's ``copy`` argument; never in place here
    return torch.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


def _spacing(x: Tensor) -> Tensor:
    # torch has no spacing; the distance to the next float away from zero
    x = _inexact(x)
    away = torch.where(x < 0, -math.inf, math.inf).to(x.dtype)
    return torch.nextafter(x, away) - x


def _heaviside(x1: Any, x2: Any) -> Tensor:
    x1, x2 = _promote(x1, x2)
    return torch.heaviside(x1, x2)


def _ldexp(x1: Any, x2: Any) -> Tensor:
    x1, x2 = _tensor(x1, x2 if isinstance(x2, Tensor) else None), _tensor(x2, None)
    return torch.ldexp(_inexact(x1), x2.to(x1.device))


# ---------------------------------------------------------------- reductions


def _sum(a: Tensor, axis: Any = None, dtype: Any = None, out: None = None,
         keepdims: bool = False) -> Tensor:
    # torch.sum rejects keepdims without an axis and dtype names given as strings
    if out is not None:
        raise TypeError("sum(out=...) is not supported: dispatch never writes into arrays")
    if dtype is not None:
        dtype = _dtype(dtype)
    if axis is None:
        total = torch.sum(a, dtype=dtype)
        return total.reshape((1,) * a.ndim) if keepdims else total
    return torch.sum(a, axis, keepdims, dtype=dtype)


def _reshape(a: Tensor, shape: Any, order: str = "C", *, newshape: Any = None) -> Tensor:
    # torch.reshape takes no bare int shape (numpy's reshape(x, -1))
    if order != "C":
        raise ValueError("torch tensors reshape in C order only")
    shape = newshape if shape is None else shape
    return a.reshape(shape)


def _prod(a: Tensor, axis: Any = None, dtype: Any = None, *, keepdims: bool = False) -> Tensor:
    # torch.prod reduces one axis at a time
    dtype = _dtype(dtype)
    if axis is None:
        out = torch.prod(a, dtype=dtype)
        return out.reshape((1,) * a.ndim) if keepdims else out
    axes = _axes(axis, a.ndim)
    if len(axes) == 1:
        return torch.prod(a, axes[0], keepdim=keepdims, dtype=dtype)
    for ax in sorted(axes, reverse=True):
        a = torch.prod(a, ax, keepdim=True, dtype=dtype)
    return a if keepdims else a.squeeze(axes)


def _mean(a: Tensor, axis: Any = None, dtype: Any = None, *, keepdims: bool = False) -> Tensor:
    dtype = _dtype(dtype)
    a = _inexact(a) if dtype is None else a.to(dtype)
    return torch.mean(a, dim=axis, keepdim=keepdims)


def _var(a: Tensor, axis: Any = None, dtype: Any = None, *, ddof: float = 0,
         keepdims: bool = False) -> Tensor:
    # torch divides by n - 1 unless told otherwise; numpy's ddof defaults to 0
    dtype = _dtype(dtype)
    a = _inexact(a) if dtype is None else a.to(dtype)
    return torch.var(a, dim=axis, correction=ddof, keepdim=keepdims)


def _std(a: Tensor, axis: Any = None, dtype: Any = None, *, ddof: float = 0,
         keepdims: bool = False) -> Tensor:
    dtype = _dtype(dtype)
    a = _inexact(a) if dtype is None else a.to(dtype)
    return torch.std(a, dim=axis, correction=ddof, keepdim=keepdims)


def _any(a: Tensor, axis: Any = None, *, keepdims: bool = False) -> Tensor:
    # torch.any/all return uint8 for uint8 input; numpy always returns bool
    out = torch.any(a, dim=axis, keepdim=keepdims)
    return out if out.dtype is torch.bool else out.bool()


def _all(a: Tensor, axis: Any = None, *, keepdims: bool = False) -> Tensor:
    out = torch.all(a, dim=axis, keepdim=keepdims)
    return out if out.dtype is torch.bool else out.bool()


def _cumulative(fn: Callable) -> Callable:
    def cumulative(a: Tensor, axis: int | None = None, dtype: Any = None) -> Tensor:
        # torch needs an axis; numpy flattens when there is none
        if axis is None:
            a, axis = a.reshape(-1), 0
        return fn(a, axis, dtype=_dtype(dtype))

    cumulative.__name__ = cumulative.__qualname__ = "_" + fn.__name__
    return cumulative


def _count_nonzero(a: Tensor, axis: Any = None, *, keepdims: bool = False) -> Tensor:
    # torch.count_nonzero has no keepdims
    return torch.sum(a != 0, dim=axis, keepdim=keepdims)


def _ptp(a: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return torch.amax(a, dim=axis, keepdim=keepdims) - torch.amin(a, dim=axis, keepdim=keepdims)


def _collapse(a: Tensor, axis: Any) -> tuple[Tensor, tuple[int, ...]]:
    """The axes to reduce moved to the end as one axis, and the keepdims shape."""
    if axis is None:
        return a.reshape(-1), (1,) * a.ndim
    axes = _axes(axis, a.ndim)
    keep = [d for d in range(a.ndim) if d not in axes]
    n = math.prod(a.shape[d] for d in axes)
    moved = a.permute(*keep, *axes).reshape(*(a.shape[d] for d in keep), n)
    kshape = tuple(1 if d in axes else a.shape[d] for d in range(a.ndim))
    return moved, kshape


def _median(a: Tensor, axis: Any = None, out: None = None, overwrite_input: bool = False,
            keepdims: bool = False) -> Tensor:
    # torch.median returns the lower of the two middle values; numpy their mean
    flat, kshape = _collapse(_inexact(a), axis)
    s = torch.sort(flat, dim=-1).values
    n = s.shape[-1]
    if n == 0:
        mid = torch.full(s.shape[:-1], math.nan, dtype=s.dtype, device=s.device)
        return mid.reshape(kshape) if keepdims else mid
    mid = s[..., n // 2] if n % 2 else (s[..., n // 2 - 1] + s[..., n // 2]) / 2
    if s.is_floating_point():
        mid = torch.where(s[..., -1].isnan(), s[..., -1], mid)  # numpy propagates nan
    return mid.reshape(kshape) if keepdims else mid


def _quantile(a: Tensor, q: Any, axis: Any = None, out: None = None,
              overwrite_input: bool = False, method: str = "linear", keepdims: bool = False,
              *, _nan: bool = False) -> Tensor:
    # torch.quantile reduces one axis at most and calls ``method`` ``interpolation``
    a = _inexact(a)
    q = _tensor(q, a).to(a.dtype)  # q as float64 first: no float32 rounding of 0.1
    flat, kshape = _collapse(a, axis)
    fn = torch.nanquantile if _nan else torch.quantile
    res = fn(flat, q, dim=-1, interpolation=method)
    return res.reshape(q.shape + kshape) if keepdims else res


def _percentile(a: Tensor, q: Any, axis: Any = None, out: None = None,
                overwrite_input: bool = False, method: str = "linear",
                keepdims: bool = False) -> Tensor:
    return _quantile(a, _tensor(q, a) / 100, axis, method=method, keepdims=keepdims)


# ---------------------------------------------------------------- shape and indexing

_REVERSED = [tuple(range(n - 1, -1, -1)) for n in range(65)]


def _transpose(a: Tensor, axes: tuple[int, ...] | list[int] | None = None) -> Tensor:
    # torch.transpose swaps two axes; numpy's permutes all of them (reversed by default)
    return torch.permute(a, _REVERSED[a.ndim] if axes is None else axes)


def _expand_dims(a: Tensor, axis: Any) -> Tensor:
    # torch.unsqueeze inserts one axis at a time
    n_new = len(axis) if isinstance(axis, (tuple, list)) else 1
    axes = sorted(_axes(axis, a.ndim + n_new))
    for ax in axes:
        a = a.unsqueeze(ax)
    return a


def _squeeze(a: Tensor, axis: Any = None) -> Tensor:
    # torch.squeeze rejects axis=None and silently keeps axes that are not of length 1
    if axis is None:
        return torch.squeeze(a)
    axes = _axes(axis, a.ndim)
    if any(a.shape[ax] != 1 for ax in axes):
        raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return torch.squeeze(a, axes)


def _concatenate(arrays: list[Tensor] | tuple[Tensor, ...], axis: int | None = 0, out: None = None,
                 dtype: Any = None, casting: str = "same_kind") -> Tensor:
    # torch.cat has no axis=None (flatten first) and no dtype
    if axis is None:
        arrays, axis = [a.reshape(-1) for a in arrays], 0
    res = torch.cat(arrays, dim=axis)
    return res if dtype is None else res.to(_dtype(dtype))


def _split(ary: Tensor, indices_or_sections: Any, axis: int = 0) -> list[Tensor]:
    # torch.split takes sizes; numpy takes a count of equal parts or split indices
    if isinstance(indices_or_sections, (int, np.integer)):
        n = int(indices_or_sections)
        if n <= 0 or ary.shape[axis] % n:
            raise ValueError("array split does not result in an equal division")
    else:
        indices_or_sections = [int(i) for i in indices_or_sections]
    return list(torch.tensor_split(ary, indices_or_sections, dim=axis))


def _array_split(ary: Tensor, indices_or_sections: Any, axis: int = 0) -> list[Tensor]:
    if not isinstance(indices_or_sections, (int, np.integer)):
        indices_or_sections = [int(i) for i in indices_or_sections]
    return list(torch.tensor_split(ary, indices_or_sections, dim=axis))


def _tile(A: Tensor, reps: Any) -> Tensor:
    # torch.tile takes a tuple only
    return torch.tile(A, _shape(reps))


def _repeat(a: Tensor, repeats: Any, axis: int | None = None) -> Tensor:
    # torch.repeat_interleave takes an int or a tensor of repeats, not a list
    if not isinstance(repeats, (int, np.integer, Tensor)):
        repeats = torch.as_tensor(repeats, device=a.device)
    return torch.repeat_interleave(a, repeats, dim=axis)


def _flip(m: Tensor, axis: Any = None) -> Tensor:
    # torch.flip needs the axes; numpy flips all of them by default
    return torch.flip(m, tuple(range(m.ndim)) if axis is None else _axes(axis, m.ndim))


def _pad_widths(pad_width: Any, ndim: int) -> list[tuple[int, int]]:
    if isinstance(pad_width, Tensor):
        pad_width = pad_width.tolist()
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (ndim, 2))
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    return [(int(b), int(f)) for b, f in widths]


def _pad_index(n: int, before: int, after: int, mode: str, device: Any) -> Tensor:
    i = torch.arange(-before, n + after, device=device)
    if mode == "edge":
        return i.clamp(0, n - 1)
    if mode == "wrap":
        return i % n
    if mode == "symmetric":
        i = i % (2 * n)
        return torch.where(i >= n, 2 * n - 1 - i, i)
    if n == 1:  # reflect
        return torch.zeros_like(i)
    i = i % (2 * (n - 1))
    return torch.where(i >= n, 2 * (n - 1) - i, i)


def _pad(array: Tensor, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Tensor:
    # torch.nn.functional.pad reverses the axis order, pads at most the last three axes in
    # its non-constant modes and has no "symmetric" mode; gathering indices does all of it
    a = array
    widths = _pad_widths(pad_width, a.ndim)
    if mode in ("constant", "empty"):
        values = kwargs.pop("constant_values", 0) if mode == "constant" else 0
        if kwargs:
            raise TypeError(f"unsupported keyword arguments for mode {mode!r}: {set(kwargs)}")
        if isinstance(values, Tensor):
            values = values.tolist()
        if np.ndim(values) == 0:
            if isinstance(values, np.generic):
                values = values.item()
            flat = [w for pair in reversed(widths) for w in pair]
            # the stub says float, the function takes any Python number
            return torch.nn.functional.pad(
                a, flat, mode="constant", value=values  # type: ignore[arg-type]
            )
        per_axis = np.broadcast_to(np.asarray(values), (a.ndim, 2)).tolist()
        for ax, ((b, f), (vb, vf)) in enumerate(zip(widths, per_axis, strict=True)):
            parts = []
            for width, v in ((b, vb), (0, None), (f, vf)):
                if v is None:
                    parts.append(a)
                elif width:
                    shape = list(a.shape)
                    shape[ax] = width
                    parts.append(torch.full(shape, v, dtype=a.dtype, device=a.device))
            a = torch.cat(parts, dim=ax)
        return a
    if mode not in ("edge", "wrap", "reflect", "symmetric"):
        raise NotImplementedError(f"pad mode {mode!r} is not available on torch tensors")
    if kwargs.pop("reflect_type", "even") != "even" or kwargs:
        raise NotImplementedError("only reflect_type='even' is available on torch tensors")
    for ax, (b, f) in enumerate(widths):
        if b or f:
            n = a.shape[ax]
            if n == 0:
                raise ValueError(f"can't extend empty axis {ax} using modes other than "
                                 "'constant' or 'empty'")
            a = torch.index_select(a, ax, _pad_index(n, b, f, mode, a.device))
    return a


def _take(a: Tensor, indices: Any, axis: int | None = None, out: None = None,
          mode: str = "raise") -> Tensor:
    # torch.take only indexes the flattened tensor, index_select takes 1-D indices only
    idx = _tensor(indices, a).long()
    if mode == "wrap":
        idx = idx % (a.numel() if axis is None else a.shape[axis])
    elif mode == "clip":
        idx = idx.clamp(0, (a.numel() if axis is None else a.shape[axis]) - 1)
    if axis is None:
        return torch.take(a, idx)
    axis = _axes(axis, a.ndim)[0]
    n = a.shape[axis]
    idx = torch.where(idx < 0, idx + n, idx)
    picked = torch.index_select(a, axis, idx.reshape(-1))
    return picked.reshape(a.shape[:axis] + idx.shape + a.shape[axis + 1 :])


def _take_along_axis(arr: Tensor, indices: Tensor, axis: int | None = -1) -> Tensor:
    # torch.take_along_dim flattens by default; numpy's default axis is the last one
    return torch.take_along_dim(arr, indices, dim=axis)


def _trace(a: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Any:
    # torch.trace handles 2-D tensors without offset only
    return torch.diagonal(a, offset, axis1, axis2).sum(-1, dtype=_dtype(dtype))


def _flatnonzero(a: Tensor) -> Tensor:
    return torch.nonzero(a.reshape(-1)).reshape(-1)


def _sort(a: Tensor, axis: int | None = -1, kind: str | None = None, order: None = None, *,
          stable: bool | None = None) -> Tensor:
    # torch.sort returns (values, indices); numpy returns the values, and flattens for None
    if axis is None:
        a, axis = a.reshape(-1), 0
    return torch.sort(a, dim=axis, stable=bool(stable or kind == "stable")).values


def _argsort(a: Tensor, axis: int | None = -1, kind: str | None = None, order: None = None,
             *, stable: bool | None = None) -> Tensor:
    # stable, so that ties come out in numpy's order
    if axis is None:
        a, axis = a.reshape(-1), 0
    return torch.argsort(a, dim=axis, stable=True)


def _unique(ar: Tensor, return_index: bool = False, return_inverse: bool = False,
            return_counts: bool = False, axis: int | None = None, *, equal_nan: bool = True,
            sorted: bool = True) -> Any:
    # torch.unique has no return_index and keeps every nan apart
    a = ar.reshape(-1) if axis is None else ar
    dim = None if axis is None else _axes(axis, ar.ndim)[0]
    values, inverse, counts = torch.unique(
        a, sorted=True, return_inverse=True, return_counts=True, dim=dim
    )
    if axis is None and equal_nan and values.is_floating_point() and len(values) > 1:
        nan = values.isnan()
        first = int(nan.to(torch.int64).argmax()) if bool(nan.any()) else -1
        if first >= 0 and first < len(values) - 1:  # nans sort last: merge them into one
            counts = torch.cat([counts[:first], counts[first:].sum(0, keepdim=True)])
            values = values[: first + 1]
            inverse = inverse.clamp(max=first)
    result = [values]
    if return_index:
        n = a.shape[0] if dim is None else a.shape[dim]
        pos = torch.arange(n, device=a.device)
        first_seen = torch.full((len(counts),), n, dtype=torch.int64, device=a.device)
        result.append(first_seen.scatter_reduce(0, inverse, pos, reduce="amin"))
    if return_inverse:
        result.append(inverse.reshape(ar.shape) if axis is None else inverse)
    if return_counts:
        result.append(counts)
    return result[0] if len(result) == 1 else tuple(result)


def _searchsorted(a: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    # torch takes ``side`` by keyword only and needs both operands of one dtype
    a, v = _promote(a, v)
    if sorter is not None:
        sorter = _tensor(sorter, a).long()
    return torch.searchsorted(a, v, side=side, sorter=sorter)


def _digitize(x: Any, bins: Any, right: bool = False) -> Tensor:
    # torch.bucketize counts from the other side and needs increasing bins
    x, bins = _promote(x, bins)
    side = "left" if right else "right"
    if len(bins) > 1 and bool((bins[1:] <= bins[:-1]).all()) and bins[0] > bins[-1]:
        return len(bins) - torch.searchsorted(bins.flip(0), x, side=side)
    return torch.searchsorted(bins, x, side=side)


def _clip(a: Tensor, a_min: Any = None, a_max: Any = None, *, min: Any = None,
          max: Any = None) -> Tensor:
    # torch.clip takes two numbers or two tensors, not one of each
    lo = a_min if min is None else min
    hi = a_max if max is None else max
    if isinstance(lo, Tensor) != isinstance(hi, Tensor) and lo is not None and hi is not None:
        lo, hi = _tensor(lo, a), _tensor(hi, a)
    elif isinstance(lo, (np.ndarray, list)) or isinstance(hi, (np.ndarray, list)):
        lo = None if lo is None else _tensor(lo, a)
        hi = None if hi is None else _tensor(hi, a)
    return torch.clip(a, lo, hi)


def _array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    a1, a2 = _promote(a1, a2)
    if a1.shape != a2.shape:
        return False
    same = a1 == a2
    if equal_nan and (a1.is_floating_point() or a1.is_complex()):
        same = same | (a1.isnan() & a2.isnan())
    return bool(same.all())


def _isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> Tensor:
    # torch.isclose needs two tensors of one dtype
    a, b = _promote(a, b)
    return torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
              equal_nan: bool = False) -> bool:
    return bool(_isclose(a, b, rtol, atol, equal_nan).all())


# ---------------------------------------------------------------- products


def _tensordot(a: Tensor, b: Tensor, axes: Any = 2) -> Tensor:
    # torch.tensordot wants lists where numpy also takes a pair of ints
    if not isinstance(axes, (int, np.integer)):
        axa, axb = axes
        axes = ([axa] if isinstance(axa, int) else list(axa),
                [axb] if isinstance(axb, int) else list(axb))
    return torch.tensordot(a, b, dims=axes)


def _dot(a: Any, b: Any) -> Tensor:
    # torch.dot is 1-D only; numpy's dot is matmul for 2-D and sums a's last axis with
    # b's second to last for n-D
    a, b = _promote(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.ndim <= 2 and b.ndim <= 2:
        return torch.matmul(a, b)
    return torch.tensordot(a, b, dims=([a.ndim - 1], [max(b.ndim - 2, 0)]))


def _vdot(a: Any, b: Any) -> Tensor:
    a, b = _promote(a, b)
    return torch.vdot(a.reshape(-1), b.reshape(-1))


def _outer(a: Any, b: Any) -> Tensor:
    # torch.outer takes 1-D tensors only; numpy flattens
    a, b = _promote(a, b)
    return torch.outer(a.reshape(-1), b.reshape(-1))


# ---------------------------------------------------------------- linalg

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
LstsqResult = namedtuple("LstsqResult", ["x", "residuals", "rank", "s"])


def _qr(a: Tensor, mode: str = "reduced") -> Any:
    # torch's mode "r" still returns a pair; numpy returns R alone
    if mode == "r":
        return torch.linalg.qr(a, mode="r").R
    if mode not in ("reduced", "complete"):
        raise NotImplementedError(f"qr mode {mode!r} is not available on torch tensors")
    return torch.linalg.qr(a, mode=mode)


def _svd(a: Tensor, full_matrices: bool = True, compute_uv: bool = True,
         hermitian: bool = False) -> Any:
    if not compute_uv:
        return torch.linalg.svdvals(a)
    return torch.linalg.svd(a, full_matrices=full_matrices)


def _real_if_exact(w: Tensor, a: Tensor) -> bool:
    return not a.is_complex() and bool((w.imag == 0).all())


def _eig(a: Tensor) -> EigResult:
    # torch.linalg.eig is always complex; numpy returns real results when they are real
    w, v = torch.linalg.eig(a)
    if _real_if_exact(w, a):
        return EigResult(w.real, v.real)
    return EigResult(w, v)


def _eigvals(a: Tensor) -> Tensor:
    w = torch.linalg.eigvals(a)
    return w.real if _real_if_exact(w, a) else w


def _solve(a: Tensor, b: Tensor) -> Tensor:
    # torch reads b of shape a.shape[:-1] as a batch of vectors; numpy 2 reads every
    # b with ndim > 1 as a (batch of) matrix
    if b.ndim > 1 and b.ndim == a.ndim - 1 and b.shape == a.shape[:-1]:
        return torch.linalg.solve(a, b.unsqueeze(0))
    return torch.linalg.solve(a, b)


def _pinv(a: Tensor, rcond: Any = None, hermitian: bool = False, *,
          rtol: Any = "default") -> Tensor:
    # numpy's default cutoff is 1e-15 relative; torch's is max(m, n) * eps
    if rcond is None:
        rcond = 1e-15 if isinstance(rtol, str) else rtol
    return torch.linalg.pinv(a, rtol=rcond, hermitian=hermitian)


def _det(a: Tensor) -> Tensor:
    return torch.linalg.det(_inexact(a))


def _norm(x: Tensor, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:
    # torch.linalg.norm refuses integer tensors
    return torch.linalg.norm(_inexact(x), ord, axis, keepdims)


def _matrix_rank(A: Tensor, tol: Any = None, hermitian: bool = False, *,
                 rtol: Any = None) -> Tensor:
    # numpy's ``tol`` is an absolute cutoff and 1-D input is allowed
    A = _inexact(A)
    if A.ndim < 2:
        return torch.any(A != 0).to(torch.int64)
    return torch.linalg.matrix_rank(A, atol=tol, rtol=rtol, hermitian=hermitian)


def _lstsq(a: Tensor, b: Tensor, rcond: Any = None) -> LstsqResult:
    # torch's default CPU driver returns neither residuals nor singular values
    vector = b.ndim == 1
    a, b = _promote(_inexact(a), _inexact(b))
    b2 = b.unsqueeze(-1) if vector else b
    driver = "gelsd" if a.device.type == "cpu" else None
    sol = torch.linalg.lstsq(a, b2, rcond=rcond, driver=driver)
    x = sol.solution
    m, n = a.shape[-2:]
    rank = int(sol.rank) if sol.rank.numel() else n
    s = sol.singular_values if sol.singular_values.numel() else torch.linalg.svdvals(a)
    if rank == n and m > n:
        residuals = (torch.matmul(a, x) - b2).abs().pow(2).sum(-2)
    else:
        residuals = torch.empty((0,), dtype=s.dtype, device=a.device)
    return LstsqResult(x.squeeze(-1) if vector else x, residuals, rank, s)


def _lu(a: Tensor, permute_l: bool = False, overwrite_a: bool = False,
        check_finite: bool = True, p_indices: bool = False) -> Any:
    P, L, U = torch.linalg.lu(a)
    if permute_l:
        return torch.matmul(P, L), U
    if p_indices:
        return P.argmax(-1), L, U
    return P, L, U


def _lu_factor(a: Tensor, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    # scipy's pivots count from 0, LAPACK's (and torch's) from 1
    lu, piv = torch.linalg.lu_factor(a)
    return lu, piv - 1


def _lu_solve(lu_and_piv: Any, b: Tensor, trans: int = 0, overwrite_b: bool = False,
              check_finite: bool = True) -> Tensor:
    lu, piv = lu_and_piv
    vector = b.ndim == 1
    b2 = b.unsqueeze(-1) if vector else b
    piv = (piv + 1).to(torch.int32)
    if trans in (0, "N"):
        x = torch.linalg.lu_solve(lu, piv, b2)
    elif trans in (2, "C") or not lu.is_complex():
        x = torch.linalg.lu_solve(lu, piv, b2, adjoint=True)
    else:  # plain transpose of a complex matrix: conjugate around the adjoint solve
        x = torch.linalg.lu_solve(lu, piv, b2.conj(), adjoint=True).conj()
    return x.squeeze(-1) if vector else x


def _solve_triangular(a: Tensor, b: Tensor, trans: Any = 0, lower: bool = False,
                      unit_diagonal: bool = False, overwrite_b: bool = False,
                      check_finite: bool = True) -> Tensor:
    # torch has no ``trans`` and needs b as a matrix
    if trans in (1, "T"):
        a, lower = a.mT, not lower
    elif trans in (2, "C"):
        a, lower = a.mH, not lower
    vector = b.ndim == 1
    a, b = _promote(a, b)
    x = torch.linalg.solve_triangular(
        a, b.unsqueeze(-1) if vector else b, upper=not lower, unitriangular=unit_diagonal
    )
    return x.squeeze(-1) if vector else x


def _cho_factor(a: Tensor, lower: bool = False, overwrite_a: bool = False,
                check_finite: bool = True) -> tuple[Tensor, bool]:
    return torch.linalg.cholesky(a, upper=not lower), lower


def _cho_solve(c_and_lower: tuple[Tensor, bool], b: Tensor, overwrite_b: bool = False,
               check_finite: bool = True) -> Tensor:
    c, lower = c_and_lower
    vector = b.ndim == 1
    x = torch.cholesky_solve(b.unsqueeze(-1) if vector else b, c, upper=not lower)
    return x.squeeze(-1) if vector else x


# ---------------------------------------------------------------- scipy.special


def _logsumexp(a: Tensor, axis: Any = None, b: Any = None, keepdims: bool = False,
               return_sign: bool = False) -> Any:
    # torch.logsumexp needs the axes and has no weights or signs
    a = _inexact(a)
    dims = tuple(range(a.ndim)) if axis is None else _axes(axis, a.ndim)
    if b is None and not return_sign:
        return torch.logsumexp(a, dim=dims, keepdim=keepdims)
    m = torch.amax(a, dim=dims, keepdim=True).detach()
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.exp(a - m)
    if b is not None:
        e = e * _tensor(b, a)
    s = torch.sum(e, dim=dims, keepdim=True)
    if return_sign:
        sign = torch.sgn(s)
        out = torch.log(torch.abs(s)) + m
    else:
        out = torch.log(s) + m
    if not keepdims:
        out = out.squeeze(dims)
        if return_sign:
            sign = sign.squeeze(dims)
    return (out, sign) if return_sign else out


def _softmax(x: Tensor, axis: Any = None) -> Tensor:
    # torch.softmax needs an axis; scipy's default is all of them
    x = _inexact(x)
    if isinstance(axis, (int, np.integer)):
        return torch.softmax(x, int(axis))
    return torch.exp(x - _logsumexp(x, axis, keepdims=True))


def _log_softmax(x: Tensor, axis: Any = None) -> Tensor:
    x = _inexact(x)
    if isinstance(axis, (int, np.integer)):
        return torch.log_softmax(x, int(axis))
    return x - _logsumexp(x, axis, keepdims=True)


def _zeta(x: Any, q: Any = None) -> Tensor:
    # scipy's zeta(x) is Riemann's; torch's always takes the Hurwitz offset
    x, q = _promote(_inexact(_tensor(x)), 1.0 if q is None else q)
    return torch.special.zeta(x, q)


# ---------------------------------------------------------------- random


def _seed_int(seed: Any) -> int | None:
    if seed is None or isinstance(seed, (int, np.integer)):
        return None if seed is None else int(seed)
    if isinstance(seed, Tensor):
        return int(seed)
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


class Generator:
    """A numpy-like random generator drawing torch tensors.

    Returned by ``do("random.default_rng", seed, like="torch")``; the module-level
    ``random.*`` names of the torch backend use one such generator, reseeded by
    ``do("random.seed", seed, like="torch")``. Draws use torch's default float
    dtype unless ``dtype`` is given. Each device gets its own ``torch.Generator``,
    seeded from the same seed.

    Parameters
    ----------
    seed : int, sequence of ints or None
        Seed; None draws fresh entropy.

    Examples
    --------
    >>> rng = Generator(42)
    >>> tuple(rng.normal(size=(2, 3)).shape)
    (2, 3)
    >>> bool((Generator(1).random(4) == Generator(1).random(4)).all())
    True
    """

    def __init__(self, seed: Any = None):
        self._seed = _seed_int(seed)
        self._gens: dict[torch.device, torch.Generator] = {}

    def __repr__(self) -> str:
        return f"Generator(torch, seed={self._seed})"

    def _gen(self, device: Any = None) -> torch.Generator:
        device = torch.device("cpu" if device is None else device)
        g = self._gens.get(device)
        if g is None:
            g = torch.Generator(device=device)
            if self._seed is None:
                g.seed()
            else:
                g.manual_seed(self._seed)
            self._gens[device] = g
        return g

    @staticmethod
    def _where(size: Any, dtype: Any, device: Any, *params: Any) -> tuple:
        """Output shape, float dtype and device from ``size`` and array parameters."""
        tensors = [p for p in params if isinstance(p, Tensor)]
        if device is None and tensors:
            device = tensors[0].device
        if size is None:
            shape = torch.broadcast_shapes(*(tuple(np.shape(p)) if not isinstance(p, Tensor)
                                             else p.shape for p in params))
        else:
            shape = _shape(size)
        dtype = _dtype(dtype)
        if dtype is None:
            floats = [p.dtype for p in tensors if p.is_floating_point()]
            dtype = floats[0] if floats else torch.get_default_dtype()
        return tuple(shape), dtype, device

    def random(self, size: Any = None, dtype: Any = None, *, device: Any = None) -> Tensor:
        """Uniform floats in [0, 1)."""
        shape, dtype, device = self._where(size, dtype, device)
        return torch.rand(shape, generator=self._gen(device), dtype=dtype, device=device)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = None, *,
                device: Any = None) -> Tensor:
        """Uniform floats in [low, high)."""
        shape, dtype, device = self._where(size, dtype, device, low, high)
        u = torch.rand(shape, generator=self._gen(device), dtype=dtype, device=device)
        return u * (_tensor(high, u) - _tensor(low, u)) + _tensor(low, u)

    def standard_normal(self, size: Any = None, dtype: Any = None, *,
                        device: Any = None) -> Tensor:
        """Draws from the standard normal distribution."""
        shape, dtype, device = self._where(size, dtype, device)
        return torch.randn(shape, generator=self._gen(device), dtype=dtype, device=device)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = None, *,
               device: Any = None) -> Tensor:
        """Draws from a normal distribution of mean ``loc`` and deviation ``scale``."""
        shape, dtype, device = self._where(size, dtype, device, loc, scale)
        z = torch.randn(shape, generator=self._gen(device), dtype=dtype, device=device)
        return z * _tensor(scale, z) + _tensor(loc, z)

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = "int64",
                 endpoint: bool = False, *, device: Any = None) -> Tensor:
        """Random integers in [low, high) (or [low, high] with ``endpoint``)."""
        if high is None:
            low, high = 0, low
        dtype = _dtype(dtype)
        if isinstance(low, Tensor) or isinstance(high, Tensor) or np.ndim(low) or np.ndim(high):
            shape, _, device = self._where(size, torch.float64, device, low, high)
            u = torch.rand(shape, generator=self._gen(device), dtype=torch.float64,
                           device=device)
            lo, hi = _tensor(low, u).to(torch.float64), _tensor(high, u).to(torch.float64)
            return (lo + torch.floor(u * (hi - lo + endpoint))).to(dtype)
        return torch.randint(int(low), int(high) + bool(endpoint), _shape(size),
                             generator=self._gen(device), dtype=dtype, device=device)

    def permutation(self, x: Any, axis: int = 0) -> Tensor:
        """A permuted ``arange(x)``, or a copy of ``x`` shuffled along ``axis``."""
        if isinstance(x, (int, np.integer)):
            return torch.randperm(int(x), generator=self._gen())
        x = _tensor(x)
        perm = torch.randperm(x.shape[axis], generator=self._gen()).to(x.device)
        return torch.index_select(x, axis, perm)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0, shuffle: bool = True) -> Tensor:
        """Random samples from ``a`` (an int n meaning ``arange(n)``, or a tensor)."""
        pop = int(a) if isinstance(a, (int, np.integer)) else _tensor(a).shape[axis]
        shape = _shape(size)
        k = math.prod(shape)
        g = self._gen()
        if p is not None:
            p = _tensor(p).to(device="cpu", dtype=torch.float64)
            idx = (torch.multinomial(p, k, replacement=replace, generator=g) if k
                   else torch.empty(0, dtype=torch.int64))
        elif replace:
            idx = torch.randint(pop, (k,), generator=g)
        else:
            if k > pop:
                raise ValueError("cannot take a larger sample than population when "
                                 "replace=False")
            idx = torch.randperm(pop, generator=g)[:k]
        if isinstance(a, (int, np.integer)):
            return idx.reshape(shape)
        a = _tensor(a)
        picked = torch.index_select(a, axis, idx.to(a.device))
        return picked.reshape(a.shape[:axis] + shape + a.shape[axis + 1 :])

    def exponential(self, scale: Any = 1.0, size: Any = None, dtype: Any = None, *,
                    device: Any = None) -> Tensor:
        """Draws from an exponential distribution of mean ``scale``."""
        shape, dtype, device = self._where(size, dtype, device, scale)
        e = torch.empty(shape, dtype=dtype, device=device).exponential_(
            generator=self._gen(device)
        )
        return e * _tensor(scale, e)

    def poisson(self, lam: Any = 1.0, size: Any = None, *, device: Any = None) -> Tensor:
        """Poisson counts (int64) of rate ``lam``."""
        shape, dtype, device = self._where(size, None, device, lam)
        rate = torch.broadcast_to(_tensor(lam).to(dtype=dtype, device=device), shape)
        return torch.poisson(rate, generator=self._gen(device)).to(torch.int64)

    def binomial(self, n: Any, p: Any, size: Any = None, *, device: Any = None) -> Tensor:
        """Binomial counts (int64) of ``n`` trials with success probability ``p``."""
        shape, dtype, device = self._where(size, None, device, n, p)
        count = torch.broadcast_to(_tensor(n).to(dtype=dtype, device=device), shape)
        prob = torch.broadcast_to(_tensor(p).to(dtype=dtype, device=device), shape)
        return torch.binomial(count, prob, generator=self._gen(device)).to(torch.int64)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None, dtype: Any = None) -> Tensor:
        """Draws from a gamma distribution (CPU)."""
        out_shape, dtype, _ = self._where(size, dtype, None, shape, scale)
        conc = torch.broadcast_to(_tensor(shape).to(dtype), out_shape)
        # torch's gamma sampler takes no generator: run it on the global CPU generator,
        # seeded from ours and restored afterwards
        seed = int(torch.randint(0, 2**62, (), generator=self._gen()))
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            draws = torch.distributions.Gamma(conc, torch.ones_like(conc)).sample()
        return draws * _tensor(scale, draws).to(dtype)

    def beta(self, a: Any, b: Any, size: Any = None, dtype: Any = None) -> Tensor:
        """Draws from a beta distribution (CPU)."""
        shape, dtype, _ = self._where(size, dtype, None, a, b)
        x = self.gamma(a, 1.0, shape, dtype)
        y = self.gamma(b, 1.0, shape, dtype)
        return x / (x + y)


_RNG = [Generator()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = Generator(seed)


def _random_fn(method: str) -> Callable:
    def draw(*args: Any, **kwargs: Any) -> Tensor:
        return getattr(_RNG[0], method)(*args, **kwargs)

    draw.__name__ = draw.__qualname__ = "_" + method
    return draw


def _rand(*shape: int) -> Tensor:
    return _RNG[0].random(shape)


def _randn(*shape: int) -> Tensor:
    return _RNG[0].standard_normal(shape)


def _randint(low: Any, high: Any = None, size: Any = None, dtype: Any = "int64") -> Tensor:
    return _RNG[0].integers(low, high, size, dtype)


# ---------------------------------------------------------------- the table

TABLE = {
    # conversion, dtypes, devices
    "asarray": _asarray,
    "array": _array,
    "from_numpy": _from_numpy,
    "to_numpy": _to_numpy,
    "to_device": _to_device,
    "from_dlpack": "from_dlpack",
    "astype": _astype,
    "cast": _astype,
    "to_backend_dtype": _to_backend_dtype,
    "stop_gradient": "detach",
    "copy": "clone",
    # creation
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
    "logspace": _logspace,
    "meshgrid": _meshgrid,
    "indices": _indices,
    "diagflat": alias("diagflat", k="offset"),
    "complex": _complex,
    # elementwise, unary: torch's function of the same or a close name where it matches
    "abs": "abs",
    "absolute": "abs",
    "negative": "negative",
    "positive": "positive",
    "sign": _sign,
    "sqrt": "sqrt",
    "cbrt": _cbrt,
    "square": "square",
    "exp": "exp",
    "exp2": "exp2",
    "expm1": "expm1",
    "log": "log",
    "log2": "log2",
    "log10": "log10",
    "log1p": "log1p",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "arcsin": "arcsin",
    "arccos": "arccos",
    "arctan": "arctan",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "arcsinh": "arcsinh",
    "arccosh": "arccosh",
    "arctanh": "arctanh",
    "floor": "floor",
    "ceil": "ceil",
    "trunc": "trunc",
    "rint": "round",
    "round": _round,
    "around": _round,
    "fix": "fix",
    "isnan": "isnan",
    "isinf": "isinf",
    "isfinite": "isfinite",
    "isneginf": "isneginf",
    "isposinf": "isposinf",
    "signbit": "signbit",
    "real": "real",
    "imag": _imag,
    "conj": "conj",
    "conjugate": "conj",
    "angle": _angle,
    "reciprocal": _reciprocal,
    "logical_not": "logical_not",
    "invert": "bitwise_not",
    "bitwise_not": "bitwise_not",
    "bitwise_invert": "bitwise_not",
    "deg2rad": "deg2rad",
    "rad2deg": "rad2deg",
    "degrees": "rad2deg",
    "radians": "deg2rad",
    "sinc": "sinc",
    "nan_to_num": _nan_to_num,
    "i0": "i0",
    "spacing": _spacing,
    # elementwise, binary: these torch functions take Python scalars on either side
    "add": "add",
    "subtract": "subtract",
    "multiply": "multiply",
    "divide": "divide",
    "true_divide": "true_divide",
    "floor_divide": "floor_divide",
    "power": "pow",
    "pow": "pow",
    "float_power": "float_power",
    "mod": "remainder",
    "remainder": "remainder",
    "bitwise_and": "bitwise_and",
    "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor",
    "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift",
    "bitwise_left_shift": "bitwise_left_shift",
    "bitwise_right_shift": "bitwise_right_shift",
    # torch.eq and friends reject a Python scalar first; the operators take either side
    "equal": operator.eq,
    "not_equal": operator.ne,
    "less": operator.lt,
    "less_equal": operator.le,
    "greater": operator.gt,
    "greater_equal": operator.ge,
    # these torch functions take tensors only
    "fmod": _binary("fmod"),
    "maximum": _binary("maximum"),
    "minimum": _binary("minimum"),
    "fmax": _binary("fmax"),
    "fmin": _binary("fmin"),
    "arctan2": _binary("arctan2"),
    "atan2": _binary("arctan2"),
    "hypot": _binary("hypot"),
    "logaddexp": _binary("logaddexp"),
    "logaddexp2": _binary("logaddexp2"),
    "copysign": _binary("copysign"),
    "gcd": _binary("gcd"),
    "lcm": _binary("lcm"),
    "logical_and": _binary("logical_and"),
    "logical_or": _binary("logical_or"),
    "logical_xor": _binary("logical_xor"),
    "nextafter": _same_dtype("nextafter"),
    "heaviside": _heaviside,
    "ldexp": _ldexp,
    # reductions: torch.sum, amax, argmax... take numpy's axis/keepdims keywords natively
    "sum": _sum,
    "prod": _prod,
    "mean": _mean,
    "std": _std,
    "var": _var,
    "max": "amax",
    "min": "amin",
    "amax": "amax",
    "amin": "amin",
    "argmax": "argmax",
    "argmin": "argmin",
    "any": _any,
    "all": _all,
    "cumsum": _cumulative(torch.cumsum),
    "cumprod": _cumulative(torch.cumprod),
    "count_nonzero": _count_nonzero,
    "median": _median,
    "ptp": _ptp,
    "nansum": "nansum",
    "quantile": _quantile,
    "nanquantile": functools.partial(_quantile, _nan=True),
    "percentile": _percentile,
    "logsumexp": _logsumexp,
    # shape and indexing
    "reshape": _reshape,
    "ravel": "ravel",
    "transpose": _transpose,
    "permute_dims": _transpose,
    "moveaxis": "moveaxis",
    "swapaxes": "swapaxes",
    "expand_dims": _expand_dims,
    "squeeze": _squeeze,
    "concatenate": _concatenate,
    "concat": _concatenate,
    "stack": "stack",
    "hstack": "hstack",
    "vstack": "vstack",
    "dstack": "dstack",
    "column_stack": "column_stack",
    "atleast_1d": "atleast_1d",
    "atleast_2d": "atleast_2d",
    "atleast_3d": "atleast_3d",
    "split": _split,
    "array_split": _array_split,
    "tile": _tile,
    "repeat": _repeat,
    "flip": _flip,
    "fliplr": "fliplr",
    "flipud": "flipud",
    "rot90": alias("rot90", axes="dims"),
    "roll": alias("roll", shift="shifts", axis="dims"),
    "pad": _pad,
    "broadcast_to": "broadcast_to",
    "broadcast_arrays": "broadcast_tensors",
    "take": _take,
    "take_along_axis": _take_along_axis,
    "where": "where",
    "tril": alias("tril", k="diagonal"),
    "triu": alias("triu", k="diagonal"),
    "diag": alias("diag", k="diagonal"),
    "diagonal": alias("diagonal", axis1="dim1", axis2="dim2"),
    "trace": _trace,
    "nonzero": functools.partial(torch.nonzero, as_tuple=True),
    "argwhere": "argwhere",
    "flatnonzero": _flatnonzero,
    "sort": _sort,
    "argsort": _argsort,
    "unique": _unique,
    "searchsorted": _searchsorted,
    "digitize": _digitize,
    "bincount": "bincount",
    "diff": "diff",
    "clip": _clip,
    "isclose": _isclose,
    "allclose": _allclose,
    "array_equal": _array_equal,
    # products
    "einsum": "einsum",
    "tensordot": _tensordot,
    "matmul": "matmul",
    "dot": _dot,
    "vdot": _vdot,
    "inner": "inner",
    "outer": _outer,
    "kron": "kron",
    "cross": alias("linalg.cross", axis="dim"),
    # linalg: torch.linalg returns numpy's result order (Q, R), (U, S, Vh), (w, v)...
    "linalg.qr": _qr,
    "linalg.svd": _svd,
    "linalg.svdvals": "linalg.svdvals",
    "linalg.eigh": "linalg.eigh",
    "linalg.eigvalsh": "linalg.eigvalsh",
    "linalg.eig": _eig,
    "linalg.eigvals": _eigvals,
    "linalg.solve": _solve,
    "linalg.inv": "linalg.inv",
    "linalg.pinv": _pinv,
    "linalg.det": _det,
    "linalg.slogdet": "linalg.slogdet",
    "linalg.norm": _norm,
    "linalg.cholesky": "linalg.cholesky",
    "linalg.lstsq": _lstsq,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.matrix_power": "linalg.matrix_power",
    "linalg.multi_dot": "linalg.multi_dot",
    "linalg.cond": "linalg.cond",
    "linalg.tensorinv": "linalg.tensorinv",
    "linalg.tensorsolve": alias("linalg.tensorsolve", axes="dims"),
    "linalg.expm": "linalg.matrix_exp",
    "linalg.lu": _lu,
    "linalg.householder_product": "linalg.householder_product",
    # fft: 1-D transforms take numpy's ``axis`` natively; n-D ones call ``axes`` ``dim``
    "fft.fft": "fft.fft",
    "fft.ifft": "fft.ifft",
    "fft.rfft": "fft.rfft",
    "fft.irfft": "fft.irfft",
    "fft.hfft": "fft.hfft",
    "fft.ihfft": "fft.ihfft",
    "fft.fft2": alias("fft.fft2", axes="dim"),
    "fft.ifft2": alias("fft.ifft2", axes="dim"),
    "fft.rfft2": alias("fft.rfft2", axes="dim"),
    "fft.irfft2": alias("fft.irfft2", axes="dim"),
    "fft.fftn": alias("fft.fftn", axes="dim"),
    "fft.ifftn": alias("fft.ifftn", axes="dim"),
    "fft.rfftn": alias("fft.rfftn", axes="dim"),
    "fft.irfftn": alias("fft.irfftn", axes="dim"),
    "fft.fftfreq": "fft.fftfreq",
    "fft.rfftfreq": "fft.rfftfreq",
    "fft.fftshift": alias("fft.fftshift", axes="dim"),
    "fft.ifftshift": alias("fft.ifftshift", axes="dim"),
    # random: one generator kept in this module (see Generator)
    "random.seed": _seed,
    "random.default_rng": Generator,
    "random.normal": _random_fn("normal"),
    "random.standard_normal": _random_fn("standard_normal"),
    "random.uniform": _random_fn("uniform"),
    "random.integers": _random_fn("integers"),
    "random.permutation": _random_fn("permutation"),
    "random.random": _random_fn("random"),
    "random.choice": _random_fn("choice"),
    "random.exponential": _random_fn("exponential"),
    "random.gamma": _random_fn("gamma"),
    "random.beta": _random_fn("beta"),
    "random.poisson": _random_fn("poisson"),
    "random.binomial": _random_fn("binomial"),
    "random.rand": _rand,
    "random.randn": _randn,
    "random.randint": _randint,
    # scipy
    "scipy.special.erf": "special.erf",
    "scipy.special.erfc": "special.erfc",
    "scipy.special.erfinv": "special.erfinv",
    "scipy.special.erfcx": "special.erfcx",
    "scipy.special.gammaln": "special.gammaln",
    "scipy.special.gammainc": "special.gammainc",
    "scipy.special.gammaincc": "special.gammaincc",
    "scipy.special.digamma": "special.digamma",
    "scipy.special.psi": "special.psi",
    "scipy.special.polygamma": "special.polygamma",
    "scipy.special.multigammaln": "special.multigammaln",
    "scipy.special.xlogy": "special.xlogy",
    "scipy.special.xlog1py": "special.xlog1py",
    "scipy.special.entr": "special.entr",
    "scipy.special.ndtr": "special.ndtr",
    "scipy.special.ndtri": "special.ndtri",
    "scipy.special.log_ndtr": "special.log_ndtr",
    "scipy.special.i0": "special.i0",
    "scipy.special.i0e": "special.i0e",
    "scipy.special.i1": "special.i1",
    "scipy.special.i1e": "special.i1e",
    "scipy.special.j0": "special.bessel_j0",
    "scipy.special.j1": "special.bessel_j1",
    "scipy.special.y0": "special.bessel_y0",
    "scipy.special.y1": "special.bessel_y1",
    "scipy.special.k0": "special.modified_bessel_k0",
    "scipy.special.k1": "special.modified_bessel_k1",
    "scipy.special.k0e": "special.scaled_modified_bessel_k0",
    "scipy.special.k1e": "special.scaled_modified_bessel_k1",
    "scipy.special.zeta": _zeta,
    "scipy.special.logsumexp": _logsumexp,
    "scipy.special.expit": "special.expit",
    "scipy.special.logit": "special.logit",
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
    "scipy.linalg.expm": "linalg.matrix_exp",
    "scipy.linalg.solve_triangular": _solve_triangular,
    "scipy.linalg.cho_factor": _cho_factor,
    "scipy.linalg.cho_solve": _cho_solve,
    "scipy.linalg.lu": _lu,
    "scipy.linalg.lu_factor": _lu_factor,
    "scipy.linalg.lu_solve": _lu_solve,
}
