"""Registration: immediate effect, cache invalidation, wrap, new backends, compose,
thread safety."""

from __future__ import annotations

import contextlib
import re
import sys
import threading
import types
import warnings

import numpy as np
import pytest
from conftest import _usable, restored_registry, to_backend, to_np

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
from dispatch._errors import short

X = np.arange(4.0)


@pytest.fixture
def cleanup():
    """Unregister whatever a test registered, and restore the type registry."""
    registered: list[tuple[str, str]] = []
    with restored_registry():
        yield registered
        for backend, name in registered:
            unregister_function(backend, name)


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


def test_concurrent_wraps_all_apply(cleanup):
    """20 threads wrap one name at once: every wrap applies.

    Each wrapper takes a millisecond to build, which widens the window between
    reading the current implementation and storing the wrapped one: without the
    lock around both, every run lost wraps (30 runs of 30).
    """
    import time

    def add_one(fn):
        time.sleep(0.001)
        return lambda x: fn(x) + 1

    cleanup.append(("numpy", "wrap_probe"))
    for run in range(5):
        register_function("numpy", "wrap_probe", lambda x: 0)
        start = threading.Barrier(20)

        def wrap(start=start):
            start.wait()
            register_function("numpy", "wrap_probe", add_one, wrap=True)

        threads = [threading.Thread(target=wrap) for _ in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert do("wrap_probe", X) == 20, f"run {run}: wraps were lost"


# ---------------------------------------------------------------- implicit backends


def _module(name: str, **functions) -> types.ModuleType:
    mod = types.ModuleType(name)
    for fname, fn in functions.items():
        fn.__module__ = name
        setattr(mod, fname, fn)
    return mod


def _only_implicit_backend_warnings(caught: list, name: str) -> None:
    """Every warning recorded is the one for a backend name that is kept unknown."""
    for w in caught:
        assert w.category is UserWarning, w
        assert f"{name!r} is neither a known backend nor an installed module" in str(w.message)
        assert "The registration is kept for an implicit backend" in str(w.message)


@pytest.mark.parametrize("name", ["autograd_probe_lib", "autoray_probe.lazy", "mylib_probe"])
def test_any_module_name_is_a_backend_in_registrations(cleanup, name):
    """autoray's rule: a backend name that is neither shipped nor registered names
    a module; its module need not be installed to register on it."""
    assert reg.is_implicit(name)
    cleanup.append((name, "probe"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        register_function(name, "probe", lambda x: "registered")
    # a name close to a known backend ('autograd') is kept, with a warning saying so
    _only_implicit_backend_warnings(caught, name)
    assert name in reg.known_backends()
    assert get_lib_fn(name, "probe")(X) == "registered"
    assert dispatch.supports("probe", name) == "registered"
    assert reg.root_module(name) == name
    assert reg.priority(name) == 0
    assert reg.converts_constants(name) is False
    # the module is not installed: resolving anything else says so
    with pytest.raises(dispatch.BackendNotInstalledError, match=name.split(".")[0]):
        reg.table(name)
    with pytest.raises(dispatch.BackendNotInstalledError):
        get_lib_fn(name, "sum")
    # a backend that is not installed is never met, and breaks no listing
    cov = dispatch.coverage(["sum", "probe"])
    assert name not in cov["sum"]
    assert cov["sum"]["numpy"] == "native"
    assert dispatch.coverage(["sum"], [name]) == {"sum": {name: "missing"}}


def test_compose_register_on_a_module_name(cleanup):
    cleanup.append(("autograd_probe_lib", "softsign_probe"))

    @compose
    def softsign_probe(x):
        return x / (1 + do("abs", x))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        softsign_probe.register("autograd_probe_lib", lambda x: "override")
    _only_implicit_backend_warnings(caught, "autograd_probe_lib")
    assert get_lib_fn("autograd_probe_lib", "softsign_probe")(X) == "override"
    np.testing.assert_allclose(softsign_probe(X), X / (1 + X))


def test_installed_module_is_a_backend_of_its_attributes(cleanup, monkeypatch):
    """An implicit backend's functions are its module's attributes (imported when
    first resolved), with priority 0 and no conversion of constants."""
    name = "dispatch_probe_lib"
    monkeypatch.setitem(sys.modules, name, _module(name, double=lambda x: 2 * x))
    with reg.lock:
        reg._TABLES.pop(name, None)
    assert dispatch.get_lib_fn(name, "double")(3) == 6
    assert dispatch.supports("double", name) == "native"
    assert dispatch.supports("no_such_function", name) is None
    assert reg.table(name) is None
    assert reg.root_module(name) == name
    assert reg.priority(name) == 0
    assert reg.converts_constants(name) is False
    with pytest.raises(dispatch.UnknownFunctionError, match="triple"):
        dispatch.get_lib_fn(name, "triple")
    with reg.lock:
        reg._TABLES.pop(name, None)


@pytest.mark.parametrize(
    "call",
    [
        lambda: dispatch.supports("sum", "pytorch"),
        lambda: dispatch.set_backend("pytorch"),
        lambda: dispatch.get_namespace("pytorch"),
        lambda: dispatch.get_lib_fn("pytorch", "sum"),
        lambda: dispatch.convert(X, "pytorch"),
        lambda: reg.check_backend("like='pytorch'", "pytorch"),
        lambda: reg.table("pytorch"),
    ],
)
def test_misspelt_backend_without_a_module_is_unknown(call):
    """A name no module answers to is a typo: UnknownBackendError with suggestions."""
    assert reg.is_implicit("pytorch")
    with pytest.raises(dispatch.UnknownBackendError, match="Did you mean 'torch'"):
        call()
    assert dispatch.get_backend() == "numpy"


@pytest.mark.parametrize(
    "call",
    [
        lambda: dispatch.supports("sum", "nolib_probe.arrays"),
        lambda: dispatch.set_backend("nolib_probe.arrays"),
        lambda: dispatch.get_lib_fn("nolib_probe.arrays", "sum"),
        lambda: dispatch.convert(X, "nolib_probe.arrays"),
    ],
)
def test_dotted_backend_whose_package_is_missing_is_unknown(call):
    """``'nolib.arrays'``: the package itself is missing, so no module answers to the
    name (looking for it must not count as finding it)."""
    with pytest.raises(dispatch.UnknownBackendError) as info:
        call()
    assert re.search(
        r"\bunknown backend 'nolib_probe\.arrays'\..*\. No module of that name is "
        r"installed either\.$",
        str(info.value),
    ), str(info.value)
    assert dispatch.get_backend() == "numpy"


def test_implicit_backend_that_fails_to_import_names_its_package(cleanup, tmp_path, monkeypatch):
    """An installed module that cannot be imported (its own dependency is missing) is a
    library to install, named by its top-level package."""
    pkg = tmp_path / "brokenlib_probe"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "arrays.py").write_text("raise ImportError('needs libprobe 2')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for mod in ("brokenlib_probe", "brokenlib_probe.arrays"):
        monkeypatch.delitem(sys.modules, mod, raising=False)
    with pytest.raises(dispatch.BackendNotInstalledError) as info:
        dispatch.get_lib_fn("brokenlib_probe.arrays", "zeros")
    assert re.search(
        r"\bbackend 'brokenlib_probe\.arrays' is the module 'brokenlib_probe\.arrays', which "
        r"cannot be imported \(needs libprobe 2\); install the library that provides it "
        r"\(`pip install brokenlib_probe`, if that is its name on the package index\)\.$",
        str(info.value),
    ), str(info.value)


def test_an_import_error_without_a_module_name_says_the_library_is_unknown(cleanup):
    """A resolver that needs a missing piece but cannot name it (an ImportError with no
    ``name``): the error says the library is unknown rather than inventing one."""

    def resolver(name):
        raise ImportError("the compiled part is missing")

    register_backend("nopiece_probe", "nopiece_probe", resolver=resolver)
    with pytest.raises(dispatch.BackendNotInstalledError) as info:
        get_lib_fn("nopiece_probe", "sum")
    assert re.search(
        r"^do\('sum'\) on backend 'nopiece_probe' needs the library '\?', which is not "
        r"installed \(the compiled part is missing\); install it with `pip install \?`",
        str(info.value),
    ), str(info.value)


def test_composed_function_given_its_backend_keeps_its_name_and_doc(cleanup):
    """A composed function that asks for ``backend`` is resolved as a partial of it; what
    get_lib_fn returns still reads as that function (help(), tracebacks, logs)."""

    @compose
    def scaled_probe(x, backend=None):
        """Twice ``x``, and the backend that ran it."""
        return 2 * x, backend

    fn = get_lib_fn("numpy", "scaled_probe")
    assert fn.__name__ == "scaled_probe"
    assert fn.__qualname__.endswith("scaled_probe")
    assert fn.__doc__ == "Twice ``x``, and the backend that ran it."
    out, backend = do("scaled_probe", X)
    np.testing.assert_array_equal(out, 2 * X)
    assert backend == "numpy"


def test_registration_on_a_misspelt_backend_warns(cleanup):
    cleanup.append(("numpyy", "probe"))
    with pytest.warns(UserWarning, match="Did you mean 'numpy'"):
        register_function("numpyy", "probe", lambda x: x)
    assert get_lib_fn("numpyy", "probe")(1) == 1  # kept, as autoray keeps it


@pytest.mark.parametrize(
    "name",
    [
        "os",
        "subprocess",
        "os.path",
        "dispatch",
        "ctypes",
        "xml.etree.ElementTree",  # the top-level package decides, at any depth
        "dispatch.translations.numpy",
    ],
)
def test_standard_library_is_not_a_backend(name):
    """Only array libraries are backends: ``like='os'`` would reach os.popen."""
    assert not reg.is_implicit(name)
    with pytest.raises(dispatch.UnknownBackendError, match="not an array library"):
        register_function(name, "probe", lambda x: x)
    with pytest.raises(dispatch.UnknownBackendError):
        dispatch.get_lib_fn(name, "popen")
    assert (name, "probe") not in reg.OVERRIDES


@pytest.mark.parametrize("name", ["osmosis_lib", "dispatcher_lib", "mathlib_probe.sub"])
def test_a_name_that_only_begins_like_a_reserved_one_is_an_implicit_backend(name):
    """The reserved roots are whole top-level package names, not prefixes."""
    assert not reg.reserved(name)
    assert reg.is_implicit(name)


@pytest.mark.parametrize("bad", ["my lib", "1lib", "lib.", "_private", ""])
def test_backend_name_must_be_a_module_name(bad):
    with pytest.raises(dispatch.UnknownBackendError):
        register_function(bad, "probe", lambda x: x)
    assert (bad, "probe") not in reg.OVERRIDES


# ---------------------------------------------------------------- bad values


@pytest.mark.parametrize("priority", [float("nan"), float("inf"), -float("inf")])
def test_priority_must_be_finite(cleanup, priority):
    class Probe:
        pass

    with pytest.raises(ValueError, match="finite"):
        register_backend(Probe, "probe_backend", priority=priority)
    assert "probe_backend" not in reg.USER_BACKENDS
    assert Probe not in reg.USER_TYPES


def test_supports_non_string_name():
    with pytest.raises(TypeError, match=r"supports\(3, 'numpy'\).*must be a string"):
        dispatch.supports(3, "numpy")
    with pytest.raises(TypeError, match="string"):
        dispatch.supports(None, "numpy")


def test_default_backend_must_be_installed():
    if _usable("cupy"):
        pytest.skip("cupy is installed here")
    for call in (
        lambda: dispatch.set_backend("cupy"),
        lambda: dispatch.backend_like("cupy").__enter__(),
    ):
        with pytest.raises(dispatch.BackendNotInstalledError, match=r"array-dispatch\[cupy\]"):
            call()
        assert dispatch.get_backend() == "numpy"


def test_coverage_after_registering_a_module_that_is_not_installed(mylib):
    register_backend("dispatch_not_installed_lib", "notinstalled_probe")
    cov = dispatch.coverage(["sum", "linalg.qr"])
    assert "notinstalled_probe" not in cov["sum"]
    assert cov["sum"]["numpy"] == "native"
    assert dispatch.coverage(["sum"], ["notinstalled_probe"]) == {
        "sum": {"notinstalled_probe": "missing"}
    }
    with pytest.raises(TypeError, match="list of backend names"):
        dispatch.coverage(["sum"], "numpy")


# ---------------------------------------------------------------- failed calls


def test_failing_calls_cache_nothing():
    """Calls of names that never resolve leave no cache entry behind (docs/errors.md)."""

    def sizes():
        return (len(reg.CALLS), len(reg.CALLS1), len(reg.CALLS2), len(reg.RESOLVED))

    def fail_all(prefix: str, n: int) -> None:
        for i in range(n):
            name = f"{prefix}{i}"
            for args, kwargs in (
                ((), {}),
                ((1.0,), {}),
                ((1.0, 2), {}),
                ((1.0, 2, 3), {}),
                (([1.0],), {}),
                (([1.0], [2]), {}),
                ((1.0,), {"k": 1}),
            ):
                with pytest.raises(dispatch.UnknownFunctionError):
                    do(name, *args, **kwargs)

    fail_all("warm_unknown_probe", 5)
    before = sizes()
    fail_all("unknown_probe", 100)
    assert sizes() == before
    # a name that works is cached from its second call on
    do("zeros", 3)
    do("zeros", 3)
    assert reg.cached_call("zeros", int) is not None


_MEMORY_PROBE = """
import gc, tracemalloc
from dispatch import do, UnknownFunctionError

def fail_all(prefix, n):
    for i in range(n):
        for args in ((), (1.0,), ([1.0],)):
            try:
                do(f"{prefix}{i}", *args)
            except UnknownFunctionError:
                pass

fail_all("warm", 20)
tracemalloc.start()
start = tracemalloc.take_snapshot()
fail_all("unknown_probe", 300)
gc.collect()
print(sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(start, "filename")))
"""


def test_failing_calls_do_not_grow_memory():
    """900 failing calls of 300 distinct unknown names: memory stays flat (20,000
    such calls grew it by 8.6 MB when each was cached, about 0.4 KB per entry).
    Measured in a fresh interpreter: pytest's import hook keeps its own records."""
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    grown = int(run.stdout.split()[-1])
    # cached, the 900 entries would take about 360 KB; what remains (about 33 KB here)
    # is CPython's type attribute cache, which keeps up to 4,096 looked-up names
    assert grown < 120_000, grown


# ---------------------------------------------------------------- a type onto a shipped backend


def test_a_type_registered_onto_a_shipped_backend_keeps_its_table(cleanup):
    """``register_backend(cls, "numpy")`` adds a type to numpy; the backend stays the
    shipped one, with its table's priority: the type's arrays are numpy constants to
    a library beside them, as numpy's own arrays are."""
    torch = pytest.importorskip("torch")
    Marked = type("Marked", (np.ndarray,), {"__module__": "markedlib_fake"})
    register_backend(Marked, "numpy")
    m = np.arange(3.0).view(Marked)
    assert infer_backend(m) == "numpy"
    assert dispatch.supports("sum", "numpy") == "native"
    for first, second in [(m, torch.ones(3, dtype=torch.float64)), (torch.ones(3), m)]:
        out = do("add", first, second)
        assert type(out) is torch.Tensor
        np.testing.assert_allclose(out.numpy(), np.arange(3.0) + 1)
    assert "numpy" in reg.known_backends()
    assert reg.priority("numpy") == -1


def test_a_type_registered_onto_a_shipped_library_leaves_its_other_objects_to_it(cleanup):
    """After a type is added to a shipped backend, the library's own objects (a
    device, outside the modules its table lists as array modules) are still its own."""
    jax = pytest.importorskip("jax")
    device = jax.devices()[0]
    register_backend(type("JaxMarked", (), {"__module__": "jaxmarked_fake"}), "jax")
    assert infer_backend(device) == "jax"
    assert infer_backend(jax.numpy.ones(2)) == "jax"


def test_registering_onto_a_backend_whose_library_is_missing_fails_at_once(cleanup):
    """The table of a shipped backend is imported at registration, so that a library
    that is not installed is said at once, naming the registration, and nothing is
    registered."""
    if _usable("cupy"):
        pytest.skip("cupy is installed here")
    Marked = type("CupyMarked", (), {"__module__": "cupymarked_fake"})
    with pytest.raises(dispatch.BackendNotInstalledError) as info:
        register_backend(Marked, "cupy")
    assert str(info.value).startswith("register_backend(<class 'cupymarked_fake.CupyMarked'>,")
    assert "'cupy'" in str(info.value)
    assert Marked not in reg.USER_TYPES
    assert "cupy" not in reg.USER_BACKENDS


# ---------------------------------------------------------------- warnings point at the caller


def _where_warned(register) -> tuple[list[tuple[str, int]], int]:
    """The file and line of every warning ``register()`` gives, and the line of its
    call of dispatch (which ``register`` returns)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = register()
    assert caught
    assert all(w.category is UserWarning for w in caught)
    return [(w.filename, w.lineno) for w in caught], line


def _here() -> int:
    return sys._getframe(1).f_lineno


def _direct_register_function():
    register_function("numpyy", "probe_fn", abs)
    return _here() - 1  # the line above: where the warning should point


def _direct_register_translation():
    with contextlib.suppress(dispatch.DispatchError):  # numpyy has no abs to translate
        dispatch.register_translation("numpyy", "probe_fn", "abs")
    return _here() - 1


def _through_compose():
    compose(abs, name="probe_fn").register("numpyy", abs)
    return _here() - 1


def _inject_dtype():
    register_function("numpy", "probe_fn", inject_dtype=True)
    return _here() - 1


@pytest.mark.parametrize(
    "register",
    [
        _direct_register_function,
        _direct_register_translation,
        _through_compose,
        _inject_dtype,
    ],
    ids=["register_function", "register_translation", "compose.register", "inject_dtype"],
)
def test_a_registration_warning_points_at_the_line_that_registered(cleanup, register):
    """The warnings of a registration (a misspelt backend, a keyword with no effect)
    are reported at the line that called dispatch, not inside dispatch nor above."""
    cleanup.extend([("numpyy", "probe_fn"), ("numpy", "probe_fn")])
    where, line = _where_warned(register)
    assert where == [(__file__, line)] * len(where)


def test_a_dotted_module_names_a_new_backends_functions(cleanup, monkeypatch):
    """``module=`` may be a dotted module name (the package's array namespace)."""
    pkg = types.ModuleType("dottedpkg_fake")
    arrays = types.ModuleType("dottedpkg_fake.arrays")
    arrays.total = lambda x: "dotted total"
    arrays.total.__module__ = "dottedpkg_fake.arrays"
    pkg.arrays = arrays
    monkeypatch.setitem(sys.modules, "dottedpkg_fake", pkg)
    monkeypatch.setitem(sys.modules, "dottedpkg_fake.arrays", arrays)
    Thing = type("Thing", (), {"__module__": "dottedpkg_fake.arrays", "dtype": None, "shape": ()})
    register_backend(Thing, "dottedpkg_fake", module="dottedpkg_fake.arrays")
    assert do("total", Thing()) == "dotted total"
    with pytest.raises(ValueError, match=r"module 'dottedpkg_fake\.\.arrays' is not a module name"):
        register_backend(Thing, "dottedpkg_fake", module="dottedpkg_fake..arrays")


_REGISTRATIONS = {
    "register_function": lambda b: register_function(b, "probe_fn", abs),
    "register_translation": lambda b: dispatch.register_translation(b, "probe_fn", "abs"),
    "compose(...).register": lambda b: compose(abs, name="probe_fn").register(b, abs),
}


@pytest.mark.parametrize("call", list(_REGISTRATIONS))
@pytest.mark.parametrize("backend", ["not a name", "_private", 3])
def test_a_refused_registration_names_the_call_that_made_it(cleanup, call, backend):
    """Every registration entry point refuses a bad backend with an error that starts
    with the registration call, so that a traceback deep in an import names it."""
    head = "register_function" if call.startswith("compose") else call
    with pytest.raises((TypeError, ValueError)) as info:
        _REGISTRATIONS[call](backend)
    assert str(info.value).startswith(f"{head}({short(backend)}, 'probe_fn'")


def test_an_error_about_no_call_in_particular_names_the_backend_first():
    """The bare form of the unknown-backend error has no call to name and no empty prefix."""
    message = str(reg.unknown_backend("nolib_fake"))
    assert message.startswith("unknown backend 'nolib_fake'.")
    assert str(reg.unknown_backend("nolib_fake", "probe()")).startswith("probe(): unknown backend")


def test_a_backend_alias_registers_and_unregisters_the_same_functions(cleanup):
    """An alias of a backend (autoray's 'autoray.lazy' for the lazy backend) is the same
    backend in every registration call, unregistering included."""
    import dispatch.lazy as lazy

    cleanup.append(("lazy", "alias_probe"))
    register_function("autoray.lazy", "alias_probe", lambda x: "through the alias")
    x = lazy.array(np.arange(3.0))
    assert do("alias_probe", x) == "through the alias"
    assert dispatch.get_lib_fn("lazy", "alias_probe")(x) == "through the alias"
    unregister_function("autoray.lazy", "alias_probe")
    with pytest.raises(dispatch.UnknownFunctionError):
        do("alias_probe", x)


@pytest.mark.parametrize(
    ("backend", "name", "got"),
    [(3, "sum", "got int and str"), ("numpy", ["sum"], "got str and list")],
)
def test_unregister_function_names_the_types_it_was_given(backend, name, got):
    message = rf"^unregister_function\(.*\): backend and name are strings, {got}$"
    with pytest.raises(TypeError, match=message):
        unregister_function(backend, name)


def test_module_keyword_finds_the_last_part_of_a_dotted_name_there():
    """autoray's ``register_function(backend, name, module=...)``: the function is the
    module's attribute named by the name's last part, whatever the name's depth."""
    for name in ("probe_two.norm", "probe.three.norm"):
        dispatch.register_function("numpy", name, module="numpy.linalg")
        try:
            assert do(name, np.array([3.0, 4.0])) == 5.0
        finally:
            dispatch.unregister_function("numpy", name)


def test_the_registry_module_names_a_missing_attribute():
    with pytest.raises(AttributeError, match=r"module 'dispatch._registry' has no attribute "
                       r"'no_such_thing'"):
        reg.no_such_thing  # noqa: B018


@pytest.mark.parametrize(
    ("backend", "loaded"),
    [
        ("numpy", True),
        ("numpy.linalg", True),
        ("numpy.no_such_submodule", True),  # the package decides, not the dotted name
        ("not_a_module_probe.sub", False),
    ],
)
def test_a_library_is_loaded_by_its_top_level_package(backend, loaded):
    assert reg.library_loaded(backend) is loaded


def test_a_blocked_library_is_not_loaded(monkeypatch):
    monkeypatch.setitem(sys.modules, "blocked_probe_lib", None)  # blocks an import
    assert not reg.library_loaded("blocked_probe_lib.core")


def test_redirecting_a_root_no_walk_has_used_yet(monkeypatch):
    """``redirect_root`` before any walk of the backend (no policy built) and back."""
    from dispatch import _resolve

    monkeypatch.setattr(_resolve, "_POLICIES", {})
    try:
        reg.redirect_root("numpy", "numpy")
        assert reg.root_module("numpy") == "numpy"
        assert "numpy" not in _resolve._POLICIES
    finally:
        reg.redirect_root("numpy", None)
    assert "numpy" not in reg.ROOTS


def test_unregister_function_names_its_arguments_types():
    with pytest.raises(TypeError, match=r"unregister_function\('numpy', 3\): backend and "
                       r"name are strings, got str and int"):
        dispatch.unregister_function("numpy", 3)
