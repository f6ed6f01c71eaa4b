"""The engine's contracts one step off the hot path, tested through the public functions.

Written from the survivors of mutation testing (``benchmarks/mutation.py``,
docs/testing.md "Mutation score"): each test states a behaviour a user relies on
that no other test pinned, so that a bug planted there is now caught.

* sequences: every element of a sequence argument decides, on a warm cache too,
  whatever the sequence's length; nested sequences likewise;
* ``like=``: a name or an example array, whose dtype a creation routine takes;
* ``precision()``: the float width of creation routines, per block and thread;
* table ``alias()`` entries with keyword renames, and ``register_translation``;
* user backends: module functions, resolvers, ``convert_constants``, priorities,
  ``supports()`` and ``coverage()``;
* private names, refused on every way in;
* the caches are read: a repeated call resolves nothing again.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types
import warnings

import numpy as np
import pytest
from conftest import restored_registry

import dispatch
from dispatch import (
    MixedBackendError,
    UnknownFunctionError,
    compose,
    coverage,
    do,
    get_lib_fn,
    get_precision,
    precision,
    register_backend,
    register_function,
    register_translation,
    set_precision,
    supports,
)
from dispatch import _registry as reg
from dispatch.engine import NATIVE, alias


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


@pytest.fixture
def restore():
    """Put the registries back as they were: registrations, backends, composed names."""
    with restored_registry():
        reg.clear_caches()
        yield


def _twice(calls):
    """Run every call, then all of them again on the now warm cache; the results of
    the second round (served from the cache)."""
    for fn in calls:
        fn()
    return [fn() for fn in calls]


# ---------------------------------------------------------------- sequences


def _sequences(torch, length, position):
    pure = [np.full(2, float(i)) for i in range(length)]
    mixed = list(pure)
    mixed[position] = torch.tensor(pure[position])
    return pure, mixed


@pytest.mark.parametrize("length", [2, 3, 4, 5])
@pytest.mark.parametrize("mixed_first", [False, True], ids=["numpy-first", "torch-first"])
def test_every_element_of_a_sequence_decides_on_a_warm_cache(torch, length, mixed_first):
    """``stack([n, n, t])`` after ``stack([n, n, n])`` (and the other way round) is a
    torch call: the per-call key sees the element at every position."""
    for position in range(length):
        reg.clear_caches()
        pure, mixed = _sequences(torch, length, position)
        order = [mixed, pure] if mixed_first else [pure, mixed]
        outs = _twice([lambda s=s: do("stack", s) for s in order])
        for seq, out in zip(order, outs, strict=True):
            want = torch.Tensor if seq is mixed else np.ndarray
            assert type(out) is want, (length, position, type(out))
            np.testing.assert_array_equal(np.asarray(out), np.stack(pure))


@pytest.mark.parametrize("length", [2, 3, 4])
def test_two_libraries_in_a_sequence_raise_on_a_warm_cache(torch, length):
    jnp = pytest.importorskip("jax.numpy")
    for position in range(length):
        reg.clear_caches()
        same = [torch.ones(2) for _ in range(length)]
        clash = list(same)
        clash[position] = jnp.ones(2)
        _twice([lambda same=same: do("stack", same)])
        with pytest.raises(MixedBackendError, match="torch"):
            do("stack", clash)


def test_sequence_with_a_keyword_decides_by_its_elements(torch):
    a, t = np.ones(2), torch.ones(2, dtype=torch.float64)
    calls = [
        lambda: do("concatenate", [a, a], axis=0),
        lambda: do("concatenate", [a, t], axis=0),
        lambda: do("concatenate", (t, a), axis=0),
    ]
    pure, mixed, mixed_tuple = _twice(calls)
    assert type(pure) is np.ndarray
    assert type(mixed) is torch.Tensor
    assert type(mixed_tuple) is torch.Tensor


def test_more_arguments_than_a_cached_call_decide_too(torch):
    """A call with one more argument than a cached one of the same first types is
    another entry: its last argument decides too."""
    x, t = np.arange(3.0), torch.arange(3.0, dtype=torch.float64)
    three, four = _twice(
        [lambda: do("einsum", "i,i->", x, x), lambda: do("einsum", "i,i,i->", x, x, t)]
    )
    assert type(three) is np.float64 or type(three) is np.ndarray
    assert type(four) is torch.Tensor
    assert float(four) == float(np.einsum("i,i,i->", x, x, x))


def test_a_remapped_module_is_found_below_any_depth():
    """numpy's table maps ``scipy`` to scipy: names of two to four parts find it."""
    scipy_signal = pytest.importorskip("scipy.signal")
    np.testing.assert_allclose(
        do("scipy.signal.windows.hann", 5, like="numpy"), scipy_signal.windows.hann(5)
    )
    special = pytest.importorskip("scipy.special")
    np.testing.assert_allclose(do("scipy.special.erf", np.ones(2)), special.erf(np.ones(2)))


def test_a_public_alias_of_another_public_module_is_walked():
    """``numpy.emath`` is the module ``numpy.lib.scimath``: an alias, but a public one."""
    np.testing.assert_array_equal(do("emath.sqrt", np.array([-1.0])), [1j])


def test_an_array_keyword_beside_a_sequence_decides(torch):
    """``cho_solve((c, lower), b=...)``: the keyword's array takes part as much as the
    sequence's elements, on a warm cache."""
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    c, b = np.linalg.cholesky(a), np.array([1.0, 2.0])
    calls = [
        lambda: do("scipy.linalg.cho_solve", (c, True), b=b),
        lambda: do("scipy.linalg.cho_solve", (c, True), b=torch.tensor(b)),
    ]
    pure, mixed = _twice(calls)
    assert type(pure) is np.ndarray
    assert type(mixed) is torch.Tensor
    np.testing.assert_allclose(mixed.numpy(), np.linalg.solve(a, b))


def test_nested_sequences_decide_by_their_inner_elements():
    da = pytest.importorskip("dask.array")
    a = np.ones((2, 2))
    d = da.ones((2, 2))
    calls = [
        lambda: do("block", [[a, a], [a, a]]),
        lambda: do("block", [[a, a], [a, d]]),
        lambda: do("block", [[d, a], [a, a]]),
        lambda: do("block", [[a, a], [a, a]]),
    ]
    outs = _twice(calls)
    assert [type(o) is np.ndarray for o in outs] == [True, False, False, True]
    for out in outs:
        np.testing.assert_array_equal(np.asarray(out), np.ones((4, 4)))
    assert type(outs[1]) is type(d)


def test_nested_sequence_keeps_the_keywords():
    a, b = np.arange(3.0), np.arange(3.0, 6.0)
    nested = [[a, b], [b, a]]
    outs = _twice([lambda: do("stack", nested, axis=2), lambda: do("stack", nested, axis=1)])
    np.testing.assert_array_equal(outs[0], np.stack(nested, axis=2))
    np.testing.assert_array_equal(outs[1], np.stack(nested, axis=1))


