"""The registration functions of the public API (``register_function``,
``register_translation``, ``unregister_function``, ``register_backend``): each
checks its arguments, then changes the state held in :mod:`dispatch._registry`
under its lock and calls its ``clear_caches``. ``register_composed``, which also
moves the cache generation, stays there; ``dispatch._registry`` still answers
for these names too."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from dispatch._errors import (
    BackendNotInstalledError,
    UnknownBackendError,
    UnknownFunctionError,
    short,
    warn_at_caller,
)
from dispatch._registry import (
    BACKEND_ALIASES,
    OVERRIDES,
    USER_BACKENDS,
    USER_TYPES,
    _check_backend,
    check_function_name,
    clear_caches,
    has_table,
    is_public_name,
    lock,
    module_findable,
    table,
)

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

    from dispatch.translations._vocabulary import CREATION

    if fn is not None and not wrap and (module, alias, wrapper) != (None, None, None):
        raise ValueError(
            f"{where}: module=, alias= and wrapper= say where the library has the function; "
            "they have no effect beside an implementation fn: pass one or the other"
        )
    if (inject_dtype or inject_device) and name not in CREATION:
        warn_at_caller(
            f"{where}: {name!r} is not a creation routine of the vocabulary, so no dtype or "
            "device is taken from like= arrays for it; pass them in the call"
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
    from dispatch._resolve import _from_alias, register_hint
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
        # registering the target is no fix; the rest (the target's name, what was wrong)
        # stays whole, whatever text the target holds
        detail = str(err).removesuffix(register_hint(backend, target))
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
        raise TypeError(f"{where} needs a type or a module prefix, got {type(cls).__name__}")
    if isinstance(cls, str) and not all(p.isidentifier() for p in cls.split(".")):
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
