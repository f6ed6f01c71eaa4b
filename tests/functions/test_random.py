"""Random numbers: seeded reproducibility, shapes, dtypes, ranges and generators.

Values differ between libraries (each has its own generator), so the tests
check the contract rather than numbers: the same seed repeats the same draws,
shapes and ranges follow numpy's arguments, results are the backend's arrays.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_backend, to_np

from dispatch import do, infer_backend

POOL = np.arange(10.0, 20.0)


def _draw(name: str, backend: str, size=(20,)):
    """One draw of ``name`` through ``do``, module-level generator."""
    n = int(np.prod(size))
    if name == "random.normal":
        return do(name, size=size, like=backend)
    if name == "random.uniform":
        return do(name, -2.0, 3.0, size=size, like=backend)
    if name == "random.integers":
        return do(name, 0, 1000, size=size, like=backend)
    if name == "random.random":
        return do(name, size=size, like=backend)
    if name == "random.permutation":
        return do(name, n, like=backend)
    if name == "random.choice":
        return do(name, 1000, size=size, like=backend)
    raise AssertionError(name)


DRAWS = [
    "random.normal",
    "random.uniform",
    "random.integers",
    "random.random",
    "random.permutation",
    "random.choice",
]


@pytest.mark.parametrize("name", DRAWS)
def test_seed_repeats_draws(name, backend):
    do("random.seed", 7, like=backend)
    a = to_np(_draw(name, backend))
    b = to_np(_draw(name, backend))
    do("random.seed", 7, like=backend)
    a2 = to_np(_draw(name, backend))
    b2 = to_np(_draw(name, backend))
    np.testing.assert_array_equal(a, a2)
    np.testing.assert_array_equal(b, b2)
    assert not np.array_equal(a, b), "two successive draws should differ"
    do("random.seed", 8, like=backend)
    assert not np.array_equal(to_np(_draw(name, backend)), a), "another seed, other draws"


@pytest.mark.parametrize("name", DRAWS)
def test_draw_is_backend_array_of_shape(name, backend):
    do("random.seed", 0, like=backend)
    out = _draw(name, backend, size=(4, 5))
    assert infer_backend(out) == backend
    expected = (20,) if name == "random.permutation" else (4, 5)
    assert to_np(out).shape == expected


@pytest.mark.parametrize("name", ["random.normal"])
def test_normal(name, backend):
    do("random.seed", 1, like=backend)
    x = to_np(do(name, 3.0, 0.5, size=(2000,), like=backend))
    assert x.dtype.kind == "f"
    assert abs(x.mean() - 3.0) < 0.1
    assert abs(x.std() - 0.5) < 0.1
    # keywords, checked by value: with a fixed seed, 4000 draws of N(-1, 2) have a mean
    # within 0.2 of -1 (6 standard errors: 2 / sqrt(4000) = 0.032) and a std within 0.2
    # of 2; swapped or dropped keywords (N(0, 1), N(2, -1)...) fail
    x = to_np(do(name, loc=-1.0, scale=2.0, size=(4000,), like=backend))
    assert x.shape == (4000,)
    assert abs(x.mean() + 1.0) < 0.2, x.mean()
    assert abs(x.std() - 2.0) < 0.2, x.std()
    assert to_np(do(name, loc=-1.0, scale=2.0, size=(2, 3), like=backend)).shape == (2, 3)
    assert to_np(do(name, size=(2,), dtype="float64", like=backend)).dtype == np.float64
    assert to_np(do(name, size=(2,), dtype="float32", like=backend)).dtype == np.float32
    assert to_np(do(name, like=backend)).shape == ()


@pytest.mark.parametrize("name", ["random.uniform"])
def test_uniform(name, backend):
    do("random.seed", 2, like=backend)
    # the bounds are checked from both sides: 2000 draws of U(-2, 3) fill the interval
    # (min within 0.1 of -2, max within 0.1 of 3: each misses with probability
    # (1 - 0.02)^2000 ~ 3e-18), mean 0.5 and std 5 / sqrt(12) = 1.443 within 0.15
    x = to_np(do(name, -2.0, 3.0, size=(2000,), like=backend))
    assert x.dtype.kind == "f"
    assert -2.0 <= x.min() < -1.9, x.min()
    assert 2.9 < x.max() < 3.0, x.max()
    assert abs(x.mean() - 0.5) < 0.15, x.mean()
    assert abs(x.std() - 5 / 12**0.5) < 0.15, x.std()
    x = to_np(do(name, size=(500,), like=backend))
    assert 0.0 <= x.min() < 0.05, x.min()
    assert 0.95 < x.max() < 1.0, x.max()
    x = to_np(do(name, low=5.0, high=6.0, size=(3, 2), like=backend))
    assert x.shape == (3, 2)
    assert x.min() >= 5.0
    assert x.max() < 6.0
    x = to_np(do(name, low=5.0, high=6.0, size=(1000,), like=backend))
    assert 5.0 <= x.min() < 5.05, x.min()
    assert 5.95 < x.max() < 6.0, x.max()
    assert to_np(do(name, size=(2,), dtype="float64", like=backend)).dtype == np.float64
    assert to_np(do(name, size=(2,), dtype="float32", like=backend)).dtype == np.float32


@pytest.mark.parametrize("name", ["random.integers"])
def test_integers(name, backend):
    do("random.seed", 3, like=backend)
    x = to_np(do(name, 2, 7, size=(1000,), like=backend))
    assert x.dtype.kind in "iu"
    assert x.min() >= 2
    assert x.max() <= 6
    assert set(np.unique(x)) == {2, 3, 4, 5, 6}
    x = to_np(do(name, 5, size=(300,), like=backend))  # one bound: [0, 5)
    assert x.min() >= 0
    assert x.max() <= 4
    x = to_np(do(name, 0, 3, size=(2, 2), dtype="int32", like=backend))
    assert x.dtype == np.int32
    assert x.shape == (2, 2)


@pytest.mark.parametrize("name", ["random.random"])
def test_random(name, backend):
    do("random.seed", 4, like=backend)
    x = to_np(do(name, size=(1000,), like=backend))
    assert x.dtype.kind == "f"
    assert x.min() >= 0.0
    assert x.max() < 1.0
    assert abs(x.mean() - 0.5) < 0.1
    assert to_np(do(name, (2, 3), like=backend)).shape == (2, 3)


@pytest.mark.parametrize("name", ["random.permutation"])
def test_permutation(name, backend):
    do("random.seed", 5, like=backend)
    p = to_np(do(name, 12, like=backend))
    assert p.dtype.kind in "iu"
    np.testing.assert_array_equal(np.sort(p), np.arange(12))
    x = to_backend(POOL, backend)
    q = do(name, x)
    assert infer_backend(q) == backend
    np.testing.assert_array_equal(np.sort(to_np(q)), POOL)
    np.testing.assert_array_equal(to_np(x), POOL)  # input not shuffled in place
    m = to_backend(POOL.reshape(5, 2), backend)
    rows = to_np(do(name, m))  # numpy permutes along the first axis only
    assert rows.shape == (5, 2)
    assert sorted(map(tuple, rows)) == sorted(map(tuple, POOL.reshape(5, 2)))


@pytest.mark.parametrize("name", ["random.choice"])
def test_choice(name, backend):
    do("random.seed", 6, like=backend)
    x = to_np(do(name, 5, size=(200,), like=backend))
    assert x.min() >= 0
    assert x.max() <= 4
    y = to_np(do(name, 10, size=(10,), replace=False, like=backend))
    np.testing.assert_array_equal(np.sort(y), np.arange(10))
    z = to_np(do(name, 3, size=(50,), p=np.array([0.0, 1.0, 0.0]), like=backend))
    np.testing.assert_array_equal(z, 1)
    pool = to_backend(POOL, backend)
    w = do(name, pool, size=(6,))
    assert infer_backend(w) == backend
    assert set(to_np(w)) <= set(POOL)


GENERATOR_METHODS = {
    "normal": lambda g: g.normal(size=(3, 2)),
    "uniform": lambda g: g.uniform(1.0, 2.0, size=(4,)),
    "integers": lambda g: g.integers(0, 10, size=(5,)),
    "random": lambda g: g.random(size=(2, 2)),
    "permutation": lambda g: g.permutation(6),
}


@pytest.mark.parametrize("name", ["random.default_rng"])
@pytest.mark.parametrize("method", list(GENERATOR_METHODS))
def test_default_rng(name, method, backend):
    draw = GENERATOR_METHODS[method]
    g1 = do(name, 11, like=backend)
    g2 = do(name, 11, like=backend)
    a, b = draw(g1), draw(g2)
    assert infer_backend(a) == backend
    np.testing.assert_array_equal(to_np(a), to_np(b))
    assert not np.array_equal(to_np(draw(g1)), to_np(a)), "the generator advances"
    # a generator's stream does not depend on the module-level seed
    do("random.seed", 0, like=backend)
    g3 = do(name, 11, like=backend)
    np.testing.assert_array_equal(to_np(draw(g3)), to_np(a))


@pytest.mark.parametrize("name", ["random.default_rng"])
def test_default_rng_ranges(name, backend):
    g = do(name, 12, like=backend)
    u = to_np(g.uniform(-1.0, 1.0, size=(500,)))
    assert u.min() >= -1.0
    assert u.max() < 1.0
    i = to_np(g.integers(3, 6, size=(300,)))
    assert i.min() >= 3
    assert i.max() <= 5
    p = to_np(g.permutation(8))
    np.testing.assert_array_equal(np.sort(p), np.arange(8))
    assert to_np(g.normal(size=(7,))).shape == (7,)


@pytest.mark.parametrize("name", ["random.rand", "random.randn"])
def test_rand_randn(name, backend):
    """numpy's legacy draws: dimensions as arguments, floats of that shape."""
    do("random.seed", 9, like=backend)
    out = do(name, 500, 3, like=backend)
    assert infer_backend(out) == backend
    x = to_np(out)
    assert x.shape == (500, 3)
    assert x.dtype.kind == "f"
    if name == "random.rand":
        assert x.min() >= 0.0
        assert x.max() < 1.0
        assert abs(x.mean() - 0.5) < 0.1
    else:
        assert abs(x.mean()) < 0.15
        assert abs(x.std() - 1.0) < 0.15
    assert to_np(do(name, 2, like=backend)).shape == (2,)
    assert to_np(do(name, like=backend)).shape == ()


MUTATION_CASES = {
    "random.permutation": lambda x: do("random.permutation", x),
    "random.choice": lambda x: do("random.choice", x, size=(3,)),
}


@pytest.mark.parametrize("name", list(MUTATION_CASES))
def test_inputs_not_mutated(name, backend):
    """Draws that take an array (a pool to permute or choose from) leave it alone."""
    x = to_backend(POOL, backend)
    MUTATION_CASES[name](x)
    np.testing.assert_array_equal(to_np(x), POOL)
