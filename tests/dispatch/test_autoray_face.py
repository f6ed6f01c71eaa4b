"""The autoray face (``dispatch.autoray``): its surface, each of its departures from
``dispatch.do`` against numpy, and that ``dispatch.do`` is left as it was."""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest
from conftest import _usable

import dispatch
import dispatch.autoray as ar
from dispatch.autoray import _departures

ARRAY_BACKENDS = [b for b in ("numpy", "torch", "jax", "tensorflow", "dask") if _usable(b)]


def _on(backend: str, x: np.ndarray):
    return dispatch.do("asarray", x, like=backend)


# ---------------------------------------------------------------- the surface


def test_public_names_are_autorays():
    autoray = pytest.importorskip("autoray")
    assert set(ar.__all__) == set(autoray.__all__)
    missing = [n for n in autoray.__all__ if not hasattr(ar, n)]
    assert not missing


def test_every_submodule_is_the_face_module_under_its_autoray_name():
    entries = ar.modules("autoray_face_probe")
    assert entries["autoray_face_probe"] is ar
    for sub in ar.SUBMODULES:
        mod = importlib.import_module(f"dispatch.autoray.{sub}")
        assert entries[f"autoray_face_probe.{sub}"] is mod
    assert ar.autoray.do is ar.do
    assert ar.lazy.LazyArray is dispatch.lazy.LazyArray


def test_swap_runs_a_client_in_a_fresh_interpreter():
    code = """
import sys, numpy as np, dispatch.autoray
sys.modules.update(dispatch.autoray.modules("autoray"))
import autoray as ar, autoray.lazy, autoray.autoray
from autoray.lazy.linalg import qr
from autoray.autoray import AutoNamespace
assert ar is dispatch.autoray and ar.autoray is dispatch.autoray.autoray
x = ar.lazy.Variable((4, 3))
q, r = qr(x)
assert q.shape == (4, 3) and r.shape == (3, 3)
assert ar.do("linalg.svd", np.ones((4, 2)))[0].shape == (4, 2)
print("ok")
"""
    import subprocess

    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


# ---------------------------------------------------------------- departures


@pytest.mark.parametrize("backend", ARRAY_BACKENDS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 3)])
def test_svd_is_thin_by_default_and_do_keeps_numpys_full(backend, shape):
    x = np.random.default_rng(0).normal(size=shape)
    u, s, vh = ar.do("linalg.svd", _on(backend, x))
    eu, es, evh = np.linalg.svd(x, full_matrices=False)
    assert dispatch.shape(u) == eu.shape
    assert dispatch.shape(vh) == evh.shape
    np.testing.assert_allclose(dispatch.to_numpy(s), es, rtol=1e-10)
    recon = dispatch.to_numpy(u) * dispatch.to_numpy(s)[..., None, :] @ dispatch.to_numpy(vh)
    np.testing.assert_allclose(recon, x, atol=1e-10)
    full = ar.do("linalg.svd", _on(backend, x), full_matrices=True)
    assert dispatch.shape(full[0]) == np.linalg.svd(x)[0].shape
    assert (
        dispatch.shape(dispatch.do("linalg.svd", _on(backend, x))[0]) == np.linalg.svd(x)[0].shape
    )


@pytest.mark.parametrize("backend", ARRAY_BACKENDS)
def test_defaults_apply_with_like_too(backend):
    x = np.ones((4, 2))
    assert dispatch.shape(ar.do("linalg.svd", x, like=backend)[0]) == (4, 2)
    assert dispatch.shape(ar.do("linalg.svd", _on(backend, x), like=_on(backend, x))[0]) == (4, 2)


@pytest.mark.parametrize(
    "value", [1, 2.0, 1j, True, None, [0.0, 1.0], [[1.0]], (1, 2), "s"], ids=repr
)
def test_python_values_are_builtins(value):
    assert ar.infer_backend(value) == "builtins"
    assert dispatch.infer_backend(value) == "numpy"  # do's documented answer stays


@pytest.mark.parametrize("backend", ARRAY_BACKENDS)
def test_array_backends_are_the_engines(backend):
    x = _on(backend, np.ones(2))
    assert ar.infer_backend(x) == dispatch.infer_backend(x) == backend
    assert ar.infer_backend_multi(1.0, x) == backend
    assert ar.infer_backend_multi(1.0, 2) == "builtins"


