"""Sums and products of linear tracers with constants, and a tracer's sparse matrix.

Each of these maps the traced elements through a sparse matrix built from the
constants: sums and means along axes, ``einsum`` with exactly one traced
operand (and ``matmul``, ``tensordot``, ``dot``, ``inner``, ``outer``,
``kron`` and ``trace`` written as one), ``where`` with a constant mask.
:func:`as_matrix` turns a tracer's terms into a ``scipy.sparse`` CSR array.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dispatch.lazy import _shapes
from dispatch.lazy._linear import (
    LinearTracer,
    NonLinearError,
    _broadcast_tracer,
    _combine,
    _const,
    _is_tracer,
    _movement,
    _multiply,
    _nonzero_or_none,
)

# ---------------------------------------------------------------- matrices


def as_matrix(t: LinearTracer) -> Any:
    """The tracer's ``A`` as a scipy CSR array of shape (t.size, n_in)."""
    import scipy.sparse as sp

    m, n = t.size, t._n_in
    terms = t._terms
    if t._mat is None and 0 < len(terms) <= 8 and not _duplicates(terms):
        return _terms_to_csr(terms, m, n, t.dtype)
    rows, cols, data = [], [], []
    base = np.arange(m, dtype=np.int64)
    for col, coef in terms:
        valid = col >= 0
        coef = np.broadcast_to(np.asarray(coef, dtype=t.dtype), (m,))
        if valid.all():
            rows.append(base)
            cols.append(col)
            data.append(coef)
        else:
            rows.append(base[valid])
            cols.append(col[valid])
            data.append(coef[valid])
    if t._mat is not None:
        coo = t._mat.tocoo()
        rows.append(coo.row.astype(np.int64))
        cols.append(coo.col.astype(np.int64))
        data.append(coo.data.astype(t.dtype, copy=False))
    if not rows:
        return sp.csr_array((m, n), dtype=t.dtype)
    a = sp.coo_array(
        (np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))), shape=(m, n)
    ).tocsr()
    a.eliminate_zeros()
    return a


def _duplicates(terms: list) -> bool:
    """Whether two terms put an entry in the same row and column."""
    for i in range(len(terms)):
        ci = terms[i][0]
        for j in range(i + 1, len(terms)):
            if np.any((ci == terms[j][0]) & (ci >= 0)):
                return True
    return False


def _terms_to_csr(terms: list, m: int, n: int, dtype: Any) -> Any:
    """At most one entry per term and row, no duplicates: CSR built directly
    (rows of K slots, empty slots and zero coefficients dropped)."""
    import scipy.sparse as sp

    k = len(terms)
    idx_t = np.int32 if max(m, n) * k < 2**31 - 1 else np.int64
    cols = np.empty((m, k), dtype=idx_t)
    data = np.empty((m, k), dtype=dtype)
    for j, (col, coef) in enumerate(terms):
        cols[:, j] = col
        data[:, j] = coef
    keep = (cols >= 0) & (data != 0)
    if keep.all():
        indptr = np.arange(0, m * k + 1, k, dtype=idx_t)
        a = sp.csr_array((data.reshape(-1), cols.reshape(-1), indptr), shape=(m, n))
    else:
        indptr = np.zeros(m + 1, dtype=idx_t)
        np.cumsum(keep.sum(axis=1), out=indptr[1:])
        a = sp.csr_array((data[keep], cols[keep], indptr), shape=(m, n))
    a.has_sorted_indices = k == 1
    return a


def _with_matrix(t: LinearTracer, r: Any, shape: tuple, bias: np.ndarray | None,
                 dtype: Any) -> LinearTracer:
    """The tracer ``r @ t`` for a sparse ``r`` of shape (prod(shape), t.size)."""
    return LinearTracer(shape, dtype, t._n_in, [], r @ as_matrix(t), _nonzero_or_none(bias))


