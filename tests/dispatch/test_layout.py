"""The layout rules of the source tree (docs/design.md, "Where does X go").

* A translation (``translations/``) imports from the engine only through
  ``dispatch.engine``; the engine (``dispatch/``) never imports a table, only the
  vocabulary (``translations/_vocabulary.py``), the array API standard's names
  (``translations/_array_api/``, for ``array_namespace``) and, by name at run time,
  the package of composed fallbacks.
* No dict literal anywhere in ``translations/`` writes a key twice (the later one
  would silently win), and a library package assembles its topic tables with
  ``merge_topics`` (``merge_tables``), which refuses a name defined in two topics.
* The modules of composed fallbacks are named by the library packages' topics
  (private helper modules start with ``_``).
* No module is over 800 lines.
"""

from __future__ import annotations

import ast
import importlib
import pathlib
import types

import pytest

from dispatch.engine import merge_tables

ROOT = pathlib.Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
ENGINE = ROOT / "dispatch"

# Modules still over the limit, each with the reason it may stay so (empty when
# the tree meets the rule everywhere).
LONG_MODULES: dict[str, str] = {
}
# Tables still patched after they are written (empty once every library is a package).
PATCHED_TABLES: dict[str, str] = {
}
MAX_LINES = 800


def _sources(top: pathlib.Path) -> list[pathlib.Path]:
    return sorted(top.rglob("*.py"))


