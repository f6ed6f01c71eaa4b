"""The only mutable state of dispatch: caches, user registrations, loaded tables.

Every mutation goes through a ``register*`` function here, takes the lock, and
calls :func:`clear_caches`. Nothing else clears a cache. A resolution that ran
while a registration happened is not stored (see :data:`generation`), so a
stale callable can never outlive the registration that made it stale. A miss
run by a tracing compiler stores nothing (:mod:`dispatch._trace`, which also holds
the values such a miss built, emptied here with the caches).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import math
import pkgutil
import sys
import threading
import warnings
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Any

from dispatch._backend import Backend, from_registration, from_table
from dispatch._errors import (
    BackendNotInstalledError,
    UnknownBackendError,
    UnknownFunctionError,
    short,
    suggest,
)
from dispatch._trace import forget_parked, outside_traces, tracing

TRANSLATIONS = "dispatch.translations"

# The hot path of do(): argument types -> final callable. Calls without keywords
# of one or two arguments use nested dicts (name -> type -> [type ->] callable),
# which spares building a key tuple; every other call uses a flat tuple key.
CALLS1: dict[str, dict[type, Callable]] = {}
CALLS2: dict[str, dict[type, dict[type, Callable]]] = {}
CALLS: dict[tuple, Callable] = {}
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
        if not kwargs and len(types) == 1:
            CALLS1.setdefault(name, {})[types[0]] = value
        elif not kwargs and len(types) == 2:
            CALLS2.setdefault(name, {}).setdefault(types[0], {})[types[1]] = value
        else:
            key = (name, *types)
            CALLS[key] = value


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
    elif isinstance(backend, str) and _reserved(backend):
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
            f"{where}: the function name must be a string, got {type(name).__name__} "
            f"{short(name)}"
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


def _reserved(backend: str) -> bool:
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
        and not _reserved(backend)
    )


def has_registrations(backend: str) -> bool:
    """Whether a function is registered on ``backend`` (``register_function``,
    ``compose(...).register``)."""
    with lock:
        return any(b == backend for b, _ in OVERRIDES)


def module_findable(module: str) -> bool:
    """Whether ``module`` is imported or importable, without importing it (only its
    parent packages, as ``importlib.util.find_spec`` does)."""
    if module in sys.modules:
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
            warnings.warn(
                f"{where}: {backend!r} is neither a known backend nor an installed "
                f"module.{close} The registration is kept for an implicit backend "
                f"{backend!r}, met only once a module of that name is installed.",
                UserWarning,
                stacklevel=4,
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
    rec = from_table(backend, mod) if mod is not None else (
        from_registration(backend, USER_BACKENDS.get(backend)))
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
    """Whether the library behind a shipped table is already imported."""
    return backend.split(".")[0] in sys.modules


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


# ---------------------------------------------------------------- registration


def register_function(
    backend: str,
    name: str,
    fn: Callable | None = None,
    wrap: bool = False,
    *,
    module: str | None = None,
    alias: str | None = None,
    wrapper: Callable | None = None,
    inject_dtype: bool | None = None,
    inject_device: bool | None = None,
) -> Any:
    """Register ``fn`` as the implementation of ``name`` on ``backend``.

    Takes precedence over the backend's table and composed fallbacks, and takes
    effect at once. Usable as a decorator when ``fn`` is omitted.

    Parameters
    ----------
    backend : str
        Backend name, e.g. ``"torch"``, or any module name (``"autograd"``,
        ``"mylib"``): a name that is neither shipped nor registered with
        :func:`register_backend` is an implicit backend whose functions are the
        module's attributes. Its module need not be installed: a backend that
        is not installed is simply never met.
    name : str
        Canonical (numpy) function name, e.g. ``"linalg.qr"``.
    fn : callable, optional
        The implementation, or (with ``wrap=True``) a function that takes the
        currently resolved implementation and returns a new one.
    wrap : bool
        Treat ``fn`` as a wrapper of the current implementation. Resolving,
        wrapping and storing happen under the registry's lock, so concurrent
        wraps of one name all apply, one after the other.
    module, alias : str, optional
        Instead of ``fn``: the library has the function as ``alias`` (default:
        the last part of ``name``) in ``module`` (default: where ``name`` points
        in the library). The runtime twin of a table ``alias(...)`` entry, with
        autoray's keywords. When the library is not installed, nothing is
        registered (its arrays are never met) and None is returned.
    wrapper : callable, optional
        ``wrapper(current implementation)`` becomes the implementation (as
        ``wrap=True``), applied after ``module``/``alias``.
    inject_dtype, inject_device : bool, optional
        autoray marks creation routines this way; here which names are creation
        routines (that take dtype and device from a ``like=`` array) is a fact of
        the vocabulary. Accepted for those names; a warning for any other.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, register_function, unregister_function
    >>> register_function("numpy", "my_double", lambda x: 2 * x)
    <function <lambda> at ...>
    >>> do("my_double", np.arange(3))
    array([0, 2, 4])
    >>> unregister_function("numpy", "my_double")
    """
    where = f"register_function({short(backend)}, {short(name)}, ...)"
    backend = _check_backend(where, backend)
    check_function_name(where, name)
    if (module, alias, wrapper, inject_dtype, inject_device) != (None,) * 5:
        return _register_located(
            where, backend, name, fn, wrap, module, alias, wrapper, inject_dtype, inject_device
        )
    if fn is None:

        def decorator(f: Callable) -> Callable:
            if f is None:  # register_function(b, n)(None) would return this decorator again
                raise TypeError(f"{where} needs a callable implementation, got None")
            return register_function(backend, name, f, wrap=wrap)

        return decorator
    if not callable(fn):
        raise TypeError(
            f"{where} needs a callable implementation, got {type(fn).__name__} {short(fn)}"
        )
    with lock:
        # resolve, wrap and store under one (reentrant) lock: two threads wrapping
        # the same name at once must wrap each other's result, not both the old one
        if wrap:
            from dispatch._resolve import resolve

            fn = fn(resolve(backend, name))
            if not callable(fn):
                raise TypeError(
                    f"{where}: with wrap=True, fn(current implementation) must return a "
                    f"callable, got {type(fn).__name__} {short(fn)}"
                )
        OVERRIDES[backend, name] = fn
        clear_caches()
    return fn


def root_name(backend: str) -> str:
    """The top-level module a backend's functions come from, without importing it."""
    if backend in USER_BACKENDS:
        return USER_BACKENDS[backend]["module"]
    return backend


