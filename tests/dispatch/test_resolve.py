"""The miss path (``dispatch/_resolve.py``): which names a backend knows, and what a
refusal says.

``known_names(backend)`` is the pool of suggestions, of a namespace's ``dir()`` and of
``coverage()``: a backend's own registrations and table entries, the composed
fallbacks and the vocabulary, never another backend's registrations.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import _usable

import dispatch
from dispatch import _registry as reg
from dispatch import do, register_function, unregister_function
from dispatch._resolve import known_names

NAME = "frobnicate_probe"


@pytest.fixture
def on_numpy():
    """``frobnicate_probe`` (and ``probesub.frobnicate``) registered on numpy alone."""
    register_function("numpy", NAME, lambda x: "frobnicated")
    register_function("numpy", "probesub.frobnicate", lambda x: "sub-frobnicated")
    yield
    unregister_function("numpy", NAME)
    unregister_function("numpy", "probesub.frobnicate")


def test_a_registration_is_a_known_name_of_its_backend_only(on_numpy):
    assert NAME in known_names("numpy")
    assert "probesub.frobnicate" in known_names("numpy")
    assert NAME in known_names()  # every backend's
    other = "torch" if _usable("torch") else "dask"
    assert NAME not in known_names(other)


def test_a_registered_name_is_suggested_for_a_typo_on_its_backend(on_numpy):
    with pytest.raises(dispatch.UnknownFunctionError, match=f"Did you mean '{NAME}'"):
        do("frobnicate_prob", np.ones(2))


def test_a_namespace_lists_its_backends_registrations(on_numpy):
    """``dir()`` of a backend's namespace holds the names registered on it (and the
    first part of a dotted one), not those registered on another backend."""
    ns = dispatch.get_namespace("numpy")
    assert NAME in dir(ns)
    assert "probesub" in dir(ns)
    assert ns.probesub.frobnicate(1) == "sub-frobnicated"
    if _usable("torch"):
        assert NAME not in dir(dispatch.get_namespace("torch"))


def test_coverage_lists_every_backends_registrations(on_numpy):
    row = dispatch.coverage(None, ["numpy"])[NAME]
    assert row == {"numpy": "registered"}


def test_a_loaded_tables_names_are_known_names_of_that_backend():
    """Every entry of a backend's table is one of its known names once the table is
    loaded (a name only a table has is suggested, listed, covered)."""
    for backend in ("numpy", "torch", "dask"):
        if not _usable({"dask": "dask.array"}.get(backend, backend)):
            continue
        reg.table(backend)
        assert set(reg.record(backend).table) <= known_names(backend), backend


# ---------------------------------------------------------------- refusals


@pytest.fixture
def scimath_is_a_capability_module(monkeypatch):
    """numpy's table, with ``numpy.lib.scimath`` (which ``numpy.emath`` names) made a
    capability module for the test."""
    from dispatch import _resolve

    reg.clear_caches()
    monkeypatch.setitem(_resolve._policy("numpy").modules, "numpy.lib.scimath", "a test reason")
    yield
    reg.clear_caches()


def test_a_public_alias_of_a_capability_module_is_refused(scimath_is_a_capability_module):
    """A name that walks through a public alias (``emath``) reaches the module it names
    (``numpy.lib.scimath``): when that module is a capability module, the refusal names
    it and the table's reason."""
    with pytest.raises(dispatch.RefusedNameError) as info:
        do("emath.sqrt", np.array([-1.0]))
    assert str(info.value) == (
        "do('emath.sqrt') on backend 'numpy' is refused: it lies in 'numpy.lib.scimath' "
        "(a test reason). dispatch resolves a name only to an array function of the library "
        "(docs/safety.md)."
    )


def _installed_tables():
    out = []
    for backend in ("numpy", "torch", "jax", "tensorflow", "dask", "sparse"):
        if _usable({"dask": "dask.array"}.get(backend, backend)):
            out.append(backend)
    return out


def test_the_longest_listed_module_prefix_gives_the_reason():
    """``CAPABILITY_MODULES`` of every installed table: a module, and anything below it
    at any depth, lies in the longest listed prefix of its path, whose reason it gets
    (None: allowed)."""
    from dispatch import _resolve

    checked = 0
    for backend in _installed_tables():
        checked += _check_module_reasons(_resolve._policy(backend))
    assert checked > 100, checked  # numpy's and torch's tables list dozens


def _check_module_reasons(pol) -> int:
    checked = 0
    for prefix in pol.modules:
        for below in ("", ".a", ".a.b", ".a.b.c"):
            dotted = prefix + below
            parts = dotted.split(".")
            listed = [
                ".".join(parts[:i])
                for i in range(1, len(parts) + 1)
                if ".".join(parts[:i]) in pol.modules
            ]
            longest = max(listed, key=len)
            reason = pol.modules[longest]
            want = None if reason is None else f"it lies in {longest!r} ({reason})"
            assert pol.module_reason(dotted) == want, dotted
            checked += 1
    return checked


def test_an_attribute_of_a_class_is_refused_with_the_tables_reason_for_it():
    """``add.at`` reaches ``ufunc.at``, an attribute of an object: refused as every such
    walk is, and the reason the table gives for that attribute is said too."""
    from dispatch import _resolve

    reason = _resolve._policy("numpy").paths["numpy.ufunc.at"]
    with pytest.raises(dispatch.RefusedNameError) as info:
        do("add.at", np.ones(2))
    assert str(info.value) == (
        "do('add.at') on backend 'numpy' is refused: it reaches the attribute 'at' of the "
        f"ufunc object 'add', and dispatch walks only through modules ({reason}). dispatch "
        "resolves a name only to an array function of the library (docs/safety.md)."
    )
