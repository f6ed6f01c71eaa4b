"""Composed functions (``dispatch/_compose.py``): a callable whose signature cannot be
read is composed as it is; ``backend`` and ``namespace`` are filled in only when asked."""

from __future__ import annotations

import functools
import sys
import types

import numpy as np
import pytest
from conftest import restored_registry

import dispatch
from dispatch import _registry as reg
from dispatch import compose, do


@pytest.fixture
def forget():
    """Remove the composed names a test adds."""
    names: list[str] = []
    yield names
    with reg.lock:
        for name in names:
            reg.COMPOSED.pop(name, None)
        reg.clear_caches()


def test_a_callable_without_a_signature_is_composed_as_it_is(forget):
    """``max`` has no signature that ``inspect`` can read: it asks for nothing, and the
    composed name calls it with the call's own arguments."""
    forget.append("largest_probe")
    largest = compose(max, name="largest_probe")
    assert largest(3, 7) == 7
    assert do("largest_probe", 3, 7) == 7
    assert not hasattr(max, "_dispatch_wants")


def test_backend_and_namespace_are_filled_in_only_when_asked(forget):
    forget.extend(["asks_backend_probe", "asks_both_probe", "asks_nothing_probe"])

    @compose(name="asks_backend_probe")
    def asks_backend(x, backend=None):
        return backend

    @compose(name="asks_both_probe")
    def asks_both(x, backend=None, namespace=None):
        return backend, namespace.sum(x)

    @compose(name="asks_nothing_probe")
    def asks_nothing(x, **kwargs):
        return kwargs

    x = np.arange(3.0)
    assert asks_backend(x) == "numpy"
    assert asks_both(x) == ("numpy", 3.0)
    assert asks_nothing(x) == {}
    torch = pytest.importorskip("torch")
    t = torch.arange(3.0)
    assert asks_backend(t) == "torch"
    backend, total = asks_both(t)
    assert backend == "torch"
    assert float(total) == 3.0


def test_a_nameless_callable_needs_a_name():
    """``compose`` takes the ``do`` name from ``fn.__name__``; a callable without one
    (a partial, an instance) is refused with the fix, not an AttributeError."""
    nameless = functools.partial(lambda x, k: x * k, k=2)
    with pytest.raises(ValueError, match=r"compose\(\.\.\., name=''\).*not a valid function name"):
        compose(nameless)
    with restored_registry():  # the walks over every composed name must not meet this one
        named = compose(nameless, name="double_probe")
        assert named.name == "double_probe"
        np.testing.assert_array_equal(named(np.arange(3)), [0, 2, 4])


def test_a_composed_fallback_wins_over_an_untabled_librarys_function_unless_marked(monkeypatch):
    """A library known only by the module rule takes the composed fallback of a name
    even where its module has a function of that name (the fallback is numpy's
    semantics); autoray's helpers, marked ``library_first``, take the library's own."""
    mod = types.ModuleType("firstlib_fake")

    def relu(x):
        return "the library's relu"

    def to_backend_dtype(name, like=None):
        return "the library's dtype"

    relu.__module__ = to_backend_dtype.__module__ = "firstlib_fake"
    mod.relu, mod.to_backend_dtype = relu, to_backend_dtype
    monkeypatch.setitem(sys.modules, "firstlib_fake", mod)
    with restored_registry():
        assert dispatch.get_lib_fn("firstlib_fake", "relu") is reg.composed()["relu"]
        assert dispatch.get_lib_fn("firstlib_fake", "to_backend_dtype") is to_backend_dtype


def test_the_composed_decorator_registers_marks_and_returns_the_function(forget, monkeypatch):
    """``composed`` (the decorator of ``translations/_composed``) run at test time: it
    registers the very function, marks what the resolution fills in, and marks
    ``library_first`` only when asked; an untabled library's own function of the
    name then wins only over a marked fallback."""
    from dispatch._compose import composed

    def plain(x):
        return "plain fallback"

    def needs(x, *, backend, namespace=None):
        return ("needs fallback", backend)

    def first(x):
        return "first fallback"

    forget.extend(["plain_probe_c", "needs_probe_c", "first_probe_c"])
    assert composed("plain_probe_c")(plain) is plain
    assert composed("needs_probe_c")(needs) is needs
    assert composed("first_probe_c", library_first=True)(first) is first
    table = reg.composed()
    assert table["plain_probe_c"] is plain
    assert table["needs_probe_c"] is needs
    assert table["first_probe_c"] is first
    assert not hasattr(plain, "_dispatch_wants")
    assert needs._dispatch_wants == frozenset({"backend", "namespace"})
    assert not hasattr(plain, "_dispatch_library_first")
    assert first._dispatch_library_first is True

    mod = types.ModuleType("firstlib_probe_c")
    for fname in ("plain_probe_c", "first_probe_c"):
        own = (lambda n: lambda x: f"the library's {n}")(fname)
        own.__module__ = "firstlib_probe_c"
        setattr(mod, fname, own)
    monkeypatch.setitem(sys.modules, "firstlib_probe_c", mod)
    with restored_registry():
        assert do("plain_probe_c", 1, like="firstlib_probe_c") == "plain fallback"
        assert do("first_probe_c", 1, like="firstlib_probe_c") == "the library's first_probe_c"
        assert do("needs_probe_c", np.ones(2)) == ("needs fallback", "numpy")
