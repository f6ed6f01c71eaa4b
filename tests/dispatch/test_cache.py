"""The resolution cache: one entry per name and argument types.

The cache is ``dispatch._registry``'s ``CALLS`` family (nested per-type dicts for
keyword-free calls of one or two arguments, a flat dict keyed ``(name, *types)``
otherwise); ``cached_call`` reads it without resolving anything.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import _usable

from dispatch import _registry as reg
from dispatch import do, get_lib_fn
from dispatch._resolve import resolve

X = np.arange(4.0)


def test_second_call_is_a_cache_hit():
    do("sum", X)
    do("sum", X)
    fn = reg.cached_call("sum", np.ndarray)
    assert fn is not None
    do("sum", X)
    assert reg.cached_call("sum", np.ndarray) is fn  # the same callable, not resolved again


def test_key_includes_all_argument_types():
    for _ in range(2):
        do("add", X, 1.0)
        do("sum", X, axis=0)
        do("clip", X, 0.0, 1.0)
    assert reg.cached_call("add", np.ndarray, float) is not None
    assert reg.cached_call("add", np.ndarray, int) is None
    assert reg.cached_call("sum", np.ndarray, int, kwargs=True) is not None
    assert reg.cached_call("clip", np.ndarray, float, float) is not None
    assert ("clip", np.ndarray, float, float) in reg.CALLS


def test_pure_numpy_call_caches_the_native_function():
    do("add", X, X)
    do("add", X, X)
    assert reg.cached_call("add", np.ndarray, np.ndarray) is np.add


def test_clear_caches_empties_every_cache():
    do("sum", X)
    do("sum", X)
    reg.clear_caches()
    assert not reg.CALLS
    assert not reg.CALLS1
    assert not reg.CALLS2
    assert not reg.RESOLVED
    assert reg.cached_call("sum", np.ndarray) is None
    assert do("sum", X) == 6.0


@pytest.fixture
def torch():
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    return torch


def test_mixed_call_caches_a_converting_callable(torch):
    t = torch.arange(4.0, dtype=torch.float64)
    for _ in range(2):
        out = do("add", X, t)
        do("add", t, t)
    assert isinstance(out, torch.Tensor)
    mixed = reg.cached_call("add", np.ndarray, torch.Tensor)
    pure = reg.cached_call("add", torch.Tensor, torch.Tensor)
    impl = resolve("torch", "add")
    # the pure call is the resolved implementation itself: no converting layer
    assert pure is impl
    assert mixed is not None
    assert mixed is not impl
    assert getattr(mixed, "__wrapped__", None) is impl
    assert get_lib_fn("torch", "add") is impl


def test_mixed_call_does_not_change_pure_entries(torch):
    t = torch.ones(3, dtype=torch.float64)
    do("multiply", t, t)
    do("multiply", t, t)
    pure = reg.cached_call("multiply", torch.Tensor, torch.Tensor)
    assert pure is not None
    do("multiply", np.ones(3), t)
    do("multiply", np.ones(3), t)
    assert reg.cached_call("multiply", torch.Tensor, torch.Tensor) is pure


def test_sequence_calls_cached_per_element_types(torch):
    t = torch.ones(2, dtype=torch.float64)
    for _ in range(2):
        a = do("stack", [np.ones(2), t])
        b = do("stack", [t, t])
        c = do("stack", [np.ones(2), np.ones(2)])
    assert isinstance(a, torch.Tensor)
    assert isinstance(b, torch.Tensor)
    assert isinstance(c, np.ndarray)
    assert reg.cached_call("stack", list) is not None
    n = len(reg.CALLS)
    for _ in range(3):
        do("stack", [np.ones(2), t])
        do("stack", [t, t])
    assert len(reg.CALLS) == n  # repeated calls add no entries


def test_cache_stays_bounded_for_long_sequences():
    for k in range(2, 40):
        do("stack", [X] * k)
    assert len(reg.CALLS) < 10


@pytest.mark.overhead
def test_pure_call_not_slowed_by_mixed_entries(torch):
    """Timing, loose: a pure torch call after mixed calls costs what it cost before."""
    import timeit

    t = torch.ones(3)
    do("add", t, t)
    do("add", t, t)
    before = min(timeit.repeat(lambda: do("add", t, t), number=2000, repeat=5))
    for _ in range(2):
        do("add", np.ones(3, dtype="float32"), t)
    after = min(timeit.repeat(lambda: do("add", t, t), number=2000, repeat=5))
    assert after < before * 1.5 + 1e-3