def _sum(t: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False,
         mean: bool = False) -> Any:
    import scipy.sparse as sp

    if not _is_tracer(t):
        return np.sum(_const(t), axis=axis, keepdims=keepdims)
    axes = _shapes.norm_axes(axis, t.ndim)
    kept = tuple(1 if i in axes else d for i, d in enumerate(t.shape))
    out_shape = kept if keepdims else tuple(d for i, d in enumerate(t.shape) if i not in axes)
    m_out = math.prod(kept)
    rows = np.broadcast_to(np.arange(m_out, dtype=np.int64).reshape(kept), t.shape).ravel()
    count = math.prod(t.shape[i] for i in axes)
    w = 1.0 / count if mean else 1.0
    r = sp.csr_array((np.full(t.size, w), (rows, np.arange(t.size))), shape=(m_out, t.size))
    bias = None
    if t._bias is not None:
        f = np.mean if mean else np.sum
        bias = f(t._bias, axis=axes, keepdims=keepdims)
    dt = np.result_type(t.dtype, np.float64) if mean else t.dtype
    return _with_matrix(t, r, out_shape, bias, dt)


def _einsum_linear(letters: list[str], out: str, sizes: dict, operands: list) -> Any:
    """``einsum`` with exactly one traced operand: the matrix mapping the traced
    operand's elements to the output's, built from the contracted constants."""
    import scipy.sparse as sp

    traced = [i for i, o in enumerate(operands) if _is_tracer(o)]
    if len(traced) != 1:
        if not traced:
            spec = ",".join(letters) + "->" + out
            return np.einsum(spec, *[_const(o) for o in operands])
        raise NonLinearError("a product of several traced arrays is not linear")
    p = traced[0]
    t = operands[p]
    tl = letters[p]
    full = tuple(sizes[c] for c in tl)
    if t.shape != full:
        t = _broadcast_tracer(t, full)
    consts = [_const(o) for i, o in enumerate(operands) if i != p]
    clet = [lt for i, lt in enumerate(letters) if i != p]
    consts = [np.broadcast_to(c, tuple(sizes[ch] for ch in lt))
              for c, lt in zip(consts, clet, strict=True)]
    needed = (set(tl) | set(out))
    cl = "".join(sorted({ch for lt in clet for ch in lt} & needed))
    cval = np.einsum(",".join(clet) + "->" + cl, *consts) if consts else np.ones(())
    u = "".join(dict.fromkeys(tl + out + cl))
    grids = {ch: np.arange(sizes[ch], dtype=np.int64).reshape(
        [sizes[ch] if c2 == ch else 1 for c2 in u]) for ch in u}
    row = np.zeros([1] * len(u), dtype=np.int64)
    stride = 1
    for ch in reversed(out):
        row = row + grids[ch] * stride
        stride *= sizes[ch]
    col = np.zeros([1] * len(u), dtype=np.int64)
    stride = 1
    for ch in reversed(tl):
        col = col + grids[ch] * stride
        stride *= sizes[ch]
    val = np.einsum(cl + "->" + "".join(c for c in u if c in cl), cval) if cl else cval
    val = val.reshape([sizes[c] if c in cl else 1 for c in u])
    row, col, val = (a.ravel() for a in np.broadcast_arrays(row, col, val))
    m_out = math.prod(sizes[c] for c in out)
    dtype = np.result_type(t.dtype, cval.dtype)
    r = sp.coo_array((val.astype(dtype), (row, col)), shape=(m_out, t.size)).tocsr()
    bias = None
    if t._bias is not None:
        ops = [_const(o) if i != p else t._bias for i, o in enumerate(operands)]
        bias = np.einsum(",".join(letters) + "->" + out, *ops)
    return _with_matrix(t, r, tuple(sizes[c] for c in out), bias, dtype)


def _einsum(subscripts: Any, *operands: Any, **kwargs: Any) -> Any:
    if not isinstance(subscripts, str):
        raise NonLinearError("einsum: only the subscripts-string form is supported when tracing")
    shapes = [tuple(o.shape) if _is_tracer(o) else np.shape(_const(o)) for o in operands]
    letters, out, sizes = _shapes.parse_einsum(subscripts, shapes)
    return _einsum_linear(letters, out, sizes, list(operands))


