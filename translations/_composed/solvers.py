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
import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from dispatch.translations._composed.control import settler
from dispatch.translations._composed.indexing import _cast, _dtype, _kind

from dispatch.engine import composed, do, get_lib_fn, infer_backend, is_array

__all__ = ["SolveResult"]


class SolveResult(NamedTuple):
    """Result of an iterative (or scipy) linear solve; arrays of ``y``'s backend.

    ``x`` and ``residual`` have shape (batch, n); ``iterations``,
    ``function_evaluations`` (int32), ``converged`` and ``diverged`` (bool)
    shape (batch,); ``message`` has one string per batch entry. With
    checkpoints, arrays get a leading checkpoint axis.
    """

    x: Any
    residual: Any
    iterations: Any
    function_evaluations: Any
    converged: Any
    diverged: Any
    method: str
    message: list


# ---------------------------------------------------------------- operators


@composed("mul_matrix_batched_vector")
def mul_matrix_batched_vector(A: Any, b: Any) -> Any:
    """A matrix (dense or sparse, shape (n, m)) times a batch of vectors
    b (batch, m) -> (batch, n); a 1-D ``b`` gives ``A @ b``.

    Sparse matrices (and other operator objects) are applied with Python's
    ``@``, which scipy.sparse, torch sparse and jax BCOO all implement.

    Examples
    --------
    >>> import numpy as np
    >>> do("mul_matrix_batched_vector", np.array([[1.0, 2.0], [0.0, 1.0]]), np.eye(2))
    array([[1., 0.],
           [2., 1.]])
    """
    return (_sparse_times if _is_operator(A) else _dense_times)(A, b)


def _is_operator(A: Any) -> bool:
    """True for sparse matrices and matrix-like objects that are not dense arrays."""
    return not is_array(A) or bool(do("is_sparse", A))


def _dense_times(A: Any, b: Any) -> Any:
    if len(do("shape", b)) == 1:
        return do("matmul", A, b)
    return do("matmul", b, do("swapaxes", A, -1, -2))


def _sparse_times(A: Any, b: Any) -> Any:
    shape = do("shape", b)
    if len(shape) == 1:
        return A @ b
    if shape[0] == 1:  # sparse matrix-vector products are the fast kernels
        return (A @ b[0])[None]
    return do("transpose", A @ do("transpose", b))


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


def _operator(lin: Any, matrix_offset: Any, vector: bool = False) -> Callable[[Any], Any]:
    """``v -> (lin + matrix_offset) @ v`` for a batch of vectors (batch, n), or
    with ``vector`` for one vector (n,) (the fast matrix-vector kernels)."""
    if isinstance(lin, (tuple, list)) or not hasattr(lin, "shape"):
        batched = lambda v: do("linear", lin, v)
        apply = (lambda v: batched(v[None])[0]) if vector else batched
    else:  # resolved once per solve: a library's table may have a native product
        impl = get_lib_fn(infer_backend(lin), "mul_matrix_batched_vector")
        if impl is mul_matrix_batched_vector:
            impl = _sparse_times if _is_operator(lin) else _dense_times
        apply = lambda v: impl(lin, v)
    if matrix_offset is None:
        return apply
    offset = matrix_offset
    if hasattr(offset, "shape") and len(do("shape", offset)) > 0:
        offset = do("reshape", offset, (-1,))[0] if vector else do("reshape", offset, (-1, 1))

    def with_offset(v: Any) -> Any:
        return apply(v) + do("sum", v, axis=-1, keepdims=True) * offset

    return with_offset


def _preconditioner(pre: Any) -> Callable[[Any], Any] | None:
    if pre is None:
        return None
    if hasattr(pre, "apply"):
        return pre.apply
    if callable(pre):
        return pre
    raise TypeError(f"pre must be a function or have an .apply method, got {type(pre)}")


def _dot(a: Any, b: Any) -> Any:
    """Row-wise inner products (batch, n), (batch, n) -> (batch, 1)."""
    if do("shape", a)[0] == 1:  # (1, n) @ (n, 1): one BLAS dot, no temporary
        return do("matmul", a, do("swapaxes", b, -1, -2))
    return do("einsum", "ij,ij->i", a, b)[:, None]


def _div(a: Any, b: Any) -> Any:
    """a / b, 0 where b == 0 (no warning, no NaN)."""
    zero = b == 0
    return do("where", zero, do("zeros_like", a), a / do("where", zero, do("ones_like", b), b))


