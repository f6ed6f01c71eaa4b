"""The only mutable state of dispatch: caches, user registrations, loaded tables.

Every mutation goes through a ``register*`` function (here, or in
:mod:`dispatch._register`), takes the lock, and calls :func:`clear_caches`.
Nothing else clears a cache. A resolution that ran while a registration happened
is not stored (see :data:`generation`), so a stale callable can never outlive the
registration that made it stale. A miss run by a tracing compiler stores nothing
(:mod:`dispatch._trace`, which also holds the values such a miss built, emptied
here with the caches).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import pkgutil
import sys
import threading
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from dispatch._backend import Backend, from_registration, from_table
from dispatch._errors import (
    BackendNotInstalledError,
    UnknownBackendError,
    short,
    suggest,
    warn_at_caller,
)
from dispatch._trace import forget_parked, outside_traces, tracing

if TYPE_CHECKING:  # the registration functions (dispatch._register, which imports this module)
    from dispatch._register import (  # noqa: F401
        register_backend,
        register_function,
        register_translation,
        root_name,
        unregister_function,
    )

TRANSLATIONS = "dispatch.translations"

# The hot path of do(): argument types -> final callable. Calls without keywords
# of one or two arguments use nested dicts (name -> type -> [type ->] callable),
# which spares building a key tuple; every other call uses a flat tuple key.
CALLS1: dict[str, dict[type, Callable]] = {}
CALLS2: dict[str, dict[type, dict[type, Callable]]] = {}
CALLS: dict[tuple, Callable] = {}
# the same for the faces that depart from do's conventions (dispatch.autoray): the
# face's final callables, keyed as do's are (nested for one or two arguments without
# keywords, so that the face's hot path costs what do's does); cleared with the others
FACE_CALLS1: dict[str, dict[type, Callable]] = {}
FACE_CALLS2: dict[str, dict[type, dict[type, Callable]]] = {}
FACE_CALLS: dict[tuple, Callable] = {}
# (backend, fn_name) -> resolved implementation
RESOLVED: dict[tuple[str, str], Callable] = {}
# the names in RESOLVED: a call entry is cached only for a name that resolved
# somewhere, so calls of a name that never resolves (a typo, 20,000 generated
# names) cache nothing and cost no memory (docs/errors.md)
RESOLVED_NAMES: set[str] = set()
# entries store_call declined: the per-call caches of such an entry (the element
# types of a sequence call, keyed by the entry itself) are not stored either
_DECLINED: weakref.WeakSet = weakref.WeakSet()
# type -> backend name (or None for objects that do not decide a backend)
TYPE_BACKEND: dict[type, str | None] = {}

# user state
OVERRIDES: dict[tuple[str, str], Callable] = {}
COMPOSED: dict[str, Callable] = {}
USER_TYPES: dict[Any, str] = {}  # type or module prefix -> backend name
USER_BACKENDS: dict[str, dict[str, Any]] = {}  # name -> {module, priority, convert}
ROOTS: dict[str, str] = {}  # shipped backend -> the module of its plain names (redirect_root)

_TABLES: dict[str, ModuleType | None] = {}
_composed_loaded = False

lock = threading.RLock()
generation = 0


def clear_caches() -> None:
    """Forget every resolved callable; the next call of each name resolves anew."""
    global generation
    with lock:
        generation += 1
        CALLS1.clear()
        CALLS2.clear()
        CALLS.clear()
        FACE_CALLS1.clear()
        FACE_CALLS2.clear()
        FACE_CALLS.clear()
        RESOLVED.clear()
        RESOLVED_NAMES.clear()
        TYPE_BACKEND.clear()
        _RECORDS.clear()
        forget_parked()


def store(cache: dict, key: Any, value: Any, seen_generation: int) -> None:
    """Cache ``value`` unless a registration happened since ``seen_generation``."""
    if tracing():
        return
    with lock:
        if generation == seen_generation:
            if cache is CALLS and type(key) is tuple and key and key[0] in _DECLINED:
                return
            cache[key] = value
            if cache is RESOLVED:
                RESOLVED_NAMES.add(key[1])


def _put(caches: tuple[dict, dict, dict], name: str, types: tuple, kwargs: bool,
         value: Callable) -> None:
    """``value`` under ``name`` and ``types`` in do's layout: nested dicts (name -> type
    -> [type ->] callable) for one or two arguments without keywords, else a flat
    tuple key. Under the lock."""
    one, two, flat = caches
    if not kwargs and len(types) == 1:
        one.setdefault(name, {})[types[0]] = value
    elif not kwargs and len(types) == 2:
        two.setdefault(name, {}).setdefault(types[0], {})[types[1]] = value
    else:
        key = (name, *types)
        flat[key] = value


def store_face(key: tuple, kwargs: bool, value: Callable, seen_generation: int) -> None:
    """Cache a face's final callable under ``key`` (the name, then the argument types,
    as do's keys), in do's layout."""
    if tracing():
        return
    with lock:
        if generation == seen_generation:
            _put((FACE_CALLS1, FACE_CALLS2, FACE_CALLS), key[0], key[1:], kwargs, value)


def store_call(
    name: str, types: tuple, kwargs: bool, value: Callable, seen_generation: int
) -> None:
    """Cache the final callable of a ``do`` call with these argument types.

    Nothing is cached for a name that has not resolved on any backend yet: an
    entry that resolves when called (no argument decided the backend, or the
    elements of a sequence decide) would otherwise stay cached for a name that
    fails every time. Such a name is cached from its second successful call on.
    """
    if tracing():
        return
    with lock:
        if generation != seen_generation:
            return
        if name not in RESOLVED_NAMES:
            with contextlib.suppress(TypeError):  # values that take no weak reference
                _DECLINED.add(value)
            return
        _put((CALLS1, CALLS2, CALLS), name, types, kwargs, value)


def cached_call(name: str, *types: type, kwargs: bool = False) -> Callable | None:
    """The cached callable of ``do(name, ...)`` for these argument types, or None.

    ``types`` are the positional argument types followed, for a call with
    keywords (``kwargs=True``), by the types of the keyword values.
    """
    if not kwargs and len(types) == 1:
        return CALLS1.get(name, {}).get(types[0])
    if not kwargs and len(types) == 2:
        return CALLS2.get(name, {}).get(types[0], {}).get(types[1])
    key = (name, *types)
    return CALLS.get(key)


# ---------------------------------------------------------------- tables


_SHIPPED: list[frozenset[str]] = []


def shipped() -> frozenset[str]:
    """Names of the translation modules shipped in ``dispatch.translations``."""
    if not _SHIPPED:
        import dispatch.translations as pkg

        names = frozenset(
            m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_")
        )
        _SHIPPED.append(names)
    return _SHIPPED[0]


def known_backends() -> list[str]:
    """Shipped backends, user-registered ones and implicit ones with a registration,
    sorted."""
    with lock:  # a copy: another thread may register meanwhile
        implicit = {b for b, _ in OVERRIDES if is_implicit(b)}
        return sorted(shipped() | set(USER_BACKENDS) | implicit)


def has_table(backend: str) -> bool:
    return backend in shipped()


def unknown_backend(backend: Any, where: str = "") -> UnknownBackendError:
    """The error for a backend name that is neither shipped, registered nor an
    installed module."""
    prefix = f"{where}: " if where else ""
    why = ""
    if isinstance(backend, str) and not is_public_name(backend):
        why = " A backend name is a module name such as 'mylib' or 'mylib.arrays'."
    elif isinstance(backend, str) and reserved(backend):
        why = (
            f" {backend.split('.')[0]!r} is not an array library, so its functions are "
            "not a backend."
        )
    elif isinstance(backend, str):
        why = " No module of that name is installed either."
    return UnknownBackendError(
        f"{prefix}unknown backend {short(backend)}.{suggest(backend, known_backends())} "
        f"Known backends: {', '.join(known_backends())}; a new array library is added "
        f"with dispatch.register_backend(type_or_module_prefix, name).{why}"
    )


# ---------------------------------------------------------------- argument checks

_NAME_RULE = (
    "a public dotted name such as 'sum' or 'linalg.qr' (Python identifiers joined by "
    "dots, none starting with '_')"
)


def is_public_name(name: str) -> bool:
    return all(p.isidentifier() and not p.startswith("_") for p in name.split("."))


def check_function_name(where: str, name: Any) -> str:
    """``name`` if it can name a function of ``do``; TypeError/ValueError otherwise."""
    if not isinstance(name, str):
        raise TypeError(
            f"{where}: the function name must be a string, got {type(name).__name__} {short(name)}"
        )
    if not is_public_name(name):
        raise ValueError(f"{where}: {name!r} is not a valid function name; use {_NAME_RULE}")
    return name


# ---------------------------------------------------------------- implicit backends
#
# As in autoray, any module name can be a backend: a name that is neither shipped
# (a table in dispatch.translations) nor registered with register_backend is an
# *implicit* backend whose functions are the attributes of the module of that name
# (imported when first resolved), with priority 0 and no conversion of constants.
# Registrations accept such a name whether or not its module is installed (a
# backend whose module is missing is simply never met); elsewhere (``like=``,
# set_backend, supports) a name that no module answers to is a typo and gets
# UnknownBackendError with suggestions, e.g. 'pytorch' -> 'torch'.


def reserved(backend: str) -> bool:
    """Roots that are never an implicit backend: the standard library (``os``,
    ``subprocess``: not array libraries, and their functions reach the process)
    and dispatch itself."""
    root = backend.split(".", 1)[0]
    return root in sys.stdlib_module_names or root == "dispatch"


def is_implicit(backend: Any) -> bool:
    """Whether ``backend`` is an implicit backend name: a valid dotted module name
    that is neither shipped, nor registered with ``register_backend``, nor reserved
    (the standard library, dispatch itself). Says nothing about installation."""
    return (
        isinstance(backend, str)
        and backend not in USER_BACKENDS
        and not has_table(backend)
        and is_public_name(backend)
        and not reserved(backend)
    )


def has_registrations(backend: str) -> bool:
    """Whether a function is registered on ``backend`` (``register_function``,
    ``compose(...).register``)."""
    with lock:
        return any(b == backend for b, _ in OVERRIDES)


def module_findable(module: str) -> bool:
    """Whether ``module`` is imported or importable, without importing it (only its
    parent packages, as ``importlib.util.find_spec`` does)."""
    if sys.modules.get(module) is not None:
        return True
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package is missing, or a bad name
        return False


def check_backend(where: str, backend: Any, *, registering: bool = False) -> str:
    """``backend`` if it names a backend; TypeError or UnknownBackendError otherwise.

    Accepted: shipped and registered backends, and implicit ones that have a
    registration or whose module can be found. With ``registering`` (the
    ``register*`` functions) any implicit name is accepted, installed or not.
    ``where`` (the call) opens the error message.
    """
    if isinstance(backend, str) and backend in BACKEND_ALIASES:
        backend = BACKEND_ALIASES[backend]
    if not isinstance(backend, str):
        raise TypeError(
            f"{where}: the backend must be a name such as 'numpy', got "
            f"{type(backend).__name__} {short(backend)}"
        )
    if backend in USER_BACKENDS or has_table(backend) or backend == VALUES:
        return backend
    if is_implicit(backend) and (
        registering or has_registrations(backend) or module_findable(backend)
    ):
        return backend
    raise unknown_backend(backend, where)


# autoray's backend of Python values (numbers, lists, tuples): a registration under it
# serves the calls whose arguments are Python values only, and any other name
# looked up under it is the one of ``VALUES_HOME`` (autoray's module alias
# builtins -> numpy), never an attribute of Python's ``builtins`` module
VALUES = "builtins"
VALUES_HOME = "numpy"


def values_function(name: str) -> Callable | None:
    """The function registered under :data:`VALUES` for ``name``, if any."""
    return OVERRIDES.get((VALUES, name))


# another name of a backend, for registrations and like= (autoray's "autoray.lazy")
BACKEND_ALIASES: dict[str, str] = {}


def alias_backend(alias: str, backend: str) -> None:
    """Make ``alias`` another name of ``backend`` in registrations and ``like=``."""
    with lock:
        BACKEND_ALIASES[alias] = backend
        clear_caches()


def _check_backend(where: str, backend: Any) -> str:
    """The backend of a registration: any valid name, installed or not.

    A name close to a known backend that no module answers to is probably a typo
    ('numpyy'): it is accepted, as autoray accepts it, with a warning.
    """
    backend = check_backend(where, backend, registering=True)
    if is_implicit(backend) and not has_registrations(backend):
        close = suggest(backend, shipped() | set(USER_BACKENDS))
        if close and not module_findable(backend):
            warn_at_caller(
                f"{where}: {backend!r} is neither a known backend nor an installed "
                f"module.{close} The registration is kept for an implicit backend "
                f"{backend!r}, met only once a module of that name is installed."
            )
    return backend


def table(backend: str) -> ModuleType | None:
    """The translation module of ``backend`` (imported on first use), or None.

    None for a user backend and for an implicit one (whose module is then
    imported here, once).

    Raises
    ------
    BackendNotInstalledError
        The module exists but its library cannot be imported, or the module of an
        implicit backend cannot be imported.
    UnknownBackendError
        ``backend`` names nothing: not shipped, registered or installed.
    """
    try:
        return _TABLES[backend]
    except (KeyError, TypeError):
        if backend == VALUES:
            return table(VALUES_HOME)
        return _load_table(backend)


@outside_traces
def _load_table(backend: str) -> ModuleType | None:
    with lock:
        if backend in _TABLES:
            return _TABLES[backend]
        if not has_table(backend):
            if backend in USER_BACKENDS:
                if not tracing():
                    _TABLES[backend] = None
                return None
            if is_implicit(backend):
                _import_implicit(backend)
                if not tracing():
                    _TABLES[backend] = None
                return None
            raise unknown_backend(backend)
        try:
            mod = importlib.import_module(f"{TRANSLATIONS}.{backend}")
        except ImportError as err:
            missing = getattr(err, "name", None) or backend
            raise BackendNotInstalledError(
                f"backend {backend!r} needs the library {missing!r}, which is not "
                f"installed ({err}); install it, e.g. `pip install array-dispatch[{backend}]`."
            ) from err
        if not tracing():
            _TABLES[backend] = mod
        return mod


_RECORDS: dict[str, Backend] = {}


def record(backend: str) -> Backend:
    """The :class:`~dispatch._backend.Backend` record of ``backend``, built the first
    time it is met (importing its table, or its module if implicit) and kept until
    a registration clears the caches.

    Raises
    ------
    BackendNotInstalledError, UnknownBackendError
        As :func:`table` does.
    """
    try:
        return _RECORDS[backend]
    except (KeyError, TypeError):
        if backend == VALUES:
            return record(VALUES_HOME)
        return _build_record(backend)


@outside_traces
def _build_record(backend: str) -> Backend:
    gen = generation
    mod = table(backend)
    rec = (
        from_table(backend, mod, ROOTS.get(backend))
        if mod is not None
        else (from_registration(backend, USER_BACKENDS.get(backend)))
    )
    store(_RECORDS, backend, rec, gen)
    return rec


def _import_implicit(backend: str) -> None:
    try:
        importlib.import_module(backend)
    except ImportError as err:
        if not has_registrations(backend) and not module_findable(backend):
            raise unknown_backend(backend) from None  # a typo, not a missing library
        raise BackendNotInstalledError(
            f"backend {backend!r} is the module {backend!r}, which cannot be imported "
            f"({err}); install the library that provides it (`pip install "
            f"{backend.split('.')[0]}`, if that is its name on the package index)."
        ) from err


def missing_module(err: ImportError, backend: str, name: str) -> BackendNotInstalledError:
    """The error for ``name`` on ``backend`` whose implementation needs a module
    that is not installed (``scipy.special.erf`` on a numpy-only install)."""
    missing = (getattr(err, "name", None) or "").split(".")[0] or "?"
    how = (
        f"`pip install array-dispatch[{missing}]`"
        if missing in shipped()
        else f"`pip install {missing}` (if that is its name on the package index)"
    )
    return BackendNotInstalledError(
        f"do({name!r}) on backend {backend!r} needs the library {missing!r}, which is "
        f"not installed ({err}); install it with {how}."
    )


def redirect_root(backend: str, module: str | None) -> None:
    """Find the plain names of the shipped ``backend`` in ``module`` (None: in the
    library's own module again).

    For a module that wraps the library (autoray's module aliases:
    ``_MODULE_ALIASES["autograd"] = "pennylane.numpy"``). The table's own entries
    still win; the names it leaves to the library (its paths, ``NATIVE`` and the
    module walk) are looked up in ``module``, under the same safety rules, its
    ``SUBMODULES`` allowed below ``module`` as below the library's root.
    """
    from dispatch import _resolve

    with lock:
        if module is None:
            ROOTS.pop(backend, None)
        else:
            ROOTS[backend] = module
        _resolve._POLICIES.pop(backend, None)
        clear_caches()


def loaded_tables() -> dict[str, ModuleType | None]:
    return dict(_TABLES)


def root_module(backend: str) -> str:
    """Dotted name of the module that holds the backend's numpy-like namespace."""
    if is_implicit(backend):
        return backend
    return record(backend).root


def priority(backend: str) -> float:
    """Mixed-call precedence: numpy -1, libraries and implicit backends 0, lazy 1
    (tables and registrations may use fractions: scipy.sparse is -0.5)."""
    if is_implicit(backend):
        return 0
    return record(backend).priority


def converts_constants(backend: str) -> bool:
    """Whether numpy constants are converted to this backend in mixed calls
    (never for an implicit backend: dispatch knows no ``asarray`` of it)."""
    if is_implicit(backend):
        return False
    return record(backend).convert_constants


def library_loaded(backend: str) -> bool:
    """Whether the library behind a shipped table is already imported (a ``None`` in
    ``sys.modules``, which blocks an import, is not)."""
    return sys.modules.get(backend.split(".")[0]) is not None


# ---------------------------------------------------------------- composed


def composed() -> dict[str, Callable]:
    """All composed fallbacks, importing ``translations/_composed/*`` once."""
    global _composed_loaded
    if not _composed_loaded:
        with lock:
            if not _composed_loaded:
                import dispatch.translations._composed as pkg

                for m in pkgutil.iter_modules(pkg.__path__):
                    importlib.import_module(f"{pkg.__name__}.{m.name}")
                _composed_loaded = True
    return COMPOSED


def register_composed(name: str, fn: Callable) -> Callable:
    """Register a library-independent fallback for ``name`` written with ``do``."""
    where = f"compose(..., name={short(name)})"
    check_function_name(where, name)
    if not callable(fn):
        raise TypeError(f"{where}: the fallback must be callable, got {type(fn).__name__}")
    global generation
    with lock:
        stale = name in COMPOSED or name in RESOLVED_NAMES
        COMPOSED[name] = fn
        if stale:
            clear_caches()
        else:
            # a name nothing resolved yet: no cached entry can depend on it, so the
            # caches stay (a table module imported by a miss that a compiler traces
            # registers its composed functions, and that trace has read the caches);
            # a miss under way for the name stores nothing
            generation += 1
    return fn


# ---------------------------------------------------------------- registration
# register_function, register_translation, unregister_function and register_backend
# are in dispatch._register (they import the state above); this module answers for
# them too, importing that one on first use


_REGISTER = frozenset(
    {
        "register_backend",
        "register_function",
        "register_translation",
        "root_name",
        "unregister_function",
    }
)


def __getattr__(name: str) -> Any:
    if name in _REGISTER:
        import dispatch._register as register

        return getattr(register, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
