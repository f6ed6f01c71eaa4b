"""numpy's polynomial functions (poly, polyadd, polysub, polymul, polydiv, polyder,
polyint, polyval, polyfit, roots) and vander, on every backend against numpy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import case, params, to_backend, to_np

from dispatch import UnsupportedError, do

rng = np.random.default_rng(19)
P = np.array([2.5, -1.25, 0.5, 3.0])  # 2.5 x^3 - 1.25 x^2 + 0.5 x + 3
Q = np.array([-0.75, 4.0, 1.5])
P32, Q32 = P.astype("float32"), Q.astype("float32")
PI = np.array([3, -2, 0, 7])
LEAD0 = np.array([0.0, 0.0, 1.5, -2.0, 0.5])  # leading zeros: numpy's poly1d drops them
X = np.linspace(-2.0, 3.0, 7)
X32 = X.astype("float32")
XF = np.sort(rng.uniform(-1.0, 2.0, 12))
YF = 0.5 * XF**3 - XF + 0.3 + 0.05 * rng.standard_normal(12)
Y2 = np.stack([YF, np.cos(XF)], axis=1)
W = rng.uniform(0.5, 2.0, 12)
CONJ = np.array([1.0 + 2.0j, 1.0 - 2.0j, -0.5 + 0j])
M = np.array([[2.0, 1.0, 0.0], [0.5, -1.0, 0.25], [0.0, 1.5, 3.0]])


def _sorted_roots(r):
    r = np.asarray(r)
    return r[np.lexsort((np.round(r.imag, 6), np.round(r.real, 6)))]


def check_roots(actual, p):
    expected = np.roots(p)
    assert actual.shape == expected.shape
    assert actual.dtype.kind == expected.dtype.kind, (actual.dtype, expected.dtype)
    tol = 1e-4 if np.finfo(actual.dtype).bits == 32 else 1e-8  # float32 on torch
    np.testing.assert_allclose(_sorted_roots(actual), _sorted_roots(expected), rtol=tol,
                               atol=tol)


CASES = [
    case("polyadd", P, Q),
    case("polyadd", Q, P),
    case("polyadd", P32, Q32),
    case("polyadd", PI, Q),
    case("polyadd", PI, PI[1:]),
    case("polysub", P, Q),
    case("polysub", Q32, P32),
    case("polysub", PI, Q[:1]),
    case("polymul", P, Q),
    case("polymul", P32, Q32),
    case("polymul", PI, PI),
    case("polymul", LEAD0, Q),
    case("polydiv", P, Q),
    case("polydiv", P32, Q32[1:]),
    case("polydiv", PI, np.array([1, -2])),
    case("polydiv", Q, P),
    case("polydiv", np.polymul(Q, [1.0, -0.5]), Q),  # exact: remainder [0.]
    case("polyder", P),
    case("polyder", P, 2),
    case("polyder", P, 0),
    case("polyder", P32, 3),
    case("polyder", PI),
    case("polyint", P),
    case("polyint", P32),
    case("polyint", PI, 2),
    case("polyint", P, 3, [1.0, -2.0, 0.5]),
    case("polyint", Q, 2, 4.0),
    case("polyint", Q, 0),
    case("polyval", P, X),
    case("polyval", P32, X32),
    case("polyval", P, X32),
    case("polyval", PI, np.arange(-3, 4)),
    case("polyval", Q, X.reshape(7, 1) * np.ones((1, 2))),
    case("polyval", P, 1.5),
    case("vander", X),
    case("vander", X32, 3),
    case("vander", PI, 5, increasing=True),
    case("vander", X, 0),
    case("polyfit", XF, YF, 3, _rtol=1e-6, _atol=1e-8),
    case("polyfit", XF.astype("float32"), YF.astype("float32"), 2, _rtol=1e-3, _atol=1e-4),
    case("polyfit", XF, Y2, 2, _rtol=1e-6, _atol=1e-8),
    case("polyfit", XF, YF, 3, w=W, _rtol=1e-6, _atol=1e-8),
    case("polyfit", XF, YF, 2, full=True, _rtol=1e-6, _atol=1e-8, _dtype="kind"),
    case("polyfit", XF, YF, 3, cov=True, _rtol=1e-6, _atol=1e-8),
    case("polyfit", XF, Y2, 1, cov="unscaled", w=W, _rtol=1e-6, _atol=1e-8),
    case("roots", P, _check=check_roots),
    case("roots", P32, _check=check_roots),
    case("roots", np.array([1.0, -3.0, 2.0]), _check=check_roots),
    case("roots", np.array([0.0, 2.0, -1.0, 0.0, 0.0]), _check=check_roots),
    case("roots", PI, _check=check_roots),
    case("roots", np.array([4.0]), _check=check_roots),
    case("poly", np.array([1.0, -2.0, 0.5])),
    case("poly", np.array([1.5, 2.0], dtype="float32")),
    case("poly", np.array([2, -1, 3])),
    case("poly", CONJ),
    case("poly", CONJ[:2] * 0.5 + 1j),
]


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_polynomial(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)


@pytest.mark.parametrize("name", ["poly"])
def test_poly_of_a_matrix(name, backend):
    """A square matrix: the characteristic polynomial (its eigenvalues as roots); dask
    and pydata sparse, which have no general eigensolver, say so."""
    m = to_backend(M, backend)
    if backend in ("dask", "sparse"):  # their linalg.eigvals is unsupported
        with pytest.raises(UnsupportedError, match="eigvals"):
            do(name, m)
        return
    np.testing.assert_allclose(to_np(do(name, m)), np.poly(M), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", ["polyfit"])
def test_polyfit_rank_warning(name, backend):
    """A rank-deficient fit warns, as numpy's (RankWarning), and still returns."""
    x = to_backend(np.array([1.0, 1.0, 2.0, 2.0]), backend)
    y = to_backend(np.array([0.5, 1.5, 2.0, 3.0]), backend)
    with pytest.warns(np.exceptions.RankWarning, match="poorly conditioned"):
        c = do(name, x, y, 3)
    assert to_np(c).shape == (4,)


@pytest.mark.parametrize("name", ["polyfit"])
def test_polyfit_polyval_round_trip(name, backend):
    """polyval of polyfit's coefficients reproduces an exact polynomial's samples."""
    y = np.polyval(P, XF)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = do(name, to_backend(XF, backend), to_backend(y, backend), 3)
    np.testing.assert_allclose(to_np(c), P, rtol=1e-8)
    np.testing.assert_allclose(to_np(do("polyval", c, to_backend(XF, backend))), y, rtol=1e-8)
