"""The machinery shared by the iterative solvers of :mod:`.solvers` (private).

``mul_matrix_batched_vector`` (composed, registered like every fallback here) and
:class:`SolveResult`; the operators a solver applies (a matrix of any library
that supports ``matrix @ dense``, a tuple with one matrix per batch entry, or a
function on the whole batch) and the preconditioner; the per-entry bookkeeping
of an eager run (:class:`_Run`: iteration limits and checkpoints, convergence,
divergence, messages); and the loops run on the device inside a jit
(:class:`_TracedRun`, ``_cg_traced``, ``_cg_adaptive_traced``,
``_bicgstab_traced``), with the BiCGStab(l) cycle both paths share.
Torch's native CG kernel (``translations/torch/solvers.py``) builds on the same
:class:`SolveResult`, :class:`_Run` and :func:`_with_batch`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from dispatch.translations._composed._common import _cast, _dtype, _host, _kind
from dispatch.translations._composed.control import settler

from dispatch.engine import composed, do, get_lib_fn, infer_backend, is_array


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
    # do("equal"), not ==: paddle's operator takes |b| < 1e-15 for 0, and near
    # convergence these inner products are that small
    zero = do("equal", b, 0)
    return do("where", zero, do("zeros_like", a), a / do("where", zero, do("ones_like", b), b))


# ---------------------------------------------------------------- bookkeeping


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


def _traced_limit(max_iter: Any, batch: int, like: Any) -> tuple[Any, list[int] | None]:
    """(per-entry iteration limit (batch,) int32 on ``like``'s backend, checkpoints or
    None) for a traced solve. An int and a list of ints are read in plain Python:
    inside torch.compile numpy's functions run as tensor operations, whose values
    the trace cannot read back."""
    if isinstance(max_iter, (list, tuple)) and max_iter and all(
        isinstance(c, int) and not isinstance(c, bool) for c in max_iter
    ):
        steps = [int(c) for c in max_iter]
        if len(steps) > 1:
            return do("full", (batch,), steps[-1], dtype="int32", like=like), steps
        max_iter = steps[0]  # one checkpoint: a plain limit
    if isinstance(max_iter, int) and not isinstance(max_iter, bool):
        return do("full", (batch,), int(max_iter), dtype="int32", like=like), None
    limit, checkpoints = _host_int_limit(max_iter, batch)
    return _cast(do("asarray", limit.astype(np.int32), like=like), "int32"), checkpoints


def _host_bound(max_iter: Any) -> int | None:
    """The largest iteration count of ``max_iter`` where it is a Python int or a host
    array, else None (a traced limit)."""
    if isinstance(max_iter, int) and not isinstance(max_iter, bool):
        return max_iter
    if hasattr(max_iter, "shape") and not do("is_available", max_iter):
        return None
    return int(np.max(np.asarray(do("to_numpy", max_iter) if is_array(max_iter)
                                 else max_iter)))


class _TracedRun:
    """Device-side bookkeeping of a traced solve (the rules of :class:`_Run`
    as array operations, for ``do("while_loop", ...)`` inside jit)."""

    def __init__(self, method: str, y: Any, rtol: Any, atol: Any, max_iter: Any):
        self.method = method
        self.batch = do("shape", y)[0]
        self.limit, self.checkpoints = _traced_limit(max_iter, self.batch, y)
        # the largest limit where the host knows it: the loop's own bound too, for the
        # libraries whose traced loop needs one (mlx runs that many steps unrolled)
        self.bound = _host_bound(max_iter)
        dtype = _dtype(y)

        def tol(t: Any) -> Any:
            return _cast(do("asarray", t, like=y), dtype) if hasattr(t, "shape") else float(t)

        rtol, atol = tol(rtol), tol(atol)
        y_sq = do("sum", y * y, axis=-1)
        self.tol_sq = do("maximum", rtol * rtol * y_sq, atol * atol + 0 * y_sq)
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

    def loop_limit(self) -> Any:
        """``while_loop``'s ``max_iter``: the checkpoints, or the host bound (every
        entry stops at its own limit by then: the bound changes no result)."""
        return self.bound if self.checkpoints is None else self.checkpoints

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
    return run.result(do("while_loop", loop, state, run.loop_limit()))


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
    return run.result(do("while_loop", loop, state, run.loop_limit()))


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
    out = do("while_loop", loop, state, run.loop_limit())
    z = out[1]  # x = x0 + M z, per checkpoint (M takes (batch, n) arrays)
    if M is None:
        x = x0 + z
    elif run.checkpoints is None:
        x = x0 + M(z)
    else:
        x = do("stack", [x0 + M(z[i]) for i in range(len(run.checkpoints))])
    return run.result((out[0], x, out[2], *out[-4:]))


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
