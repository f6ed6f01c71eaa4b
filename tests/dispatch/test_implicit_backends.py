"""Libraries that nobody registered: autoray's module rule, as ``do`` meets them.

An array of an installed library that has no table and no ``register_backend``
(``mylib.Array``) makes ``mylib`` a backend whose functions are its module's
attributes, whether it is met as an argument or as ``like=`` (``_infer.implicit_backend``).
From then on it is a backend like a registered one: listed, found by registrations
that name a function by alias, shown in ``coverage``. A backend name known only by
its registrations (the module is not installed) is accepted by ``like=`` too.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from conftest import restored_registry

import dispatch
from dispatch import _registry as reg
from dispatch import do, register_function

ROOT = "implib_fake"


@pytest.fixture
def implib(monkeypatch):
    """An installed-looking library ``implib_fake``: an array type with a dtype and a
    shape, a container with a shape alone (no dtype: no argument decides by it, but
    ``like=`` may name its library), and a ``total`` function. The registries are
    put back afterwards."""
    mod = types.ModuleType(ROOT)

    class Array:
        def __init__(self, data):
            self.data = np.asarray(data, dtype=float)

        dtype = property(lambda self: self.data.dtype)
        shape = property(lambda self: self.data.shape)

    class Grid:
        shape = (2,)

    def total(x, axis=None):
        return ("implib total", float(np.sum(x.data if isinstance(x, Array) else x)))

    for obj in (Array, Grid, total):
        obj.__module__ = ROOT
    mod.Array, mod.Grid, mod.total = Array, Grid, total
    monkeypatch.setitem(sys.modules, ROOT, mod)
    with restored_registry():
        reg.clear_caches()
        yield mod


MEETINGS = {
    "an argument": lambda lib: do("total", lib.Array([1.0, 2.0])),
    "like= an example": lambda lib: do("total", np.ones(2), like=lib.Grid()),
    "get_namespace": lambda lib: dispatch.get_namespace(lib.Grid()),
}


@pytest.mark.parametrize("meeting", list(MEETINGS))
def test_a_library_met_once_is_a_known_backend(implib, meeting):
    """However the library is first met, it is listed among the backends (and
    nothing else is added), and ``coverage`` reports on it."""
    before = set(reg.known_backends())
    MEETINGS[meeting](implib)
    assert set(reg.known_backends()) - before == {ROOT}
    assert dispatch.coverage(["sum"])["sum"][ROOT] == "missing"


@pytest.mark.parametrize("meeting", list(MEETINGS))
def test_a_library_met_once_takes_registrations_by_alias(implib, meeting):
    """``register_function(lib, name, alias=...)`` finds the library's own function of
    another name in the library's module, as for ``register_backend(type, lib)``."""
    MEETINGS[meeting](implib)
    register_function(ROOT, "sum", alias="total")
    assert do("sum", implib.Array([1.0, 2.0])) == ("implib total", 3.0)
    assert do("sum", [1.0, 2.0], like=ROOT) == ("implib total", 3.0)


@pytest.mark.parametrize("like", [ROOT + "_absent", "implib_fake_absent.sub"])
def test_a_backend_known_by_its_registrations_alone_is_a_like_name(implib, like):
    """No module of that name is installed, but a function is registered on it: like=
    names it (cold and warm), and only the registered function is there."""
    register_function(like, "sum", lambda x: ("registered", float(np.sum(x))))
    for _ in range(2):
        assert do("sum", np.ones(3), like=like) == ("registered", 3.0)
    with pytest.raises(dispatch.DispatchError, match=r"do\('prod'"):
        do("prod", np.ones(3), like=like)
