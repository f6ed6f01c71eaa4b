"""Helpers shared by the torch topic modules: dtypes, scalars and axes.

Private to the package: no ``TABLE`` here. Every adapter reads numpy-style dtype
names through :func:`_dtype`, turns Python scalars and lists into tensors with
:func:`_tensor` (numpy 2's weak scalars: a Python float beside a float32 tensor
stays float32) and promotes two operands with :func:`_promote`.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import Tensor

_DTYPES: dict[Any, torch.dtype] = {
    name: getattr(torch, name)
    for name in (
        "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
        "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    )
}


# numpy's dtypes and scalar types of the same names
_DTYPES.update({np.dtype(n): t for n, t in _DTYPES.items() if n != "bfloat16"})
_DTYPES.update({np.dtype(n).type: t for n, t in _DTYPES.items() if isinstance(n, str)
                and n != "bfloat16"})


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
    # remembered for the next call, except inside torch.compile's trace: the write would
    # be a side effect of the compiled code, which dynamo cannot replay with a numpy
    # dtype as the key (numpy's dtypes and scalar types are in the table already)
    if not torch.compiler.is_compiling():
        with contextlib.suppress(TypeError):  # unhashable spellings are converted each time
            _DTYPES[dtype] = found
    return found


#: the unsigned dtypes torch stores but hardly computes with: on the CPU it has no
#: arange, eye, flip, tril/triu or sum kernels for them (torch 2.x). The adapters of
#: those move the data as the signed dtype of the same width (:func:`_signed`) or
#: compute in int64 and cast, which keeps numpy's modular arithmetic
_UNSIGNED_WIDE: dict[torch.dtype, torch.dtype] = {
    torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64,
}


_UNSIGNED = frozenset((torch.uint8, *_UNSIGNED_WIDE))


def _accumulator(a: Any, dtype: Any) -> Any:
    """numpy's dtype of a sum or product of ``a`` when none is given: uint64 for the
    unsigned dtypes (torch's integer accumulators are int64, of another kind)."""
    return torch.uint64 if dtype is None and getattr(a, "dtype", None) in _UNSIGNED else dtype


def _signed(a: Tensor) -> Tensor:
    """``a`` itself, or, for torch's scarcely supported unsigned dtypes, a view of its
    bits as the signed dtype of the same width (for functions that only move
    elements: view the result back with ``.view(a.dtype)``)."""
    signed = _UNSIGNED_WIDE.get(a.dtype)
    return a if signed is None else a.view(signed)


def _int64_bits(a: Tensor) -> Tensor:
    """``a`` as int64 for sums and products in a uint16/32/64 dtype: int64 arithmetic
    wraps as the unsigned one does, and the result's cast back keeps its low bits."""
    return a.view(torch.int64) if a.dtype == torch.uint64 else a.to(torch.int64)


def _inexact(a: Tensor) -> Tensor:
    # torch refuses means, medians and norms of integers; numpy computes them in a
    # float, whose width is the library's default (docs/vocabulary.md, dtypes), as for
    # torch.sqrt of an integer tensor
    if a.is_floating_point() or a.is_complex():
        return a
    return a.to(torch.get_default_dtype())


def _tensor(x: Any, like: Tensor | None = None) -> Tensor:
    """``x`` as a tensor (on ``like``'s device), leaving tensors as they are.

    Python scalars and lists go through numpy so that a float keeps all its digits
    (float64); as a 0-d tensor it still takes the other operand's float dtype.
    """
    if isinstance(x, Tensor):
        return x
    if like is not None and _SCALAR_KIND.get(type(x), 4) <= _dtype_kind(like.dtype):
        # a weak Python scalar (numpy 2): it takes the tensor's dtype when its kind fits,
        # also beside a 0-d tensor (where torch would promote 0-d float32 + 0.5 to float64)
        return torch.as_tensor(x, dtype=like.dtype, device=like.device)
    return torch.as_tensor(np.asarray(x), device=None if like is None else like.device)


_SCALAR_KIND = {bool: 0, int: 1, float: 2, complex: 3}


def _dtype_kind(dtype: torch.dtype) -> int:
    if dtype is torch.bool:
        return 0
    return 3 if dtype.is_complex else 2 if dtype.is_floating_point else 1


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


def _float_type() -> torch.dtype:
    from dispatch.engine import get_precision

    bits = get_precision()
    return torch.get_default_dtype() if bits is None else _DTYPES[f"float{bits}"]


def _ints(shape: Any) -> tuple[int, ...]:
    # a traced tensor's sizes are tensors; jit_compile traces per shape, so Python ints
    # are right for every call of the trace
    return tuple(int(s) for s in shape)


def _functorch_wrapped(t: Tensor) -> bool:
    return torch._C._functorch.is_functorch_wrapped_tensor(t)


def _detach_tree(tree: Any) -> Any:
    from dispatch.engine import tree_map

    return tree_map(lambda t: t.detach() if isinstance(t, Tensor) else t, tree,
                    is_leaf=lambda t: isinstance(t, Tensor))
