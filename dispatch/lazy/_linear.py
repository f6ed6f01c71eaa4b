"""Linear tracing: run a linear function once and read off its sparse matrix.

A :class:`LinearTracer` stands for ``A @ x.ravel() + b`` reshaped to its
shape, where ``x`` is the traced input. ``A`` is kept as a list of *terms*,
each a column index and a coefficient per output element (a shifted and
scaled copy of the input: what slicing, padding, rolling and stencils
produce), plus a general sparse matrix for what terms cannot express (sums
along axes, products with constant matrices). Data movement (indexing,
reshapes, concatenation...) is traced by running the same numpy function on
an array of element numbers, so any such function moves the coefficients
exactly as it moves data.

The tracer is a backend registered with priority 2: it wins over every
library and over lazy arrays, and every array of another library in a call is
a constant.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from dispatch.lazy import _shapes

_WEAK = (int, float, complex, bool)


class NonLinearError(TypeError):
    """The traced function applied an operation that is not linear in its input."""


class LinearTracer:
    """An affine function of the traced input, with numpy-like shape and dtype."""

    __slots__ = ("_bias", "_mat", "_n_in", "_terms", "dtype", "shape")
    __array_ufunc__ = None  # ``ndarray + tracer`` defers to the tracer

    def __init__(self, shape: tuple, dtype: Any, n_in: int, terms: list,
                 mat: Any = None, bias: np.ndarray | None = None):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self._n_in = n_in
        self._terms = terms
        self._mat = mat
        self._bias = bias

    # ---------------------------------------------------------------- numpy-like surface

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def T(self) -> LinearTracer:
        return _movement("transpose", (self,), {})

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        return f"<LinearTracer shape={self.shape} dtype={self.dtype.name} terms={len(self._terms)}>"

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise NonLinearError(
            "a linear tracer cannot be converted to a numpy array: the traced function "
            "must use do(...) (or array operators) on its input, not numpy directly"
        )

    def __bool__(self) -> bool:
        raise NonLinearError("the truth value of a traced array is not known while tracing")

    def __getitem__(self, key: Any) -> LinearTracer:
        return _getitem(self, key)

    def reshape(self, *shape: Any) -> LinearTracer:
        return _movement("reshape", (self, shape[0] if len(shape) == 1 else shape), {})

    def transpose(self, *axes: Any) -> LinearTracer:
        return _movement("transpose", (self, axes[0] if len(axes) == 1 else (axes or None)), {})

    def ravel(self) -> LinearTracer:
        return _movement("ravel", (self,), {})

    def sum(self, axis: Any = None, keepdims: bool = False) -> LinearTracer:
        return _sum(self, axis, keepdims=keepdims)

    def astype(self, dtype: Any, **kwargs: Any) -> LinearTracer:
        return _astype(self, dtype)

    def __neg__(self) -> LinearTracer:
        return _scale(self, -1)

    def __pos__(self) -> LinearTracer:
        return self

    def __add__(self, other: Any) -> Any:
        return _add(self, other)

    def __radd__(self, other: Any) -> Any:
        return _add(other, self)

    def __sub__(self, other: Any) -> Any:
        return _add(self, _neg(other))

    def __rsub__(self, other: Any) -> Any:
        return _add(other, _scale(self, -1))

    def __mul__(self, other: Any) -> Any:
        return _multiply(self, other)

    def __rmul__(self, other: Any) -> Any:
        return _multiply(other, self)

    def __truediv__(self, other: Any) -> Any:
        return _divide(self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _divide(other, self)

    def __matmul__(self, other: Any) -> Any:
        return _matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _matmul(other, self)

    def __pow__(self, other: Any) -> Any:
        raise NonLinearError("power of a traced array is not linear")

    __rpow__ = __pow__

    def _compare(self, other: Any) -> Any:
        raise NonLinearError("comparing a traced array is not linear (the result is boolean)")

    __lt__ = __le__ = __gt__ = __ge__ = _compare


def _is_tracer(x: Any) -> bool:
    return type(x) is LinearTracer


def _const(x: Any) -> np.ndarray:
    """A constant argument as a numpy array (any library's array is accepted)."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (*_WEAK, np.generic, list, tuple)):
        return np.asarray(x)
    from dispatch import to_numpy

    return np.asarray(to_numpy(x))


def _neg(x: Any) -> Any:
    return _scale(x, -1) if _is_tracer(x) else -_const(x)


# ---------------------------------------------------------------- building blocks


def _identity(shape: tuple, dtype: Any) -> LinearTracer:
    n = math.prod(shape)
    return LinearTracer(shape, dtype, n, [(np.arange(n, dtype=np.int64), 1)])


def _gather_terms(t: LinearTracer, flat: np.ndarray, fill: np.ndarray | None) -> list:
    out = []
    for col, coef in t._terms:
        nc = col[flat]
        if fill is not None:
            nc[fill] = -1
        out.append((nc, coef[flat] if isinstance(coef, np.ndarray) else coef))
    return out


def _select_rows(mat: Any, flat: np.ndarray, fill: np.ndarray | None, m: int) -> Any:
    import scipy.sparse as sp

    if mat is None:
        return None
    if fill is None:
        return mat[flat]
    rows = np.flatnonzero(~fill)
    sel = sp.csr_array((np.ones(len(rows)), (rows, flat[rows])), shape=(len(flat), m))
    return sel @ mat


def _apply_gather(t: LinearTracer, idx: np.ndarray, bias: np.ndarray | None,
                  dtype: Any = None) -> LinearTracer:
    """The tracer whose element ``i`` is element ``idx[i]`` of ``t`` (none where -1)."""
    flat = idx.ravel()
    neg = flat < 0
    fill = neg if neg.any() else None
    terms = _gather_terms(t, flat, fill)
    mat = _select_rows(t._mat, flat, fill, t.size)
    return LinearTracer(idx.shape, t.dtype if dtype is None else dtype, t._n_in, terms, mat,
                        _nonzero_or_none(bias))


def _nonzero_or_none(b: np.ndarray | None) -> np.ndarray | None:
    if b is None or not np.any(b):
        return None
    return b


def _numbers(t: LinearTracer) -> np.ndarray:
    """Element numbers 1..n in the tracer's shape (0 marks a filled element)."""
    return np.arange(1, t.size + 1, dtype=np.int64).reshape(t.shape)


def _bias_or_zeros(t: LinearTracer) -> np.ndarray:
    return t._bias if t._bias is not None else np.zeros(t.shape, dtype=t.dtype)


def _numpy(name: str) -> Callable:
    from dispatch._resolve import resolve

    return resolve("numpy", name)


def _movement(name: str, args: tuple, kwargs: dict) -> Any:
    """A function that only moves, copies or drops elements, applied to a tracer in
    the first argument: traced by running it on element numbers."""
    t = args[0]
    rest = args[1:]
    if any(_is_tracer(a) for a in rest) or any(_is_tracer(v) for v in kwargs.values()):
        raise NonLinearError(f"{name!r}: only its first argument may be traced")
    fn = _numpy(name) if name != "getitem" else (lambda a, k: a[k])
    idx_kwargs = dict(kwargs)
    if name == "pad":
        mode = idx_kwargs.get("mode", rest[1] if len(rest) > 1 else "constant")
        if mode == "constant":
            idx_kwargs["constant_values"] = 0
        elif mode not in ("edge", "wrap", "reflect", "symmetric"):
            raise NonLinearError(f"pad mode {mode!r} is not supported by the linear tracer")
    rest_c = tuple(_const(a) if _is_array_like(a) else a for a in rest)
    idx = fn(_numbers(t), *rest_c, **idx_kwargs)
    needs_bias = t._bias is not None or (
        name == "pad" and np.any(kwargs.get("constant_values", 0))
    )
    if isinstance(idx, (list, tuple)):
        biases = fn(_bias_or_zeros(t), *rest_c, **kwargs) if needs_bias else [None] * len(idx)
        return [_apply_gather(t, np.asarray(i) - 1, b) for i, b in zip(idx, biases, strict=False)]
    bias = fn(_bias_or_zeros(t), *rest_c, **kwargs) if needs_bias else None
    return _apply_gather(t, np.asarray(idx) - 1, bias)


def _is_array_like(a: Any) -> bool:
    return hasattr(a, "shape") and hasattr(a, "dtype") and not isinstance(a, np.generic)


def _getitem(t: LinearTracer, key: Any) -> LinearTracer:
    items = key if isinstance(key, tuple) else (key,)
    if any(_is_tracer(k) for k in items):
        raise NonLinearError("indexing with a traced array is not linear")
    key = tuple(_const(k) if _is_array_like(k) else k for k in items) if isinstance(
        key, tuple) else (_const(key) if _is_array_like(key) else key)
    return _movement("getitem", (t, key), {})


def _combine(name: str, parts: Sequence[Any], apply: Callable[[list], Any]) -> LinearTracer:
    """A function of several arrays that only moves elements (concatenate, stack,
    where with a constant mask...): traced in one space numbering all the tracers'
    elements one after another."""
    tracers = [p for p in parts if _is_tracer(p)]
    offsets = []
    numbers = []
    values = []
    off = 0
    for p in parts:
        if _is_tracer(p):
            offsets.append(off)
            numbers.append(_numbers(p) + off)
            values.append(_bias_or_zeros(p))
            off += p.size
        else:
            c = _const(p)
            numbers.append(np.zeros(c.shape, dtype=np.int64))
            values.append(c)
    idx = np.asarray(apply(numbers)) - 1
    bias = np.asarray(apply(values))
    flat = idx.ravel()
    terms: list = []
    mats = []
    n_in = tracers[0]._n_in
    for t, o in zip(tracers, offsets, strict=False):
        local = flat - o
        inside = (local >= 0) & (local < t.size)
        if not inside.any():
            continue
        safe = np.where(inside, local, 0)
        fill = ~inside if not inside.all() else None
        terms.extend(_gather_terms(t, safe, fill))
        if t._mat is not None:
            mats.append(_select_rows(t._mat, safe, fill, t.size))
    dtype = np.result_type(*(p.dtype if _is_tracer(p) else _const(p).dtype for p in parts))
    return LinearTracer(idx.shape, dtype, n_in, terms, _sum_mats(mats), _nonzero_or_none(bias))


def _sum_mats(mats: list) -> Any:
    mats = [m for m in mats if m is not None]
    if not mats:
        return None
    out = mats[0]
    for m in mats[1:]:
        out = out + m
    return out


def _broadcast_tracer(t: LinearTracer, shape: tuple) -> LinearTracer:
    if t.shape == shape:
        return t
    return _movement("broadcast_to", (t, shape), {})


# ---------------------------------------------------------------- arithmetic


def _add(a: Any, b: Any) -> LinearTracer:
    ta, tb = _is_tracer(a), _is_tracer(b)
    if not ta and not tb:
        return _const(a) + _const(b)
    sa = a.shape if ta else np.shape(_const(a))
    sb = b.shape if tb else np.shape(_const(b))
    shape = _shapes.broadcast(tuple(sa), tuple(sb))
    if ta and tb:
        a, b = _broadcast_tracer(a, shape), _broadcast_tracer(b, shape)
        terms = _merge_terms(a._terms + b._terms)
        bias = a._bias if b._bias is None else (b._bias if a._bias is None else a._bias + b._bias)
        return LinearTracer(shape, np.result_type(a.dtype, b.dtype), a._n_in, terms,
                            _sum_mats([a._mat, b._mat]), bias)
    t, c = (a, _const(b)) if ta else (b, _const(a))
    t = _broadcast_tracer(t, shape)
    bias = np.broadcast_to(c, shape) if t._bias is None else t._bias + c
    return LinearTracer(shape, np.result_type(t.dtype, c.dtype), t._n_in, t._terms, t._mat,
                        _nonzero_or_none(np.asarray(bias)))


def _merge_terms(terms: list) -> list:
    """Terms with the same column array (``x + 2 * x``) merge into one."""
    if len(terms) < 2:
        return list(terms)
    out: dict[int, tuple] = {}
    for col, coef in terms:
        k = id(col)
        if k in out:
            c0, f0 = out[k]
            out[k] = (c0, f0 + coef)
        else:
            out[k] = (col, coef)
    return list(out.values())


def _scale(t: LinearTracer, c: Any) -> LinearTracer:
    """``t * c`` for a constant ``c`` broadcastable to ``t``'s shape."""
    c = _const(c)
    shape = _shapes.broadcast(t.shape, c.shape)
    t = _broadcast_tracer(t, shape)
    dtype = np.result_type(t.dtype, c.dtype)
    if c.size == 1:
        s = c.reshape(()).item()
        terms = [(col, coef * s) for col, coef in t._terms]
        mat = None if t._mat is None else t._mat * s
        bias = None if t._bias is None else t._bias * s
    else:
        cf = np.broadcast_to(c, shape).ravel()
        terms = [(col, coef * cf) for col, coef in t._terms]
        mat = None
        if t._mat is not None:
            import scipy.sparse as sp

            mat = sp.diags_array(cf) @ t._mat
        bias = None if t._bias is None else t._bias * np.broadcast_to(c, shape)
    return LinearTracer(shape, dtype, t._n_in, terms, mat, bias)


def _multiply(a: Any, b: Any) -> Any:
    ta, tb = _is_tracer(a), _is_tracer(b)
    if ta and tb:
        raise NonLinearError("multiply: the product of two traced arrays is not linear")
    if not ta and not tb:
        return _const(a) * _const(b)
    return _scale(a, b) if ta else _scale(b, a)


def _divide(a: Any, b: Any) -> Any:
    if _is_tracer(b):
        raise NonLinearError("divide: dividing by a traced array is not linear")
    if not _is_tracer(a):
        return _const(a) / _const(b)
    c = _const(b)
    return _scale(a, 1 / c if c.dtype.kind in "fc" else 1.0 / c)


def _astype(t: LinearTracer, dtype: Any, **kwargs: Any) -> LinearTracer:
    dt = np.dtype(_shapes.dtype_name(dtype))
    if dt.kind not in "fc":
        raise NonLinearError(f"astype({dt.name}): rounding to an integer type is not linear")
    return LinearTracer(t.shape, dt, t._n_in, t._terms, t._mat, t._bias)


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


def _joiner(name: str) -> Callable:
    fn = _numpy(name)

    def join(arrays: Sequence[Any], *args: Any, **kwargs: Any) -> Any:
        return _combine(name, list(arrays), lambda xs: fn(xs, *args, **kwargs))

    return join


def _sequence_movement(name: str) -> Callable:
    def op(*arrays: Any, **kwargs: Any) -> Any:
        if len(arrays) == 1:
            return _movement(name, (arrays[0],), kwargs)
        return [_movement(name, (a,), kwargs) for a in arrays]

    return op


MOVEMENT = [
    "reshape", "ravel", "transpose", "moveaxis", "swapaxes", "squeeze", "expand_dims",
    "flip", "fliplr", "flipud", "roll", "rot90", "broadcast_to", "tile", "repeat",
    "pad", "diagonal", "diag", "tril", "triu", "take", "take_along_axis", "split",
    "array_split", "hsplit", "vsplit", "copy",
]

JOINERS = ("concatenate", "concat", "stack", "hstack", "vstack", "dstack", "column_stack")

# do names -> implementations on tracers
OPS: dict[str, Callable] = {
    "add": _add,
    "subtract": lambda a, b: _add(a, _neg(b)),
    "multiply": _multiply,
    "divide": _divide,
    "true_divide": _divide,
    "negative": lambda a: _scale(a, -1),
    "positive": lambda a: a,
    "sum": lambda a, axis=None, dtype=None, keepdims=False: _sum(a, axis, dtype, keepdims),
    "mean": lambda a, axis=None, dtype=None, keepdims=False: _sum(a, axis, dtype, keepdims,
                                                                   mean=True),
    "matmul": _matmul,
    "dot": _dot,
    "tensordot": _tensordot,
    "einsum": _einsum,
    "inner": _inner,
    "outer": _outer,
    "kron": _kron,
    "trace": _trace,
    "where": _where,
    "astype": _astype,
    "getitem": _getitem,
    "asarray": lambda a, dtype=None: a if dtype is None else _astype(a, dtype),
    "real": lambda a: _real_only("real", a),
    "conj": lambda a: _real_only("conj", a),
    "conjugate": lambda a: _real_only("conjugate", a),
    "zeros_like": lambda a, dtype=None: np.zeros(a.shape, dtype or a.dtype),
    "ones_like": lambda a, dtype=None: np.ones(a.shape, dtype or a.dtype),
    "full_like": lambda a, v, dtype=None: np.full(a.shape, v, dtype or a.dtype),
    "atleast_1d": _sequence_movement("atleast_1d"),
    "atleast_2d": _sequence_movement("atleast_2d"),
    "atleast_3d": _sequence_movement("atleast_3d"),
}
for _n in MOVEMENT:
    OPS[_n] = (lambda n: lambda *a, **k: _movement(n, a, k))(_n)
for _n in JOINERS:
    OPS[_n] = _joiner(_n)


def _real_only(name: str, a: Any) -> Any:
    if a.dtype.kind == "c":
        raise NonLinearError(f"{name} of a complex traced array is not complex-linear")
    return a


# names that are certainly not linear (for a clearer message)
NONLINEAR = frozenset(_shapes.vocabulary.ELEMENTWISE_UNARY) | frozenset(
    _shapes.vocabulary.ELEMENTWISE_BINARY) | {
    "power", "float_power", "exp", "log", "maximum", "minimum", "sort", "argsort", "max",
    "min", "prod", "std", "var", "linalg.norm", "linalg.inv", "linalg.det", "abs",
} - set(OPS)


def unsupported_op(name: str) -> Callable:
    def op(*args: Any, **kwargs: Any) -> Any:
        if name in NONLINEAR:
            raise NonLinearError(
                f"matrix_from_function: {name!r} is not a linear operation, so the traced "
                "function has no matrix"
            )
        raise NonLinearError(
            f"matrix_from_function: {name!r} is not supported by the linear tracer "
            f"(supported: {', '.join(sorted(OPS))})"
        )

    op.__name__ = name
    return op


# ---------------------------------------------------------------- public entry


def matrix_from_function(f: Callable, example_x: Any, *args: Any, **kwargs: Any) -> tuple:
    """The sparse matrix (and offset) of a linear (affine) function, by tracing it once.

    ``f(x, *args, **kwargs)`` is called once with a tracer in place of ``x``;
    it must be written with ``do`` (or array operators) and be linear in ``x``:
    additions, subtractions, products and divisions by constants, negation,
    indexing and slicing, reshape, transpose, concatenate, stack, pad, roll,
    sum, mean, matmul, tensordot and einsum with constants, ``where`` with a
    constant mask. Everything computed from constants alone (numpy arrays) is
    folded while tracing.

    Parameters
    ----------
    f : callable
    example_x : array
        Gives the shape and dtype of ``x`` (any library).
    *args, **kwargs
        Passed on to ``f``; constants while tracing.

    Returns
    -------
    matrix : sparse matrix of shape (out.size, x.size)
        A ``scipy.sparse.csr_array`` when ``example_x`` and every other array
        argument are numpy; the library's own sparse type (torch COO tensor,
        jax ``BCOO``, ``tf.sparse.SparseTensor``) when one of them belongs to
        torch, jax or tensorflow.
    offset : array of the output's shape
        ``f(x) == (matrix @ x.ravel()).reshape(offset.shape) + offset``; zero
        for a linear function.

    Raises
    ------
    NonLinearError
        ``f`` applied an operation that is not linear in ``x``, naming it.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> def diff(x):
    ...     return x[1:] - x[:-1]
    >>> m, b = lazy.matrix_from_function(diff, np.zeros(3))
    >>> m.toarray()
    array([[-1.,  1.,  0.],
           [ 0., -1.,  1.]])
    """
    import dispatch.lazy  # noqa: F401  (registers the tracer backend)

    shape = tuple(map(int, np.shape(example_x)))
    try:
        dtype = np.dtype(_shapes.dtype_name(getattr(example_x, "dtype", np.float64)))
    except TypeError:
        dtype = np.dtype("float64")
    if dtype.kind not in "fc":
        dtype = np.dtype("float64")
    target = _target_backend(example_x, args, kwargs)
    args = tuple(_to_host(a) for a in args)
    kwargs = {k: _to_host(v) for k, v in kwargs.items()}
    tracer = _identity(shape, dtype)
    out = f(tracer, *args, **kwargs)
    if _is_tracer(out):
        mat = as_matrix(out)
        offset = _bias_or_zeros(out)
    else:
        import scipy.sparse as sp

        offset = _const(out)
        mat = sp.csr_array((offset.size, tracer.size), dtype=offset.dtype)
    offset = np.array(offset)
    if target is None:
        return mat, offset
    return _to_library(mat, target), _offset_to(offset, target)


def _target_backend(x: Any, args: tuple, kwargs: dict) -> str | None:
    from dispatch._infer import backend_of_type

    for a in (x, *args, *kwargs.values()):
        b = backend_of_type(type(a))
        if b not in (None, "numpy", "lazy", "linear") and _is_array_like(a):
            return b
    return None


def _to_host(a: Any) -> Any:
    from dispatch._infer import backend_of_type

    if isinstance(a, (list, tuple)):
        return type(a)(_to_host(e) for e in a)
    b = backend_of_type(type(a))
    if b not in (None, "numpy") and _is_array_like(a) and not _is_tracer(a):
        from dispatch import to_numpy

        return np.asarray(to_numpy(a))
    return a


def _offset_to(offset: np.ndarray, backend: str) -> Any:
    from dispatch import do

    return do("asarray", offset, like=backend)


def _to_library(mat: Any, backend: str) -> Any:
    coo = mat.tocoo()
    row = coo.row.astype(np.int64)
    col = coo.col.astype(np.int64)
    if backend == "torch":
        import torch

        # the indices come from a valid scipy matrix: the invariant check is not needed
        return torch.sparse_coo_tensor(torch.as_tensor(np.stack([row, col])),
                                       torch.as_tensor(coo.data), mat.shape,
                                       check_invariants=False).coalesce()
    if backend == "jax":
        import jax.numpy as jnp
        from jax.experimental import sparse as jsparse

        indices = jnp.asarray(np.stack([row, col], axis=1))
        return jsparse.BCOO((jnp.asarray(coo.data), indices), shape=mat.shape)
    if backend == "tensorflow":
        import tensorflow as tf

        st = tf.sparse.SparseTensor(np.stack([row, col], axis=1), coo.data, mat.shape)
        return tf.sparse.reorder(st)
    raise NotImplementedError(
        f"matrix_from_function: no sparse matrix type known for backend {backend!r}; "
        "pass numpy arguments to get a scipy.sparse matrix"
    )
