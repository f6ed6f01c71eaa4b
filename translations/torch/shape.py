"""torch: reshaping, transposing, joining, splitting, tiling and padding.

torch spells several of these differently (``cat``, ``permute``,
``tensor_split``, ``repeat_interleave``, ``nn.functional.pad``) or takes other
arguments (``torch.transpose`` swaps two axes, ``torch.squeeze`` keeps axes that
are not of length 1, ``torch.flip`` needs the axes); the adapters give numpy's
signatures and errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from dispatch.translations._adapters import basic_block
from dispatch.translations._adapters import ravel_order as _ravel_order
from dispatch.translations._composed import shape as _composed_shape
from dispatch.translations._keywords import cast_all, check_order, check_view
from dispatch.translations.torch._common import _axes, _shape, _signed
from dispatch.translations.torch.devices import _asarray
from torch import Tensor

from dispatch.engine import alias, do, kernels

# the torch functions of the common calls, bound once: a module attribute lookup per
# call costs about 20 ns, 3% of a reshape of a small tensor
_torch_reshape = torch.reshape
_torch_permute = torch.permute


def _reshape(a: Tensor, shape: Any, order: str = "C", copy: bool | None = None) -> Tensor:
    # torch.reshape takes no bare int shape (numpy's reshape(x, -1)); the Tensor.reshape
    # method does, but costs twice as much per call. The common call (a sequence, order
    # "C", no copy) is torch.reshape and one test. ``copy`` is keyword-only in numpy and
    # may be passed by position here: a keyword-only parameter keeps CPython from
    # specialising the call, which costs about 30 ns a call (5% of a small reshape).
    if order == "C" and copy is None and type(shape) is not int:
        return _torch_reshape(a, shape)
    shape = (shape,) if type(shape) is int else tuple(shape)
    o = order.upper() if isinstance(order, str) else order
    if o == "A":  # numpy's 'A': Fortran order for a Fortran-contiguous tensor
        o = "F" if (a.ndim > 1 and not a.is_contiguous()
                    and a.permute(_REVERSED[a.ndim]).is_contiguous()) else "C"
    if o not in ("C", "F"):
        check_order(order)  # numpy's ValueError for an order it does not know
        raise ValueError(f"order {order!r} is not permitted for reshaping")
    if copy is False:  # numpy's refusal where the new shape is no view of ``a``
        check_view(a.shape, a.stride(), shape, o)
    out = _torch_reshape(a, shape) if o == "C" else _column_major(a, shape)
    # numpy's copy=True: a new array, never a view of ``a``
    return out.clone() if copy else out


def _column_major(a: Tensor, shape: tuple) -> Tensor:
    """numpy's ``reshape(a, shape, order='F')``: the C reshape of the reversed axes."""
    out = _torch_reshape(a.permute(_REVERSED[a.ndim]), shape[::-1])
    return out.permute(_REVERSED[out.ndim])


_REVERSED = [tuple(range(n - 1, -1, -1)) for n in range(65)]


def _transpose(a: Tensor, axes: tuple[int, ...] | list[int] | None = None) -> Tensor:
    # torch.transpose swaps two axes; numpy's permutes all of them (reversed by default)
    return _torch_permute(a, _REVERSED[a.ndim] if axes is None else axes)


# a tensor and a tuple, list or torch.Size: torch.reshape, as the first branch of
# _reshape; a tensor and the axes: torch.permute, as _transpose
_reshape = kernels(_reshape, {(Tensor, t): _torch_reshape for t in (tuple, list, torch.Size)})
_transpose = kernels(_transpose, {(Tensor, tuple): _torch_permute, (Tensor, list): _torch_permute})


def _roll(a: Tensor, shift: Any, axis: Any = None) -> Tensor:
    # torch wants one shift per axis; numpy applies an int shift to each axis of a tuple
    if isinstance(axis, (tuple, list)) and isinstance(shift, (int, np.integer)):
        shift = (int(shift),) * len(axis)
    return torch.roll(a, shift, axis)


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


def _atleast(fn: Callable) -> Callable:
    def atleast(*arys: Any) -> Any:
        # numpy reads one list argument as one array; torch reads it as several
        # arrays and returns those very tensors
        if len(arys) == 1 and isinstance(arys[0], (list, tuple)):
            return fn(_asarray(arys[0]))
        return fn(*arys)

    atleast.__name__ = atleast.__qualname__ = "_" + fn.__name__
    return atleast