def _matmul(a: Any, b: Any) -> Any:
    sa = a.shape if _is_tracer(a) else np.shape(_const(a))
    sb = b.shape if _is_tracer(b) else np.shape(_const(b))
    _shapes.matmul_shape(tuple(sa), tuple(sb))
    la, lb = len(sa), len(sb)
    nb = max(la - 2 if la > 1 else 0, lb - 2 if lb > 1 else 0)
    batch = "ABCDEFGHIJKLMNOP"[:nb]
    ea = (batch[nb - (la - 2):] if la > 2 else "") + ("ik" if la > 1 else "k")
    eb = (batch[nb - (lb - 2):] if lb > 2 else "") + ("kj" if lb > 1 else "k")
    eo = batch + ("i" if la > 1 else "") + ("j" if lb > 1 else "")
    return _einsum(f"{ea},{eb}->{eo}", a, b)


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    sa = a.shape if _is_tracer(a) else np.shape(_const(a))
    sb = b.shape if _is_tracer(b) else np.shape(_const(b))
    xa, xb = _shapes.tensordot_axes(axes, len(sa), len(sb))
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    la = [next(letters) for _ in sa]
    lb = [next(letters) for _ in sb]
    for i, j in zip(xa, xb, strict=False):
        lb[j] = la[i]
    out = [c for i, c in enumerate(la) if i not in xa] + [c for j, c in enumerate(lb)
                                                           if j not in xb]
    return _einsum(f"{''.join(la)},{''.join(lb)}->{''.join(out)}", a, b)


def _dot(a: Any, b: Any) -> Any:
    sa = a.shape if _is_tracer(a) else np.shape(_const(a))
    sb = b.shape if _is_tracer(b) else np.shape(_const(b))
    if not sa or not sb:
        return _multiply(a, b)
    if len(sb) == 1:
        return _tensordot(a, b, ([len(sa) - 1], [0]))
    return _tensordot(a, b, ([len(sa) - 1], [len(sb) - 2]))


def _inner(a: Any, b: Any) -> Any:
    sa = a.shape if _is_tracer(a) else np.shape(_const(a))
    sb = b.shape if _is_tracer(b) else np.shape(_const(b))
    if not sa or not sb:
        return _multiply(a, b)
    return _tensordot(a, b, ([len(sa) - 1], [len(sb) - 1]))


def _outer(a: Any, b: Any) -> Any:
    ra = _movement("ravel", (a,), {}) if _is_tracer(a) else _const(a).ravel()
    rb = _movement("ravel", (b,), {}) if _is_tracer(b) else _const(b).ravel()
    return _einsum("i,j->ij", ra, rb)


def _kron(a: Any, b: Any) -> Any:
    sa = tuple(a.shape) if _is_tracer(a) else np.shape(_const(a))
    sb = tuple(b.shape) if _is_tracer(b) else np.shape(_const(b))
    n = max(len(sa), len(sb))
    a = _reshape_any(a, (1,) * (n - len(sa)) + tuple(sa))
    b = _reshape_any(b, (1,) * (n - len(sb)) + tuple(sb))
    la = "abcdefghijklm"[:n]
    lb = "nopqrstuvwxyz"[:n]
    out = "".join(x + y for x, y in zip(la, lb, strict=False))
    r = _einsum(f"{la},{lb}->{out}", a, b)
    shape = tuple(x * y for x, y in zip(a.shape if _is_tracer(a) else np.shape(a),
                                       b.shape if _is_tracer(b) else np.shape(b), strict=False))
    return _reshape_any(r, shape)


def _reshape_any(x: Any, shape: tuple) -> Any:
    if _is_tracer(x):
        return x if x.shape == shape else _movement("reshape", (x, shape), {})
    return _const(x).reshape(shape)


def _trace(t: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    d = _movement("diagonal", (t, offset, axis1, axis2), {})
    return _sum(d, -1)


def _where(cond: Any, a: Any, b: Any) -> Any:
    if _is_tracer(cond):
        raise NonLinearError("where: a traced condition is not linear")
    c = _const(cond)
    return _combine("where", [a, b], lambda xs: np.where(c, xs[0], xs[1]))