# ---------------------------------------------------------------- bookkeeping


def _host(x: Any) -> np.ndarray:
    return np.asarray(do("to_numpy", x))


def _parse_max_iter(max_iter: Any, batch: int) -> tuple[np.ndarray, list[int] | None]:
    """(per-entry iteration limit (batch,), checkpoints or None)."""
    a = np.asarray(max_iter if isinstance(max_iter, (int, list, tuple)) else _host(max_iter))
    a = a.astype(np.int64)
    if a.ndim == 0:
        return np.full(batch, int(a)), None
    if a.ndim == 1:
        a = a[:, None]
    limit = np.broadcast_to(a[-1], (batch,)).copy()
    if a.shape[0] == 1:
        return limit, None
    if np.any(a != a[:, :1]):
        raise ValueError("with several checkpoints, max_iter must be equal for all batch entries")
    return limit, [int(v) for v in a[:, 0]]


class _Run:
    """Host-side state of one batched solve: convergence, counters, checkpoints."""

    def __init__(self, method: str, y: Any, rtol: Any, atol: Any, max_iter: Any):
        self.method = method
        self.like = y
        self.batch = do("shape", y)[0]
        self.limit, self.checkpoints = _parse_max_iter(max_iter, self.batch)
        y_sq = _host(do("sum", y * y, axis=-1))
        rtol = _host(rtol) if hasattr(rtol, "shape") else np.asarray(rtol, dtype=float)
        atol = _host(atol) if hasattr(atol, "shape") else np.asarray(atol, dtype=float)
        self.tol_sq = np.maximum(rtol.astype(float) ** 2 * y_sq, atol.astype(float) ** 2)
        self.iterations = np.zeros(self.batch, np.int32)
        self.evaluations = np.zeros(self.batch, np.int32)
        self.converged = np.zeros(self.batch, bool)
        self.diverged = np.zeros(self.batch, bool)
        self.active = np.ones(self.batch, bool)
        self._all_active = True
        self.rr0: np.ndarray | None = None
        self.step = 0
        self.saved: list[tuple] = []
        self._mask: Any = None
        self._settle = settler(y)

    def settle(self, values: tuple) -> tuple:
        """The loop state made concrete where the library builds graphs lazily
        (dask: persisted), so that the next check does not recompute the whole
        history of the iteration; ``values`` unchanged elsewhere."""
        return values if self._settle is None else tuple(self._settle(values))

    def check(self, rr: Any) -> bool:
        """Update the state from the squared residual norms; True while any entry goes on."""
        host = _host(rr)
        if self.batch == 1:  # Python scalars: a fifth of the cost of tiny numpy ops
            return self._check_one(abs(float(host.reshape(1)[0])))
        rr = np.abs(host.reshape(self.batch).astype(float))
        finite = np.isfinite(rr)
        if self.rr0 is None:
            self.rr0 = rr
            diverged = ~finite
        else:
            grown = (rr > 1e5 * self.rr0) & (self.iterations >= 8)
            diverged = self.diverged | ~finite | grown
        self.converged = (self.converged | (finite & (rr <= self.tol_sq))) & ~diverged
        self.diverged = diverged
        active = ~self.converged & ~self.diverged & (self.iterations < self.limit)
        if not np.array_equal(active, self.active):
            self._mask = None
        self.active = active
        self._all_active = bool(active.all())
        return bool(active.any())

    def _check_one(self, rr: float) -> bool:
        finite = math.isfinite(rr)
        it = int(self.iterations[0])
        if self.rr0 is None:
            self.rr0 = np.array([rr])
            diverged = not finite
        else:
            diverged = bool(self.diverged[0]) or not finite or (rr > 1e5 * self.rr0[0] and it >= 8)
        converged = (bool(self.converged[0]) or (finite and rr <= self.tol_sq[0])) and not diverged
        self.converged[0], self.diverged[0] = converged, diverged
        going = not converged and not diverged and it < self.limit[0]
        self.active[0] = going
        self._all_active = going
        return going

    def mask(self) -> tuple[Any, Any] | None:
        """(batch, 1) arrays 1 / 0 for the active / finished entries, and their
        complement; None while all entries are active."""
        if self._all_active:
            return None
        if self._mask is None:
            m = self.active.astype(np.float64)[:, None]
            like = self.like
            self._mask = tuple(_cast(do("asarray", a, like=like), _dtype(like)) for a in (m, 1 - m))
        return self._mask

    def count(self, evaluations: int) -> None:
        """One more iteration of the active entries, with this many operator calls."""
        if self._all_active:
            self.iterations += 1
            self.evaluations += evaluations
        else:
            self.iterations += self.active
            self.evaluations += self.active * evaluations
        self.step += 1

    def at_checkpoint(self) -> bool:
        """Whether the state after this many iterations is to be kept."""
        return self.checkpoints is not None and self.step in self.checkpoints

    def save(self, x: Any, r: Any) -> None:
        """Keep the state if this step is a checkpoint."""
        if self.at_checkpoint():
            self._store(x, r)

    def _store(self, x: Any, r: Any) -> None:
        self.saved.append(
            (x, r, self.iterations.copy(), self.evaluations.copy(),
             self.converged.copy(), self.diverged.copy())
        )

    def result(self, x: Any, r: Any) -> SolveResult:
        messages = [
            "converged" if c else "diverged" if d else f"not converged after {i} iterations"
            for c, d, i in zip(self.converged, self.diverged, self.iterations, strict=True)
        ]

        def arr(a: np.ndarray) -> Any:
            return do("asarray", a, like=self.like)

        if self.checkpoints is None:
            fields = (x, r, self.iterations, self.evaluations, self.converged, self.diverged)
            return SolveResult(*fields[:2], *map(arr, fields[2:]), self.method, messages)
        while len(self.saved) < len(self.checkpoints):
            self._store(x, r)
        cols = list(zip(*self.saved, strict=True))
        stacked = [do("stack", list(cols[0])), do("stack", list(cols[1]))]
        stacked += [arr(np.stack(c)) for c in cols[2:]]
        return SolveResult(*stacked, self.method, messages)


