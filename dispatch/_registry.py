"""The only mutable state of dispatch: caches, user registrations, loaded tables.

Every mutation goes through a ``register*`` function here, takes the lock, and
calls :func:`clear_caches`. Nothing else clears a cache. A resolution that ran
while a registration happened is not stored (see :data:`generation`), so a
stale callable can never outlive the registration that made it stale.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from dispatch._errors import (
    BackendNotInstalledError,
    UnknownBackendError,
    UnknownFunctionError,
    short,
    suggest,
)

TRANSLATIONS = "dispatch.translations"

# The hot path of do(): argument types -> final callable. Calls without keywords
# of one or two arguments use nested dicts (name -> type -> [type ->] callable),
# which spares building a key tuple; every other call uses a flat tuple key.
CALLS1: dict[str, dict[type, Callable]] = {}
CALLS2: dict[str, dict[type, dict[type, Callable]]] = {}
CALLS: dict[tuple, Callable] = {}
# (backend, fn_name) -> resolved implementation
RESOLVED: dict[tuple[str, str], Callable] = {}
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
        TYPE_BACKEND.clear()


def store(cache: dict, key: Any, value: Any, seen_generation: int) -> None:
    """Cache ``value`` unless a registration happened since ``seen_generation``."""
    with lock:
        if generation == seen_generation:
            cache[key] = value


def store_call(
    name: str, types: tuple, kwargs: bool, value: Callable, seen_generation: int
) -> None:
    """Cache the final callable of a ``do`` call with these argument types."""
    with lock:
        if generation != seen_generation:
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
    """Names of the shipped backends plus user-registered ones, sorted."""
    return sorted(shipped() | set(USER_BACKENDS))


def has_table(backend: str) -> bool:
    return backend in shipped()


def unknown_backend(backend: Any, where: str = "") -> UnknownBackendError:
    """The error for a backend name that is neither shipped nor registered."""
    prefix = f"{where}: " if where else ""
    return UnknownBackendError(
        f"{prefix}unknown backend {short(backend)}.{suggest(backend, known_backends())} "
        f"Known backends: {', '.join(known_backends())}; a new array library is added "
        "with dispatch.register_backend(type_or_module_prefix, name)."
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


def _check_backend(where: str, backend: Any) -> str:
    """A shipped (even if not installed) or registered backend name."""
    if not isinstance(backend, str):
        raise TypeError(
            f"{where}: the backend must be a name such as 'numpy', got "
            f"{type(backend).__name__} {short(backend)}"
        )
    if backend in USER_BACKENDS or has_table(backend):
        return backend
    raise unknown_backend(backend, where)


def table(backend: str) -> ModuleType | None:
    """The translation module of ``backend`` (imported on first use), or None.

    Raises
    ------
    BackendNotInstalledError
        The module exists but its library cannot be imported.
    """
    try:
        return _TABLES[backend]
    except KeyError:
        pass
    with lock:
        if backend in _TABLES:
            return _TABLES[backend]
        if not has_table(backend):
            if backend in USER_BACKENDS:
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
        _TABLES[backend] = mod
        return mod


def loaded_tables() -> dict[str, ModuleType | None]:
    return dict(_TABLES)


def root_module(backend: str) -> str:
    """Dotted name of the module that holds the backend's numpy-like namespace."""
    mod = table(backend)
    if mod is None:
        return USER_BACKENDS[backend]["module"]
    return getattr(mod, "MODULES", {}).get("", backend)


def priority(backend: str) -> int:
    if backend in USER_BACKENDS:
        return USER_BACKENDS[backend]["priority"]
    mod = _TABLES.get(backend)
    if mod is None and backend not in _TABLES:
        mod = table(backend)
    return getattr(mod, "PRIORITY", 0)


def converts_constants(backend: str) -> bool:
    if backend in USER_BACKENDS:
        return USER_BACKENDS[backend]["convert"]
    return getattr(table(backend), "CONVERT_CONSTANTS", True)


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
    backend: str, name: str, fn: Callable | None = None, wrap: bool = False
) -> Callable:
    """Register ``fn`` as the implementation of ``name`` on ``backend``.

    Takes precedence over the backend's table and composed fallbacks, and takes
    effect at once. Usable as a decorator when ``fn`` is omitted.

    Parameters
    ----------
    backend : str
        Backend name, e.g. ``"torch"``.
    name : str
        Canonical (numpy) function name, e.g. ``"linalg.qr"``.
    fn : callable, optional
        The implementation, or (with ``wrap=True``) a function that takes the
        currently resolved implementation and returns a new one.
    wrap : bool
        Treat ``fn`` as a wrapper of the current implementation.

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
    _check_backend(where, backend)
    check_function_name(where, name)
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
    if wrap:
        from dispatch._resolve import resolve

        fn = fn(resolve(backend, name))
        if not callable(fn):
            raise TypeError(
                f"{where}: with wrap=True, fn(current implementation) must return a "
                f"callable, got {type(fn).__name__} {short(fn)}"
            )
    with lock:
        OVERRIDES[backend, name] = fn
        clear_caches()
    return fn


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
    _check_backend(where, backend)
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
    except BackendNotInstalledError as err:
        raise BackendNotInstalledError(f"{where}: {err}") from err
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
    with lock:
        OVERRIDES.pop((backend, name), None)
        clear_caches()


def register_composed(name: str, fn: Callable) -> Callable:
    """Register a library-independent fallback for ``name`` written with ``do``."""
    where = f"compose(..., name={short(name)})"
    check_function_name(where, name)
    if not callable(fn):
        raise TypeError(f"{where}: the fallback must be callable, got {type(fn).__name__}")
    with lock:
        COMPOSED[name] = fn
        clear_caches()
    return fn


def register_backend(
    cls_or_prefix: type | str,
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
    cls_or_prefix : type or str
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
    where = f"register_backend({short(cls_or_prefix)}, {short(name)})"
    if not isinstance(cls_or_prefix, (type, str)):
        raise TypeError(
            f"{where} needs a type or a module prefix, got {type(cls_or_prefix).__name__}"
        )
    if isinstance(cls_or_prefix, str) and not all(
        p.isidentifier() for p in cls_or_prefix.split(".")
    ):
        raise ValueError(f"{where}: {cls_or_prefix!r} is not a module prefix such as 'mylib'")
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
        USER_TYPES[cls_or_prefix] = name
        clear_caches()
