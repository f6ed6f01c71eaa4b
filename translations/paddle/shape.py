"""paddle: shapes, joins, splits and reorderings with numpy's signatures.

paddle's ``transpose`` and ``flip`` need their axes (numpy: all, reversed),
``concat``/``stack`` refuse mixed dtypes (numpy promotes), ``split`` takes
section sizes (numpy: indices), ``squeeze`` ignores an axis that is not 1 long
and shapes are lists.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import paddle
from dispatch.translations._keywords import cast_all, check_order, check_view, in_order, no_out
from dispatch.translations.paddle._common import by_parts, promote, widened
from dispatch.translations.paddle.dtypes import _isfortran
from paddle import Tensor

from dispatch.engine import kernels


def _shape(shape: Any) -> list:
    return [int(shape)] if isinstance(shape, (int, np.integer)) else [int(s) for s in shape]


def _transpose(a: Tensor, axes: Any = None) -> Tensor:
    # paddle takes a permutation shorter than the array (() for any), numpy refuses it.
    # A dense tensor's dense_dim() is its number of dimensions, at a third of the cost
    # of ndim (a Python property over the shape); paddle cannot transpose a sparse
    # tensor (OSError), whose refusal is left to the checks below
    if axes is not None and len(axes) == a.dense_dim():
        try:
            return paddle.transpose(a, axes)
        except OSError:
            pass
    if axes is not None and len(axes) != a.ndim:
        raise ValueError(f"transpose: axes don't match array: {len(axes)} axes for an "
                         f"array of {a.ndim} dimensions")
    if axes is not None:  # paddle takes negative axes in the permutation too
        return paddle.transpose(a, axes)
    perm = list(range(a.ndim))[::-1] if axes is None else [int(x) % max(a.ndim, 1)
                                                            for x in axes]
    return paddle.transpose(a, perm)


def _matrix_transpose(x: Tensor, /) -> Tensor:
    if x.ndim < 2:
        raise ValueError("matrix_transpose: the array needs at least 2 dimensions")
    return paddle.transpose(x, [*range(x.ndim - 2), x.ndim - 1, x.ndim - 2])


def _reshape(a: Tensor, shape: Any = None, order: str = "C", copy: bool | None = None,
             newshape: Any = None) -> Tensor:
    # numpy's copy (and the old newshape) are keyword-only: here they may be passed by
    # position too, as in torch's table; a keyword-only parameter keeps CPython from
    # specialising the call (about 60 ns a call with two of them)
    if newshape is None and order == "C" and type(shape) is tuple and not copy:
        return paddle.reshape(a, shape)
    shape = _shape(newshape if shape is None else shape)
    if order in ("A", "a"):  # numpy's 'A': Fortran order for a Fortran-ordered tensor
        order = "F" if _isfortran(a) else "C"
    if order in ("F", "f"):
        fortran = True
    elif order in ("C", "c", None):
        fortran = False
    else:
        check_order(order)  # numpy's ValueError for an order it does not know
        raise ValueError(f"order {order!r} is not permitted for reshaping")
    if copy is False:  # numpy's refusal where the new shape is no view of ``a``
        check_view(a.shape, a.strides, shape, "F" if fortran else "C")
    out = _column_major(a, shape) if fortran else paddle.reshape(a, shape)
    return out.clone() if copy else out  # copy=True: numpy's result owns its memory


# a tensor and a tuple shape: paddle.reshape, as the first branch above
_reshape = kernels(_reshape, {(Tensor, tuple): paddle.reshape})


def _column_major(a: Tensor, shape: list) -> Tensor:
    """numpy's ``reshape(a, shape, order='F')``: the elements read and written with the
    first index changing fastest, that is the C reshape of the reversed axes."""
    if a.ndim > 1:
        a = paddle.transpose(a, list(range(a.ndim))[::-1])
    out = paddle.reshape(a, shape[::-1])
    return paddle.transpose(out, list(range(out.ndim))[::-1]) if out.ndim > 1 else out


def _ravel(a: Tensor, order: str = "C") -> Tensor:
    if order != "C" and order is not None:
        check_order(order)
        order = order.upper()
        if order == "K" and a.ndim > 1:
            # numpy reads the elements in the order they lie in memory: paddle's strided
            # views (a transpose) put the axes in order of decreasing stride first
            perm = sorted(range(a.ndim), key=lambda i: -a.strides[i])
            return paddle.reshape(paddle.transpose(a, perm), [-1])
        if order == "F" or (order == "A" and _isfortran(a)):
            return _column_major(a, [-1])
    return paddle.reshape(a, [-1])


def _flatten(a: Tensor, order: str = "C") -> Tensor:
    return _ravel(a, order).clone()


def _flip(m: Tensor, axis: Any = None) -> Tensor:
    axes = list(range(m.ndim)) if axis is None else (
        list(axis) if isinstance(axis, (tuple, list)) else [axis])
    return paddle.flip(m, axes) if axes else m.clone()


def _expand_dims(a: Tensor, axis: Any) -> Tensor:
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    n = a.ndim + len(axes)
    for ax in sorted(x % n for x in axes):
        a = paddle.unsqueeze(a, ax)
    return a


def _squeeze(a: Tensor, axis: Any = None) -> Tensor:
    if axis is None:
        return paddle.squeeze(a)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    for ax in axes:
        if a.shape[ax] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not "
                             "equal to one")
    return paddle.squeeze(a, axis=axes)


def _concatenate(arrays: Any, axis: int | None = 0, out: Any = None, *, dtype: Any = None,
                 casting: str = "same_kind") -> Tensor:
    if out is not None:
        no_out("concatenate", "paddle", out)
    if dtype is not None or casting != "same_kind":
        arrays = cast_all(list(arrays), dtype, casting)
    arrays = promote(*arrays)
    if axis is None:
        arrays, axis = [x.flatten() for x in arrays], 0
    return paddle.concat(arrays, axis=axis)


def _stack(arrays: Any, axis: int = 0, out: Any = None, dtype: Any = None,
           casting: str = "same_kind") -> Tensor:
    # numpy's dtype and casting are keyword-only: here they may be passed by position
    # too (see _reshape)
    if out is not None:
        no_out("stack", "paddle", out)
    if dtype is None and casting == "same_kind":
        if type(arrays) is list:
            try:  # paddle refuses tensors of two dtypes (numpy promotes): promote first
                return paddle.stack(arrays) if axis == 0 else paddle.stack(arrays, axis)
            except (TypeError, ValueError, RuntimeError):
                pass
    else:
        arrays = cast_all(list(arrays), dtype, casting)
    return paddle.stack(promote(*arrays), axis=axis)


def _sections(n: int, indices_or_sections: Any) -> list[int]:
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if n % k:
            raise ValueError("array split does not result in an equal division")
        return [n // k] * k
    bounds = [0, *(min(max(int(i) if i >= 0 else int(i) + n, 0), n)
                   for i in indices_or_sections), n]
    return [max(b - a, 0) for a, b in itertools.pairwise(bounds)]


def _split(ary: Tensor, indices_or_sections: Any, axis: int = 0) -> list:
    if not isinstance(indices_or_sections, (int, np.integer)) and not isinstance(
            indices_or_sections, (list, tuple)):
        indices_or_sections = [int(i) for i in np.asarray(indices_or_sections).tolist()]
    n = ary.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        sizes = _sections(n, indices_or_sections)
        points = np.cumsum([0, *sizes]).tolist()
    else:
        points = [0, *(int(i) for i in indices_or_sections), n]
    out = []
    for start, stop in itertools.pairwise(points):
        idx = [slice(None)] * ary.ndim
        idx[axis] = slice(start, stop)
        out.append(ary[tuple(idx)])
    return out


def _array_split(ary: Tensor, indices_or_sections: Any, axis: int = 0) -> list:
    n = ary.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        q, r = divmod(n, k)
        points = np.cumsum([q + 1] * r + [q] * (k - r))[:-1].tolist()
        return _split(ary, points, axis)
    return _split(ary, indices_or_sections, axis)


def _hsplit(ary: Tensor, indices_or_sections: Any) -> list:
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def _vsplit(ary: Tensor, indices_or_sections: Any) -> list:
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split(ary, indices_or_sections, 0)


def _dsplit(ary: Tensor, indices_or_sections: Any) -> list:
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split(ary, indices_or_sections, 2)


def _fliplr(m: Tensor) -> Tensor:
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return paddle.flip(m, [1])


def _flipud(m: Tensor) -> Tensor:
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return paddle.flip(m, [0])


def _vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    return _concatenate(_atleast(2)(*tup) if len(tup) > 1 else [_atleast(2)(*tup)], 0,
                        dtype=dtype, casting=casting)


def _hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    arrs = _atleast(1)(*tup) if len(tup) > 1 else [_atleast(1)(*tup)]
    return _concatenate(arrs, 0 if arrs[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def _dstack(tup: Any) -> Tensor:
    return _concatenate(_atleast(3)(*tup) if len(tup) > 1 else [_atleast(3)(*tup)], 2)


def _column_stack(tup: Any) -> Tensor:
    cols = []
    for a in tup:
        a = a if isinstance(a, Tensor) else promote(a)[0]
        cols.append(a.reshape([-1, 1]) if a.ndim < 2 else a)
    return _concatenate(cols, 1)


def _tile(A: Tensor, reps: Any) -> Tensor:
    reps = _shape(reps)
    if len(reps) < A.ndim:
        reps = [1] * (A.ndim - len(reps)) + reps
    return paddle.tile(A, reps)


def _roll(a: Tensor, shift: Any, axis: Any = None) -> Tensor:
    if axis is None:
        return paddle.roll(a.flatten(), shift).reshape(a.shape)
    shifts = list(shift) if isinstance(shift, (tuple, list)) else shift
    axes = list(axis) if isinstance(axis, (tuple, list)) else axis
    if isinstance(axes, list) and not isinstance(shifts, list):
        shifts = [shifts] * len(axes)
    return paddle.roll(a, shifts, axes)


def _repeat(a: Tensor, repeats: Any, axis: int | None = None) -> Tensor:
    if axis is None:
        a, axis = a.flatten(), 0
    if not isinstance(repeats, (int, np.integer)):
        repeats = paddle.to_tensor(np.asarray(repeats), dtype="int64") if not isinstance(
            repeats, Tensor) else repeats.astype("int64")
        if repeats.ndim == 0 or repeats.shape[0] == 1:
            repeats = int(repeats.reshape([-1])[0])
    return _repeat_interleave(a, repeats, axis)


@by_parts
@widened
def _repeat_interleave(a: Tensor, repeats: Any, axis: int) -> Tensor:
    if isinstance(repeats, int) and repeats == 0:  # paddle refuses zero repeats
        index = [slice(None)] * a.ndim
        index[axis] = slice(0, 0)
        return a[tuple(index)]
    return paddle.repeat_interleave(a, repeats, axis=axis)


def _moveaxis(a: Tensor, source: Any, destination: Any) -> Tensor:
    return paddle.moveaxis(a, source, destination)


def _swapaxes(a: Tensor, axis1: int, axis2: int) -> Tensor:
    perm = list(range(a.ndim))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return paddle.transpose(a, perm)


def _broadcast_to(array: Tensor, shape: Any, subok: bool = False) -> Tensor:
    return paddle.broadcast_to(array, _shape(shape))


def _broadcast_arrays(*args: Any, subok: bool = False) -> tuple:
    # paddle.broadcast_tensors wants one dtype; numpy keeps each array's own
    tensors = [a if isinstance(a, Tensor) else paddle.to_tensor(np.asarray(a)) for a in args]
    shape = list(np.broadcast_shapes(*(tuple(t.shape) for t in tensors)))
    return tuple(paddle.broadcast_to(t, shape) for t in tensors)


def _atleast(n: int) -> Any:
    def atleast(*arys: Any) -> Any:
        outs = []
        for a in arys:
            if not isinstance(a, Tensor):
                a = promote(a)[0]
            if a.ndim < n:
                if a.ndim == 0:
                    shape = [1] * n
                elif a.ndim == 1:
                    shape = [1, a.shape[0], 1][:n] if n == 3 else [1, a.shape[0]][-n:]
                else:
                    shape = [*a.shape, 1]
                a = a.reshape(shape)
            outs.append(a)
        return outs[0] if len(outs) == 1 else tuple(outs)

    return atleast


def _copy(a: Tensor, order: str = "K", subok: bool = False) -> Tensor:
    out = a.clone()
    # 'K' and 'A' keep the clone's layout; 'C' and 'F' lay it out (paddle's tensors take
    # strides), an order numpy does not know is its ValueError
    return out if order == "K" else in_order(out, order)


TABLE = {
    "transpose": _transpose,
    "permute_dims": _transpose,
    "matrix_transpose": _matrix_transpose,
    "linalg.matrix_transpose": _matrix_transpose,
    "reshape": _reshape,
    "ravel": _ravel,
    "flatten": _flatten,
    "flip": _flip,
    "expand_dims": _expand_dims,
    "squeeze": _squeeze,
    "concatenate": _concatenate,
    "concat": _concatenate,
    "stack": _stack,
    "split": _split,
    "array_split": _array_split,
    "vstack": _vstack,
    "hstack": _hstack,
    "dstack": _dstack,
    "column_stack": _column_stack,
    "hsplit": _hsplit,
    "vsplit": _vsplit,
    "dsplit": _dsplit,
    "fliplr": _fliplr,
    "flipud": _flipud,
    "tile": _tile,
    "roll": _roll,
    "repeat": _repeat,
    "moveaxis": _moveaxis,
    "swapaxes": _swapaxes,
    "broadcast_to": _broadcast_to,
    "broadcast_arrays": _broadcast_arrays,
    "atleast_1d": _atleast(1),
    "atleast_2d": _atleast(2),
    "atleast_3d": _atleast(3),
    "copy": _copy,
}
