"""numpy.linalg and scipy.linalg functions that some libraries lack, written once
with ``do``: ``linalg.svdvals``, ``linalg.cond`` and ``scipy.linalg.lu_solve``,
over the library's ``linalg.svd``, ``linalg.inv``, ``linalg.norm`` and
``scipy.linalg.solve_triangular``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from dispatch.translations._composed.reductions import _dt

from dispatch.engine import composed, do


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
