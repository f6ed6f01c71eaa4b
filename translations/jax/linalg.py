"""jax's linear algebra where it departs from numpy and scipy: ``eigh`` reading
one triangle, real ``eig`` results, the ``rcond``/``tol`` keywords of ``pinv`` and
``matrix_rank``, ``lstsq``'s residuals, scipy's ``lu`` on stacks and with
``p_indices``; and jax's own functions that beat the composed fallbacks."""

from __future__ import annotations

import collections
from typing import Any

import jax
import jax.numpy as jnp
from dispatch.translations._adapters import NUMPY_REAL_EIG
from dispatch.translations._loops import check_core_dims

from dispatch.engine import NATIVE, alias


def _hermitian_from(a: Any, UPLO: str) -> Any:
    """The Hermitian matrix numpy's eigh reads from one triangle of ``a``."""
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    a = jnp.asarray(a)
    if not jnp.issubdtype(a.dtype, jnp.inexact):
        a = a.astype(jnp.result_type(float))
    strict = jnp.tril(a, -1) if UPLO == "L" else jnp.triu(a, 1)
    # LAPACK reads the real part of the diagonal only
    diag = jnp.real(jnp.diagonal(a, axis1=-2, axis2=-1)).astype(a.dtype)
    eye = jnp.eye(a.shape[-1], dtype=a.dtype)
    return strict + jnp.conj(jnp.swapaxes(strict, -1, -2)) + diag[..., :, None] * eye


def _eigh(a: Any, UPLO: str = "L") -> Any:
    # jnp.linalg.eigh symmetrizes its input (averages both triangles) and ignores the
    # triangle UPLO names; numpy reads that triangle only
    return jnp.linalg.eigh(_hermitian_from(a, UPLO), symmetrize_input=False)


def _eigvalsh(a: Any, UPLO: str = "L") -> Any:
    return _eigh(a, UPLO).eigenvalues


def _real_if_real(w: Any, a: Any) -> bool:
    # numpy's eig returns real arrays when every eigenvalue of a real matrix is real
    # (before numpy 2.5); jax's is always complex (read from the values, so eager only:
    # traced stays complex)
    return (
        NUMPY_REAL_EIG
        and not jnp.iscomplexobj(a)
        and not isinstance(w, jax.core.Tracer)
        and not bool(jnp.any(jnp.imag(w) != 0))
    )


EigResult = collections.namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


def _eig(a: Any) -> Any:
    w, v = jnp.linalg.eig(a)
    if _real_if_real(w, a):
        w, v = jnp.real(w), jnp.real(v)
    return EigResult(w, v)


def _eigvals(a: Any) -> Any:
    w = jnp.linalg.eigvals(a)
    return jnp.real(w) if _real_if_real(w, a) else w


def _pinv(a: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Any:
    # numpy's second positional argument is rcond; jax's is rtol (same meaning)
    return jnp.linalg.pinv(a, rcond if rtol is None else rtol, hermitian)


def _matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *, rtol: Any = None):
    # numpy's tol is an absolute threshold; jax reads tol as relative (an alias of rtol)
    if tol is None:
        return jnp.linalg.matrix_rank(A, rtol, hermitian=hermitian)
    A = jnp.asarray(A)
    if A.ndim < 2:
        return jnp.asarray(jnp.any(A != 0), dtype=int)
    s = jnp.linalg.svd(A, compute_uv=False, hermitian=hermitian)
    return jnp.count_nonzero(s > jnp.asarray(tol)[..., None], axis=-1)


def _lstsq(a: Any, b: Any, rcond: Any = None) -> tuple:
    # jax's residuals differ from numpy's unless asked for numpy's; its rank is int32
    x, residuals, rank, s = jnp.linalg.lstsq(a, b, rcond, numpy_resid=True)
    return x, residuals, rank.astype(int), s


def _lu(a: Any, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True,
        p_indices: bool = False) -> Any:
    x = jnp.asarray(a)
    if x.ndim <= 2 and not p_indices:
        return jax.scipy.linalg.lu(x, permute_l=permute_l)
    # jax.scipy's lu takes one matrix and no p_indices; lax's factors stacks too
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(jnp.result_type(float))
    m, n = x.shape[-2:]
    k = min(m, n)
    packed, _, perm = jax.lax.linalg.lu(x)  # x[perm] = L @ U
    L = jnp.tril(packed[..., :, :k], -1) + jnp.eye(m, k, dtype=x.dtype)
    U = jnp.triu(packed[..., :k, :])
    Pt = jax.nn.one_hot(perm, m, dtype=x.dtype)  # scipy's P (x = P @ L @ U) transposed
    if permute_l:
        return jnp.swapaxes(Pt, -1, -2) @ L, U
    if p_indices:
        return jnp.argsort(perm, axis=-1).astype(jnp.int32), L, U
    return jnp.swapaxes(Pt, -1, -2), L, U


def _vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    check_core_dims("vecdot", jnp.ndim(x1), jnp.ndim(x2))  # jax: IndexError for 0-d
    return jnp.vecdot(x1, x2, axis=axis)


TABLE = {
    "linalg.pinv": _pinv,
    "linalg.eigh": _eigh,
    "linalg.eigvalsh": _eigvalsh,
    "linalg.eig": _eig,
    "linalg.eigvals": _eigvals,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.lstsq": _lstsq,
    "linalg.expm": "scipy.linalg.expm",
    "linalg.lu": _lu,
    "scipy.linalg.lu": _lu,
    "linalg.householder_product": alias("householder_product", module="jax.lax.linalg"),
    # jax.numpy's own (numpy semantics) beat the composed fallbacks of translations/_composed/
    "linalg.tensorinv": NATIVE,
    "linalg.tensorsolve": NATIVE,
    "linalg.svdvals": NATIVE,
    "vecdot": _vecdot,
    "matvec": NATIVE,
    "vecmat": NATIVE,
    "linalg.matrix_transpose": NATIVE,
    "linalg.outer": NATIVE,
    "linalg.tensordot": NATIVE,
    "linalg.trace": NATIVE,
    "linalg.vecdot": NATIVE,
    "linalg.cross": NATIVE,
    "linalg.diagonal": NATIVE,
    "linalg.matmul": NATIVE,
    "linalg.vector_norm": NATIVE,
    "linalg.matrix_norm": NATIVE,
    "scipy.linalg.lu_solve": NATIVE,
}
