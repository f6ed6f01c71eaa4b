"""Which library owns an object, and which backend a call dispatches to.

A type's backend is found from ``type(x).__module__`` without importing any
library: user registrations first, then the root module name when a table of
that name ships, then the ``TYPES`` prefixes of tables whose library is already
imported (an object of a library can only exist once it is imported).
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterable
from typing import Any

from dispatch import _registry as reg
from dispatch._errors import MixedBackendError, UnknownBackendError, short

_NONE = frozenset({"builtins", "typing", "abc", "functools", "collections"})
SEQUENCES = (list, tuple)

# the default backend for calls that carry no array; a context var so that
# ``backend_like`` is local to a thread or task
DEFAULT: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "dispatch_default", default=None
)
GLOBAL_DEFAULT = ["numpy"]
# float precision in bits for created arrays (None: each library's own default)
PRECISION: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "dispatch_precision", default=None
)
GLOBAL_PRECISION: list[int | None] = [None]


def current_precision() -> int | None:
    return PRECISION.get() or GLOBAL_PRECISION[0]


def _match(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def backend_of_type(cls: type) -> str | None:
    """Backend name owning instances of ``cls``, or None if they decide nothing."""
    try:
        return reg.TYPE_BACKEND[cls]
    except KeyError:
        pass
    gen = reg.generation
    found = _find(cls)
    # not cached if register_backend ran meanwhile: ``found`` may predate it
    reg.store(reg.TYPE_BACKEND, cls, found, gen)
    return found


def _find(cls: type) -> str | None:
    user = dict(reg.USER_TYPES)  # a copy: another thread may register meanwhile
    for mro_cls in cls.__mro__:
        if mro_cls in user:
            return user[mro_cls]
    module = getattr(cls, "__module__", None) or ""
    best = ""
    for prefix, name in user.items():
        if isinstance(prefix, str) and _match(module, prefix) and len(prefix) > len(best):
            best, found = prefix, name
    if best:
        return found
    root = module.split(".", 1)[0]
    if root in _NONE or not root:
        return None
    if reg.has_table(root):
        return _if_array(root, cls)
    for backend in reg.known_backends():
        if backend in reg.USER_BACKENDS or not reg.library_loaded(backend):
            continue
        for prefix in getattr(reg.table(backend), "TYPES", ()):
            if _match(module, prefix):
                return _if_array(backend, cls)
    return None


def _if_array(backend: str, cls: type) -> str | None:
    """Apply the table's optional ``is_array_type`` filter (dtypes, scalars...)."""
    check = getattr(reg.table(backend), "is_array_type", None)
    return backend if check is None or check(cls) else None


def infer_backend(array: Any) -> str:
    """Return the backend name of one object.

    Python scalars and other objects that no library owns give the current
    default backend (``"numpy"`` unless changed with :func:`set_backend` or
    :func:`backend_like`).

    Examples
    --------
    >>> import numpy as np
    >>> infer_backend(np.ones(3))
    'numpy'
    >>> infer_backend(1.5)
    'numpy'
    """
    return backend_of_type(type(array)) or default_backend()


def default_backend() -> str:
    return DEFAULT.get() or GLOBAL_DEFAULT[0]


def decide(types: Iterable[type], name: str | None = None) -> str | None:
    """The backend that wins among argument types, or None when none decides.

    The highest priority wins (numpy -1, libraries 0, lazy 1); two different
    backends at the top priority of 0 or more are an error naming both (and
    the function ``name`` of the call, when given).
    """
    best = None
    best_p = -(10**9)
    clash = None
    for t in types:
        b = backend_of_type(t)
        if b is None or b == best:
            continue
        p = reg.priority(b)
        if p > best_p:
            best, best_p, clash = b, p, None
        elif p == best_p and p >= 0:
            clash = b
    if clash is not None:
        call = f"do({name!r}): " if name is not None else ""
        raise MixedBackendError(
            f"{call}arrays of {best!r} and {clash!r} were passed to one call; convert one "
            f"side first, e.g. dispatch.convert(x, {best!r})"
        )
    return best


def infer_backend_multi(*args: Any) -> str:
    """Return the backend deciding a call with these arguments.

    numpy arrays and Python scalars are constants: any other library wins over
    them. Elements of lists and tuples count too.

    Examples
    --------
    >>> import numpy as np
    >>> infer_backend_multi(np.ones(2), 3.0)
    'numpy'
    """
    types = []
    for a in args:
        types.append(type(a))
        if isinstance(a, SEQUENCES):
            types.extend(_element_types(a))
    return decide(types) or default_backend()


def _element_types(seq: Any, depth: int = 3) -> list[type]:
    out = []
    for e in seq:
        out.append(type(e))
        if depth > 1 and isinstance(e, SEQUENCES):
            out.extend(_element_types(e, depth - 1))
    return out


def check_backend_name(name: str, fn: str | None = None, where: str = "") -> str:
    """``name`` if it is a shipped or registered backend.

    ``fn`` (the function of a ``do`` call) or ``where`` (the call) go into the
    error message.
    """
    if fn is not None:
        where = f"do({fn!r}, like={short(name)})"
    if not isinstance(name, str):
        raise TypeError(
            f"{where or 'backend'}: a backend name is a string such as 'numpy', got "
            f"{type(name).__name__}"
        )
    if name in reg.USER_BACKENDS or reg.has_table(name):
        return name
    raise reg.unknown_backend(name, where)


def like_backend(like: Any, fn: str | None = None) -> str:
    """Backend named by ``like=``: a backend name or an example array.

    ``fn``, the function of the ``do`` call, only goes into error messages.
    """
    if isinstance(like, str):
        return like
    b = backend_of_type(type(like))
    if b is None:
        call = f"do({fn!r}, like=...): " if fn is not None else ""
        raise UnknownBackendError(
            f"{call}like={short(like)} (type {type(like).__name__!r}): no backend owns "
            "that type; pass a backend name such as like='torch' or an array of a "
            "known library, or register the type with dispatch.register_backend(type, name)"
        )
    return b
