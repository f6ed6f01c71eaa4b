"""A backend as a record: everything the engine knows of one backend, read once.

A backend is a translation table plus the types that identify it (a shipped
table module in ``translations/``), a user registration (``register_backend``)
or an implicit backend (an installed module whose attributes are its functions).
The engine reads all three through the same fields of a :class:`Backend`, built
the first time the backend is met and kept until a registration clears the
caches; this module is the one place that knows a table module's optional facts
and their defaults (listed in ``translations/__init__.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import Any

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True, eq=False)
class Backend:
    """The facts of one backend.

    Attributes
    ----------
    name
        The backend name (``"torch"``, ``"scipy.sparse"``, a user's ``"mylib"``).
    table
        Canonical name -> entry (``TABLE``); empty for a user or implicit backend.
    root
        Dotted name of the module whose attributes are the plain names.
    remaps
        ``MODULES``: name prefix -> module, the longest prefix wins.
    types
        Module prefixes of the library's array classes (``TYPES``).
    priority
        Precedence in mixed calls: numpy -1, libraries 0, lazy 1.
    convert_constants
        Whether numpy arrays in a call this backend decides become its arrays.
    resolver
        A user backend's ``resolver(name)``, which implements every name itself.
    is_array_type
        The table's filter of its classes that never decide a backend (scalars, dtypes).
    creation_kwargs
        ``creation_kwargs(like) -> dict``: what creation routines take from ``like=``.
    submodules, capability_modules, refused, in_place_suffix, guarded
        What a name may reach (docs/safety.md); ``submodules`` None allows all.
    """

    name: str
    table: Mapping[str, Any]
    root: str
    remaps: Mapping[str, str]
    types: tuple[str, ...]
    priority: float
    convert_constants: bool
    resolver: Callable[[str], Callable] | None
    is_array_type: Callable[[type], bool] | None
    creation_kwargs: Callable[[Any], dict[str, Any]] | None
    submodules: frozenset[str] | None
    capability_modules: Mapping[str, str | None]
    refused: Mapping[str, str]
    in_place_suffix: str | None
    guarded: Mapping[str, Mapping[str, Any]]


def from_table(name: str, module: ModuleType, root: str | None = None) -> Backend:
    """The record of a shipped table module: its optional facts with their defaults.

    ``root``: another module to find the library's plain names in (a wrapper of the
    library, set by :func:`~dispatch._registry.redirect_root`); the ``SUBMODULES``
    below the table's own root are allowed below it too.
    """
    facts = vars(module)
    remaps = dict(facts.get("MODULES", {}))
    submodules = facts.get("SUBMODULES")
    own = remaps.get("", name)
    if root is not None and root != own and submodules is not None:
        submodules = [*submodules, *_moved(submodules, own, root)]
    return Backend(
        name=name,
        table=facts.get("TABLE", _EMPTY),
        root=own if root is None else root,
        remaps=MappingProxyType(remaps),
        types=tuple(facts.get("TYPES", ())),
        priority=facts.get("PRIORITY", 0),
        convert_constants=facts.get("CONVERT_CONSTANTS", True),
        resolver=None,
        is_array_type=facts.get("is_array_type"),
        creation_kwargs=facts.get("creation_kwargs"),
        submodules=None if submodules is None else frozenset(submodules),
        capability_modules=MappingProxyType(dict(facts.get("CAPABILITY_MODULES", {}))),
        refused=MappingProxyType(dict(facts.get("REFUSED", {}))),
        in_place_suffix=facts.get("IN_PLACE_SUFFIX"),
        guarded=MappingProxyType(dict(facts.get("GUARDED", {}))),
    )


def _moved(modules: Any, old: str, new: str) -> list[str]:
    """The entries of ``modules`` below ``old``, moved below ``new``.

    >>> _moved(["lib.linalg", "lib.fft.*", "other"], "lib", "wrap")
    ['wrap.linalg', 'wrap.fft.*']
    """
    return [new + m[len(old):] for m in modules if m.startswith(old + ".")]


def from_registration(name: str, info: Mapping[str, Any] | None) -> Backend:
    """The record of a user backend (``info`` from ``register_backend``) or, with
    ``info`` None, of an implicit backend: the module ``name`` itself, priority 0,
    constants left alone."""
    info = info or {}
    return Backend(
        name=name,
        table=_EMPTY,
        root=info.get("module", name),
        remaps=_EMPTY,
        types=(),
        priority=info.get("priority", 0),
        convert_constants=info.get("convert", False),
        resolver=info.get("resolver"),
        is_array_type=None,
        creation_kwargs=None,
        submodules=None,
        capability_modules=_EMPTY,
        refused=_EMPTY,
        in_place_suffix=None,
        guarded=_EMPTY,
    )
