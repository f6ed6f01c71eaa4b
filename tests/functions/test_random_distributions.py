"""numpy's ``Generator`` distributions (gumbel, dirichlet, zipf, ...) on every backend.

Each library draws its own numbers, so the draws are checked statistically against
the distribution numpy documents (scipy.stats gives the same law in its own
parametrisation): the sample mean and variance against the analytic ones, within
five standard errors computed from the sample size (and the kurtosis, for the
variance), and for continuous laws a Kolmogorov-Smirnov test against the CDF; for
discrete ones the frequency of every likely value against the probability mass.
The seeds are fixed, so the tests are deterministic, and a wrong law, a swapped
parameter or numpy's other parametrisation (pareto is Lomax, wald's scale) fails.
Plus: support and bounds, shapes and dtypes, seeding, default_rng, parameters given
as arrays (broadcast), and the multivariate draws' components and covariances.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as st
from conftest import to_backend, to_np

from dispatch import do, infer_backend

N = 20_000

# name -> (args, scipy law, support (lo, hi) closed)
CONTINUOUS = {
    "random.standard_exponential": ((), st.expon(), (0.0, np.inf)),
    "random.standard_gamma": ((2.5,), st.gamma(2.5), (0.0, np.inf)),
    "random.standard_cauchy": ((), st.cauchy(), (-np.inf, np.inf)),
    "random.standard_t": ((5.0,), st.t(5.0), (-np.inf, np.inf)),
    "random.chisquare": ((3.5,), st.chi2(3.5), (0.0, np.inf)),
    "random.f": ((6.0, 12.0), st.f(6.0, 12.0), (0.0, np.inf)),
    "random.noncentral_chisquare": ((3.0, 2.5), st.ncx2(3.0, 2.5), (0.0, np.inf)),
    "random.noncentral_f": ((5.0, 14.0, 1.5), st.ncf(5.0, 14.0, 1.5), (0.0, np.inf)),
    "random.gumbel": ((1.5, 2.0), st.gumbel_r(1.5, 2.0), (-np.inf, np.inf)),
    "random.laplace": ((-1.0, 0.5), st.laplace(-1.0, 0.5), (-np.inf, np.inf)),
    "random.logistic": ((2.0, 0.75), st.logistic(2.0, 0.75), (-np.inf, np.inf)),
    "random.lognormal": ((0.3, 0.4), st.lognorm(0.4, scale=math.exp(0.3)), (0.0, np.inf)),
    "random.pareto": ((5.0,), st.lomax(5.0), (0.0, np.inf)),  # numpy's pareto is Lomax
    "random.power": ((3.0,), st.powerlaw(3.0), (0.0, 1.0)),
    "random.rayleigh": ((1.5,), st.rayleigh(scale=1.5), (0.0, np.inf)),
    "random.triangular": ((-1.0, 0.5, 3.0), st.triang(0.375, loc=-1.0, scale=4.0), (-1.0, 3.0)),
    # numpy's draws lie on [-pi, pi]: compared after turning them by -mu (_centred)
    "random.vonmises": ((0.5, 2.0), st.vonmises(2.0), (-np.pi, np.pi)),
    "random.wald": ((1.5, 2.0), st.invgauss(0.75, scale=2.0), (0.0, np.inf)),
    "random.weibull": ((1.7,), st.weibull_min(1.7), (0.0, np.inf)),
}

DISCRETE = {
    "random.geometric": ((0.3,), st.geom(0.3)),
    "random.hypergeometric": ((12, 20, 9), st.hypergeom(32, 12, 9)),
    "random.logseries": ((0.7,), st.logser(0.7)),
    "random.negative_binomial": ((3.5, 0.4), st.nbinom(3.5, 0.4)),
    "random.zipf": ((2.5,), st.zipf(2.5)),
}


def _draw(backend, name, args, size):
    out = do(name, *args, size=size, like=backend)
    assert infer_backend(out) == backend
    return to_np(out)


def _check_moments(x, law):
    """Sample mean and variance against the law's, within five standard errors."""
    mean, var, kurt = (float(v) for v in law.stats(moments="mvk"))
    n = x.size
    if np.isfinite(var):
        assert abs(x.mean() - mean) < 5 * math.sqrt(var / n), (x.mean(), mean)
        if np.isfinite(kurt):  # Var(s^2) ~ sigma^4 (excess kurtosis + 2) / n
            assert abs(x.var() - var) < 5 * var * math.sqrt((kurt + 2) / n), (x.var(), var)


@pytest.mark.parametrize("name", list(CONTINUOUS))
def test_continuous_law(name, backend):
    args, law, (lo, hi) = CONTINUOUS[name]
    do("random.seed", 21, like=backend)
    x = _draw(backend, name, args, (N,)).astype("float64")
    assert x.shape == (N,)
    assert np.isfinite(x).all()
    eps = 1e-6 * max(1.0, abs(lo) if np.isfinite(lo) else 1.0, abs(hi) if np.isfinite(hi)
                     else 1.0)  # float32 draws round to their bounds
    assert x.min() >= lo - eps
    assert x.max() <= hi + eps
    if name == "random.vonmises":
        x = (x - args[0] + np.pi) % (2 * np.pi) - np.pi  # centred on mu
    _check_moments(x, law)
    # Kolmogorov-Smirnov: with a fixed seed a right law passes at p > 1e-4 (a wrong one,
    # 20000 draws, gives p ~ 0)
    assert st.kstest(x, law.cdf).pvalue > 1e-4, st.kstest(x, law.cdf)