def _setup(y: Any, x0: Any) -> tuple[Any, Any]:
    """Floating y (ints become float64) and x0 (zeros by default) of its dtype."""
    name = _dtype(y)
    if _kind(name) not in "fc":
        y = _cast(y, "float64")
        name = "float64"
    x = do("zeros_like", y) if x0 is None else _cast(x0, name)
    if x0 is not None and do("shape", x) != do("shape", y):
        x = do("broadcast_to", x, do("shape", y)) + do("zeros_like", y)
    return y, x


def _with_batch(solver: Callable) -> Callable:
    """Let a solver take 1-D ``y`` (one right-hand side) and give 1-D results."""

    def run(lin: Any, y: Any, x0: Any = None, *args: Any, **kwargs: Any) -> SolveResult:
        if len(do("shape", y)) != 1:
            return solver(lin, y, x0, *args, **kwargs)
        x0 = None if x0 is None else x0[None]
        res = solver(lin, y[None], x0, *args, **kwargs)
        pick = (lambda a: a[0]) if res.x is not None and len(do("shape", res.x)) == 2 else (
            lambda a: a[:, 0]
        )
        return res._replace(**{f: pick(getattr(res, f)) for f in SolveResult._fields[:6]})

    run.__wrapped__ = solver  # type: ignore[attr-defined]
    return run


# ---------------------------------------------------------------- inside jit


def _traced(*values: Any) -> bool:
    """Whether any of ``values`` is a tracer or symbolic tensor (inside jax.jit,
    tf.function...): its value is not available, so the solve must not read it."""
    flat = [w for v in values for w in (v if isinstance(v, (tuple, list)) else (v,))]
    return any(hasattr(v, "shape") and not do("is_available", v) for v in flat)


def _host_int_limit(max_iter: Any, batch: int) -> tuple[np.ndarray, list[int] | None]:
    if hasattr(max_iter, "shape") and not do("is_available", max_iter):
        raise ValueError(
            "inside jit, max_iter must be a Python int or a list of checkpoints, not a traced array"
        )
    return _parse_max_iter(max_iter, batch)


