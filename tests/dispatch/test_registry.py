"""Registration: immediate effect, cache invalidation, wrap, new backends, compose,
thread safety."""

from __future__ import annotations

import sys
import threading
import types

import numpy as np
import pytest
from conftest import _usable, to_backend, to_np

import dispatch
from dispatch import _registry as reg
from dispatch import (
    compose,
    do,
    get_lib_fn,
    infer_backend,
    register_backend,
    register_function,
    unregister_function,
)

X = np.arange(4.0)


@pytest.fixture
def cleanup():
    """Unregister whatever a test registered, and restore the type registry."""
    registered: list[tuple[str, str]] = []
    user_types = dict(reg.USER_TYPES)
    user_backends = dict(reg.USER_BACKENDS)
    composed = dict(reg.composed())  # load the shipped fallbacks before the snapshot
    yield registered
    for backend, name in registered:
        unregister_function(backend, name)
    with reg.lock:
        reg.USER_TYPES.clear()
        reg.USER_TYPES.update(user_types)
        reg.USER_BACKENDS.clear()
        reg.USER_BACKENDS.update(user_backends)
        reg.COMPOSED.clear()
        reg.COMPOSED.update(composed)
        reg.clear_caches()


def test_register_function_takes_effect_at_once(cleanup):
    cleanup.append(("numpy", "sum"))
    assert do("sum", X) == 6.0
    assert do("sum", X) == 6.0  # resolved and cached (the first call may load tables)
    assert reg.cached_call("sum", np.ndarray) is not None
    register_function("numpy", "sum", lambda x, **kw: "overridden")
    assert reg.cached_call("sum", np.ndarray) is None  # the cache was invalidated
    assert do("sum", X) == "overridden"
    assert get_lib_fn("numpy", "sum")(X) == "overridden"
    unregister_function("numpy", "sum")
    cleanup.clear()
    assert do("sum", X) == 6.0


def test_register_new_name(cleanup):
    cleanup.append(("numpy", "double_it"))
    with pytest.raises(dispatch.UnknownFunctionError):
        do("double_it", X)
    register_function("numpy", "double_it", lambda x: 2 * x)
    np.testing.assert_array_equal(do("double_it", X), 2 * X)
    assert dispatch.supports("double_it", "numpy") == "registered"


def test_register_as_decorator(cleanup):
    cleanup.append(("numpy", "triple_it"))

    @register_function("numpy", "triple_it")
    def triple(x):
        return 3 * x

    np.testing.assert_array_equal(do("triple_it", X), 3 * X)


def test_unregister(cleanup):
    register_function("numpy", "temp_fn", lambda x: x)
    do("temp_fn", X)
    unregister_function("numpy", "temp_fn")
    with pytest.raises(dispatch.UnknownFunctionError):
        do("temp_fn", X)
    unregister_function("numpy", "temp_fn")  # unregistering twice is harmless


def test_register_overrides_the_table(cleanup):
    cleanup.append(("numpy", "random.seed"))
    calls = []
    register_function("numpy", "random.seed", lambda seed=None: calls.append(seed))
    do("random.seed", 3, like="numpy")
    assert calls == [3]


def test_register_wrap(cleanup):
    cleanup.append(("numpy", "sum"))
    seen = []

    def wrapper(fn):
        def wrapped(x, *args, **kwargs):
            seen.append(x.shape)
            return fn(x, *args, **kwargs) + 100

        return wrapped

    register_function("numpy", "sum", wrapper, wrap=True)
    assert do("sum", X) == 106.0
    assert do("sum", np.ones((2, 2)), axis=0).tolist() == [102.0, 102.0]
    assert seen == [(4,), (2, 2)]


def test_register_rejects_non_callable():
    with pytest.raises(TypeError):
        register_function("numpy", "bad", 3)


def test_register_function_for_a_library(cleanup):
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    cleanup.append(("torch", "my_norm"))
    register_function("torch", "my_norm", lambda x: torch.sqrt((x * x).sum()))
    t = torch.tensor([3.0, 4.0])
    assert float(do("my_norm", t)) == 5.0
    with pytest.raises(dispatch.UnknownFunctionError):
        do("my_norm", np.array([3.0, 4.0]))  # registered for torch only


# ---------------------------------------------------------------- new backends

_MYLIB_SOURCE = '''
class Box:
    """A toy array type: a list of floats with a shape."""
    def __init__(self, data):
        self.data = [float(v) for v in data]
        self.shape = (len(self.data),)
        self.dtype = "float64"

import builtins

def sum(x):
    return builtins.sum(x.data)

def add(x, y):
    if not isinstance(y, Box):
        y = Box(y.tolist() if hasattr(y, "tolist") else y)
    return Box([a + b for a, b in zip(x.data, y.data)])

def asarray(x):
    return x if isinstance(x, Box) else Box(list(x))

def from_numpy(x):
    return Box(x.tolist())

def _hidden(x):
    return "private"
'''


@pytest.fixture
def mylib(cleanup):
    """A fake library module ``mylib_fake`` with a ``Box`` array type."""
    mod = types.ModuleType("mylib_fake")
    exec(_MYLIB_SOURCE, mod.__dict__)
    sys.modules["mylib_fake"] = mod
    yield mod
    del sys.modules["mylib_fake"]


