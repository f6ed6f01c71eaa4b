"""The miss path: from a function name and a backend to one callable.

Resolution order for ``(backend, name)``, first hit wins, result cached:

1. a runtime registration (:func:`dispatch.register_function`);
2. the backend's ``TABLE[name]`` in ``translations/<backend>/``: a path, an
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
import inspect
import sys
from collections.abc import Callable
from types import BuiltinFunctionType, ModuleType
from typing import Any

from dispatch import _registry as reg
from dispatch._errors import (
    BackendNotInstalledError,
    RefusedNameError,
    UnknownBackendError,
    UnknownFunctionError,
    UnsupportedError,
    short,
    suggest,
)
from dispatch._trace import outside_traces
from dispatch.spec import Alias, Unsupported, _Native


def resolve(backend: str, name: str) -> Callable:
    """The implementation of ``name`` on ``backend`` (cached)."""
    try:
        return reg.RESOLVED[backend, name]
    except (KeyError, TypeError):  # TypeError: an unhashable name, which _resolve names
        return _resolve_miss(backend, name)


@outside_traces
def _resolve_miss(backend: str, name: str) -> Callable:
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
    spec = reg.record(backend).table.get(name)
    if isinstance(spec, Unsupported):
        return "unsupported"
    if spec is not None and not isinstance(spec, _Native):
        return "table"
    if spec is None and name in reg.composed():
        return "composed"
    try:
        _native(backend, name)
    except UnknownFunctionError:
        # a composed fallback was ruled out above (no entry) or by the entry (NATIVE:
        # the library's own function or nothing, as the resolution does)
        return "missing"
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
    if backend == reg.VALUES:  # resolved, safety rules included, as on its home backend
        return resolve(reg.VALUES_HOME, name)
    rec = reg.record(backend)
    if rec.resolver is not None:
        return _native(backend, name)  # a generic backend implements every name itself
    spec = rec.table.get(name)
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
        if getattr(fallback, "_dispatch_library_first", False):
            try:
                return _native(backend, name)
            except UnknownFunctionError:
                pass
        return _given_backend(fallback, backend)
    return _native(backend, name)


def _given_backend(fallback: Callable, backend: str) -> Callable:
    """A composed function whose signature asks for ``backend`` (or ``namespace``)
    gets it from the resolution, as autoray's ``compose`` supplies it."""
    wants = getattr(fallback, "_dispatch_wants", None)
    if not wants:
        return fallback
    supplied: dict[str, Any] = {}
    if "backend" in wants:
        supplied["backend"] = backend
    if "namespace" in wants:
        from dispatch._namespace import get_namespace

        supplied["namespace"] = get_namespace(backend)
    return functools.wraps(fallback)(functools.partial(fallback, **supplied))


def _from_alias(backend: str, name: str, spec: Alias) -> Callable:
    if spec.module is None:
        fn = _lookup(backend, spec.path, name)
    else:
        fn = _walk_from(spec.module, spec.path.split("."), backend, name)
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
    remaps = reg.record(backend).remaps
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in remaps:
            return _walk_from(remaps[prefix], parts[i:], backend, name)
    return _walk_from(reg.root_module(backend), parts, backend, name)


def _allowed_roots(backend: str) -> set[str]:
    rec = reg.record(backend)
    roots = {backend, rec.root.split(".")[0]}
    roots.update(p.split(".")[0] for p in rec.types)
    roots.update(m.split(".")[0] for m in rec.remaps.values())
    return roots


