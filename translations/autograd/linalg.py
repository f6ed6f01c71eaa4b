"""autograd: numpy's and scipy's linear algebra on boxes.

autograd differentiates ``inv``, ``solve``, ``cholesky``, ``eig``, ``eigh``, ``svd``,
``det`` and ``solve_triangular``; the rest is written here from those, each giving
numpy's (scipy's) value (:func:`~._common.exact`) with the derivative of a formula:

* ``eigvals``/``eigvalsh``: the values of ``eig``/``eigh``; ``lstsq``: the
  pseudo-inverse's solution; ``matrix_power``: numpy's products, in numpy's order;
  ``multi_dot``: the chain of products.
* ``qr``: Q and R of the first ``min(m, n)`` columns from the Cholesky factor of their
  Gram matrix (signs as numpy's R), the other columns of R as ``Q^H A``.
* ``scipy.linalg.lu``, ``lu_factor``: Gaussian elimination in the row order of
  scipy's pivots; ``cho_factor``/``cho_solve``: ``cholesky`` and two triangular
  solves; ``expm``: scaling and squaring of the degree-13 Pade approximant.
* ``linalg.norm``: every order, from sums, maxima and singular values.
* ``svd`` of a square matrix with ``full_matrices=True`` (numpy's default) is its
  reduced one, which autograd differentiates; ``dot``, ``kron``, ``tensordot``,
  ``linalg.solve``... take their second array by keyword too (autograd records the
  boxes among positional arguments only).

Tuple results are numpy's containers (``EighResult``, ``SVDResult``...). The
derivative of a decomposition exists where the decomposition is unique: ``qr`` of
full-rank columns, ``lu`` with no zero pivot; elsewhere it is zero. What has none at
all raises autograd's NotImplementedError when a gradient asks for it: the columns of
a complete ``qr``'s Q past ``n`` (any orthonormal completion is one), ``qr``'s
``raw`` mode.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import scipy.linalg
from autograd import numpy as anp
from autograd.scipy import linalg as asla
from autograd.tracer import getval
from dispatch.translations._adapters import numpy_container, numpy_result_type, qr_factors
from dispatch.translations._expm import pade13_expm, squarings
from dispatch.translations.numpy import _householder_product as _numpy_householder_product

from ._common import exact, no_derivative, on_values, positional, unpacked, values


def _h(x: Any) -> Any:
    return anp.conj(anp.swapaxes(x, -1, -2))


def _svd(a: Any, full_matrices: bool = True, compute_uv: bool = True,
         hermitian: bool = False) -> Any:
    # a square matrix's full and reduced factors are the same, and autograd
    # differentiates the reduced ones only
    shape = np.shape(getval(a))
    full = full_matrices and (len(shape) < 2 or shape[-1] != shape[-2])
    return anp.linalg.svd(a, full_matrices=full, compute_uv=compute_uv)


def _eigvals(a: Any) -> Any:
    return exact(np.linalg.eigvals(getval(a)), anp.linalg.eig(a)[0])


def _eigvalsh(a: Any, UPLO: str = "L") -> Any:
    return exact(np.linalg.eigvalsh(getval(a), UPLO), anp.linalg.eigh(a, UPLO)[0])


def _lstsq(a: Any, b: Any, rcond: Any = None) -> tuple:
    """numpy's ``lstsq``: the solution and the residuals differentiated through the
    pseudo-inverse, the singular values through ``svd``; the rank is an integer."""
    x, res, rank, s = np.linalg.lstsq(getval(a), getval(b), rcond=rcond)
    sol = anp.matmul(anp.linalg.pinv(a), b)
    out_x = exact(x, sol)
    if res.size:
        diff = b - anp.matmul(a, sol)
        res = exact(res, anp.reshape(anp.sum(anp.abs(diff) ** 2, axis=0), res.shape))
    return out_x, res, rank, exact(s, anp.linalg.svd(a, compute_uv=False))


def _matrix_power(a: Any, n: int) -> Any:
    """numpy's ``matrix_power``, differentiated through numpy's products in numpy's
    order (of the inverse for a negative ``n``)."""
    value = np.linalg.matrix_power(getval(a), n)
    if n == 0:
        return value  # the identity: no derivative
    if n < 0:
        a, n = anp.linalg.inv(a), -n
    z = result = None
    while n > 0:
        z = a if z is None else anp.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else anp.matmul(result, z)
    return exact(value, result)


def _multi_dot(arrays: Any, *, out: Any = None) -> Any:
    if out is not None:
        raise TypeError("multi_dot(out=...) writes into an array: autograd records pure "
                        "functions")
    arrays = list(arrays)
    value = np.linalg.multi_dot(values(arrays))
    return exact(value, functools.reduce(anp.matmul, arrays))


def _signs(d: np.ndarray) -> np.ndarray:
    return np.where(d.real < 0, -1.0, 1.0).astype(np.result_type(d.real, np.float32))


def _qr_formula(a: Any, r: np.ndarray) -> tuple[Any, Any]:
    """Q (m x k) and R (k x n) of ``a``, differentiable, with the signs of numpy's ``r``
    on R's diagonal."""
    m, n = np.shape(getval(a))[-2:]
    k = min(m, n)
    first = a[..., :, :k]
    gram = anp.matmul(_h(first), first)
    upper = _h(anp.linalg.cholesky(gram))
    upper = upper * _signs(np.diagonal(r, axis1=-2, axis2=-1)[..., :k])[..., :, None]
    q = _h(anp.linalg.solve(_h(upper), _h(first)))
    if n > k:
        upper = anp.concatenate([upper, anp.matmul(_h(q), a[..., :, k:])], axis=-1)
    return q, upper


