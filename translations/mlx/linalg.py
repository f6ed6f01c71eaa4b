"""mlx: numpy's ``linalg`` on mlx's factorizations.

mlx's decompositions run on the CPU stream only (``stream=mx.cpu``), which the
adapters pass, so that they also work where the GPU is the default device. Its
``svd`` returns full ``U`` and ``Vh`` (numpy's ``full_matrices=True``) and its
``eig`` returns complex64 (mlx has no complex128, so the eigenvalues of a float64
matrix are rounded: ``linalg.eig`` and ``linalg.eigvals`` refuse float64 input
rather than lose precision silently). ``lstsq``, ``matrix_rank``,
``matrix_power`` and ``multi_dot`` are written with mlx's own products and
factorizations.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np
from dispatch.translations._adapters import (
    einsum_subscripts,
    numpy_container,
    numpy_result_type,
    qr_factors,
)
from dispatch.translations._expm import pade13_expm, squarings
from dispatch.translations._keywords import no_out, ufunc_call
from dispatch.translations.mlx._common import NO_COMPLEX128, axis_arg
from dispatch.translations.mlx.devices import _asarray
from dispatch.translations.mlx.elementwise import _exp

from dispatch.engine import kernels

_CPU = mx.cpu


def _arr(x: Any, complex_ok: bool = False) -> Any:
    x = x if isinstance(x, mx.array) else _asarray(x)
    if x.dtype == mx.complex64 and not complex_ok:
        raise NotImplementedError("mlx factorizes real matrices only (float32, float64), "
                                  "but for eigh, eigvalsh, svd, eig and eigvals: its other "
                                  "linalg kernels refuse complex64")
    # mlx factorizes floats only: integers go to the default float, as numpy's
    # (float64) results of integer input would be float32 here
    return x if mx.issubdtype(x.dtype, mx.inexact) else x.astype(mx.float32)


def _on_cpu(fn: Any) -> Any:
    def call(a: Any, *args: Any, **kwargs: Any) -> Any:
        return fn(_arr(a), *args, stream=_CPU, **kwargs)

    call.__name__ = fn.__name__
    return call


def _solve(a: Any, b: Any) -> Any:
    a, b = _arr(a), _arr(b)
    # numpy 2: b is a vector only when it is 1-d (any other b is a stack of matrices);
    # mlx's solve wants the batch shapes of a and b spelled out
    if b.ndim == 1:
        col = mx.broadcast_to(b[:, None], (*a.shape[:-2], b.shape[0], 1))
        return mx.linalg.solve(a, col, stream=_CPU)[..., 0]
    batch = mx.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = mx.broadcast_to(a, (*batch, *a.shape[-2:]))
    b = mx.broadcast_to(b, (*batch, *b.shape[-2:]))
    return mx.linalg.solve(a, b, stream=_CPU)


def _svd(a: Any, full_matrices: bool = True, compute_uv: bool = True,
         hermitian: bool = False) -> Any:
    a = _arr(a, complex_ok=True)
    if not compute_uv:
        return mx.linalg.svd(a, compute_uv=False, stream=_CPU)
    u, s, vh = mx.linalg.svd(a, stream=_CPU)
    if not full_matrices:
        k = min(a.shape[-2:])
        u, vh = u[..., :k], vh[..., :k, :]
    return u, s, vh


def _qr(a: Any, mode: str = "reduced") -> Any:
    a = _arr(a)
    m, n = a.shape[-2:]
    if mode == "complete" and n < m:
        # mlx's qr gives the reduced factors only: the factors of [a | I] have a square
        # q whose first n columns are a's, and r's first n columns are a's r
        eye = mx.broadcast_to(mx.eye(m, dtype=a.dtype), (*a.shape[:-2], m, m))
        q, r = mx.linalg.qr(mx.concatenate([a, eye], axis=-1), stream=_CPU)
        return q, r[..., :, :n]
    q, r = mx.linalg.qr(a, stream=_CPU)
    return r if mode == "r" else (q, r)


def _eigh(a: Any, UPLO: str = "L") -> Any:
    return mx.linalg.eigh(_arr(a, complex_ok=True), UPLO=UPLO, stream=_CPU)


def _eigvalsh(a: Any, UPLO: str = "L") -> Any:
    return mx.linalg.eigvalsh(_arr(a, complex_ok=True), UPLO=UPLO, stream=_CPU)


def _no_float64(fn: Any, name: str) -> Any:
    def call(a: Any) -> Any:
        a = _arr(a, complex_ok=True)
        if a.dtype == mx.float64:
            raise TypeError(f"{name}: the eigenvalues of a float64 matrix are complex128 in "
                            f"numpy, and {NO_COMPLEX128}; cast to float32")
        out = fn(a, stream=_CPU)
        if a.dtype == mx.complex64 and isinstance(out, tuple):
            # mlx 0.32's eig of a complex matrix returns the conjugates of the
            # eigenvectors (a @ conj(v) == conj(v) * w); its eigenvalues are right
            out = (out[0], mx.conj(out[1]))
        w = out[0] if isinstance(out, tuple) else out
        # numpy: a real matrix whose eigenvalues are all real gets real results (read
        # on the host, as numpy decides), mlx's are complex64 always
        if a.dtype != mx.complex64 and mx.all(mx.imag(w) == 0).item():
            return tuple(mx.real(o) for o in out) if isinstance(out, tuple) else mx.real(out)
        return out

    return call


def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    x = x if isinstance(x, mx.array) else _asarray(x)
    if x.dtype == mx.complex64:
        matrix = (x.ndim == 2 and axis is None and ord is not None) or (
            axis is not None and not isinstance(axis, int) and len(axis) == 2)
        if not (matrix and isinstance(ord, (int, str)) and ord in (2, -2, "nuc")):
            # every norm but the singular-value ones (2, -2, nuc of a matrix) depends
            # on the moduli only, which mlx's real kernels take
            x = mx.abs(x)
    x = _arr(x)
    if isinstance(axis, tuple):
        axis = list(axis)
    return mx.linalg.norm(x, ord, axis_arg(axis), keepdims, stream=_CPU)


def _slogdet(a: Any) -> Any:
    sign, logdet = mx.linalg.slogdet(_arr(a), stream=_CPU)
    return sign, logdet


def _det(a: Any) -> Any:
    a = _arr(a)
    if a.shape[-1] == 0:
        return mx.ones(a.shape[:-2], a.dtype)
    sign, logdet = mx.linalg.slogdet(a, stream=_CPU)
    return sign * _exp(logdet)  # mlx's float64 exp is float32-accurate: see .elementwise


def _pinv(a: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Any:
    a = _arr(a)
    u, s, vh = _svd(a, full_matrices=False)
    cutoff = rcond if rcond is not None else rtol
    if cutoff is None:
        cutoff = max(a.shape[-2:]) * mx.finfo(a.dtype).eps
    big = s > cutoff * mx.max(s, axis=-1, keepdims=True)
    sinv = mx.where(big, 1 / mx.where(big, s, 1), 0)
    return mx.swapaxes(vh, -1, -2) @ (sinv[..., None] * mx.swapaxes(u, -1, -2))


def _matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *,
                 rtol: Any = None) -> Any:
    A = _arr(A)
    if A.ndim < 2:
        return mx.array(int(mx.any(A != 0).item()), mx.int64)
    s = mx.linalg.svd(A, compute_uv=False, stream=_CPU)
    if tol is None:
        r = rtol if rtol is not None else max(A.shape[-2:]) * mx.finfo(A.dtype).eps
        tol = mx.max(s, axis=-1, keepdims=True) * r
    else:
        tol = _asarray(tol)[..., None] if not isinstance(tol, (int, float)) else tol
    return mx.sum(s > tol, axis=-1).astype(mx.int64)


def _matrix_power(a: Any, n: int) -> Any:
    a = a if isinstance(a, mx.array) else _asarray(a)
    if n < 0:
        a, n = mx.linalg.inv(_arr(a), stream=_CPU), -n
    out = mx.broadcast_to(mx.eye(a.shape[-1], dtype=a.dtype), a.shape)
    base = a
    while n:
        if n & 1:
            out = _matmul(out, base)  # mlx's @ refuses integers: _matmul is exact on them
        base = _matmul(base, base)
        n >>= 1
    return out


def _multi_dot(arrays: Any, *, out: Any = None) -> Any:
    no_out("linalg.multi_dot", "mlx", out)
    parts = [x if isinstance(x, mx.array) else _asarray(x) for x in arrays]
    first_1d, last_1d = parts[0].ndim == 1, parts[-1].ndim == 1
    if first_1d:
        parts[0] = parts[0][None]
    if last_1d:
        parts[-1] = parts[-1][:, None]
    result = parts[0]
    for p in parts[1:]:
        result = _matmul(result, p)
    if first_1d:
        result = result[0]
    if last_1d:
        result = result[..., 0]
    return result


def _einsum(subscripts: Any, *operands: Any, out: Any = None, **kwargs: Any) -> Any:
    no_out("einsum", "mlx", out)
    subscripts, operands = einsum_subscripts(subscripts, operands)  # mx.einsum: strings only
    ops = [x if isinstance(x, mx.array) else _asarray(x) for x in operands]
    dtypes = {x.dtype for x in ops}
    if len(dtypes) == 1 and mx.issubdtype(ops[0].dtype, mx.inexact) and not kwargs:
        return mx.einsum(subscripts, *ops)
    # mlx's einsum multiplies floats only, and promotes mixed operands as mlx does
    # (int32 with float32 gives float32, numpy float64): numpy contracts these on the
    # host, exactly, as it does a call with numpy's keywords (dtype, casting, order...)
    return _asarray(np.einsum(subscripts, *(np.asarray(x) for x in ops), **kwargs))


def _lstsq(a: Any, b: Any, rcond: Any = None) -> tuple:
    a, b = _arr(a), _arr(b)
    vec = b.ndim == 1
    b2 = b[:, None] if vec else b
    m, n = a.shape
    x = _pinv(a, rcond=rcond if rcond is not None else max(m, n) * mx.finfo(a.dtype).eps) @ b2
    rank = _matrix_rank(a)
    resid = b2 - a @ x
    if rank.item() == n and m > n:
        residuals = mx.sum(resid * resid, axis=0)
    else:
        residuals = mx.zeros((0,), a.dtype)
    s = mx.linalg.svd(a, compute_uv=False, stream=_CPU)
    return (x[:, 0] if vec else x), residuals, rank, s


def _cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
           axis: Any = None) -> Any:
    # written out, so that integers stay integers (mlx's cross computes in floats)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = mx.moveaxis(a if isinstance(a, mx.array) else _asarray(a), axisa, -1)
    b = mx.moveaxis(b if isinstance(b, mx.array) else _asarray(b), axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a0 * b1 - a1 * b0
    a2 = a[..., 2] if a.shape[-1] == 3 else mx.zeros_like(a0)
    b2 = b[..., 2] if b.shape[-1] == 3 else mx.zeros_like(b0)
    out = mx.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return mx.moveaxis(out, -1, axisc)


_mx_matmul = mx.matmul


def _exact(a: Any, b: Any) -> Any:
    """``a @ b`` of integer or boolean arrays, exactly (mlx multiplies floats only)."""
    dt = (mx.zeros((), a.dtype) + mx.zeros((), b.dtype)).dtype
    if dt == mx.bool_:
        return mx.any(a[..., :, :, None] & b[..., None, :, :], axis=-2)
    return mx.sum(a[..., :, :, None].astype(dt) * b[..., None, :, :].astype(dt), axis=-2)


def _matmul(x1: Any, x2: Any, /, out: Any = None, **ufunc_keywords: Any) -> Any:
    if out is not None or ufunc_keywords:  # numpy's dtype=, order=...: honoured or refused
        return ufunc_call("matmul", "mlx", _matmul, (x1, x2), out, ufunc_keywords)
    try:
        return _mx_matmul(x1, x2)
    except ValueError:
        a = x1 if isinstance(x1, mx.array) else _asarray(x1)
        b = x2 if isinstance(x2, mx.array) else _asarray(x2)
        if mx.issubdtype(a.dtype, mx.inexact) or mx.issubdtype(b.dtype, mx.inexact):
            raise
        if a.ndim == 0 or b.ndim == 0:
            raise ValueError("matmul: Input operand does not have enough dimensions") from None
        out = _exact(a[None] if a.ndim == 1 else a, b[:, None] if b.ndim == 1 else b)
        if a.ndim == 1:
            out = out[..., 0, :] if b.ndim > 1 else out[0]
        if b.ndim == 1:
            out = out[..., 0]
        return out


# two mlx arrays: mlx's matmul, as the first step above; where it refuses (integers,
# booleans), do calls _matmul, which answers as numpy
_matmul = kernels(_matmul, {(mx.array, mx.array): _mx_matmul})


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    a = a if isinstance(a, mx.array) else _asarray(a)
    b = b if isinstance(b, mx.array) else _asarray(b)
    if isinstance(axes, int):
        ax_a, ax_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    else:
        ax_a, ax_b = axes
        ax_a = [ax_a] if isinstance(ax_a, int) else list(ax_a)
        ax_b = [ax_b] if isinstance(ax_b, int) else list(ax_b)
    ax_a = [x % a.ndim for x in ax_a] if a.ndim else ax_a
    ax_b = [x % b.ndim for x in ax_b] if b.ndim else ax_b
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [i for i in range(b.ndim) if i not in ax_b]
    k = 1
    for i in ax_a:
        k *= a.shape[i]
    m = n = 1
    for i in free_a:
        m *= a.shape[i]
    for i in free_b:
        n *= b.shape[i]
    # sizes spelled out: mlx cannot infer a -1 dimension of an empty array
    am = mx.transpose(a, free_a + ax_a).reshape(m, k) if a.ndim else a.reshape(1, 1)
    bm = mx.transpose(b, ax_b + free_b).reshape(k, n) if b.ndim else b.reshape(1, 1)
    out = _matmul(am, bm)
    return out.reshape([a.shape[i] for i in free_a] + [b.shape[i] for i in free_b])


def _inner(a: Any, b: Any) -> Any:
    a = a if isinstance(a, mx.array) else _asarray(a)
    b = b if isinstance(b, mx.array) else _asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return _tensordot(a, b, ([a.ndim - 1], [b.ndim - 1]))


def _outer(a: Any, b: Any, out: Any = None) -> Any:
    no_out("outer", "mlx", out)
    a = a if isinstance(a, mx.array) else _asarray(a)
    b = b if isinstance(b, mx.array) else _asarray(b)
    return a.reshape(-1)[:, None] * b.reshape(-1)[None, :]


def _kron(a: Any, b: Any) -> Any:
    a = a if isinstance(a, mx.array) else _asarray(a)
    b = b if isinstance(b, mx.array) else _asarray(b)
    if a.size == 0 or b.size == 0:
        nd = max(a.ndim, b.ndim)
        sa = (1,) * (nd - a.ndim) + tuple(a.shape)
        sb = (1,) * (nd - b.ndim) + tuple(b.shape)
        dt = (mx.zeros((), a.dtype) * mx.zeros((), b.dtype)).dtype
        return mx.zeros(tuple(x * y for x, y in zip(sa, sb, strict=True)), dt)
    return mx.kron(a, b)


def _dot(a: Any, b: Any, out: Any = None) -> Any:
    no_out("dot", "mlx", out)
    a = a if isinstance(a, mx.array) else _asarray(a)
    b = b if isinstance(b, mx.array) else _asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if b.ndim <= 2:
        return _matmul(a, b)
    return _tensordot(a, b, ([a.ndim - 1], [b.ndim - 2]))


def _vdot(a: Any, b: Any) -> Any:
    a = a if isinstance(a, mx.array) else _asarray(a)
    b = b if isinstance(b, mx.array) else _asarray(b)
    products = mx.conjugate(a.reshape(-1)) * b.reshape(-1)
    # numpy adds boolean products with OR; mlx's sum counts them
    return mx.any(products) if products.dtype == mx.bool_ else mx.sum(products)


def _solve_triangular(a: Any, b: Any, trans: Any = 0, lower: bool = False,
                      unit_diagonal: bool = False, overwrite_b: bool = False,
                      check_finite: bool = True) -> Any:
    a, b = _arr(a), _arr(b)
    if trans in (1, 2, "T", "C"):
        a, lower = mx.swapaxes(a, -1, -2), not lower
        a = mx.conjugate(a) if trans in (2, "C") else a
    if unit_diagonal:
        n = a.shape[-1]
        eye = mx.eye(n, dtype=a.dtype)
        a = a * (1 - eye) + eye
    return mx.linalg.solve_triangular(a, b, upper=not lower, stream=_CPU)


def _cho_factor(a: Any, lower: bool = False, overwrite_a: bool = False,
                check_finite: bool = True) -> tuple:
    a = _arr(a)
    c = mx.linalg.cholesky(a, upper=not lower, stream=_CPU)
    return c, lower


def _cho_solve(c_and_lower: Any, b: Any, overwrite_b: bool = False,
               check_finite: bool = True) -> Any:
    c, lower = c_and_lower
    c, b = _arr(c), _arr(b)
    upper_c = mx.swapaxes(c, -1, -2) if lower else c
    lower_c = c if lower else mx.swapaxes(c, -1, -2)
    y = mx.linalg.solve_triangular(lower_c, b, upper=False, stream=_CPU)
    return mx.linalg.solve_triangular(upper_c, y, upper=True, stream=_CPU)


def _lu(a: Any, permute_l: bool = False, overwrite_a: bool = False,
        check_finite: bool = True, p_indices: bool = False) -> tuple:
    # mlx gives row indices p with a = (L @ U)[p]: scipy's P is eye[p]
    a = _arr(a)
    p, low, up = mx.linalg.lu(a, stream=_CPU)
    if p_indices:  # scipy's row indices (int32) are mlx's
        return p.astype(mx.int32), low, up
    perm = mx.eye(a.shape[-2], dtype=a.dtype)[p]
    return (perm @ low, up) if permute_l else (perm, low, up)


def _lu_factor(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> tuple:
    lu, piv = mx.linalg.lu_factor(_arr(a), stream=_CPU)
    return lu, piv.astype(mx.int32)  # LAPACK's row interchanges, as scipy's


def _expm(A: Any) -> Any:
    """scipy's ``expm`` (of each matrix of a stack) by scaling and squaring: the
    stack is scaled by the power of two that brings its largest 1-norm (read on the
    host) under theta_13, exponentiated by the degree-13 Pade approximant and squared
    back. mlx has no matrix exponential."""
    a = _arr(A)
    if a.shape[-1] == 0:
        return a
    norm = mx.max(mx.sum(mx.abs(a), axis=-2)).item()
    eye = mx.broadcast_to(mx.eye(a.shape[-1], dtype=a.dtype), a.shape)
    return pade13_expm(a, squarings(norm), eye, _matmul,
                       lambda p, q: mx.linalg.solve(p, q, stream=_CPU))


def _householder_product(a: Any, tau: Any) -> Any:
    """LAPACK's orgqr (mlx has none): the first columns of the product of the
    reflectors ``I - tau_i v_i v_i^H``, ``v_i`` being column ``i`` of ``a`` below the
    diagonal with an implicit 1, applied to the identity's first columns."""
    a = a if isinstance(a, mx.array) else _asarray(a)
    tau = tau if isinstance(tau, mx.array) else _asarray(tau)
    dt = (a[..., :1, :1] * tau[..., :1]).dtype  # mlx's promotion of the two
    a, tau = a.astype(dt), tau.astype(dt)
    m, n = a.shape[-2:]
    q = mx.broadcast_to(mx.eye(m, n, dtype=dt), (*a.shape[:-2], m, n))
    rows = mx.arange(m)
    for i in reversed(range(tau.shape[-1])):
        v = mx.where(rows < i, 0, mx.where(rows == i, 1, a[..., :, i])).astype(dt)
        w = mx.einsum("...i,...ij->...j", mx.conj(v), q)
        q = q - tau[..., i, None, None] * v[..., :, None] * w[..., None, :]
    return q


