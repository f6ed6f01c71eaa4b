"""Which objects are arrays and which backend they choose.

Nested sequences are scanned whole; a library's shapes, dtypes and devices are
parameters, not arrays; subclasses of a library's array dispatch like it; array
types nobody registered follow autoray's module rule; anything else no library
owns is refused rather than handed to numpy; Python numbers as ``like=`` mean numpy.
"""

from __future__ import annotations

import importlib
import sys
import timeit
import types

import numpy as np
import pytest
from conftest import ARRAY_BACKENDS, _usable, restored_registry, to_backend, to_np

import dispatch
from dispatch import (
    MixedBackendError,
    UnknownBackendError,
    do,
    get_namespace,
    infer_backend,
    infer_backend_multi,
)
from dispatch import _registry as reg
from dispatch._errors import short
from dispatch._infer import deep_type_set, deep_types, is_array_like

NON_NUMPY = [b for b in ARRAY_BACKENDS if b != "numpy"]


@pytest.fixture(params=NON_NUMPY)
def lib(request):
    lib_module = {"dask": "dask.array"}.get(request.param, request.param)
    if not _usable(lib_module):
        pytest.skip(f"{request.param} is not installed")
    return request.param


def _arr(backend: str, x=None):
    return to_backend(np.arange(4.0) if x is None else x, backend)


# ---------------------------------------------------------------- nested sequences


@pytest.mark.parametrize("position", [0, 255, 256, 300, 599])
@pytest.mark.parametrize("name", ["stack", "concatenate"])
def test_library_array_anywhere_in_a_sequence_decides(name, position, lib):
    """The whole sequence is looked at: an array at any position chooses the backend."""
    parts = [np.arange(2.0)] * 600
    parts[position] = _arr(lib, np.arange(2.0))
    out = do(name, parts)
    assert infer_backend(out) == lib
    np.testing.assert_allclose(to_np(out), getattr(np, name)([np.arange(2.0)] * 600))


@pytest.mark.parametrize("position", [0, 256, 300, 599])
def test_library_array_anywhere_in_a_nested_sequence_decides(position, lib):
    """``block``'s nested lists: every level and every element is looked at."""
    rows = [[np.ones(2), np.ones(2)] for _ in range(600)]
    rows[position] = [np.ones(2), _arr(lib, np.ones(2))]
    assert infer_backend_multi(rows) == lib
    assert dispatch._infer.decide(deep_types((rows,))) == lib
    assert type(rows[position][1]) in deep_type_set((rows,))


def test_nested_torch_array_at_position_300_chooses_torch():
    """The case that motivated the rule: block's nested list, the tensor beyond the
    old 256 limit."""
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    rows = [[1.0, 2.0]] * 300 + [torch.tensor([3.0, 4.0])]
    out = do("asarray", [rows[0], rows[-1]])
    assert isinstance(out, torch.Tensor)
    types_ = deep_types(([rows],))
    assert torch.Tensor in types_
    assert dispatch._infer.decide(types_) == "torch"


def test_self_containing_list_ends():
    x = [1.0]
    x.append(x)
    assert set(deep_types((x,))) == {list, float}


@pytest.mark.overhead
def test_long_numeric_nested_list_scan_is_cheap():
    """Timing, loose: the per-call scan of every element of a long nested list of
    numbers costs about what numpy's own conversion of that list costs."""
    rows = [[float(j) for j in range(1000)] for _ in range(300)]
    scan = min(timeit.repeat(lambda: deep_type_set((rows,)), number=3, repeat=5)) / 3
    conv = min(timeit.repeat(lambda: np.asarray(rows), number=3, repeat=5)) / 3
    assert scan < 2 * conv, (scan, conv)


# ---------------------------------------------------------------- shapes, dtypes, devices


def _parameters_of(backend: str) -> list:
    """Objects of the library that are parameters (shapes, dtypes, devices)."""
    if backend == "torch":
        import torch

        return [torch.Size([2, 2]), torch.float64, torch.device("cpu"), torch.finfo(torch.float32)]
    if backend == "tensorflow":
        import tensorflow as tf

        return [tf.TensorShape([2, 2]), tf.float64]
    if backend == "jax":
        import jax

        return [jax.devices()[0]]
    return []


