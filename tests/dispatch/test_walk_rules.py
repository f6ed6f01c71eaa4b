"""The walk of a library's modules (``dispatch/_resolve.py``), rule by rule, on a
small library written for the test.

A name that no registration, table entry or composed fallback answers is looked up
as an attribute path from the library's root module (docs/safety.md). Each rule of
that walk is stated here on ``walklib``, a package made in a temporary folder, whose
table (``SUBMODULES``, ``CAPABILITY_MODULES``, ``REFUSED``, ``IN_PLACE_SUFFIX``,
``GUARDED``, ``MODULES`` and aliases) is given to the backend record as a shipped
table's would be. The shipped libraries are walked name by name in
``test_safety.py``; here every refusal is reached on purpose, and every allowed path
is checked to give the very object it names.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
import types

import pytest

from dispatch import _registry as reg
from dispatch import _resolve
from dispatch._errors import RefusedNameError, UnknownFunctionError, UnsupportedError
from dispatch.spec import NATIVE, alias, unsupported

B = "walklib"

FILES = {
    "__init__.py": """
        import math
        import os

        from walklib import _hidden, io, linalg, extra

        PI = 3.14
        sqrt = math.sqrt
        length = len
        hidden = _hidden
        maths = math
        system = os


        class Helper:
            def run(self):
                return "ran"

            def __call__(self):
                return "called"


        helper = Helper()
        bound = Helper().run
        run_helper = Helper


        def total(x):
            return sum(x)


        def scale_(x):
            x[0] *= 2
            return x


        def keep__(x):
            return x


        def dangerous():
            return "danger"


        def wrapped_danger():
            return "danger"


        wrapped_danger.__wrapped__ = dangerous


        def load(path, allow_pickle=False):
            return (path, allow_pickle)


        def loadall(*paths, allow_pickle=False):
            return (paths, allow_pickle)
        """,
    "_hidden.py": """
        def secret():
            return "secret"
        """,
    "io.py": """
        def read(path):
            return path
        """,
    "linalg.py": """
        from walklib.io import read as read_again

        def det(x):
            return ("det", x)

        def solve(a, b=None, *, lower=False):
            return ("solve", a, b, lower)
        """,
    "extra/__init__.py": """
        def loose():
            return "loose"
        """,
    "extra/deep.py": """
        def inner():
            return "inner"
        """,
    "extra/other.py": """
        def elsewhere():
            return "elsewhere"
        """,
    "late.py": """
        def later():
            return "later"
        """,
    "vault.py": """
        import sys

        sys.modules["walklib"].vault_ran = True

        def open_door():
            return "open"
        """,
    "outside/__init__.py": """
        PLAIN = 1
        """,
    "outside/inner.py": """
        import sys

        sys.modules["walklib"].inner_ran = True

        def fn():
            return "inner"
        """,
    "free/__init__.py": """
        from walklib.free import sub
        """,
    "free/sub.py": """
        def anything():
            return "anything"
        """,
}


def _table() -> types.ModuleType:
    mod = types.ModuleType("walklib_table")
    mod.TABLE = {
        "mean": "total",
        "det2": alias("det", module="walklib.linalg"),
        "solve2": alias("linalg.solve", lower="upper_is_false"),
        "gone": unsupported("walklib has no gone"),
        "sum": NATIVE,
    }
    mod.MODULES = {"la": "walklib.linalg", "la.deeper": "walklib.extra.deep"}
    mod.SUBMODULES = {"walklib.linalg", "walklib.extra.deep", "walklib.late", "walklib.free.*"}
    mod.CAPABILITY_MODULES = {"walklib.io": "reads files"}
    mod.REFUSED = {"walklib.dangerous": "it is dangerous", "walklib.Helper": "helpers run code"}
    mod.IN_PLACE_SUFFIX = "_"
    mod.GUARDED = {
        "walklib.load": {"allow_pickle": False},
        "walklib.loadall": {"allow_pickle": False},
    }
    return mod


@pytest.fixture
def walklib(tmp_path, monkeypatch):
    """``walklib`` importable, with the table above as its backend's facts."""
    for rel, text in FILES.items():
        path = tmp_path / B / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    lib = importlib.import_module(B)
    reg.clear_caches()
    monkeypatch.setitem(reg._TABLES, B, _table())
    monkeypatch.setattr(_resolve, "_POLICIES", {})
    yield lib
    reg.clear_caches()
    for name in [m for m in sys.modules if m == B or m.startswith(B + ".")]:
        del sys.modules[name]


