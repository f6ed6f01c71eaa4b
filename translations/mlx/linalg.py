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

from dispatch.translations.mlx._common import NO_COMPLEX128, axis_arg
from dispatch.translations.mlx.devices import _asarray
from dispatch.translations.mlx.elementwise import _exp

_CPU = mx.cpu


def _arr(x: Any) -> Any:
    x = x if isinstance(x, mx.array) else _asarray(x)
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
    # numpy: b is a stack of vectors only when it has one dimension fewer than a
    if b.ndim == a.ndim - 1:
        return mx.linalg.solve(a, b[..., None], stream=_CPU)[..., 0]
    return mx.linalg.solve(a, b, stream=_CPU)


def _svd(a: Any, full_matrices: bool = True, compute_uv: bool = True,
         hermitian: bool = False) -> Any:
    a = _arr(a)
    if not compute_uv:
        return mx.linalg.svd(a, compute_uv=False, stream=_CPU)
    u, s, vh = mx.linalg.svd(a, stream=_CPU)
    if not full_matrices:
        k = min(a.shape[-2:])
        u, vh = u[..., :k], vh[..., :k, :]
    return u, s, vh


def _qr(a: Any, mode: str = "reduced") -> Any:
    q, r = mx.linalg.qr(_arr(a), stream=_CPU)
    if mode == "r":
        return r
    if mode == "complete" and q.shape[-1] < q.shape[-2]:
        raise NotImplementedError("linalg.qr: mode='complete' of a tall matrix: mlx's qr "
                                  "gives the reduced factors only")
    return q, r


def _eigh(a: Any, UPLO: str = "L") -> Any:
    return mx.linalg.eigh(_arr(a), UPLO=UPLO, stream=_CPU)


def _eigvalsh(a: Any, UPLO: str = "L") -> Any:
    return mx.linalg.eigvalsh(_arr(a), UPLO=UPLO, stream=_CPU)


def _no_float64(fn: Any, name: str) -> Any:
    def call(a: Any) -> Any:
        a = _arr(a)
        if a.dtype == mx.float64:
            raise TypeError(f"{name}: the eigenvalues of a float64 matrix are complex128 in "
                            f"numpy, and {NO_COMPLEX128}; cast to float32")
        return fn(a, stream=_CPU)

    return call


def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
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
            out = out @ base
        base = base @ base
        n >>= 1
    return out


def _multi_dot(arrays: Any, *, out: Any = None) -> Any:
    parts = [x if isinstance(x, mx.array) else _asarray(x) for x in arrays]
    first_1d, last_1d = parts[0].ndim == 1, parts[-1].ndim == 1
    if first_1d:
        parts[0] = parts[0][None]
    if last_1d:
        parts[-1] = parts[-1][:, None]
    result = parts[0]
    for p in parts[1:]:
        result = result @ p
    if first_1d:
        result = result[0]
    if last_1d:
        result = result[..., 0]
    return result


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
    a, b = mx.moveaxis(_arr(a), axisa, -1), mx.moveaxis(_arr(b), axisb, -1)
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    if a.shape[-1] == 2:
        a = mx.concatenate([a, mx.zeros((*a.shape[:-1], 1), a.dtype)], -1)
    if b.shape[-1] == 2:
        b = mx.concatenate([b, mx.zeros((*b.shape[:-1], 1), b.dtype)], -1)
    return mx.moveaxis(mx.linalg.cross(a, b), -1, axisc if axis is None else axis)


def _dot(a: Any, b: Any, out: Any = None) -> Any:
    a = a if isinstance(a, mx.array) else _asarray(a)
    b = b if isinstance(b, mx.array) else _asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if b.ndim <= 2:
        return a @ b
    return mx.tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2]))


def _vdot(a: Any, b: Any) -> Any:
    a = a if isinstance(a, mx.array) else _asarray(a)
    b = b if isinstance(b, mx.array) else _asarray(b)
    return mx.sum(mx.conjugate(a.reshape(-1)) * b.reshape(-1))


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


TABLE = {
    "scipy.linalg.solve_triangular": _solve_triangular,
    "scipy.linalg.cho_factor": _cho_factor,
    "scipy.linalg.cho_solve": _cho_solve,
    "linalg.inv": _on_cpu(mx.linalg.inv),
    "linalg.cholesky": _on_cpu(mx.linalg.cholesky),
    "linalg.solve": _solve,
    "linalg.svd": _svd,
    "linalg.qr": _qr,
    "linalg.eigh": _eigh,
    "linalg.eigvalsh": _eigvalsh,
    "linalg.eig": _no_float64(mx.linalg.eig, "linalg.eig"),
    "linalg.eigvals": _no_float64(mx.linalg.eigvals, "linalg.eigvals"),
    "linalg.norm": _norm,
    "linalg.slogdet": _slogdet,
    "linalg.det": _det,
    "linalg.pinv": _pinv,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.matrix_power": _matrix_power,
    "linalg.multi_dot": _multi_dot,
    "linalg.lstsq": _lstsq,
    "cross": _cross,
    "dot": _dot,
    "vdot": _vdot,
}
