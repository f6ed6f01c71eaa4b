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


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_special(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)
