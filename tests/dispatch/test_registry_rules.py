"""Rules of the registry (``dispatch/_registry.py``, ``dispatch/_register.py``) and of
the tables it loads (``dispatch.engine.merge_tables``), each stated over every case
it covers rather than one example.

* ``shipped()`` lists exactly the library tables in ``translations/``, none of its
  private helper modules;
* the composed fallbacks are looked for once per process, not at every miss;
* an unknown backend's error says, after the list of known backends, the one
  sentence that fits what was given (none for an object that is not a name);
* every error of ``register_function``, ``register_translation`` and
  ``unregister_function`` names both its backend and its name, and an unusable
  target's reason is kept whole;
* the decorator form of ``register_function`` registers what the call form does;
* ``merge_tables`` says which name is twice in which topics, and what to do.
"""

from __future__ import annotations

import os
import pkgutil

import dispatch.translations as translations
import numpy as np
import pytest

from dispatch import (
    UnknownBackendError,
    UnknownFunctionError,
    do,
    register_function,
    register_translation,
    unregister_function,
)
from dispatch import _registry as reg
from dispatch._errors import short
from dispatch.engine import merge_tables

X = np.arange(4.0)
PROBE = "registry_rule_probe"


@pytest.fixture
def unregister():
    """Names registered on numpy by the test, unregistered after it."""
    names: list[str] = []
    yield names
    for name in names:
        unregister_function("numpy", name)


# ---------------------------------------------------------------- shipped tables


def _library_tables_on_disk() -> set[str]:
    """The public modules and packages of the translations folder, read from the disk."""
    found = set()
    for folder in translations.__path__:
        for entry in os.scandir(folder):
            if entry.name.startswith(("_", ".")):
                continue
            if entry.is_file() and entry.name.endswith(".py"):
                found.add(entry.name[:-3])
            elif entry.is_dir() and os.path.exists(os.path.join(entry.path, "__init__.py")):
                found.add(entry.name)
    return found


def test_shipped_lists_exactly_the_library_tables(monkeypatch):
    monkeypatch.setattr(reg, "_SHIPPED", [])  # computed here, not remembered from before
    shipped = reg.shipped()
    assert shipped == _library_tables_on_disk()
    private = {m.name for m in pkgutil.iter_modules(translations.__path__)} - shipped
    assert private, "translations/ has private helper modules (_api, _composed...)"
    assert all(name.startswith("_") for name in private), private
    for name in private:  # a helper module is no backend, in any list or check
        assert not reg.has_table(name), name
        assert name not in reg.known_backends(), name
        with pytest.raises(UnknownBackendError):
            reg.check_backend("check()", name)


# ---------------------------------------------------------------- composed fallbacks


def test_the_composed_fallbacks_are_looked_for_once(monkeypatch):
    """After the first ``composed()``, no later one (nor a miss of ``do``) lists the
    ``_composed`` package again: the fallbacks are registered, the work is done."""
    import dispatch.translations._composed as package

    reg.composed()
    folders = {os.path.realpath(p) for p in package.__path__}
    listed: list[str] = []
    iter_modules = pkgutil.iter_modules

    def counting(path=None, prefix=""):
        listed.extend(os.path.realpath(p) for p in path or ())
        return iter_modules(path, prefix)

    monkeypatch.setattr(pkgutil, "iter_modules", counting)
    reg.clear_caches()
    for _ in range(3):
        assert reg.composed() is reg.COMPOSED
        assert do("sum", X) == 6.0
    assert not folders & set(listed), listed


# ---------------------------------------------------------------- unknown backends

_HINT = "a new array library is added with dispatch.register_backend(type_or_module_prefix, name)."


@pytest.mark.parametrize(
    ("backend", "why"),
    [
        (3, ""),
        (None, ""),
        (("numpy",), ""),
        ("not a name", " A backend name is a module name such as 'mylib' or 'mylib.arrays'."),
        ("_private", " A backend name is a module name such as 'mylib' or 'mylib.arrays'."),
        ("os.path", " 'os' is not an array library, so its functions are not a backend."),
        ("not_installed_probe_lib", " No module of that name is installed either."),
    ],
)
def test_an_unknown_backends_error_ends_with_the_sentence_that_fits(backend, why):
    message = str(reg.unknown_backend(backend, "where()"))
    assert message.startswith(f"where(): unknown backend {short(backend)}."), message
    assert message.endswith(_HINT + why), message


# ---------------------------------------------------------------- registration errors


def _raising(call):
    with pytest.raises((TypeError, ValueError, UnknownBackendError, UnknownFunctionError)) as info:
        call()
    return str(info.value)


