"""The autoray face's ``do``: its own hot path over the engine's entries.

The keys are dispatch's (the name, the positional argument types, then each
keyword's name and value type), looked up as ``do`` looks up its own (nested
dicts for one or two arguments without keywords). The value is the engine's
final callable for that key with the face's departures
(:mod:`dispatch.autoray._departures`) applied. A miss asks the engine for its
entry (its inference, resolution, constant conversion and caches) and wraps it;
the face keeps no inference or resolution of its own. The caches are
``_registry.FACE_CALLS1``, ``FACE_CALLS2`` and ``FACE_CALLS``, emptied by the
engine's one ``clear_caches()``, so a registration reaches both faces at once.
``dispatch.do`` never looks at any of this.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import threading
from collections.abc import Callable, Iterator
from typing import Any

from dispatch import _do as engine
from dispatch import _registry as reg
from dispatch._errors import MixedBackendError, UnknownFunctionError
from dispatch._infer import (
    SEQUENCES,
    backend_of_type,
    decide,
    decide_owner,
    default_backend,
    like_backend,
)
from dispatch._resolve import _native, resolve
from dispatch._trace import outside_traces
from dispatch.autoray import _departures as dep
from dispatch.spec import _adapter_of
from dispatch.translations._vocabulary import CREATION, SEQUENCE_ARGS

_FACE = reg.FACE_CALLS
_F1 = reg.FACE_CALLS1
_F2 = reg.FACE_CALLS2
_ENGINE_NAMES = {v: k for k, v in dep.BACKEND_NAMES.items()}


def do(name: str, /, *args: Any, like: Any = None, **kwargs: Any) -> Any:
    """Call ``name`` on the library of the arguments, with autoray's conventions.

    As :func:`dispatch.do`, with the departures docs/migrating.md lists: thin
    ``linalg.svd`` factors by default, the first argument deciding between
    arrays of two libraries (and a list or tuple first argument going to numpy),
    keywords beyond numpy's signature reaching the library's own function,
    ``copyto`` and ``no_grad`` passed to the library, ``like="builtins"``, and
    autoray's ``random.array``.

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.svd", np.ones((3, 2)))[0].shape
    (3, 2)
    >>> do("sum", np.arange(4))
    np.int64(6)
    """
    if like is None:
        if _FORCING and (forced := forced_backend()) is not None:
            return do(name, *args, like=forced, **kwargs)
        if not kwargs:
            # do's own lookups: nested dicts for one or two arguments, no key built
            n = len(args)
            try:
                if n == 1:
                    fn = _F1[name][type(args[0])]
                elif n == 2:
                    fn = _F2[name][type(args[0])][type(args[1])]
                elif n == 3:
                    fn = _FACE[name, type(args[0]), type(args[1]), type(args[2])]
                else:
                    key = (name, *map(type, args))
                    fn = _FACE[key]
            except (KeyError, TypeError):
                fn = _miss(name, (name, *map(type, args)), False, args)
            try:
                return fn(*args)
            except Exception:
                adapter = _adapter_of(fn, name, args)  # a kernel refused: its adapter answers
                if adapter is None:
                    raise
            return engine._answered(adapter, name, args)
        key = (name, *map(type, args))
        for k, v in kwargs.items():
            key += (k, type(v))
        try:
            fn = _FACE[key]
        except (KeyError, TypeError):
            fn = _miss(name, key, True, args)
        return fn(*args, **kwargs)
    if type(like) is str:
        key = (None, name, like, *kwargs)
        try:
            fn = _FACE[key]
        except (KeyError, TypeError):
            fn = _like_miss(name, like, key)
        return fn(*args, **kwargs)
    return _with_example(name, like, args, kwargs)


# autoray's set_backend: a backend every call without like= goes to, whatever its
# arguments; global, or per thread (a thread's own wins over the global one). "auto"
# means global in the thread that imported the face. _FORCING is true while any is
# set: the one check the face's do makes on its hot path
_FORCING = False
_FORCED: dict[int | None, str] = {}  # None: the global one; else a thread id
_IMPORTING_THREAD = threading.get_ident()
_forced_lock = threading.Lock()


def forced_backend() -> str | None:
    """The backend that ``set_backend``/``backend_like`` force on this thread, if any."""
    return _FORCED.get(threading.get_ident()) or _FORCED.get(None)


def _globally(flag: bool | str) -> bool:
    return threading.get_ident() == _IMPORTING_THREAD if flag == "auto" else bool(flag)


def get_backend(get_globally: bool | str = "auto") -> str | None:
    """The backend forced on every call by :func:`set_backend`, or None (autoray's).

    ``get_globally``: True the global one, False this thread's, ``"auto"`` the global
    one in the thread that imported the face and this thread's elsewhere.

    Examples
    --------
    >>> get_backend() is None
    True
    """
    return _FORCED.get(None if _globally(get_globally) else threading.get_ident())


def set_backend(like: Any, set_globally: bool | str = "auto") -> None:
    """Force every later call without ``like=`` to the backend ``like`` (a name, or
    an example array; None stops forcing), as autoray's ``set_backend`` does: arrays
    of another library then reach that backend's functions, converted where
    ``like=`` would convert them.

    ``dispatch.set_backend`` is different: it only picks the library of calls that
    carry no array.

    Examples
    --------
    >>> import numpy as np
    >>> set_backend("numpy"); get_backend()
    'numpy'
    >>> set_backend(None); get_backend() is None
    True
    """
    global _FORCING
    if like is not None and not isinstance(like, str):
        from dispatch.autoray.autoray import infer_backend

        like = infer_backend(like)
    key = None if _globally(set_globally) else threading.get_ident()
    with _forced_lock:
        if like is None:
            _FORCED.pop(key, None)
        else:
            _FORCED[key] = like
        _FORCING = bool(_FORCED)


@contextlib.contextmanager
def backend_like(like: Any, set_globally: bool | str = "auto") -> Iterator[None]:
    """Within the block, :func:`set_backend` ``(like)``; the previous one after it.

    Examples
    --------
    >>> import numpy as np
    >>> with backend_like("numpy"):
    ...     get_backend()
    'numpy'
    """
    set_globally = _globally(set_globally)
    old = get_backend(set_globally)
    set_backend(like, set_globally)
    try:
        yield
    finally:
        set_backend(old, set_globally)


def _with_example(name: str, like: Any, args: tuple, kwargs: dict) -> Any:
    """``like=`` an example array (or a Python value): the engine's injection of its
    dtype and device, then the face's entry for its backend."""
    if name in dep.FUNCTIONS:
        return dep.FUNCTIONS[name](*args, like=like, **kwargs)
    if type(like).__module__ == dep.BUILTINS:
        if type(like) in dep.SCALAR_DTYPES and name in CREATION and kwargs.get("dtype") is None:
            kwargs["dtype"] = type(like)
        return do(name, *args, like=dep.BUILTINS_BACKEND, **kwargs)
    if name in dep.PASS_THROUGH:
        return do(name, *args, like=like_backend(like), **kwargs)
    if (like_backend(like), name) in dep.LIBRARY_FUNCTIONS:
        return dep.LIBRARY_FUNCTIONS[like_backend(like), name](*args, **kwargs)
    fn = engine._with_like(name, like, kwargs)  # injects dtype and device into kwargs
    return _adapt(name, fn, None, kwargs)(*args, **kwargs)


@outside_traces
def _like_miss(name: str, like: str, key: tuple) -> Callable:
    gen = reg.generation
    if like == dep.BUILTINS:
        like = dep.BUILTINS_BACKEND
    like = _ENGINE_NAMES.get(like, like)
    if name in dep.FUNCTIONS:
        fn = _with_backend(dep.FUNCTIONS[name], like)
    elif (like, name) in dep.LIBRARY_FUNCTIONS:
        fn = dep.LIBRARY_FUNCTIONS[like, name]
    elif name in dep.PASS_THROUGH:
        fn = _library_attribute(like, name)
    else:
        fn = _adapt(name, engine._with_like(name, like, {}), like, key[3:])
    reg.store(_FACE, key, fn, gen)
    return fn


def _with_backend(fn: Callable, backend: str) -> Callable:
    def on_backend(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, like=backend, **kwargs)

    return on_backend


@outside_traces
def _miss(name: str, key: tuple, kwargs: bool, args: tuple) -> Callable:
    """Build and cache the face's callable for one combination of argument types."""
    engine._check_name(name)
    gen = reg.generation
    if name in dep.FUNCTIONS:
        fn = dep.FUNCTIONS[name]
        reg.store_face(key, kwargs, fn, gen)
        return fn
    types = tuple(t for t in key[1:] if type(t) is not str) if kwargs else key[1:]
    npos = len(args)
    first = types[0] if npos else None
    mixed = False
    if first is not None and issubclass(first, SEQUENCES) and name not in SEQUENCE_ARGS:
        backend: str | None = dep.BUILTINS_BACKEND  # autoray: a list or tuple is 'builtins'
        mixed = True
    else:
        try:
            backend = decide(types, name) or decide_owner(types)
        except MixedBackendError:
            if not dep.FIRST_ARGUMENT_DECIDES or first is None:
                raise
            backend, mixed = backend_of_type(first), True
    if name in dep.PASS_THROUGH:
        entry = _library_attribute(backend or default_backend(), name)
    elif backend is not None and (backend, name) in dep.LIBRARY_FUNCTIONS:
        entry = dep.LIBRARY_FUNCTIONS[backend, name]
    else:
        if mixed:  # the engine's entry for the backend named, as with like=
            entry = engine._with_like(name, backend, {})
        else:
            entry = engine._miss(name, key[1:], kwargs)
        names = key[npos + 1 :: 2] if kwargs else ()
        entry = _adapt(name, entry, backend, names)
    reg.store_face(key, kwargs, entry, gen)
    return entry


def _adapt(name: str, entry: Callable, backend: str | None, keywords: Any) -> Callable:
    """The engine's ``entry`` with the face's keyword defaults, and the library's own
    function where the call passes keywords that only it takes."""
    if keywords and backend is not None:
        entry = _extra_keywords(name, entry, backend, tuple(keywords))
    defaults = dep.DEFAULTS.get(name)
    if defaults is None:
        return entry

    def with_defaults(*args: Any, **kwargs: Any) -> Any:
        for k, v in defaults.items():
            kwargs.setdefault(k, v)
        return entry(*args, **kwargs)

    return with_defaults


def _accepts(fn: Callable, keywords: tuple) -> bool | None:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None  # unknown: a builtin without a signature
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return True
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return all(k in names for k in keywords)


def _extra_keywords(name: str, entry: Callable, backend: str, keywords: tuple) -> Callable:
    """autoray passes a library's own keywords on (``rounding_mode=`` of torch's
    ``div``): where the engine's implementation does not take a keyword of the call
    and the library's function of that name does, the call goes to the library's."""
    try:
        impl = resolve(backend, name)
    except Exception:
        return entry
    if _accepts(impl, keywords) is not False:
        return entry
    try:
        native = _native(backend, name)
    except Exception:
        return entry
    return native if _accepts(native, keywords) is not False else entry


def _library_attribute(backend: str, name: str) -> Callable:
    """The library's own public attribute ``name`` (a pass-through departure)."""
    module: Any = importlib.import_module(reg.root_module(backend))
    for part in name.split("."):
        if part.startswith("_") or not hasattr(module, part):
            raise UnknownFunctionError(
                f"do({name!r}) on backend {backend!r}: the library has no attribute {name!r}"
            )
        module = getattr(module, part)
    return module