def _refused(name: str, *words: str) -> str:
    with pytest.raises(RefusedNameError) as info:
        _resolve.resolve(B, name)
    msg = str(info.value)
    assert msg.startswith(f"do({name!r}) on backend {B!r} is refused: "), msg
    assert "docs/safety.md" in msg
    for w in words:
        assert w in msg, (w, msg)
    return msg


def _unknown(name: str, *words: str) -> str:
    with pytest.raises(UnknownFunctionError) as info:
        _resolve.resolve(B, name)
    msg = str(info.value)
    assert msg.startswith(f"do({name!r}) on backend {B!r}: no registration"), msg
    for w in words:
        assert w in msg, (w, msg)
    return msg


# ---------------------------------------------------------------- what a walk reaches


def test_a_public_function_of_the_root_or_an_allowed_submodule_is_the_object_itself(walklib):
    assert _resolve.resolve(B, "total") is walklib.total
    assert _resolve.resolve(B, "linalg.det") is walklib.linalg.det
    assert _resolve.resolve(B, "extra.deep.inner") is walklib.extra.deep.inner
    assert _resolve.how(B, "total") == "native"
    assert _resolve.how(B, "linalg.det") == "native"


def test_a_submodule_not_imported_by_its_package_is_imported_by_the_walk(walklib):
    assert "walklib.late" not in sys.modules
    fn = _resolve.resolve(B, "late.later")
    assert fn() == "later"
    assert fn is sys.modules["walklib.late"].later


def test_a_wildcard_submodule_entry_allows_every_module_below_it(walklib):
    assert _resolve.resolve(B, "free.sub.anything") is walklib.free.sub.anything


def test_table_entries_path_alias_and_native(walklib):
    assert _resolve.resolve(B, "mean") is walklib.total
    assert _resolve.how(B, "mean") == "table"
    assert _resolve.resolve(B, "det2") is walklib.linalg.det
    renamed = _resolve.resolve(B, "solve2")
    with pytest.raises(TypeError):  # the rename is applied: 'upper_is_false' is no keyword
        renamed(1, lower=True)
    assert renamed(1, 2) == ("solve", 1, 2, False)
    assert renamed.__wrapped__ is walklib.linalg.solve


def test_an_unsupported_entry_says_its_reason(walklib):
    with pytest.raises(
        UnsupportedError, match=r"'gone' is not supported on backend 'walklib': walklib has no gone"
    ):
        _resolve.resolve(B, "gone")
    assert _resolve.how(B, "gone") == "unsupported"


def test_a_native_entry_is_the_librarys_function_or_nothing(walklib):
    # 'sum' has a composed fallback; NATIVE asks for the library's own, which is absent
    _unknown("sum", "walklib has no attribute 'sum'")
    assert _resolve.how(B, "sum") == "missing"


def test_the_longest_module_remap_wins(walklib):
    assert _resolve.resolve(B, "la.det") is walklib.linalg.det
    assert _resolve.resolve(B, "la.deeper.inner") is walklib.extra.deep.inner
    _unknown("la.nothere", "walklib.linalg has no attribute 'nothere'")


# ---------------------------------------------------------------- unknown names


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("nothere", "walklib has no attribute 'nothere'"),
        ("linalg.nothere", "walklib.linalg has no attribute 'nothere'"),
        ("linalg._private", "'_private' is a private or empty name component"),
        ("_hidden.secret", "'_hidden' is a private or empty name component"),
        ("linalg..det", "'' is a private or empty name component"),
        ("maths.sqrt", "'math' is outside the library"),
        ("system.getcwd", "'os' is outside the library"),
        ("linalg", "'linalg' is a module, not a function"),
        ("PI", "'PI' is not a function but a 'float' object"),
        ("sqrt", "'sqrt' comes from 'math', outside the library"),
        ("length", "'length' is a Python builtin, not a library function"),
    ],
)
def test_what_the_walk_does_not_reach_is_unknown_with_its_reason(walklib, name, detail):
    _unknown(name, f"({detail})")


