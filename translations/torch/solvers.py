"""torch: the backend method list's linear solves.

``conjugate_gradient`` on a plain matrix (dense, sparse COO or CSR, or a scipy
sparse matrix converted once) with no preconditioner or offset runs torch's own
CG kernel, which updates its buffers in place, keeps the per-entry state on the
device and synchronises every few iterations; every other call, and every call
inside torch.compile (one device loop, no host reads), takes the composed solver
of ``translations/_composed/solvers.py``, with which the kernel shares
:class:`SolveResult` and the batching (``translations/_composed/_krylov.py``).
``mul_matrix_batched_vector`` is one GEMM, or torch's sparse-dense product.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from dispatch.translations._composed._krylov import SolveResult, _Run, _with_batch
from dispatch.translations._composed.solvers import conjugate_gradient
from dispatch.translations.torch.sparse import _is_sparse
from torch import Tensor


def _mul_matrix_batched_vector(A: Any, b: Tensor) -> Tensor:
    # dense: one GEMM on b's layout; sparse (COO/CSR/CSC): torch's sparse-dense product,
    # whose fast kernel is the matrix-vector one when the batch has one entry
    if b.ndim == 1:
        return A @ b
    if not _is_sparse(A):
        return torch.matmul(b, A.mT)
    if b.shape[0] == 1:
        return (A @ b[0]).unsqueeze(0)
    return (A @ b.mT).mT


_CG_SYNC_EVERY = 8  # iterations between host checks of the torch CG kernel


def _torch_matrix(lin: Any, y: Any) -> Any:
    """``lin`` as a torch matrix the CG kernel can apply (dense, sparse COO or
    CSR, or a scipy sparse matrix converted once to CSR), or None."""
    import scipy.sparse

    if scipy.sparse.issparse(lin):
        if lin.ndim != 2 or np.dtype(lin.dtype).kind != "f":
            return None
        m = scipy.sparse.csr_matrix(lin)
        return torch.sparse_csr_tensor(
            torch.as_tensor(m.indptr, dtype=torch.int64),
            torch.as_tensor(m.indices, dtype=torch.int64),
            torch.as_tensor(m.data, dtype=y.dtype),
            m.shape, device=y.device,
        )
    if not isinstance(lin, torch.Tensor) or lin.ndim != 2 or lin.dtype != y.dtype:
        return None
    if lin.device != y.device or lin.requires_grad:
        return None
    if lin.layout not in (torch.strided, torch.sparse_coo, torch.sparse_csr):
        return None
    return lin


def _conjugate_gradient_torch(
    lin: Any,
    y: Any,
    x0: Any = None,
    rtol: Any = 1e-5,
    atol: Any = 0.0,
    max_iter: Any = 1000,
    pre: Any = None,
    matrix_offset: Any = None,
) -> SolveResult:
    # the composed loop allocates every vector anew and checks convergence on the
    # host each step; this one updates its own buffers in place, keeps the per-entry
    # state on the device and synchronises every few iterations. Plain matrices
    # only, no preconditioner or offset, one int max_iter, float32/float64 y:
    # everything else takes the composed solver.
    args = (lin, y, x0, rtol, atol, max_iter, pre, matrix_offset)
    if torch.compiler.is_compiling():
        # the kernel reads its state on the host: a trace of torch.compile takes the
        # composed solver's device loop (do("while_loop", ...), torch's while_loop)
        return conjugate_gradient(*args)
    A = None
    plain = (
        pre is None and matrix_offset is None
        and isinstance(max_iter, (int, np.integer)) and not isinstance(max_iter, bool)
        and isinstance(y, torch.Tensor) and y.dtype in (torch.float32, torch.float64)
        and y.ndim in (1, 2) and not (torch.is_grad_enabled() and y.requires_grad)
        and (x0 is None or (isinstance(x0, torch.Tensor) and x0.device == y.device
                            and not (torch.is_grad_enabled() and x0.requires_grad)))
    )
    if plain:
        A = _torch_matrix(lin, y)
    if A is None or tuple(A.shape) != (y.shape[-1], y.shape[-1]):
        return conjugate_gradient(*args)
    return _with_batch(_cg_torch)(A, y, x0, rtol, atol, int(max_iter))


def _cg_torch(A: Any, y: Any, x0: Any, rtol: Any, atol: Any, max_iter: int) -> SolveResult:
    """The CG iteration of ``_cg`` (same steps, freezing and flags) on torch
    buffers: one right-hand side as 1-D vectors, a batch as columns (n, batch)."""
    run = _Run("CG", y, rtol, atol, max_iter)
    one = y.shape[0] == 1
    if one:
        dot, b = torch.dot, y[0]
    else:
        dot, b = (lambda u, v: torch.linalg.vecdot(u, v, dim=0)), y.mT
    x = torch.zeros_like(y) if x0 is None else x0.to(y.dtype).broadcast_to(y.shape)
    x = (x[0] if one else x.mT).clone(memory_format=torch.contiguous_format)
    r = b - A @ x  # new buffers: y, x0 and A are never written
    run.evaluations += 1
    rz = dot(r, r)
    f64 = {"dtype": torch.float64, "device": y.device}
    shape = () if one else (run.batch,)
    tol = torch.as_tensor(run.tol_sq, **f64).reshape(shape)
    run.check(rz)  # rr0, and the flags of the start
    rr0 = torch.as_tensor(run.rr0, **f64).reshape(shape)
    grown = torch.where(torch.isfinite(rr0), 1e5 * rr0, torch.inf)
    finite_max = torch.as_tensor(np.finfo(np.float64).max, **f64)
    active = torch.as_tensor(run.active, device=y.device).reshape(shape).clone()
    iterations = torch.zeros(shape, dtype=torch.int32, device=y.device)
    zero = torch.zeros((), dtype=y.dtype, device=y.device)
    p = r.clone()
    step, going = 0, bool(run.active.any())
    while going:
        # finished entries get step 0: x and r stay frozen, p restarts from r
        q = A @ p
        alpha = torch.where(active, rz / dot(p, q), zero)
        x.addcmul_(p, alpha)
        r.addcmul_(q, alpha, value=-1)
        rr = dot(r, r)
        step += 1
        iterations.add_(active)
        # still going: not converged, finite, not grown 1e5-fold after 8 iterations
        bound = grown if step >= 8 else finite_max
        active.logical_and_((rr > tol) & (rr <= bound))
        p.mul_(torch.where(active, rr / rz, zero)).add_(r)
        rz = rr
        if step >= max_iter:
            going = False
        elif step % _CG_SYNC_EVERY == 0:
            going = bool(active.any())
    # the flags of _Run.check, from the state each entry stopped in
    its = iterations.cpu().numpy().reshape(run.batch)
    rr_h = np.abs(rz.double().cpu().numpy().reshape(run.batch))
    finite = np.isfinite(rr_h)
    diverged = ~finite | ((rr_h > 1e5 * run.rr0) & (its >= 8)) | run.diverged
    run.diverged = diverged
    run.converged = (run.converged | (finite & (rr_h <= run.tol_sq))) & ~diverged
    run.iterations = its.astype(np.int32)
    run.evaluations = run.iterations + np.int32(1)
    if one:
        return run.result(x[None], r[None])
    return run.result(x.mT.contiguous(), r.mT.contiguous())


TABLE = {
    "mul_matrix_batched_vector": _mul_matrix_batched_vector,
    # linear solves: CG on plain matrices updates its own buffers in place
    "conjugate_gradient": _conjugate_gradient_torch,
}