def test_shapes_dtypes_devices_are_not_arrays(lib):
    x = np.arange(4.0)
    for p in _parameters_of(lib):
        assert dispatch._infer.backend_of_type(type(p)) is None, p
        assert not is_array_like(type(p))
        assert infer_backend(p) == lib  # the library owns it, as autoray says
        assert infer_backend_multi(x, p) == "numpy"  # an array, even numpy's, outweighs it
        assert infer_backend_multi(p, 1.0) == lib  # alone, it names its library


def test_torch_size_keeps_numpy_numpy():
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    t = torch.ones(2, 2)
    out = do("reshape", np.arange(4.0), t.shape)
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, np.arange(4.0).reshape(2, 2))
    # with nothing else in the call, the library of the shape serves it (as autoray)
    out = do("zeros", t.shape)
    assert isinstance(out, torch.Tensor)
    assert tuple(out.shape) == (2, 2)
    if _usable("jax"):
        import jax.numpy as jnp

        out = do("reshape", jnp.arange(4.0), t.shape)  # was MixedBackendError
        assert infer_backend(out) == "jax"
        np.testing.assert_array_equal(np.asarray(out), np.arange(4.0).reshape(2, 2))


def test_torch_dtype_as_argument_decides_nothing():
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    out = do("ones", 3, dtype=np.float32)
    assert isinstance(out, np.ndarray)
    out = do("astype", torch.ones(2), torch.float64)
    assert out.dtype == torch.float64


# ---------------------------------------------------------------- like= and sequences


@pytest.mark.parametrize("name", ["stack", "concatenate", "vstack", "hstack"])
def test_like_converts_numpy_arrays_inside_lists(name, lib):
    out = do(name, [np.arange(3.0), np.arange(3.0) + 1], like=lib)
    assert infer_backend(out) == lib
    np.testing.assert_allclose(to_np(out), getattr(np, name)([np.arange(3.0), np.arange(3.0) + 1]))


@pytest.mark.parametrize("like", [0.0, 0.5, 1, True, 2j, np.float32(1.0), np.int64(3)])
def test_python_and_numpy_scalars_as_like_mean_numpy(like):
    """autoray serves them with numpy (backend 'builtins')."""
    z = do("zeros", (2,), like=like)
    e = do("eye", 2, like=like)
    assert isinstance(z, np.ndarray)
    assert isinstance(e, np.ndarray)
    np.testing.assert_array_equal(z, np.zeros(2))
    np.testing.assert_array_equal(e, np.eye(2))
    # a Python number lends no dtype (numpy's default), a numpy scalar its own
    want = like.dtype if isinstance(like, np.generic) else np.zeros(2).dtype
    assert z.dtype == want
    np.testing.assert_array_equal(do("sum", [1.0, 2.0], like=like), 3.0)


def test_like_a_library_dtype_is_a_typed_error(lib):
    for p in _parameters_of(lib):
        with pytest.raises(UnknownBackendError, match="not an array of"):
            do("zeros", (2,), like=p)


@pytest.mark.parametrize("name", ["add", "stack"])
def test_two_libraries_with_like_raise_mixed_backend_error(name):
    """like= converts numpy constants only: another library's array gives the typed
    error naming it (or, where the library took it itself, the right answer)."""
    libs = [b for b in ("torch", "jax", "tensorflow") if _usable(b)]
    if len(libs) < 2:
        pytest.skip("needs two libraries")
    ref = np.stack([np.arange(4.0)] * 2) if name == "stack" else np.arange(4.0) * 2
    raised = 0
    for a in libs:
        for b in libs:
            if a == b:
                continue
            x, y = _arr(a), _arr(b)
            args = ([x, y],) if name == "stack" else (x, y)
            for like in (a, x):
                try:
                    out = do(name, *args, like=like)
                except MixedBackendError as err:
                    message = str(err)
                    raised += 1
                else:
                    np.testing.assert_allclose(to_np(out), ref)
                    continue
                assert repr(b) in message
                assert f"do({name!r}, like={short(like)})" in message  # the call as made
    assert raised  # at least the pairs whose library refuses the other's array


