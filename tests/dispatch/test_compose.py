"""Composed functions (``dispatch/_compose.py``): a callable whose signature cannot be
read is composed as it is; ``backend`` and ``namespace`` are filled in only when asked."""

from __future__ import annotations

import functools

import numpy as np
import pytest

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
    named = compose(nameless, name="double_probe")
    assert named.name == "double_probe"
    np.testing.assert_array_equal(named(np.arange(3)), [0, 2, 4])