_BAD_CALLS = [
    ("register_function", 3, PROBE, lambda: register_function(3, PROBE, len)),
    ("register_function", "numpy", 3, lambda: register_function("numpy", 3, len)),
    ("register_function", "numpy", "_probe", lambda: register_function("numpy", "_probe", len)),
    ("register_function", "numpy", PROBE, lambda: register_function("numpy", PROBE, 3)),
    ("register_function", "numpy", PROBE, lambda: register_function("numpy", PROBE)(None)),
    ("register_function", "os", PROBE, lambda: register_function("os", PROBE, len)),
    (
        "register_function",
        "numpy",
        "sum",
        lambda: register_function("numpy", "sum", lambda f: 3, wrap=True),
    ),
    (
        "register_function",
        "numpy",
        PROBE,
        lambda: register_function("numpy", PROBE, len, module="numpy"),
    ),
    ("register_translation", 3, PROBE, lambda: register_translation(3, PROBE, "sum")),
    ("register_translation", "numpy", 3, lambda: register_translation("numpy", 3, "sum")),
    ("register_translation", "numpy", PROBE, lambda: register_translation("numpy", PROBE, 3)),
    (
        "register_translation",
        "numpy",
        PROBE,
        lambda: register_translation("numpy", PROBE, "no_such_fn"),
    ),
    (
        "register_translation",
        "numpy",
        PROBE,
        lambda: register_translation("numpy", PROBE, "sum", module=3),
    ),
    (
        "register_translation",
        "numpy",
        PROBE,
        lambda: register_translation("numpy", PROBE, "sum", axis=3),
    ),
    (
        "register_translation",
        "numpy",
        PROBE,
        lambda: register_translation("numpy", PROBE, "f", module="no_such_module_probe"),
    ),
    ("unregister_function", 3, PROBE, lambda: unregister_function(3, PROBE)),
    ("unregister_function", "numpy", 3, lambda: unregister_function("numpy", 3)),
    ("unregister_function", [1], ("x",), lambda: unregister_function([1], ("x",))),
]


@pytest.mark.parametrize(
    ("function", "backend", "name", "call"),
    _BAD_CALLS,
    ids=[f"{f}-{short(b)}-{short(n)}-{i}" for i, (f, b, n, _) in enumerate(_BAD_CALLS)],
)
def test_every_registration_error_names_its_function_backend_and_name(
    unregister, function, backend, name, call
):
    unregister.extend([PROBE, "sum"])  # a faulty check would have registered one
    before = dict(reg.OVERRIDES)
    message = _raising(call)
    assert message.startswith(f"{function}({short(backend)}, {short(name)}"), message
    assert before == reg.OVERRIDES, "a refused call registered something"


@pytest.mark.parametrize(
    "target", ["no_such_fn", "linalg.no_such_fn", "a b", "sum Add one with it"]
)
def test_an_unusable_targets_reason_is_kept_whole(target):
    """The target's own error is quoted whole (its name, what was wrong), less the
    advice to register the target, which is no fix for a translation to it."""
    message = _raising(lambda: register_translation("numpy", PROBE, target))
    where = f"register_translation('numpy', {PROBE!r}, {target!r}): the target is not usable: "
    assert message.startswith(f"{where}do({target!r}) on backend 'numpy': no registration"), (
        message
    )
    missing = target.rsplit(".", 1)[-1]
    assert f"has no attribute {missing!r})." in message, message
    assert "register_function" not in message, message


# ---------------------------------------------------------------- the decorator form


def _sum_plus_one(current):
    return lambda x, **kw: current(x, **kw) + 1


@pytest.mark.parametrize(
    ("wrap", "fn", "expected"),
    [(False, lambda x: "direct", "direct"), (True, _sum_plus_one, 7.0)],
    ids=["plain", "wrap"],
)
def test_the_decorator_form_registers_what_the_call_form_does(unregister, wrap, fn, expected):
    unregister.append("sum")
    register_function("numpy", "sum", fn, wrap=wrap)
    by_call = do("sum", X)
    unregister_function("numpy", "sum")
    register_function("numpy", "sum", wrap=wrap)(fn)
    by_decorator = do("sum", X)
    assert by_call == by_decorator == expected


# ---------------------------------------------------------------- merged tables


@pytest.mark.parametrize(
    ("parts", "names", "twice", "first", "second"),
    [
        (({"sum": 1}, {"sum": 2}), (), "sum", "topic 1", "topic 2"),
        (({"sum": 1}, {"prod": 2}, {"sum": 3}), (), "sum", "topic 1", "topic 3"),
        (({"a": 1}, {"b": 2}, {"b": 3}), ("x", "y", "z"), "b", "y", "z"),
        (({"fft.fft": 1, "sum": 0}, {"fft.fft": 2}), ("fft", "more_fft"), "fft.fft", "fft",
         "more_fft"),
    ],
)
def test_a_name_in_two_topics_is_refused_with_what_to_do(parts, names, twice, first, second):
    with pytest.raises(ValueError, match="is defined twice") as info:
        merge_tables(*parts, names=names)
    assert str(info.value) == (
        f"{twice!r} is defined twice: in {first} and {second} (a later entry would "
        "silently win; keep one)"
    )
