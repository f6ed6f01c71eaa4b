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

The tracer and its element-moving and arithmetic operations are here; sums,
contractions and the tracer's sparse matrix in ``_linear_products``; the
table of ``do`` names the tracer implements and :func:`matrix_from_function`
in ``_linear_trace``.
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
        return _products._sum(self, axis, keepdims=keepdims)

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
        return _products._matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _products._matmul(other, self)

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


# sums and products build on the tracer and are used only at call time: imported last
from dispatch.lazy import _linear_products as _products  # noqa: E402
