"""torch: take, where, sorting, searching, and the method list's scatter and gather.

torch's ``take`` only indexes the flattened tensor, ``sort`` returns values and
indices, ``where`` wants a bool tensor condition and ``unique`` has no
``return_index``; the adapters give numpy's results. The backend method list's
``scatter``, ``scatter_1d_scalar``, ``gather`` and ``searchsorted_batched`` are
torch's native kernels: every scatter becomes one flat 1-D ``index_put`` /
``scatter_add_`` / ``scatter_reduce``.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from dispatch.translations._adapters import take_mode as _take_mode
from dispatch.translations._composed._scatter import (
    _check_mode,
    scatter_layout,
    unbatched_forms,
)
from dispatch.translations._composed.devices import float_type
from dispatch.translations._keywords import check_sort, no_out
from dispatch.translations.torch._common import _axes, _dtype, _ints, _promote, _tensor
from dispatch.translations.torch.control import _jit_in_progress
from torch import Tensor

from dispatch.engine import alias


def _take(a: Tensor, indices: Any, axis: int | None = None, out: None = None,
          mode: str = "raise") -> Tensor:
    # torch.take only indexes the flattened tensor, index_select takes 1-D indices only
    no_out("take", "torch", out)
    mode = _take_mode(mode)
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
    try:
        picked = torch.index_select(a, axis, idx.reshape(-1))
    except RuntimeError as err:  # numpy's error type, at no cost when the indices fit
        raise IndexError(f"index out of bounds for axis {axis} with size {n}") from err
    return picked.reshape(a.shape[:axis] + idx.shape + a.shape[axis + 1 :])


def _take_along_axis(arr: Tensor, indices: Tensor, axis: int | None = -1) -> Tensor:
    # torch.take_along_dim flattens by default; numpy's default axis is the last one
    return torch.take_along_dim(arr, indices, dim=axis)


_torch_where = torch.where  # bound once: the common call skips a module attribute lookup


def _where(condition: Any, x: Any = None, y: Any = None) -> Any:
    # torch.where takes a bool tensor condition only; numpy any array-like (a Python
    # bool, a list, numbers read by truth value). The common call goes straight through.
    try:
        return _torch_where(condition, x, y)
    except (TypeError, RuntimeError):
        return _where_any(condition, x, y)


def _where_any(condition: Any, x: Any, y: Any) -> Any:
    if not isinstance(condition, Tensor):
        ref = x if isinstance(x, Tensor) else y
        device = ref.device if isinstance(ref, Tensor) else None
        condition = torch.as_tensor(np.asarray(condition, dtype=bool), device=device)
    elif condition.dtype is not torch.bool:
        condition = condition != 0
    if x is None and y is None:
        return torch.where(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return torch.where(condition, x, y)


def _select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    # torch.select picks one slice (another function); numpy's select takes, element by
    # element, the choice of the first true condition (in the choices' common dtype)
    choices = [_tensor(c) for c in choicelist]
    conds = [_tensor(c) for c in condlist]
    shape = torch.broadcast_shapes(*(t.shape for t in choices + conds))
    dtype = functools.reduce(torch.promote_types, [t.dtype for t in choices])
    result = torch.full(shape, default, dtype=dtype, device=choices[0].device)
    for cond, choice in zip(reversed(conds), reversed(choices), strict=True):
        result = torch.where(cond, choice.to(dtype), result)
    return result


def _flatnonzero(a: Tensor) -> Tensor:
    return torch.nonzero(a.reshape(-1)).reshape(-1)


def _sort(a: Tensor, axis: int | None = -1, kind: str | None = None, order: None = None, *,
          stable: bool | None = None) -> Tensor:
    # torch.sort returns (values, indices); numpy returns the values, and flattens for None
    stable = check_sort(kind, order, stable)
    if axis is None:
        a, axis = a.reshape(-1), 0
    return torch.sort(a, dim=axis, stable=stable).values


def _argsort(a: Tensor, axis: int | None = -1, kind: str | None = None, order: None = None,
             *, stable: bool | None = None) -> Tensor:
    # always stable, so that ties come out in numpy's order (a stable sort's indices are
    # numpy's answer for every kind); numpy's checks of kind, order and stable first
    check_sort(kind, order, stable)
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


def _isin(element: Any, test_elements: Any, assume_unique: bool = False,
          invert: bool = False, *, kind: Any = None) -> Tensor:
    # torch.isin refuses bool tensors and knows no ``kind`` (numpy's speed hint, checked
    # as numpy checks it)
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None or 'sort' or 'table'.")
    element, test_elements = _promote(element, test_elements)
    if element.dtype is torch.bool:
        element, test_elements = element.to(torch.uint8), test_elements.to(torch.uint8)
    return torch.isin(element, test_elements, assume_unique=assume_unique, invert=invert)


# The backend method list's layouts (``scatter``: base (batch, spatial..., channels),
# indices (batch|1, n, d), values (batch|1, n|1, channels|1)...) are documented on the
# composed fallbacks in ``translations/_composed/``; these are torch's fast kernels for
# the same calls.


def _scatter(base_grid: Tensor, indices: Any, values: Any, mode: str = "update") -> Tensor:
    # every scatter becomes one flat 1-D scatter (index_add / scatter_reduce with the base
    # included / index_put): torch's fast kernels, which batched n-d index arrays miss
    _check_mode(mode)
    indices, values = _tensor(indices, base_grid), _tensor(values, base_grid)
    bshape, ishape, vshape = _ints(base_grid.shape), _ints(indices.shape), _ints(values.shape)
    spatial, channels, n, batch = scatter_layout(bshape, ishape, vshape)
    cells = math.prod(spatial)
    idx = indices.to(torch.int64)
    flat = idx[..., 0] if len(spatial) == 1 else _flat_index(idx, spatial)
    if batch > 1:
        flat = flat + torch.arange(0, batch * cells, cells, device=flat.device)[:, None]
    flat = flat[..., None]
    if channels > 1:
        flat = flat * channels + torch.arange(channels, device=flat.device)
    target = flat.expand(batch, n, channels).reshape(-1)
    vals = values.to(base_grid.dtype).expand(batch, n, channels).reshape(-1)
    base = base_grid.expand(batch, *bshape[1:]).reshape(-1)
    out = _scatter_1d_scalar_torch(base, target, vals, mode)
    return out.reshape(batch, *bshape[1:])


def _flat_index(idx: Tensor, spatial: Sequence[int]) -> Tensor:
    """C-order flat cell index of multi-indices stacked on the last axis."""
    if not spatial:
        return idx.sum(-1)
    strides = [math.prod(spatial[k + 1 :]) for k in range(len(spatial))]
    return (idx * torch.tensor(strides, device=idx.device)).sum(-1)


def _scatter_1d_scalar_torch(
    base_grid: Any, indices: Any, values: Any, mode: str = "update"
) -> Any:
    # scatter_add_ (on a copy) / index_put / scatter_reduce take the fast 1-D
    # kernels; scatter_add_ and scatter_reduce need int64 indices and no bools
    _check_mode(mode)
    n = indices.shape[0]
    values = torch.as_tensor(values, device=base_grid.device).to(base_grid.dtype)
    if values.shape != (n,):
        values = values.expand(n)
    if base_grid.dtype == torch.bool:
        out = _scatter_1d_scalar_torch(
            base_grid.to(torch.uint8), indices, values.to(torch.uint8),
            "max" if mode == "add" else mode,
        )
        return out.to(torch.bool)
    indices = indices.to(torch.int64)
    if mode == "update":
        return base_grid.index_put((indices,), values)
    if mode == "add":  # scatter_add_ on a copy beats index_add by ~20% on CPU
        return base_grid.clone().scatter_add_(0, indices, values)
    reduce = "amax" if mode == "max" else "amin"
    return base_grid.scatter_reduce(0, indices, values, reduce=reduce, include_self=True)


def _gather(values: Tensor, indices: Any, axis: int = 0) -> Tensor:
    # index_select is torch's fast gather but refuses negative indices; it raises before
    # writing anything, so the wrapping path (numpy's take) only runs when needed. CUDA
    # kernels assert instead of raising: wrap first there.
    if (isinstance(indices, Tensor) and indices.ndim == 1 and values.device.type == "cpu"
            and not _jit_in_progress()):  # an error caught inside a trace crashes torch
        with contextlib.suppress(IndexError, RuntimeError):
            return torch.index_select(values, axis, indices)
    return _take(values, indices, axis)


def _searchsorted_batched_torch(
    sorted_sequence: Any, search_values: Any, side: str = "left", dtype: str = "int32"
) -> Any:
    # torch.searchsorted is batched natively but wants equal leading dims
    if sorted_sequence.ndim > 1:
        lead = torch.broadcast_shapes(sorted_sequence.shape[:-1], search_values.shape[:-1])
        sorted_sequence = sorted_sequence.expand(*lead, sorted_sequence.shape[-1]).contiguous()
        search_values = search_values.expand(*lead, search_values.shape[-1]).contiguous()
    out = torch.searchsorted(sorted_sequence, search_values, side=side, out_int32=dtype == "int32")
    return out.to(getattr(torch, dtype))


def _top_k(x: Any, k: int, sorted: bool = True) -> tuple[Tensor, Tensor]:
    # torch.topk on real tensors (keras's top_k, docs/vocabulary.md); the composed one
    # for the rest and for its errors
    if isinstance(x, Tensor) and not x.is_complex() and x.dtype != torch.bool \
            and x.ndim and 0 <= k <= x.shape[-1]:
        values, indices = torch.topk(x, int(k), dim=-1, largest=True, sorted=True)
        return values, indices
    from dispatch.translations._composed.indexing import top_k

    return top_k(x, k, sorted)


def _one_hot(x: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> Tensor:
    # a comparison with arange: torch.nn.functional.one_hot raises on indices outside
    # [0, num_classes), where keras (and jax, tf) give a row of zeros
    if not (isinstance(x, Tensor) and x.dtype in _INT_INDICES):
        from dispatch.translations._composed.indexing import one_hot

        return one_hot(x, num_classes, axis, dtype)
    dt = _dtype(float_type() if dtype is None else dtype)
    out = (x.unsqueeze(-1) == _classes(int(num_classes), x.device)).to(dt)
    return out if axis == -1 else out.movedim(-1, axis)


_INT_INDICES = frozenset({torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8})
_CLASSES: dict[tuple, Tensor] = {}  # arange(n) by (n, device), for one_hot and multi_hot


def _classes(n: int, device: Any) -> Tensor:
    """``torch.arange(n, device=device)``, kept from an earlier call outside a compiler's
    trace (a small arange costs as much as a one_hot of a hundred indices)."""
    key = (n, device)
    classes = _CLASSES.get(key)
    if classes is None:
        classes = torch.arange(n, device=device)
        if torch.compiler.is_compiling() or _jit_in_progress():
            return classes  # a traced value, not one to keep
        if len(_CLASSES) < 256:
            _CLASSES[key] = classes
    return classes



def _in_top_k(targets: Any, predictions: Any, k: int) -> Tensor:
    # the composed rule on torch's operations (torch has no in_top_k kernel)
    if not (isinstance(targets, Tensor) and isinstance(predictions, Tensor)
            and targets.dtype in _INT_INDICES and predictions.ndim == 2
            and not predictions.is_complex() and predictions.dtype != torch.bool
            and targets.shape == predictions.shape[:1]):
        from dispatch.translations._composed.indexing import in_top_k

        return in_top_k(targets, predictions, k)
    n = predictions.shape[-1]
    valid = (targets >= 0) & (targets < n)
    at = predictions.gather(-1, torch.where(valid, targets, 0).long().unsqueeze(-1))
    larger = (predictions > at).sum(-1)
    return valid & (larger < k) & (at[:, 0] == at[:, 0])


def _multi_hot(inputs: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> Tensor:
    if not (isinstance(inputs, Tensor) and inputs.dtype in _INT_INDICES and inputs.ndim):
        from dispatch.translations._composed.indexing import multi_hot

        return multi_hot(inputs, num_classes, axis, dtype)
    hot = inputs.unsqueeze(-1) == _classes(int(num_classes), inputs.device)
    out = hot.any(1 if inputs.ndim > 1 else 0).to(_dtype(float_type() if dtype is None
                                                         else dtype))
    return out if axis == -1 else out.movedim(-1, axis)

TABLE = {
    "top_k": _top_k,
    "in_top_k": _in_top_k,
    "multi_hot": _multi_hot,
    "one_hot": _one_hot,
    "take": _take,
    "take_along_axis": _take_along_axis,
    "where": _where,
    "select": _select,
    "diagonal": alias("diagonal", axis1="dim1", axis2="dim2"),
    "nonzero": functools.partial(torch.nonzero, as_tuple=True),
    "argwhere": "argwhere",
    "flatnonzero": _flatnonzero,
    "sort": _sort,
    "argsort": _argsort,
    "unique": _unique,
    "searchsorted": _searchsorted,
    "isin": _isin,  # torch's own beats the composed fallback
    # the backend method list, layouts and semantics as the composed names:
    # torch's 1-D scatter/gather kernels
    "scatter": unbatched_forms(_scatter),
    "scatter_1d_scalar": _scatter_1d_scalar_torch,
    "gather": _gather,
    "searchsorted_batched": _searchsorted_batched_torch,
}