class _Policy:
    """What a backend's table lets a name reach (docs/safety.md), read once from its
    data: ``SUBMODULES`` (the modules below the root a name may walk into; ``"a.*"``
    also allows every module below ``a``; absent: all), ``CAPABILITY_MODULES`` (module
    prefix -> reason: nothing on the way to an object, nor the module that defines
    it, may lie there; the longest prefix wins and a reason of None allows),
    ``REFUSED`` (dotted path of an object -> reason; refusing a class refuses its
    instances), ``IN_PLACE_SUFFIX`` (a name ending so writes into
    its input) and ``GUARDED`` (dotted path of a function -> keyword values that
    ``do`` pins)."""

    def __init__(self, backend: str) -> None:
        rec = reg.record(backend)
        self.submodules: frozenset[str] | None = rec.submodules
        self.modules: dict[str, str | None] = dict(rec.capability_modules)
        self.paths: dict[str, str] = dict(rec.refused)
        self.suffix: str | None = rec.in_place_suffix
        self.guarded_paths: dict[str, dict[str, Any]] = {k: dict(v) for k, v in rec.guarded.items()}
        self._pending = set(self.paths) | set(self.guarded_paths)
        self._keep: list[Any] = []
        self._by_id: dict[int, str] = {}
        self._classes: list[tuple[type, str]] = []
        self._pins: dict[int, dict[str, Any]] = {}

    def submodule_allowed(self, dotted: str) -> bool:
        """Whether names may be taken from the module ``dotted``."""
        if self.submodules is None or dotted in self.submodules:
            return True
        parts = dotted.split(".")
        return any(".".join(parts[:i]) + ".*" in self.submodules for i in range(1, len(parts)))

    def on_the_way(self, dotted: str) -> bool:
        """Whether an allowed module lies below ``dotted`` (``torch.utils`` on the way
        to ``torch.utils.dlpack``)."""
        below = dotted + "."
        return self.submodules is None or any(m.startswith(below) for m in self.submodules)

    def passage_reason(self, dotted: str) -> str | None:
        """Why a name may not walk through the module ``dotted``, or None."""
        reason = self.module_reason(dotted)
        below = dotted + "."
        if reason is not None and any(
            k.startswith(below) and v is None for k, v in self.modules.items()
        ):
            return None  # an allowed module lies below: decided there
        return reason

    def module_reason(self, dotted: str) -> str | None:
        """The reason ``dotted`` (a module path, or an object's full path) lies in a
        capability module, or None."""
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):  # the longest prefix wins; None: allowed
            prefix = ".".join(parts[:i])
            if prefix in self.modules:
                reason = self.modules[prefix]
                return None if reason is None else f"it lies in {prefix!r} ({reason})"
        return None

    def object_reason(self, obj: Any) -> str | None:
        self._load()
        # a wrapper of a refused function is refused too (torch._dynamo rewraps
        # torch.manual_seed with functools.wraps when it loads)
        inner = obj
        for _ in range(8):
            reason = self._by_id.get(id(inner))
            if reason is not None:
                return reason
            inner = getattr(inner, "__wrapped__", None)
            if inner is None:
                break
        for cls, reason in self._classes:  # refusing a class refuses its instances
            if isinstance(obj, cls):
                return reason
        return None

    def guard(self, obj: Any) -> dict[str, Any] | None:
        self._load()
        return self._pins.get(id(obj))

    def _load(self) -> None:
        """Look up the entries whose module is imported by now. Nothing is imported
        here (a numpy call must not import scipy): an entry whose module is not
        loaded yet cannot be the object a walk just reached through it."""
        if not self._pending:
            return
        for path in list(self._pending):
            obj = _find(path)
            if obj is None:
                continue
            self._pending.discard(path)
            self._keep.append(obj)  # keeps the id valid
            if path in self.guarded_paths:
                self._pins[id(obj)] = self.guarded_paths[path]
            else:
                self._by_id[id(obj)] = self.paths[path]
                if isinstance(obj, type):
                    self._classes.append((obj, self.paths[path]))


_POLICIES: dict[str, _Policy] = {}
_MISSING = object()


def _policy(backend: str) -> _Policy:
    try:
        return _POLICIES[backend]
    except KeyError:
        pol = _POLICIES[backend] = _Policy(backend)
        return pol