def test_str_subclass_name():
    class S(str):
        pass

    x = np.arange(4.0)
    for _ in range(2):
        assert do(S("sum"), x) == 6.0
        assert do(S("sum"), x, axis=0) == 6.0
        np.testing.assert_array_equal(do(S("linalg.norm"), x), np.linalg.norm(x))
        assert do(S("zeros"), 2, like=S("numpy")).shape == (2,)


# ---------------------------------------------------------------- scalars


def test_infer_backend_of_scalars_matches_autoray_where_it_can():
    """numpy scalars are numpy's (as autoray says); Python numbers give the default
    backend, a name like= accepts (autoray says 'builtins', see migrating.md)."""
    for s in (np.float64(1.0), np.int32(2), np.bool_(True), np.complex64(1j)):
        assert infer_backend(s) == "numpy"
    for s in (1.0, 2, True, 1j):
        assert infer_backend(s) == "numpy"
    if _usable("torch"):
        with dispatch.backend_like("torch"):
            assert infer_backend(1.0) == "torch"  # the default backend
            assert infer_backend(np.float64(1.0)) == "numpy"  # owned by numpy
            assert infer_backend(np.ones(2)) == "numpy"


# ---------------------------------------------------------------- subclasses


def _foreign_module_subclass(base: type, module: str) -> type:
    return type("QArray", (base,), {"__module__": module})


def test_numpy_subclass_from_another_module_is_numpy():
    """quimb's qarray: a numpy.ndarray subclass defined in quimb."""
    Q = _foreign_module_subclass(np.ndarray, "quimbish.tensor")
    q = np.arange(6.0).reshape(2, 3).view(Q)
    assert infer_backend(q) == "numpy"
    np.testing.assert_array_equal(get_namespace(q).sum(q), 15.0)
    assert get_namespace(q) is get_namespace(np.ones(2)) or repr(get_namespace(q)) == repr(
        get_namespace(np.ones(2))
    )
    np.testing.assert_array_equal(do("sum", q, axis=0), np.arange(6.0).reshape(2, 3).sum(0))
    np.testing.assert_allclose(do("linalg.norm", q), np.linalg.norm(np.arange(6.0)))
    if _usable("torch"):
        import torch

        out = do("add", q, torch.ones(2, 3, dtype=torch.float64))
        assert isinstance(out, torch.Tensor)  # still a numpy constant to torch


def test_library_subclass_from_another_module_is_that_library(lib):
    base = type(_arr(lib))
    try:
        Sub = _foreign_module_subclass(base, "userlib.arrays")
    except TypeError:
        pytest.skip(f"{base.__name__} cannot be subclassed")
    assert dispatch._infer.backend_of_type(Sub) == lib


# ---------------------------------------------------------------- unregistered types


@pytest.fixture
def mylib():
    """A library nobody registered: its array type and numpy-named functions."""
    mod = types.ModuleType("mylib_unreg")
    linalg = types.ModuleType("mylib_unreg.linalg")

    class Array:
        def __init__(self, data):
            self.data = np.asarray(data, dtype=float)

        @property
        def dtype(self):
            return self.data.dtype

        @property
        def shape(self):
            return self.data.shape

    Array.__module__ = "mylib_unreg.core"

    def sum_(a, axis=None):
        return Array(a.data.sum(axis=axis))

    def norm(a):
        return float(np.linalg.norm(a.data))

    sum_.__module__ = "mylib_unreg.core"  # the library's own functions
    norm.__module__ = "mylib_unreg.linalg"
    mod.Array, mod.sum, mod.linalg, linalg.norm = Array, sum_, linalg, norm
    sys.modules["mylib_unreg"] = mod
    sys.modules["mylib_unreg.linalg"] = linalg
    yield mod
    del sys.modules["mylib_unreg"], sys.modules["mylib_unreg.linalg"]
    reg.USER_BACKENDS.pop("mylib_unreg", None)
    reg.clear_caches()


