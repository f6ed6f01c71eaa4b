"""The miss path: from a function name and a backend to one callable.

Resolution order for ``(backend, name)``, first hit wins, result cached:

1. a runtime registration (:func:`dispatch.register_function`);
2. the backend's ``TABLE[name]`` in ``translations/<backend>.py``: a path, an
   :func:`~dispatch.spec.alias`, a direct implementation, ``NATIVE`` (skip
   step 3) or :func:`~dispatch.spec.unsupported` (an error with its reason);
3. the composed fallback of that name (``translations/_composed/``), except on
   a user backend registered with a ``resolver`` (a lazy graph, a tracer), which
   answers every name itself;
4. the public attribute of that dotted name in the library's root module,
   after the longest matching prefix remap in ``MODULES``; never a private or
   dunder name, never an object from outside the library's own packages;
5. :class:`~dispatch.UnknownFunctionError` naming what was tried and the
   closest known names.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from dispatch import _registry as reg
from dispatch._errors import (
    BackendNotInstalledError,
    UnknownBackendError,
    UnknownFunctionError,
    UnsupportedError,
    short,
    suggest,
)
from dispatch.spec import Alias, Unsupported, _Native


def resolve(backend: str, name: str) -> Callable:
    """The implementation of ``name`` on ``backend`` (cached)."""
    try:
        return reg.RESOLVED[backend, name]
    except KeyError:
        pass
    gen = reg.generation
    try:
        fn = _resolve(backend, name)
    except (BackendNotInstalledError, UnknownBackendError) as err:
        if str(err).startswith("do("):
            raise
        # the table's error knows the backend, not the call: name the function too
        raise type(err)(f"do({short(name)}): {err}") from err
    except ImportError as err:  # an entry's module is missing (scipy on a numpy-only install)
        raise reg.missing_module(err, backend, name) from err
    reg.store(reg.RESOLVED, (backend, name), fn, gen)
    return fn


def how(backend: str, name: str) -> str:
    """How ``name`` resolves on ``backend``: one of ``'registered'``, ``'table'``,
    ``'composed'``, ``'native'``, ``'unsupported'`` or ``'missing'``."""
    if (backend, name) in reg.OVERRIDES:
        return "registered"
    spec = getattr(reg.table(backend), "TABLE", {}).get(name)
    if isinstance(spec, Unsupported):
        return "unsupported"
    if spec is not None and not isinstance(spec, _Native):
        return "table"
    if spec is None and name in reg.composed():
        return "composed"
    try:
        _native(backend, name)
    except UnknownFunctionError:
        return "composed" if name in reg.composed() else "missing"
    return "native"


def _resolve(backend: str, name: str) -> Callable:
    if not isinstance(name, str):
        raise TypeError(
            f"do({short(name)}, ...) on backend {backend!r}: the function name must be a "
            f"string such as 'sum', got {type(name).__name__}"
        )
    fn = reg.OVERRIDES.get((backend, name))
    if fn is not None:
        return fn
    if reg.USER_BACKENDS.get(backend, {}).get("resolver") is not None:
        return _native(backend, name)  # a generic backend implements every name itself
    tbl = reg.table(backend)
    spec = getattr(tbl, "TABLE", {}).get(name)
    if spec is not None:
        if isinstance(spec, Unsupported):
            raise UnsupportedError(
                f"{name!r} is not supported on backend {backend!r}: {spec.reason}"
            )
        if isinstance(spec, Alias):
            return _from_alias(backend, name, spec)
        if isinstance(spec, str):
            return _lookup(backend, spec, name)
        if not isinstance(spec, _Native):
            return spec
    elif (fallback := reg.composed().get(name)) is not None:
        return fallback
    return _native(backend, name)


def _from_alias(backend: str, name: str, spec: Alias) -> Callable:
    if spec.module is None:
        fn = _lookup(backend, spec.path, name)
    else:
        fn = _walk(importlib.import_module(spec.module), spec.path.split("."), backend, name)
    if not spec.renames:
        return fn
    renames = spec.renames

    @functools.wraps(fn)
    def renamed(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **{renames.get(k, k): v for k, v in kwargs.items()})

    return renamed


def _lookup(backend: str, path: str, name: str) -> Callable:
    """Look ``path`` up from the backend's root, honouring ``MODULES`` remaps."""
    parts = path.split(".")
    for part in parts:
        if not part or part.startswith("_"):
            raise _unknown(backend, name, f"{part!r} is a private or empty name component")
    remaps = getattr(reg.table(backend), "MODULES", {})
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in remaps:
            return _walk(importlib.import_module(remaps[prefix]), parts[i:], backend, name)
    return _walk(importlib.import_module(reg.root_module(backend)), parts, backend, name)


