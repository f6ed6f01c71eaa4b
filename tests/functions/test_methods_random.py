"""Random methods of the backend method list on every backend: seed,
random_uniform, random_normal, random_permutations, random_subsets
(reproducible under a seed, right shapes, dtypes and ranges)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_np

from dispatch import do, infer_backend, precision


def bound(name, *args, backend, **kwargs):
    # a name the table lacks raises UnknownFunctionError: a failure, never a skip
    return do(name, *args, like=backend, **kwargs)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("random_uniform", ((3, 4), -1.0, 2.0, "float64")),
        ("random_normal", ((5,), "float32")),
        ("random_permutations", (3, 6)),
        ("random_subsets", (10, 3, 4, False)),
    ],
)
def test_seed_reproduces(backend, name, args):
    bound("seed", 7, backend=backend)
    a = to_np(bound(name, *args, backend=backend))
    b = to_np(bound(name, *args, backend=backend))
    bound("seed", 7, backend=backend)
    c = to_np(bound(name, *args, backend=backend))
    np.testing.assert_array_equal(a, c)
    assert not np.array_equal(a, b) or a.size <= 1


@pytest.mark.parametrize(
    ("low", "high", "dtype"),
    [(-1.0, 2.0, "float64"), (0.0, 1.0, "float32"), (-3, 5, "int64"), (0, 2, "int32"),
     (0, 1 + 1j, "complex64"), (0, 2, "bool")],
)
def test_random_uniform(backend, low, high, dtype):
    out = bound("random_uniform", (40, 5), low, high, dtype, backend=backend)
    assert infer_backend(out) == backend
    v = to_np(out)
    assert v.shape == (40, 5)
    assert v.dtype == np.dtype(dtype)
    if dtype == "bool":
        assert v.any()
        assert not v.all()
    elif dtype.startswith("complex"):
        assert (v.real >= 0).all()
        assert (v.real < 1).all()
        assert (v.imag >= 0).all()
        assert (v.imag < 1).all()
    else:
        assert (v >= low).all()
        assert (v < high).all()
        assert len(np.unique(v)) > 1


def test_random_uniform_default_dtype_follows_precision(backend):
    assert to_np(bound("random_uniform", (2,), backend=backend)).dtype.kind == "f"
    with precision(64):
        assert to_np(bound("random_uniform", (2,), backend=backend)).dtype == np.float64
        assert to_np(bound("random_normal", (2,), backend=backend)).dtype == np.float64
    with precision(32):
        assert to_np(bound("random_normal", 3, backend=backend)).dtype == np.float32


def test_random_normal_moments(backend):
    bound("seed", 0, backend=backend)
    v = to_np(bound("random_normal", (4000,), "float64", backend=backend))
    assert abs(v.mean()) < 0.1
    assert abs(v.std() - 1) < 0.1
    c = to_np(bound("random_normal", (4000,), "complex128", backend=backend))
    assert c.dtype == np.complex128
    assert abs(np.mean(np.abs(c) ** 2) - 1) < 0.1


@pytest.mark.parametrize(("count", "n"), [(4, 7), (1, 1), (0, 3)])
def test_random_permutations(backend, count, n):
    p = to_np(bound("random_permutations", count, n, backend=backend))
    assert p.shape == (count, n)
    assert p.dtype.kind == "i"
    for row in p:
        np.testing.assert_array_equal(np.sort(row), np.arange(n))


@pytest.mark.parametrize("duplicates", [False, True])
def test_random_subsets(backend, duplicates):
    s = to_np(bound("random_subsets", 8, 5, 30, duplicates, backend=backend))
    assert s.shape == (30, 5)
    assert s.dtype == np.int64
    assert (s >= 0).all()
    assert (s < 8).all()
    if not duplicates:
        assert all(len(set(row)) == 5 for row in s)


@pytest.mark.parametrize("duplicates", [False, True])
def test_random_subsets_weighted(backend, duplicates):
    w = np.array([0.0, 1.0, 0.0, 5.0, 2.0])
    s = to_np(bound("random_subsets", 5, 2, 300, duplicates, w, backend=backend))
    assert s.shape == (300, 2)
    assert not np.isin(s, [0, 2]).any()  # zero weight: never drawn
    if not duplicates:
        assert all(len(set(row)) == 2 for row in s)
    counts = np.bincount(s.ravel(), minlength=5)
    assert counts[3] > counts[4] > 0
    assert counts[1] > 0


def test_random_subsets_rejects_too_large(backend):
    with pytest.raises(ValueError, match="distinct"):
        bound("random_subsets", 3, 4, 1, False, backend=backend)
