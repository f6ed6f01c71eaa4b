"""autograd: numpy's shape names on boxes where autograd's primitive has no
derivative, takes fewer arguments than numpy's, or returns one ``SequenceBox``.

* ``split`` and its kin return numpy's list (a tuple for ``broadcast_arrays`` and
  ``meshgrid``), each piece recorded as an index into autograd's sequence.
* ``broadcast_to``, ``broadcast_arrays``, ``meshgrid``, ``dstack``, ``diagflat``,
  ``rot90``, ``diagonal`` and ``trace`` are written with products, reshapes, flips and
  indexing; ``pad`` gathers the entries numpy's pad reads (numpy's own ``pad`` of
  the index of each entry says which), in its constant, edge, wrap, reflect and
  symmetric modes; ``concatenate`` takes numpy's ``axis=None`` and ``dtype``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from autograd import numpy as anp
from autograd.numpy.numpy_boxes import ArrayBox
from autograd.tracer import getval
from dispatch.translations._keywords import NO_VALUE, reshape_shape

from dispatch.engine import kernels, merge_tables

from ._common import any_box, exact, positional, unpacked, values, where
from .indexing import _flip


def _pieces(fn: Any) -> Any:
    """numpy's ``fn`` of the split family: a list of boxes."""
    unpack = unpacked(fn)

    @functools.wraps(fn)
    def split(*args: Any, **kwargs: Any) -> list:
        return list(unpack(*args, **kwargs))

    return split


def _broadcast_to(array: Any, shape: Any, subok: bool = False) -> Any:
    """numpy's ``broadcast_to`` as a product with ones (exact: times one); numpy's own
    checks the shapes first."""
    v = getval(array)
    np.broadcast_to(v, shape)  # numpy's error for shapes that do not broadcast
    return array * np.ones(shape, dtype=np.result_type(v))


def _broadcast_arrays(*args: Any, subok: bool = False) -> tuple:
    shape = np.broadcast_shapes(*(np.shape(getval(a)) for a in args))
    return tuple(_broadcast_to(a, shape) for a in args)


def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> tuple:
    """numpy's ``meshgrid``: each input reshaped along its own axis (the first two
    swapped for ``'xy'``), then broadcast unless ``sparse``."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    ones = (1,) * ndim
    out = [anp.reshape(x, (*ones[:i], -1, *ones[i + 1:])) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        out[0] = anp.reshape(xi[0], (1, -1, *ones[2:]))
        out[1] = anp.reshape(xi[1], (-1, 1, *ones[2:]))
    return tuple(out) if sparse else _broadcast_arrays(*out)


def _dstack(tup: Any) -> Any:
    return anp.concatenate([anp.atleast_3d(a) for a in tup], axis=2)


def _diagflat(v: Any, k: int = 0) -> Any:
    return anp.diag(anp.ravel(v), k)


def _concatenate(arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None,
                 casting: str = "same_kind") -> Any:
    """numpy's ``concatenate``: autograd's takes neither ``axis=None`` (the arrays
    flattened) nor ``dtype``."""
    if out is not None:
        raise TypeError("concatenate(out=...) writes into an array: autograd records pure "
                        "functions")
    arrays = list(arrays)
    value = np.concatenate(values(arrays), axis=axis, dtype=dtype, casting=casting)
    if axis is None:
        arrays, axis = [anp.ravel(a) for a in arrays], 0
    return exact(value, anp.concatenate(arrays, axis=axis))


def _rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> Any:
    """numpy's ``rot90`` as numpy writes it: flips and a transpose."""
    np.rot90(np.empty(np.shape(getval(m)), dtype=bool), k, axes)  # numpy's checks
    ndim = np.ndim(getval(m))
    a0, a1 = axes
    k %= 4
    if k == 0:
        return m * np.ones((), dtype=np.result_type(getval(m)))
    if k == 2:
        return _flip(_flip(m, a0), a1)
    order = list(range(ndim))
    order[a0], order[a1] = order[a1], order[a0]
    if k == 1:
        return anp.transpose(_flip(m, a1), order)
    return _flip(anp.transpose(m, order), a1)


