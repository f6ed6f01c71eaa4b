"""``minimize`` of the backend method list, composed: gradient descent written with
``do``, or ``scipy.optimize.minimize`` on the host (the rules are in ``linalg.py``'s
docstring). A subtopic that stands on its own, re-exported by ``linalg.py``, so both
paths import it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from dispatch.translations._composed._common import _host
from dispatch.translations._composed.solvers import SolveResult

from dispatch.engine import DispatchError, composed, do

# ---------------------------------------------------------------- minimize

_GRADIENT_FREE = frozenset({"Nelder-Mead", "Powell", "COBYLA", "COBYQA"})


def _gradient_fn(f: Callable, x0: Any, jac: Callable | None) -> Callable[[Any], Any]:
    """``x -> d sum(f(x)) / dx`` (batch, n): ``jac``, the library's ``gradient``,
    or central finite differences."""
    return jac or _library_gradient(f, x0) or (lambda x: _finite_differences(f, x))


def _finite_differences(f: Callable, x: Any) -> Any:
    n = do("shape", x)[-1]
    eps = float(np.finfo(do("dtype_of", x)).eps) ** (1 / 3)
    h = eps * do("maximum", do("abs", x), 1.0)
    eye = do("asarray", np.eye(n), like=x)
    eye = do("cast", eye, do("dtype_of", x))
    cols = []
    for j in range(n):
        step = h * eye[j]
        cols.append((f(x + step) - f(x - step)) / (2 * step[:, j]))
    return do("stack", cols, axis=-1)


def _gd(f, x0, atol, max_iter, grad):
    """Gradient descent with a per-entry step size adapted by Armijo backtracking.

    The iterate lives on the host (one transfer of x and of the gradient per
    step), so lazy libraries never build a growing graph."""
    dtype = _host(x0).dtype

    def dev(a: np.ndarray) -> Any:
        return do("asarray", np.ascontiguousarray(a, dtype=dtype), like=x0)

    x = _host(x0)
    loss = _host(f(x0)).astype(float)
    g = _host(grad(x0))
    batch = x.shape[0]
    step = np.full(batch, 0.1)
    its = np.zeros(batch, np.int32)
    evals = np.ones(batch, np.int32)
    converged = np.sum(np.abs(g) ** 2, -1) <= atol**2
    diverged = ~np.isfinite(loss)
    states = [(x0, loss, its.copy(), evals.copy(), converged.copy(), diverged.copy())]
    while True:
        active = ~converged & ~diverged & (its < max_iter)
        if not active.any():
            break
        for _ in range(30):  # backtracking: shrink the step of entries that did not improve
            x_new = x - (step * active)[:, None] * g
            x_new_dev = dev(x_new)
            loss_new = _host(f(x_new_dev)).astype(float)
            evals += active
            want = loss - 1e-4 * step * np.sum(np.abs(g) ** 2, -1)
            ok = ~active | (np.isfinite(loss_new) & (loss_new <= want))
            if ok.all():
                break
            step = np.where(ok, step, step * 0.5)
        x = np.where(ok[:, None], x_new, x)
        loss = np.where(ok, loss_new, loss)
        its += active
        step = np.where(active & ok, step * 2.0, step)
        x_dev = x_new_dev if ok.all() else dev(x)
        g = _host(grad(x_dev))
        evals += active
        converged |= active & (np.sum(np.abs(g) ** 2, -1) <= atol**2)
        diverged |= active & (~np.isfinite(loss) | (step < 1e-30))
        states.append((x_dev, loss, its.copy(), evals.copy(), converged.copy(), diverged.copy()))
    return states


def _scipy(method, f, x0, atol, max_iter, trj, grad):
    """``scipy.optimize.minimize`` on each batch entry; other rows stay at x0."""
    from scipy.optimize import minimize as scipy_minimize

    x_all = _host(x0)
    batch, _n = x_all.shape
    rows, losses, its, evals, conv, div, msgs, paths = [], [], [], [], [], [], [], []
    for b in range(batch):
        base = x_all.copy()
        counter = [0]

        def full(xb: np.ndarray, b: int = b, base: np.ndarray = base) -> Any:
            base[b] = xb
            return do("asarray", base.astype(x_all.dtype), like=x0)

        def fun(xb: np.ndarray, b: int = b, full: Callable = full, counter: list = counter) -> Any:
            counter[0] += 1
            x = full(xb)
            loss = float(np.real(_host(f(x))[b]))
            if grad is None:
                return loss
            return loss, _host(grad(x))[b].astype(np.float64)

        path = [x_all[b].copy()]
        res = scipy_minimize(
            fun, x_all[b].astype(np.float64), method=method, jac=grad is not None,
            tol=float(atol[b]), options={"maxiter": int(max_iter[b])},
            callback=(lambda xk, path=path: path.append(np.array(xk))) if trj else None,
        )
        rows.append(res.x)
        losses.append(float(res.fun))
        its.append(int(getattr(res, "nit", len(path) - 1)))
        evals.append(int(getattr(res, "nfev", counter[0])))
        conv.append(bool(res.success))
        div.append(not np.isfinite(res.fun))
        msgs.append(str(res.message))
        paths.append(path)
    if not trj:
        return rows, losses, its, evals, conv, div, msgs
    return rows, losses, its, evals, conv, div, msgs, paths


@composed("minimize")
def minimize(
    method: str,
    f: Callable[[Any], Any],
    x0: Any,
    atol: Any = 1e-6,
    max_iter: Any = 1000,
    trj: bool = False,
    *,
    jac: Callable[[Any], Any] | None = None,
) -> SolveResult | list[SolveResult]:
    """Minimize a batch of independent functions.

    Parameters
    ----------
    method : str
        'GD' (gradient descent, composed), 'auto' (= 'L-BFGS-B') or any
        ``scipy.optimize.minimize`` method name.
    f : callable
        ``f(x)`` with x (batch, n) -> losses (batch,); with a 1-D ``x0``,
        ``f(x)`` with x (n,) -> scalar loss.
    x0 : array, shape (batch, n) or (n,)
    atol : float or (batch,) array
        Convergence: squared gradient norm <= atol**2 ('GD'); scipy's ``tol``.
    max_iter : int or (batch,) array
    trj : bool
        Return the list of states after each iteration instead of the last.
    jac : callable, optional
        ``jac(x)`` -> gradient (batch, n) of the summed loss.

    Returns
    -------
    SolveResult (or a list of them with ``trj``): ``x`` (batch, n),
    ``residual`` = final loss (batch,), ``iterations``,
    ``function_evaluations``, ``converged``, ``diverged``, ``method``,
    ``message``.

    Examples
    --------
    >>> import numpy as np
    >>> f = lambda x: ((x - 1.0) ** 2).sum(-1)
    >>> res = do("minimize", "L-BFGS-B", f, np.zeros((1, 2)), 1e-8, 100)
    >>> np.round(res.x, 4), res.converged
    (array([[1., 1.]]), array([ True]))
    """
    single = len(do("shape", x0)) == 1
    if single:
        f_user = f
        jac_user = jac
        x0 = x0[None]
        f = lambda x: do("reshape", f_user(x[0]), (1,))
        jac = None if jac_user is None else (lambda x: jac_user(x[0])[None])
    if do("dtype_of", x0).kind not in "fc":
        x0 = do("to_float", x0)
    batch = do("shape", x0)[0]
    atol_np = np.broadcast_to(_host(atol) if hasattr(atol, "shape") else np.asarray(atol), (batch,))
    iters = np.broadcast_to(
        _host(max_iter) if hasattr(max_iter, "shape") else np.asarray(max_iter), (batch,)
    ).astype(np.int64)
    method = "L-BFGS-B" if method == "auto" else method
    like = x0

    def arr(a: Any, dtype: str) -> Any:
        return do("asarray", np.asarray(a, dtype=dtype), like=like)

    def result(x, loss, its, evals, conv, div, msgs) -> SolveResult:
        if single:
            x = x[0]
        return SolveResult(
            x, arr(loss, _host(x0).dtype.name), arr(its, "int32"), arr(evals, "int32"),
            arr(conv, "bool"), arr(div, "bool"), method, list(msgs),
        )

    if method == "GD":
        states = _gd(f, x0, atol_np, iters, _gradient_fn(f, x0, jac))
        def msgs(c: np.ndarray, d: np.ndarray) -> list[str]:
            return ["converged" if ci else "diverged" if di else "not converged"
                    for ci, di in zip(c, d, strict=True)]

        if trj:
            return [result(x, lo, i, e, c, d, msgs(c, d)) for x, lo, i, e, c, d in states]
        x, lo, i, e, c, d = states[-1]
        return result(x, lo, i, e, c, d, msgs(c, d))
    # scipy's gradient-free methods ignore a gradient (and warn that they do): none is
    # computed for them
    grad = None if method in _GRADIENT_FREE else jac or _library_gradient(f, x0)
    out = _scipy(method, f, x0, atol_np, iters, trj, grad)
    rows, losses, its, evals, conv, div, msgs = out[:7]
    final = do("asarray", np.stack(rows).astype(_host(x0).dtype), like=like)
    if not trj:
        return result(final, losses, its, evals, conv, div, msgs)
    paths = out[7]
    steps = max(len(p) for p in paths)
    trajectory = []
    for k in range(steps):
        xs = np.stack([p[min(k, len(p) - 1)] for p in paths]).astype(_host(x0).dtype)
        xk = do("asarray", xs, like=like)
        done = [k >= len(p) - 1 for p in paths]
        trajectory.append(result(
            xk, _host(f(xk)).astype(float), [min(k, i) for i in its], evals,
            [c and dn for c, dn in zip(conv, done, strict=True)], div, msgs,
        ))
    return trajectory


def _library_gradient(f: Callable, x0: Any) -> Callable | None:
    """The library's gradient of ``sum(f)`` (its ``jacobian`` of a scalar), or None
    (scipy then uses finite differences of its own). Not ``gradient``: that bare
    name is numpy's finite-difference ``numpy.gradient``."""
    try:
        g = do("jacobian", lambda x: do("sum", f(x)), wrt=(0,), get_output=False,
               is_f_scalar=True, like=x0)
    except (DispatchError, TypeError):
        return None

    def library_gradient(x: Any) -> Any:
        out = g(x)
        return out[0] if isinstance(out, (tuple, list)) else out

    return library_gradient