def _imports(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, module) of every import statement of a file, at any depth."""
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(node.lineno, node.module)]
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names
                      if node.module == "dispatch.translations"]
    return found


def _rel(path: pathlib.Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()


def test_tables_import_the_engine_only_through_its_surface() -> None:
    wrong = [
        f"{_rel(p)}:{line}: {module}"
        for p in _sources(TRANSLATIONS)
        for line, module in _imports(p)
        if (module == "dispatch" or module.startswith("dispatch."))
        and module != "dispatch.engine"
        and not module.startswith("dispatch.translations")
    ]
    assert not wrong, "import these through dispatch.engine:\n" + "\n".join(wrong)


_ENGINE_MAY_IMPORT = ("dispatch.translations", "dispatch.translations._vocabulary",
                      "dispatch.translations._composed", "dispatch.translations._array_api")


def test_the_engine_imports_no_table() -> None:
    engine_files = [p for p in ENGINE.rglob("*.py")
                    if "translations" not in p.relative_to(ENGINE).parts]
    wrong = [
        f"{_rel(p)}:{line}: {module}"
        for p in engine_files
        for line, module in _imports(p)
        if module.startswith("dispatch.translations") and module not in _ENGINE_MAY_IMPORT
        and not module.startswith("dispatch.translations._vocabulary.")
    ]
    assert not wrong, "the engine finds tables by name at run time:\n" + "\n".join(wrong)


def _duplicate_keys(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        seen: dict[object, int] = {}
        for key in node.keys:
            if isinstance(key, ast.Constant):
                if key.value in seen:
                    first = seen[key.value]
                    found.append(f"{_rel(path)}:{key.lineno}: {key.value!r} "
                                 f"(first at line {first})")
                seen[key.value] = key.lineno
    return found


def test_no_dict_literal_writes_a_key_twice() -> None:
    found = [d for p in _sources(TRANSLATIONS) for d in _duplicate_keys(p)]
    assert not found, "keys written twice (the later wins silently):\n" + "\n".join(found)


def test_the_duplicate_key_rule_catches_a_repeated_entry(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "t.py"
    bad.write_text('TABLE = {\n    "copy": "copy",\n    "sum": "sum",\n    "copy": "clone",\n}\n')
    assert _duplicate_keys(bad) == [f"{bad.as_posix()}:4: 'copy' (first at line 2)"]


def _table_writes(path: pathlib.Path) -> list[str]:
    """Ways a TABLE can lose an entry silently: splats, updates, item writes, re-assignment."""
    tree = ast.parse(path.read_text(), str(path))
    found, assigned = [], 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "TABLE"
                                                for t in node.targets):
            assigned += 1
            values = [node.value]
            if isinstance(node.value, ast.Call):
                values = list(node.value.args)
            for v in values:
                if isinstance(v, ast.Dict) and None in v.keys:
                    found.append(f"{_rel(path)}:{v.lineno}: a ** splat inside TABLE "
                                 "(pass the generated dict to merge_tables instead)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "TABLE" \
                and node.func.attr in ("update", "setdefault", "pop", "__setitem__"):
            found.append(f"{_rel(path)}:{node.lineno}: TABLE.{node.func.attr}(...)")
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id == "TABLE":
            found.append(f"{_rel(path)}:{node.lineno}: TABLE[...] = ...")
    if assigned > 1:
        found.append(f"{_rel(path)}: TABLE assigned {assigned} times")
    return found


def _table_modules() -> list[pathlib.Path]:
    return [p for p in _sources(TRANSLATIONS) if "_composed" not in p.parts]


def test_a_table_is_written_once_and_never_patched() -> None:
    found = [f for p in _table_modules() if _rel(p) not in PATCHED_TABLES for f in _table_writes(p)]
    assert not found, "write each TABLE once, merging parts with merge_tables:\n" + "\n".join(found)


def test_the_table_rule_catches_a_patch(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "t.py"
    bad.write_text('TABLE = {"a": 1, **extra()}\nTABLE.update({"copy": 2})\nTABLE["b"] = 3\n')
    assert len(_table_writes(bad)) == 3


def test_merge_tables_refuses_a_name_in_two_topics() -> None:
    with pytest.raises(ValueError, match="'sum' is defined twice: in reductions and linalg"):
        merge_tables({"sum": "sum"}, {"sum": "x"}, names=("reductions", "linalg"))
    assert merge_tables({"a": 1}, {"b": 2}) == {"a": 1, "b": 2}


def test_merge_topics_names_the_two_topic_modules() -> None:
    from dispatch.translations._adapters import merge_topics

    reductions, linalg = types.ModuleType("lib.reductions"), types.ModuleType("lib.linalg")
    reductions.TABLE, linalg.TABLE = {"sum": "sum", "mean": "mean"}, {"sum": "x"}
    with pytest.raises(ValueError, match="'sum' is defined twice: in reductions and linalg"):
        merge_topics(reductions, linalg)
    linalg.TABLE = {"dot": "dot"}
    assert merge_topics(reductions, linalg) == {"sum": "sum", "mean": "mean", "dot": "dot"}


def _packages() -> list[str]:
    return sorted(p.name for p in TRANSLATIONS.iterdir()
                  if p.is_dir() and not p.name.startswith("_") and (p / "__init__.py").exists())


@pytest.mark.parametrize("library", _packages())
def test_a_library_package_holds_its_topics_unchanged(library: str) -> None:
    """Every topic module's entries are the package's entries, none overwritten."""
    pytest.importorskip(library)
    package = importlib.import_module(f"dispatch.translations.{library}")
    topics = [importlib.import_module(f"dispatch.translations.{library}.{p.stem}")
              for p in sorted((TRANSLATIONS / library).glob("*.py")) if not p.stem.startswith("_")]
    parts = {t.__name__: t.TABLE for t in topics if hasattr(t, "TABLE")}
    assert parts, f"{library} has no topic module with a TABLE"
    changed = [f"{module}: {name}" for module, part in parts.items() for name, entry in part.items()
               if package.TABLE.get(name, object()) is not entry]
    assert not changed, "entries the package overwrote or dropped:\n" + "\n".join(changed)
    merge_tables(*parts.values())  # and no name is in two topics


def test_composed_modules_are_named_by_the_packages_topics() -> None:
    """A composed fallback sits in the module named like the topic modules that
    hold the libraries' entries of that name; shared helpers are ``_``-private."""
    topics = {p.stem for library in _packages() for p in (TRANSLATIONS / library).glob("*.py")
              if not p.stem.startswith("_")}
    assert {"indexing", "statistics", "shape", "autodiff"} <= topics, topics
    composed = {p.stem for p in (TRANSLATIONS / "_composed").glob("*.py")
                if not p.stem.startswith("_")}
    odd = sorted(composed - topics)
    assert not odd, f"_composed/ modules not named by a library package's topic: {odd}"


def test_no_module_is_over_800_lines() -> None:
    files = [p for p in (*ENGINE.rglob("*.py"), *TRANSLATIONS.rglob("*.py"))
             if "translations" not in p.relative_to(ROOT).parts[1:2]]
    long = {_rel(p): n for p in files if (n := len(p.read_text().splitlines())) > MAX_LINES}
    unexplained = {k: v for k, v in long.items() if k not in LONG_MODULES}
    assert not unexplained, f"modules over {MAX_LINES} lines: {unexplained}"
    stale = sorted(set(LONG_MODULES) - set(long))
    assert not stale, f"LONG_MODULES lists modules that are short now (remove them): {stale}"


def test_every_package_is_in_the_wheel() -> None:
    """pyproject lists packages one by one (translations/ is installed as
    dispatch.translations), so a new package folder must be listed or a built wheel
    lacks it while an editable install still works."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in Python 3.11+")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in ENGINE.rglob("__init__.py")
             if "translations" not in p.relative_to(ENGINE).parts}
    found |= {".".join(("dispatch", *p.parent.relative_to(ROOT).parts))
              for p in TRANSLATIONS.rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert listed - found == set(), "pyproject lists packages that do not exist"
