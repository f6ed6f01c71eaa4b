"""The miss path as a tracing compiler sees it (``dispatch/_trace.py``), without a compiler.

A tracer (torch.compile's dynamo) calls the functions marked
``_dynamo_marked_constant`` itself, from its own code, and keeps their results as
constants; here the test module plays the tracer, since it is outside dispatch.
The compilers themselves are exercised in ``tests/functions/test_compilers.py``.
"""

from __future__ import annotations

import inspect
import threading

import numpy as np
import pytest

import dispatch
from dispatch import _do, _infer, _trace, do
from dispatch import _registry as reg


class Sub(np.ndarray):
    """A type no cache has seen yet."""


def _marked(run):
    """The function a tracer calls for an ``outside_traces`` miss ``run``."""
    parked = inspect.getclosurevars(run).nonlocals["parked"]
    assert parked._dynamo_marked_constant is True
    return parked


@pytest.fixture(autouse=True)
def _fresh_caches():
    dispatch.clear_caches()
    yield
    dispatch.clear_caches()


def test_plain_python_parks_nothing():
    x = np.arange(6.0)
    assert do("sum", x) == 15.0
    assert reg.cached_call("sum", np.ndarray) is not None
    assert vars(_trace.PARKED) == {}
    assert not _trace.tracing()


def test_a_tracer_gets_a_name_and_the_caches_stay_empty():
    parked = _marked(_do._miss)
    name = parked("sum", (np.ndarray,), False)
    assert isinstance(name, str)
    assert name
    fn = getattr(_trace.PARKED, name)
    assert fn(np.arange(4.0)) == 6.0
    # nothing stored: the tracer's guard "no entry for these types" still holds
    assert reg.cached_call("sum", np.ndarray) is None
    assert ("numpy", "sum") not in reg.RESOLVED
    assert parked("sum", (np.ndarray,), False) != ""  # and a second trace misses again
    assert not _trace.tracing()
    # plain Python fills the caches as usual afterwards
    assert do("sum", np.arange(4.0)) == 6.0
    assert reg.cached_call("sum", np.ndarray) is not None


def test_clear_caches_drops_parked_values():
    name = _marked(_do._miss)("prod", (np.ndarray,), False)
    assert hasattr(_trace.PARKED, name)
    dispatch.clear_caches()
    assert vars(_trace.PARKED) == {}
    # a traced caller that reads a name cleared meanwhile builds the value itself
    assert _do._miss("prod", (np.ndarray,), False)(np.arange(1.0, 4.0)) == 6.0


def test_marked_constant_caches_nothing_for_a_tracer():
    assert _infer._backend_of_type_miss(Sub) == "numpy"  # called from outside dispatch
    assert Sub not in reg.TYPE_BACKEND
    assert dispatch.infer_backend(np.zeros(2).view(Sub)) == "numpy"  # plain Python
    assert reg.TYPE_BACKEND[Sub] == "numpy"


def test_errors_of_a_traced_miss_are_dispatch_errors():
    parked = _marked(_do._miss)
    with pytest.raises(dispatch.UnknownFunctionError, match="no_such_function"):
        parked("no_such_function", (np.ndarray,), False)
    assert not _trace.tracing()


def test_tracing_is_per_thread():
    seen = []
    entered = threading.Event()
    release = threading.Event()

    def build(x):
        entered.set()
        release.wait(10)
        return lambda: x

    run = _trace.outside_traces(build)
    t = threading.Thread(target=lambda: seen.append(_marked(run)(1)))
    t.start()
    entered.wait(10)
    assert not _trace.tracing()  # the other thread traces, not this one
    x = np.arange(3.0)
    assert do("sum", x) == 3.0
    assert reg.cached_call("sum", np.ndarray) is not None
    release.set()
    t.join(10)
    assert getattr(_trace.PARKED, seen[0])() == 1


def test_context_blocks_are_counted():
    base = _infer.CONTEXTS[0]  # thread-level set_backend calls count for good
    with dispatch.precision(32):
        assert _infer.CONTEXTS[0] == base + 1
        with dispatch.backend_like("numpy"):
            assert _infer.CONTEXTS[0] == base + 2
            assert do("zeros", 2).dtype == np.float32
    assert _infer.CONTEXTS[0] == base
    assert do("zeros", 2).dtype == np.float64
    with pytest.raises(ValueError, match="precision"), dispatch.precision(12):
        pass
    assert _infer.CONTEXTS[0] == base
