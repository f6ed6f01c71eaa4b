"""tensorflow's linear algebra: products (``matmul``, ``dot``, ``einsum``...),
``numpy.linalg`` and the ``scipy.linalg`` names tf can serve.

Results carry numpy's field names (``svd(x).U``); integer input is computed in
float64 as numpy does; where tf lacks a kernel (small-integer ``matmul``, LU of a
singular or non-square matrix) the adapter works around it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
from dispatch.translations._adapters import einsum_subscripts, numpy_container
from dispatch.translations._keywords import cast_all, in_order, no_out, ufunc_call
from dispatch.translations._loops import check_core_dims
from dispatch.translations.tensorflow._common import (
    _TENSOR,
    _as,
    _axes,
    _inexact,
    _real_dtype,
    _result_dtype,
    _t,
    _to,
)
from dispatch.translations.tensorflow.elementwise import _conj, _unsigned
from dispatch.translations.tensorflow.shape import _common

from dispatch.engine import unsupported

_NO_MATMUL = frozenset({tf.bool, tf.int8, tf.int16, tf.uint8, tf.uint16})
_WIDE_MATMUL = frozenset({tf.uint32, tf.uint64})  # computed in int64, wrapped back
_NOT_TF_MATMUL = _NO_MATMUL | _WIDE_MATMUL
_wide_matmul = _unsigned(tnp.matmul)


def _rank(x: Any) -> int:
    return x.shape.rank if isinstance(x, _TENSOR) else np.ndim(x)


def _matmul(x1: Any, x2: Any, /, out: Any = None, **ufunc_keywords: Any) -> Any:
    if out is not None or ufunc_keywords:  # numpy's dtype=, order=...: honoured or refused
        return ufunc_call("matmul", "tensorflow", _matmul, (x1, x2), out, ufunc_keywords)
    if (isinstance(x1, _TENSOR) and isinstance(x2, _TENSOR) and x1.dtype == x2.dtype
            and x1.shape.rank >= 2 and x2.shape.rank >= 2 and x1.dtype not in _NOT_TF_MATMUL):
        return tf.matmul(x1, x2)
    check_core_dims("matmul", _rank(x1), _rank(x2))
    dt = _result_dtype(x1, x2)
    if dt in _NO_MATMUL:
        # tf's MatMul has no kernel for these; int32 wraps around identically
        r = tnp.matmul(_to(x1, tf.int32), _to(x2, tf.int32))
        return tf.not_equal(r, 0) if dt == tf.bool else tf.cast(r, dt)
    if dt in _WIDE_MATMUL:
        return _wide_matmul(_to(x1, dt), _to(x2, dt))
    return tnp.matmul(_to(x1, dt), _to(x2, dt))


def _dot(a: Any, b: Any, out: None = None) -> Any:
    no_out("dot", "tensorflow", out)
    dt = _result_dtype(a, b)
    a, b = _to(a, dt), _to(b, dt)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    if b.shape.rank <= 2:
        return _matmul(a, b)
    return tf.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 2]])


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    dt = _result_dtype(a, b)
    a, b = _to(a, dt), _to(b, dt)
    if not isinstance(axes, (int, np.integer)):
        axes = [[int(i) for i in np.atleast_1d(ax)] for ax in axes]
    return tf.tensordot(a, b, axes)


def _einsum(subscripts: Any, *operands: Any, out: Any = None, dtype: Any = None,
            order: str = "K", casting: str = "safe", optimize: Any = False) -> Any:
    # numpy's keywords: optimize only orders the contractions (the same values)
    no_out("einsum", "tensorflow", out)
    subscripts, operands = einsum_subscripts(subscripts, operands)  # tf.einsum: strings only
    if dtype is not None or casting != "safe":
        operands = tuple(cast_all(operands, dtype, casting))
    res = tf.einsum(subscripts, *_common(operands, dtype))
    return res if order == "K" else in_order(res, order)


def _outer(a: Any, b: Any, out: None = None) -> Any:
    no_out("outer", "tensorflow", out)
    dt = _result_dtype(a, b)
    a, b = tf.reshape(_to(a, dt), [-1]), tf.reshape(_to(b, dt), [-1])
    return a[:, None] * b[None, :]


def _kron(a: Any, b: Any) -> Any:
    dt = _result_dtype(a, b)
    return tnp.kron(_to(a, dt), _to(b, dt))


def _inner(a: Any, b: Any) -> Any:
    dt = _result_dtype(a, b)
    a, b = _to(a, dt), _to(b, dt)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return tf.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 1]])


def _vdot(a: Any, b: Any) -> Any:
    dt = _result_dtype(a, b)
    a, b = tf.reshape(_to(a, dt), [-1]), tf.reshape(_to(b, dt), [-1])
    return tf.reduce_sum(_conj(a) * b)


class _Result(tuple):
    """A tuple with numpy's field names (``svd(x).U``).

    Rebuilt both as ``type(r)(iterable)`` (like a tuple) and ``type(r)(*fields)``
    (like a namedtuple, which is how ``tf.nest`` rebuilds it inside ``tf.function``).
    """

    _fields: tuple[str, ...] = ()

    def __new__(cls, *args: Any) -> _Result:
        return super().__new__(cls, args[0] if len(args) == 1 else args)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[type(self)._fields.index(name)]
        except ValueError:
            raise AttributeError(name) from None


def _result(name: str, fields: str) -> type:
    return type(name, (_Result,), {"_fields": tuple(fields.split()), "__slots__": ()})


_QR = _result("QRResult", "Q R")
_SVD = _result("SVDResult", "U S Vh")
_EIGH = _result("EighResult", "eigenvalues eigenvectors")
_EIG = _result("EigResult", "eigenvalues eigenvectors")
_SLOGDET = _result("SlogdetResult", "sign logabsdet")
_LSTSQ = _result("LstsqResult", "x residuals rank singular_values")


def _adjoint(x: Any) -> Any:
    return tf.linalg.adjoint(x) if x.dtype.is_complex else tf.linalg.matrix_transpose(x)


def _qr(a: Any, mode: str = "reduced") -> Any:
    x = _inexact(a)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr mode {mode!r} is not supported on tensorflow")
    q, r = tf.linalg.qr(x, full_matrices=mode == "complete")
    return r if mode == "r" else _QR((q, r))


def _svd(a: Any, full_matrices: bool = True, compute_uv: bool = True,
         hermitian: bool = False) -> Any:
    x = _inexact(a)
    if not compute_uv:
        return tf.linalg.svd(x, compute_uv=False)
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return _SVD((u, s, _adjoint(v)))


def _lower_hermitian(a: Any, UPLO: str) -> Any:
    x = _inexact(a)
    # tf reads the lower triangle; the adjoint moves numpy's upper one there
    return _adjoint(x) if UPLO.upper() == "U" else x


def _eigh(a: Any, UPLO: str = "L") -> Any:
    w, v = tf.linalg.eigh(_lower_hermitian(a, UPLO))
    return _EIGH((tf.math.real(w), v))


def _eigvalsh(a: Any, UPLO: str = "L") -> Any:
    return tf.math.real(tf.linalg.eigvalsh(_lower_hermitian(a, UPLO)))


def _maybe_real(x: Any, *parts: Any) -> tuple:
    # numpy returns real eigenvalues (and vectors) for real input when all are real;
    # the dtype depends on the values, so only eager calls can follow it
    if x.dtype.is_complex or not tf.executing_eagerly():
        return parts
    if bool(tf.reduce_all(tf.equal(tf.math.imag(parts[0]), 0))):
        return tuple(tf.math.real(p) for p in parts)
    return parts


def _eig(a: Any) -> Any:
    x = _inexact(a)
    w, v = tf.linalg.eig(x)
    return _EIG(_maybe_real(x, w, v))


def _eigvals(a: Any) -> Any:
    x = _inexact(a)
    return _maybe_real(x, tf.linalg.eigvals(x))[0]


def _solve(a: Any, b: Any) -> Any:
    dt = _result_dtype(a, b, 1.0)
    a, b = _to(a, dt), _to(b, dt)
    vec = b.shape.rank == 1
    if vec:
        b = b[:, None]
    batch = tf.broadcast_dynamic_shape(tf.shape(a)[:-2], tf.shape(b)[:-2])
    a = tf.broadcast_to(a, tf.concat([batch, tf.shape(a)[-2:]], 0))
    b = tf.broadcast_to(b, tf.concat([batch, tf.shape(b)[-2:]], 0))
    x = tf.linalg.solve(a, b)
    return x[..., 0] if vec else x


def _inv(a: Any) -> Any:
    return tf.linalg.inv(_inexact(a))


def _det(a: Any) -> Any:
    return tf.linalg.det(_inexact(a))


def _slogdet(a: Any) -> Any:
    sign, logdet = tf.linalg.slogdet(_inexact(a))
    return _SLOGDET((sign, tf.math.real(logdet)))


def _cholesky(a: Any, /, *, upper: bool = False) -> Any:
    L = tf.linalg.cholesky(_inexact(a))
    return _adjoint(L) if upper else L


_NOVALUE = object()


def _pinv(a: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = _NOVALUE) -> Any:
    x = _inexact(a)
    m, n = x.shape[-2], x.shape[-1]
    if rcond is None:
        if rtol is _NOVALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(m, n) * np.finfo(_real_dtype(x.dtype).as_numpy_dtype).eps
        else:
            rcond = rtol
    s, u, v = tf.linalg.svd(x, full_matrices=False)
    cutoff = _as(rcond, s.dtype)[..., None] * tf.reduce_max(s, axis=-1, keepdims=True)
    s_inv = tf.where(s > cutoff, 1 / tf.where(s > cutoff, s, tf.ones_like(s)), tf.zeros_like(s))
    return tf.matmul(v * tf.cast(s_inv[..., None, :], v.dtype), u, adjoint_b=True)


def _matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Any:
    x = _inexact(A)
    if x.shape.rank < 2:
        return tf.cast(tf.reduce_any(tf.not_equal(x, 0)), tf.int64)
    s = tf.linalg.svd(x, compute_uv=False)
    smax = tf.reduce_max(s, axis=-1, keepdims=True)
    if tol is None:
        if rtol is None:
            rtol = max(x.shape[-2], x.shape[-1]) * np.finfo(s.dtype.as_numpy_dtype).eps
        tol = smax * _as(rtol, s.dtype)[..., None]
    else:
        tol = _as(tol, s.dtype)[..., None]
    return tf.math.count_nonzero(s > tol, axis=-1, dtype=tf.int64)


def _lstsq(a: Any, b: Any, rcond: Any = None) -> Any:
    dt = _result_dtype(a, b, 1.0)
    a, b = _to(a, dt), _to(b, dt)
    m, n = a.shape[-2], a.shape[-1]
    vec = b.shape.rank == 1
    if vec:
        b = b[:, None]
    if rcond is None:
        rcond = np.finfo(dt.real_dtype.as_numpy_dtype).eps * max(m, n)
    s, u, v = tf.linalg.svd(a, full_matrices=False)
    big = s > tf.cast(rcond, s.dtype) * tf.reduce_max(s)
    rank = tf.math.count_nonzero(big, dtype=tf.int32)  # LAPACK's int, as numpy
    s_inv = tf.where(big, 1 / tf.where(big, s, tf.ones_like(s)), tf.zeros_like(s))
    ub = tf.matmul(u, b, adjoint_a=True) * tf.cast(s_inv[:, None], dt)
    x = tf.matmul(v, ub)
    full = (not tf.executing_eagerly()) or int(rank) == n
    if m > n and full:
        r = b - tf.matmul(a, x)
        sq = tf.math.real(r * tf.math.conj(r)) if dt.is_complex else tf.square(r)
        resid = tf.reduce_sum(sq, axis=0)
    else:
        resid = tf.zeros((0,), dt.real_dtype)
    if vec:
        x = x[:, 0]
    return _LSTSQ((x, resid, rank, s))


def _matrix_power(a: Any, n: int) -> Any:
    x = _t(a)
    if n < 0:
        x, n = tf.linalg.inv(_inexact(x)), -n
    eye = tf.eye(tf.shape(x)[-1], batch_shape=tf.shape(x)[:-2], dtype=x.dtype)
    result = None
    while n:
        if n & 1:
            result = x if result is None else _matmul(result, x)
        n >>= 1
        if n:
            x = _matmul(x, x)
    return eye if result is None else result


def _multi_dot(arrays: Sequence[Any], *, out: None = None) -> Any:
    no_out("linalg.multi_dot", "tensorflow", out)
    return functools.reduce(_matmul, arrays)


def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    x = _inexact(x)
    nd = x.shape.rank
    if axis is None:
        if ord is None:
            r = _sqsum(x, None)
            return tf.reshape(r, [1] * nd) if keepdims else r
        axis = tuple(range(nd))
        if nd not in (1, 2):
            raise ValueError("Improper number of dimensions to norm.")
    axes = _axes(axis, nd)
    if len(axes) == 1:
        r = _vector_norm(x, ord, axes[0])
    elif len(axes) == 2:
        r = _matrix_norm(x, ord, axes)
    else:
        raise ValueError("Improper number of dimensions to norm.")
    if keepdims:
        for ax in sorted(axes):
            r = tf.expand_dims(r, ax)
    return r


def _sqsum(x: Any, axis: Any) -> Any:
    a = tf.abs(x)
    return tf.sqrt(tf.reduce_sum(a * a, axis=axis))


def _vector_norm(x: Any, ord: Any, axis: int) -> Any:
    if ord is None or ord == 2:
        return _sqsum(x, axis)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    a = tf.abs(x)
    if ord == math.inf:
        return tf.reduce_max(a, axis=axis)
    if ord == -math.inf:
        return tf.reduce_min(a, axis=axis)
    if ord == 0:
        return tf.reduce_sum(tf.cast(tf.not_equal(a, 0), a.dtype), axis=axis)
    if ord == 1:
        return tf.reduce_sum(a, axis=axis)
    p = tf.constant(ord, a.dtype)
    return tf.pow(tf.reduce_sum(tf.pow(a, p), axis=axis), 1 / p)


def _matrix_norm(x: Any, ord: Any, axes: tuple[int, int]) -> Any:
    row, col = axes
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord is None or ord == "fro":
        return _sqsum(x, axes)
    if ord in (2, -2, "nuc"):
        rest = [i for i in range(x.shape.rank) if i not in axes]
        s = tf.linalg.svd(tf.transpose(x, [*rest, row, col]), compute_uv=False)
        if ord == "nuc":
            return tf.reduce_sum(s, axis=-1)
        return tf.reduce_max(s, axis=-1) if ord == 2 else tf.reduce_min(s, axis=-1)
    a = tf.abs(x)
    if ord in (1, -1):
        sums = tf.reduce_sum(a, axis=row)
        c = col - 1 if col > row else col
        return tf.reduce_max(sums, axis=c) if ord == 1 else tf.reduce_min(sums, axis=c)
    if ord in (math.inf, -math.inf):
        sums = tf.reduce_sum(a, axis=col)
        r = row - 1 if row > col else row
        return tf.reduce_max(sums, axis=r) if ord > 0 else tf.reduce_min(sums, axis=r)
    raise ValueError(f"Invalid norm order {ord!r} for matrices.")


def _expm(A: Any) -> Any:
    return tf.linalg.expm(_inexact(A))


def _lu_packed(x: Any) -> tuple[Any, Any]:
    """LU with partial pivoting (LAPACK getrf's steps) of (..., m, n) static-shaped ``x``:
    the packed factors and ``perm`` with ``x[perm] = L @ U``; a zero pivot column is left
    as it is, so that singular and non-square matrices factor, as in scipy."""
    m, n = int(x.shape[-2]), int(x.shape[-1])
    nb = x.shape.rank - 2
    rows, cols = tf.range(m), tf.range(n)
    perm = tf.broadcast_to(rows, tf.shape(x)[:-1])
    for j in range(min(m, n)):
        col = x[..., :, j]
        size = tf.abs(tf.math.real(col)) + tf.abs(tf.math.imag(col)) if x.dtype.is_complex \
            else tf.abs(col)  # LAPACK's i?amax: |re| + |im|
        size = tf.where(rows >= j, size, -tf.ones_like(size))
        p = tf.argmax(size, axis=-1, output_type=tf.int32)[..., None]
        swap = tf.where(tf.equal(rows, j), p, tf.where(tf.equal(rows, p), j, rows))
        x = tf.gather(x, swap, axis=nb, batch_dims=nb)
        perm = tf.gather(perm, swap, axis=nb, batch_dims=nb)
        factor = tf.math.divide_no_nan(x[..., :, j], x[..., j:j + 1, j])
        factor = tf.where(rows > j, factor, tf.zeros_like(factor))
        pivot_row = tf.where(cols > j, x[..., j, :], tf.zeros_like(x[..., j, :]))
        x = x - factor[..., :, None] * pivot_row[..., None, :]
        below = tf.logical_and((rows > j)[:, None], tf.equal(cols, j)[None, :])
        x = tf.where(below, factor[..., :, None] + tf.zeros_like(x), x)
    return x, perm


def _lu(a: Any, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True,
        p_indices: bool = False) -> Any:
    x = _inexact(a)
    m, n = int(x.shape[-2]), int(x.shape[-1])
    packed = None
    if m == n and tf.executing_eagerly():
        try:
            packed, perm = tf.linalg.lu(x)
        except tf.errors.InvalidArgumentError:  # tf refuses singular matrices; scipy factors
            packed = None
    elif m == n:  # traced: tf's own (singular matrices fail when the graph runs)
        packed, perm = tf.linalg.lu(x)
    if packed is None:
        packed, perm = _lu_packed(x)
    k = min(m, n)
    L = tf.linalg.band_part(packed[..., :, :k], -1, 0) * (1 - tf.eye(m, k, dtype=x.dtype)) \
        + tf.eye(m, k, dtype=x.dtype)
    U = tf.linalg.band_part(packed[..., :k, :], 0, -1)
    # tf: x[perm] = L @ U, so scipy's P (x = P @ L @ U) is the transposed permutation matrix
    if p_indices:
        P = tf.cast(tf.argsort(perm, axis=-1), tf.int32)
    else:
        P = tf.linalg.matrix_transpose(tf.one_hot(perm, m, dtype=x.dtype))
    if permute_l:
        return tf.matmul(tf.linalg.matrix_transpose(tf.one_hot(perm, m, dtype=x.dtype)), L), U
    return P, L, U


def _householder_product(A: Any, tau: Any) -> Any:
    # Q = H_1 ... H_k with H_i = I - tau_i v_i v_i^H (LAPACK orgqr), first n columns
    A = _t(A)
    tau = tf.cast(_t(tau), A.dtype)
    m, n = A.shape[-2], A.shape[-1]
    k = tau.shape[-1]
    eye = tf.eye(m, batch_shape=tf.shape(A)[:-2], dtype=A.dtype)
    Q = eye
    rows = tf.range(m)[:, None]
    for i in range(k):
        v = tf.where(rows > i, A[..., :, i : i + 1], tf.zeros_like(A[..., :, i : i + 1]))
        v = tf.where(tf.equal(rows, i), tf.ones_like(v), v)
        H = eye - tau[..., i, None, None] * tf.matmul(v, v, adjoint_b=True)
        Q = tf.matmul(Q, H)
    return Q[..., :, :n]


def _solve_triangular(a: Any, b: Any, trans: Any = 0, lower: bool = False,
                      unit_diagonal: bool = False, overwrite_b: bool = False,
                      check_finite: bool = True) -> Any:
    dt = _result_dtype(a, b, 1.0)
    a, b = _to(a, dt), _to(b, dt)
    if unit_diagonal:
        a = tf.linalg.set_diag(a, tf.ones_like(tf.linalg.diag_part(a)))
    vec = b.shape.rank == a.shape.rank - 1
    if vec:
        b = b[..., None]
    trans = {0: "N", 1: "T", 2: "C"}.get(trans, trans)
    if trans == "N":
        x = tf.linalg.triangular_solve(a, b, lower=lower)
    elif trans == "C" or not dt.is_complex:
        x = tf.linalg.triangular_solve(a, b, lower=lower, adjoint=True)
    else:
        # a^T x = b  <=>  a^H conj(x) = conj(b)
        x = tf.math.conj(tf.linalg.triangular_solve(a, tf.math.conj(b), lower=lower,
                                                    adjoint=True))
    return x[..., 0] if vec else x


def _cho_factor(a: Any, lower: bool = False, overwrite_a: bool = False,
                check_finite: bool = True) -> tuple:
    # the unused triangle is zero here (scipy leaves whatever it held)
    return _cholesky(a, upper=not lower), lower


def _cho_solve(c_and_lower: tuple, b: Any, overwrite_b: bool = False,
               check_finite: bool = True) -> Any:
    c, lower = c_and_lower
    dt = _result_dtype(c, b, 1.0)
    c, b = _to(c, dt), _to(b, dt)
    L = c if lower else _adjoint(c)
    L = tf.linalg.band_part(L, -1, 0)
    vec = b.shape.rank == 1
    x = tf.linalg.cholesky_solve(L, b[:, None] if vec else b)
    return x[:, 0] if vec else x


TABLE = {
    # products
    "matmul": _matmul,
    "dot": _dot,
    "tensordot": _tensordot,
    "einsum": _einsum,
    "outer": _outer,
    "kron": _kron,
    "inner": _inner,
    "vdot": _vdot,
    # numpy.linalg
    "linalg.qr": _qr,
    "linalg.svd": _svd,
    "linalg.eigh": _eigh,
    "linalg.eigvalsh": _eigvalsh,
    "linalg.eig": _eig,
    "linalg.eigvals": _eigvals,
    "linalg.solve": _solve,
    "linalg.inv": _inv,
    "linalg.pinv": _pinv,
    "linalg.det": _det,
    "linalg.slogdet": _slogdet,
    "linalg.norm": _norm,
    "linalg.cholesky": _cholesky,
    "linalg.lstsq": numpy_container(_lstsq, tuple),  # numpy's is a plain tuple
    "linalg.matrix_rank": _matrix_rank,
    "linalg.matrix_power": _matrix_power,
    "linalg.multi_dot": _multi_dot,
    "linalg.expm": _expm,
    "linalg.lu": _lu,
    "linalg.householder_product": _householder_product,
    # scipy.linalg
    "scipy.linalg.expm": _expm,
    "scipy.linalg.lu": _lu,
    "scipy.linalg.solve_triangular": _solve_triangular,
    "scipy.linalg.cho_factor": _cho_factor,
    "scipy.linalg.cho_solve": _cho_solve,
    "scipy.linalg.lu_factor": unsupported(
        "tensorflow's LU returns a permutation, not LAPACK pivots; use scipy.linalg.lu"
    ),
}