def _diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """numpy's ``diagonal`` as an index of the two axes (autograd differentiates its
    own for the last two axes and offset 0 only)."""
    v = getval(a)
    np.diagonal(v, offset, axis1, axis2)  # numpy's checks
    x = anp.moveaxis(a, (axis1, axis2), (-2, -1))
    n, m = np.shape(getval(x))[-2:]
    rows = np.arange(max(0, -offset), max(0, min(n, m - offset)))
    return x[..., rows, rows + offset]


def _diag(v: Any, k: int = 0) -> Any:
    # a matrix's diagonal through _diagonal (autograd's derivative of its own expects a
    # square matrix); a vector's diagonal matrix is autograd's
    return _diagonal(v, k) if np.ndim(getval(v)) == 2 else anp.diag(v, k)


def _trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
           out: Any = None) -> Any:
    if out is not None:
        raise TypeError("trace(out=...) writes into an array: autograd records pure functions")
    value = np.trace(getval(a), offset, axis1, axis2, dtype)
    return exact(value, anp.sum(_diagonal(a, offset, axis1, axis2), axis=-1))


_GATHER_MODES = ("constant", "edge", "wrap", "reflect", "symmetric")


def _pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Any:
    """numpy's ``pad``: the entries numpy reads for each output position (numpy's pad
    of the flat index of every entry, -1 in the constant border), gathered from
    ``array``; the constant border is ``constant_values``."""
    v = getval(array)
    value = np.pad(v, pad_width, mode, **values(kwargs))
    if not any_box(array, kwargs.get("constant_values")):
        return value
    if mode not in _GATHER_MODES or kwargs.get("reflect_type", "even") != "even":
        raise NotImplementedError(
            f"pad(mode={mode!r}) of an autograd box: the modes that copy entries "
            f"({', '.join(_GATHER_MODES)}) are written; this one computes new values")
    fill = kwargs.get("constant_values", 0)
    if v.size == 0:  # nothing to gather: the border alone
        return exact(value, fill * np.ones(value.shape, value.dtype)) if any_box(fill) else value
    index_kwargs = {} if mode != "constant" else {"constant_values": -1}
    source = np.pad(np.arange(v.size).reshape(v.shape), pad_width, mode, **index_kwargs)
    gathered = anp.ravel(array)[np.maximum(source, 0)]
    if mode != "constant":
        return exact(value, gathered)
    if any_box(fill) and np.ndim(getval(fill)) != 0:
        raise NotImplementedError("pad of an autograd box: constant_values that are boxes "
                                  "are written for one scalar only")
    return exact(value, where(source >= 0, gathered, fill if any_box(fill) else 0.0))


_SPLITS = {name: _pieces(positional(getattr(anp, name), "ary", "indices_or_sections"))
           for name in ("split", "array_split", "hsplit", "vsplit", "dsplit")}

def _reshape(a: Any, /, shape: Any = NO_VALUE, order: str = "C", *, newshape: Any = NO_VALUE,
             copy: bool | None = None) -> Any:
    """numpy's ``reshape`` of a box: numpy checks the order and ``copy=False`` on its
    value (autograd's reshape takes neither keyword), autograd records the reshape (a
    box is never written, so a copy is the same value)."""
    if order == "C" and copy is None and newshape is NO_VALUE is not shape:
        return anp.reshape(a, shape)  # the common call: no keyword for autograd to pass on
    shape = reshape_shape(shape, newshape)
    if copy is False or order not in ("C", "F", "A"):
        np.reshape(getval(a), shape, order=order, copy=False if copy is False else None)
    return anp.reshape(a, shape, order=order)


# a box and a tuple or list shape: autograd's reshape, as the first branch above
_reshape = kernels(_reshape, {(ArrayBox, tuple): anp.reshape, (ArrayBox, list): anp.reshape})


TABLE = merge_tables(_SPLITS, {
    "reshape": _reshape,
    "broadcast_to": _broadcast_to,
    "broadcast_arrays": _broadcast_arrays,
    "meshgrid": _meshgrid,
    "dstack": _dstack,
    "diagflat": _diagflat,
    "concatenate": _concatenate,
    "rot90": _rot90,
    "trace": _trace,
    "diagonal": _diagonal,
    "diag": _diag,
    "pad": _pad,
})