TABLE = {
    "scipy.linalg.expm": _expm,
    "linalg.expm": _expm,
    "linalg.householder_product": _householder_product,
    "linalg.lu": _lu,
    "scipy.linalg.lu": _lu,
    "scipy.linalg.lu_factor": _lu_factor,
    "scipy.linalg.solve_triangular": _solve_triangular,
    "scipy.linalg.cho_factor": _cho_factor,
    "scipy.linalg.cho_solve": _cho_solve,
    "linalg.inv": _on_cpu(mx.linalg.inv),
    "linalg.cholesky": _on_cpu(mx.linalg.cholesky),
    "linalg.solve": _solve,
    # numpy 2's named tuples (mlx returns plain tuples)
    "linalg.svd": numpy_container(_svd, numpy_result_type("linalg.svd")),
    "linalg.qr": numpy_container(_qr, numpy_result_type("linalg.qr"), qr_factors),
    "linalg.eigh": numpy_container(_eigh, numpy_result_type("linalg.eigh")),
    "linalg.eigvalsh": _eigvalsh,
    "linalg.eig": numpy_container(_no_float64(mx.linalg.eig, "linalg.eig"),
                                  numpy_result_type("linalg.eig")),
    "linalg.eigvals": _no_float64(mx.linalg.eigvals, "linalg.eigvals"),
    "linalg.norm": _norm,
    "linalg.slogdet": numpy_container(_slogdet, numpy_result_type("linalg.slogdet")),
    "linalg.det": _det,
    "linalg.pinv": _pinv,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.matrix_power": _matrix_power,
    "einsum": _einsum,
    "linalg.multi_dot": _multi_dot,
    "linalg.lstsq": _lstsq,
    "cross": _cross,
    "matmul": _matmul,
    "linalg.matmul": _matmul,
    "tensordot": _tensordot,
    "linalg.tensordot": _tensordot,
    "inner": _inner,
    "outer": _outer,
    "kron": _kron,
    "dot": _dot,
    "vdot": _vdot,
}
