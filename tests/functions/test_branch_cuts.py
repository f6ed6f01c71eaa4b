"""On the branch cut of a complex function, the sign of a zero picks the side: numpy's
``sqrt(-2-0j)`` is ``-1.41j`` and ``sqrt(-2+0j)`` is ``+1.41j``. Every backend gives
numpy's value on both sides of every cut, for both spellings of each name.

XLA reads a zero on the cut as +0 whatever its sign (jax's ``sqrt``, ``arcsin``,
``arccos``, ``arccosh`` and ``arcsinh`` took the wrong side), and paddle's complex
``log1p`` adds 1 first, which makes the imaginary -0.0 a +0.0. The sign of a zero in
a *result* off the cuts is not compared here (several libraries differ from numpy
there, docs/vocabulary.md).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import missing_dtypes, to_backend, to_np, usable_backends

from dispatch import do

# points on the cuts, each with both signs of its zero: the real axis beyond -1 and
# 1 (sqrt, log, arcsin, arccos, arccosh, arctanh, log1p below -1) and the imaginary
# axis beyond -1j and 1j (arcsinh, arctan)
Z = np.array([complex(r, s * 0.0) for r in (-3.0, -2.0, -0.5, 0.5, 2.0, 3.0) for s in (1, -1)]
             + [complex(s * 0.0, i) for i in (-3.0, -2.0, 2.0, 3.0) for s in (1, -1)])
NAMES = ("sqrt", "log", "log2", "log10", "log1p", "arcsin", "arccos", "arctan", "arcsinh",
         "arccosh", "arctanh", "asin", "acos", "atan", "asinh", "acosh", "atanh")
NUMPY = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
         "acosh": "arccosh", "atanh": "arctanh"}


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
@pytest.mark.parametrize("name", NAMES)
def test_the_zeros_sign_picks_the_side_of_the_cut(name: str, backend: str) -> None:
    with np.errstate(all="ignore"):
        expected = getattr(np, NUMPY.get(name, name))(Z)
    # a library without complex128 (mlx) takes the points in complex64
    points = Z.astype(np.complex64) if "complex128" in missing_dtypes(backend) else Z
    z = to_backend(points, backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = np.asarray(to_np(do(name, z)))
    rtol = 1e-5 if got.dtype == np.complex64 else 1e-12
    for zi, g, e in zip(Z, got, expected, strict=True):
        assert np.isclose(g, e, rtol=rtol, atol=rtol), f"{name}({zi}) on {backend}: {g}, numpy {e}"
