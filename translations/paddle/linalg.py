"""paddle: products and ``numpy.linalg`` with numpy's results.

paddle's ``slogdet`` stacks sign and log into one tensor, ``svd`` has no
``compute_uv``, ``dot`` is a vector-only product, ``eig``/``eigvals`` return
complex results for real matrices (numpy: real where they are real), ``solve``
wants a column for a vector right-hand side and products refuse mixed dtypes:
the adapters below.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np
import paddle
from dispatch.translations._adapters import einsum_subscripts, empty_axes
from dispatch.translations._keywords import cast_all, in_order, no_out, ufunc_call
from dispatch.translations.paddle._common import (
    equal,
    not_equal,
    np_name,
    power,
    promote,
    real_embedding,
)
from paddle import Tensor

SlogdetResult = namedtuple("SlogdetResult", "sign logabsdet")
SVDResult = namedtuple("SVDResult", "U S Vh")
EighResult = namedtuple("EighResult", "eigenvalues eigenvectors")
EigResult = namedtuple("EigResult", "eigenvalues eigenvectors")
QRResult = namedtuple("QRResult", "Q R")


def _inexact(a: Tensor) -> Tensor:
    return a if a.is_floating_point() or a.is_complex() else a.astype("float64")


def _matmul(x1: Any, x2: Any, /, out: Any = None, **ufunc_keywords: Any) -> Tensor:
    if out is not None or ufunc_keywords:  # numpy's dtype=, order=...: honoured or refused
        return ufunc_call("matmul", "paddle", _matmul, (x1, x2), out, ufunc_keywords)
    # paddle's kernel first, where it gives numpy's dtype or refuses (bool, int8, most
    # pairs of two dtypes); it takes some pairs of two dtypes, all with numpy's result
    # but float32 with int32 or int64 (float32: numpy's is float64), so a first operand
    # of 4-byte items needs one dtype. The item size costs a third of a paddle dtype.
    if type(x1) is Tensor and type(x2) is Tensor and (
            x1.element_size() != 4 or x1.dtype is x2.dtype):
        try:
            return paddle.matmul(x1, x2)
        except (TypeError, ValueError, RuntimeError, NotImplementedError):
            pass
    x1, x2 = promote(x1, x2)
    if x1.dtype == paddle.bool:
        return paddle.matmul(x1.astype("int64"), x2.astype("int64")) != 0
    return paddle.matmul(x1, x2)


def _dot(a: Any, b: Any, out: Any = None) -> Tensor:
    no_out("dot", "paddle", out)
    a, b = promote(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if b.ndim == 1 or (a.ndim <= 2 and b.ndim <= 2):
        return _matmul(a, b)
    # numpy's dot: the last axis of a with the second to last of b
    return paddle.tensordot(a, b, axes=[[a.ndim - 1], [b.ndim - 2]])


def _vdot(a: Any, b: Any) -> Tensor:
    a, b = promote(a, b)
    a = paddle.conj(a) if a.is_complex() else a
    out = paddle.sum(a.flatten() * b.flatten())
    return out if out.dtype == a.dtype else out.astype(a.dtype)


def _inner(a: Any, b: Any) -> Tensor:
    a, b = promote(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return paddle.tensordot(a, b, axes=[[a.ndim - 1], [b.ndim - 1]])


def _outer(a: Any, b: Any, out: Any = None) -> Tensor:
    no_out("outer", "paddle", out)
    a, b = promote(a, b)
    return paddle.outer(a.flatten(), b.flatten())


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    a, b = promote(a, b)
    if isinstance(axes, (int, np.integer)):
        axes = [list(range(a.ndim - int(axes), a.ndim)), list(range(int(axes)))]
    else:
        try:  # numpy unpacks a pair: (), a single list of axes... are refused
            axes_a, axes_b = axes
        except (TypeError, ValueError) as err:
            raise ValueError(f"tensordot: axes must be an int or a pair of sequences of "
                             f"axes, got {axes!r} ({err})") from None
        axes = [list(ax) if isinstance(ax, (tuple, list)) else [ax] for ax in (axes_a, axes_b)]
    return paddle.tensordot(a, b, axes=axes)


def _kron(a: Any, b: Any) -> Tensor:
    a, b = promote(a, b)
    return paddle.kron(a, b)


def _einsum(subscripts: Any, *operands: Any, out: Any = None, dtype: Any = None,
            order: str = "K", casting: str = "safe", optimize: Any = False) -> Tensor:
    # numpy's keywords: optimize only orders the contractions (the same values)
    no_out("einsum", "paddle", out)
    subscripts, operands = einsum_subscripts(subscripts, operands)  # paddle: strings only
    if dtype is not None or casting != "safe":
        operands = tuple(cast_all(operands, dtype, casting))
    ops = promote(*operands)
    dt = ops[0].dtype if ops else None
    if ops and not (ops[0].is_floating_point() or ops[0].is_complex()):
        # paddle's einsum has float kernels only: integers summed in int64 wrap as numpy's
        res = paddle.einsum(subscripts, *(o.astype("float64") for o in ops)).round().astype(
            dt) if dt != paddle.int64 else _int_einsum(subscripts, ops)
    else:
        res = paddle.einsum(subscripts, *ops)
    return res if order == "K" else in_order(res, order)


def _int_einsum(subscripts: str, ops: list) -> Tensor:
    return paddle.einsum(subscripts, *(o.astype("float64") for o in ops)).round().astype(
        "int64")


def _cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
           axis: int | None = None) -> Tensor:
    a, b = promote(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = paddle.moveaxis(a, axisa, -1)
    b = paddle.moveaxis(b, axisb, -1)
    two = a.shape[-1] == 2 and b.shape[-1] == 2
    if a.shape[-1] == 2:
        a = paddle.concat([a, paddle.zeros([*a.shape[:-1], 1], a.dtype)], axis=-1)
    if b.shape[-1] == 2:
        b = paddle.concat([b, paddle.zeros([*b.shape[:-1], 1], b.dtype)], axis=-1)
    a, b = paddle.broadcast_tensors([a, b])
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    if two:  # numpy: the z component alone, for two 2-vectors
        return a0 * b1 - a1 * b0
    out = paddle.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return paddle.moveaxis(out, -1, axisc)


def _slogdet(a: Tensor) -> tuple:
    out = paddle.linalg.slogdet(_inexact(a))
    # numpy's logabsdet is real for complex matrices too
    log = paddle.real(out[1]) if out[1].is_complex() else out[1]
    return SlogdetResult(out[0], log)


def _det(a: Tensor) -> Tensor:
    return paddle.linalg.det(_inexact(a))


def _inv(a: Tensor) -> Tensor:
    return paddle.linalg.inv(_inexact(a))


def _solve(a: Tensor, b: Any) -> Tensor:
    a, b = promote(_inexact(a), b)
    # numpy 2: a 1-d b is one right-hand side for every matrix of the batch
    vec = b.ndim == 1
    bb = b.unsqueeze(-1) if vec else b
    lead = list(np.broadcast_shapes(tuple(a.shape[:-2]), tuple(bb.shape[:-2])))
    a = paddle.broadcast_to(a, [*lead, *a.shape[-2:]])
    bb = paddle.broadcast_to(bb, [*lead, *bb.shape[-2:]])
    if a.is_complex():
        # paddle has no complex solve: the real system of twice the size
        n = a.shape[-1]
        rhs = paddle.concat([paddle.real(bb), paddle.imag(bb)], axis=-2)
        x = paddle.linalg.solve(real_embedding(a), rhs)
        out = paddle.complex(x[..., :n, :], x[..., n:, :])
    else:
        out = paddle.linalg.solve(a, bb)
    return out.squeeze(-1) if vec else out


def _svd(a: Tensor, full_matrices: bool = True, compute_uv: bool = True,
         hermitian: bool = False) -> Any:
    a = _inexact(a)
    if not compute_uv:
        return paddle.linalg.svd(a, full_matrices=False)[1]
    u, s, vh = paddle.linalg.svd(a, full_matrices=full_matrices)
    return SVDResult(u, s, vh)


def _svdvals(x: Tensor, /) -> Tensor:
    return paddle.linalg.svd(_inexact(x), full_matrices=False)[1]


def _eigh(a: Tensor, UPLO: str = "L") -> tuple:
    w, v = paddle.linalg.eigh(_inexact(a), UPLO=UPLO)
    return EighResult(w, v)


def _eigvalsh(a: Tensor, UPLO: str = "L") -> Tensor:
    return paddle.linalg.eigvalsh(_inexact(a), UPLO=UPLO)


def _real_if_real(w: Tensor, a: Tensor) -> bool:
    return not a.is_complex() and bool(paddle.all(equal(paddle.imag(w), 0)))


def _eig(a: Tensor) -> tuple:
    a = _inexact(a)
    w, v = paddle.linalg.eig(a)
    if _real_if_real(w, a):
        w, v = paddle.real(w), paddle.real(v)
    return EigResult(w, v)


def _eigvals(a: Tensor) -> Tensor:
    a = _inexact(a)
    w = paddle.linalg.eigvals(a)
    return paddle.real(w) if _real_if_real(w, a) else w


def _qr(a: Tensor, mode: str = "reduced") -> Any:
    a = _inexact(a)
    if mode == "r":
        return paddle.linalg.qr(a, mode="r")
    q, r = paddle.linalg.qr(a, mode=mode)
    return QRResult(q, r)


def _complex_cholesky(a: Tensor) -> Tensor:
    # paddle has no complex Cholesky: the column algorithm, one column per step
    n = a.shape[-1]
    cols = []
    for j in range(n):
        s = a[..., j:, j]
        if cols:
            prev = paddle.stack(cols, axis=-1)  # (..., n, j)
            s = s - paddle.sum(prev[..., j:, :] * paddle.conj(prev[..., j:j + 1, :]), axis=-1)
        d = paddle.sqrt(paddle.real(s[..., :1]))
        col = s / paddle.complex(d, paddle.zeros_like(d))
        top = paddle.zeros([*a.shape[:-2], j], dtype=a.dtype)
        cols.append(paddle.concat([top, col], axis=-1))
    return paddle.stack(cols, axis=-1)


def _cholesky(a: Tensor, /, *, upper: bool = False) -> Tensor:
    if a.is_complex():
        low = _complex_cholesky(a)
        return paddle.conj(paddle.transpose(low, [*range(low.ndim - 2), low.ndim - 1,
                                                  low.ndim - 2])) if upper else low
    return paddle.linalg.cholesky(_inexact(a), upper=upper)


def _norm(x: Tensor, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:
    x = _inexact(x)
    if isinstance(axis, (int, np.integer)):
        axis = (int(axis),)
    if axis is None and ord is None:
        out = _vector_norm(x, axis=None, keepdims=keepdims)
        return out
    if axis is None:
        axis = tuple(range(x.ndim))
    if len(axis) == 1:
        return _vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)
    return _matrix_norm_axes(x, "fro" if ord is None else ord, tuple(axis), keepdims)


def _abs(x: Tensor) -> Tensor:
    # paddle's complex abs is accurate to float32 level only
    if x.is_complex():
        return paddle.hypot(paddle.real(x), paddle.imag(x))
    return paddle.abs(x)


def _vector_norm(x: Tensor, /, *, axis: Any = None, keepdims: bool = False,
                 ord: Any = 2) -> Tensor:
    ndim = x.ndim
    x = _abs(_inexact(x))
    if axis is None:
        x, axes = x.flatten(), [0]
    else:
        axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    keep = keepdims and axis is not None
    if ord == np.inf:
        out = paddle.max(x, axis=axes, keepdim=keep)
    elif ord == -np.inf:
        out = paddle.min(x, axis=axes, keepdim=keep)
    elif ord == 0:
        out = paddle.sum(not_equal(x, 0).astype(x.dtype), axis=axes, keepdim=keep)
    elif ord == 1:
        out = paddle.sum(x, axis=axes, keepdim=keep)
    elif ord == 2:
        out = paddle.sqrt(paddle.sum(x * x, axis=axes, keepdim=keep))
    else:
        out = power(paddle.sum(power(x, float(ord)), axis=axes, keepdim=keep),
                    1.0 / float(ord))
    if axis is None and keepdims:
        out = out.reshape([1] * ndim)
    return out


def _matrix_norm_axes(x: Tensor, ord: Any, axes: tuple, keepdims: bool) -> Tensor:
    r, c = (a % x.ndim for a in axes)
    x = paddle.moveaxis(x, [r, c], [x.ndim - 2, x.ndim - 1])
    a = _abs(x)
    if ord == "fro":
        out = paddle.sqrt(paddle.sum(a * a, axis=[-2, -1]))
    elif ord == "nuc":
        out = paddle.sum(paddle.linalg.svd(x, full_matrices=False)[1], axis=-1)
    elif ord in (1, -1):
        s = paddle.sum(a, axis=-2)
        out = paddle.max(s, axis=-1) if ord == 1 else paddle.min(s, axis=-1)
    elif ord in (np.inf, -np.inf):
        s = paddle.sum(a, axis=-1)
        out = paddle.max(s, axis=-1) if ord == np.inf else paddle.min(s, axis=-1)
    elif ord in (2, -2):
        s = paddle.linalg.svd(x, full_matrices=False)[1]
        out = paddle.max(s, axis=-1) if ord == 2 else paddle.min(s, axis=-1)
    else:
        raise ValueError(f"Invalid norm order {ord!r} for matrices")
    if keepdims:
        for ax in sorted((r, c)):
            out = out.unsqueeze(ax)
    return out


def _matrix_norm(x: Tensor, /, *, keepdims: bool = False, ord: Any = "fro") -> Tensor:
    return _matrix_norm_axes(_inexact(x), ord, (-2, -1), keepdims)


def _pinv(a: Tensor, rcond: Any = None, hermitian: bool = False, *,
          rtol: Any = None) -> Tensor:
    a = _inexact(a)
    tol = 1e-15 if rcond is None and rtol is None else float(rcond if rcond is not None
                                                              else rtol)
    # through the SVD: paddle's pinv of a complex matrix returns its conjugate
    u, s, vh = paddle.linalg.svd(a, full_matrices=False)
    cut = tol * paddle.max(s, axis=-1, keepdim=True)
    inv = paddle.where(s > cut, 1.0 / paddle.where(s > cut, s, paddle.ones_like(s)),
                       paddle.zeros_like(s))
    v = paddle.conj(vh) if vh.is_complex() else vh
    uh = paddle.conj(u) if u.is_complex() else u
    inv = inv.astype(a.dtype) if a.is_complex() else inv
    return paddle.matmul(paddle.transpose(v, [*range(v.ndim - 2), v.ndim - 1, v.ndim - 2])
                         * inv.unsqueeze(-2), paddle.transpose(uh, [*range(uh.ndim - 2),
                                                                    uh.ndim - 1,
                                                                    uh.ndim - 2]))


def _matrix_rank(A: Tensor, tol: Any = None, hermitian: bool = False, *,
                 rtol: Any = None) -> Tensor:
    A = _inexact(A)
    if A.ndim < 2:
        return paddle.to_tensor(int(bool(paddle.any(not_equal(A, 0)))), dtype="int64")
    s = paddle.linalg.svd(A, full_matrices=False)[1]
    smax = paddle.max(s, axis=-1, keepdim=True)
    if tol is not None:
        cut = paddle.to_tensor(np.asarray(tol), dtype=s.dtype)
        cut = cut.unsqueeze(-1) if cut.ndim else cut
    else:
        eps = float(np.finfo(np_name(s.dtype)).eps)
        cut = smax * (rtol if rtol is not None else max(A.shape[-2:]) * eps)
    return paddle.sum((s > cut).astype("int64"), axis=-1)


def _matrix_power(a: Tensor, n: int) -> Tensor:
    if n < 0 or a.is_floating_point() or a.is_complex():
        return paddle.linalg.matrix_power(_inexact(a), n)
    # paddle has float kernels only; integers multiply exactly by repeated squaring
    out = paddle.broadcast_to(paddle.eye(a.shape[-1], dtype=a.dtype), a.shape)
    base = a
    while n:
        if n & 1:
            out = paddle.matmul(out, base)
        base = paddle.matmul(base, base)
        n >>= 1
    return out


def _multi_dot(arrays: Any, *, out: Any = None) -> Tensor:
    no_out("linalg.multi_dot", "paddle", out)
    return paddle.linalg.multi_dot(promote(*arrays))


def _lstsq(a: Tensor, b: Any, rcond: Any = None) -> tuple:
    a, b = promote(_inexact(a), b)
    vec = b.ndim == 1
    bb = b.unsqueeze(-1) if vec else b
    x = paddle.linalg.pinv(a, rcond=1e-15 if rcond is None else float(rcond)) @ bb
    rank = _matrix_rank(a)
    m, n = a.shape[-2:]
    if int(rank) == n and m > n:
        r = bb - a @ x
        resid = paddle.sum(paddle.abs(r) ** 2, axis=-2)
    else:
        resid = paddle.zeros([0], dtype=x.dtype)
    s = paddle.linalg.svd(a, full_matrices=False)[1]
    return (x.squeeze(-1) if vec else x), resid.reshape([-1]), rank, s


def _cond(x: Tensor, p: Any = None) -> Tensor:
    x = _inexact(x)
    if p is None or p in (2, -2):
        s = paddle.linalg.svd(x, full_matrices=False)[1]
        r = s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    else:
        r = _matrix_norm(x, ord=p) * _matrix_norm(paddle.linalg.inv(x), ord=p)
    # numpy: a NaN from a singular matrix (0/0 for the zero matrix) is inf, unless the
    # matrix itself holds a NaN
    has_nan = paddle.any(paddle.isnan(x).reshape([*x.shape[:-2], -1]), axis=-1)
    singular = paddle.logical_and(paddle.isnan(r), paddle.logical_not(has_nan))
    return paddle.where(singular, paddle.full_like(r, float("inf")), r)


def _householder_product(x: Tensor, tau: Any) -> Tensor:
    # paddle.linalg.householder_product writes ones on the diagonal of its input
    tau = tau if isinstance(tau, Tensor) else paddle.to_tensor(tau)
    return paddle.linalg.householder_product(x.clone(), tau)


def _lu_factor(a: Tensor, overwrite_a: bool = False, check_finite: bool = True) -> tuple:
    # paddle's pivots are LAPACK's, 1-based; scipy's are 0-based
    lu, piv = paddle.linalg.lu(_inexact(a))
    return lu, piv.astype("int32") - 1


def _lu(a: Tensor, permute_l: bool = False, overwrite_a: bool = False,
        check_finite: bool = True, p_indices: bool = False) -> tuple:
    lu, piv = paddle.linalg.lu(_inexact(a))
    p, lower, upper = paddle.linalg.lu_unpack(lu, piv)
    if permute_l:
        return p @ lower, upper
    if p_indices:  # scipy's row indices (int32): row i of P L U is row p[i] of L U
        return paddle.argmax(p, axis=-1).astype("int32"), lower, upper
    return p, lower, upper


def _solve_triangular(a: Tensor, b: Any, trans: Any = 0, lower: bool = False,
                      unit_diagonal: bool = False, overwrite_b: bool = False,
                      check_finite: bool = True) -> Tensor:
    a, b = promote(_inexact(a), b)
    vector = b.ndim == a.ndim - 1
    bb = b.unsqueeze(-1) if vector else b
    transpose = trans in (1, "T", 2, "C")
    if trans in (2, "C") and a.is_complex():
        a = paddle.conj(a)
    x = paddle.linalg.triangular_solve(a, bb, upper=not lower, transpose=transpose,
                                       unitriangular=unit_diagonal)
    return x.squeeze(-1) if vector else x


def _cho_factor(a: Tensor, lower: bool = False, overwrite_a: bool = False,
                check_finite: bool = True) -> tuple:
    return paddle.linalg.cholesky(_inexact(a), upper=not lower), lower


def _cho_solve(c_and_lower: tuple, b: Any, overwrite_b: bool = False,
               check_finite: bool = True) -> Tensor:
    c, lower = c_and_lower
    c, b = promote(c, b)
    vector = b.ndim == 1
    x = paddle.linalg.cholesky_solve(b.unsqueeze(-1) if vector else b, c, upper=not lower)
    return x.squeeze(-1) if vector else x


def _expm(A: Tensor) -> Tensor:
    if A.is_complex():
        # exp of the real embedding is the embedding of exp (paddle has no complex expm)
        n = A.shape[-1]
        e = paddle.linalg.matrix_exp(real_embedding(A))
        return paddle.complex(e[..., :n, :n], e[..., n:, :n])
    return paddle.linalg.matrix_exp(_inexact(A))


TABLE = {
    "linalg.lu": _lu,
    "scipy.linalg.lu": _lu,
    "scipy.linalg.lu_factor": _lu_factor,
    "scipy.linalg.solve_triangular": _solve_triangular,
    "scipy.linalg.cho_factor": _cho_factor,
    "scipy.linalg.cho_solve": _cho_solve,
    "scipy.linalg.expm": _expm,
    "linalg.expm": _expm,
    "matmul": _matmul,
    "linalg.matmul": _matmul,
    "dot": _dot,
    "vdot": _vdot,
    "inner": _inner,
    "outer": _outer,
    "tensordot": _tensordot,
    "linalg.tensordot": _tensordot,
    "kron": _kron,
    "einsum": _einsum,
    "cross": _cross,
    "linalg.slogdet": _slogdet,
    "linalg.det": _det,
    "linalg.inv": _inv,
    "linalg.solve": _solve,
    "linalg.svd": _svd,
    "linalg.svdvals": _svdvals,
    "linalg.eigh": _eigh,
    "linalg.eigvalsh": _eigvalsh,
    "linalg.eig": _eig,
    "linalg.eigvals": _eigvals,
    "linalg.qr": _qr,
    "linalg.cholesky": _cholesky,
    "linalg.norm": _norm,
    "linalg.vector_norm": empty_axes(_vector_norm),
    "linalg.matrix_norm": _matrix_norm,
    "linalg.pinv": _pinv,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.matrix_power": _matrix_power,
    "linalg.multi_dot": _multi_dot,
    "linalg.lstsq": _lstsq,
    "linalg.cond": _cond,
    "linalg.householder_product": _householder_product,
}
