"""The matrix exponential by scaling and squaring of the degree-13 Pade approximant
(Higham, 2005), written once for the tables of libraries that lack ``expm`` (mlx) or
whose ``expm`` has no derivative (autograd): each passes its own ``matmul``, ``solve``
and identity."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

# the degree-13 Pade approximant of exp (coefficients (2m-k)! m! / ((2m)! k! (m-k)!))
# and the 1-norm up to which it is accurate to float64 roundoff
PADE13 = [
    math.factorial(26 - k) * math.factorial(13)
    / (math.factorial(26) * math.factorial(k) * math.factorial(13 - k))
    for k in range(14)
]
THETA13 = 5.371920351148152


def squarings(norm: float) -> int:
    """How many squarings bring a matrix of 1-norm ``norm`` under theta_13 (0 for a
    zero or non-finite norm).

    >>> squarings(1.0), squarings(20.0)
    (0, 2)
    """
    return max(0, math.ceil(math.log2(norm / THETA13))) if math.isfinite(norm) and norm else 0


def pade13_expm(a: Any, s: int, eye: Any, matmul: Callable, solve: Callable) -> Any:
    """``exp(a)`` of a stack of matrices: ``a / 2**s`` through the Pade approximant,
    squared ``s`` times.

    >>> import numpy as np
    >>> a = np.array([[0.0, 1.0], [-1.0, 0.0]])
    >>> pade13_expm(a, 0, np.eye(2), np.matmul, np.linalg.solve).round(6).tolist()
    [[0.540302, 0.841471], [-0.841471, 0.540302]]
    """
    x = a / 2.0**s
    b = PADE13
    x2 = matmul(x, x)
    x4 = matmul(x2, x2)
    x6 = matmul(x4, x2)
    u = matmul(x6, b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2
    u = matmul(x, u + b[1] * eye)
    w = matmul(x6, b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2
    w = w + b[0] * eye
    r = solve(w - u, w + u)
    for _ in range(s):
        r = matmul(r, r)
    return r