def test_a_private_component_is_unknown_in_table_paths_too(walklib):
    with pytest.raises(UnknownFunctionError, match="'_x' is a private or empty name component"):
        _resolve._lookup(B, "linalg._x", "linalg._x")


def test_an_unknown_name_suggests_the_librarys_own_close_names(walklib):
    msg = _unknown("totl", "walklib has no attribute 'totl'")
    assert "Did you mean 'total'" in msg
    assert "dispatch.register_function('walklib', 'totl', fn)" in msg


def test_a_standard_library_module_name_is_said_to_be_one(walklib):
    msg = _unknown("itertools.chain")
    assert "('itertools' is a Python standard library module, not part of 'walklib'.)" in msg
    assert "register_function" not in msg


# ---------------------------------------------------------------- refusals


def test_a_module_alias_of_a_private_module_is_refused(walklib):
    _refused(
        "hidden.secret", "'walklib.hidden' is an alias of the private module 'walklib._hidden'"
    )


def test_a_capability_module_is_refused_before_it_is_imported(walklib):
    _refused("io.read", "it lies in 'walklib.io' (reads files)")


def test_an_object_defined_in_a_capability_module_is_refused_wherever_it_is_reached(walklib):
    _refused("linalg.read_again", "it lies in 'walklib.io' (reads files)")


def test_a_module_remap_into_a_capability_module_is_refused(walklib, monkeypatch):
    table = reg._TABLES[B]
    monkeypatch.setattr(table, "MODULES", {"files": "walklib.io"})
    reg.clear_caches()
    _refused("files.read", "it lies in 'walklib.io' (reads files)")


def test_a_capability_module_a_table_names_is_refused_before_it_is_imported(
    walklib, monkeypatch
):
    """However a table names a capability module (an ``alias(module=...)`` entry or a
    ``MODULES`` remap), the refusal comes before the import: importing runs its code."""
    table = reg._TABLES[B]
    _set_facts(
        monkeypatch,
        TABLE={**table.TABLE, "door": alias("open_door", module="walklib.vault")},
        MODULES={**table.MODULES, "vault": "walklib.vault"},
        CAPABILITY_MODULES={**table.CAPABILITY_MODULES, "walklib.vault": "opens the vault"},
    )
    for name in ("door", "vault.open_door"):
        _refused(name, "it lies in 'walklib.vault' (opens the vault)")
        assert "walklib.vault" not in sys.modules, name
        assert not hasattr(walklib, "vault_ran"), name


def test_a_table_path_that_fails_is_reported_under_its_canonical_name(walklib, monkeypatch):
    """A ``TABLE`` string entry whose path is missing, private or refused: the error is
    about the name called (the entry's key), and says what its path met."""
    table = reg._TABLES[B]
    _set_facts(
        monkeypatch,
        TABLE={
            **table.TABLE,
            "broken": "nothere",
            "broken_deep": "linalg.nothere",
            "hidden_path": "_hidden.secret",
            "reads": "io.read",
            "object_path": "helper.run",
        },
    )
    _unknown("broken", "(walklib has no attribute 'nothere')")
    _unknown("broken_deep", "(walklib.linalg has no attribute 'nothere')")
    _unknown("hidden_path", "('_hidden' is a private or empty name component)")
    _refused("reads", "it lies in 'walklib.io' (reads files)")
    _refused("object_path", "it reaches the attribute 'run' of the Helper object 'helper'")


def test_a_module_outside_submodules_is_refused(walklib):
    _refused("extra.other.elsewhere", "'walklib.extra.other' is not one of the array modules")
    # a module on the way to a listed one lends none of its own names
    _refused(
        "extra.loose",
        "'walklib.extra' is not one of the array modules that the 'walklib' table lists "
        "in SUBMODULES",
    )


