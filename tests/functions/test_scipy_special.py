"""scipy.special on every backend, against scipy."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import case, params

rng = np.random.default_rng(70)
A = rng.standard_normal((3, 4))
A32 = A.astype("float32")
A3 = rng.standard_normal((2, 3, 4))
UNIT = rng.uniform(-0.95, 0.95, (3, 4))
PROB = rng.uniform(0.02, 0.98, (3, 4))
POS = rng.uniform(0.1, 6.0, (3, 4))
XS = np.array([0.0, 0.0, 1.5, 2.0])
YS = np.array([0.0, 2.0, 3.0, 0.5])
BIG = np.array([1000.0, 1000.5, -3.0])  # logsumexp must not overflow
S = np.array(0.3)
E = np.zeros((0,))

CASES = []
for fn, x in (
    ("erf", A),
    ("erfc", A),
    ("erfinv", UNIT),
    ("gammaln", POS),
    ("digamma", POS),
    ("expit", A),
    ("logit", PROB),
):
    CASES += [case(f"scipy.special.{fn}", x), case(f"scipy.special.{fn}", x.astype("float32"))]
    CASES.append(case(f"scipy.special.{fn}", np.asarray(x[0, 0])))
CASES += [
    case("scipy.special.erf", E),
    case("scipy.special.xlogy", XS, YS),
    case("scipy.special.xlogy", POS, POS),
    case("scipy.special.xlogy", 2.0, POS),
    case("scipy.special.logsumexp", A),
    case("scipy.special.logsumexp", A, axis=0),
    case("scipy.special.logsumexp", A, axis=-1),
    case("scipy.special.logsumexp", A, axis=1, keepdims=True),
    case("scipy.special.logsumexp", A3, axis=(0, 2)),
    case("scipy.special.logsumexp", BIG),
    case("scipy.special.logsumexp", A32, axis=1),
    case("scipy.special.logsumexp", np.array([-np.inf, -np.inf])),
    case("scipy.special.softmax", A),
    case("scipy.special.softmax", A, axis=0),
    case("scipy.special.softmax", A, axis=-1),
    case("scipy.special.softmax", A3, axis=(1, 2)),
    case("scipy.special.softmax", BIG),
    case("scipy.special.softmax", A32, axis=1),
    case("scipy.special.log_softmax", A),
    case("scipy.special.log_softmax", A, axis=1),
    case("scipy.special.log_softmax", A3, axis=0),
    case("scipy.special.log_softmax", BIG),
    case("scipy.special.expit", np.array([-800.0, 0.0, 800.0])),
    case("scipy.special.logit", np.array([0.0, 0.5, 1.0])),
    case("scipy.special.erfinv", np.array([-1.0, 0.0, 1.0])),
    case("scipy.special.gammaln", np.array([0.5, 1.0, 10.0, 100.0])),
]

# ---------------------------------------------------------------- Bessel functions,
# the normal distribution, the gamma family, zeta and entropy
X20 = rng.uniform(0.1, 20.0, (3, 4))
EDGE = np.array([-1.5, 0.0, 0.5, 30.0, np.inf, np.nan])
WIDE = rng.uniform(-9.0, 9.0, (3, 4))
TAILS = np.array([-np.inf, -1e3, -40.0, -10.0, -1.0, 0.0, 0.3, 5.0, 12.0, 40.0, np.inf, np.nan])
AI = np.array([[1, 2, 3], [4, 5, 6]])  # integers: float64 (or the library's float) out
ZX = np.array([-20.5, -3.5, -2.0, -1.0, -0.3, 0.0, 0.3, 0.9, 1.0, 1.5, 10.0, np.inf, np.nan])
ZXE = np.array([0.5, 1.0, 1.5, 3.0, 4.0, np.inf, np.nan])  # Hurwitz zeta's edges
ZQE = np.array([1.0, 0.5, 0.0, -1.0, -2.0, -1.5, np.inf, -np.inf, np.nan])
BESSEL = ("i0", "i0e", "i1", "i1e", "j0", "j1", "y0", "y1", "k0", "k0e", "k1", "k1e")
for fn, x, edge in (
    *((b, X20, EDGE) for b in BESSEL),
    ("erfcx", WIDE, np.concatenate([TAILS, [-26.0, 9.9, 10.1, 1e5]])),
    ("ndtr", WIDE, TAILS),
    ("log_ndtr", WIDE, TAILS),
    ("entr", POS, np.array([0.0, -1.0, 0.5, 1.0, np.inf, np.nan])),
    ("psi", POS, np.array([-2.5, -0.5, 0.0, 1e-3, 50.0, np.inf, np.nan])),
    ("ndtri", PROB, np.array([0.0, 1e-10, 0.5, 1.0, -0.1, 1.1, np.nan])),
):
    name = f"scipy.special.{fn}"
    CASES += [case(name, x), case(name, x.astype("float32")), case(name, np.asarray(x[0, 0]))]
    CASES += [case(name, edge), case(name, AI if fn != "ndtri" else AI / 8, _dtype="kind")]
CASES += [
    case("scipy.special.xlog1py", XS, YS),
    case("scipy.special.xlog1py", POS, UNIT),
    case("scipy.special.xlog1py", POS.astype("float32"), UNIT.astype("float32")),
    case("scipy.special.xlog1py", np.array([0.0, 0.0, 1.0, 2.0]), np.array([-1.0, 3.0, -1.0, 0.0])),
    case("scipy.special.zeta", POS + 1.1),
    case("scipy.special.zeta", (POS + 1.1).astype("float32")),
    case("scipy.special.zeta", ZX),
    case("scipy.special.zeta", POS + 1.1, POS),
    case("scipy.special.zeta", np.array([2.0, 3.5, 4.0, 30.0]), np.array([1.0, -1.5, 0.5, 2.0])),
    case("scipy.special.zeta", *(g.ravel() for g in np.meshgrid(ZXE, ZQE))),
    case("scipy.special.zeta", *(g.ravel().astype("float32") for g in np.meshgrid(ZXE, ZQE))),
    case("scipy.special.polygamma", 0, POS),
    case("scipy.special.polygamma", 1, POS),
    case("scipy.special.polygamma", 3, A),
    # scipy widens float32 to float64 here (its integer n, its float64 constant); the
    # libraries keep float32
    case("scipy.special.polygamma", 2, POS.astype("float32"), _dtype="kind"),
    case("scipy.special.polygamma", np.array([0, 1, 2, 3]), np.array([0.5, 1.5, -2.5, 10.0])),
    case("scipy.special.polygamma", 2, np.array([-2.0, 0.0, -1.5, np.inf, np.nan])),
    case(
        "scipy.special.polygamma",
        np.array([1, 2, 1, 0, 3]),
        np.array([-2.0, 0.0, np.inf, 0.0, 1.5], dtype="float32"),
        _dtype="kind",
    ),
    case("scipy.special.multigammaln", POS + 2.0, 3),
    # scipy computes it in float32 for float32 input, then widens: as precise as float32
    case("scipy.special.multigammaln", (POS + 1.0).astype("float32"), 2, _dtype="kind",
         _rtol=1e-4, _atol=1e-5),
    case("scipy.special.multigammaln", np.array([0.7, 3.0, 50.0]), 1),
]


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_special(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)
