"""The slices of keras.ops (``slice``, ``slice_update``, ``scatter_update``) and their
unread forms, composed: a subtopic of shape that stands on its own, re-exported by
``shape.py`` (the topic whose table modules hold these names), so both paths import
them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed.reductions import _dt

from dispatch.engine import composed, do, is_array

# ---------------------------------------------------------------- slices (keras.ops)


def _readable_now(x: Any, read: bool) -> bool:
    """Whether the library array ``x`` may be read on the host: not while a compiler
    traces it, and not where reading it would compute it (``read=False``: dask)."""
    return read and bool(do("is_available", x))


def _starts(x: Any, start_indices: Any, sizes: Sequence[int], name: str,
            read: bool) -> list | None:
    """The start indices as Python ints, checked against the shape of ``x`` (``None``
    when they are library values that cannot be read now)."""
    shape = tuple(do("shape", x))
    if is_array(start_indices) and not isinstance(start_indices, np.ndarray):
        if not _readable_now(start_indices, read):
            return None
        start_indices = do("to_numpy", start_indices)
    elif not all(_readable_now(s, read) for s in start_indices
                 if is_array(s) and not isinstance(s, np.generic | np.ndarray)):
        return None
    starts = [int(s) for s in start_indices]
    if not len(starts) == len(sizes) == len(shape):
        raise ValueError(f"{name}: start_indices {starts} and the shape {tuple(sizes)} need "
                         f"one entry per axis of the input of shape {shape}")
    if any(s < 0 or s + n > d for s, n, d in zip(starts, sizes, shape, strict=True)):
        raise ValueError(f"{name}: a slice of shape {tuple(sizes)} at {starts} does not fit "
                         f"in the input of shape {shape}")
    return starts


@composed("slice")
def slice_(inputs: Any, start_indices: Any, shape: Sequence[int]) -> Any:
    """The block of ``inputs`` of shape ``shape`` that starts at ``start_indices``
    (one start per axis): ``inputs[s0:s0 + n0, s1:s1 + n1, ...]``.

    The block must fit (``ValueError`` otherwise, where the starts are known; traced
    starts are not checked). The result may share memory with ``inputs``, as numpy's
    basic slicing; ``inputs`` is never changed.

    Examples
    --------
    >>> import numpy as np
    >>> do("slice", np.arange(12).reshape(3, 4), (1, 1), (2, 2))
    array([[ 5,  6],
           [ 9, 10]])
    """
    return slice_unread(inputs, start_indices, shape, read=True)


def slice_unread(inputs: Any, start_indices: Any, shape: Sequence[int], *,
                 read: bool = False) -> Any:
    """``slice``; with ``read=False`` library-array starts are not read on the host
    (dask: that would compute them), so they are not checked."""
    sizes = [int(n) for n in shape]
    starts = _starts(inputs, start_indices, sizes, "slice", read)
    if starts is not None:
        return inputs[tuple(slice(s, s + n) for s, n in zip(starts, sizes, strict=True))]
    out = inputs  # traced starts: one take per axis
    for axis, n in enumerate(sizes):
        at = do("arange", n, dtype="int64", like=inputs) + start_indices[axis]
        out = do("take", out, at, axis=axis)
    return out


@composed("slice_update")
def slice_update(inputs: Any, start_indices: Any, updates: Any) -> Any:
    """A new array: ``inputs`` with the block at ``start_indices`` replaced by
    ``updates`` (of the same rank, cast to the dtype of ``inputs``), as
    ``out = inputs.copy(); out[s0:s0 + n0, ...] = updates``. ``inputs`` is never
    changed. The block must fit, as in ``slice``.

    Examples
    --------
    >>> import numpy as np
    >>> do("slice_update", np.zeros((3, 4)), (1, 2), np.ones((2, 2)))
    array([[0., 0., 0., 0.],
           [0., 0., 1., 1.],
           [0., 0., 1., 1.]])
    """
    return slice_update_unread(inputs, start_indices, updates, read=True)


def slice_update_unread(inputs: Any, start_indices: Any, updates: Any, *,
                        read: bool = False) -> Any:
    """``slice_update``; ``read`` as in :func:`slice_unread`."""
    if not is_array(updates):
        updates = do("asarray", np.asarray(updates), like=inputs)
    sizes = tuple(do("shape", updates))
    shape = tuple(do("shape", inputs))
    starts = _starts(inputs, start_indices, sizes, "slice_update", read)
    at = start_indices if starts is None else starts
    placed, mask = do("astype", updates, _dt(inputs)), None
    for axis, (n, d) in enumerate(zip(sizes, shape, strict=True)):
        pos = do("arange", d, dtype="int64", like=inputs) - at[axis]
        inside = do("logical_and", pos >= 0, pos < n)
        placed = do("take", placed, do("clip", pos, 0, max(n - 1, 0)), axis=axis)
        inside = do("reshape", inside, tuple(d if a == axis else 1 for a in range(len(shape))))
        mask = inside if mask is None else do("logical_and", mask, inside)
    return placed if mask is None else do("where", mask, placed, inputs)


_REDUCTIONS = {None: "update", "add": "add", "max": "max", "min": "min"}


@composed("scatter_update")
def scatter_update(inputs: Any, indices: Any, updates: Any, reduction: Any = None) -> Any:
    """A new array: ``inputs`` with ``out[tuple(indices[i])] = updates[i]``.

    ``indices`` has shape ``(N, k)``, ``k <= inputs.ndim`` (negative entries count from
    the end, as numpy's); ``updates`` has shape ``(N, *inputs.shape[k:])`` and is cast
    to the dtype of ``inputs``. ``reduction`` ``None`` writes (of duplicate indices one
    write wins, which one is the library's choice), ``'add'``, ``'max'`` and ``'min'``
    combine with the present values. ``inputs`` is never changed.

    Examples
    --------
    >>> import numpy as np
    >>> do("scatter_update", np.zeros((2, 3)), np.array([[0, 1], [1, 2]]), np.array([5., 7.]))
    array([[0., 5., 0.],
           [0., 0., 7.]])
    """
    return scatter_update_unread(inputs, indices, updates, reduction, read=True)


def scatter_update_unread(inputs: Any, indices: Any, updates: Any, reduction: Any = None, *,
                          read: bool = False) -> Any:
    """``scatter_update``; with ``read=False`` library-array indices are not read on the
    host (dask: that would compute them), so they are not checked against the shape."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"scatter_update: reduction must be one of {list(_REDUCTIONS)}, "
                         f"got {reduction!r}")
    host_indices = not is_array(indices) or isinstance(indices, np.ndarray)
    if host_indices:
        indices = do("asarray", np.asarray(indices), like=inputs)
    if do("dtype_of", indices).kind not in "iu":
        raise TypeError(f"scatter_update: indices must be integers; got dtype "
                        f"{do('get_dtype_name', indices)}")
    shape, ishape = tuple(do("shape", inputs)), tuple(do("shape", indices))
    if len(ishape) != 2 or ishape[1] > len(shape):
        raise ValueError(f"scatter_update: indices must have shape (N, k) with k <= "
                         f"{len(shape)}; got {ishape}")
    dims = do("asarray", np.array(shape[: ishape[1]], dtype=np.int64), like=inputs)
    indices = do("astype", indices, "int64")
    indices = do("where", indices < 0, indices + dims, indices)
    if host_indices or _readable_now(indices, read):
        host = np.asarray(do("to_numpy", indices))
        if np.any((host < 0) | (host >= np.array(shape[: ishape[1]], dtype=np.int64))):
            raise IndexError(f"scatter_update: an index is out of bounds for the input of "
                             f"shape {shape}")
    if not is_array(updates):
        updates = do("asarray", np.asarray(updates), like=inputs)
    updates = do("astype", updates, _dt(inputs))
    return do("scatter", inputs, indices, updates, mode=_REDUCTIONS[reduction])