@pytest.mark.parametrize("name", list(DISCRETE))
def test_discrete_law(name, backend):
    args, law = DISCRETE[name]
    do("random.seed", 22, like=backend)
    x = _draw(backend, name, args, (N,))
    assert x.dtype.kind in "iu", x.dtype
    lo = law.support()[0]
    assert x.min() >= lo
    _check_moments(x.astype("float64"), law)
    # each value of probability > 0.5% appears with that frequency, within 5 standard errors
    values = np.arange(lo, lo + 60)
    pmf = law.pmf(values)
    for v, p in zip(values[pmf > 0.005], pmf[pmf > 0.005], strict=True):
        freq = np.mean(x == v)
        assert abs(freq - p) < 5 * math.sqrt(p * (1 - p) / N), (v, freq, p)


@pytest.mark.parametrize("name", ["random.dirichlet"])
def test_dirichlet(name, backend):
    alpha = np.array([0.8, 2.0, 4.5])
    do("random.seed", 23, like=backend)
    x = _draw(backend, name, (alpha,), (N,)).astype("float64")
    assert x.shape == (N, 3)
    assert (x >= 0).all()
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-5)
    a0 = alpha.sum()
    for i, a in enumerate(alpha):  # each component is Beta(a, a0 - a)
        law = st.beta(a, a0 - a)
        _check_moments(x[:, i], law)
        assert st.kstest(x[:, i], law.cdf).pvalue > 1e-4
    assert _draw(backend, name, ([1.0, 1.0],), (2, 5)).shape == (2, 5, 2)
    assert to_np(do(name, alpha, like=backend)).shape == (3,)


@pytest.mark.parametrize("name", ["random.multinomial"])
def test_multinomial(name, backend):
    pvals = np.array([0.2, 0.5, 0.05, 0.25])
    do("random.seed", 24, like=backend)
    x = _draw(backend, name, (30, pvals), (N,))
    assert x.dtype.kind in "iu"
    assert x.shape == (N, 4)
    assert (x.sum(axis=1) == 30).all()
    for i, p in enumerate(pvals):  # each count is Binomial(30, p)
        _check_moments(x[:, i].astype("float64"), st.binom(30, p))
    # counts of different categories are negatively correlated: cov = -n p_i p_j
    c = np.cov(x[:, 0], x[:, 1])[0, 1]
    assert abs(c - (-30 * 0.2 * 0.5)) < 0.15 * 30 * 0.2 * 0.5 + 0.1, c
    # n as an array: broadcast against pvals[:-1]'s batch shape
    y = to_np(do(name, np.array([0, 5, 10]), pvals, like=backend))
    assert y.shape == (3, 4)
    np.testing.assert_array_equal(y.sum(axis=1), [0, 5, 10])


