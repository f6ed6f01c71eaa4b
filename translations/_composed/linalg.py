"""Dense linear algebra written once with ``do``, for libraries that lack it.

* numpy.linalg / scipy.linalg functions: ``linalg.tensorinv`` and
  ``linalg.tensorsolve`` (reshapes around the library's ``linalg.inv`` and
  ``linalg.solve``), ``linalg.svdvals``, ``linalg.cond`` and
  ``scipy.linalg.lu_solve``.
* Decompositions and triangular solves of the backend method list (numpy's
  conventions: ``eig``, ``eigvals``, ``svd``, ``solve_triangular``,
  ``solve_triangular_sparse``) and its batched dense helpers
  (``matrix_solve_least_squares``, ``solve_triangular_dense``,
  ``matrix_rank_dense``).
* ``minimize`` of the backend method list.

``eig``, ``eigvals`` and ``svd`` are the list's batched versions (leading batch
axes, plain tuples) of numpy's ``linalg.eig``, ``linalg.eigvals`` and
``linalg.svd``. ``solve_triangular`` chooses ``solve_triangular_sparse`` or
``solve_triangular_dense`` by ``is_sparse(matrix)``.

``minimize(method, f, x0, atol, max_iter, trj)`` minimizes a batch of
independent problems: ``x0`` (batch, parameters), ``f(x)`` -> losses (batch,),
row ``b`` of the loss depending on row ``b`` of ``x`` only. Method ``'GD'`` is
gradient descent composed with ``do``; every other method (``'auto'`` =
``'L-BFGS-B'``, ``'BFGS'``, ``'CG'``, ``'Nelder-Mead'``, ...) runs
``scipy.optimize.minimize`` on the host, one batch entry at a time. Gradients
come from ``jac(x)`` when given, else from the library's ``jacobian`` where it
has one, else from central finite differences. Eager only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed._common import _cast, _dtype, _kind
from dispatch.translations._composed._minimize import minimize  # noqa: F401 (re-exported)
from dispatch.translations._composed.reductions import _dt
from dispatch.translations._composed.solvers import SolveResult

from dispatch.engine import composed, do

__all__ = ["SolveResult"]


# ---------------------------------------------------------------- numpy.linalg


@composed("linalg.tensorinv")
def tensorinv(a: Any, ind: int = 2) -> Any:
    """The inverse of ``a`` for ``tensordot(.., ind)``, numpy's ``linalg.tensorinv``.

    ``a`` is read as a matrix of shape (prod(shape[:ind]), prod(shape[ind:])),
    inverted with ``linalg.inv`` and reshaped to ``shape[ind:] + shape[:ind]``.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.eye(4 * 6).reshape(4, 6, 8, 3)
    >>> do("linalg.tensorinv", a, ind=2).shape
    (8, 3, 4, 6)
    """
    shape = tuple(do("shape", a))
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    rows = math.prod(shape[ind:])
    inverse = do("linalg.inv", do("reshape", a, (rows, -1)))
    return do("reshape", inverse, shape[ind:] + shape[:ind])


@composed("linalg.tensorsolve")
def tensorsolve(a: Any, b: Any, axes: Sequence[int] | None = None) -> Any:
    """Solve ``tensordot(a, x, axes=x.ndim) == b`` for ``x``, numpy's
    ``linalg.tensorsolve``.

    ``axes`` moves those axes of ``a`` to the end first. ``a`` is read as a
    square matrix and solved with ``linalg.solve``.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.eye(2 * 3 * 4).reshape(2 * 3, 4, 2, 3, 4)
    >>> b = np.ones((2 * 3, 4))
    >>> do("linalg.tensorsolve", a, b).shape
    (2, 3, 4)
    """
    shape = tuple(do("shape", a))
    an = len(shape)
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = do("transpose", a, order)
        shape = tuple(shape[k] for k in order)
    bn = do("ndim", b)
    oldshape = shape[-(an - bn) :]
    prod = math.prod(oldshape)
    if math.prod(shape) != prod**2:
        raise np.linalg.LinAlgError(
            "Input arrays must satisfy the requirement "
            "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])"
        )
    x = do("linalg.solve", do("reshape", a, (prod, prod)), do("reshape", b, (-1,)))
    return do("reshape", x, oldshape)


@composed("linalg.svdvals")
def svdvals(x: Any, /) -> Any:
    """Singular values of a matrix (or a stack), in decreasing order, numpy's
    ``linalg.svdvals``: ``linalg.svd(x, compute_uv=False)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.svdvals", np.array([[3.0, 0.0], [0.0, -4.0]]))
    array([4., 3.])
    """
    return do("linalg.svd", x, compute_uv=False)


@composed("linalg.cond")
def cond(x: Any, p: Any = None) -> Any:
    """Condition number of a matrix (or a stack), numpy's ``linalg.cond``.

    ``p`` None, 2 or -2: ratio of the extreme singular values (any shape);
    'fro', 'nuc', inf, -inf, 1 or -1: ``norm(x, p) * norm(inv(x), p)``
    (square matrices). As numpy, a NaN result becomes inf unless ``x`` holds
    NaN. Limit: for the norm-based ``p`` a singular matrix raises the
    library's error from ``linalg.inv`` where numpy returns inf.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.array([[1.0, 0.0], [0.0, 4.0]])
    >>> do("linalg.cond", a), do("linalg.cond", a, 1)
    (np.float64(4.0), np.float64(4.0))
    """
    shape = tuple(do("shape", x))
    if len(shape) < 2:
        raise np.linalg.LinAlgError(
            f"{len(shape)}-dimensional array given. Array must be at least two-dimensional"
        )
    if shape[-1] * shape[-2] == 0:
        raise np.linalg.LinAlgError("cond is not defined on empty arrays")
    if p is None or (not isinstance(p, str) and p in (2, -2)):
        s = do("linalg.svd", x, compute_uv=False)
        hi, lo = s[..., 0], s[..., -1]
        r = lo / hi if p == -2 else hi / lo
    else:
        if shape[-1] != shape[-2]:
            raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
        inv = do("linalg.inv", x)
        r = do("linalg.norm", x, p, axis=(-2, -1)) * do("linalg.norm", inv, p, axis=(-2, -1))
        dt = _dt(x)
        real = "float32" if dt in (np.float32, np.complex64) else "float64"
        r = do("astype", r, real)
    # numpy: NaN from a singular matrix means infinitely ill-conditioned
    nan_in_x = do("any", do("isnan", x), axis=(-2, -1))
    fix = do("isnan", r) & do("logical_not", nan_in_x)
    return do("where", fix, do("full_like", r, math.inf), r)


_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


# ---------------------------------------------------------------- vecdot / matvec / vecmat


def _core(name: str, x: Any, ndim: int) -> tuple:
    shape = tuple(do("shape", x))
    if len(shape) < ndim:
        raise ValueError(
            f"{name}: operand has {len(shape)} dimension(s), its core needs at least {ndim}"
        )
    return shape


def _same_core(name: str, n1: Any, n2: Any) -> None:
    # gufuncs do not broadcast core dimensions (an unknown size, while tracing, passes)
    if n1 is not None and n2 is not None and n1 != n2:
        raise ValueError(
            f"{name}: the operands' core dimensions differ ({n1} and {n2}); they must match"
        )


def _conj(x: Any) -> Any:
    return do("conj", x) if _dt(x).kind == "c" else x


@composed("vecdot")
def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """Vector dot product along ``axis`` of each operand, numpy 2's ``vecdot``.

    ``sum(conj(x1) * x2)`` over the core axis (``axis`` of each operand, which
    must have the same length), the other axes broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> do("vecdot", np.array([[1.0, -2.0], [3.0, 4.0]]), np.array([2.0, 1.0]))
    array([ 0., 10.])
    """
    s1, s2 = _core("vecdot", x1, 1), _core("vecdot", x2, 1)
    _same_core("vecdot", s1[axis], s2[axis])
    x1 = do("moveaxis", _conj(x1), axis, -1)
    x2 = do("moveaxis", x2, axis, -1)
    product = do("multiply", x1, x2)
    return do("sum", product, axis=-1, dtype=_dt(product))


@composed("matvec")
def matvec(x1: Any, x2: Any, /) -> Any:
    """Matrix-vector product, numpy 2's ``matvec``: ``x1`` (..., m, n) times
    ``x2`` (..., n) gives (..., m), the leading axes broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> do("matvec", np.array([[1.0, -2.0], [3.0, 4.0]]), np.array([2.0, 1.0]))
    array([ 0., 10.])
    """
    s1, s2 = _core("matvec", x1, 2), _core("matvec", x2, 1)
    _same_core("matvec", s1[-1], s2[-1])
    return do("squeeze", do("matmul", x1, do("expand_dims", x2, -1)), -1)


@composed("vecmat")
def vecmat(x1: Any, x2: Any, /) -> Any:
    """Vector-matrix product, numpy 2's ``vecmat``: ``conj(x1)`` (..., n) times
    ``x2`` (..., n, m) gives (..., m), the leading axes broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> do("vecmat", np.array([2.0, 1.0]), np.array([[1.0, -2.0], [3.0, 4.0]]))
    array([5., 0.])
    """
    s1, s2 = _core("vecmat", x1, 1), _core("vecmat", x2, 2)
    _same_core("vecmat", s1[-1], s2[-2])
    return do("squeeze", do("matmul", do("expand_dims", _conj(x1), -2), x2), -2)


@composed("scipy.linalg.lu_solve")
def lu_solve(
    lu_and_piv: Any,
    b: Any,
    trans: Any = 0,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Any:
    """Solve ``a x = b`` from the LU factorization of ``scipy.linalg.lu_factor``,
    scipy's ``lu_solve``.

    ``lu_and_piv`` is ``(lu, piv)``: L (unit diagonal, below) and U (on and
    above the diagonal) packed in one square matrix, and LAPACK's pivots
    (row ``i`` was swapped with row ``piv[i]``, in order). ``trans``: 0 ('N')
    solves ``a x = b``, 1 ('T') ``a^T x = b``, 2 ('C') ``a^H x = b``. ``b`` has
    ``n`` rows (1-D or 2-D). Two triangular solves.

    Limits: the pivots are read on the host (they become a row permutation), so
    a lazy library computes them; ``check_finite`` is accepted and not checked;
    2-D ``lu`` only (no batches).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> a = np.array([[2.0, 1.0], [4.0, 3.0]])
    >>> do("scipy.linalg.lu_solve", scipy.linalg.lu_factor(a), np.array([3.0, 7.0]))
    array([1., 1.])
    """
    lu, piv = lu_and_piv
    if trans not in _TRANS:
        raise ValueError("trans must be 0, 1, 2 or 'N', 'T', 'C'")
    mode = _TRANS[trans]
    shape = tuple(do("shape", lu))
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"expected a square 2-D lu, got shape {shape}")
    n = shape[0]
    b_shape = tuple(do("shape", b))
    if not b_shape or b_shape[0] != n:
        raise ValueError(f"Shapes of lu {shape} and b {b_shape} are incompatible")
    rt = np.result_type(_dt(lu), _dt(b))
    if rt.kind not in "fc":
        rt = np.dtype("float64")
    elif rt.itemsize < 4:
        rt = np.dtype("float32")
    m, x = do("astype", lu, rt.name), do("astype", b, rt.name)
    perm = np.arange(n)
    for i, p in enumerate(np.asarray(do("to_numpy", piv)).astype(np.int64)):
        perm[i], perm[p] = perm[p], perm[i]
    solve = "scipy.linalg.solve_triangular"
    if mode == 0:
        y = do("take", x, do("asarray", perm, like=x), axis=0)
        y = do(solve, m, y, lower=True, unit_diagonal=True)
        return do(solve, m, y, lower=False)
    mt = do("matrix_transpose", m)
    if mode == 2 and rt.kind == "c":
        mt = do("conj", mt)
    z = do(solve, mt, x, lower=True)
    w = do(solve, mt, z, lower=False, unit_diagonal=True)
    return do("take", w, do("asarray", np.argsort(perm), like=x), axis=0)


# ------------------------------------------------------------ method list: decompositions, minimize


@composed("eig")
def eig(matrix: Any) -> tuple[Any, Any]:
    """Eigenvalues (batch..., n) and right eigenvectors (batch..., n, n).

    Examples
    --------
    >>> import numpy as np
    >>> w, v = do("eig", np.diag([1.0, 2.0])[None])
    >>> w
    array([[1., 2.]])
    """
    w, v = do("linalg.eig", matrix)
    return w, v


@composed("eigvals")
def eigvals(matrix: Any) -> Any:
    """Eigenvalues (batch..., n) of (batch..., n, n) matrices.

    Examples
    --------
    >>> import numpy as np
    >>> do("eigvals", np.diag([1.0, 2.0])[None])
    array([[1., 2.]])
    """
    return do("linalg.eigvals", matrix)


@composed("svd")
def svd(matrix: Any, full_matrices: bool = True) -> tuple[Any, Any, Any]:
    """``(U, S, Vh)`` of (batch..., m, n) matrices, as ``numpy.linalg.svd``.

    Examples
    --------
    >>> import numpy as np
    >>> u, s, vh = do("svd", np.diag([3.0, 2.0])[None])
    >>> s
    array([[3., 2.]])
    """
    u, s, vh = do("linalg.svd", matrix, full_matrices=full_matrices)
    return u, s, vh


@composed("solve_triangular")
def solve_triangular(
    matrix: Any, rhs: Any, lower: bool = False, unit_diagonal: bool = False
) -> Any:
    """Triangular solve, sparse or dense by the format of ``matrix``.

    Dense: matrix (batch, n, n), rhs (batch, n) (see ``solve_triangular_dense``);
    sparse: one (n, n) matrix, rhs (batch, n).

    Examples
    --------
    >>> import numpy as np
    >>> U = np.array([[[1.0, 1.0], [0.0, 2.0]]])
    >>> do("solve_triangular", U, np.array([[3.0, 4.0]]))
    array([[1., 2.]])
    """
    if do("is_sparse", matrix):
        return do("solve_triangular_sparse", matrix, rhs, lower, unit_diagonal)
    return do("solve_triangular_dense", matrix, rhs, lower=lower, unit_diagonal=unit_diagonal)


@composed("solve_triangular_sparse")
def solve_triangular_sparse(
    matrix: Any, rhs: Any, lower: bool = False, unit_diagonal: bool = False
) -> Any:
    """Solve a sparse (n, n) triangular system for rhs (batch, n) or (n,), or a
    batch of them (batch, n, n), with ``scipy.sparse.linalg.spsolve_triangular``
    on the host (eager only).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> L = sp.csr_array(np.array([[2.0, 0.0], [1.0, 1.0]]))
    >>> do("solve_triangular_sparse", L, np.array([[2.0, 3.0]]), True)
    array([[1., 2.]])
    """
    import scipy.sparse as sp
    from scipy.sparse.linalg import spsolve_triangular

    m = do("numpy", matrix)
    if getattr(m, "ndim", 2) == 3:  # a batch of matrices (n-D sparse or dense)
        dense = m.toarray() if sp.issparse(m) else np.asarray(m)
        mats = [sp.csr_array(d) for d in dense]
    else:
        mats = [m.tocsr() if sp.issparse(m) else sp.csr_array(np.asarray(m))]
    mats = [a.astype(np.float64) if a.dtype.kind not in "fc" else a for a in mats]
    b = np.asarray(do("to_numpy", rhs))
    if b.dtype.kind not in "fc":
        b = b.astype(np.float64)
    if len(mats) == 1:
        x = spsolve_triangular(mats[0], b.T, lower=lower, unit_diagonal=unit_diagonal).T
    else:
        x = np.stack([
            spsolve_triangular(mats[min(i, len(mats) - 1)], b[i], lower=lower,
                               unit_diagonal=unit_diagonal)
            for i in range(max(len(mats), b.shape[0]))
        ])
    return do("asarray", np.ascontiguousarray(x), like=rhs)


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


@composed("logdet")
def logdet(x: Any) -> Any:
    """``log(det(x))`` of a square matrix (or a stack of them, ``(..., n, n)``), from
    ``slogdet``: NaN where the determinant is negative, ``-inf`` where it is 0 (as
    ``torch.logdet``; keras documents the op for Hermitian positive definite ``x``).

    Examples
    --------
    >>> import numpy as np
    >>> do("logdet", np.array([[[2.0, 0.0], [0.0, 3.0]], [[0.0, 1.0], [1.0, 0.0]]]))
    array([1.79175947,        nan])
    """
    kind = do("dtype_of", x).kind
    if kind == "c":
        raise TypeError("logdet takes real matrices; got a complex input")
    if kind != "f":
        x = do("to_float", x)
    sign, logabsdet = do("linalg.slogdet", x)
    nan = do("full_like", logabsdet, math.nan)
    return do("where", sign > 0, logabsdet, do("where", sign == 0, -math.inf, nan))


@composed("cholesky_inverse")
def cholesky_inverse(x: Any, upper: bool = False) -> Any:
    """The inverse of ``A`` from its Cholesky factor ``x``: ``A = x x^H`` (lower, the
    default) or ``A = x^H x`` (``upper=True``), as keras's and torch's
    ``cholesky_inverse``.

    Examples
    --------
    >>> import numpy as np
    >>> low = np.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 3.0]]))
    >>> do("cholesky_inverse", low)
    array([[ 0.375, -0.25 ],
           [-0.25 ,  0.5  ]])
    """
    shape = tuple(do("shape", x))
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"cholesky_inverse takes square matrices; got shape {shape}")
    inv = do("linalg.inv", x)
    inv_h = do("conj", do("matrix_transpose", inv))
    return do("matmul", inv, inv_h) if upper else do("matmul", inv_h, inv)


@composed("cdist")
def cdist(x1: Any, x2: Any, p: float = 2.0) -> Any:
    """Distances between the rows of ``x1`` (``(..., P, M)``) and of ``x2``
    (``(..., R, M)``): ``(sum |x1_i - x2_j| ** p) ** (1 / p)``, shape ``(..., P, R)``
    (keras's and torch's ``cdist``; ``p=inf`` the largest difference).

    Examples
    --------
    >>> import numpy as np
    >>> do("cdist", np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[3.0, 4.0]]))
    array([[5.        ],
           [3.60555128]])
    """
    if p < 0:
        raise ValueError(f"cdist: p must be non-negative; got {p}")
    diff = do("abs", do("expand_dims", x1, -2) - do("expand_dims", x2, -3))
    if p == math.inf:
        return do("max", diff, axis=-1)
    if p == 0:
        return do("sum", do("astype", diff != 0, _dt(diff)), axis=-1)
    if p == 2:
        return do("sqrt", do("sum", diff * diff, axis=-1))
    # do("power"), not **: paddle's operator reads a float exponent as float32
    return do("power", do("sum", do("power", diff, p), axis=-1), 1.0 / p)
