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
    assert reg.cached_call("sum", np.ndarray, "axis", int, kwargs=True) is not None
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
    reg.clear_caches()  # counts entries: whatever earlier tests cached is not this test's
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


# ---------------------------------------------------------------- calling conventions

_RNG = np.random.default_rng(0)
_M = _RNG.normal(size=(2, 3))
# name -> (positional arguments, how many stay positional in the keyword form, the
# keyword names of the others): the same call written both ways
CONVENTIONS = {
    "where": ((np.array([True, False, True]), np.arange(3.0), -np.arange(3.0)), 2, ("y",)),
    "clip": ((np.arange(5.0), 1.0, 3.0), 1, ("a_min", "a_max")),
    "take_along_axis": ((_M, np.array([[2, 0, 1], [1, 1, 0]]), 1), 2, ("axis",)),
    "tensordot": ((_M, _M.T.copy(), 1), 2, ("axes",)),
    "isclose": (
        (np.array([1.0, 2.0, 3.0]), np.array([1.05, 2.5, 3.0]), 0.0, 0.1),
        2,
        ("rtol", "atol"),
    ),
    "searchsorted": ((np.array([1.0, 2.0, 2.0, 3.0]), np.array([2.0, 0.5]), "right"), 2, ("side",)),
}


def _outcome(name: str, backend: str, keyword: bool, mixed: bool = False) -> tuple:
    """``("ok", numpy value)`` or ``("error", exception type)`` of one form of the call.

    ``mixed``: only the first argument is the backend's, the other arrays are numpy
    constants (the cached callable then converts them: a different entry).
    """
    from conftest import to_backend, to_np

    args, k, names = CONVENTIONS[name]
    args = [to_backend(a, backend) if i == 0 or not mixed else a for i, a in enumerate(args)]
    kwargs = dict(zip(names, args[k:], strict=True)) if keyword else {}
    pos = args[:k] if keyword else args
    try:
        return ("ok", to_np(do(name, *pos, **kwargs)))
    except Exception as err:  # the outcome compared is the error's type
        return ("error", type(err))


def _same(a: tuple, b: tuple) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "error":
        return a[1] is b[1]
    return a[1].shape == b[1].shape and np.allclose(a[1], b[1])


@pytest.mark.parametrize("mixed", [False, True], ids=["pure", "mixed"])
@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_positional_and_keyword_calls_have_their_own_cache_entries(name, backend, mixed):
    """Both calling conventions, in both orders, on a warm cache: the result of each
    form is the one it has on a cold cache, and numpy's where numpy accepts it."""
    from conftest import known_gap

    cold = {}
    for keyword in (False, True):
        reg.clear_caches()
        cold[keyword] = _outcome(name, backend, keyword, mixed)
    if known_gap(backend, name) is None:
        assert cold[False][0] == "ok", (backend, name, cold[False])
    for first in (False, True):
        reg.clear_caches()
        for keyword in (first, not first, first, not first):  # each form cold, then warm
            got = _outcome(name, backend, keyword, mixed)
            assert _same(got, cold[keyword]), (backend, name, keyword, got, cold[keyword])
    ref_pos, ref_kw = _outcome(name, "numpy", False), _outcome(name, "numpy", True)
    assert ref_pos[0] == "ok"
    if cold[False][0] == "ok":
        assert _same(cold[False], ref_pos)
    if ref_kw[0] == "ok":  # numpy takes the keyword form: so must every backend
        assert _same(cold[True], ref_kw), (backend, name, cold[True])
        assert _same(ref_kw, ref_pos)


def test_three_positional_and_two_positional_one_keyword_keys_differ():
    c, t, n = np.array([True, False]), np.ones(2), np.zeros(2)
    reg.clear_caches()
    do("where", c, t, n)
    with pytest.raises(TypeError, match="positional"):  # numpy's where is positional-only
        do("where", c, t, y=n)
    assert ("where", np.ndarray, np.ndarray, np.ndarray) in reg.CALLS
    assert ("where", np.ndarray, np.ndarray, "y", np.ndarray) in reg.CALLS
    np.testing.assert_array_equal(do("where", c, t, n), [1.0, 0.0])


@pytest.mark.parametrize("warm", [False, True])
def test_numpy_keyword_names_on_dask_clip(warm):
    """dask's own ``clip`` takes ``min``/``max`` only: numpy's names work, cold or warm."""
    if not _usable("dask"):
        pytest.skip("dask is not installed")
    import dask.array as da

    x = da.from_array(np.arange(5.0), chunks=2)
    if not warm:
        reg.clear_caches()
    for _ in range(2):
        np.testing.assert_array_equal(
            do("clip", x, a_min=1.0, a_max=3.0).compute(), np.clip(np.arange(5.0), 1.0, 3.0)
        )
        np.testing.assert_array_equal(
            do("clip", x, min=1.0, max=3.0).compute(), np.clip(np.arange(5.0), 1.0, 3.0)
        )