def _register_located(
    where: str,
    backend: str,
    name: str,
    fn: Callable | None,
    wrap: bool,
    module: str | None,
    alias: str | None,
    wrapper: Callable | None,
    inject_dtype: bool | None,
    inject_device: bool | None,
) -> Any:
    """``register_function`` with autoray's keywords: where the library has ``name``."""
    import warnings

    from dispatch.translations._vocabulary import CREATION

    if fn is not None and not wrap and (module, alias, wrapper) != (None, None, None):
        raise ValueError(
            f"{where}: module=, alias= and wrapper= say where the library has the function; "
            "they have no effect beside an implementation fn: pass one or the other"
        )
    if (inject_dtype or inject_device) and name not in CREATION:
        warnings.warn(
            f"{where}: {name!r} is not a creation routine of the vocabulary, so no dtype or "
            "device is taken from like= arrays for it; pass them in the call",
            UserWarning,
            stacklevel=3,
        )
    if not module_findable((module or root_name(backend)).split(".")[0]):
        return None  # a library that is not installed: its arrays are never met
    try:
        if module is not None or alias is not None:
            parts = name.split(".")
            target = alias if alias is not None else parts[-1]
            if module is None:
                target = ".".join([*parts[:-1], target])
            register_translation(backend, name, target, module=module)
        if wrapper is True:  # decorator form: the wrapper comes next

            def take(w: Callable) -> Callable:
                register_function(backend, name, w, wrap=True)
                return w

            return take
        if wrapper is not None:
            return register_function(backend, name, wrapper, wrap=True)
        if fn is not None:
            return register_function(backend, name, fn, wrap=wrap)
    except BackendNotInstalledError:
        return None  # a library that is not installed: its arrays are never met
    return None


def register_translation(
    backend: str, name: str, target: str, *, module: str | None = None, **renames: str
) -> Callable:
    """Register ``name`` on ``backend`` as a renamed or relocated library function.

    The runtime twin of a ``TABLE`` entry ``alias(target, module=..., **renames)``.

    Parameters
    ----------
    backend, name : str
        Backend and canonical function name.
    target : str
        Dotted path of the library function, relative to ``module`` (default: the
        backend's root module, with its ``MODULES`` remaps).
    module : str, optional
        Absolute module holding ``target``.
    **renames : str
        Keyword renames, ``numpy_name="library_name"``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, register_translation, unregister_function
    >>> _ = register_translation("numpy", "total", "sum", axis="axis")
    >>> do("total", np.ones((2, 2)), axis=0)
    array([2., 2.])
    >>> unregister_function("numpy", "total")
    """
    from dispatch._resolve import _from_alias
    from dispatch.spec import alias

    where = f"register_translation({short(backend)}, {short(name)}, {short(target)})"
    backend = _check_backend(where, backend)
    check_function_name(where, name)
    if not isinstance(target, str):
        raise TypeError(
            f"{where}: the target must be a dotted name such as 'linalg.qr', got "
            f"{type(target).__name__}"
        )
    if module is not None and not isinstance(module, str):
        raise TypeError(f"{where}: module must be a module name, got {type(module).__name__}")
    bad = {k: v for k, v in renames.items() if not isinstance(v, str)}
    if bad:
        raise TypeError(
            f"{where}: keyword renames map numpy names to library names (strings), got {bad!r}"
        )
    try:
        # resolved under the target's name, so that suggestions are about the target
        fn = _from_alias(backend, target, alias(target, module=module, **renames))
    except UnknownFunctionError as err:
        detail = str(err).split(" Add one with", 1)[0]  # registering the target is no fix
        raise UnknownFunctionError(f"{where}: the target is not usable: {detail}") from None
    except (BackendNotInstalledError, UnknownBackendError) as err:
        raise type(err)(f"{where}: {err}") from err
    except ImportError as err:
        raise UnknownFunctionError(
            f"{where}: the module {module!r} cannot be imported ({err})"
        ) from None
    return register_function(backend, name, fn)