def test_nested_sequence_of_two_libraries_raises(torch):
    jnp = pytest.importorskip("jax.numpy")
    a = np.ones((1, 1))
    with pytest.raises(MixedBackendError):
        do("block", [[a, torch.ones(1, 1)], [jnp.ones((1, 1)), a]])


# ---------------------------------------------------------------- like=


def test_like_array_gives_creation_its_dtype_per_call(torch):
    t32 = torch.ones(1, dtype=torch.float32)
    t64 = torch.ones(1, dtype=torch.float64)
    n32 = np.ones(1, dtype=np.float32)
    calls = [
        lambda: do("zeros", (2,), like=t32),
        lambda: do("zeros", (2,), like=t64),
        lambda: do("ones", 3, like=n32),
        lambda: do("zeros", (2,), like="torch"),
        lambda: do("zeros", (2,), like="numpy"),
        lambda: do("zeros", (2,), like=t32, dtype=torch.float64),  # explicit dtype wins
        lambda: do("arange", 3, like=t64),
    ]
    z32, z64, o32, zt, zn, explicit, ar = _twice(calls)
    assert (type(z32), z32.dtype) == (torch.Tensor, torch.float32)
    assert (type(z64), z64.dtype) == (torch.Tensor, torch.float64)
    assert (type(o32), o32.dtype) == (np.ndarray, np.float32)
    assert (type(zt), zt.dtype) == (torch.Tensor, torch.get_default_dtype())
    assert (type(zn), zn.dtype) == (np.ndarray, np.float64)
    assert explicit.dtype == torch.float64
    assert ar.dtype == torch.float64
    assert ar.tolist() == [0.0, 1.0, 2.0]


def test_like_array_lends_its_device(torch):
    """The table's ``creation_kwargs`` (torch: dtype and device) is used, not only the
    dtype: the meta device shows it on any machine."""
    example = torch.ones(1, device="meta", dtype=torch.float64)
    for _ in range(2):
        out = do("zeros", 3, like=example)
        assert out.device.type == "meta"
        assert out.dtype == torch.float64


def test_like_a_python_number_means_numpy_with_its_default_dtype():
    out = do("zeros", 2, like=3)
    assert type(out) is np.ndarray
    assert out.dtype == np.float64  # an int example lends no dtype


def test_like_does_not_change_a_non_creation_call(torch):
    t = torch.ones(3, dtype=torch.float64)
    out = do("sum", np.ones(3, dtype=np.float32), like=t)
    assert type(out) is torch.Tensor
    assert out.dtype == torch.float32  # the argument's dtype, not the example's


def test_like_converts_lower_priority_constants_only(torch):
    """``like='torch'`` converts numpy constants; an array of another library of the
    same priority (jax) is a mixed call, as it is without ``like=``: as an argument
    and inside a sequence."""
    jnp = pytest.importorskip("jax.numpy")
    t, n, j = torch.ones(2, dtype=torch.float64), np.ones(2), jnp.ones(2)
    assert type(do("add", t, n, like="torch")) is torch.Tensor
    assert type(do("stack", [t, n], like="torch")) is torch.Tensor
    for call in (
        lambda: do("add", t, j, like="torch"),
        lambda: do("stack", [t, j], like="torch"),
    ):
        for _ in range(2):  # on a warm cache too
            with pytest.raises(MixedBackendError, match="arrays of 'jax' were passed") as info:
                call()
            # the library's own error stays attached, for whoever debugs the call
            assert isinstance(info.value.__cause__, TypeError), repr(info.value.__cause__)


def test_like_name_of_a_str_subclass(torch):
    class Name(str):
        pass

    assert type(do("zeros", 1, like=Name("torch"))) is torch.Tensor


# ---------------------------------------------------------------- precision


def test_precision_sets_the_float_width_of_creation_routines(torch):
    assert get_precision() is None
    before = _twice([lambda: do("zeros", 2), lambda: do("ones", 2, like="torch")])
    assert [before[0].dtype, before[1].dtype] == [np.float64, torch.get_default_dtype()]
    with precision(32) as bits:
        assert bits == 32
        assert get_precision() == 32
        assert do("zeros", 2).dtype == np.float32  # the default backend
        assert do("ones", 2, like="numpy").dtype == np.float32
        assert do("eye", 2, like="numpy").dtype == np.float32
        assert do("random.normal", size=2, like="numpy").dtype == np.float32
        assert do("zeros", 2, like="numpy", dtype="float64").dtype == np.float64
        assert do("arange", 3, like="numpy").dtype == np.arange(3).dtype  # not a float routine
        assert do("full", 2, 1, like="numpy").dtype == np.full(2, 1).dtype
        with precision(64):
            assert do("ones", 2, like="torch").dtype == torch.float64
            assert do("zeros", 2).dtype == np.float64
        assert do("ones", 2, like="torch").dtype == torch.float32
    assert get_precision() is None
    after = [do("zeros", 2), do("ones", 2, like="torch")]
    assert [after[0].dtype, after[1].dtype] == [np.float64, torch.get_default_dtype()]


def test_precision_16():
    with precision(16):
        assert do("linspace", 0, 1, 3, like="numpy").dtype == np.float16


def test_set_precision_is_global_and_a_block_wins_over_it():
    try:
        set_precision(32)
        assert get_precision() == 32
        assert do("zeros", 2).dtype == np.float32
        with precision(64):
            assert get_precision() == 64
            assert do("zeros", 2).dtype == np.float64
        seen = []
        thread = threading.Thread(target=lambda: seen.append(do("zeros", 1).dtype))
        thread.start()
        thread.join()
        assert seen == [np.float32]  # global: every thread
    finally:
        set_precision(None)
    assert get_precision() is None
    assert do("zeros", 2).dtype == np.float64


def test_precision_block_is_local_to_its_thread():
    seen = []
    inside = threading.Event()
    done = threading.Event()

    def other():
        inside.wait()
        seen.append(do("zeros", 1).dtype)
        done.set()

    thread = threading.Thread(target=other)
    thread.start()
    with precision(32):
        inside.set()
        done.wait()
    thread.join()
    assert seen == [np.float64]


@pytest.mark.parametrize("bits", [8, 33, "32"])
def test_precision_refuses_other_widths(bits):
    with pytest.raises(ValueError, match="16, 32 or 64"), precision(bits):
        pass
    with pytest.raises(ValueError, match="16, 32 or 64"):
        set_precision(bits)


# ---------------------------------------------------------------- aliases and renames


def test_table_aliases_rename_keywords(torch):
    """torch's ``tril(k=)``, ``diagonal(axis1=, axis2=)``, ``swapaxes``, ``kron(b=)``
    are table aliases that rename numpy's keywords to torch's."""
    x = np.arange(24.0).reshape(2, 3, 4)
    m = x[0, :, :3]
    t, tm = torch.tensor(x), torch.tensor(m)
    cases = [
        (lambda: do("tril", tm, k=1), np.tril(m, k=1)),
        (lambda: do("triu", tm, k=-1), np.triu(m, k=-1)),
        (lambda: do("diagonal", t, axis1=1, axis2=2), np.diagonal(x, axis1=1, axis2=2)),
        (lambda: do("diagonal", t, 1, 0, 2), np.diagonal(x, 1, 0, 2)),
        (lambda: do("swapaxes", t, axis1=0, axis2=2), np.swapaxes(x, 0, 2)),
        (lambda: do("kron", tm, b=tm), np.kron(m, m)),
    ]
    for (_, want), got in zip(cases, _twice([c for c, _ in cases]), strict=True):
        assert type(got) is torch.Tensor
        np.testing.assert_array_equal(got.numpy(), want)


