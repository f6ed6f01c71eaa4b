"""pydata sparse: ``scipy.special``.

scipy.special's ufuncs work on sparse arrays (``__array_ufunc__``; f(0) != 0
becomes the fill value): the entries are scipy's own (``special_ufuncs``, shared
with the dask table). ``logsumexp``, ``softmax`` and ``log_softmax`` are not
ufuncs: they are written with sparse's reductions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sparse
from dispatch.translations._adapters import special_ufuncs
from dispatch.translations.sparse._common import sp, ufunc_entry
from sparse import SparseArray

from dispatch.engine import merge_tables


def _logsumexp(
    a: Any, axis: Any = None, b: Any = None, keepdims: bool = False, return_sign: bool = False
) -> Any:
    a = sp(a)
    if b is not None:
        a = a + np.log(sp(b))
    m = sparse.max(a, axis=axis, keepdims=True)
    m = sparse.where(np.isfinite(m), m, 0)
    s = sparse.sum(np.exp(a - m), axis=axis, keepdims=True)
    out = np.log(s) + m
    if not keepdims:
        out = sparse.squeeze(out, axis=axis if axis is not None else tuple(range(a.ndim)))
    return (out, np.sign(np.exp(out))) if return_sign else out


def _softmax(x: Any, axis: Any = None) -> SparseArray:
    x = sp(x)
    e = np.exp(x - sparse.max(x, axis=axis, keepdims=True))
    return e / sparse.sum(e, axis=axis, keepdims=True)


def _log_softmax(x: Any, axis: Any = None) -> SparseArray:
    x = sp(x)
    return x - _logsumexp(x, axis=axis, keepdims=True)


TABLE = merge_tables(
    {
        "scipy.special.logsumexp": _logsumexp,
        "scipy.special.softmax": _softmax,
        "scipy.special.log_softmax": _log_softmax,
    },
    {n: ufunc_entry(n, f) for n, f in special_ufuncs().items()},
    names=("special", "scipy.special ufuncs"),
)