def _ravel(a: Any, order: Any = "C") -> Tensor:
    # torch.ravel has no order: 'F' reads the axes reversed; 'A' reads a Fortran-
    # contiguous tensor in Fortran order and 'K' follows the strides, as numpy's do
    # (torch strides are never negative)
    order = _ravel_order(order)
    a = _asarray(a)
    reverse = tuple(reversed(range(a.ndim)))
    if order == "A" and not a.is_contiguous() and a.permute(reverse).is_contiguous():
        order = "F"
    if order == "F":
        return a.permute(reverse).reshape(-1)
    if order == "K":
        axes = sorted(range(a.ndim), key=lambda d: -a.stride(d))
        return a.permute(axes).reshape(-1)
    return torch.ravel(a)


def _concatenate(arrays: list[Tensor] | tuple[Tensor, ...], axis: int | None = 0, out: Any = None,
                 dtype: Any = None, casting: str = "same_kind") -> Tensor:
    # torch.cat has no axis=None (flatten first), no dtype and no casting rule: numpy's
    # rule casts the inputs to dtype (or out's dtype) first; torch.cat writes into out
    if dtype is not None or casting != "same_kind":
        if dtype is not None and out is not None:
            raise TypeError("concatenate() only takes `out` or `dtype` as an argument, "
                            "but both were provided.")
        arrays = cast_all(arrays, dtype if out is None else do("dtype_of", out), casting)
    if axis is None:
        arrays, axis = [a.reshape(-1) for a in arrays], 0
    return torch.cat(arrays, dim=axis) if out is None else torch.cat(arrays, dim=axis, out=out)


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


# counts torch.repeat_interleave refuses and numpy casts safely to its index type
_SHORT_COUNTS = frozenset({torch.bool, torch.int8, torch.int16, torch.uint8, torch.uint16,
                           torch.uint32, torch.uint64})


def _repeat(a: Tensor, repeats: Any, axis: int | None = None) -> Tensor:
    # torch.repeat_interleave takes an int or a tensor of repeats, not a list, and
    # counts of int32 or int64 only (numpy takes any integer dtype)
    if not isinstance(repeats, (int, np.integer, Tensor)):
        repeats = torch.as_tensor(repeats, device=a.device)
    if isinstance(repeats, Tensor) and repeats.dtype in _SHORT_COUNTS:
        repeats = repeats.to(torch.int64)
    return torch.repeat_interleave(a, repeats, dim=axis)


def _flip(m: Tensor, axis: Any = None) -> Tensor:
    # torch.flip needs the axes (numpy flips all of them by default) and has no
    # uint16/32/64 kernel: those go as their signed bits
    axes = tuple(range(m.ndim)) if axis is None else _axes(axis, m.ndim)
    return torch.flip(_signed(m), axes).view(m.dtype)


def _bits(fn: Callable) -> Callable:
    # a torch function that only moves elements, for uint16/32/64 too (their bits)
    def moved(m: Tensor, *args: Any) -> Tensor:
        return fn(_signed(m), *args).view(m.dtype)

    moved.__name__ = moved.__qualname__ = fn.__name__
    return moved


def _plain(value: Any) -> Any:
    """``value`` with numpy arrays, numpy scalars and tuples as (nested) lists and
    Python numbers."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def _pairs(value: Any, ndim: int, what: str) -> list[tuple[Any, Any]]:
    """``value`` broadcast to ``ndim`` (before, after) pairs, as
    ``np.broadcast_to(value, (ndim, 2))`` would, in plain Python: under
    torch.compile dynamo traces numpy calls as tensor operations, and a branch on
    their values is a graph break."""
    value = _plain(value)
    if not isinstance(value, list):
        return [(value, value)] * ndim
    if not any(isinstance(v, list) for v in value):
        value = [value]
    elif not all(isinstance(v, list) and not any(isinstance(w, list) for w in v)
                 for v in value) or len({len(v) for v in value}) != 1:
        raise ValueError(f"{what} must be a scalar, a pair or one pair per axis, got {value}")
    if len(value) not in (1, ndim) or len(value[0]) not in (1, 2):
        shape = (len(value), len(value[0]))
        raise ValueError(f"{what} of shape {shape} cannot be broadcast to ({ndim}, 2)")
    pairs = [(v[0], v[-1]) for v in value]
    return pairs * ndim if len(pairs) == 1 else pairs


def _pad_widths(pad_width: Any, ndim: int) -> list[tuple[int, int]]:
    if isinstance(pad_width, Tensor):
        pad_width = pad_width.tolist()
    widths = [(_width(b), _width(f)) for b, f in _pairs(pad_width, ndim, "pad_width")]
    for b, f in widths:
        if b < 0 or f < 0:
            raise ValueError("index can't contain negative values")
    return widths


def _width(w: Any) -> int:
    if isinstance(w, bool) or not hasattr(w, "__index__"):
        raise TypeError(f"`pad_width` must be of integral type, got {w!r}")
    return w.__index__()


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
        values = _plain(values.tolist() if isinstance(values, Tensor) else values)
        if not isinstance(values, list):
            flat = [w for pair in reversed(widths) for w in pair]
            # the stub says float, the function takes any Python number
            return torch.nn.functional.pad(
                a, flat, mode="constant", value=values  # type: ignore[arg-type]
            )
        per_axis = _pairs(values, a.ndim, "constant_values")
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


def _splitter(fn: Any) -> Any:
    """torch's hsplit/vsplit: overloads on ``sections`` (int) or ``indices``
    (a sequence), so numpy's keyword ``indices_or_sections`` picks the overload."""

    def split(ary: Tensor, indices_or_sections: Any) -> Any:
        return list(fn(ary, indices_or_sections))  # torch gives a tuple, numpy a list

    split.__name__ = fn.__name__
    return split



