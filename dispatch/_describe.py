"""One description per ``do`` name: the text ``help(xnp.NAME)`` shows and the
generated function reference (``docs/reference.md``) prints.

The description is read where the implementation is written, so it cannot
drift from it:

1. the composed fallback of the name (``translations/_composed/``);
2. else the reference backend's (numpy's) table entry, when it is a function
   with a docstring of its own (an adapter written in the table);
3. else the reference library's own function (numpy's docstring for numpy's
   names, scipy's for ``scipy.`` names);
4. else the first adapter with a docstring in the tables of the other installed
   backends, in alphabetical order (names only libraries with automatic
   differentiation or devices have: ``jacobian``, ``variable``);
5. else nothing: the name has no docstring yet.

Reading the description of a name that only tables provide loads the tables of
the installed libraries (importing them), once; nothing else does.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dispatch import _registry as reg
from dispatch.spec import Alias, Unsupported, _Native

__all__ = ["Description", "describe", "help_text"]

# parameters the resolution fills in (a backend-bound fallback's ``backend``): not
# the caller's
_INJECTED = frozenset({"backend", "namespace"})
# the backend whose functions define the semantics (docs/vocabulary.md)
REFERENCE = "numpy"


@dataclass(frozen=True)
class Description:
    """What is known of a ``do`` name's interface.

    Attributes
    ----------
    name : str
        The ``do`` name.
    signature : inspect.Signature or None
        The parameters a caller passes (those the resolution fills in left out);
        None when the implementation does not expose one.
    doc : str
        The docstring, cleaned (``inspect.cleandoc``); empty when there is none.
    source : str
        Where the docstring is written: ``"composed"``, ``"table <backend>"``,
        ``"library"`` or ``""``.
    where : str
        The dotted path of the documented function (empty when none).
    """

    name: str
    signature: inspect.Signature | None
    doc: str
    source: str
    where: str

    @property
    def call(self) -> str:
        """``do("name", a, b=1)``: the call with the signature's parameters."""
        if self.signature is None:
            return f'do("{self.name}", ...)'
        params = str(self.signature)[1:-1]
        return f'do("{self.name}"' + (f", {params})" if params else ")")

    @property
    def summary(self) -> str:
        """The docstring's first paragraph, on one line."""
        return " ".join(self.doc.split("\n\n", 1)[0].split())


def _own_doc(fn: Any) -> str:
    """``fn``'s docstring when it has one of its own (not its class's)."""
    doc = getattr(fn, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip() or doc is type(fn).__doc__:
        return ""
    return inspect.cleandoc(doc)


def _signature(fn: Callable) -> inspect.Signature | None:
    """The caller's parameters, without annotations (they name no library's types)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = [
        p.replace(annotation=inspect.Parameter.empty)
        for p in sig.parameters.values()
        if p.name not in _INJECTED
    ]
    return sig.replace(parameters=params, return_annotation=inspect.Signature.empty)


def _where(fn: Any) -> str:
    target = fn.func if isinstance(fn, functools.partial) else fn
    module = getattr(target, "__module__", None) or ""
    qualname = getattr(target, "__qualname__", None) or getattr(target, "__name__", "")
    return f"{module}.{qualname}" if module else str(qualname)


def _is_adapter(entry: Any) -> bool:
    """A table entry written as a function (not a marker, a path or an alias)."""
    if isinstance(entry, (str, Alias, Unsupported, _Native)) or not callable(entry):
        return False
    return bool(_own_doc(entry))


def _installed_tables() -> list[str]:
    """The shipped backends whose library is installed: the reference first."""
    out = []
    for b in sorted(reg.shipped(), key=lambda b: (b != REFERENCE, b)):
        try:
            if importlib.util.find_spec(b) is None:
                continue
            reg.table(b)
        except Exception:  # a library that is installed but does not load
            continue
        out.append(b)
    return out


@functools.cache
def _describe(name: str, generation: int) -> Description:
    fn = reg.composed().get(name)
    if fn is not None:
        return _of(name, fn, "composed")
    # the reference backend's adapter or own function, then the other tables' adapters
    try:
        entry = getattr(reg.table(REFERENCE), "TABLE", {}).get(name)
    except Exception:  # pragma: no cover - the reference library is a dependency
        entry = None
    if _is_adapter(entry):
        return _of(name, entry, f"table {REFERENCE}")
    from dispatch._resolve import resolve

    try:
        own = resolve(REFERENCE, name)
    except Exception:  # not a function of the reference library
        own = None
    if own is not None and _own_doc(own):
        return _of(name, own, "library")
    for b in _installed_tables():
        entry = getattr(reg.table(b), "TABLE", {}).get(name)
        if _is_adapter(entry):
            return _of(name, entry, f"table {b}")
    return Description(name, None, "", "", "")


def _of(name: str, fn: Any, source: str) -> Description:
    return Description(name, _signature(fn), _own_doc(fn), source, _where(fn))


def describe(name: str) -> Description:
    """The :class:`Description` of ``do(name, ...)`` (see the module docstring).

    Examples
    --------
    >>> d = describe("bincount_fixed")
    >>> d.call
    'do("bincount_fixed", x, weights, bins, x_sorted=False)'
    >>> d.source, d.summary
    ('composed', 'Count (or sum ``weights`` of) the occurrences of each value in ``range(bins)``.')
    """
    return _describe(name, reg.generation)


def help_text(name: str) -> str:
    """The docstring of ``xnp.NAME``: the call, where it is documented, the docstring."""
    d = describe(name)
    head = f"{d.call}: runs on the library of the arrays passed (dispatch.do)."
    if not d.doc:
        return (
            f"{head}\n\nNo docstring yet. How each library provides it: "
            f"dispatch.coverage([{name!r}]); the backend method list: docs/methods.md."
        )
    if d.source == "composed":
        origin = f"Documented on the composed fallback {d.where}."
    elif d.source.startswith("table "):
        origin = f"Documented on the {d.source.split()[1]} table's adapter {d.where}."
    else:
        origin = f"The reference library's documentation ({d.where}):"
    return f"{head}\n{origin}\n\n{d.doc}"