_qr_raw = tuple(
    no_derivative(lambda a, i=i: np.linalg.qr(a, mode="raw")[i], "linalg.qr(mode='raw')",
                  "a (the Householder reflectors)")
    for i in range(2)
)
_qr_completion = no_derivative(
    lambda a: np.linalg.qr(a, mode="complete")[0][..., :, a.shape[-1]:],
    "linalg.qr(mode='complete')",
    "a, for the columns of Q past a's number of columns (any orthonormal completion is one)",
)


def _qr(a: Any, mode: str = "reduced") -> Any:
    """numpy's ``qr``, differentiated through the Cholesky factor of the Gram matrix of
    the first ``min(m, n)`` columns (a full-rank QR is unique once R's diagonal signs
    are numpy's); a rank-deficient one has no derivative (a constant)."""
    v = getval(a)
    out = np.linalg.qr(v, mode=mode)
    if mode == "raw":
        return tuple(part(a) for part in _qr_raw)
    r_value = np.asarray(out if mode == "r" else out[1])
    m, n = v.shape[-2:]
    try:
        q, r = _qr_formula(a, r_value)
    except np.linalg.LinAlgError:
        return out
    if r_value.shape[-2] > np.shape(getval(r))[-2]:  # complete, tall: R's zero rows
        r = anp.concatenate([r, np.zeros((*v.shape[:-2], m - n, n), v.dtype)], axis=-2)
    if mode == "r":
        return exact(r_value, r)
    q_value = out[0]
    if q_value.shape[-1] > n:
        q = anp.concatenate([q, _qr_completion(a)], axis=-1)
    return exact(q_value, q), exact(r_value, r)


def _eliminate(a: Any, rows: np.ndarray) -> tuple[Any, Any]:
    """L (m x k, unit diagonal) and U (k x n) of the rows of ``a`` in the order
    ``rows``: Gaussian elimination without further pivoting, one rank-one update of the
    Schur complement per column (differentiable wherever no pivot is zero)."""
    s = a[rows, :]
    m, n = np.shape(getval(s))
    ls, us = [], []
    row_ids, col_ids = np.arange(m), np.arange(n)
    for j in range(min(m, n)):
        u = s[j, :] * (col_ids >= j)
        pivot = s[j, j] if getval(s)[j, j] != 0 else 1.0
        l_col = s[:, j] * (row_ids > j) / pivot + (row_ids == j)
        ls.append(l_col)
        us.append(u)
        s = s - anp.outer(l_col, u)
    return anp.stack(ls, axis=-1), anp.stack(us, axis=0)


def _lu(a: Any, permute_l: bool = False, overwrite_a: bool = False,
        check_finite: bool = True, p_indices: bool = False) -> tuple:
    """scipy's ``lu`` (of one matrix, or of each of a stack), differentiated through
    elimination in the row order of scipy's pivots."""
    v = getval(a)
    if v.ndim > 2:
        return _stacked(_lu, a, permute_l=permute_l, p_indices=p_indices)
    p, low, up = scipy.linalg.lu(v, check_finite=check_finite, p_indices=True)
    lf, uf = _eliminate(a, np.argsort(p))
    low, up = exact(low, lf), exact(up, uf)
    if permute_l:  # scipy's P @ L: L's rows in a's order
        return exact(scipy.linalg.lu(v, permute_l=True)[0], low[p]), up
    return (p if p_indices else np.eye(v.shape[0], dtype=v.dtype)[p]), low, up