# keras's slices (docs/vocabulary.md, "ML ops"): torch's basic indexing where the starts
# are ints and the block fits, clone() before a write; the composed ones otherwise
def _broadcast_arrays(*args: Any) -> tuple:
    try:
        return torch.broadcast_tensors(*args)
    except RuntimeError as err:
        try:  # shapes that do not broadcast: numpy's ValueError, which code catches
            torch.broadcast_shapes(*(a.shape for a in args))
        except RuntimeError:
            raise ValueError(
                f"shape mismatch: objects cannot be broadcast to a single shape ({err})"
            ) from None
        raise


def _slice(inputs: Any, start_indices: Any, shape: Any) -> Any:
    if isinstance(inputs, Tensor) and (at := basic_block(inputs.shape, start_indices,
                                                          shape)) is not None:
        return inputs[at]
    return _composed_shape.slice_(inputs, start_indices, shape)


def _slice_update(inputs: Any, start_indices: Any, updates: Any) -> Any:
    if isinstance(inputs, Tensor) and isinstance(updates, Tensor) \
            and (at := basic_block(inputs.shape, start_indices, updates.shape)) is not None:
        out = inputs.clone()
        out[at] = updates
        return out
    return _composed_shape.slice_update(inputs, start_indices, updates)


# scatter_update's integer index dtypes
_INDEX_DTYPES = frozenset(d for d in vars(torch).values() if isinstance(d, torch.dtype)
                          and not (d.is_floating_point or d.is_complex or d is torch.bool))


def _scatter_update(inputs: Any, indices: Any, updates: Any, reduction: Any = None) -> Any:
    if isinstance(inputs, Tensor) and isinstance(indices, Tensor) \
            and isinstance(updates, Tensor) and reduction in (None, "add") \
            and indices.dtype in _INDEX_DTYPES and indices.ndim == 2 \
            and indices.shape[1] <= inputs.ndim:
        # no conversion call where the dtypes already fit (each costs a tenth of the op)
        if indices.dtype is not torch.int64:
            indices = indices.long()
        if updates.dtype is not inputs.dtype:
            updates = updates.to(inputs.dtype)
        try:
            return inputs.index_put(tuple(indices.T), updates, accumulate=reduction == "add")
        except (IndexError, RuntimeError):
            pass  # the composed one raises its own IndexError
    return _composed_shape.scatter_update(inputs, indices, updates, reduction)

TABLE = {
    "slice": _slice,
    "slice_update": _slice_update,
    "scatter_update": _scatter_update,
    "reshape": _reshape,
    "ravel": _ravel,
    "transpose": _transpose,
    "permute_dims": _transpose,
    "moveaxis": "moveaxis",
    # numpy's keyword names (a positional call goes to torch's own names unchanged)
    "swapaxes": alias("swapaxes", axis1="axis0", axis2="axis1"),
    "expand_dims": _expand_dims,
    "squeeze": _squeeze,
    "concatenate": _concatenate,
    "concat": _concatenate,
    "stack": "stack",
    "hstack": "hstack",
    "vstack": "vstack",
    "row_stack": "vstack",
    "dstack": "dstack",
    "column_stack": "column_stack",
    "atleast_1d": _atleast(torch.atleast_1d),
    "atleast_2d": _atleast(torch.atleast_2d),
    "atleast_3d": _atleast(torch.atleast_3d),
    "split": _split,
    "array_split": _array_split,
    "tile": _tile,
    "repeat": _repeat,
    "flip": _flip,
    "fliplr": _bits(torch.fliplr),
    "flipud": _bits(torch.flipud),
    "rot90": alias("rot90", axes="dims"),
    "roll": _roll,
    "pad": _pad,
    "broadcast_to": alias("broadcast_to", shape="size"),
    "broadcast_arrays": _broadcast_arrays,
    "hsplit": _splitter(torch.hsplit),
    "vsplit": _splitter(torch.vsplit),
    # (not dsplit: torch's raises RuntimeError where numpy's raises ValueError, the
    # composed one splits with split above; not get_item: torch's indexing takes no
    # negative step and places split advanced indices after the slices)
}