def test_register_translation_renames_keywords(restore):
    x = np.arange(6.0).reshape(2, 3)
    register_translation("numpy", "total_over", "sum", over="axis")
    np.testing.assert_array_equal(do("total_over", x, over=0), x.sum(axis=0))
    # keywords without a rename pass as they are
    out = do("total_over", x, over=1, keepdims=True)
    np.testing.assert_array_equal(out, x.sum(1, keepdims=True))
    assert do("total_over", x) == x.sum()
    # a dotted target below the root, and one in another module
    register_translation("numpy", "norm_of", "linalg.norm", along="axis")
    np.testing.assert_allclose(do("norm_of", x, along=1), np.linalg.norm(x, axis=1))
    special = pytest.importorskip("scipy.special")
    register_translation("numpy", "log_gamma", "gammaln", module="scipy.special")
    np.testing.assert_allclose(do("log_gamma", x + 1), special.gammaln(x + 1))
    register_translation("numpy", "erf_for_test", "special.erf", module="scipy")  # dotted
    np.testing.assert_allclose(do("erf_for_test", x), special.erf(x))


def test_register_translation_refuses_private_and_missing_targets(restore):
    # real callables behind private names (numpy's), an empty component, a missing name
    targets = ("_pyinstaller_hooks_dir", "linalg._umath_linalg.det", "linalg..norm", "nothing_xyz")
    for target in targets:
        with pytest.raises(UnknownFunctionError):
            register_translation("numpy", "renamed", target)
        assert supports("renamed", "numpy") is None  # nothing was registered
    # a module given: the path from it is checked as well
    for target in ("_pyinstaller_hooks_dir", "_umath_linalg.det"):
        module = "numpy.linalg" if "." in target else "numpy"
        with pytest.raises(UnknownFunctionError, match="private or empty name component"):
            register_translation("numpy", "renamed", target, module=module)
        assert supports("renamed", "numpy") is None


def test_register_function_with_autorays_keywords(restore):
    """``register_function(backend, name, module=, alias=, wrapper=)``: where the
    library has the function, and a wrapper of it (autoray's calling convention)."""
    x = np.arange(6.0).reshape(2, 3)
    assert register_function("numpy", "total_for_test", alias="sum") is None
    assert do("total_for_test", x) == 15.0
    register_function("numpy", "linalg.length_for_test", alias="norm")  # below linalg
    assert do("linalg.length_for_test", x) == np.linalg.norm(x)
    register_function("numpy", "amax_for_test", module="numpy", alias="max")
    assert do("amax_for_test", x) == 5.0
    register_function("numpy", "special.erf_for_test", module="scipy.special", alias="erf")
    special = pytest.importorskip("scipy.special")
    np.testing.assert_allclose(do("special.erf_for_test", x), special.erf(x))
    # a wrapper of what the name resolves to now
    register_function("numpy", "total_for_test", wrapper=lambda f: lambda y: 2 * f(y))
    assert do("total_for_test", x) == 30.0

    @register_function("numpy", "total_for_test", wrapper=True)
    def plus_one(f):
        return lambda y: f(y) + 1

    assert callable(plus_one)
    assert do("total_for_test", x) == 31.0  # wraps the wrapped one
    # alias= and a wrapper together: located first, then wrapped
    register_function("numpy", "lowest_for_test", alias="min", wrapper=lambda f: lambda y: -f(y))
    assert do("lowest_for_test", x + 1) == -1.0