@pytest.mark.parametrize("name", ["random.multivariate_hypergeometric"])
def test_multivariate_hypergeometric(name, backend):
    colors = np.array([4, 10, 1, 6])
    do("random.seed", 28, like=backend)
    x = to_np(do(name, colors, 8, size=N // 4, like=backend))
    assert x.dtype.kind in "iu"
    assert x.shape == (N // 4, 4)
    assert (x.sum(axis=1) == 8).all()
    assert (x <= colors).all()
    for i, c in enumerate(colors):  # each count is hypergeometric: c of 21, 8 drawn
        _check_moments(x[:, i].astype("float64"), st.hypergeom(21, c, 8))
    y = to_np(do(name, [2, 3], 5, method="count", like=backend))
    np.testing.assert_array_equal(y, [2, 3])  # every item drawn
    with pytest.raises(ValueError, match="nsample > sum"):
        do(name, [2, 3], 6, like=backend)


@pytest.mark.parametrize("name", ["random.multivariate_normal"])
@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(name, method, backend):
    if backend == "dask" and method == "eigh":
        pytest.skip("dask has no eigh (linalg.eigh is unsupported there)")
    mean = np.array([1.0, -2.0, 0.5])
    a = np.array([[1.0, 0.3, 0.0], [0.2, 1.5, -0.4], [0.1, 0.0, 0.7]])
    cov = a @ a.T
    do("random.seed", 25, like=backend)
    x = to_np(do(name, mean, cov, size=(N,), method=method, like=backend)).astype("float64")
    assert x.shape == (N, 3)
    se = np.sqrt(np.diag(cov) / N)
    assert (np.abs(x.mean(axis=0) - mean) < 5 * se).all(), x.mean(axis=0)
    # sample covariance: entry (i, j) has variance (c_ij^2 + c_ii c_jj) / N
    se_cov = np.sqrt((cov**2 + np.outer(np.diag(cov), np.diag(cov))) / N)
    assert (np.abs(np.cov(x.T) - cov) < 5 * se_cov).all(), np.cov(x.T)
    assert to_np(do(name, mean, cov, size=(2, 4), like=backend)).shape == (2, 4, 3)


@pytest.mark.parametrize("name", ["random.multivariate_normal"])
def test_multivariate_normal_not_psd(name, backend):
    mean, cov = np.zeros(2), np.array([[1.0, 2.0], [2.0, 1.0]])
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        do(name, mean, cov, size=3, like=backend)
    with pytest.raises(ValueError, match="positive-semidefinite"):
        do(name, mean, cov, size=3, check_valid="raise", like=backend)


@pytest.mark.parametrize("name", ["random.permuted"])
def test_permuted(name, backend):
    base = np.arange(40.0).reshape(4, 10)
    x = to_backend(base, backend)
    do("random.seed", 26, like=backend)
    rows = to_np(do(name, x, axis=1))
    assert rows.shape == (4, 10)
    np.testing.assert_array_equal(np.sort(rows, axis=1), base)  # each row shuffled in place
    orders = {tuple(r - r.min()) for r in rows}
    assert len(orders) > 1, "the rows are shuffled independently"
    cols = to_np(do(name, x, axis=0))
    np.testing.assert_array_equal(np.sort(cols, axis=0), base)
    flat = to_np(do(name, x))
    np.testing.assert_array_equal(np.sort(flat.ravel()), base.ravel())
    assert not np.array_equal(flat, base)
    np.testing.assert_array_equal(to_np(x), base)  # the input is left alone
    with pytest.raises(TypeError, match="out="):
        do(name, x, out=x)


@pytest.mark.parametrize("name", ["random.bytes"])
def test_bytes(name, backend):
    do("random.seed", 27, like=backend)
    b = do(name, 4096, like=backend)
    assert isinstance(b, bytes)
    assert len(b) == 4096
    counts = np.bincount(np.frombuffer(b, np.uint8), minlength=256)
    assert (counts > 0).sum() > 250  # every byte value is drawn (16 expected of each)
    do("random.seed", 27, like=backend)
    assert do(name, 4096, like=backend) == b


NAMES = [*CONTINUOUS, *DISCRETE]


@pytest.mark.parametrize("name", NAMES)
def test_seed_repeats_and_shapes(name, backend):
    args = CONTINUOUS[name][0] if name in CONTINUOUS else DISCRETE[name][0]
    do("random.seed", 3, like=backend)
    a = _draw(backend, name, args, (3, 4))
    b = _draw(backend, name, args, (3, 4))
    do("random.seed", 3, like=backend)
    np.testing.assert_array_equal(_draw(backend, name, args, (3, 4)), a)
    assert a.shape == (3, 4)
    assert a.dtype.kind == ("f" if name in CONTINUOUS else "i")
    assert not np.array_equal(a, b), "successive draws differ"
    assert to_np(do(name, *args, like=backend)).shape == ()
    # a generator of the library, seeded: its own stream
    method = name.removeprefix("random.")
    g1, g2 = do("random.default_rng", 8, like=backend), do("random.default_rng", 8, like=backend)
    c = to_np(getattr(g1, method)(*args, size=5))
    np.testing.assert_array_equal(to_np(getattr(g2, method)(*args, size=5)), c)
    assert c.shape == (5,)


BROADCAST = {
    "random.gumbel": ((np.array([0.0, 50.0]), 1.0), [0.5772, 50.5772]),
    "random.laplace": ((np.array([-10.0, 10.0]), 0.5), [-10.0, 10.0]),
    "random.lognormal": ((np.array([0.0, 1.0]), 0.1), np.exp([0.005, 1.005])),
    "random.standard_gamma": ((np.array([1.0, 9.0]),), [1.0, 9.0]),
    "random.chisquare": ((np.array([2.0, 20.0]),), [2.0, 20.0]),
    "random.wald": ((np.array([0.5, 4.0]), 3.0), [0.5, 4.0]),
    "random.triangular": ((0.0, np.array([0.0, 3.0]), 3.0), [1.0, 2.0]),
    "random.geometric": ((np.array([0.9, 0.1]),), [1 / 0.9, 10.0]),
    "random.negative_binomial": ((np.array([1.0, 8.0]), 0.5), [1.0, 8.0]),
    "random.hypergeometric": ((np.array([5, 30]), 10, 6), [2.0, 4.5]),
}


@pytest.mark.parametrize("name", list(BROADCAST))
def test_array_parameters(name, backend):
    """Parameters given as the backend's arrays broadcast against ``size``, numpy's way."""
    args, means = BROADCAST[name]
    do("random.seed", 4, like=backend)
    on = tuple(to_backend(a, backend) if isinstance(a, np.ndarray) else a for a in args)
    x = to_np(do(name, *on, size=(4000, 2)))
    assert x.shape == (4000, 2)
    np.testing.assert_allclose(x.mean(axis=0), means, rtol=0.08, atol=0.05)
    assert to_np(do(name, *on)).shape == (2,)  # size None: the parameters' shape