def test_register_backend_new_type_and_module(mylib):
    register_backend(mylib.Box, "mylib", module="mylib_fake")
    box = mylib.Box([1, 2, 3])
    assert infer_backend(box) == "mylib"
    assert do("sum", box) == 6.0
    out = do("add", box, box)
    assert isinstance(out, mylib.Box)
    assert out.data == [2.0, 4.0, 6.0]
    assert dispatch.is_array(box)
    assert dispatch.shape(box) == (3,)  # composed helpers work on new types
    with pytest.raises(dispatch.UnknownFunctionError):
        do("_hidden", box)
    with pytest.raises(dispatch.UnknownFunctionError):
        do("prod", box)


def test_register_backend_numpy_is_constant(mylib):
    register_backend(mylib.Box, "mylib", module="mylib_fake", convert_constants=True)
    box = mylib.Box([1, 2])
    out = do("add", box, np.array([10.0, 20.0]))
    assert isinstance(out, mylib.Box)
    assert out.data == [11.0, 22.0]
    out = do("add", np.array([10.0, 20.0]), box)  # numpy first: mylib still decides
    assert isinstance(out, mylib.Box)


def test_register_backend_by_module_prefix(mylib):
    register_backend("mylib_fake", "mylib", module="mylib_fake")
    assert infer_backend(mylib.Box([1])) == "mylib"


def test_register_backend_subclass_onto_existing():
    class Marked(np.ndarray):
        pass

    try:
        register_backend(Marked, "numpy")
        assert infer_backend(np.zeros(2).view(Marked)) == "numpy"
        assert do("sum", np.ones(3).view(Marked)) == 3.0
    finally:
        with reg.lock:
            reg.USER_TYPES.pop(Marked, None)
            reg.clear_caches()


def test_register_backend_rejects_bad_input():
    with pytest.raises(TypeError):
        register_backend(3, "x")


def test_registered_backend_usable_with_like(mylib):
    register_backend(mylib.Box, "mylib", module="mylib_fake")
    out = do("asarray", [1.0, 2.0], like="mylib")
    assert isinstance(out, mylib.Box)


# ---------------------------------------------------------------- compose


def test_compose_generic_and_override(cleanup):
    @compose
    def softsign_probe(x):
        return x / (1 + do("abs", x))

    cleanup.append(("numpy", "softsign_probe"))
    x = np.array([-1.0, 3.0])
    np.testing.assert_allclose(softsign_probe(x), [-0.5, 0.75])
    np.testing.assert_allclose(do("softsign_probe", x), [-0.5, 0.75])
    softsign_probe.register("numpy", lambda x: "numpy override")
    assert softsign_probe(x) == "numpy override"
    assert do("softsign_probe", x) == "numpy override"


def test_compose_runs_on_every_backend(backend, cleanup):
    @compose(name="cube_probe")
    def cube(x):
        return do("multiply", do("multiply", x, x), x)

    cleanup.append(("numpy", "cube_probe"))
    t = to_backend(X, backend)
    out = cube(t)
    assert infer_backend(out) == backend
    np.testing.assert_allclose(to_np(out), X**3)
    assert dispatch.supports("cube_probe", backend) == "composed"


def test_compose_override_only_on_one_backend(cleanup):
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    @compose
    def twice_probe(x):
        return do("add", x, x)

    twice_probe.register("torch", lambda x: "torch override")
    cleanup.append(("torch", "twice_probe"))
    assert twice_probe(torch.ones(2)) == "torch override"
    np.testing.assert_array_equal(twice_probe(np.ones(2)), [2.0, 2.0])


# ---------------------------------------------------------------- thread safety


def test_threads_calling_do_while_registering(cleanup):
    """8 threads call ``do`` in a loop while another registers and unregisters."""
    cleanup.append(("numpy", "flip_probe"))
    cleanup.append(("numpy", "stable_probe"))
    register_function("numpy", "stable_probe", lambda x: x + 1)
    a = np.arange(5.0)
    b = np.ones(5)
    errors: list[BaseException] = []
    wrong: list[str] = []
    stop = threading.Event()

    def worker():
        try:
            while not stop.is_set():
                if do("sum", a) != 10.0:
                    wrong.append("sum")
                if not np.array_equal(do("add", a, b), a + 1):
                    wrong.append("add")
                if not np.array_equal(do("stack", [a, b]), np.stack([a, b])):
                    wrong.append("stack")
                if not np.array_equal(do("stable_probe", a), a + 1):
                    wrong.append("stable_probe")
                if do("zeros", (2,), like="numpy").shape != (2,):
                    wrong.append("zeros")
        except BaseException as err:
            errors.append(err)

    def registrar():
        try:
            for i in range(300):
                register_function("numpy", "flip_probe", lambda x, i=i: i)
                register_function("numpy", "stable_probe", lambda x: x + 1)
                unregister_function("numpy", "flip_probe")
                reg.clear_caches()
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    r = threading.Thread(target=registrar)
    r.start()
    r.join(60)
    stop.set()
    for t in threads:
        t.join(60)
    assert not errors, errors[:3]
    assert not wrong, wrong[:10]
    # no stale cache entry survives the last registration
    register_function("numpy", "flip_probe", lambda x: "final")
    assert do("flip_probe", a) == "final"


def test_registration_visible_across_threads(cleanup):
    cleanup.append(("numpy", "seen_probe"))
    register_function("numpy", "seen_probe", lambda x: "v1")
    assert do("seen_probe", X) == "v1"
    results = []
    t = threading.Thread(target=lambda: results.append(do("seen_probe", X)))
    register_function("numpy", "seen_probe", lambda x: "v2")
    t.start()
    t.join(10)
    assert results == ["v2"]
