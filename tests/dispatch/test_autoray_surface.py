"""autoray's public surface exists in dispatch, with autoray's calling convention.

Compared programmatically with the installed autoray (0.11.0, from the ``bench``
extra; skipped without it): every name of ``autoray.__all__`` and of
``autoray.lazy.__all__``, the internals its clients import (``autoray.autoray``'s
namespace and alias tables, ``autoray.lazy.core``'s sharing cache), and every
parameter a client may pass by keyword.
"""

from __future__ import annotations

import inspect
import subprocess
import sys

import numpy as np
import pytest

import dispatch
import dispatch.autoray as face

autoray = pytest.importorskip("autoray")
if autoray.__version__.split("+")[0] != "0.11.0":  # the surface compared is 0.11.0's
    pytest.skip(
        f"autoray {autoray.__version__} installed, 0.11.0 compared", allow_module_level=True
    )

import autoray.autoray  # noqa: E402
import autoray.lazy  # noqa: E402
import autoray.lazy.core  # noqa: E402

# what clients reach for beyond __all__ (quimb, cotengra, PennyLane's math module)
CLIENT_INTERNALS = {
    "autoray.autoray": (
        "AutoNamespace",
        "_BACKEND_ALIASES",
        "_MODULE_ALIASES",
        "_SUBMODULE_ALIASES",
        "_FUNC_ALIASES",
        "allclose",
        "to",
        "choose_backend",
        "register_backend_alias",
        "register_module_alias",
        "register_submodule_alias",
        "register_func_alias",
    ),
    "autoray.lazy.core": (
        "lazy_cache",
        "currently_sharing",
        "get_sharing_cache",
        "hash_args_kwargs",
        "ensure_lazy",
        "find_lazy",
        "is_lazy_array",
        "LazyArray",
        "Variable",
        "Function",
        "shared_intermediates",
    ),
}


def _same_module(name: str):
    return {
        "autoray": (autoray, face),
        "autoray.lazy": (autoray.lazy, face.lazy),
    }[name]


@pytest.mark.parametrize("module", ["autoray", "autoray.lazy"])
def test_every_public_name_exists(module):
    theirs, ours = _same_module(module)
    missing = [n for n in theirs.__all__ if not hasattr(ours, n)]
    assert not missing, f"{module} names missing from dispatch: {missing}"


@pytest.mark.parametrize("module", sorted(CLIENT_INTERNALS))
def test_client_internals_exist(module):
    import importlib

    ours = importlib.import_module("dispatch." + module)
    theirs = importlib.import_module(module)
    for name in CLIENT_INTERNALS[module]:
        assert hasattr(theirs, name), f"{module}.{name} is not autoray's: update the list"
        assert hasattr(ours, name), f"{module}.{name} is missing from dispatch"


def _keyword_params(fn) -> list[str]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    return [
        p.name
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]


def _accepts(fn, names: list[str]) -> list[str]:
    sig = inspect.signature(fn)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return []
    ours = {
        p.name
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    return [n for n in names if n not in ours]


PUBLIC_CALLABLES = sorted(
    n
    for n in autoray.__all__
    if callable(getattr(autoray, n)) and not inspect.ismodule(getattr(autoray, n))
)


@pytest.mark.parametrize("name", PUBLIC_CALLABLES)
def test_calling_convention(name):
    """Each parameter autoray's function takes by name, dispatch's takes too, in the
    same order for the positional ones."""
    theirs, ours = getattr(autoray, name), getattr(face, name)
    their_params = _keyword_params(theirs)
    assert not _accepts(ours, their_params), (
        f"dispatch.{name} lacks parameters {_accepts(ours, their_params)} of autoray's"
    )
    our_params = _keyword_params(ours)
    their_positional = [
        p.name
        for p in inspect.signature(theirs).parameters.values()
        if p.kind is p.POSITIONAL_OR_KEYWORD
    ]
    assert our_params[: len(their_positional)] == their_positional or name in {"do"}, (
        f"dispatch.{name} positional parameters {our_params} differ from autoray's "
        f"{their_positional}"
    )


def test_swap_imports_a_client_module():
    """With ``autoray`` answered by dispatch.autoray, a module written against autoray's whole
    surface imports and runs (in a fresh interpreter, so nothing here leaks)."""
    code = """
import sys, numpy as np, dispatch.autoray
sys.modules.update(dispatch.autoray.modules("autoray"))
import autoray as ar
from autoray import conj, dag, do, reshape, transpose, real, imag, to, DoFunc, autojit, lazy
from autoray.lazy.core import lazy_cache
x = np.arange(6.0).reshape(2, 3) + 1j
assert dag(x).shape == (3, 2) and np.allclose(dag(x), x.conj().T)
assert reshape(real(x), (3, 2)).shape == (3, 2) and np.all(imag(x) == 1)
assert DoFunc("sum")(real(x)) == 15.0
assert ar.lazy.Variable((2,)).shape == (2,)
print("ok")
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_lazy_attribute_needs_no_import_and_import_stays_light():
    code = (
        "import sys, dispatch; light = 'dispatch.lazy' not in sys.modules; "
        "v = dispatch.lazy.Variable((2,)); "
        "print(light, [m for m in ('torch', 'jax', 'tensorflow', 'dask', 'sparse', 'scipy') "
        "if m in sys.modules])"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "True []"


@pytest.mark.parametrize("spec", ["numpy-float32", "float32-numpy", "numpy"])
def test_to_matches_autoray(spec):
    tree = {"a": np.ones((2, 2)), "i": np.arange(3), "s": [np.zeros(1, dtype="complex128"), 3]}
    ours = dispatch.to(tree, spec)
    theirs = autoray.to(tree, spec)
    for k in ("a", "i"):
        assert ours[k].dtype == theirs[k].dtype
        np.testing.assert_array_equal(ours[k], theirs[k])
    assert ours["s"][0].dtype == theirs["s"][0].dtype
    assert ours["s"][1] == 3


@pytest.fixture
def forget_composed():
    """Composed names made by a test are removed afterwards: other tests walk every
    known name (tests/properties: every name is classified)."""
    import dispatch._registry as reg

    before = set(reg.composed())
    yield
    with reg.lock:
        for name in set(reg.COMPOSED) - before:
            del reg.COMPOSED[name]
        reg.clear_caches()


def test_composed_default_fn_is_the_generic_implementation(forget_composed):
    @dispatch.compose(name="surface_twice")
    def twice(x):
        return 2 * x

    try:
        dispatch.register_function("numpy", "surface_twice", lambda x: 3 * x)
        assert twice(np.ones(1))[0] == 3.0
        assert twice._default_fn(np.ones(1))[0] == 2.0
    finally:
        dispatch.unregister_function("numpy", "surface_twice")


def test_compose_supplies_backend_and_namespace(forget_composed):
    torch = pytest.importorskip("torch")

    @dispatch.compose(name="surface_which")
    def which(x, backend=None):
        return backend

    @dispatch.compose(name="surface_nsum")
    def nsum(x, namespace=None):
        return namespace.sum(x)

    assert which(np.ones(1)) == "numpy"
    assert which(torch.ones(1)) == "torch"
    assert float(nsum(torch.arange(4.0))) == 6.0
    assert which(np.ones(1), backend="given") == "given"  # an explicit value wins
