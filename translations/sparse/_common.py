"""Helpers shared by several topics of the pydata sparse table (no entries here)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from dispatch.translations._keywords import no_out, ufunc_call
from sparse import COO, SparseArray


def sp(x: Any) -> SparseArray:
    """``x`` as a sparse array (numpy arrays, lists and scalars are wrapped)."""
    return x if isinstance(x, SparseArray) else COO.from_numpy(np.asarray(x))


_PARTS = ("data", "coords", "indices", "indptr")


def owned(out: SparseArray, src: SparseArray) -> SparseArray:
    """``out``, copied if it still shares stored values or coordinates with ``src``.

    pydata returns its input, or an array built on the input's buffers, where
    numpy returns a new array (tile or repeat by 1, zero padding, broadcasting
    to the same shape): a write to one would show in the other.
    """
    mine = [getattr(out, p) for p in _PARTS if hasattr(out, p)]
    theirs = [getattr(src, p) for p in _PARTS if hasattr(src, p)]
    if any(np.may_share_memory(a, b) for a in mine for b in theirs):
        return out.copy()
    return out


def zero_fill(x: Any) -> SparseArray:
    """``x`` (made sparse) with fill value 0, as pydata's matmul, tril... require.

    An array with another fill value has no zeros where it stores nothing, so
    the zero-fill form stores all its elements: it is dense by content already.
    """
    x = sp(x)
    if x.fill_value == 0 or (x.fill_value != x.fill_value and x.size == 0):
        return x
    d = x.todense()
    if d.ndim == 0:
        # from_numpy keeps a 0-d value as the fill value: store it explicitly
        stored = d != 0
        coords = np.zeros((0, int(stored)), dtype=np.intp)
        return COO(coords, d.reshape(1)[: int(stored)], shape=(), fill_value=d.dtype.type(0))
    return COO.from_numpy(d)


def dense(x: Any) -> np.ndarray:
    """``x`` as a numpy array (a sparse array densified): index arguments, bins,
    right-hand sides and the parts of a sparse format are dense by nature."""
    return x.todense() if isinstance(x, SparseArray) else np.asarray(x)


def ufunc_entry(name: str, ufunc: Any) -> Any:
    """numpy's (scipy's) ``ufunc`` on sparse arrays, its keywords honoured or refused.

    pydata's ``__array_ufunc__`` hands ``dtype=`` to the loop without numpy's casting
    rule and ignores ``casting=``: any keyword but ``out`` goes through
    :func:`ufunc_call` (numpy's rule, then the cast). ``out=`` alone is pydata's own,
    which writes the result into a sparse buffer.
    A Python function that calls a ufunc (scipy's ``zeta(x, q=None, out=None)``) takes
    its own keywords: it is returned as it is.
    """
    if not isinstance(ufunc, np.ufunc):
        return ufunc

    def call(*args: Any, out: Any = None, **keywords: Any) -> Any:
        if keywords:
            return ufunc_call(name, "sparse", ufunc, args, out, keywords)
        return ufunc(*args) if out is None else ufunc(*args, out=out)

    call.__name__ = call.__qualname__ = f"_{name.rsplit('.', 1)[-1]}"
    return call


def densified(fn: Any, index: bool = False, name: str | None = None) -> Any:
    """numpy's ``fn`` on the dense values, for results that are dense by nature.

    Cumulative sums, FFTs, order statistics and sort indices of a sparse array
    fill (almost) every position, so pydata sparse has no sparse algorithm for
    them; the values are computed densely and come back as a sparse array (index
    results as numpy arrays, like ``nonzero``'s). Not used for linear algebra.
    ``name`` is the canonical name the errors give (``fn``'s own by default).
    """
    name = fn.__name__ if name is None else name

    @functools.wraps(fn)
    def densified(*args: Any, **kwargs: Any) -> Any:
        # numpy would write into a dense copy of a sparse buffer: refused instead
        no_out(name, "sparse", kwargs.pop("out", None))
        args = tuple(a.todense() if isinstance(a, SparseArray) else a for a in args)
        kwargs = {k: v.todense() if isinstance(v, SparseArray) else v for k, v in kwargs.items()}
        out = fn(*args, **kwargs)
        if index:
            return out
        if isinstance(out, tuple):
            return tuple(COO.from_numpy(np.asarray(o)) for o in out)
        return COO.from_numpy(np.asarray(out))

    densified.__name__ = densified.__qualname__ = f"_{fn.__name__}"
    return densified
