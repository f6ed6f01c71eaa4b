"""griffe extension: Sphinx roles in docstrings become links or code for mkdocstrings.

The docstrings of ``dispatch`` are numpydoc and use Sphinx roles
(``:func:`~dispatch.spec.alias```), which mkdocstrings would print verbatim. This
extension rewrites each role before rendering:

* a target documented on the API page becomes a cross-reference
  (``[`alias`][dispatch.spec.alias]``), which autorefs resolves and
  ``mkdocs build --strict`` checks;
* a target written in full (``dispatch.<...>``) that names nothing in the package
  is an error, so that a renamed function cannot leave a dangling reference;
* any other target (a private helper, a module variable) becomes inline code.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|meth|attr|data|obj|exc|mod):`(~?)([\w.]+)`")
DOCUMENTED = ("dispatch", "dispatch.spec", "dispatch.numpy", "dispatch.lazy")


def _public_paths() -> dict[int, str]:
    """id(runtime object) -> the path under which the API page documents it."""
    paths: dict[int, str] = {}
    for modname in DOCUMENTED:
        mod = importlib.import_module(modname)
        paths.setdefault(id(mod), modname)
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            path = f"{modname}.{name}"
            paths.setdefault(id(obj), path)
            if isinstance(obj, type):
                for member, value in vars(obj).items():
                    if not member.startswith("_"):
                        paths.setdefault(id(value), f"{path}.{member}")
    return paths


def _runtime(path: str) -> Any:
    """The runtime object at a dotted path, or None."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except (ImportError, TypeError, ValueError):  # not a module path (".bound", "a..b")
            continue
        try:
            for part in parts[i:]:
                obj = vars(obj)[part] if isinstance(obj, type) else getattr(obj, part)
        except (AttributeError, KeyError):
            return None
        return obj
    return None


class RstRoles(griffe.Extension):
    def __init__(self) -> None:
        self._paths: dict[int, str] | None = None

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.path != "dispatch":
            return
        self._paths = _public_paths()
        self._walk(pkg, set())

    def _walk(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.docstring is not None and ROLE.search(obj.docstring.value):
            obj.docstring.value = ROLE.sub(lambda m: self._replace(obj, m), obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member, seen)  # type: ignore[arg-type]

    def _replace(self, owner: griffe.Object, match: re.Match) -> str:
        short, target = match.group(1), match.group(2)
        text = target.rsplit(".", 1)[-1] if short else target
        # the target as written, then relative to each enclosing object
        scopes = [owner.path.rsplit(".", i)[0] for i in range(owner.path.count(".") + 1)]
        if target.startswith("."):  # relative to the owner's package (":mod:`._bound`")
            target = target.lstrip(".")
            text = target.rsplit(".", 1)[-1] if short else target
        candidates = [target] + [f"{scope}.{target}" for scope in scopes]
        for candidate in candidates:
            found = _runtime(candidate)
            if found is not None and self._paths is not None and id(found) in self._paths:
                return f"[`{text}`][{self._paths[id(found)]}]"
        if target.startswith("dispatch.") and all(_runtime(c) is None for c in candidates):
            raise ValueError(f"{owner.path}: docstring refers to {target!r}, which does not exist")
        return f"`{text}`"