def _allowed_roots(backend: str) -> set[str]:
    mod = reg.table(backend)
    roots = {backend, reg.root_module(backend).split(".")[0]}
    roots.update(p.split(".")[0] for p in getattr(mod, "TYPES", ()))
    roots.update(m.split(".")[0] for m in getattr(mod, "MODULES", {}).values())
    return roots


def _walk(obj: Any, parts: list[str], backend: str, name: str) -> Callable:
    roots = _allowed_roots(backend)
    for part in parts:
        if not part or part.startswith("_"):
            raise _unknown(backend, name, f"{part!r} is a private or empty name component")
        try:
            obj = getattr(obj, part)
        except AttributeError:
            sub = getattr(obj, "__name__", None)
            if not isinstance(obj, ModuleType):
                raise _unknown(backend, name, f"no attribute {part!r}") from None
            try:
                obj = importlib.import_module(f"{sub}.{part}")
            except ImportError:
                raise _unknown(backend, name, f"{sub} has no attribute {part!r}") from None
        if isinstance(obj, ModuleType) and obj.__name__.split(".")[0] not in roots:
            raise _unknown(backend, name, f"{obj.__name__!r} is outside the library")
    if isinstance(obj, ModuleType):
        raise _unknown(backend, name, f"{name!r} is a module, not a function")
    if not callable(obj):  # a constant (pi, newaxis, an enum value): calling it cannot work
        raise _unknown(
            backend, name, f"{name!r} is not a function but a {type(obj).__name__!r} object"
        )
    owner = getattr(obj, "__module__", None)
    if isinstance(owner, str) and owner.split(".")[0] not in roots | {"builtins"}:
        raise _unknown(backend, name, f"{name!r} comes from {owner!r}, outside the library")
    return obj


def _native(backend: str, name: str) -> Callable:
    resolver = reg.USER_BACKENDS.get(backend, {}).get("resolver")
    if resolver is not None:
        if any(not p or p.startswith("_") for p in name.split(".")):
            raise _unknown(backend, name, "private or empty name component")
        try:
            return resolver(name)
        except AttributeError as err:
            raise _unknown(backend, name, str(err)) from None
    return _lookup(backend, name, name)


def known_names(backend: str | None = None) -> set[str]:
    """Names with a translation or a composed fallback (for suggestions and coverage)."""
    reg.composed()
    with reg.lock:  # copies: iterating while another thread registers would raise
        names = set(reg.COMPOSED)
        overrides = list(reg.OVERRIDES)
    names.update(n for (b, n) in overrides if backend is None or b == backend)
    for b, mod in reg.loaded_tables().items():
        if mod is not None and (backend is None or b == backend):
            names.update(getattr(mod, "TABLE", {}))
    from dispatch.translations import _api

    names.update(_api.NAMES)
    return names


def _unknown(backend: str, name: str, detail: str) -> UnknownFunctionError:
    pool = known_names(backend)
    try:
        root = importlib.import_module(reg.root_module(backend))
        pool.update(
            n
            for n in dir(root)
            if not n.startswith("_")
            and callable(attr := getattr(root, n, None))
            and not isinstance(attr, ModuleType)
        )
    except Exception:  # the suggestion pool is best effort
        pass
    pool.discard(name)
    head = name.split(".", 1)[0]
    if "." in name and head in sys.stdlib_module_names and not any(
        n.startswith(head + ".") for n in pool
    ):
        fix = f" ({head!r} is a Python standard library module, not part of {backend!r}.)"
    elif reg.is_public_name(name):
        fix = f" Add one with dispatch.register_function({backend!r}, {name!r}, fn)."
    else:
        fix = ""
    return UnknownFunctionError(
        f"do({name!r}) on backend {backend!r}: no registration, table entry, composed "
        f"fallback or public library function of that name ({detail}).{suggest(name, pool)}"
        f"{fix}"
    )