def test_unregistered_array_type_uses_its_module(mylib):
    a = mylib.Array([[3.0, 4.0], [0.0, 0.0]])
    assert infer_backend(a) == "mylib_unreg"
    for _ in range(2):
        out = do("sum", a, axis=0)
        assert isinstance(out, mylib.Array)
        np.testing.assert_array_equal(out.data, [3.0, 4.0])
        assert do("linalg.norm", a) == 5.0
    with pytest.raises(dispatch.UnknownFunctionError):
        do("cumsum", a)  # mylib has none: an error, never numpy on the object


def test_unregistered_array_with_numpy_protocol_goes_to_numpy():
    class Wrapped:
        def __init__(self, data):
            self.data = np.asarray(data)

        dtype = property(lambda self: self.data.dtype)
        shape = property(lambda self: self.data.shape)

        def __array_function__(self, func, types, args, kwargs):
            args = [a.data if isinstance(a, Wrapped) else a for a in args]
            return func(*args, **kwargs)

    Wrapped.__module__ = "protolib"
    w = Wrapped([1.0, 2.0, 3.0])
    assert infer_backend(w) == "numpy"
    assert do("sum", w) == 6.0


@pytest.mark.parametrize("name", ["sum", "linalg.norm", "abs", "mean", "transpose"])
def test_objects_no_library_owns_are_refused(name):
    class Opaque:
        pass

    obj = Opaque()
    for _ in range(2):
        with pytest.raises(UnknownBackendError, match="no backend owns"):
            do(name, obj)
    with pytest.raises(UnknownBackendError):
        do(name, [obj, obj])


def test_values_stay_constants():
    """Python values, the standard library's, and callables decide nothing, as before."""
    from fractions import Fraction

    assert do("sum", [Fraction(1, 2), Fraction(1, 3)]) == Fraction(5, 6)
    assert do("abs", -2.0) == 2.0
    assert do("zeros", 2, dtype=None).shape == (2,)


def test_an_unregistered_librarys_array_ranks_as_a_library(mylib):
    """An array of a module nobody registered has a library's priority (0): numpy
    arrays beside it are constants that its own function receives as they are (no
    conversion: dispatch knows no ``asarray`` of it), and another library's array
    beside it is a clash, in either order, as two libraries' arrays are."""

    def add(a, b):
        return ("mylib add", type(a), type(b))

    add.__module__ = "mylib_unreg.core"
    mylib.add = add
    a = mylib.Array([1.0, 2.0])
    for _ in range(2):  # the miss, then the cached entry
        assert do("add", a, np.ones(2)) == ("mylib add", mylib.Array, np.ndarray)
        assert do("add", np.ones(2), a) == ("mylib add", np.ndarray, mylib.Array)
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    for args in [(a, torch.ones(2)), (torch.ones(2), a)]:
        with pytest.raises(MixedBackendError, match="mylib_unreg"):
            do("add", *args)


# ---------------------------------------------------------------- owners and foreign objects


def _library_objects():
    """(library, factory of one of its non-array objects): parameters of calls, from
    the library's own modules, some outside the modules its table lists in ``TYPES``
    (scipy's table is its sparse arrays; a frozen distribution is scipy's all the same)."""
    out = [
        ("numpy", lambda: np.float32(1.5)),
        ("numpy", lambda: np.dtype("float32")),
        ("numpy", lambda: np.random.default_rng(0)),
        ("scipy", lambda: importlib.import_module("scipy.stats").norm(0.0, 1.0)),
        ("scipy", lambda: importlib.import_module("scipy.spatial.transform").Rotation.identity()),
    ]
    if _usable("torch"):
        out += [
            ("torch", lambda: __import__("torch").Size([2])),
            ("torch", lambda: __import__("torch").float32),
            ("torch", lambda: __import__("torch").device("cpu")),
        ]
    if _usable("jax"):
        out += [("jax", lambda: __import__("jax").devices()[0])]
    if _usable("tensorflow"):
        out += [
            ("tensorflow", lambda: __import__("tensorflow").TensorShape([2])),
            ("tensorflow", lambda: __import__("tensorflow").float32),
        ]
    return out


