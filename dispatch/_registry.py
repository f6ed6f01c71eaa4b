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

from dispatch._errors import BackendNotInstalledError, UnknownBackendError

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
            raise UnknownBackendError(
                f"unknown backend {backend!r}; known backends: "
                f"{', '.join(known_backends())}. A new array library is added with "
                "dispatch.register_backend(type_or_module_prefix, name)."
            )
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
    if fn is None:
        return lambda f: register_function(backend, name, f, wrap=wrap)
    if not callable(fn):
        raise TypeError(
            f"register_function({backend!r}, {name!r}, ...) needs a callable, "
            f"got {type(fn).__name__}"
        )
    if not isinstance(backend, str) or not isinstance(name, str):
        raise TypeError("register_function(backend, name, fn): backend and name are strings")
    if wrap:
        from dispatch._resolve import resolve

        fn = fn(resolve(backend, name))
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

    fn = _from_alias(backend, name, alias(target, module=module, **renames))
    return register_function(backend, name, fn)


def unregister_function(backend: str, name: str) -> None:
    """Remove a registration made with :func:`register_function`."""
    with lock:
        OVERRIDES.pop((backend, name), None)
        clear_caches()


def register_composed(name: str, fn: Callable) -> Callable:
    """Register a library-independent fallback for ``name`` written with ``do``."""
    if not callable(fn):
        raise TypeError(f"composed fallback for {name!r} must be callable")
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
    if not isinstance(cls_or_prefix, (type, str)):
        raise TypeError(
            f"register_backend needs a type or a module prefix, got {type(cls_or_prefix).__name__}"
        )
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