@pytest.mark.parametrize(("name", "args"), [("zeros", ((2,),)), ("eye", (2,)), ("ones", ((1, 2),))])
def test_like_builtins_is_numpy(name, args):
    np.testing.assert_array_equal(ar.do(name, *args, like="builtins"), getattr(np, name)(*args))
    np.testing.assert_array_equal(ar.do(name, *args, like=2.0), getattr(np, name)(*args))


def _two_libraries():
    pytest.importorskip("torch")
    pytest.importorskip("jax")
    import jax.numpy as jnp
    import torch

    return torch.arange(3.0), jnp.arange(3.0)


def test_mixed_libraries_the_first_argument_decides():
    t, j = _two_libraries()
    with pytest.raises(dispatch.MixedBackendError):
        dispatch.do("concatenate", [t, j])
    # autoray's rule: the first argument's library is called (it converts what it can)
    out = ar.do("multiply", t, np.asarray(j))
    assert ar.infer_backend(out) == "torch"
    with pytest.raises(dispatch.MixedBackendError):
        dispatch.do("add", t, j)
    try:
        got = ar.do("add", t, j)
    except TypeError:  # torch's own refusal of a jax array: the library decided
        return
    assert ar.infer_backend(got) == "torch"


@pytest.mark.parametrize("backend", ARRAY_BACKENDS)
def test_a_sequence_first_goes_to_numpy_unless_the_name_takes_sequences(backend):
    x = _on(backend, np.arange(4.0))
    out = ar.do("reshape", (x, x), (4, 2))
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, np.reshape((np.arange(4.0),) * 2, (4, 2)))
    assert ar.infer_backend(ar.do("stack", (x, x))) == backend


def test_keywords_only_the_library_takes_reach_its_function():
    torch = pytest.importorskip("torch")
    t = torch.tensor([-3.5, 1.5, 7.0])
    expected = torch.div(t, 2, rounding_mode="floor")
    assert torch.equal(ar.do("div", t, 2, rounding_mode="floor"), expected)
    assert torch.equal(
        ar.do("divide", t, 2, rounding_mode="trunc"), torch.div(t, 2, rounding_mode="trunc")
    )
    with pytest.raises(TypeError):  # do keeps numpy's signature
        dispatch.do("div", t, 2, rounding_mode="floor")
    # numpy's keywords still take the engine's implementation
    np.testing.assert_array_equal(ar.do("sum", np.ones((2, 2)), axis=0), [2.0, 2.0])


def test_no_grad_is_the_librarys_context_manager():
    torch = pytest.importorskip("torch")
    t = torch.ones(2, requires_grad=True)
    with ar.do("no_grad", like=t):
        assert not (t * 2).requires_grad
    with ar.do("no_grad", like="torch"):
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    with pytest.raises(dispatch.RefusedNameError):
        dispatch.do("no_grad", like=t)


def test_copyto_writes_into_its_first_argument_on_the_face_only():
    dst, src = np.zeros(3), np.arange(3.0)
    ar.do("copyto", dst, src)
    np.testing.assert_array_equal(dst, src)
    with pytest.raises(dispatch.RefusedNameError):
        dispatch.do("copyto", np.zeros(3), src)


@pytest.mark.parametrize("name", sorted(_departures.PASS_THROUGH))
def test_every_pass_through_name_has_a_reason_and_is_refused_by_do(name):
    assert _departures.PASS_THROUGH[name]
    with pytest.raises(dispatch.DispatchError):
        dispatch.do(name, np.zeros(2), np.zeros(2))


def test_complex_of_float64_parts_on_mlx_is_mlxs_complex64_on_the_face_only():
    """mlx has no complex128: dispatch.do refuses float64 parts with the reason, while
    autoray's complex(re, im) is mlx's re + 1j * im (complex64), built so in every
    complex mlx case of autoray's own tests."""
    mx = pytest.importorskip("mlx.core")
    re, im = (dispatch.do("asarray", np.array(v), like="mlx") for v in ([1.0, 2.0], [3.0, 4.0]))
    assert re.dtype == mx.float64
    for out in (ar.do("complex", re, im), ar.do("complex", re, im, like="mlx"),
                ar.do("complex", re, im, like=re)):
        assert out.dtype == mx.complex64
        np.testing.assert_allclose(np.array(out), [1 + 3j, 2 + 4j])
    with pytest.raises(TypeError, match="mlx has no complex128"):
        dispatch.do("complex", re, im)