@pytest.mark.parametrize(("library", "make"), _library_objects())
def test_a_librarys_other_objects_belong_to_it(library, make):
    """Any object defined in the modules of a library with a shipped table is that
    library's (its root module names the table), also where it is no array: such an
    object is a parameter, never refused as foreign, and decides no call beside an
    array of another library."""
    obj = make()
    assert infer_backend(obj) == library
    assert not dispatch._infer.foreign(type(obj))
    assert infer_backend_multi(obj, np.ones(2)) == "numpy"


class _Int(int):
    pass


def _foreign_cases():
    """(type, whether no library owns it and it is no value): the rule of ``foreign``."""
    from fractions import Fraction

    opaque = type("Opaque", (), {"__module__": "opaquelib_fake.core"})
    callable_ = type("Op", (), {"__module__": "opaquelib_fake.core", "__call__": lambda s: 0})
    value = type("Count", (int,), {"__module__": "opaquelib_fake.core"})
    own = type("Marker", (), {"__module__": "dispatch.fake_submodule"})
    nameless = type("Nameless", (), {"__module__": ""})
    cases = [
        (np.ndarray, False),  # an array
        (np.float32, False),  # a numpy scalar: numpy's
        (np.dtype("float64").__class__, False),  # numpy's dtype
        (int, False),  # Python's values
        (Fraction, False),  # the standard library's
        (_Int, False),  # a subclass of a Python value (this test module's)
        (value, False),  # likewise, in a library nobody registered
        (callable_, False),  # callables are arguments (vectorize's function)
        (own, False),  # dispatch's own objects
        (nameless, False),  # no module: nobody's, a value
        (opaque, True),  # nobody's, no array, no value: refused
    ]
    if _usable("torch"):
        import torch

        cases += [(torch.Tensor, False), (torch.Size, False), (torch.device, False)]
    return cases


@pytest.mark.parametrize(
    ("cls", "expected"), _foreign_cases(), ids=lambda v: getattr(v, "__name__", str(v))
)
def test_foreign_is_an_object_no_library_owns_and_no_value(cls, expected):
    """``foreign(cls)``: neither an array, nor a value dispatch knows (Python's and the
    standard library's, their subclasses, dispatch's objects, callables, a known
    library's non-array objects). A call that holds only such an object is refused."""
    assert dispatch._infer.foreign(cls) is expected
    if cls in (np.ndarray, np.float32) or getattr(cls, "__module__", "").startswith("torch"):
        return  # arrays and library objects decide before the rule is asked
    try:
        obj = cls()
    except TypeError:
        return
    if expected:
        with pytest.raises(UnknownBackendError, match="no backend owns an argument of type"):
            do("asarray", obj)
    else:
        assert type(do("asarray", obj)) is np.ndarray


def test_one_librarys_objects_decide_a_call_that_holds_nothing_else():
    """Without an array, a call goes to the one library whose objects (a dtype, a
    device) it holds; two libraries' objects decide nothing (the default backend)."""
    torch = pytest.importorskip("torch")
    tf = pytest.importorskip("tensorflow")
    assert infer_backend_multi(torch.float32, 3) == "torch"
    assert infer_backend_multi(torch.float32, torch.device("cpu")) == "torch"
    assert infer_backend_multi(tf.float32) == "tensorflow"
    assert infer_backend_multi(torch.float32, tf.float32) == "numpy"
    with dispatch.backend_like("torch"):
        assert infer_backend_multi(torch.float32, tf.float32) == "torch"
    # an array outweighs them all, numpy's included
    assert infer_backend_multi(torch.float32, np.ones(2)) == "numpy"


