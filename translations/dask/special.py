"""dask: ``scipy.special``.

scipy.special's ufuncs map lazily over dask blocks (``__array_ufunc__``): the
entries are scipy's own (``special_ufuncs``, shared with the sparse table).
``logsumexp``, ``softmax`` and ``log_softmax`` are not ufuncs (scipy's would
compute the array): they are written with dask's lazy reductions.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
from dask.array import Array
from dispatch.translations._adapters import special_ufuncs

from dispatch.engine import merge_tables


def _logsumexp(
    a: Any, axis: Any = None, b: Any = None, keepdims: bool = False, return_sign: bool = False
) -> Any:
    a = da.asarray(a)
    if b is not None:
        a = a + da.log(da.asarray(b))
    m = da.max(a, axis=axis, keepdims=True)
    m = da.where(da.isfinite(m), m, 0)
    s = da.sum(da.exp(a - m), axis=axis, keepdims=True)
    out = da.log(s) + m
    if not keepdims:
        out = out.squeeze(axis=axis if axis is not None else tuple(range(a.ndim)))
    if return_sign:
        return out, da.sign(da.exp(out))
    return out


def _softmax(x: Any, axis: Any = None) -> Array:
    x = da.asarray(x)
    m = da.max(x, axis=axis, keepdims=True)
    e = da.exp(x - m)
    return e / da.sum(e, axis=axis, keepdims=True)


def _log_softmax(x: Any, axis: Any = None) -> Array:
    x = da.asarray(x)
    return x - _logsumexp(x, axis=axis, keepdims=True)


TABLE = merge_tables(
    {
        "scipy.special.logsumexp": _logsumexp,
        "scipy.special.softmax": _softmax,
        "scipy.special.log_softmax": _log_softmax,
    },
    special_ufuncs(),
    names=("special", "scipy.special ufuncs"),
)