def test_a_module_outside_submodules_stops_the_walk_before_anything_below_it_runs(walklib):
    # 'walklib.outside' must be imported to be known as a module; its submodule is
    # never imported: importing runs code, and the refusal names the first module off
    # the list, not the deepest one reached
    msg = _refused("outside.inner.fn", "'walklib.outside' is not one of the array modules")
    assert "walklib.outside.inner" not in msg
    assert "walklib.outside.inner" not in sys.modules
    assert not hasattr(walklib, "inner_ran")


def test_walking_through_an_object_is_refused_and_a_missing_attribute_is_unknown(walklib):
    _refused(
        "helper.run",
        "it reaches the attribute 'run' of the Helper object 'helper', and dispatch "
        "walks only through modules",
    )
    _unknown("helper.nothere", "walklib.helper has no attribute 'nothere'")


def test_a_bound_method_is_refused(walklib, monkeypatch):
    # a method bound to an object (not refused by class here: Helper's entry removed)
    table = reg._TABLES[B]
    monkeypatch.setattr(table, "REFUSED", {"walklib.dangerous": "it is dangerous"})
    reg.clear_caches()
    monkeypatch.setattr(_resolve, "_POLICIES", {})
    _refused("bound", "it is a method bound to the Helper object behind 'walklib.bound'")


def test_a_refused_function_and_its_wrappers_are_refused_with_the_tables_reason(walklib):
    _refused("dangerous", "it is dangerous")
    _refused("wrapped_danger", "it is dangerous")


def test_refusing_a_class_refuses_its_instances_and_itself(walklib):
    _refused("run_helper", "helpers run code")
    _refused("helper", "helpers run code")


def test_a_name_ending_in_the_in_place_suffix_is_refused_once_not_twice(walklib):
    msg = _refused("scale_", "a name ending in '_' writes into its input")
    assert "call 'scale' instead" in msg
    assert _resolve.resolve(B, "keep__") is walklib.keep__


# ---------------------------------------------------------------- pinned keywords


def test_a_guarded_function_gets_its_pinned_keyword_explicitly(walklib):
    load = _resolve.resolve(B, "load")
    assert load("f") == ("f", False)
    assert load("f", allow_pickle=False) == ("f", False)
    assert load("f", False) == ("f", False)
    with pytest.raises(
        RefusedNameError,
        match=r"allow_pickle=True could unpickle or run code; do pins allow_pickle=False",
    ):
        load("f", allow_pickle=True)
    with pytest.raises(RefusedNameError, match="allow_pickle=1 could"):
        load("f", 1)


def test_a_guarded_function_with_star_args_takes_options_by_keyword_only(walklib):
    loadall = _resolve.resolve(B, "loadall")
    assert loadall(allow_pickle=False) == ((), False)
    with pytest.raises(
        RefusedNameError, match=r"pass its options by keyword \(allow_pickle are pinned\)"
    ):
        loadall("a", "b")


# ---------------------------------------------------------------- the library's bounds


@pytest.fixture
def walkaux(walklib, tmp_path, monkeypatch):
    """A second package, ``walkaux``, whose function ``walklib`` re-exports as
    ``borrowed`` and whose module it re-exports as ``auxmod``."""
    (tmp_path / "walkaux").mkdir()
    (tmp_path / "walkaux" / "__init__.py").write_text(
        "def helper():\n    return 'aux'\n\n\nclass Array:\n    pass\n"
    )
    importlib.invalidate_caches()
    aux = importlib.import_module("walkaux")
    monkeypatch.setattr(walklib, "borrowed", aux.helper, raising=False)
    monkeypatch.setattr(walklib, "auxmod", aux, raising=False)
    yield aux
    sys.modules.pop("walkaux", None)


def _set_facts(monkeypatch, **facts) -> None:
    table = reg._TABLES[B]
    for key, value in facts.items():
        monkeypatch.setattr(table, key, value, raising=False)
    reg.clear_caches()
    monkeypatch.setattr(_resolve, "_POLICIES", {})