def unregister_function(backend: str, name: str) -> None:
    """Remove a registration made with :func:`register_function`."""
    if not isinstance(backend, str) or not isinstance(name, str):
        raise TypeError(
            f"unregister_function({short(backend)}, {short(name)}): backend and name are "
            f"strings, got {type(backend).__name__} and {type(name).__name__}"
        )
    backend = BACKEND_ALIASES.get(backend, backend)
    with lock:
        OVERRIDES.pop((backend, name), None)
        clear_caches()


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


def register_backend(
    cls: type | str,
    name: str,
    *,
    module: str | None = None,
    priority: int = 0,
    convert_constants: bool = False,
    resolver: Callable[[str], Callable] | None = None,
) -> None:
    """Teach dispatch a new array type or a new backend.

    Parameters
    ----------
    cls : type or str
        The array class, or a module prefix (``"mylib"`` matches every class
        defined in ``mylib`` and its submodules).
    name : str
        Backend name. A shipped backend (``"numpy"``, ``"torch"``...) reuses its
        table; a new name resolves functions as attributes of ``module``.
    module : str, optional
        Root module of a new backend's functions (default: ``name``).
    priority : int
        Mixed-call precedence: numpy is -1, libraries 0, lazy arrays 1.
    convert_constants : bool
        Convert numpy arrays to this backend (with its ``asarray``) in mixed calls.
    resolver : callable, optional
        ``resolver(name) -> implementation`` for a new backend that implements
        every name generically (a tracer, a lazy graph): consulted after
        registrations and instead of composed fallbacks and module attributes;
        it raises ``AttributeError`` for names it does not know. Creation calls
        with an array of this backend as ``like=`` pass it on as ``like=``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import register_backend, infer_backend
    >>> class MyArray(np.ndarray): pass
    >>> register_backend(MyArray, "numpy")
    >>> infer_backend(np.zeros(2).view(MyArray))
    'numpy'
    """
    where = f"register_backend({short(cls)}, {short(name)})"
    if not isinstance(cls, (type, str)):
        raise TypeError(
            f"{where} needs a type or a module prefix, got {type(cls).__name__}"
        )
    if isinstance(cls, str) and not all(
        p.isidentifier() for p in cls.split(".")
    ):
        raise ValueError(f"{where}: {cls!r} is not a module prefix such as 'mylib'")
    if not isinstance(name, str):
        raise TypeError(f"{where}: the backend name must be a string, got {type(name).__name__}")
    if not is_public_name(name):
        raise ValueError(
            f"{where}: {name!r} is not a valid backend name; use a public dotted name "
            "such as 'mylib'"
        )
    if module is not None and not isinstance(module, str):
        raise TypeError(f"{where}: module must be a module name, got {type(module).__name__}")
    if module is not None and not all(p.isidentifier() for p in module.split(".")):
        raise ValueError(f"{where}: module {module!r} is not a module name such as 'mylib'")
    if not isinstance(priority, (int, float)) or isinstance(priority, bool):
        raise TypeError(f"{where}: priority must be a number, got {type(priority).__name__}")
    if not math.isfinite(priority):
        # nan compares false with everything (every mixed call would pick the first
        # argument's library) and inf ties with inf: only finite numbers order backends
        raise ValueError(
            f"{where}: priority must be a finite number (numpy is -1, libraries 0, lazy "
            f"arrays 1), got {priority!r}"
        )
    if resolver is not None and not callable(resolver):
        raise TypeError(f"{where}: resolver must be callable, got {type(resolver).__name__}")
    if has_table(name):
        try:
            table(name)  # now rather than at the first call
        except BackendNotInstalledError as err:
            raise BackendNotInstalledError(f"{where}: {err}") from err
    with lock:
        if not has_table(name):
            USER_BACKENDS[name] = {
                "module": module or name,
                "priority": priority,
                "convert": convert_constants,
                "resolver": resolver,
            }
        USER_TYPES[cls] = name
        clear_caches()