def _stacked(fn: Any, a: Any, **kwargs: Any) -> tuple:
    """``fn`` of each matrix of a stack, the results stacked as scipy's batched ones."""
    shape = np.shape(getval(a))
    if not np.prod(shape[:-2]):  # an empty stack: scipy's empty factors, constants
        return scipy.linalg.lu(getval(a), **kwargs)
    flat = anp.reshape(a, (-1, *shape[-2:]))
    parts = [fn(flat[i], **kwargs) for i in range(len(getval(flat)))]
    return tuple(
        anp.reshape(anp.stack([p[j] for p in parts]),
                    (*shape[:-2], *np.shape(getval(parts[0][j]))))
        for j in range(len(parts[0]))
    )


def _lu_factor(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> tuple:
    """scipy's ``lu_factor`` (of one matrix): L below the diagonal and U on and above
    it, in one matrix, and LAPACK's row interchanges."""
    v = getval(a)
    lu, piv = scipy.linalg.lu_factor(v, check_finite=check_finite)
    if v.ndim != 2:
        raise NotImplementedError("scipy.linalg.lu_factor of a stack of boxes: one "
                                  "matrix at a time")
    rows = np.arange(v.shape[0])
    for i, j in enumerate(piv):
        rows[[i, j]] = rows[[j, i]]
    low, up = _eliminate(a, rows)
    (m, n), k = v.shape, min(v.shape)
    if n > k:  # L has k columns, U has k rows: pad both to a's shape
        low = anp.concatenate([low, np.zeros((m, n - k), v.dtype)], axis=1)
    if m > k:
        up = anp.concatenate([up, np.zeros((m - k, n), v.dtype)], axis=0)
    below = np.arange(m)[:, None] > np.arange(n)
    return exact(lu, low * below + up), piv


def _cho_factor(a: Any, lower: bool = False, overwrite_a: bool = False,
                check_finite: bool = True) -> tuple:
    """scipy's ``cho_factor``: the Cholesky factor in one triangle, ``a``'s own entries
    in the other (as scipy leaves them)."""
    c, low = scipy.linalg.cho_factor(getval(a), lower=lower, check_finite=check_finite)
    factor = anp.linalg.cholesky(a)
    formula = anp.tril(factor) + anp.triu(a, 1) if lower else anp.triu(_h(factor)) + anp.tril(a, -1)
    return exact(c, formula), low


def _cho_solve(c_and_lower: Any, b: Any, overwrite_b: bool = False,
               check_finite: bool = True) -> Any:
    """scipy's ``cho_solve``: two triangular solves with the factor in ``c``."""
    c, lower = c_and_lower
    value = scipy.linalg.cho_solve((getval(c), lower), getval(b), check_finite=check_finite)
    low = anp.tril(c) if lower else _h(anp.triu(c))
    y = asla.solve_triangular(low, b, lower=True)
    return exact(value, asla.solve_triangular(_h(low), y, lower=False))


def _expm(a: Any) -> Any:
    """scipy's ``expm``, differentiated through scaling and squaring of the degree-13
    Pade approximant (the power of two that brings the largest 1-norm under theta_13)."""
    v = getval(a)
    value = scipy.linalg.expm(v)
    if v.shape[-1] == 0:
        return value
    norm = float(np.max(np.sum(np.abs(v), axis=-2)))
    eye = np.broadcast_to(np.eye(v.shape[-1], dtype=v.dtype), v.shape)
    r = pade13_expm(a, squarings(norm), eye, anp.matmul, anp.linalg.solve)
    return exact(value, r)


def _householder_product(a: Any, tau: Any) -> Any:
    """The first columns of the product of the reflectors ``I - tau_i v_i v_i^H``
    (LAPACK's orgqr; numpy's table's value), differentiated through the same products
    applied to the identity's first columns."""
    value = _numpy_householder_product(getval(a), getval(tau))
    m, n = np.shape(getval(a))[-2:]
    dt = value.dtype
    q = np.broadcast_to(np.eye(m, n, dtype=dt), value.shape)
    rows = np.arange(m)
    for i in reversed(range(np.shape(getval(tau))[-1])):
        v = anp.where(rows < i, 0.0, anp.where(rows == i, 1.0, a[..., :, i]))
        w = anp.einsum("...i,...ij->...j", anp.conj(v), q)
        q = q - tau[..., i, None, None] * v[..., :, None] * w[..., None, :]
    return exact(value, q)


def _sqsum(x: Any, axis: Any, keepdims: bool) -> Any:
    a = anp.abs(x)
    return anp.sqrt(anp.sum(a * a, axis=axis, keepdims=keepdims))


def _norm_formula(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
    nd = np.ndim(getval(x))
    if axis is None:
        if ord is None:
            return _sqsum(x, None, keepdims)
        axis = tuple(range(nd))
    axes = tuple(ax % nd for ax in (axis if isinstance(axis, tuple) else (axis,)))
    a = anp.abs(x)
    if len(axes) == 1:
        ax = axes[0]
        if ord is None or ord == 2:
            return _sqsum(x, ax, keepdims)
        if ord == math.inf:
            return anp.max(a, axis=ax, keepdims=keepdims)
        if ord == -math.inf:
            return anp.min(a, axis=ax, keepdims=keepdims)
        if ord == 0:
            return np.sum(getval(a) != 0, axis=ax, keepdims=keepdims).astype(getval(a).dtype)
        if ord == 1:
            return anp.sum(a, axis=ax, keepdims=keepdims)
        return anp.sum(a**ord, axis=ax, keepdims=keepdims) ** (1.0 / ord)
    row, col = axes
    if ord is None or ord == "fro":
        return _sqsum(x, axes, keepdims)
    if ord in (2, -2, "nuc"):
        rest = [i for i in range(nd) if i not in axes]
        s = anp.linalg.svd(anp.transpose(x, [*rest, row, col]), compute_uv=False)
        r = anp.sum(s, -1) if ord == "nuc" else anp.max(s, -1) if ord == 2 else anp.min(s, -1)
    elif ord in (1, -1):
        sums = anp.sum(a, axis=row, keepdims=True)
        r = anp.max(sums, axis=col, keepdims=True) if ord == 1 else anp.min(
            sums, axis=col, keepdims=True)
        r = anp.squeeze(r, axis=(row, col))
    else:
        sums = anp.sum(a, axis=col, keepdims=True)
        r = anp.max(sums, axis=row, keepdims=True) if ord == math.inf else anp.min(
            sums, axis=row, keepdims=True)
        r = anp.squeeze(r, axis=(row, col))
    if keepdims:
        for ax in sorted(axes):
            r = anp.expand_dims(r, ax)
    return r


def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """numpy's ``norm``, differentiated through a formula of every order (autograd's
    own differentiates orders 2 and 'fro' only)."""
    value = np.linalg.norm(getval(x), ord=ord, axis=axis, keepdims=keepdims)
    if np.ndim(getval(x)) == 0 or getval(x).size == 0:
        return value
    return exact(value, _norm_formula(x, ord, axis, keepdims))


TABLE = {
    "linalg.eig": numpy_container(unpacked(anp.linalg.eig), numpy_result_type("linalg.eig")),
    "linalg.eigh": numpy_container(unpacked(anp.linalg.eigh),
                                   numpy_result_type("linalg.eigh")),
    "linalg.svd": numpy_container(unpacked(_svd), numpy_result_type("linalg.svd")),
    "linalg.slogdet": numpy_container(unpacked(anp.linalg.slogdet),
                                      numpy_result_type("linalg.slogdet")),
    "linalg.qr": numpy_container(_qr, numpy_result_type("linalg.qr"), qr_factors),
    "linalg.eigvals": _eigvals,
    "linalg.eigvalsh": _eigvalsh,
    "linalg.lstsq": _lstsq,
    "linalg.matrix_power": _matrix_power,
    "linalg.matrix_rank": on_values(np.linalg.matrix_rank),
    "linalg.multi_dot": _multi_dot,
    "linalg.norm": _norm,
    "linalg.solve": positional(anp.linalg.solve, "a", "b"),
    "scipy.linalg.solve_triangular": positional(asla.solve_triangular, "a", "b"),
    "scipy.linalg.lu": _lu,
    "scipy.linalg.lu_factor": _lu_factor,
    "scipy.linalg.cho_factor": _cho_factor,
    "scipy.linalg.cho_solve": _cho_solve,
    "scipy.linalg.expm": _expm,
    # torch's names of the same functions (numpy's table has them too)
    "linalg.expm": _expm,
    "linalg.lu": _lu,
    "linalg.householder_product": _householder_product,
    "dot": positional(anp.dot, "a", "b"),
    "inner": positional(anp.inner, "a", "b"),
    "outer": positional(anp.outer, "a", "b"),
    "kron": positional(anp.kron, "a", "b"),
    "tensordot": positional(anp.tensordot, "a", "b"),
    "cross": positional(anp.cross, "a", "b"),
}