def test_another_packages_function_is_outside_the_library_by_default(walkaux):
    _unknown("borrowed", "('borrowed' comes from 'walkaux', outside the library)")
    _unknown("auxmod.helper", "('walkaux' is outside the library)")


def test_the_package_of_the_librarys_array_type_belongs_to_the_library(walkaux, monkeypatch):
    _set_facts(monkeypatch, TYPES=("walkaux.Array",))
    assert _resolve.resolve(B, "borrowed") is walkaux.helper


def test_the_package_a_module_remap_points_into_belongs_to_the_library(walkaux, monkeypatch):
    _set_facts(monkeypatch, MODULES={"aux": "walkaux"})
    assert _resolve.resolve(B, "aux.helper") is walkaux.helper
    assert _resolve.resolve(B, "borrowed") is walkaux.helper
    # the remap lends its package, not every package
    _unknown("maths.sqrt", "('math' is outside the library)")


def test_a_whole_package_listed_as_a_capability_module_is_refused(walkaux, monkeypatch):
    """A ``CAPABILITY_MODULES`` prefix of one part (a whole top-level package) covers
    that package and all below it, as a longer prefix covers its modules: whether a
    name walks into it through a remap or reaches one of its functions elsewhere."""
    _set_facts(
        monkeypatch,
        MODULES={"aux": "walkaux"},
        CAPABILITY_MODULES={"walklib.io": "reads files", "walkaux": "a package that runs code"},
    )
    for name in ("aux.helper", "borrowed"):
        _refused(name, "it lies in 'walkaux' (a package that runs code)")
    assert _resolve._policy(B).module_reason("walkaux") == (
        "it lies in 'walkaux' (a package that runs code)"
    )


def _fresh_builtin(name: str = "bisect_left") -> types.BuiltinFunctionType:
    """A C function of its own (not ``_bisect``'s shared one) that reports the module
    ``builtins``, as C functions of some libraries do."""
    spec = importlib.util.find_spec("_bisect")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fn = getattr(mod, name)
    assert fn is not getattr(importlib.import_module("_bisect"), name)
    fn.__module__ = "builtins"
    return fn


def test_a_c_function_of_the_library_reporting_builtins_is_the_librarys(walklib, monkeypatch):
    fn = _fresh_builtin()
    monkeypatch.setattr(walklib, "search", fn, raising=False)
    assert _resolve.resolve(B, "search") is fn
    # Python's own builtins stay out, whatever name the library gives them
    _unknown("length", "('length' is a Python builtin, not a library function)")
    monkeypatch.setattr(walklib, "runner", exec, raising=False)
    _unknown("runner", "('runner' is a Python builtin, not a library function)")


class _CallableModule(types.ModuleType):
    def __call__(self):
        return "called"


def test_an_unknown_name_is_never_suggested_to_itself_nor_a_non_function(walklib, monkeypatch):
    monkeypatch.setattr(walklib, "_totalize", walklib.total, raising=False)
    monkeypatch.setattr(walklib, "callmod", _CallableModule("walklib.callmod"), raising=False)
    # 'length' is a callable of the root, so it is in the suggestion pool of others
    assert "Did you mean 'length'" in _unknown("lenght")
    msg = _unknown("length")
    assert "Did you mean 'length'" not in msg
    # modules, constants and private names of the root are never suggested
    for name, absent in (
        ("linalgg", "'linalg'"),
        ("PIE", "'PI'"),
        ("hiden", "'hidden'"),
        ("totalise", "'_totalize'"),
        ("callmd", "'callmod'"),
    ):
        assert f"Did you mean {absent}" not in _unknown(name), name
    assert "Did you mean 'total'" in _unknown("totals")


def test_a_standard_library_head_is_named_only_when_the_library_has_no_names_below_it(walklib):
    # every library answers 'random.*' names (composed fallbacks): 'random.' is the
    # library's own module here, not Python's
    msg = _unknown("random.nothere")
    assert "standard library" not in msg
    assert "dispatch.register_function('walklib', 'random.nothere', fn)" in msg
    # a bare standard-library name is a name like any other
    msg = _unknown("itertools")
    assert "standard library" not in msg