class _TracedRun:
    """Device-side bookkeeping of a traced solve (the rules of :class:`_Run`
    as array operations, for ``do("while_loop", ...)`` inside jit)."""

    def __init__(self, method: str, y: Any, rtol: Any, atol: Any, max_iter: Any):
        self.method = method
        self.batch = do("shape", y)[0]
        limit, self.checkpoints = _host_int_limit(max_iter, self.batch)
        dtype = _dtype(y)

        def tol(t: Any) -> Any:
            return _cast(do("asarray", t, like=y), dtype) if hasattr(t, "shape") else float(t)

        rtol, atol = tol(rtol), tol(atol)
        y_sq = do("sum", y * y, axis=-1)
        self.tol_sq = do("maximum", rtol * rtol * y_sq, atol * atol + 0 * y_sq)
        self.limit = _cast(do("asarray", limit.astype(np.int32), like=y), "int32")
        self.rr0: Any = None

    def start(self, rr: Any, evaluations: int) -> tuple:
        """(active, iterations, evaluations, converged, diverged) from the initial
        squared residual norms (batch, 1)."""
        self.rr0 = do("reshape", do("abs", rr), (self.batch,))
        diverged = do("logical_not", do("isfinite", self.rr0))
        converged = do("logical_and", self.rr0 <= self.tol_sq, do("logical_not", diverged))
        iterations = _cast(do("zeros_like", self.limit), "int32")
        return (self._active(iterations, converged, diverged), iterations,
                iterations + evaluations, converged, diverged)

    def _active(self, iterations: Any, converged: Any, diverged: Any) -> Any:
        done = do("logical_or", converged, diverged)
        return do("logical_and", do("logical_not", done), iterations < self.limit)

    def step(self, rr: Any, active: Any, iterations: Any, evaluations: Any, converged: Any,
             diverged: Any, calls: int) -> tuple:
        """Count one iteration of the active entries (``calls`` operator calls)
        and check the new squared residual norms (batch, 1); returns the
        updated (active, iterations, evaluations, converged, diverged)."""
        grow = _cast(active, "int32")
        iterations = iterations + grow
        evaluations = evaluations + grow * calls
        rr = do("reshape", do("abs", rr), (self.batch,))
        finite = do("isfinite", rr)
        grown = do("logical_and", rr > 1e5 * self.rr0, iterations >= 8)
        diverged = do("logical_or", do("logical_or", diverged, do("logical_not", finite)), grown)
        ok = do("logical_or", converged, do("logical_and", finite, rr <= self.tol_sq))
        converged = do("logical_and", ok, do("logical_not", diverged))
        return self._active(iterations, converged, diverged), iterations, evaluations, \
            converged, diverged

    def result(self, out: tuple) -> SolveResult:
        """The SolveResult from the loop's final (or stacked) values, ordered
        (active, x, r, ..., iterations, evaluations, converged, diverged); the
        messages cannot be known while tracing."""
        message = ["unknown while tracing: see converged and diverged"] * self.batch
        return SolveResult(out[1], out[2], *out[-4:], self.method, message)


def _safe(m: Any, d: Any) -> Any:
    """The denominator ``d`` (batch, 1) for active entries, 1 for finished ones."""
    return do("where", m, d, do("ones_like", d))


def _cg_traced(lin, y, x, rtol, atol, max_iter, M, matrix_offset, method):
    """CG as one ``do("while_loop", ...)`` with every state on the device."""
    run = _TracedRun(method, y, rtol, atol, max_iter)
    A = _operator(lin, matrix_offset)
    r = y - A(x)
    z = r if M is None else M(r)
    rz = _dot(r, z)
    counters = run.start(rz if M is None else _dot(r, r), 1)

    def loop(active, x, r, p, rz, *counters):
        m = active[:, None]
        q = A(p)
        alpha = rz / _safe(m, _dot(p, q))
        x = do("where", m, x + alpha * p, x)
        r = do("where", m, r - alpha * q, r)
        z = r if M is None else M(r)
        rz_new = _dot(r, z)
        active, *counters = run.step(rz_new if M is None else _dot(r, r), active, *counters, 1)
        m = active[:, None]
        p = do("where", m, z + rz_new / _safe(m, rz) * p, p)
        return (active, x, r, p, rz_new, *counters)

    state = (counters[0], x, r, z, rz, *counters[1:])
    return run.result(do("while_loop", loop, state, run.checkpoints))


