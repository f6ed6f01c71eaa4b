"""SuperLU factors and determinants of scipy.sparse matrices (scipy and sparse tables).

Both the ``scipy`` table (scipy.sparse containers) and the ``sparse`` table
(pydata sparse, converted to CSC) factor a square matrix with SuperLU
(``scipy.sparse.linalg.splu``) the way LAPACK's ``getrf`` does, and read
numpy's ``det`` and ``slogdet`` from the factors: written once here, so that
the two cannot drift apart.

numpy's rules kept: integer and boolean matrices give float64 results, float16
is refused with numpy's ``TypeError``, the empty matrix has determinant 1, a
singular one (SuperLU stops on an exactly zero pivot) has sign 0 and log
-inf, and ``det`` is ``sign * exp(logabsdet)``, as numpy computes it.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def linalg_dtype(dtype: Any) -> np.dtype:
    """The dtype of numpy.linalg's results for an input ``dtype``.

    Integers and booleans become float64; float32, float64, complex64 and
    complex128 stay; anything else (float16, long double) is numpy's TypeError.
    """
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        return np.dtype(np.float64)
    if dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise TypeError(f"array type {dtype} is unsupported in linalg")
    return dtype


def factor(m: Any, name: str) -> Any:
    """SuperLU's factors of the square CSC matrix ``m`` (``name``: the caller, for errors).

    Raises ``RuntimeError`` (SuperLU's) when ``m`` is exactly singular.
    """
    import scipy.sparse.linalg as ssl

    if m.shape[0] != m.shape[1]:
        raise ValueError(f"{name}: Last 2 dimensions of the array must be square")
    # natural column order and full partial pivoting: LAPACK's getrf factors
    return ssl.splu(m, permc_spec="NATURAL", diag_pivot_thresh=1.0)


def perm_sign(perm: np.ndarray) -> int:
    """The sign of a permutation: -1 to the number of its even-length cycles."""
    seen = np.zeros(len(perm), bool)
    sign = 1
    for i in range(len(perm)):
        j, length = i, 0
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        if length and length % 2 == 0:
            sign = -sign
    return sign


def slogdet(m: Any, dtype: Any, name: str = "linalg.slogdet") -> tuple[np.generic, np.generic]:
    """numpy's ``slogdet`` of the CSC matrix ``m`` whose entries had ``dtype``."""
    dt = linalg_dtype(dtype)
    rdt = np.empty(0, dt).real.dtype
    if m.shape[0] != m.shape[1]:
        raise ValueError(f"{name}: Last 2 dimensions of the array must be square")
    if m.shape[0] == 0:
        return dt.type(1), rdt.type(0)
    try:
        lu = factor(m, name)
    except RuntimeError:  # SuperLU: the matrix is exactly singular
        return dt.type(0), rdt.type(-np.inf)
    d = lu.U.diagonal()
    absd = np.abs(d)
    if not absd.all():
        return dt.type(0), rdt.type(-np.inf)
    # Pr A Pc = L U with unit-diagonal L: the permutations' signs times U's diagonal
    sign = perm_sign(lu.perm_r) * perm_sign(lu.perm_c) * np.prod(d / absd)
    return dt.type(sign), rdt.type(np.sum(np.log(absd)))


def det(m: Any, dtype: Any, name: str = "linalg.det") -> np.generic:
    """numpy's ``det`` of the CSC matrix ``m`` whose entries had ``dtype``."""
    sign, logdet = slogdet(m, dtype, name)
    return sign * np.exp(logdet)
