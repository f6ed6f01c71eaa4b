"""torch: medians, quantiles, histograms and counting.

torch's ``median`` and ``nanmedian`` return the lower of the two middle values
(numpy averages them), its ``quantile`` reduces one axis at most and its
``histogram`` has other defaults: the adapters sort or collapse the reduced axes
themselves. The backend method list's ``histogram1d`` and ``bincount_fixed``
(layouts as the composed versions in ``translations/_composed/statistics.py``) are
torch's fast kernels: a batched ``searchsorted`` with one flat ``index_add``, and
``scatter_add_``.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import torch
from dispatch.translations._adapters import empty_axes
from dispatch.translations._composed import statistics as _statistics
from dispatch.translations._composed._common import _combined as _combined_size
from dispatch.translations._composed._covariance import corrcoef, cov
from dispatch.translations._keywords import no_out
from dispatch.translations.torch._common import _axes, _inexact, _ints, _promote, _tensor
from dispatch.translations.torch.control import _jit_in_progress
from torch import Tensor


def _collapse(a: Tensor, axis: Any) -> tuple[Tensor, tuple[int, ...]]:
    """The axes to reduce moved to the end as one axis, and the keepdims shape."""
    if axis is None:
        return a.reshape(-1), (1,) * a.ndim
    axes = _axes(axis, a.ndim)
    keep = [d for d in range(a.ndim) if d not in axes]
    n = math.prod([a.shape[d] for d in axes])  # a list: dynamo cannot prod a generator
    moved = a.permute(*keep, *axes).reshape(*(a.shape[d] for d in keep), n)
    kshape = tuple(1 if d in axes else a.shape[d] for d in range(a.ndim))
    return moved, kshape


def _median(a: Tensor, axis: Any = None, out: None = None, overwrite_input: bool = False,
            keepdims: bool = False) -> Tensor:
    # torch.median returns the lower of the two middle values; numpy their mean
    no_out("median", "torch", out)
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
    no_out("nanquantile" if _nan else "quantile", "torch", out)
    a = _inexact(a)
    q = _tensor(q, a).to(a.dtype)  # q as float64 first: no float32 rounding of 0.1
    flat, kshape = _collapse(a, axis)
    fn = torch.nanquantile if _nan else torch.quantile
    res = fn(flat, q, dim=-1, interpolation=method)
    return res.reshape(q.shape + kshape) if keepdims else res


def _nanmedian(a: Tensor, axis: Any = None, out: None = None, overwrite_input: bool = False,
               keepdims: bool = False) -> Tensor:
    # torch.nanmedian returns the lower of the two middle values and needs an int dim;
    # numpy averages them: the nan-skipping 0.5 quantile
    no_out("nanmedian", "torch", out)
    return _quantile(a, 0.5, axis, keepdims=keepdims, _nan=True)


def _percentile(a: Tensor, q: Any, axis: Any = None, out: None = None,
                overwrite_input: bool = False, method: str = "linear",
                keepdims: bool = False) -> Tensor:
    no_out("percentile", "torch", out)
    q = _tensor(q, a)
    if not (q.is_floating_point() or q.is_complex()):
        q = q.to(torch.float64)  # numpy divides an integer q in float64, not in float32
    return _quantile(a, q / 100, axis, method=method, keepdims=keepdims)


def _histogram(a: Tensor, bins: Any = 10, range: Any = None, density: Any = None,
               weights: Any = None) -> tuple[Tensor, Tensor]:
    # torch.histogram has 100 bins by default, float counts and a ``weight`` keyword;
    # numpy's edges are a float64 linspace cast to the data's float type, and each value
    # goes to the bin whose edges hold it (an interior edge opens the bin on its right)
    x = _inexact(a).reshape(-1)
    if isinstance(bins, (int, np.integer)):
        if range is not None:
            lo, hi = float(range[0]), float(range[1])
        elif x.numel():
            lo, hi = x.min().item(), x.max().item()
        else:
            lo, hi = 0.0, 1.0
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = torch.as_tensor(np.linspace(lo, hi, int(bins) + 1), device=x.device).to(x.dtype)
    else:
        edges = _tensor(bins, x)
    keep = (x >= edges[0]) & (x <= edges[-1])
    idx = torch.searchsorted(edges.to(x.dtype), x[keep], right=True) - 1
    idx = idx.clamp(max=edges.numel() - 2)  # the last bin also holds its right edge
    w = None if weights is None else _tensor(weights, x).reshape(-1)[keep]
    hist = torch.bincount(idx, weights=w, minlength=edges.numel() - 1)
    if w is not None:
        hist = hist.to(w.dtype)
    if density:
        hist = hist.to(torch.float64) / hist.sum() / torch.diff(edges).to(torch.float64)
    return hist, edges


def _digitize(x: Any, bins: Any, right: bool = False) -> Tensor:
    # torch.bucketize counts from the other side and needs increasing bins
    x, bins = _promote(x, bins)
    side = "left" if right else "right"
    if len(bins) > 1 and bool((bins[1:] <= bins[:-1]).all()) and bins[0] > bins[-1]:
        return len(bins) - torch.searchsorted(bins.flip(0), x, side=side)
    return torch.searchsorted(bins, x, side=side)


def _histogram1d(values: Tensor, weights: Any, bin_edges: Any) -> Tensor:
    # one batched searchsorted and one flat index_add, instead of a bincount per row
    values, bin_edges = _promote(values, bin_edges)
    (batch_e, edges), (batch_v, n) = _ints(bin_edges.shape), _ints(values.shape)
    nbins = edges - 1
    w = None if weights is None else _tensor(weights, values)
    batch = _combined_size(batch_v, batch_e, *(() if w is None else (int(w.shape[0]),)))
    v = values.expand(batch, n).contiguous()
    e = bin_edges.expand(batch, edges).contiguous()
    slot = torch.searchsorted(e, v, right=True) - 1
    slot = torch.where(v == e[:, -1:], nbins - 1, slot)  # the last bin is closed
    valid = (slot >= 0) & (slot < nbins)
    offset = torch.arange(0, batch * nbins, nbins, device=v.device)[:, None]
    flat = torch.where(valid, slot + offset, batch * nbins).reshape(-1)
    if w is None:
        w = torch.ones((), dtype=torch.int64, device=v.device)
    elif w.dtype is torch.bool:
        w = w.to(torch.int64)
    w = w.expand(batch, n).reshape(-1)
    out = torch.zeros(batch * nbins + 1, dtype=w.dtype, device=v.device)
    return out.index_add_(0, flat, w)[:-1].reshape(batch, nbins)


def _bincount_fixed_torch(x: Any, weights: Any, bins: int, x_sorted: bool = False) -> Any:
    # scatter_add_ into zeros is torch's fastest 1-D bincount (faster than
    # torch.bincount) and keeps the weights' dtype; it raises on out-of-range
    # values (CPU), which then go to a spare bin that is cut off
    x = x.to(torch.int64)
    w = torch.ones_like(x) if weights is None else weights
    if w.dtype == torch.bool:
        w = w.to(torch.int64)
    if x.device.type == "cpu":  # CUDA kernels assert instead of raising
        try:
            return torch.zeros(bins, dtype=w.dtype, device=w.device).scatter_add_(0, x, w)
        except RuntimeError:
            pass
    x = torch.where((x >= 0) & (x < bins), x, bins)
    out = torch.zeros(bins + 1, dtype=w.dtype, device=w.device)
    return out.scatter_add_(0, x, w)[:bins]


_FLOATS = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})


def _moments(x: Any, axes: Any, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    # one pass of torch.var_mean on float tensors (keras's moments, docs/vocabulary.md)
    if isinstance(x, Tensor) and x.dtype in _FLOATS:
        dims = (axes,) if isinstance(axes, int) else tuple(axes)
        var, mean = torch.var_mean(x, dim=dims, correction=0, keepdim=keepdims)
        return mean, var
    return _statistics.moments(x, axes, keepdims)


def _normalize(x: Any, axis: int = -1, order: int = 2, epsilon: float | None = None) -> Tensor:
    # torch.nn.functional.normalize is x / max(norm, eps), keras's formula (p as a float:
    # an int p takes a slower path)
    if isinstance(x, Tensor) and x.dtype in _FLOATS and type(order) is int and order >= 1:
        return torch.nn.functional.normalize(
            x, p=float(order), dim=axis, eps=1e-7 if epsilon is None else float(epsilon))
    return _statistics.normalize(x, axis, order, epsilon)


def _segment(name: str) -> Any:
    # index_add_ / scatter_reduce_ along the first axis, the out-of-range ids dropped
    # first (torch raises on them); empty segments hold segment_max's lowest value,
    # segment_min's highest, segment_prod's 1
    fallback = getattr(_statistics, name)
    reduce = {"segment_max": "amax", "segment_min": "amin"}.get(name, "prod")  # sum: unused

    def fill_of(dtype: torch.dtype) -> Any:
        floats = dtype.is_floating_point
        return {  # empty segments: the lowest value, the highest, 1
            "segment_max": -math.inf if floats else torch.iinfo(dtype).min,
            "segment_min": math.inf if floats else torch.iinfo(dtype).max,
            "segment_prod": 1,
        }[name]

    def segment(data: Any, segment_ids: Any, num_segments: Any = None,
                sorted: bool = False) -> Tensor:
        if not (isinstance(data, Tensor) and isinstance(segment_ids, Tensor)
                and segment_ids.dtype in _INT_IDS and data.dtype in _SEGMENT_DATA
                and data.ndim and segment_ids.ndim == 1
                and data.shape[0] == segment_ids.shape[0]):
            return fallback(data, segment_ids, num_segments, sorted)
        if num_segments is None:
            num_segments = int(segment_ids.max()) + 1 if segment_ids.numel() else 0
        n = int(num_segments)
        shape = (n,) if data.ndim == 1 else (n, *data.shape[1:])
        if name == "segment_sum":
            if data.is_cpu:
                # on the CPU index_add_ checks every id (IndexError, RuntimeError): the
                # common case, all in range, needs no pass over the ids of its own
                try:
                    return data.new_zeros(shape).index_add_(0, segment_ids, data)
                except (IndexError, RuntimeError):
                    pass
            valid = (segment_ids >= 0) & (segment_ids < n)
            if not bool(valid.all()):
                data, segment_ids = data[valid], segment_ids[valid]
            return torch.zeros(shape, dtype=data.dtype, device=data.device).index_add_(
                0, segment_ids, data)
        fill = fill_of(data.dtype)
        index = segment_ids if data.ndim == 1 else \
            segment_ids.reshape(-1, *(1,) * (data.ndim - 1)).expand_as(data)
        if data.is_cpu and not (_is_compiling() or _jit_in_progress()):
            # on the CPU scatter_reduce_ checks every id (RuntimeError): the common case,
            # all in range, needs no pass over the ids of its own
            try:
                return data.new_full(shape, fill).scatter_reduce_(0, index, data, reduce)
            except (IndexError, RuntimeError):
                pass
        # ids out of range go to one extra row, cut off after (no branch on the values:
        # a compiler keeps one graph)
        valid = (segment_ids >= 0) & (segment_ids < n)
        index = torch.where(valid.reshape(index.shape[:1] + (1,) * (data.ndim - 1)), index, n)
        out = torch.full((n + 1, *shape[1:]), fill, dtype=data.dtype, device=data.device)
        return out.scatter_reduce_(0, index, data, reduce)[:n]

    segment.__name__ = segment.__qualname__ = "_" + name
    return segment


_INT_IDS = frozenset({torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8})
# the data the kernels take: every dtype but the booleans and the complex ones
_SEGMENT_DATA = frozenset(d for d in vars(torch).values() if isinstance(d, torch.dtype)
                          and not d.is_complex and d is not torch.bool)
_is_compiling = torch.compiler.is_compiling


TABLE = {
    "moments": _moments,
    "segment_sum": _segment("segment_sum"),
    "segment_max": _segment("segment_max"),
    "segment_min": _segment("segment_min"),
    "segment_prod": _segment("segment_prod"),
    "normalize": _normalize,
    # axis=() is no axis (numpy), which _collapse cannot move to the end of a 0-d array
    # torch.cov and torch.corrcoef take neither y, rowvar, bias nor ddof, and keep
    # float32 data in float32: numpy's, written with do
    "cov": cov,
    "corrcoef": corrcoef,
    "median": empty_axes(_median),
    "quantile": empty_axes(_quantile),
    "nanquantile": empty_axes(functools.partial(_quantile, _nan=True)),
    "nanmedian": empty_axes(_nanmedian),
    "percentile": empty_axes(_percentile),
    "histogram": _histogram,
    "digitize": _digitize,
    "bincount": "bincount",
    # the backend method list: torch's bincount and histogram kernels
    "bincount_fixed": _bincount_fixed_torch,
    "histogram1d": _histogram1d,
}