def _cg_adaptive_traced(lin, y, x, rtol, atol, max_iter, M, matrix_offset, method):
    """Adaptive CG as one ``do("while_loop", ...)`` with every state on the device."""
    run = _TracedRun(method, y, rtol, atol, max_iter)
    A = _operator(lin, matrix_offset)
    r = y - A(x)
    p = r if M is None else M(r)
    q = A(p)
    counters = run.start(_dot(r, r), 2)

    def loop(active, x, r, p, q, *counters):
        m = active[:, None]
        pq = _safe(m, _dot(p, q))
        alpha = _dot(p, r) / pq
        x = do("where", m, x + alpha * p, x)
        r = do("where", m, r - alpha * q, r)
        active, *counters = run.step(_dot(r, r), active, *counters, 1)
        m = active[:, None]
        z = r if M is None else M(r)
        p = do("where", m, z - _dot(z, q) / pq * p, p)
        q = do("where", m, A(p), q)
        return (active, x, r, p, q, *counters)

    state = (counters[0], x, r, p, q, *counters[1:])
    return run.result(do("while_loop", loop, state, run.checkpoints))


def _bicgstab_traced(A, M, y, x0, rtol, atol, max_iter, ell, method):
    """BiCGStab(l) as one ``do("while_loop", ...)`` with every state on the
    device: the cycle of the eager loop, finished entries frozen by ``where``."""
    run = _TracedRun(method, y, rtol, atol, max_iter)
    shape = do("shape", y)
    # a sparse product may lose the static shape while tracing (tf.SparseTensor's
    # dense_shape is a tensor); the cycle reads it from the operator's outputs
    AM = lambda v: do("reshape", A(v if M is None else M(v)), shape)
    r = y - A(x0)
    shadow = r
    zero = do("zeros_like", r)
    one = do("ones_like", _dot(r, r))
    counters = run.start(_dot(r, r), 1)

    def loop(active, z, r, u, rho0, alpha, omega, *counters):
        m = active[:, None]
        zz, r_new, u_new, rho0, alpha, omega = _bicgstab_cycle(
            AM, ell, shadow, z, r, u, rho0, alpha, omega, one
        )
        z, r, u = (do("where", m, new, old) for new, old in ((zz, z), (r_new, r), (u_new, u)))
        active, *counters = run.step(_dot(r, r), active, *counters, 2 * ell)
        return (active, z, r, u, rho0, alpha, omega, *counters)

    state = (counters[0], zero, r, zero, one, 0 * one, one, *counters[1:])
    out = do("while_loop", loop, state, run.checkpoints)
    z = out[1]  # x = x0 + M z, per checkpoint (M takes (batch, n) arrays)
    if M is None:
        x = x0 + z
    elif run.checkpoints is None:
        x = x0 + M(z)
    else:
        x = do("stack", [x0 + M(z[i]) for i in range(len(run.checkpoints))])
    return run.result((out[0], x, out[2], *out[-4:]))


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


def _bicgstab_cycle(AM, ell, shadow, z, r, u, rho0, alpha, omega, one):
    """One outer cycle of BiCGStab(l) on a batch (every entry steps; the caller
    freezes the finished ones): l BiCG steps, then the degree-l minimal-residual
    polynomial. Returns the new (z, r, u, rho0, alpha, omega)."""
    rs, us = [r], [u]
    zz = z
    rho0 = -omega * rho0
    for j in range(ell):  # BiCG part
        rho1 = _dot(rs[j], shadow)
        beta = alpha * _div(rho1, rho0)
        rho0 = rho1
        us = [rs[i] - beta * us[i] for i in range(j + 1)]
        us.append(AM(us[j]))
        alpha = _div(rho0, _dot(us[j + 1], shadow))
        rs = [rs[i] - alpha * us[i + 1] for i in range(j + 1)]
        rs.append(AM(rs[j]))
        zz = zz + alpha * us[0]
    # minimal residual part: modified Gram-Schmidt on rs[1:], then the
    # polynomial coefficients by back substitution
    tau = [[None] * (ell + 1) for _ in range(ell + 1)]
    sigma: list[Any] = [None] * (ell + 1)
    gp: list[Any] = [None] * (ell + 1)
    for j in range(1, ell + 1):
        for i in range(1, j):
            tau[i][j] = _div(_dot(rs[j], rs[i]), sigma[i])
            rs[j] = rs[j] - tau[i][j] * rs[i]
        sigma[j] = _dot(rs[j], rs[j])
        gp[j] = _div(_dot(rs[0], rs[j]), sigma[j])
    g: list[Any] = [None] * (ell + 1)
    g[ell] = gp[ell]
    omega = g[ell]
    for j in range(ell - 1, 0, -1):
        g[j] = gp[j] - sum((tau[j][i] * g[i] for i in range(j + 1, ell + 1)), 0 * one)
    gpp: list[Any] = [None] * (ell + 1)
    for j in range(1, ell):
        gpp[j] = g[j + 1] + sum((tau[j][i] * g[i + 1] for i in range(j + 1, ell)), 0 * one)
    zz = zz + g[1] * rs[0]
    r_new = rs[0] - gp[ell] * rs[ell]
    u_new = us[0] - g[ell] * us[ell]
    for j in range(1, ell):
        u_new = u_new - g[j] * us[j]
        zz = zz + gpp[j] * rs[j]
        r_new = r_new - gp[j] * rs[j]
    return zz, r_new, u_new, rho0, alpha, omega


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