def test_a_new_composed_name_keeps_the_caches_a_resolved_one_clears_them():
    """Registering a fallback for a name nothing resolved leaves every cache as it is
    (no entry can depend on it; a table module that a traced miss imports registers
    such names); one for a name already resolved empties them, so that the next call
    uses the new function."""
    x = np.arange(3.0)
    do("sum", x)
    do("sum", x)
    assert reg.cached_call("sum", np.ndarray) is not None
    name = "test_cache_fresh_composed_name"
    gen = reg.generation
    try:
        reg.register_composed(name, lambda a: do("sum", a) + 1.0)
        assert reg.cached_call("sum", np.ndarray) is not None  # kept
        assert reg.generation == gen + 1  # a miss under way stores nothing
        assert do(name, x) == 4.0
        assert do(name, x) == 4.0
        reg.register_composed(name, lambda a: do("sum", a) + 2.0)  # now resolved: cleared
        assert reg.cached_call("sum", np.ndarray) is None
        assert do(name, x) == 5.0
    finally:
        reg.COMPOSED.pop(name, None)
        reg.clear_caches()


# ---------------------------------------------------------------- sequence calls


def _closure(fn, name):
    """The value of the variable ``name`` that the function ``fn`` closes over."""
    return fn.__closure__[fn.__code__.co_freevars.index(name)].cell_contents


def _lone_dispatcher(name):
    """The per-call dispatcher cached for ``do(name, seq)``, the sequence alone."""
    dispatcher = reg.cached_call(name, list)
    assert dispatcher is not None, "the lone sequence call was not cached"
    return dispatcher


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("name", ["stack", "concatenate", "vstack"])
def test_lone_sequence_of_two_is_memoized_by_its_element_types(name, backend):
    """A performance memo, checked by inspection: a lone two-element sequence call
    (``do("stack", [a, b])``) finds its callable in nested dicts by the two element
    types, without building a key (``pairs`` in the closure of
    ``_lone_sequence_entry``'s dispatcher). After a call, that memo holds the
    callable the cache holds, under the first element's type, then the second's; a
    pair of other types adds its own entry."""
    a = X if backend == "numpy" else pytest.importorskip("torch").arange(4.0)
    for _ in range(2):
        do(name, [a, a])
        do(name, [X, a])
    by_elements = _lone_dispatcher(name)
    pairs = _closure(by_elements, "pairs")
    t = type(a)
    assert set(pairs) == {t, np.ndarray}
    assert pairs[t] == {t: reg.CALLS[by_elements, t, t]}
    assert pairs[np.ndarray][t] is reg.CALLS[by_elements, np.ndarray, t]
    # the memo serves the next calls: the same result as the first
    np.testing.assert_array_equal(np.asarray(do(name, [X, X])), getattr(np, name)([X, X]))


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("name", ["stack", "concatenate", "vstack", "column_stack"])
def test_lone_sequence_needing_no_conversion_caches_the_implementation_itself(name, n):
    """``do(name, seq)`` whose arrays are all of the deciding library caches the
    library's function itself, with no wrapper to pay per call: a lone call has no
    parameter beside the sequence, so there is no numpy array in an axis or a shape
    to turn into a Python value (with a parameter beside the sequence, a numpy array
    given there still becomes one)."""
    for _ in range(2):
        do(name, [X] * n)
    by_elements = _lone_dispatcher(name)
    key = (by_elements, *[np.ndarray] * n) if n <= 3 else (by_elements, frozenset({np.ndarray}))
    assert reg.CALLS[key] is resolve("numpy", name)
    if name in ("stack", "concatenate"):
        for _ in range(2):
            out = do(name, [X] * n, axis=np.array(0))
        np.testing.assert_array_equal(out, getattr(np, name)([X] * n, axis=0))


def test_lone_sequence_of_another_library_caches_its_implementation_itself():
    torch = pytest.importorskip("torch")
    t = torch.arange(4.0)
    for _ in range(2):
        do("stack", [t, t])
        do("stack", [t, t, t])
    by_elements = _lone_dispatcher("stack")
    impl = resolve("torch", "stack")
    assert reg.CALLS[by_elements, torch.Tensor, torch.Tensor] is impl
    assert reg.CALLS[by_elements, torch.Tensor, torch.Tensor, torch.Tensor] is impl


# ---------------------------------------------------------------- like=


@pytest.mark.parametrize("name", ["ones", "zeros", "eye", "arange"])
def test_like_builtins_shares_numpys_cache_entry(name):
    """``like='builtins'`` (autoray's backend of Python values) is numpy for a name
    with no function registered for Python values: the alias is applied before the
    key is built, so the call is cached once, under numpy, whichever spelling came
    first."""
    from dispatch._do import _LIKE

    reg.clear_caches()
    for like in ("builtins", "numpy", "builtins"):
        out = do(name, 3, like=like)
        np.testing.assert_array_equal(out, getattr(np, name)(3))
    keys = [k for k in reg.CALLS if k[:2] == (_LIKE, name)]
    assert keys == [(_LIKE, name, "numpy")]
