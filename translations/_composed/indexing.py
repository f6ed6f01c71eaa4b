"""Gather, scatter, masks, batched search and index arithmetic of the backend
method list, and numpy's ``choose``, ``compress`` and ``isin``.

Every function here is written once with ``do`` (numpy vocabulary) and runs on
every backend. They follow the list's layout conventions: a leading batch axis
(size 1 broadcasts against any batch), a trailing channel axis, and multi-indices
stacked on the last axis of an ``indices`` array.

Names the list shares with numpy keep numpy's meaning; the list's versions are
reachable under these names:

=================================  ==============================  ===========================
list method                        ``do`` name                     why renamed
=================================  ==============================  ===========================
``unravel_index``                  ``unravel_index_stacked``       numpy's returns a tuple
``ravel_multi_index``              ``ravel_multi_index_stacked``   numpy's takes a tuple, modes
                                                                   'raise'/'wrap'/'clip'
``searchsorted(sorted_sequence,    ``searchsorted_batched``        numpy's is 1-D only and
search_values, side, dtype)``                                      returns int64
``nonzero(values, length,          ``nonzero_static``              numpy's returns a tuple;
fill_value)``                                                      this one is ``argwhere``
                                                                   padded or cut to ``length``
                                                                   (as ``torch.nonzero_static``)
=================================  ==============================  ===========================

``scatter`` flattens every batch, spatial and channel position into one 1-D
target index and hands the work to ``scatter_1d_scalar``, the one kernel a
library needs to make every scatter fast (the layout, its unbatched forms and
that flattening are in ``_scatter``, which the libraries' scatters share). The
composed kernel uses ``bincount`` (floating add) or a sort (the other modes) and
works under jit. A library's native kernel is its table's ``scatter_1d_scalar``
entry, written beside it (``translations/numpy.py``,
``translations/<library>/indexing.py``).

numpy's ``choose`` (with ``mode='raise'``) and ``compress`` read values (the
length of ``compress``'s result depends on the condition; ``choose`` checks its
indices), so ``compress`` is eager only; each docstring says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed._common import (
    _arange,
    _cast,
    _combined,
    _first_array,
    _host,
    _index64,
    _on,
)
from dispatch.translations._composed._gather_scatter import (  # noqa: F401 (re-exported)
    _first_true,
    batch_gather,
    batched_gather_1d,
    batched_gather_nd,
    boolean_mask,
    gather,
    gather_1d,
    gather_by_component_indices,
    gather_nd,
    scatter,
    scatter_1d_scalar,
    scatter_nd,
    scatter_nd_scalar,
)
from dispatch.translations._composed.reductions import _dt, _readable

from dispatch.engine import composed, do, is_array

# ---------------------------------------------------------------- index arithmetic


@composed("unravel_index_stacked")
def unravel_index_stacked(flat_index: Any, shape: Sequence[int]) -> Any:
    """Multi-indices of flat C-order indices, stacked on a new last axis
    (the method list's ``unravel_index``; numpy's returns a tuple).

    Examples
    --------
    >>> import numpy as np
    >>> do("unravel_index_stacked", np.array([5, 1]), (2, 3))
    array([[1, 2],
           [0, 1]])
    """
    shape = [int(s) for s in shape]
    parts = []
    rest = flat_index
    for size in reversed(shape[1:]):
        parts.append(rest % size)
        rest = rest // size
    parts.append(rest if not shape else rest % shape[0])
    return do("stack", parts[::-1], axis=-1)


@composed("ravel_multi_index_stacked")
def ravel_multi_index_stacked(
    multi_index: Any, shape: Sequence[int], mode: str | int = "undefined"
) -> Any:
    """Flat C-order indices of multi-indices stacked on the last axis
    (the method list's ``ravel_multi_index``).

    Parameters
    ----------
    multi_index : int array, shape (..., len(shape))
    shape : sequence of int
    mode : {'undefined', 'periodic', 'clamp'} or int
        Out-of-range components: not checked, wrapped, clipped to the edge; an
        int is the result for every multi-index with a component outside.

    Returns
    -------
    int array, shape (...), the dtype of ``multi_index``

    Examples
    --------
    >>> import numpy as np
    >>> do("ravel_multi_index_stacked", np.array([[1, 2], [2, 0]]), (2, 3), mode=-1)
    array([ 5, -1])
    """
    shape = [int(s) for s in shape]
    if not (mode in ("undefined", "periodic", "clamp") or isinstance(mode, int)):
        raise ValueError(f"mode must be 'undefined', 'periodic', 'clamp' or an int, got {mode!r}")
    comps = [multi_index[..., k] for k in range(len(shape))]
    if mode == "periodic":
        comps = [c % s for c, s in zip(comps, shape, strict=True)]
    elif mode == "clamp":
        comps = [do("clip", c, 0, s - 1) for c, s in zip(comps, shape, strict=True)]
    flat = comps[0]
    for c, s in zip(comps[1:], shape[1:], strict=True):
        flat = flat * s + c
    if isinstance(mode, int) and not isinstance(mode, bool):
        inside = None
        for c, s in zip(comps, shape, strict=True):
            ok = (c >= 0) & (c < s)
            inside = ok if inside is None else inside & ok
        flat = do("where", inside, flat, do("full_like", flat, mode))
    return flat


@composed("multi_slice")
def multi_slice(tensor: Any, slices: tuple) -> Any:
    """``tensor[slices]`` for a tuple of slices, ints, ``None`` and ``...``;
    negative steps work on every library (torch has none natively).

    Examples
    --------
    >>> import numpy as np
    >>> do("multi_slice", np.arange(6).reshape(2, 3), (0, slice(None, None, -2)))
    array([2, 0])
    """
    if not isinstance(slices, tuple):
        slices = (slices,)
    if not any(isinstance(s, slice) and s.step is not None and _int(s.step) < 0 for s in slices):
        return tensor[slices]
    # replace each negative-step slice by a take of its explicit positions
    shape = do("shape", tensor)
    consumed = sum(1 for s in slices if s is not None and s is not Ellipsis)
    axis_in = 0  # axis of the input
    axis_out = 0  # axis of the output
    basic, takes = [], []
    for s in slices:
        if s is Ellipsis:
            skip = len(shape) - consumed
            axis_in += skip
            axis_out += skip
            basic.append(s)
        elif s is None:
            axis_out += 1
            basic.append(s)
        elif isinstance(s, slice):
            if s.step is not None and _int(s.step) < 0:
                takes.append((axis_out, list(range(*s.indices(shape[axis_in])))))
                basic.append(slice(None))
            else:
                basic.append(s)
            axis_in += 1
            axis_out += 1
        else:
            basic.append(s)
            axis_in += 1
    out = tensor[tuple(basic)]
    for axis, positions in takes:
        idx = do("asarray", np.asarray(positions, dtype=np.int64), like=out)
        out = do("take", out, idx, axis=axis)
    return out


def _int(x: Any) -> int:
    return int(x)


@composed("indexed_segment_sum")
def indexed_segment_sum(x: Any, indices: Any, axis: int) -> Any:
    """Sums of contiguous segments along ``axis`` starting at ``indices``,
    batched like ``numpy.add.reduceat``.

    Parameters
    ----------
    x : array, shape (batch, ...)
    indices : int array, shape (batch or 1, k), non-decreasing, starting at 0
        Where a start is not below the next one, that slot holds the single
        entry at the start (as with ``numpy.add.reduceat``).
    axis : int
        The segment axis of ``x`` (not 0, the batch axis).

    Returns
    -------
    array like ``x`` with ``k`` entries along ``axis``

    Examples
    --------
    >>> import numpy as np
    >>> do("indexed_segment_sum", np.arange(6.0)[None], np.array([[0, 2, 5]]), 1)
    array([[1., 9., 5.]])
    """
    shape = do("shape", x)
    ndim = len(shape)
    axis = axis % ndim
    if axis == 0:
        raise ValueError("axis 0 is the batch axis; segments lie along a later axis")
    ishape = do("shape", indices)
    batch = _combined(shape[0], ishape[0])
    length, k = shape[axis], ishape[1]
    moved = do("moveaxis", x, axis, 1)
    rest = moved.shape[2:]
    width = math.prod(rest)
    flat_x = do("reshape", moved, (shape[0], length, width))
    starts = _index64(indices)
    positions = do("broadcast_to", _arange(length, starts), (ishape[0], length))
    segment = _index64(do("searchsorted_batched", starts, positions, side="right")) - 1
    dropped = segment < 0  # entries before the first start
    segment = do("maximum", segment, 0)
    vals = do("where", dropped[:, :, None], do("zeros_like", flat_x[:1, :1]), flat_x)
    base = do("zeros_like", flat_x[:, :1])
    base = do("broadcast_to", base, (batch, k, width))
    sums = do("scatter", base, segment[:, :, None], vals, "add")
    # reduceat: a start not below the next start yields the single entry there
    nxt = do("concatenate", [starts[:, 1:], do("full_like", starts[:, :1], length)], axis=1)
    single = starts >= nxt
    picked = do("batched_gather_nd", flat_x, do("minimum", starts, length - 1)[:, :, None])
    sums = do("where", single[:, :, None], picked, sums)
    out = do("reshape", sums, (batch, k, *rest))
    return do("moveaxis", out, 1, axis)


# ---------------------------------------------------------------- batched search and static nonzero


@composed("searchsorted_batched")
def searchsorted_batched(
    sorted_sequence: Any, search_values: Any, side: str = "left", dtype: str = "int32"
) -> Any:
    """Insertion indices of ``search_values`` in ``sorted_sequence``, batched
    over the leading axes (the method list's ``searchsorted``).

    Parameters
    ----------
    sorted_sequence : array, shape (..., m), sorted along the last axis
    search_values : array, shape (..., k); leading axes broadcast
    side : {'left', 'right'}
    dtype : str
        Integer dtype of the result (the list's default is int32).

    Examples
    --------
    >>> import numpy as np
    >>> do("searchsorted_batched", np.array([[1, 3], [0, 9]]), np.array([[2, 3], [9, 10]]))
    array([[1, 1],
           [1, 2]], dtype=int32)
    """
    sshape, vshape = do("shape", sorted_sequence), do("shape", search_values)
    if len(sshape) == 1:
        return _cast(do("searchsorted", sorted_sequence, search_values, side=side), dtype)
    lead = np.broadcast_shapes(sshape[:-1], vshape[:-1])
    rows = math.prod(lead)
    seq = do("reshape", do("broadcast_to", sorted_sequence, (*lead, sshape[-1])), (rows, -1))
    vals = do("reshape", do("broadcast_to", search_values, (*lead, vshape[-1])), (rows, -1))
    if rows == 0:
        return _cast(do("zeros", (*lead, vshape[-1]), like=seq), dtype)
    out = do("stack", [do("searchsorted", seq[r], vals[r], side=side) for r in range(rows)])
    return _cast(do("reshape", out, (*lead, vshape[-1])), dtype)


@composed("nonzero_static")
def nonzero_static(values: Any, length: int | None = None, fill_value: int = -1) -> Any:
    """Multi-indices of the non-zero entries, shape (count, ndim) as
    ``numpy.argwhere``; with ``length``, cut or padded with ``fill_value`` to
    exactly ``length`` rows (needed under jit). The method list's ``nonzero``.

    Examples
    --------
    >>> import numpy as np
    >>> do("nonzero_static", np.array([[0, 3], [4, 0]]), length=3)
    array([[ 0,  1],
           [ 1,  0],
           [-1, -1]])
    """
    if length is None:
        return _index64(do("argwhere", values))
    shape = do("shape", values)
    if math.prod(shape) == 0:
        return do("full", (length, len(shape)), fill_value, like=_index64(values))
    mask = do("reshape", _cast(values, "bool"), (math.prod(shape),))
    pos, valid = _first_true(mask, length)
    idx = do("unravel_index_stacked", pos, shape)
    return do("where", valid[:, None], idx, do("full_like", idx, fill_value))


# ---------------------------------------------------------------- choose, compress, isin


@composed("choose")
def choose(a: Any, choices: Any, out: Any = None, mode: str = "raise") -> Any:
    """Pick, for each index in ``a``, the element of that choice array,
    numpy's ``choose``: ``out[i] = choices[a[i]][i]`` after broadcasting ``a``
    with every choice.

    ``mode``: 'raise' (an index outside ``[0, len(choices))`` raises
    ``ValueError``, read from the values; skipped while tracing), 'wrap'
    (modulo) or 'clip'. ``choices`` is a sequence of arrays (or scalars), or an
    array whose first axis indexes the choices. The result has the promoted
    dtype of the choices.

    Examples
    --------
    >>> import numpy as np
    >>> do("choose", np.array([0, 2, 1]), [np.zeros(3), np.ones(3), np.full(3, 7.0)])
    array([0., 7., 1.])
    >>> do("choose", np.array([3, -1]), [np.array([1, 2]), np.array([10, 20])], mode="clip")
    array([10,  2])
    """
    if out is not None:
        raise TypeError("out= is not supported: the result is returned as a new array")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    like = _first_array(a, choices, *(choices if isinstance(choices, (list, tuple)) else ()))
    if is_array(choices):
        choices = [choices[i] for i in range(do("shape", choices)[0])]
    choices = [_on(c, like) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    idx = do("astype", _on(a, like), "int64")
    if mode == "wrap":
        idx = do("mod", idx, n)
    elif mode == "clip":
        idx = do("clip", idx, 0, n - 1)
    elif _readable(idx):
        bad = (idx < 0) | (idx >= n)
        if bool(np.any(_host(bad))):
            raise ValueError("invalid entry in choice array")
    arrays = do("broadcast_arrays", idx, *choices)
    stacked = do("stack", list(arrays[1:]), axis=0)
    picked = do("take_along_axis", stacked, do("expand_dims", arrays[0], 0), axis=0)
    return picked[0]


@composed("compress")
def compress(condition: Any, a: Any, axis: Any = None, out: Any = None) -> Any:
    """The slices of ``a`` along ``axis`` where ``condition`` is true, numpy's
    ``compress`` (``axis=None``: of the flattened array).

    ``condition`` is 1-D (cast to bool); a shorter one counts as false past its
    end, a true entry past the end of ``a`` raises ``IndexError`` (as numpy).
    Eager only: the result's length depends on the values of ``condition``.

    Examples
    --------
    >>> import numpy as np
    >>> do("compress", np.array([True, False, True]), np.arange(6.0).reshape(3, 2), axis=0)
    array([[0., 1.],
           [4., 5.]])
    """
    if out is not None:
        raise TypeError("out= is not supported: the result is returned as a new array")
    like = _first_array(a, condition)
    cond = _on(condition, like)
    a = _on(a, like)
    if len(do("shape", cond)) != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None:
        a, axis = do("reshape", a, (-1,)), 0
    length = do("shape", a)[axis]
    (idx,) = do("nonzero", cond)
    if _readable(idx) and do("shape", idx)[0] and int(_host(idx)[-1]) >= length:
        raise IndexError(
            f"index {int(_host(idx)[-1])} is out of bounds for axis {axis} with size {length}"
        )
    return do("take", a, idx, axis=axis)


@composed("isin")
def isin(
    element: Any,
    test_elements: Any,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: Any = None,
) -> Any:
    """Whether each element of ``element`` is in ``test_elements``, numpy's
    ``isin`` (``invert=True`` negates), with the shape of ``element``.

    Sort-based: ``test_elements`` is sorted and searched, O((n + m) log m);
    complex and boolean values are compared pairwise instead (O(n m) memory).
    NaN is never found (NaN != NaN, as numpy). ``kind`` is accepted and ignored
    (numpy's 'table' is an optimisation for integers, same result).

    Examples
    --------
    >>> import numpy as np
    >>> do("isin", np.array([[1, 5], [3, 8]]), np.array([3, 1, 4]))
    array([[ True, False],
           [ True, False]])
    >>> do("isin", np.array([1.0, 2.0]), [2.0], invert=True)
    array([ True, False])
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None or 'sort' or 'table'.")
    like = _first_array(element, test_elements)
    e, t = _on(element, like), _on(test_elements, like)
    rt = np.result_type(_dt(e), _dt(t))
    e, t = do("astype", e, rt.name), do("astype", do("reshape", t, (-1,)), rt.name)
    shape = tuple(do("shape", e))
    flat = do("reshape", e, (-1,))
    m = do("shape", t)[0]
    if m == 0:
        found = do("zeros_like", flat) != 0
    elif rt.kind in "cb":
        found = do("any", do("equal", do("expand_dims", flat, -1), t), axis=-1)
    else:
        ts = do("sort", t)
        pos = do("minimum", do("searchsorted", ts, flat, side="left"), m - 1)
        found = do("equal", do("take", ts, pos), flat)
    found = do("reshape", found, shape)
    return do("logical_not", found) if invert else found


# ---------------------------------------------------------------- ML ops (keras.ops)


def _integer_indices(x: Any, name: str) -> Any:
    kind = do("dtype_of", x).kind
    if kind not in "iu":
        raise TypeError(f"{name} takes integer class indices; got dtype "
                        f"{do('get_dtype_name', x)}")
    return x


@composed("one_hot")
def one_hot(x: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> Any:
    """One-hot encoding of the integer indices ``x``: ``out[..., c] = (x == c)``.

    The new axis of length ``num_classes`` is placed at ``axis`` of the result (the
    last by default); indices outside ``[0, num_classes)`` give a row of zeros (as
    ``jax.nn.one_hot`` and ``tf.one_hot``); ``dtype`` defaults to ``float_type()``
    (float32, keras's floatx).

    Examples
    --------
    >>> import numpy as np
    >>> do("one_hot", np.array([0, 2, 5]), 3)
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 0., 0.]], dtype=float32)
    """
    x = _integer_indices(x, "one_hot")
    classes = do("arange", int(num_classes), like=x)
    hot = do("equal", do("expand_dims", x, -1), classes)
    out = do("astype", hot, do("float_type") if dtype is None else dtype)
    return out if axis == -1 else do("moveaxis", out, -1, axis)


@composed("top_k")
def top_k(x: Any, k: int, sorted: bool = True) -> tuple[Any, Any]:
    """The ``k`` largest entries along the last axis and their indices:
    ``(values, indices)``, largest first (ties: the lower index first).

    ``sorted=False`` allows any order; this fallback returns them sorted anyway.

    Examples
    --------
    >>> import numpy as np
    >>> values, indices = do("top_k", np.array([3.0, 1.0, 4.0, 1.5]), 2)
    >>> values, indices
    (array([4., 3.]), array([2, 0]))
    """
    n = do("shape", x)[-1]
    if not 0 <= int(k) <= n:
        raise ValueError(f"top_k: k={k} is outside [0, {n}] (the length of the last axis)")
    kind = do("dtype_of", x).kind
    if kind == "c":
        raise TypeError("top_k takes real numbers; got a complex input")
    # a stable sort of the flipped order keeps the lower index first among ties
    key = -do("astype", x, "int64") if kind in "bu" else -x
    order = do("argsort", key, axis=-1, kind="stable")[..., : int(k)]
    return do("take_along_axis", x, order, axis=-1), order


@composed("in_top_k")
def in_top_k(targets: Any, predictions: Any, k: int) -> Any:
    """Whether ``predictions[i, targets[i]]`` is among the ``k`` largest entries of
    row ``i``: fewer than ``k`` entries of the row are strictly larger (so ties at the
    boundary count as in, as ``tf.math.in_top_k``). A target outside ``[0, classes)``
    or a NaN prediction at the target gives False.

    Examples
    --------
    >>> import numpy as np
    >>> do("in_top_k", np.array([1, 0, 2]), np.array([[0.1, 0.9, 0.0],
    ...     [0.2, 0.5, 0.3], [0.4, 0.4, 0.4]]), 1)
    array([ True, False,  True])
    """
    t = _integer_indices(targets, "in_top_k")
    if do("dtype_of", predictions).kind not in "biuf":
        raise TypeError("in_top_k takes real predictions; got dtype "
                        f"{do('get_dtype_name', predictions)}")
    n = do("shape", predictions)[-1]
    valid = do("logical_and", t >= 0, t < n)
    at = do("take_along_axis", predictions, do("expand_dims", do("where", valid, t, 0), -1),
            axis=-1)
    larger = do("sum", do("astype", predictions > at, "int64"), axis=-1)
    return do("logical_and", do("logical_and", valid, larger < int(k)),
              at[..., 0] == at[..., 0])


@composed("multi_hot")
def multi_hot(inputs: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> Any:
    """Multi-hot encoding: ``out[..., c] = any(inputs[i] == c)`` over the labels axis
    (axis 1 of an input of rank 2 or more, as keras; axis 0 of a vector), the class
    axis of length ``num_classes`` placed at ``axis`` of the result; indices outside
    ``[0, num_classes)`` are ignored; ``dtype`` defaults to ``float_type()``.

    Examples
    --------
    >>> import numpy as np
    >>> do("multi_hot", np.array([[0, 2], [1, 1]]), 4)
    array([[1., 0., 1., 0.],
           [0., 1., 0., 0.]], dtype=float32)
    """
    x = _integer_indices(inputs, "multi_hot")
    labels = 1 if len(do("shape", x)) > 1 else 0
    hot = do("any", do("equal", do("expand_dims", x, -1),
                       do("arange", int(num_classes), like=x)), axis=labels)
    out = do("astype", hot, do("float_type") if dtype is None else dtype)
    return out if axis == -1 else do("moveaxis", out, -1, axis)