def _find(path: str) -> Any:
    """The object at a dotted path a table names (trusted data), or None where its
    module is not imported or this version of the library lacks it."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        obj: Any = sys.modules.get(".".join(parts[:i]))
        if obj is None:
            continue
        for part in parts[i:]:  # static: no module __getattr__ imports a submodule
            obj = inspect.getattr_static(obj, part, None)
        return obj
    return None


def _refuse(backend: str, name: str, why: str) -> RefusedNameError:
    return RefusedNameError(
        f"do({name!r}) on backend {backend!r} is refused: {why}. dispatch resolves a name "
        "only to an array function of the library (docs/safety.md)."
    )


def _walk_from(module: str, parts: list[str], backend: str, name: str) -> Callable:
    reason = _policy(backend).module_reason(module)
    if reason is not None:
        raise _refuse(backend, name, reason)
    return _walk(importlib.import_module(module), parts, backend, name, module)


def _walk(obj: ModuleType, parts: list[str], backend: str, name: str, public: str) -> Callable:
    """Follow ``parts`` from the module ``obj``, imported as ``public``, under the
    rules of docs/safety.md.

    Only modules are walked through, and each one must be the genuine submodule
    of that name (not an alias to another module, a private one included); no
    module on the way, nor the one that defines the result, may be a capability
    module of the table; the result must be a callable of the library that is
    not a method bound to an object, nor a name the table refuses.
    """
    roots = _allowed_roots(backend)
    pol = _policy(backend)
    path = public  # the name the table gave (a module may be imported under another)
    container_ok = True  # the module a name starts from: the root or a MODULES remap
    for part in parts:
        if not part or part.startswith("_"):
            raise _unknown(backend, name, f"{part!r} is a private or empty name component")
        if not isinstance(obj, ModuleType):
            if inspect.getattr_static(obj, part, _MISSING) is _MISSING:  # runs no code
                raise _unknown(backend, name, f"{path} has no attribute {part!r}")
            raise _refuse(
                backend,
                name,
                f"it reaches the attribute {part!r} of the {type(obj).__name__} object "
                f"{path.rsplit('.', 1)[-1]!r}, and dispatch walks only through modules"
                + _in_place_hint(pol, obj, part),
            )
        path = f"{path}.{part}"
        sub = f"{obj.__name__}.{part}"
        reason = pol.passage_reason(path) or pol.passage_reason(sub)
        if reason is not None:
            raise _refuse(backend, name, reason)  # before importing it: importing runs code
        try:
            new = getattr(obj, part)
        except AttributeError:
            try:
                new = importlib.import_module(sub)
            except ImportError:
                raise _unknown(backend, name, f"{obj.__name__} has no attribute {part!r}") from None
        if isinstance(new, ModuleType):
            if new.__name__.split(".")[0] not in roots:
                raise _unknown(backend, name, f"{new.__name__!r} is outside the library")
            if new.__name__ != sub and not reg.is_public_name(new.__name__):
                raise _refuse(
                    backend, name, f"{path!r} is an alias of the private module {new.__name__!r}"
                )
            reason = pol.passage_reason(new.__name__)
            if reason is not None:
                raise _refuse(backend, name, reason)
            container_ok = pol.submodule_allowed(path)
            if not container_ok and not pol.on_the_way(path):
                raise _refuse(backend, name, _not_listed(backend, path))
        elif not container_ok:
            raise _refuse(backend, name, _not_listed(backend, path.rsplit(".", 1)[0]))
        obj = new
    if isinstance(obj, ModuleType):
        raise _unknown(backend, name, f"{name!r} is a module, not a function")
    if not callable(obj):  # a constant (pi, newaxis, an enum value): calling it cannot work
        raise _unknown(
            backend, name, f"{name!r} is not a function but a {type(obj).__name__!r} object"
        )
    owner = getattr(obj, "__module__", None)
    if not isinstance(owner, str):  # scipy's ufuncs: the module of their type
        owner = getattr(type(obj), "__module__", None)
    if isinstance(owner, str) and owner.split(".")[0] not in roots | {"builtins"}:
        raise _unknown(backend, name, f"{name!r} comes from {owner!r}, outside the library")
    if owner == "builtins" and not _library_builtin(obj):
        raise _unknown(backend, name, f"{name!r} is a Python builtin, not a library function")
    pins = pol.guard(obj)
    if pins is not None:
        return _pinned(obj, pins, backend, name)
    reason = pol.object_reason(obj)
    bound = getattr(obj, "__self__", None)
    if reason is None and bound is not None and not isinstance(bound, ModuleType):
        reason = f"it is a method bound to the {type(bound).__name__} object behind {path!r}"
    if reason is None and isinstance(owner, str):
        reason = pol.module_reason(owner)
    if reason is None and pol.suffix and parts and _ends_in_place(parts[-1], pol.suffix):
        reason = (
            f"a name ending in {pol.suffix!r} writes into its input, and do never mutates "
            f"its inputs: call {parts[-1][: -len(pol.suffix)]!r} instead"
        )
    if reason is not None:
        raise _refuse(backend, name, reason)
    return obj


def _library_builtin(obj: Any) -> bool:
    """A function written in C by the library (numpy's, torch's builtins report the
    module ``builtins``), not an object of Python's own ``builtins`` (``open``,
    ``exec``, ``setattr``, ``list[int]``, ``types.ModuleType``)."""
    import builtins

    return (
        isinstance(obj, BuiltinFunctionType)
        and getattr(builtins, getattr(obj, "__name__", ""), None) is not obj
    )


def _not_listed(backend: str, module: str) -> str:
    return (
        f"{module!r} is not one of the array modules that the {backend!r} table lists in "
        "SUBMODULES"
    )


def _ends_in_place(part: str, suffix: str) -> bool:
    return part.endswith(suffix) and not part.endswith(suffix * 2)


def _in_place_hint(pol: _Policy, obj: Any, part: str) -> str:
    """The table's reason for the attribute (``ufunc.at``: in place), if it has one."""
    attr = inspect.getattr_static(type(obj), part, _MISSING)
    reason = None if attr is _MISSING else pol.object_reason(attr)
    return "" if reason is None else f" ({reason})"