def test_backends_below_zero_never_clash():
    """Two backends of one negative priority (constants, such as numpy's arrays) in
    one call are no error: the first decides; at 0 and above they clash."""
    from dispatch._infer import decide

    low = type("LowArray", (), {"__module__": "lowlib_fake", "dtype": None, "shape": ()})
    high = type("HighArray", (), {"__module__": "highlib_fake", "dtype": None, "shape": ()})
    try:
        dispatch.register_backend(low, "lowlib_fake", priority=-1)
        dispatch.register_backend(high, "highlib_fake", priority=0)
        assert decide([np.ndarray, low]) == "numpy"
        assert decide([low, np.ndarray]) == "lowlib_fake"
        assert decide([low, high, np.ndarray]) == "highlib_fake"
        if _usable("torch"):
            import torch

            with pytest.raises(MixedBackendError, match=r"do\('probe'\): arrays of 'highlib_fake'"):
                decide([high, torch.Tensor], "probe")
    finally:
        with reg.lock:
            for cls, name in ((low, "lowlib_fake"), (high, "highlib_fake")):
                reg.USER_TYPES.pop(cls, None)
                reg.USER_BACKENDS.pop(name, None)
            reg.clear_caches()


def _fake_library(monkeypatch, root: str) -> types.ModuleType:
    """An installed-looking module ``root`` with a ``sum`` of its own."""
    mod = types.ModuleType(root)

    def total(x):
        return f"{root} sum"

    total.__module__ = root
    mod.sum = total
    monkeypatch.setitem(sys.modules, root, mod)
    return mod


@pytest.fixture
def forget_implicit():
    """Drop the implicit backends a test's objects created."""
    with restored_registry():
        yield


def test_a_callable_array_is_an_array_not_a_function(monkeypatch, forget_implicit):
    """Callables are arguments (``vectorize``'s function), but an array type that also
    defines ``__call__`` (a parametrized array, a lazy node) is still its library's
    array and decides the call."""
    _fake_library(monkeypatch, "calllib_fake")
    attrs = {"__module__": "calllib_fake", "dtype": "float64", "shape": (2,)}
    CallArray = type("CallArray", (), {**attrs, "__call__": lambda self, *a: self})
    assert infer_backend(CallArray()) == "calllib_fake"
    assert do("sum", CallArray()) == "calllib_fake sum"
    Plain = type("Plain", (), {"__module__": "calllib_fake", "__call__": lambda self: 0})
    assert dispatch.is_array(CallArray())
    assert not dispatch.is_array(Plain())
    # where no backend takes it (a private module), such an array is foreign, while a
    # plain callable is an argument
    from dispatch._infer import foreign

    hidden = {"__module__": "_calllib_hidden", "__call__": lambda self: 0}
    assert foreign(type("HiddenArray", (), {**hidden, "dtype": "float64", "shape": (2,)}))
    assert not foreign(type("HiddenCallable", (), hidden))


def test_a_class_whose_attribute_lookup_raises_is_no_array(monkeypatch, forget_implicit):
    """Asking a class for ``shape`` may raise anything (a metaclass property): such a
    type is no array, so its objects are refused as foreign, never made a backend."""
    _fake_library(monkeypatch, "oddlib_fake")

    class Meta(type):
        @property
        def shape(cls):
            raise RuntimeError("no shape on the class")

        ndim = property(lambda cls: 1)

    Odd = Meta("Odd", (), {"__module__": "oddlib_fake"})
    assert infer_backend(Odd()) == dispatch.get_backend()
    with pytest.raises(UnknownBackendError, match=r"oddlib_fake\.Odd"):
        do("sum", Odd())
    assert "oddlib_fake" not in reg.USER_BACKENDS


@pytest.mark.parametrize("root", ["json", "collections", "dispatch"])
def test_like_an_object_of_the_standard_library_or_dispatch_names_no_backend(root, forget_implicit):
    """``like=`` an array-like object of an unregistered installed library names that
    library (autoray's module rule); the standard library and dispatch itself are
    never such a library, whatever their objects look like."""
    importlib.import_module(root)
    Shaped = type("Shaped", (), {"__module__": root, "shape": (2,), "ndim": 1})
    with pytest.raises(UnknownBackendError, match="Shaped"):
        do("zeros", (2,), like=Shaped())
    assert root not in reg.USER_BACKENDS


