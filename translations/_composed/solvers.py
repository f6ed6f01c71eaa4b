"""Linear solves and dense linear algebra of the backend method list.

The iterative solvers (``conjugate_gradient``, ``conjugate_gradient_adaptive``,
``bi_conjugate_gradient`` and ``linear_solve``, which dispatches to them or to
scipy) work on batches of right-hand sides ``y`` (batch, n) and return a
:class:`SolveResult`. The linear operator ``lin`` is a dense matrix, a sparse
matrix of any library that supports ``matrix @ dense`` (scipy.sparse, torch
sparse, jax BCOO...), a tuple with one matrix per batch entry, or a function
applied to the whole batch ``(batch, n) -> (batch, n)``.

Eager calls run the loops in Python with one small device-to-host transfer per
iteration (the squared residual norms). Inside a jit (``jax.jit``,
``tf.function``: ``y``, ``x0``, ``lin``, ``rtol`` or ``atol`` is a tracer or
symbolic tensor) ``conjugate_gradient``, ``conjugate_gradient_adaptive`` and
``bi_conjugate_gradient`` run as one ``do("while_loop", ...)`` with all state
on the device (``max_iter`` must then be a Python int or list of checkpoints,
and ``message`` cannot say more than "unknown while tracing"); scipy's methods
are eager only. Convergence: ``|r|^2 <= max(rtol^2
|y|^2, atol^2)`` per batch entry on the updated residual ``r``; divergence: a
non-finite residual, or one grown 1e5-fold over the initial one after 8
iterations. Finished entries stay frozen while the others go on. A library's
table may run a solver on a native kernel with the same steps and flags (torch's
CG on plain matrices, ``translations/torch/solvers.py``, which builds on
:class:`SolveResult` and the batching here).

``max_iter`` is an int, or an array of checkpoints (shape (checkpoints,) or
(checkpoints, batch)): with more than one checkpoint every field of the result
gets a leading checkpoint axis holding the state after that many iterations
(the final state for checkpoints the solve did not reach).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
from dispatch.translations._composed._common import _dtype
from dispatch.translations._composed._krylov import (
    SolveResult,
    _bicgstab_cycle,
    _bicgstab_traced,
    _cg_adaptive_traced,
    _cg_traced,
    _div,
    _dot,
    _host,
    _operator,
    _parse_max_iter,
    _preconditioner,
    _Run,
    _setup,
    _traced,
    _with_batch,
)

from dispatch.engine import composed, do

__all__ = ["SolveResult"]


# ---------------------------------------------------------------- operators


@composed("linear")
def linear(lin: Any, vector: Any) -> Any:
    """Apply a linear operator to a batch of vectors (batch, n).

    ``lin`` is a matrix (dense or sparse), a tuple/list with one matrix per
    batch entry, or a function of the whole batch.

    Examples
    --------
    >>> import numpy as np
    >>> do("linear", np.diag([1.0, 2.0]), np.array([[1.0, 1.0]]))
    array([[1., 2.]])
    >>> do("linear", lambda v: 3 * v, np.array([[1.0, 1.0]]))
    array([[3., 3.]])
    """
    if isinstance(lin, (tuple, list)):
        rows = [do("mul_matrix_batched_vector", m, vector[i : i + 1]) for i, m in enumerate(lin)]
        return do("concatenate", rows, axis=0)
    if hasattr(lin, "shape"):
        return do("mul_matrix_batched_vector", lin, vector)
    if callable(lin):
        return lin(vector)
    raise TypeError(f"lin must be a matrix, a tuple of matrices or a function, got {type(lin)}")


# ---------------------------------------------------------------- solvers


def _one_rhs(lin: Any, matrix_offset: Any, M: Callable | None, y: Any, x: Any) -> tuple:
    """The operator and vectors of a solve. One right-hand side runs on 1-D
    vectors: BLAS dots and matrix-vector kernels, no batch bookkeeping ((1, n)
    arrays cost 15-20% on torch).

    Returns (A, M, dot, y, x, lift) for the loop, ``lift`` restoring (batch, n).
    """
    if do("shape", y)[0] != 1:
        return _operator(lin, matrix_offset), M, _dot, y, x, lambda v: v
    A1 = _operator(lin, matrix_offset, vector=True)
    M1 = None if M is None else (lambda v: M(v[None])[0])
    return A1, M1, lambda a, b: do("dot", a, b), y[0], x[0], lambda v: v[None]


def _cg(lin, y, x0=None, rtol=1e-5, atol=0.0, max_iter=1000, pre=None, matrix_offset=None):
    M = _preconditioner(pre)
    y, x = _setup(y, x0)
    method = "CG" + (" (preconditioned)" if M else "")
    if _traced(lin, y, x, rtol, atol, matrix_offset):  # inside jit: one device loop
        return _cg_traced(lin, y, x, rtol, atol, max_iter, M, matrix_offset, method)
    run = _Run(method, y, rtol, atol, max_iter)
    A, M, dot, y, x, lift = _one_rhs(lin, matrix_offset, M, y, x)
    r = y - A(x)
    run.evaluations += 1
    z = r if M is None else M(r)
    rz = dot(r, z)
    p = z
    going = run.check(rz if M is None else dot(r, r))
    if run.at_checkpoint():
        run.save(lift(x), lift(r))
    while going:
        # finished entries get step 0 and a safe denominator: they stay frozen
        # and never produce 0/0; active ones divide by non-zero p.Ap, r.z
        # (a zero there is a breakdown, reported as divergence)
        mask = run.mask()
        q = A(p)
        pq = dot(p, q)
        alpha = rz / pq if mask is None else rz / (pq * mask[0] + mask[1]) * mask[0]
        x = x + alpha * p
        r = r - alpha * q
        z = r if M is None else M(r)
        rz_new = dot(r, z)
        x, r, z, p, rz_new = run.settle((x, r, z, p, rz_new))
        run.count(1)
        going = run.check(rz_new if M is None else dot(r, r))
        if run.at_checkpoint():
            run.save(lift(x), lift(r))
        mask = run.mask()
        beta = rz_new / rz if mask is None else rz_new / (rz * mask[0] + mask[1])
        p = z + beta * p
        rz = rz_new
    return run.result(lift(x), lift(r))


def _cg_adaptive(lin, y, x0=None, rtol=1e-5, atol=0.0, max_iter=1000, pre=None,
                 matrix_offset=None):
    # step sizes from the current residual (Hestenes and Stiefel's form), so
    # rounding errors in the recursion do not accumulate into the steps
    M = _preconditioner(pre)
    y, x = _setup(y, x0)
    method = "CG-adaptive" + (" (preconditioned)" if M else "")
    if _traced(lin, y, x, rtol, atol, matrix_offset):  # inside jit: one device loop
        return _cg_adaptive_traced(lin, y, x, rtol, atol, max_iter, M, matrix_offset, method)
    run = _Run(method, y, rtol, atol, max_iter)
    A, M, dot, y, x, lift = _one_rhs(lin, matrix_offset, M, y, x)
    r = y - A(x)
    p = r if M is None else M(r)
    q = A(p)
    run.evaluations += 2
    going = run.check(dot(r, r))
    if run.at_checkpoint():
        run.save(lift(x), lift(r))
    while going:
        mask = run.mask()
        pq = dot(p, q)
        if mask is not None:
            pq = pq * mask[0] + mask[1]
        alpha = dot(p, r) / pq if mask is None else dot(p, r) / pq * mask[0]
        x = x + alpha * p
        r = r - alpha * q
        x, r, p, q, pq = run.settle((x, r, p, q, pq))
        run.count(1)
        going = run.check(dot(r, r))
        if run.at_checkpoint():
            run.save(lift(x), lift(r))
        if not going:
            break
        z = r if M is None else M(r)
        zq = dot(z, q)
        p = z - (zq / pq if mask is None else _div(zq, pq)) * p
        q = A(p)
    return run.result(lift(x), lift(r))


def _bicgstab(lin, y, x0=None, rtol=1e-5, atol=0.0, max_iter=1000, pre=None,
              matrix_offset=None, poly_order=2):
    # BiCGStab(l) of Sleijpen and Fokkema (1993) with right preconditioning:
    # it solves (A M) z = r0 and returns x = x0 + M z. One iteration is one
    # outer cycle: l BiCG steps, then a degree-l minimal-residual polynomial,
    # 2 l operator calls.
    ell = int(poly_order)
    if ell < 1:
        raise NotImplementedError(
            "biCG without stabilisation (poly_order 0) needs the transposed operator; "
            "use poly_order >= 1 or method 'scipy-biCG'"
        )
    A = _operator(lin, matrix_offset)
    M = _preconditioner(pre)
    AM = A if M is None else (lambda v: A(M(v)))
    y, x0 = _setup(y, x0)
    method = f"biCG-stab({ell})" + (" (preconditioned)" if M else "")
    if _traced(lin, y, x0, rtol, atol, matrix_offset):  # inside jit: one device loop
        return _bicgstab_traced(A, M, y, x0, rtol, atol, max_iter, ell, method)
    run = _Run(method, y, rtol, atol, max_iter)
    r = y - A(x0)
    run.evaluations += 1
    z = do("zeros_like", r)  # solution of (A M) z = r0
    shadow = r
    u = do("zeros_like", r)
    one = do("ones_like", _dot(r, r))
    rho0, alpha, omega = one, 0 * one, one

    def x_of(z: Any) -> Any:
        return x0 + (z if M is None else M(z))

    going = run.check(_dot(r, r))
    run.save(x0, r)
    while going:
        zz, r_new, u_new, rho0, alpha, omega = _bicgstab_cycle(
            AM, ell, shadow, z, r, u, rho0, alpha, omega, one
        )
        mask = run.mask()
        if mask is None:
            z, r, u = zz, r_new, u_new
        else:
            keep = mask[0] > 0
            z = do("where", keep, zz, z)
            r = do("where", keep, r_new, r)
            u = do("where", keep, u_new, u)
        z, r, u, rho0, alpha, omega = run.settle((z, r, u, rho0, alpha, omega))
        run.count(2 * ell)
        going = run.check(_dot(r, r))
        if run.at_checkpoint():
            run.save(x_of(z), r)
    return run.result(x_of(z), r)


@composed("conjugate_gradient")
def conjugate_gradient(
    lin: Any,
    y: Any,
    x0: Any = None,
    rtol: Any = 1e-5,
    atol: Any = 0.0,
    max_iter: Any = 1000,
    pre: Any = None,
    matrix_offset: Any = None,
) -> SolveResult:
    """Solve ``lin @ x = y`` for symmetric positive definite ``lin`` by
    (preconditioned) conjugate gradients, batched; also inside ``jax.jit`` and
    ``tf.function`` (one device loop, see the module notes).

    Parameters
    ----------
    lin : matrix, sparse matrix, tuple of matrices or function (see module docs)
    y : array, shape (batch, n) (or (n,))
    x0 : array like ``y``, optional (default zeros)
    rtol, atol : float or array (batch,)
    max_iter : int or array of checkpoints
    pre : function or object with ``apply``, optional
        Preconditioner ``M`` approximating ``lin``'s inverse, applied to
        (batch, n) arrays.
    matrix_offset : float or array (batch,), optional
        Solve ``(lin + matrix_offset) x = y`` (the offset added to every matrix
        entry), e.g. to fix the null space of a singular Poisson matrix.

    Returns
    -------
    SolveResult

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[4.0, 1.0], [1.0, 3.0]])
    >>> res = do("conjugate_gradient", A, np.array([[1.0, 2.0]]), rtol=1e-12)
    >>> np.round(res.x, 6), res.converged, res.iterations
    (array([[0.090909, 0.636364]]), array([ True]), array([2], dtype=int32))
    """
    return _with_batch(_cg)(lin, y, x0, rtol, atol, max_iter, pre, matrix_offset)


@composed("conjugate_gradient_adaptive")
def conjugate_gradient_adaptive(
    lin: Any,
    y: Any,
    x0: Any = None,
    rtol: Any = 1e-5,
    atol: Any = 0.0,
    max_iter: Any = 1000,
    pre: Any = None,
    matrix_offset: Any = None,
) -> SolveResult:
    """Conjugate gradients with step sizes recomputed from the current residual
    (more robust for nearly singular or slightly non-symmetric systems);
    arguments as ``conjugate_gradient``, also inside jit.

    Examples
    --------
    >>> import numpy as np
    >>> res = do("conjugate_gradient_adaptive", np.diag([2.0, 4.0]), np.array([[2.0, 2.0]]))
    >>> res.x, res.converged
    (array([[1. , 0.5]]), array([ True]))
    """
    return _with_batch(_cg_adaptive)(lin, y, x0, rtol, atol, max_iter, pre, matrix_offset)


@composed("bi_conjugate_gradient")
def bi_conjugate_gradient(
    lin: Any,
    y: Any,
    x0: Any = None,
    rtol: Any = 1e-5,
    atol: Any = 0.0,
    max_iter: Any = 1000,
    pre: Any = None,
    matrix_offset: Any = None,
    poly_order: int = 2,
) -> SolveResult:
    """Solve ``lin @ x = y`` for general (non-symmetric) ``lin`` by BiCGStab(l)
    with ``l = poly_order`` (1: classic BiCGStab), right-preconditioned by
    ``pre``; also inside jit (one device loop, see the module notes). One
    iteration calls the operator ``2 l`` times; other arguments as
    ``conjugate_gradient``.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[3.0, 1.0], [-1.0, 2.0]])
    >>> res = do("bi_conjugate_gradient", A, np.array([[4.0, 1.0]]), rtol=1e-10, poly_order=1)
    >>> np.round(res.x, 8), res.converged
    (array([[1., 1.]]), array([ True]))
    """
    return _with_batch(_bicgstab)(
        lin, y, x0, rtol, atol, max_iter, pre, matrix_offset, poly_order=poly_order
    )


_SCIPY = {
    "CG": "cg",
    "GMres": "gmres",
    "biCG": "bicg",
    "biCG-stab": "bicgstab",
    "CGS": "cgs",
    "lGMres": "lgmres",
    "QMR": "qmr",
    "GCrotMK": "gcrotmk",
    "minres": "minres",
}


@composed("linear_solve")
def linear_solve(
    method: str,
    lin: Any,
    y: Any,
    x0: Any = None,
    rtol: Any = 1e-5,
    atol: Any = 0.0,
    max_iter: Any = 1000,
    pre: Any = None,
    matrix_offset: Any = None,
) -> SolveResult:
    """Solve ``lin @ x = y`` (batched) with the named method.

    Parameters
    ----------
    method : str
        ``'auto'`` and ``'CG-adaptive'`` (``conjugate_gradient_adaptive``),
        ``'CG'`` (``conjugate_gradient``), ``'biCG-stab'`` (BiCGStab) and
        ``'biCG-stab(l)'`` (BiCGStab(l), ``bi_conjugate_gradient``), or scipy's
        solvers on host copies: ``'scipy-direct'`` (``spsolve``, or a dense
        solve), ``'scipy-CG'``, ``'scipy-GMres'``, ``'scipy-biCG'``,
        ``'scipy-biCG-stab'``, ``'scipy-CGS'``, ``'scipy-lGMres'``,
        ``'scipy-QMR'``, ``'scipy-GCrotMK'``, ``'scipy-minres'`` (``'direct'``
        and the names without ``scipy-`` that only scipy has mean the same).
    lin, y, x0, rtol, atol, max_iter, pre, matrix_offset
        As ``conjugate_gradient``.

    Returns
    -------
    SolveResult

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> res = do("linear_solve", "scipy-direct", A, np.array([[3.0, 3.0]]))
    >>> res.x, res.method
    (array([[1., 1.]]), 'scipy-direct')
    """
    args = (lin, y, x0, rtol, atol, max_iter, pre, matrix_offset)
    if method in ("auto", "CG-adaptive"):
        return do("conjugate_gradient_adaptive", *args)
    if method == "CG":
        return do("conjugate_gradient", *args)
    if method == "biCG-stab":
        return do("bi_conjugate_gradient", *args, poly_order=1)
    if method.startswith("biCG-stab(") and method.endswith(")"):
        return do("bi_conjugate_gradient", *args, poly_order=int(method[10:-1]))
    name = method[6:] if method.startswith("scipy-") else method
    if name == "direct" or name in _SCIPY:
        return _with_batch(_scipy_solve)(lin, y, x0, rtol, atol, max_iter, pre, matrix_offset,
                                          name=name)
    raise ValueError(
        f"unknown linear_solve method {method!r}; use 'auto', 'CG', 'CG-adaptive', "
        f"'biCG-stab', 'biCG-stab(l)', 'scipy-direct' or 'scipy-' + one of {sorted(_SCIPY)}"
    )


def _scipy_solve(lin, y, x0, rtol, atol, max_iter, pre, matrix_offset, name="direct"):
    """scipy's solvers, one batch entry at a time on host copies."""
    import scipy.sparse
    import scipy.sparse.linalg as spla

    y, x = _setup(y, x0)
    batch, n = do("shape", y)
    limit, checkpoints = _parse_max_iter(max_iter, batch)
    if checkpoints is not None:
        raise ValueError(f"scipy-{name} does not record checkpoints; pass one max_iter")
    A = _operator(lin, matrix_offset)
    M = _preconditioner(pre)
    dtype = np.dtype(_dtype(y))
    # writable copies: scipy's solvers may work in place on x0
    y_h, x_h = np.array(_host(y), dtype=dtype), np.array(_host(x), dtype=dtype)
    rtol_h = np.broadcast_to(_host(rtol) if hasattr(rtol, "shape") else rtol, (batch,))
    atol_h = np.broadcast_to(_host(atol) if hasattr(atol, "shape") else atol, (batch,))

    def host_op(f: Callable, i: int) -> Any:
        def mv(v: np.ndarray) -> np.ndarray:
            v = np.asarray(v).reshape(-1).astype(dtype)
            rows = np.zeros((batch, n), dtype)
            rows[i] = v
            return np.array(_host(f(do("asarray", rows, like=y)))[i])  # writable

        return spla.LinearOperator((n, n), matvec=mv, dtype=dtype)

    direct_matrix = None
    if name == "direct":
        if isinstance(lin, (tuple, list)) or not hasattr(lin, "shape") or matrix_offset is not None:
            raise ValueError("scipy-direct needs one matrix (dense or sparse), not a function")
        direct_matrix = lin if scipy.sparse.issparse(lin) else _host(lin)
    xs, its, evs, conv, msgs = [], [], [], [], []
    for i in range(batch):
        if direct_matrix is not None:
            if scipy.sparse.issparse(direct_matrix):
                sol = spla.spsolve(direct_matrix.tocsc(), y_h[i])
            else:
                sol = np.linalg.solve(direct_matrix, y_h[i])
            xs.append(np.asarray(sol, dtype).reshape(n))
            its.append(1)
            evs.append(0)
            conv.append(bool(np.all(np.isfinite(sol))))
            msgs.append("direct solve")
            continue
        solver = getattr(spla, _SCIPY[name])
        count = [0]
        params = inspect.signature(solver).parameters
        kw: dict[str, Any] = {"x0": x_h[i], "maxiter": int(limit[i]), "rtol": float(rtol_h[i])}
        if "atol" in params:
            kw["atol"] = float(atol_h[i])
        if M is not None:
            kw["M"] = host_op(M, i)
        kw["callback"] = lambda *_, c=count: c.__setitem__(0, c[0] + 1)
        if "callback_type" in params:
            kw["callback_type"] = "legacy"
        sol, info = solver(host_op(A, i), y_h[i], **kw)
        xs.append(np.asarray(sol, dtype))
        its.append(count[0])
        evs.append(count[0] + 1)
        conv.append(info == 0)
        msgs.append("converged" if info == 0 else f"scipy {solver.__name__} info={info}")
    x_b = do("asarray", np.stack(xs), like=y)
    r = y - A(x_b)
    conv_a = np.array(conv, bool)
    diverged = ~np.isfinite(_host(do("sum", r * r, axis=-1)))
    as_b = lambda a: do("asarray", a, like=y)
    return SolveResult(
        x_b, r, as_b(np.array(its, np.int32)), as_b(np.array(evs, np.int32)),
        as_b(conv_a & ~diverged), as_b(diverged), f"scipy-{name}", msgs,
    )