# ---------------------------------------------------------------- dense linear algebra


def _mT(x: Any) -> Any:
    xt = do("swapaxes", x, -1, -2)
    return do("conj", xt) if _kind(_dtype(x)) == "c" else xt


@composed("matrix_solve_least_squares")
def matrix_solve_least_squares(matrix: Any, rhs: Any) -> tuple[Any, Any, Any, Any]:
    """Batched least squares ``min |matrix @ x - rhs|`` through one SVD.

    Parameters
    ----------
    matrix : array, shape (batch, m, n)
    rhs : array, shape (batch, m, k) (or (batch, m))

    Returns
    -------
    solution : (batch, n, k) (or (batch, n)), minimum norm where rank deficient
    residuals : (batch, k) (or (batch,)), squared residual norms (always
        computed, unlike numpy's, which are empty for rank-deficient systems)
    rank : (batch,) int
    singular_values : (batch, min(m, n))

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])
    >>> x, res, rank, s = do("matrix_solve_least_squares", A, np.array([[1.0, 1.0, 2.0]]))
    >>> np.round(x, 12), rank
    (array([[1., 1.]]), array([2]))
    """
    vector = len(do("shape", rhs)) == len(do("shape", matrix)) - 1
    b = rhs[..., None] if vector else rhs
    m, n = do("shape", matrix)[-2:]
    u, s, vh = do("linalg.svd", matrix, full_matrices=False)
    eps = float(np.finfo(np.dtype(_dtype(s))).eps)
    cutoff = do("max", s, axis=-1, keepdims=True) * (eps * max(m, n))
    keep = s > cutoff
    inv = do("where", keep, 1 / do("where", keep, s, 1 + 0 * s), 0 * s)
    coef = do("matmul", _mT(u), b) * inv[..., None]
    x = do("matmul", _mT(vh), coef)
    diff = do("matmul", matrix, x) - b
    residuals = do("sum", do("real", diff * do("conj", diff)), axis=-2)
    rank = do("sum", _cast(keep, "int64"), axis=-1)
    if vector:
        x, residuals = x[..., 0], residuals[..., 0]
    return x, residuals, rank, s


@composed("solve_triangular_dense")
def solve_triangular_dense(
    matrix: Any, rhs: Any, lower: bool = True, unit_diagonal: bool = False
) -> Any:
    """Batched triangular solve: matrix (batch, n, n), rhs (batch, n) or
    (batch, n, k) -> solution shaped like ``rhs``.

    Examples
    --------
    >>> import numpy as np
    >>> L = np.array([[[2.0, 0.0], [1.0, 1.0]]])
    >>> do("solve_triangular_dense", L, np.array([[2.0, 3.0]]), lower=True)
    array([[1., 2.]])
    """
    vector = len(do("shape", rhs)) == len(do("shape", matrix)) - 1
    b = rhs[..., None] if vector else rhs
    mk, bk = _kind(_dtype(matrix)), _kind(_dtype(b))
    if mk not in "fc" or bk not in "fc":  # integer systems are solved in float64
        matrix = _cast(matrix, "float64") if mk not in "fc" else matrix
        b = _cast(b, "float64") if bk not in "fc" else b
    x = do("scipy.linalg.solve_triangular", matrix, b, lower=lower, unit_diagonal=unit_diagonal)
    return x[..., 0] if vector else x


@composed("matrix_rank_dense")
def matrix_rank_dense(matrix: Any, hermitian: bool = False) -> Any:
    """Rank of each matrix of a batch (batch, rows, cols), by SVD with numpy's
    default tolerance.

    Examples
    --------
    >>> import numpy as np
    >>> do("matrix_rank_dense", np.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]]))
    array([1, 2])
    """
    if hermitian:
        return do("linalg.matrix_rank", matrix, hermitian=True)
    return do("linalg.matrix_rank", matrix)