# ---------------------------------------------------------------- random.array


@pytest.mark.parametrize("backend", ARRAY_BACKENDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("dist", ["normal", "uniform", "rademacher"])
def test_random_array(backend, dtype, dist):
    x = ar.do("random.array", (300, 4), dist=dist, dtype=dtype, rng=7, like=backend)
    y = ar.do("random.array", (300, 4), dist=dist, dtype=dtype, rng=7, like=backend)
    assert ar.infer_backend(x) == backend
    assert dispatch.get_dtype_name(x) == dtype
    xn = dispatch.to_numpy(x)
    assert xn.shape == (300, 4)
    np.testing.assert_array_equal(xn, dispatch.to_numpy(y))  # one seed, one sample
    if dist == "rademacher":
        np.testing.assert_allclose(np.abs(xn), 1.0, rtol=1e-6)
    elif dist == "uniform":
        assert (xn.real >= 0).all()
        assert (xn.real < 1).all()
    else:
        assert abs(np.mean(np.abs(xn) ** 2) - 1.0) < 0.2  # unit total variance
    z = ar.do("random.array", (3,), dist=dist, loc=2.0, scale=3.0, dtype=dtype, rng=7, like=backend)
    w = ar.do("random.array", (3,), dist=dist, dtype=dtype, rng=7, like=backend)
    np.testing.assert_allclose(dispatch.to_numpy(z), 2.0 + 3.0 * dispatch.to_numpy(w), rtol=1e-5)


@pytest.mark.parametrize("backend", ARRAY_BACKENDS)
def test_random_array_takes_likes_dtype_and_the_generators_backend(backend):
    like = _on(backend, np.ones(2, dtype="float32"))
    x = ar.do("random.array", (2, 3), like=like)
    assert dispatch.get_dtype_name(x) == "float32"
    assert ar.infer_backend(x) == backend
    rng = dispatch.do("random.default_rng", 3, like=backend)
    assert ar.infer_backend(ar.do("random.array", (2,), rng=rng)) == backend
    assert dispatch.get_dtype_name(ar.get_namespace(like).random.array((2,))) == "float32"
    with pytest.raises(ValueError, match="cauchy"):
        ar.do("random.array", (2,), dist="cauchy", like=backend)


# ---------------------------------------------------------------- one engine, one cache


def test_registrations_reach_the_face_and_clear_its_cache():
    x = np.arange(3.0)
    assert ar.do("sum", x) == 3.0
    dispatch.register_function("numpy", "sum", lambda a, **k: "registered")
    try:
        assert ar.do("sum", x) == "registered" == dispatch.do("sum", x)
    finally:
        dispatch.unregister_function("numpy", "sum")
    assert ar.do("sum", x) == 3.0


def test_clear_caches_empties_the_faces_cache():
    from dispatch import _registry as reg

    ar.do("sum", np.ones(2))  # one argument, two, three, and with a keyword
    ar.do("add", np.ones(2), np.ones(2))
    ar.do("where", np.ones(2) > 0, np.ones(2), np.ones(2))
    ar.do("sum", np.ones(2), axis=0)
    assert reg.FACE_CALLS1["sum"]
    assert reg.FACE_CALLS2["add"]
    assert [k[0] for k in reg.FACE_CALLS].count("where") == 1
    dispatch.clear_caches()
    assert not reg.FACE_CALLS1
    assert not reg.FACE_CALLS2
    assert not reg.FACE_CALLS


def test_testing_assertions_are_served_and_the_rest_of_the_module_refused():
    ar.do("testing.assert_allclose", np.ones(2), np.ones(2) + 1e-9)
    with pytest.raises(AssertionError):
        dispatch.do("testing.assert_array_equal", np.ones(2), np.zeros(2))
    for name in (
        "testing.extbuild.build_and_import_extension",
        "testing.runstring",
        "testing.measure",
    ):
        with pytest.raises(dispatch.DispatchError):
            dispatch.do(name, "x", like="numpy")
    if _usable("torch"):
        import torch

        dispatch.do("testing.assert_close", torch.ones(2), torch.ones(2))
        with pytest.raises(dispatch.DispatchError):
            dispatch.do("testing.make_tensor", (2,), like="torch")


# ---------------------------------------------------------------- autoray's names


def test_lazy_arrays_are_autoray_lazy_and_like_takes_the_name():
    z = dispatch.lazy.Variable((2, 3))
    assert ar.infer_backend(z) == "autoray.lazy"
    assert ar.infer_backend_multi(1.0, np.ones(1), z) == "autoray.lazy"
    assert dispatch.infer_backend(z) == "lazy"  # do's name stays
    out = ar.do("sum", z, like=ar.infer_backend(z))
    assert ar.infer_backend(out) == "autoray.lazy"


def test_a_class_no_library_owns_is_its_modules_backend():
    class Foo:
        pass

    Foo.__module__ = "somelib.sub"
    assert ar.infer_backend(Foo()) == "somelib"


@pytest.mark.parametrize("backend", ARRAY_BACKENDS)
def test_a_namespace_is_one_object_and_sees_later_registrations(backend):
    xp = ar.get_namespace(like=backend)
    assert ar.get_namespace(like=backend) is xp
    x = _on(backend, np.ones(3))
    assert float(dispatch.to_numpy(xp.sum(x))) == 3.0
    dispatch.register_function(backend, "sum", lambda a, **k: "registered")
    try:
        assert xp.sum(x) == "registered"
    finally:
        dispatch.unregister_function(backend, "sum")
    assert float(dispatch.to_numpy(xp.sum(x))) == 3.0


def test_a_namespace_walks_scipys_submodules_to_their_functions():
    """``xp.scipy.sparse.linalg.gmres``: every step is a sub-namespace, as in autoray
    (quimb's fitting reaches its solvers so; ``scipy.sparse`` was a function)."""
    xp = ar.get_namespace(like=np.ones(2))
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    b = np.array([1.0, 2.0])
    for path in ("scipy.sparse.linalg.gmres", "scipy.sparse.linalg.cg"):
        fn = xp
        for part in path.split("."):
            fn = getattr(fn, part)
        x, info = fn(a, b, rtol=1e-12)
        assert info == 0
        np.testing.assert_allclose(a @ x, b, rtol=1e-8)
    assert float(xp.scipy.special.erf(0.0)) == 0.0


# ---------------------------------------------------------------- module aliases, shipped libraries

WRAPPER = '''
"""A module that wraps autograd.numpy, as pennylane.numpy does: it records each call."""
import autograd.numpy as anp
from autograd.numpy import *  # noqa: F403
from autograd.numpy import linalg

CALLS = []


def sin(x):
    CALLS.append("sin")
    return anp.sin(x)


def cos(x):
    CALLS.append("cos")
    return anp.cos(x)
'''


@pytest.fixture
def wrapped_autograd(tmp_path, monkeypatch):
    """autoray's ``_MODULE_ALIASES["autograd"]`` set to a module that wraps autograd.numpy
    (PennyLane sets it to ``pennylane.numpy``), and set back after the test."""
    autograd = pytest.importorskip("autograd")
    # a walk into autograd's modules before the alias: what it learnt of the table's
    # safety rules must not outlive the redirection
    autograd.grad(lambda m: ar.do("linalg.det", m))(np.eye(2))
    (tmp_path / "wrapnp_probe.py").write_text(WRAPPER)
    monkeypatch.syspath_prepend(str(tmp_path))
    wrapper = importlib.import_module("wrapnp_probe")
    ar.autoray._MODULE_ALIASES["autograd"] = "wrapnp_probe"
    try:
        yield wrapper
    finally:
        ar.autoray._MODULE_ALIASES["autograd"] = "autograd.numpy"
        sys.modules.pop("wrapnp_probe", None)


def test_a_module_alias_of_a_shipped_library_is_where_its_plain_names_are_found(
    wrapped_autograd,
):
    """A box's ``sin`` is the wrapper's (on both faces: one engine); gradients flow; the
    table's own entries still win, and the library's submodules stay reachable below
    the wrapper; setting the alias back restores the library's own module."""
    import autograd

    x = np.array([0.0, 1.0, 2.0])
    g = autograd.grad(lambda v: ar.do("sum", ar.do("sin", v)))(x)
    np.testing.assert_allclose(g, np.cos(x))
    assert wrapped_autograd.CALLS == ["sin"]
    g = autograd.grad(lambda v: dispatch.do("sum", dispatch.do("cos", v)))(x)
    np.testing.assert_allclose(g, -np.sin(x))
    assert wrapped_autograd.CALLS == ["sin", "cos"]
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    g = autograd.grad(lambda m: ar.do("linalg.det", m))(a)
    np.testing.assert_allclose(g, np.linalg.det(a) * np.linalg.inv(a).T)
    ar.autoray._MODULE_ALIASES["autograd"] = "autograd.numpy"
    autograd.grad(lambda v: ar.do("sum", ar.do("sin", v)))(x)
    assert wrapped_autograd.CALLS == ["sin", "cos"]  # autograd.numpy's own again


def test_autorays_default_module_aliases_leave_dispatchs_tables_alone():
    """autoray's own entries for libraries with a table (tensorflow -> its experimental
    numpy) are autoray's translations, not applied: tensorflow's names stay tensorflow's."""
    from dispatch import _registry as reg

    assert ar.autoray._MODULE_ALIASES["tensorflow"] == "tensorflow.experimental.numpy"
    assert "tensorflow" not in reg.ROOTS
    assert "autograd" not in reg.ROOTS


# ---------------------------------------------------------------- set_backend: autoray's override


@pytest.fixture
def unforced():
    """Every test below starts and ends with no backend forced, in every thread."""
    assert ar.get_backend() is None
    yield
    ar.set_backend(None)
    from dispatch.autoray import _face

    assert not _face._FORCED
    assert not _face._FORCING


@pytest.mark.parametrize("backend", [b for b in ARRAY_BACKENDS if b != "numpy"])
def test_a_forced_backend_decides_every_call_of_the_face_only(unforced, backend):
    x = np.arange(6.0).reshape(2, 3)
    ar.set_backend(backend)
    assert ar.get_backend() == backend
    # the numpy argument goes to the forced library, converted as like= converts it
    out = ar.do("sum", x, axis=0)
    assert ar.infer_backend(out) == backend
    np.testing.assert_allclose(ar.to_numpy(out), x.sum(axis=0))
    assert ar.infer_backend(ar.do("ones", (2,))) == backend
    assert ar.autoray.choose_backend("sum", x) == backend
    # an explicit like= still wins, and dispatch.do keeps its own rule
    assert type(ar.do("sum", x, like="numpy")) is np.float64
    assert isinstance(dispatch.do("sum", x), np.floating)
    assert dispatch.get_backend() == "numpy"
    ar.set_backend(None)
    assert ar.get_backend() is None
    assert isinstance(ar.do("sum", x), np.floating)


def test_set_backend_takes_any_name_and_an_example_array(unforced):
    ar.set_backend("not_a_library")
    assert ar.get_backend() == "not_a_library"
    with pytest.raises(dispatch.DispatchError, match="not_a_library"):
        ar.do("sum", np.ones(2))
    ar.set_backend(np.ones(2))
    assert ar.get_backend() == "numpy"
    ar.set_backend(1.0)
    assert ar.get_backend() == "builtins"
    assert type(ar.do("sum", np.ones(2))) is np.float64


def test_backend_like_restores_the_previous_one_even_on_error(unforced):
    with ar.backend_like("numpy"):
        assert ar.get_backend() == "numpy"
        seen = []

        def fails():
            with ar.backend_like("builtins"):
                seen.append(ar.get_backend())
                raise ZeroDivisionError

        with pytest.raises(ZeroDivisionError):
            fails()
        assert seen == ["builtins"]
        assert ar.get_backend() == "numpy"
    assert ar.get_backend() is None


def test_a_threads_own_backend_wins_over_the_global_one_and_stays_in_it(unforced):
    import threading

    seen = {}

    def worker():
        seen["inherited"] = (ar.get_backend(), ar.autoray.choose_backend("sum", 1.0))
        with ar.backend_like("builtins"):  # not the importing thread: this thread's
            seen["own"] = (ar.get_backend(), ar.get_backend(get_globally=True))
        seen["after"] = ar.get_backend()

    with ar.backend_like("numpy"):  # the importing thread: global
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert ar.get_backend() == "numpy"
    assert seen == {"inherited": (None, "numpy"), "own": ("builtins", "numpy"), "after": None}