def test_like_an_object_of_an_unregistered_library_names_it(monkeypatch, forget_implicit):
    """The positive side of the rule above: the library's own functions serve the call."""
    _fake_library(monkeypatch, "likelib_fake")
    Shaped = type("Shaped", (), {"__module__": "likelib_fake", "shape": (2,), "ndim": 1})
    assert do("sum", [1, 2], like=Shaped()) == "likelib_fake sum"


def test_a_module_prefix_claims_its_arrays_not_subclasses_of_another_librarys(forget_implicit):
    """``register_backend("pennylanish", "autograd")`` (autoray's backend alias): the
    module's own array types are autograd's, but its subclass of ``numpy.ndarray``
    stays numpy's, as every subclass of a library's array does, until the class
    itself is registered."""
    Own = type("Own", (), {"__module__": "prefixlib_fake.core", "dtype": None, "shape": ()})
    Sub = _foreign_module_subclass(np.ndarray, "prefixlib_fake.numpy")
    try:
        dispatch.register_backend("prefixlib_fake", "prefixlib_fake")
        assert infer_backend(Own()) == "prefixlib_fake"
        sub = np.arange(3.0).view(Sub)
        assert infer_backend(sub) == "numpy"
        np.testing.assert_array_equal(do("cumsum", sub), [0.0, 1.0, 3.0])
        dispatch.register_backend(Sub, "prefixlib_fake")
        assert infer_backend(sub) == "prefixlib_fake"
    finally:
        with reg.lock:
            reg.USER_TYPES.pop("prefixlib_fake", None)
            reg.USER_TYPES.pop(Sub, None)
            reg.clear_caches()


def test_like_an_object_whose_class_lookup_raises_names_no_backend(monkeypatch, forget_implicit):
    """``like=`` an object of an installed library whose class raises on attribute
    lookup (a metaclass property) is refused as an unknown type, never made a backend."""
    _fake_library(monkeypatch, "oddlike_fake")

    class Meta(type):
        @property
        def shape(cls):
            raise RuntimeError("no shape on the class")

    Odd = Meta("Odd", (), {"__module__": "oddlike_fake"})
    with pytest.raises(UnknownBackendError, match="no backend owns that type"):
        do("zeros", (2,), like=Odd())
    assert "oddlike_fake" not in reg.USER_BACKENDS


def test_decide_names_no_backend_when_no_argument_decides():
    """``decide`` answers None (not a falsy name) when no type decides: Python values,
    and nothing at all; numpy's arrays decide when nothing else does."""
    from dispatch._infer import decide

    assert decide([]) is None
    assert decide([int, float, str]) is None
    assert decide([np.ndarray, int]) == "numpy"


@pytest.mark.parametrize("blocked", ["cupy", "paddle", "mlx"])
def test_a_library_blocked_in_sys_modules_is_not_installed(mylib, monkeypatch, blocked):
    """``sys.modules[name] = None`` blocks an import (a test harness, an embedded
    interpreter): the library counts as not installed, and inference over the shipped
    tables goes on without it instead of failing on its table's import."""
    for name in [m for m in sys.modules if m == blocked or m.startswith(blocked + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, blocked, None)
    reg.clear_caches()
    try:
        assert not reg.library_loaded(blocked)
        assert not reg.module_findable(blocked)
        a = mylib.Array([[3.0, 4.0], [0.0, 0.0]])
        assert infer_backend(a) == "mylib_unreg"
        np.testing.assert_array_equal(do("sum", a, axis=0).data, [3.0, 4.0])
    finally:
        reg.clear_caches()


def test_an_inferred_library_is_a_known_backend_from_then_on(mylib):
    """Once an array of an unregistered library has been met, the library is one of
    the backends: coverage lists it, and a misspelt ``like=`` suggests it."""
    assert "mylib_unreg" not in dispatch.coverage(["sum"])["sum"]
    infer_backend(mylib.Array([1.0]))
    assert dispatch.coverage(["sum"])["sum"]["mylib_unreg"] == "native"
    with pytest.raises(dispatch.UnknownBackendError, match="Did you mean 'mylib_unreg'"):
        do("zeros", 2, like="mylib_unre")