def test_register_function_with_autorays_keywords_refusals(restore):
    with pytest.raises(ValueError, match="one or the other"):
        register_function("numpy", "total_for_test", np.sum, alias="sum")
    with pytest.warns(UserWarning, match="not a creation routine"):
        register_function("numpy", "total_for_test", alias="sum", inject_dtype=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_function("numpy", "zeros_for_test", alias="zeros")
        register_function("numpy", "zeros", wrapper=lambda f: f, inject_dtype=True)
    # a library that is not installed: nothing is registered, None comes back
    assert register_function("numpy", "gone_for_test", module="no_such_module_xyz") is None
    assert supports("gone_for_test", "numpy") is None
    assert register_function("no_such_library_xyz", "sum", alias="total") is None


def test_register_function_with_alias_on_a_user_backend(boxlib):
    """A registered backend's functions are found in its module (``module=`` of
    ``register_backend``), not in a module named like the backend."""
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake")
    register_function("boxlib", "plus_for_test", alias="add")
    box = boxlib.Box([1, 2])
    assert do("plus_for_test", box, box).data == [2.0, 4.0]


def test_table_entry_whose_module_is_missing_says_what_to_install(monkeypatch):
    table = reg.table("numpy")
    monkeypatch.setitem(table.TABLE, "probe_missing", alias("f", module="no_such_lib_xyz.sub"))
    monkeypatch.setitem(table.TABLE, "probe_shipped", alias("f", module="cupy.fake_sub"))
    reg.clear_caches()
    try:
        with pytest.raises(dispatch.BackendNotInstalledError) as info:
            do("probe_missing", np.ones(2))
        msg = str(info.value)
        assert "'probe_missing'" in msg
        assert "'numpy'" in msg
        assert "library 'no_such_lib_xyz'" in msg
        assert "`pip install no_such_lib_xyz`" in msg
        if importlib.util.find_spec("cupy") is None:
            with pytest.raises(dispatch.BackendNotInstalledError, match=r"array-dispatch\[cupy\]"):
                do("probe_shipped", np.ones(2))
        assert supports("probe_missing", "numpy") is None
    finally:
        monkeypatch.undo()
        reg.clear_caches()


def test_register_function_keywords_with_an_implementation(restore):
    x = np.arange(4.0)
    # alias=None: the last part of the name
    register_function("numpy", "linalg.det", module="numpy.linalg")
    assert supports("linalg.det", "numpy") == "registered"
    assert do("linalg.det", np.eye(2) * 3) == pytest.approx(9.0)
    register_function("numpy", "zeros", lambda *a, **k: "mine", inject_dtype=True)
    assert do("zeros", 2) == "mine"
    register_function(
        "numpy", "sum", lambda f: lambda y: f(y) + 100, wrap=True, inject_device=False
    )
    assert do("sum", x) == 106.0
    # the library is installed, its submodule is not: an error, not a silent None
    with pytest.raises(UnknownFunctionError, match="cannot be imported"):
        register_function("numpy", "f_for_test", module="numpy.no_such_sub", alias="f")


# ---------------------------------------------------------------- user backends

_BOXLIB = '''
class Box:
    """A toy array: a list of floats with a shape and a dtype."""
    def __init__(self, data):
        self.data = [float(v) for v in data]
        self.shape = (len(self.data),)
        self.dtype = "float64"

CALLS = []

def add(x, y):
    CALLS.append(("add", type(x).__name__, type(y).__name__))
    if not isinstance(y, Box):
        y = Box(list(y.tolist()))
    return Box([a + b for a, b in zip(x.data, y.data)])

def asarray(x):
    CALLS.append(("asarray", type(x).__name__))
    return x if isinstance(x, Box) else Box(list(x.tolist()))

def total(x):
    return sum(x.data)
'''


def _library(name, source, from_numpy=False):
    mod = types.ModuleType(name)
    exec(source, mod.__dict__)
    if from_numpy:

        def from_numpy_(x):
            mod.CALLS.append(("from_numpy", type(x).__name__))
            return mod.Box(x.tolist())

        from_numpy_.__module__ = name
        from_numpy_.__name__ = "from_numpy"
        mod.from_numpy = from_numpy_
    return mod


@pytest.fixture
def boxlib(restore):
    mod = _library("boxlib_fake", _BOXLIB)
    sys.modules[mod.__name__] = mod
    yield mod
    del sys.modules[mod.__name__]


@pytest.fixture
def boxlib_np(restore):
    mod = _library("boxlib_np_fake", _BOXLIB, from_numpy=True)
    sys.modules[mod.__name__] = mod
    yield mod
    del sys.modules[mod.__name__]


def test_user_backend_converts_numpy_constants_only_when_asked(boxlib):
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake")
    box, n = boxlib.Box([1, 2]), np.array([10.0, 20.0])
    _twice([lambda: do("add", box, n)])
    assert boxlib.CALLS == [("add", "Box", "ndarray")] * 2  # passed as it is
    boxlib.CALLS.clear()

    register_backend(boxlib.Box, "boxlib", module="boxlib_fake", convert_constants=True)
    first, second = _twice([lambda: do("add", box, n), lambda: do("add", n, box)])
    assert first.data == second.data == [11.0, 22.0]
    # converted with the module's asarray (it has no from_numpy), on every call
    assert boxlib.CALLS.count(("asarray", "ndarray")) == 4
    assert ("add", "Box", "ndarray") not in boxlib.CALLS


def test_like_a_user_backend_passes_numpy_arrays_as_they_are(boxlib):
    """``like=`` names a backend that does not convert constants: a numpy array given to
    a vocabulary name reaches its function as a numpy array; with ``convert_constants``
    it is converted."""
    boxlib.sum = lambda x, axis=None: type(x).__name__
    boxlib.sum.__module__ = "boxlib_fake"
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake")
    assert _twice([lambda: do("sum", np.ones(2), like="boxlib")]) == ["ndarray"]
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake", convert_constants=True)
    assert _twice([lambda: do("sum", np.ones(2), like="boxlib")]) == ["Box"]


def test_user_backend_converts_with_from_numpy_when_it_has_one(boxlib_np):
    register_backend(boxlib_np.Box, "boxlib_np", module="boxlib_np_fake", convert_constants=True)
    box, n = boxlib_np.Box([1, 2]), np.array([10.0, 20.0])
    out = _twice([lambda: do("add", box, n), lambda: do("add", n, box)])
    assert out[0].data == out[1].data == [11.0, 22.0]
    assert ("from_numpy", "ndarray") in boxlib_np.CALLS
    assert ("asarray", "ndarray") not in boxlib_np.CALLS


def test_user_backend_of_default_priority_clashes_with_a_library(boxlib, torch):
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake")
    box, t = boxlib.Box([1, 2]), torch.ones(2)
    for args in [(box, t), (t, box)]:
        for _ in range(2):
            with pytest.raises(MixedBackendError, match=r"'boxlib'.*'torch'|'torch'.*'boxlib'"):
                do("add", *args)


def test_user_backend_of_higher_priority_wins_over_a_library(boxlib, torch):
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake", priority=1)
    box, t = boxlib.Box([1, 2]), torch.ones(2, dtype=torch.float64)
    for args in [(box, t), (t, box)]:
        out = _twice([lambda args=args: do("add", *args)])[0]
        assert isinstance(out, boxlib.Box)
        assert out.data == [2.0, 3.0]
    assert dispatch.infer_backend_multi(t, box) == "boxlib"


def test_user_backend_of_lower_priority_loses_to_a_library(boxlib, torch):
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake", priority=-0.5)
    box, t = boxlib.Box([1, 2]), torch.ones(2)
    assert dispatch.infer_backend_multi(box, t) == "torch"
    assert dispatch.infer_backend_multi(box, np.ones(2)) == "boxlib"


def test_supports_and_coverage_on_a_user_backend(boxlib):
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake")

    @compose(name="doubled_for_test")
    def doubled(x):
        return do("add", x, x)

    register_function("boxlib", "tripled_for_test", lambda x: x)
    assert supports("add", "boxlib") == "native"
    assert supports("total", boxlib.Box([1])) == "native"  # an example array names it
    assert supports("doubled_for_test", "boxlib") == "composed"
    assert supports("tripled_for_test", "boxlib") == "registered"
    assert supports("no_such_function", "boxlib") is None
    assert supports("tripled_for_test", "numpy") is None
    names = ["add", "doubled_for_test", "tripled_for_test", "no_such_function"]
    assert coverage(names, ["boxlib"]) == {
        "add": {"boxlib": "native"},
        "doubled_for_test": {"boxlib": "composed"},
        "tripled_for_test": {"boxlib": "registered"},
        "no_such_function": {"boxlib": "missing"},
    }
    assert "boxlib" in coverage(["add"])["add"]  # an installed user backend is listed
    assert do("doubled_for_test", boxlib.Box([1, 2])).data == [2.0, 4.0]


class _Traced:
    """An array of a generic backend: every function comes from its resolver."""

    shape = (1,)
    dtype = "float64"

    def __init__(self, label):
        self.label = label


@pytest.fixture
def traced(restore):
    asked: list[str] = []

    def resolver(name):
        asked.append(name)
        if name.startswith("unknown"):
            raise AttributeError(f"the tracer has no {name!r}")

        def record(*args, **kwargs):
            return (name, args, kwargs)

        return record

    register_backend(_Traced, "traced_for_test", resolver=resolver, priority=1)
    return asked


def test_resolver_backend_answers_every_name_itself(traced):
    x = _Traced("x")
    # a composed name: the resolver answers it, not the composed fallback
    composed_name = next(iter(sorted(reg.composed())))
    for name in ("sin", "linalg.qr", composed_name):
        assert do(name, x)[0] == name
        assert do(name, x)[0] == name
    assert traced == ["sin", "linalg.qr", composed_name]  # each resolved once
    out = do("add", np.ones(1), x)
    assert out[0] == "add"
    assert out[1][1] is x
    assert supports("sin", "traced_for_test") == "native"
    assert supports("unknown_name", "traced_for_test") is None


def test_resolver_backend_gets_like_on_creation(traced):
    x = _Traced("x")
    name, args, kwargs = do("zeros", (2,), like=x)
    assert (name, args) == ("zeros", ((2,),))
    assert kwargs["like"] is x


def test_resolver_backend_unknown_and_private_names(traced):
    x = _Traced("x")
    with pytest.raises(UnknownFunctionError, match="the tracer has no 'unknown_op'"):
        do("unknown_op", x)
    for name in ("_private", "linalg._private", "linalg..qr", "__class__"):
        with pytest.raises(UnknownFunctionError):
            do(name, x)
    assert traced == ["unknown_op"]  # private names never reach the resolver


def test_registration_wins_over_a_resolver(traced):
    register_function("traced_for_test", "sin", lambda x: "registered")
    assert do("sin", _Traced("x")) == "registered"
    assert "sin" not in traced


# ---------------------------------------------------------------- objects nobody registered


def _module(name, **attrs):
    mod = types.ModuleType(name)
    for key, value in attrs.items():
        if callable(value) and not isinstance(value, type):
            value.__module__ = name
        setattr(mod, key, value)
    return mod


@pytest.fixture
def loose_modules(restore):
    """Array-like classes of modules nobody registered (autoray's module rule)."""
    made = []

    def make(name, cls_attrs, **functions):
        cls = type("Thing", (), {"__module__": name, **cls_attrs})
        mod = _module(name, Thing=cls, **functions)
        sys.modules[name] = mod
        made.append(name)
        return cls

    yield make
    for name in made:
        sys.modules.pop(name, None)
        reg.USER_BACKENDS.pop(name, None)


def test_a_shape_and_ndim_make_an_array_of_its_module(loose_modules):
    """quimb's PArray: a shape and an ndim but no dtype; its module is its backend."""
    thing = loose_modules("shapedlib_fake", {"shape": (2,), "ndim": 1}, total=lambda x: "mine")
    assert dispatch.infer_backend(thing()) == "shapedlib_fake"
    assert do("total", thing()) == "mine"
    # a shape alone is not an array: an object no library owns
    shape_only = loose_modules("shapeonly_fake", {"shape": (2,)})
    with pytest.raises(dispatch.UnknownBackendError, match="no backend owns"):
        do("sum", shape_only())


@pytest.mark.parametrize("attrs", [{"shape": (2,)}, {"ndim": 1}], ids=["shape", "ndim"])
def test_like_an_object_of_an_unregistered_module_names_it(loose_modules, attrs):
    thing = loose_modules("likelib_fake", attrs, zeros=lambda *a, **k: ("zeros", a, k))
    assert do("zeros", 2, like=thing()) == ("zeros", (2,), {})


def test_like_an_object_of_a_submodule_names_the_top_level_module(loose_modules):
    loose_modules("likepkg_fake", {}, zeros=lambda *a, **k: "top-level zeros")
    deep = type("Deep", (), {"__module__": "likepkg_fake.arrays.core", "shape": (2,)})
    assert do("zeros", 2, like=deep()) == "top-level zeros"


def test_like_an_object_of_dispatch_itself_is_no_backend():
    class Shaped:
        shape = (2,)

    Shaped.__module__ = "dispatch.fake_submodule"
    with pytest.raises(dispatch.UnknownBackendError, match="no backend owns"):
        do("zeros", 2, like=Shaped())


def test_standard_library_objects_and_callables_are_values(loose_modules):
    """numpy runs on them (they decide nothing, and are not refused as foreign)."""
    from xml.etree.ElementTree import Element

    # a standard library object from a dotted module
    assert type(do("asarray", Element("a"))) is np.ndarray
    caller = loose_modules("callablelib_fake", {"__call__": lambda self, v: 2 * v})
    vectorized = do("vectorize", caller())  # a callable of a library nobody registered
    np.testing.assert_array_equal(vectorized(np.arange(3)), [0, 2, 4])
    assert type(do("asarray", NATIVE)) is np.ndarray  # dispatch's own objects too


def test_a_callable_by_inheritance_is_a_value(loose_modules):
    """A callable object whose ``__call__`` comes from a base class (a model class of
    some library, subclassed by the user) is an argument like any callable, not an
    object to refuse."""
    base = loose_modules("callablebase_fake", {"__call__": lambda self, v: 3 * v})
    derived = type("Derived", (base,), {"__module__": "callablebase_fake"})
    vectorized = do("vectorize", derived())
    np.testing.assert_array_equal(vectorized(np.arange(3)), [0, 3, 6])


class _NoModule(type):
    """A metaclass whose classes answer no ``__module__`` (as some proxies do)."""

    @property
    def __module__(cls):
        raise AttributeError("__module__")


def test_a_type_without_a_module_decides_nothing():
    """A type that reports no module is no library's: a value as arguments go (numpy
    runs on it), and as ``like=`` dispatch's own error, not an AttributeError."""
    hidden = _NoModule("Hidden", (), {})
    with pytest.raises(AttributeError):
        hidden.__module__  # noqa: B018 - the premise
    out = do("asarray", hidden())
    assert type(out) is np.ndarray
    assert out.dtype == object
    with pytest.raises(dispatch.UnknownBackendError, match=r"\(type 'Hidden'\): no backend owns"):
        do("zeros", 2, like=hidden())


def test_refusal_of_an_unowned_object_says_what_to_do():
    class Opaque:
        pass

    with pytest.raises(dispatch.UnknownBackendError) as info:
        do("sum", Opaque())
    msg = str(info.value)
    assert "do('sum')" in msg
    assert "Opaque" in msg
    assert (
        "Pass like='numpy' (or another backend) to choose one, or register the type with "
        "dispatch.register_backend(type, name)"
    ) in msg


def test_a_converting_entry_wraps_the_resolved_function(torch):
    """The cached entry of a mixed call converts the constants and calls the resolved
    implementation, which it names as ``__wrapped__`` (what the cache checker reads)."""
    t, n = torch.ones(2, dtype=torch.float64), np.ones(2)
    impl = get_lib_fn("torch", "add")
    _twice([lambda: do("add", n, t), lambda: do("add", t, n), lambda: do("where", n > 0, n, t)])
    assert reg.cached_call("add", np.ndarray, torch.Tensor).__wrapped__ is impl
    assert reg.cached_call("add", torch.Tensor, np.ndarray).__wrapped__ is impl
    where = reg.cached_call("where", np.ndarray, np.ndarray, torch.Tensor)
    assert where.__wrapped__ is get_lib_fn("torch", "where")


def test_cached_call_of_an_uncached_name_is_none():
    reg.clear_caches()
    for kwargs in (False, True):
        for types_ in [(np.ndarray,), (np.ndarray, float), (np.ndarray, float, int)]:
            assert reg.cached_call("never_called_for_test", *types_, kwargs=kwargs) is None


def test_merge_tables_says_which_topics_and_what_to_do():
    from dispatch.engine import merge_tables

    with pytest.raises(ValueError, match=r"'sum' is defined twice: in topic 1 and topic 3") as info:
        merge_tables({"sum": 1}, {"prod": 2}, {"sum": 3})
    assert "(a later entry would silently win; keep one)" in str(info.value)
    with pytest.raises(ValueError, match="in reductions and linalg"):
        merge_tables({"sum": 1}, {"sum": 3}, names=("reductions", "linalg"))
    assert merge_tables({"a": 1}, {"b": 2}, {"c": 3}) == {"a": 1, "b": 2, "c": 3}
    assert merge_tables() == {}
    with pytest.raises(ValueError, match="longer than"):  # a name per part, or none
        merge_tables({"a": 1}, {"b": 2}, names=("one",))


# ---------------------------------------------------------------- private names


PRIVATE = [
    "_private",
    "__class__",
    "linalg._umath_linalg",
    "linalg.__name__",
    ".sum",
    "sum.",
    "a..b",
]


@pytest.mark.parametrize("name", PRIVATE)
@pytest.mark.parametrize("backend", ["numpy", "torch", "jax", "dask"])
def test_private_and_empty_names_are_refused_everywhere(name, backend):
    """On every way in: ``do`` with an array or ``like=``, ``get_lib_fn``; also on the
    libraries whose root is a remapped module (jax's ``jax.numpy``, dask's
    ``dask.array``: ``'.sum'`` must not reach ``jax.numpy.sum`` through the remap)."""
    pytest.importorskip(backend)
    x = dispatch.convert(np.ones(2), backend)
    with pytest.raises(UnknownFunctionError, match="private or empty"):
        get_lib_fn(backend, name)
    with pytest.raises(UnknownFunctionError, match="private or empty"):
        do(name, np.ones(2), like=backend)
    with pytest.raises(UnknownFunctionError, match="private or empty"):
        do(name, x)


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_private_component_after_a_module_remap(backend):
    """``scipy.`` names are remapped (numpy's table to scipy, jax's to jax.scipy):
    the components after the remap are checked too."""
    pytest.importorskip(backend)
    x = dispatch.convert(np.ones(2), backend)
    for name in ("scipy._lib", "scipy.special._ufuncs.erf", "scipy.special.__name__"):
        with pytest.raises(UnknownFunctionError, match="private or empty"):
            do(name, x)


# ---------------------------------------------------------------- the caches are read


class _Count:
    def __init__(self, fn):
        self.fn = fn
        self.n = 0

    def __call__(self, *args, **kwargs):
        self.n += 1
        return self.fn(*args, **kwargs)


@pytest.fixture
def misses(monkeypatch):
    """Counters of the miss paths: building the entry of a call's argument types or
    of a ``like=`` call (both check the name first: ``_check_name``), the entry of a
    sequence's element types (``_elements_entry``), a resolution (``_resolve``) and a
    type's backend (``_find``). A repeated call reaches none of them."""
    import dispatch._do as do_module
    import dispatch._infer as infer_module
    import dispatch._resolve as resolve_module

    counts = {}
    for module, name in [
        (do_module, "_check_name"),
        (do_module, "_elements_entry"),
        (resolve_module, "_resolve"),
        (infer_module, "_find"),
    ]:
        counts[name] = _Count(getattr(module, name))
        monkeypatch.setattr(module, name, counts[name])
    reg.clear_caches()
    return counts


def _forms(torch):
    x, t = np.arange(4.0), torch.arange(4.0)
    return {
        "one": lambda: do("sum", x),
        "two": lambda: do("add", x, t),
        "three": lambda: do("clip", x, 0.0, 1.0),
        "four": lambda: do("einsum", "i,i,i->", x, x, t),
        "keyword": lambda: do("sum", t, axis=0),
        "like": lambda: do("zeros", 2, like="torch"),
        "like_array": lambda: do("ones", 2, like=t),
        "sequence": lambda: do("stack", [x, t, x]),
        "long_sequence": lambda: do("stack", [x, x, x, t, x]),
        "nested": lambda: do("block", [[x, x], [x, x]]),
        "default": lambda: do("zeros", 3),
    }


@pytest.mark.parametrize(
    "form",
    [
        "one",
        "two",
        "three",
        "four",
        "keyword",
        "like",
        "like_array",
        "sequence",
        "long_sequence",
        "nested",
        "default",
    ],
)
def test_a_repeated_call_is_served_from_the_cache(misses, torch, form):
    call = _forms(torch)[form]
    for _ in range(3):  # a name is cached from its first successful resolution on
        call()
    before = {k: c.n for k, c in misses.items()}
    for _ in range(10):
        call()
    after = {k: c.n for k, c in misses.items()}
    assert after == before, f"{form}: {before} -> {after}"


def test_a_resolution_is_cached_per_backend_and_name(traced):
    x = _Traced("x")
    for _ in range(5):
        do("sin", x)
        do("cos", x, x)
        do("tan", x, axis=0)
        do("zeros", 2, like=x)
        get_lib_fn("traced_for_test", "exp")
        get_lib_fn("traced_for_test", "exp")
    assert sorted(traced) == ["cos", "exp", "sin", "tan", "zeros"]
    dispatch.clear_caches()
    do("sin", x)
    assert traced.count("sin") == 2  # clearing the caches resolves anew


# ---------------------------------------------------------------- messages


def _message(name, *args, **kwargs):
    with pytest.raises(UnknownFunctionError) as info:
        do(name, *args, **kwargs)
    return str(info.value)


def _suggested(message):
    """The names after 'Did you mean', in order."""
    if "Did you mean " not in message:
        return []
    listed = message.split("Did you mean ", 1)[1].split("?", 1)[0]
    return [part.strip().strip("'") for part in listed.split(",")]


def test_unknown_names_get_the_closest_known_names():
    x = np.ones(2)
    assert _suggested(_message("cumsun", x))[0] == "cumsum"
    assert _suggested(_message("SUM", x))[0] == "sum"  # case aside
    assert _suggested(_message("Linalg.Norm", x))[0] == "linalg.norm"
    # a dotted name whose head matches nothing: its last part is compared
    assert _suggested(_message("averylongprefix.cumsum", x))[0] == "cumsum"
    assert len(_suggested(_message("SUM", x))) == 3  # three at most
    assert _suggested(_message("zzqqxx", x)) == []


def test_unknown_name_messages_say_where_to_add_one():
    x = np.ones(2)
    msg = _message("no_such_function_xyz", x)
    assert msg.startswith("do('no_such_function_xyz') on backend 'numpy': ")
    assert "Add one with dispatch.register_function('numpy', 'no_such_function_xyz', fn)." in msg
    # a name of the standard library: said so, and no registration offered
    msg = _message("os.listdir", x)
    assert "('os' is a Python standard library module, not part of 'numpy'.)" in msg
    assert "register_function" not in msg
    # a name that cannot be registered: no registration offered, nothing after the hint
    msg = _message("no-such-name", x)
    assert "register_function" not in msg
    assert msg.endswith((").", "?"))
    # private attributes of the library are never suggested
    assert not [n for n in _suggested(_message("CopyMode", x)) if n.startswith("_")]


def test_long_and_broken_reprs_in_messages():
    with pytest.raises(TypeError) as info:
        do(["a" * 100], np.ones(2))
    msg = str(info.value)
    assert "do(['" + "a" * 35 + "..., ...)" in msg  # cut to 40 characters
    assert "a" * 36 not in msg

    class BrokenRepr:
        def __repr__(self):
            raise RuntimeError("no repr")

    with pytest.raises(dispatch.UnknownBackendError) as info:
        do("zeros", 2, like=BrokenRepr())
    assert str(info.value) == (
        "do('zeros', like=...): like=<BrokenRepr object> (type 'BrokenRepr'): no backend owns "
        "that type; pass a backend name such as like='torch' or an array of a known library, "
        "or register the type with dispatch.register_backend(type, name)"
    )


def test_unknown_backend_messages_suggest_the_closest():
    with pytest.raises(dispatch.UnknownBackendError) as info:
        do("zeros", 2, like="numpyy")
    msg = str(info.value)
    assert msg.startswith("do('zeros', like='numpyy'): unknown backend 'numpyy'.")
    assert _suggested(msg)[0] == "numpy"
    assert "Known backends: " in msg
    assert "No module of that name is installed either." in msg
    assert "register_backend(type_or_module_prefix, name)" in msg


# ---------------------------------------------------------------- more inference rules


def test_numpy_protocol_through_array_ufunc_alone_goes_to_numpy():
    """An unregistered array type that takes part in numpy's ufunc protocol only."""

    class UfuncOnly:
        dtype = np.dtype("float64")
        shape = (2,)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "via numpy"

    UfuncOnly.__module__ = "ufunconly_fake"
    assert dispatch.infer_backend(UfuncOnly()) == "numpy"
    assert do("add", UfuncOnly(), 1.0) == "via numpy"


def test_an_object_whose_class_has_no_module_is_a_value():
    cls = type("Moduleless", (), {"__module__": None})
    assert type(do("asarray", cls())) is np.ndarray
    # array-like, but no module names a library for it: it decides nothing either
    shaped = type("ModulelessArray", (), {"__module__": None, "shape": (1,), "dtype": "f8"})
    assert dispatch.infer_backend_multi(shaped(), np.ones(1)) == "numpy"


# ---------------------------------------------------------------- compose


def test_compose_gives_the_namespace_of_the_calls_backend(restore, torch):
    @compose(name="namespace_for_test")
    def which(x, namespace=None):
        return namespace

    assert type(which(torch.ones(1)).zeros(2)) is torch.Tensor  # creation: no array decides
    assert type(which(np.ones(1)).zeros(2)) is np.ndarray
    assert repr(which(torch.ones(1))) == repr(dispatch.get_namespace("torch"))


def test_table_only_names_are_suggested(monkeypatch):
    """A name only a table has (no vocabulary name, no composed fallback) is among the
    suggestions for a misspelling of it, on that backend."""
    monkeypatch.setitem(reg.table("numpy").TABLE, "zzprobe_entry", "sum")
    reg.clear_caches()
    try:
        assert _suggested(_message("zzprobe_entri", np.ones(2)))[0] == "zzprobe_entry"
    finally:
        monkeypatch.undo()
        reg.clear_caches()


def test_compose_keeps_the_functions_identity(restore):
    def softsign_for_test(x):
        """The softsign function."""
        return x / (1 + do("abs", x))

    composed = compose(softsign_for_test)
    assert composed.__name__ == "softsign_for_test"
    assert composed.__doc__ == "The softsign function."
    assert composed.__wrapped__ is softsign_for_test
    assert repr(composed) == "<composed function 'softsign_for_test'>"
    renamed = compose(name="softsign_renamed_for_test")(softsign_for_test)
    assert renamed.name == "softsign_renamed_for_test"
    np.testing.assert_allclose(do("softsign_renamed_for_test", np.array([1.0])), [0.5])
    with pytest.raises(TypeError, match="needs a function"):
        compose(3)
    with pytest.raises(ValueError, match="not a valid function name"):
        compose(lambda x: x)  # '<lambda>' names nothing: name= is needed


# ---------------------------------------------------------------- argument errors


class _Thing:
    shape = (1,)
    dtype = "float64"


@pytest.mark.parametrize(
    ("call", "error", "says"),
    [
        (lambda: register_translation("numpy", "p", "sum", module=3), TypeError, "got int"),
        (lambda: register_translation("numpy", "p", 3.5), TypeError, "got float"),
        (lambda: register_translation("numpy", "p", "sum", axis=3), TypeError, "{'axis': 3}"),
        (lambda: reg.register_composed("p_for_test", 3), TypeError, "got int"),
        (lambda: register_backend(3, "p"), TypeError, "got int"),
        (lambda: register_backend(_Thing, 3), TypeError, "got int"),
        (lambda: register_backend(_Thing, "p", module=3), TypeError, "got int"),
        (lambda: register_backend(_Thing, "p", module="a b"), ValueError, "'a b'"),
        (lambda: register_backend("a b", "p"), ValueError, "'a b'"),
        (lambda: register_backend(_Thing, "_p"), ValueError, "'_p'"),
        (lambda: register_backend(_Thing, "p", priority="1"), TypeError, "got str"),
        (lambda: register_backend(_Thing, "p", priority=True), TypeError, "got bool"),
        (lambda: register_backend(_Thing, "p", priority=float("nan")), ValueError, "nan"),
        (lambda: register_backend(_Thing, "p", resolver=3), TypeError, "got int"),
        (lambda: register_function("numpy", "p", 3), TypeError, "got int 3"),
        (lambda: register_function("numpy", "p")(None), TypeError, "got None"),
        (lambda: register_function("numpy", "sum", lambda f: 3, wrap=True), TypeError, "int 3"),
        (lambda: register_function(3, "p", abs), TypeError, "got int 3"),
        (lambda: register_function("numpy", 3, abs), TypeError, "got int 3"),
        (lambda: dispatch.unregister_function("numpy", 3), TypeError, "int"),
        (lambda: get_lib_fn(3, "sum"), TypeError, "got int 3"),
        (lambda: coverage("sum"), TypeError, "pass a list of names"),
        (lambda: coverage(["sum"], "numpy"), TypeError, "pass a list of backend names"),
    ],
)
def test_bad_arguments_are_named_in_the_error(restore, call, error, says):
    with pytest.raises(error) as info:
        call()
    assert says in str(info.value)
    assert reg.USER_BACKENDS.get("p") is None  # nothing registered on the way


# ---------------------------------------------------------------- more of the same


def test_supports_tells_the_truth_about_a_native_entry_the_library_lacks(monkeypatch):
    """A ``NATIVE`` entry rules the composed fallback out: where the library has no
    such function the name is missing, and ``supports`` says so."""
    name = "batch_gather"  # a composed name numpy has no function of
    assert name in reg.composed()
    assert not hasattr(np, name)
    monkeypatch.setitem(reg.table("numpy").TABLE, name, NATIVE)
    reg.clear_caches()
    try:
        with pytest.raises(UnknownFunctionError):
            do(name, np.ones((2, 2)), np.zeros((2, 1), dtype=int))
        assert supports(name, "numpy") is None
        assert coverage([name], ["numpy"]) == {name: {"numpy": "missing"}}
    finally:
        monkeypatch.undo()
        reg.clear_caches()
    assert supports(name, "numpy") == "composed"


def test_an_inner_calls_error_names_the_outer_call_too(restore):
    @compose(name="outer_for_test")
    def outer(x):
        return do("inner_missing_for_test", x)

    with pytest.raises(UnknownFunctionError) as info:
        do("outer_for_test", np.ones(2))
    assert str(info.value).startswith("do('inner_missing_for_test')")
    assert "(raised inside dispatch.do('outer_for_test') on backend 'numpy')" in (
        getattr(info.value, "__notes__", [])
    )
    with pytest.raises(UnknownFunctionError) as info:  # its own call: no note
        do("inner_missing_for_test", np.ones(2))
    assert not getattr(info.value, "__notes__", [])


@pytest.mark.parametrize(
    ("like", "why"),
    [
        ("os.path", "'os' is not an array library, so its functions are not a backend."),
        ("subprocess", "'subprocess' is not an array library, so its functions are not a backend."),
        ("bad name!", "A backend name is a module name such as 'mylib' or 'mylib.arrays'."),
        ("nolib_xyz", "No module of that name is installed either."),
    ],
)
def test_unknown_backend_says_why(like, why):
    with pytest.raises(dispatch.UnknownBackendError) as info:
        do("zeros", 2, like=like)
    assert str(info.value).endswith(why)


def test_a_misspelt_backend_warns_once(restore):
    with pytest.warns(UserWarning, match="Did you mean 'numpy'"):
        register_function("numpyy", "first_for_test", abs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # it has a registration now: no second warning
        register_function("numpyy", "second_for_test", abs)


def test_register_translation_error_offers_no_registration(restore):
    with pytest.raises(UnknownFunctionError) as info:
        register_translation("numpy", "probe_for_test", "sumn")
    msg = str(info.value)
    assert "Did you mean 'sum'" in msg
    assert "Add one with" not in msg  # registering the missing target would not help


def test_a_python_builtin_in_a_librarys_namespace_is_refused(boxlib):
    """``exec``, ``setattr``... reached through a library module are Python's, not the
    library's: refused, whatever module they sit in."""
    import builtins

    boxlib.exec = builtins.exec
    boxlib.setattr = builtins.setattr
    register_backend(boxlib.Box, "boxlib", module="boxlib_fake")
    for name in ("exec", "setattr"):
        with pytest.raises(UnknownFunctionError) as info:
            do(name, boxlib.Box([1]))
        msg = str(info.value)
        assert msg.startswith(f"do({name!r}) on backend 'boxlib': ")
        assert f"({name!r} is a Python builtin, not a library function)" in msg


def test_pinned_keywords_accept_equal_values_and_refuse_others(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.arange(3))
    np.testing.assert_array_equal(do("load", str(path), allow_pickle=0), [0, 1, 2])
    with pytest.raises(dispatch.RefusedNameError, match="allow_pickle=True"):
        do("load", str(path), None, True)  # the pinned value given by position
    # too many positional arguments for a function without *args: numpy's own error
    with pytest.raises(TypeError, match="positional arguments"):
        do("load", str(path), None, False, True, "ASCII", 5, 6)


def test_a_module_outside_the_listed_submodules_is_refused_saying_so():
    da = pytest.importorskip("dask.array")
    with pytest.raises(dispatch.RefusedNameError) as info:
        do("core.config.set", da.ones(2))
    assert (
        "'dask.array.core' is not one of the array modules that the 'dask' table lists in "
        "SUBMODULES. dispatch resolves"
    ) in str(info.value)


@pytest.mark.parametrize(
    ("backend", "name", "reason"),
    [
        ("torch", "testing.make_tensor", "it lies in 'torch.testing' (test machinery)"),
        ("torch", "hub.load", "it lies in 'torch.hub' (model downloads)"),
        ("torch", "cuda.is_available", "it lies in 'torch.cuda' (device and backend"),
        ("numpy", "load", None),
        (
            "numpy",
            "scipy.special.orthogonal.eval_legendre",
            "'scipy.special.orthogonal' is not one of the array modules that the 'numpy' "
            "table lists in SUBMODULES",
        ),
        (
            "dask",
            "core.config.set",
            "'dask.array.core' is not one of the array modules that the 'dask' table lists in "
            "SUBMODULES",
        ),
    ],
)
def test_refusals_name_the_call_the_backend_and_the_reason(backend, name, reason, tmp_path):
    pytest.importorskip(backend)
    x = dispatch.convert(np.ones(2), backend)
    if reason is None:  # numpy.load with a pinned keyword given another value
        path = tmp_path / "a.npy"
        np.save(path, x)
        call, reason = (lambda: do(name, str(path), allow_pickle=True)), "allow_pickle=True"
    else:

        def call():
            return do(name, x)

    with pytest.raises(dispatch.RefusedNameError) as info:
        call()
    msg = str(info.value)
    head = f"do({name!r}) on backend {backend!r} is refused: "
    assert msg.startswith(head)
    assert msg[len(head) :].startswith(reason)
    assert msg.endswith(
        ". dispatch resolves a name only to an array function of the library (docs/safety.md)."
    )


# ---------------------------------------------------------------- refusal messages


@pytest.mark.parametrize(
    ("backend", "name", "reason"),
    [
        # a capability module on the way (refused before it is imported)
        ("numpy", "ctypeslib.load_library", "it lies in 'numpy.ctypeslib' (native-code loading"),
        ("numpy", "lib.npyio.load", "it lies in 'numpy.lib.npyio' (file and URL access"),
        # a module that is on the way to listed ones, but not listed itself
        (
            "numpy",
            "polynomial.Polynomial",
            "'numpy.polynomial' is not one of the array modules that the 'numpy' table "
            "lists in SUBMODULES",
        ),
        # an attribute of a class, not of a module
        (
            "torch",
            "Tensor.add_",
            "it reaches the attribute 'add_' of the _TensorMeta object 'Tensor'",
        ),
        ("torch", "hub.load", "it lies in 'torch.hub' (model downloads)"),
    ],
)
def test_a_refusal_names_the_call_the_backend_and_its_reason(backend, name, reason):
    """Every refusal of the walk says which call, on which backend, and why: the
    reason is the rule the name broke, never empty."""
    pytest.importorskip(backend)
    with pytest.raises(dispatch.RefusedNameError) as info:
        do(name, like=backend)
    message = str(info.value)
    assert message.startswith(f"do({name!r}) on backend {backend!r} is refused: {reason}")
    assert message.endswith("dispatch resolves a name only to an array function of the library "
                            "(docs/safety.md).")
