"""torch: products, ``numpy.linalg`` and ``scipy.linalg``.

torch.linalg returns numpy's result order ((Q, R), (U, S, Vh), (w, v)...), so
most entries name it directly. The adapters make integer arguments floats first
(torch's factorizations take floats only), return real eigenvalues when they are
real (torch's ``eig`` is always complex), and give numpy's defaults where torch's
differ (``pinv``'s cutoff, ``lstsq``'s residuals, ``solve``'s reading of a batch
of vectors) and scipy's pivots and ``trans`` arguments.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from dispatch.translations._adapters import numpy_container, numpy_result_type, qr_factors
from dispatch.translations.torch._common import _inexact, _promote
from dispatch.translations.torch.elementwise import _native_first
from dispatch.translations.torch.reductions import _sum
from torch import Tensor

from dispatch.engine import alias


def _einsum(*operands: Any, **kwargs: Any) -> Tensor:
    # torch refuses operands of different dtypes and sums integers in int64; numpy
    # computes in the operands' common dtype and keeps it
    dtypes = {o.dtype for o in operands if isinstance(o, Tensor)}
    if len(dtypes) > 1:
        common = functools.reduce(torch.promote_types, dtypes)
        operands = tuple(o.to(common) if isinstance(o, Tensor) else o for o in operands)
        dtypes = {common}
    out = torch.einsum(*operands, **kwargs)
    dt = dtypes.pop() if dtypes else out.dtype
    narrow_int = not (dt.is_floating_point or dt.is_complex or dt is torch.bool)
    if out.dtype is torch.int64 and dt is not torch.int64 and narrow_int:
        out = out.to(dt)
    return out


def _tensordot(a: Tensor, b: Tensor, axes: Any = 2) -> Tensor:
    # torch.tensordot wants lists where numpy also takes a pair of ints
    if not isinstance(axes, (int, np.integer)):
        axa, axb = axes
        axes = ([axa] if isinstance(axa, int) else list(axa),
                [axb] if isinstance(axb, int) else list(axb))
    return torch.tensordot(a, b, dims=axes)


def _dot(a: Any, b: Any) -> Tensor:
    # torch.dot is 1-D only; numpy's dot is matmul for 2-D and sums a's last axis with
    # b's second to last for n-D
    a, b = _promote(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.ndim <= 2 and b.ndim <= 2:
        return torch.matmul(a, b)
    return torch.tensordot(a, b, dims=([a.ndim - 1], [max(b.ndim - 2, 0)]))


def _vdot(a: Any, b: Any) -> Tensor:
    a, b = _promote(a, b)
    return torch.vdot(a.reshape(-1), b.reshape(-1))


def _cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
           axis: int | None = None) -> Tensor:
    # torch.linalg.cross needs operands of one number of dimensions; numpy broadcasts
    a, b = _promote(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = torch.movedim(a, axisa, -1), torch.movedim(b, axisb, -1)
    shape = torch.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    a, b = a.expand(*shape, a.shape[-1]), b.expand(*shape, b.shape[-1])
    return torch.movedim(torch.linalg.cross(a, b), -1, axisc)


def _outer(a: Any, b: Any) -> Tensor:
    # torch.outer takes 1-D tensors only; numpy flattens
    a, b = _promote(a, b)
    return torch.outer(a.reshape(-1), b.reshape(-1))


def _trace(a: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Any:
    # torch.trace handles 2-D tensors without offset only: the diagonal's sum (numpy's
    # dtypes, the unsigned ones included)
    return _sum(torch.diagonal(a, offset, axis1, axis2), -1, dtype)


# numpy's result types
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
LstsqResult = namedtuple("LstsqResult", ["x", "residuals", "rank", "s"])


def _qr(a: Tensor, mode: str = "reduced") -> Any:
    # torch's mode "r" still returns a pair; numpy returns R alone
    if mode == "r":
        return torch.linalg.qr(a, mode="r").R
    if mode not in ("reduced", "complete"):
        raise NotImplementedError(f"qr mode {mode!r} is not available on torch tensors")
    return torch.linalg.qr(a, mode=mode)


def _svd(a: Tensor, full_matrices: bool = True, compute_uv: bool = True,
         hermitian: bool = False) -> Any:
    if not compute_uv:
        return torch.linalg.svdvals(a)
    return torch.linalg.svd(a, full_matrices=full_matrices)


def _real_if_exact(w: Tensor, a: Tensor) -> bool:
    return not a.is_complex() and bool((w.imag == 0).all())


def _eig(a: Tensor) -> EigResult:
    # torch.linalg.eig is always complex; numpy returns real results when they are real
    w, v = torch.linalg.eig(a)
    if _real_if_exact(w, a):
        return EigResult(w.real, v.real)
    return EigResult(w, v)


def _eigvals(a: Tensor) -> Tensor:
    w = torch.linalg.eigvals(a)
    return w.real if _real_if_exact(w, a) else w


def _solve(a: Tensor, b: Tensor) -> Tensor:
    # torch reads b of shape a.shape[:-1] as a batch of vectors; numpy 2 reads every
    # b with ndim > 1 as a (batch of) matrix
    if b.ndim > 1 and b.ndim == a.ndim - 1 and b.shape == a.shape[:-1]:
        return torch.linalg.solve(a, b.unsqueeze(0))
    return torch.linalg.solve(a, b)


def _pinv(a: Tensor, rcond: Any = None, hermitian: bool = False, *,
          rtol: Any = "default") -> Tensor:
    # numpy's default cutoff is 1e-15 relative; torch's is max(m, n) * eps
    if rcond is None:
        rcond = 1e-15 if isinstance(rtol, str) else rtol
    return torch.linalg.pinv(a, rtol=rcond, hermitian=hermitian)


def _float_args(fn: Callable) -> Callable:
    """``fn`` with integer and bool tensor arguments made floats first."""

    def floats(*args: Any, **kwargs: Any) -> Any:
        # torch's factorizations take floats only; numpy computes integers in floats
        return fn(*(_inexact(a) if isinstance(a, Tensor) else a for a in args), **kwargs)

    floats.__name__ = floats.__qualname__ = getattr(fn, "__name__", "_floats")
    return floats


def _det(a: Tensor) -> Tensor:
    return torch.linalg.det(_inexact(a))


def _norm(x: Tensor, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:
    # torch.linalg.norm refuses integer tensors
    return torch.linalg.norm(_inexact(x), ord, axis, keepdims)


def _matrix_rank(A: Tensor, tol: Any = None, hermitian: bool = False, *,
                 rtol: Any = None) -> Tensor:
    # numpy's ``tol`` is an absolute cutoff and 1-D input is allowed
    A = _inexact(A)
    if A.ndim < 2:
        return torch.any(A != 0).to(torch.int64)
    return torch.linalg.matrix_rank(A, atol=tol, rtol=rtol, hermitian=hermitian)


def _lstsq(a: Tensor, b: Tensor, rcond: Any = None) -> LstsqResult:
    # torch's default CPU driver returns neither residuals nor singular values
    vector = b.ndim == 1
    a, b = _promote(_inexact(a), _inexact(b))
    b2 = b.unsqueeze(-1) if vector else b
    driver = "gelsd" if a.device.type == "cpu" else None
    sol = torch.linalg.lstsq(a, b2, rcond=rcond, driver=driver)
    x = sol.solution
    m, n = a.shape[-2:]
    rank = int(sol.rank) if sol.rank.numel() else n
    s = sol.singular_values if sol.singular_values.numel() else torch.linalg.svdvals(a)
    if rank == n and m > n:
        residuals = (torch.matmul(a, x) - b2).abs().pow(2).sum(-2)
    else:
        residuals = torch.empty((0,), dtype=s.dtype, device=a.device)
    return LstsqResult(x.squeeze(-1) if vector else x, residuals, rank, s)


def _lu(a: Tensor, permute_l: bool = False, overwrite_a: bool = False,
        check_finite: bool = True, p_indices: bool = False) -> Any:
    P, L, U = torch.linalg.lu(a)
    if permute_l:
        return torch.matmul(P, L), U
    if p_indices:  # scipy's row indices, int32
        return P.argmax(-1).to(torch.int32), L, U
    return P, L, U


def _lu_factor(a: Tensor, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    # scipy's pivots count from 0, LAPACK's (and torch's) from 1
    lu, piv = torch.linalg.lu_factor(a)
    return lu, piv - 1


def _lu_solve(lu_and_piv: Any, b: Tensor, trans: int = 0, overwrite_b: bool = False,
              check_finite: bool = True) -> Tensor:
    lu, piv = lu_and_piv
    # torch wants one dtype; scipy computes in LAPACK's type of both (float64 for ints)
    dt = torch.promote_types(lu.dtype, b.dtype)
    dt = dt if dt.is_floating_point or dt.is_complex else torch.float64
    lu, b = lu.to(dt), b.to(dt)
    vector = b.ndim == 1
    b2 = b.unsqueeze(-1) if vector else b
    piv = (piv + 1).to(torch.int32)
    if trans in (0, "N"):
        x = torch.linalg.lu_solve(lu, piv, b2)
    elif trans in (2, "C") or not lu.is_complex():
        x = torch.linalg.lu_solve(lu, piv, b2, adjoint=True)
    else:  # plain transpose of a complex matrix: conjugate around the adjoint solve
        x = torch.linalg.lu_solve(lu, piv, b2.conj(), adjoint=True).conj()
    return x.squeeze(-1) if vector else x


def _solve_triangular(a: Tensor, b: Tensor, trans: Any = 0, lower: bool = False,
                      unit_diagonal: bool = False, overwrite_b: bool = False,
                      check_finite: bool = True) -> Tensor:
    # torch has no ``trans`` and needs b as a matrix
    if trans in (1, "T"):
        a, lower = a.mT, not lower
    elif trans in (2, "C"):
        a, lower = a.mH, not lower
    vector = b.ndim == 1
    a, b = _promote(a, b)
    x = torch.linalg.solve_triangular(
        a, b.unsqueeze(-1) if vector else b, upper=not lower, unitriangular=unit_diagonal
    )
    return x.squeeze(-1) if vector else x


def _cho_factor(a: Tensor, lower: bool = False, overwrite_a: bool = False,
                check_finite: bool = True) -> tuple[Tensor, bool]:
    return torch.linalg.cholesky(a, upper=not lower), lower


def _cho_solve(c_and_lower: tuple[Tensor, bool], b: Tensor, overwrite_b: bool = False,
               check_finite: bool = True) -> Tensor:
    c, lower = c_and_lower
    vector = b.ndim == 1
    x = torch.cholesky_solve(b.unsqueeze(-1) if vector else b, c, upper=not lower)
    return x.squeeze(-1) if vector else x


def _logdet(x: Any) -> Tensor:
    # torch.logdet: NaN for a negative determinant, -inf for 0 (docs/vocabulary.md)
    if isinstance(x, Tensor) and x.is_floating_point():
        return torch.logdet(x)
    from dispatch.translations._composed.linalg import logdet

    return logdet(x)


TABLE = {
    "logdet": _logdet,
    # products
    "einsum": _einsum,
    "tensordot": _tensordot,
    "matmul": _native_first("matmul", torch.matmul, (Tensor, Tensor)),
    "dot": _dot,
    "vdot": _vdot,
    "inner": "inner",
    "outer": _outer,
    "kron": alias("kron", b="other"),
    "cross": _cross,
    "trace": _trace,
    # linalg: torch.linalg returns numpy's result order (Q, R), (U, S, Vh), (w, v)...
    # numpy's named tuples, not torch.return_types
    "linalg.qr": numpy_container(_float_args(_qr), numpy_result_type("linalg.qr"), qr_factors),
    "linalg.svd": numpy_container(_float_args(_svd), numpy_result_type("linalg.svd")),
    "linalg.svdvals": _float_args(torch.linalg.svdvals),
    "linalg.eigh": numpy_container(_float_args(torch.linalg.eigh),
                                   numpy_result_type("linalg.eigh")),
    "linalg.eigvalsh": _float_args(torch.linalg.eigvalsh),
    "linalg.eig": _float_args(_eig),
    "linalg.eigvals": _float_args(_eigvals),
    "linalg.solve": _float_args(_solve),
    "linalg.inv": _float_args(torch.linalg.inv),
    "linalg.pinv": _float_args(_pinv),
    "linalg.det": _det,
    "linalg.slogdet": numpy_container(_float_args(torch.linalg.slogdet),
                                      numpy_result_type("linalg.slogdet")),
    "linalg.norm": _norm,
    "linalg.cholesky": _float_args(torch.linalg.cholesky),
    "linalg.lstsq": numpy_container(_lstsq, tuple),  # numpy's is a plain tuple
    "linalg.matrix_rank": _matrix_rank,
    "linalg.matrix_power": "linalg.matrix_power",
    "linalg.multi_dot": "linalg.multi_dot",
    # "linalg.cond": the composed one: torch's gives NaN for a zero matrix,
    # numpy inf
    "linalg.tensorinv": "linalg.tensorinv",
    "linalg.tensorsolve": alias("linalg.tensorsolve", b="other", axes="dims"),
    "linalg.expm": "linalg.matrix_exp",
    "linalg.lu": _lu,
    "linalg.householder_product": "linalg.householder_product",
    "scipy.linalg.expm": "linalg.matrix_exp",
    "scipy.linalg.solve_triangular": _solve_triangular,
    "scipy.linalg.cho_factor": _cho_factor,
    "scipy.linalg.cho_solve": _cho_solve,
    "scipy.linalg.lu": _lu,
    "scipy.linalg.lu_factor": _lu_factor,
    "scipy.linalg.lu_solve": _lu_solve,
}