def _pinned(fn: Callable, pins: dict[str, Any], backend: str, name: str) -> Callable:
    """``fn`` with the keywords ``pins`` fixed to their safe values (``allow_pickle=False``):
    another value, or extra positional arguments that could carry one, are refused."""
    params = list(inspect.signature(fn).parameters.values())
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var_positional = any(p.kind is p.VAR_POSITIONAL for p in params)

    def same(value: Any, safe: Any) -> bool:
        try:
            return value is safe or bool(value == safe)
        except Exception:  # an array or an odd object: not the safe value
            return False

    @functools.wraps(fn)
    def pinned(*args: Any, **kwargs: Any) -> Any:
        if var_positional and len(args) > len(positional):
            pinned_names = ", ".join(pins)
            raise _refuse(backend, name, f"pass its options by keyword ({pinned_names} are pinned)")
        given = dict(zip(positional, args, strict=False))
        for key, safe in pins.items():
            value = given.get(key, kwargs.get(key, safe))
            if not same(value, safe):
                raise _refuse(
                    backend,
                    name,
                    f"{key}={short(value)} could unpickle or run code; do pins {key}={safe!r}",
                )
            if key not in given:
                kwargs[key] = safe  # explicit: an environment variable cannot flip the default
        return fn(*args, **kwargs)

    return pinned


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
            names.update(reg.record(b).table)
    from dispatch.translations import _vocabulary as vocabulary

    names.update(vocabulary.NAMES)
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
        fix = register_hint(backend, name)
    else:
        fix = ""
    return UnknownFunctionError(
        f"do({name!r}) on backend {backend!r}: no registration, table entry, composed "
        f"fallback or public library function of that name ({detail}).{suggest(name, pool)}"
        f"{fix}"
    )


def register_hint(backend: str, name: str) -> str:
    """The sentence that closes the error of an unknown public ``name``: how to add it."""
    return f" Add one with dispatch.register_function({backend!r}, {name!r}, fn)."
