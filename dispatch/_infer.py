"""Which library owns an object, and which backend a call dispatches to.

A type's backend is found from ``type(x).__module__`` without importing any
library: user registrations first, then the root module name when a table of
that name ships, then the ``TYPES`` prefixes of tables whose library is already
imported (an object of a library can only exist once it is imported).
"""

from __future__ import annotations

import contextvars
import math
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from dispatch import _registry as reg
from dispatch._errors import MixedBackendError, UnknownBackendError, short
from dispatch._trace import traced_constant

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
# how many ``backend_like``/``precision`` blocks are open and thread-level
# ``set_backend`` calls were made, in all threads: while there are none the context
# vars above are not read (cheaper, and a tracing compiler cannot read them; it
# reads this count, so it traces again when a block opens)
CONTEXTS = [0]


@traced_constant
def _context_precision() -> int | None:
    return PRECISION.get()


@traced_constant
def _context_default() -> str | None:
    return DEFAULT.get()


def current_precision() -> int | None:
    return (CONTEXTS[0] and _context_precision()) or GLOBAL_PRECISION[0]


def _match(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def backend_of_type(cls: type) -> str | None:
    """Backend name owning instances of ``cls``, or None if they decide nothing."""
    try:
        return reg.TYPE_BACKEND[cls]
    except KeyError:
        return _backend_of_type_miss(cls)


@traced_constant
def _backend_of_type_miss(cls: type) -> str | None:
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
        # a module prefix claims the module's own arrays; a subclass of another
        # library's array (PennyLane's ndarray subclass under a prefix aliased to
        # autograd) dispatches like its base, as anywhere else: registering the class
        # itself claims it
        for base in cls.__mro__[1:-1]:
            owner = backend_of_type(base)
            if owner is not None and owner != found:
                return owner
        return found
    root = module.split(".", 1)[0]
    if root in _NONE or not root:
        return None
    owner = _table_owner(module)
    if owner is not None:
        return _if_array(owner, cls)
    # a subclass, defined elsewhere, of a library's array (quimb's ``qarray`` of
    # ``numpy.ndarray``) is an array of that library
    for base in cls.__mro__[1:-1]:
        found = backend_of_type(base)
        if found is not None:
            return found
    return _unregistered(cls, root)


def _table_owner(module: str) -> str | None:
    """The shipped table whose library defines ``module``, if any."""
    root = module.split(".", 1)[0]
    if reg.has_table(root):
        return root
    for backend in reg.known_backends():
        if backend in reg.USER_BACKENDS or not reg.library_loaded(backend):
            continue
        for prefix in reg.record(backend).types:
            if _match(module, prefix):
                return backend
    return None


def is_array_like(cls: type) -> bool:
    """Whether instances of ``cls`` look like arrays: a ``dtype`` and a ``shape`` or
    ``ndim`` on the class.

    Shapes (``torch.Size``, ``tf.TensorShape``), dtypes, devices, generators and
    ``finfo`` objects of a library lack them: they are parameters of a call, never
    the arrays that choose its backend.
    """
    try:
        return hasattr(cls, "dtype") and (hasattr(cls, "shape") or hasattr(cls, "ndim"))
    except Exception:  # a class whose attribute lookup itself fails is no array
        return False


def _if_array(backend: str, cls: type) -> str | None:
    """Apply the table's optional ``is_array_type`` filter (dtypes, scalars...) and
    the general rule of :func:`is_array_like`."""
    check = reg.record(backend).is_array_type
    if check is not None and not check(cls):
        return None
    return backend if is_array_like(cls) else None


def _unregistered(cls: type, root: str) -> str | None:
    """autoray's module rule for an array type that nobody registered.

    An object that takes part in numpy's own dispatch protocols goes to numpy,
    which hands it back to its library; any other array-like type is an array of
    the backend named after its top-level module (``mylib.Array`` -> ``'mylib'``),
    whose functions are numpy's names in that module (``mylib.linalg.norm``).
    Anything else decides nothing (and :func:`foreign` tells a call about it).
    """
    if reg.reserved(root) or not (is_array_like(cls) or _shaped(cls)):
        return None
    if hasattr(cls, "__array_function__") or hasattr(cls, "__array_ufunc__"):
        return "numpy"
    if not reg.is_public_name(root):
        return None
    implicit_backend(root)
    return root


def _shaped(cls: type) -> bool:
    """A ``shape`` and an ``ndim`` without a dtype: in a library nobody registered, a
    container standing for an array (quimb's PArray, the array of a function of its
    parameters) is an array of that library too."""
    try:
        return hasattr(cls, "shape") and hasattr(cls, "ndim")
    except Exception:  # a class whose attribute lookup itself fails is no array
        return False


def _explicit_module_backend(cls: type, root: str) -> bool:
    """Whether an object of ``cls`` given as ``like=`` names the backend ``root``: an
    array-like object (a ``shape`` or ``ndim``) of an installed, non-standard-library
    module that is no registered or shipped backend."""
    if not root or reg.reserved(root):
        return False
    try:
        shaped = hasattr(cls, "shape") or hasattr(cls, "ndim")
    except Exception:
        return False
    return shaped and reg.is_public_name(root) and sys.modules.get(root) is not None


def implicit_backend(name: str) -> None:
    """Make ``name`` a backend whose functions are the attributes of the module of
    that name (priority 0, numpy constants left alone), unless it is known already.

    The state is that of ``register_backend(name, name)`` without the type
    registration and without clearing any cache: nothing cached can depend on a
    backend that did not exist.
    """
    if name in reg.USER_BACKENDS or reg.has_table(name):
        return
    with reg.lock:  # the rest is from_registration's defaults: priority 0, no conversion
        reg.USER_BACKENDS.setdefault(name, {"module": name})


# objects of these types are values, not arrays, whatever their module
_VALUES = (
    int,
    float,
    complex,
    str,
    bytes,
    bytearray,
    list,
    tuple,
    dict,
    set,
    frozenset,
    type,
    range,
    slice,
)


def foreign(cls: type) -> bool:
    """Whether ``cls`` is neither an array nor a value dispatch knows.

    Python's own values (builtins and the standard library, their subclasses),
    dispatch's objects and the non-array objects of known libraries (numpy
    scalars, dtypes, shapes) are constants. An object of any other type that
    does not decide a backend is something numpy does not know: a call that
    would run the default backend on it is refused.
    """
    if backend_of_type(cls) is not None:
        return False
    module = getattr(cls, "__module__", None) or ""
    if not module or reg.reserved(module):
        return False
    if issubclass(cls, _VALUES) or callable_type(cls):
        return False
    return _table_owner(module) is None


def callable_type(cls: type) -> bool:
    """Functions and other callables are arguments (``gradient``'s ``f``, ``vectorize``)."""
    return any("__call__" in vars(k) for k in cls.__mro__[:-1]) and not is_array_like(cls)


def infer_backend(array: Any) -> str:
    """Return the backend name of one object.

    An array gives its library (a subclass of a library's array, its base's
    library). A library's other objects give that library as well: numpy
    scalars ``'numpy'``, ``torch.Size`` and torch dtypes ``'torch'`` (they
    decide no call, see :func:`infer_backend_multi`). Python scalars and other
    objects that no library owns give the current default backend
    (``"numpy"`` unless changed with :func:`set_backend` or
    :func:`backend_like`), a name that ``like=`` accepts.

    Examples
    --------
    >>> import numpy as np
    >>> infer_backend(np.ones(3))
    'numpy'
    >>> infer_backend(np.float32(1.5))
    'numpy'
    >>> infer_backend(1.5)
    'numpy'
    """
    t = type(array)
    try:
        b = reg.TYPE_BACKEND[t]
    except KeyError:
        b = backend_of_type(t)
    return b or _owner(t) or default_backend()


def _owner(cls: type) -> str | None:
    """The library that defines ``cls`` (also when its objects are not arrays)."""
    try:
        return _OWNER[cls]
    except KeyError:
        return _owner_miss(cls)


@traced_constant
def _owner_miss(cls: type) -> str | None:
    module = getattr(cls, "__module__", None) or ""
    root = module.split(".", 1)[0]
    found = None if root in _NONE or not root else _table_owner(module)
    gen = reg.generation
    reg.store(_OWNER, cls, found, gen)
    return found


_OWNER: dict[type, str | None] = {}


def scalar_backend(cls: type) -> str | None:
    """The library whose scalar type ``cls`` is (``numpy.float64`` -> ``'numpy'``):
    a type with a dtype and a shape that its library's table does not count among
    the arrays deciding a call. None for anything else (arrays included)."""
    if backend_of_type(cls) is not None or not is_array_like(cls):
        return None
    return _owner(cls)


def default_backend() -> str:
    return (CONTEXTS[0] and _context_default()) or GLOBAL_DEFAULT[0]


def decide(types: Iterable[type], name: str | None = None) -> str | None:
    """The backend that wins among argument types, or None when none decides.

    The highest priority wins (numpy -1, libraries 0, lazy 1); two different
    backends at the top priority of 0 or more are an error naming both (and
    the function ``name`` of the call, when given).
    """
    best = None
    best_p = -math.inf
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


def decide_owner(types: Iterable[type]) -> str | None:
    """When no array decides: the one library that owns non-array arguments.

    A library's other objects (a ``tf.Module``, a ``torch.device``, a
    ``torch.Size``) never outweigh an array, numpy's included, but a call that
    holds nothing else goes to their library rather than the default backend.
    Two libraries' objects decide nothing.
    """
    owners = {o for t in types if (o := _owner(t)) is not None}
    return owners.pop() if len(owners) == 1 else None


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
    types = deep_types(args)
    return decide(types) or decide_owner(types) or default_backend()


def deep_types(values: tuple) -> list[type]:
    """Types of ``values`` and of the elements of nested lists and tuples, all of them,
    in order (error messages name the first library first); see :func:`deep_type_set`.
    """
    out: dict[type, None] = {}
    for seq in _sequences(values):
        out.update(dict.fromkeys(map(type, seq)))
    return list(out)


def deep_type_set(values: tuple) -> frozenset[type]:
    """The set of :func:`deep_types`, faster: the per-call key of nested sequences.

    Every element is looked at (an array may sit anywhere), at C speed: one
    ``set(map(type, seq))`` per sequence, and a Python loop only over the
    sequences that hold sequences.
    """
    out: set[type] = set()
    for _ in _sequences(values, out):  # the generator fills ``out``
        pass
    return frozenset(out)


def _sequences(values: tuple, types: set | None = None) -> Iterator[Any]:
    """``values`` and every list or tuple nested in it, breadth first, each sequence
    object once (a list that contains itself ends); with ``types``, the types of
    every element seen are added to it."""
    seen: set[int] = set()
    level = [values]
    while level:
        below: list = []
        for seq in level:
            yield seq
            ts = set(map(type, seq))
            if types is not None:
                types |= ts
            if any(issubclass(t, SEQUENCES) for t in ts):
                for e in seq:
                    if isinstance(e, SEQUENCES) and id(e) not in seen:
                        seen.add(id(e))
                        below.append(e)
        level = below


def check_backend_name(name: str, fn: str) -> str:
    """``name`` if it is a shipped or registered backend, or an implicit one.

    ``name`` is the backend of a ``do(fn, ..., like=...)`` call, always a str (the
    name given, or the one an example array names); ``fn`` goes into the error
    message.
    """
    if name in reg.USER_BACKENDS or reg.has_table(name) or name == reg.VALUES:
        return name
    if reg.is_implicit(name) and (reg.has_registrations(name) or reg.module_findable(name)):
        # autoray's module rule: any installed module is a backend by its name
        implicit_backend(name)
        return name
    raise reg.unknown_backend(name, f"do({fn!r}, like={short(name)})")


_SCALARS = (int, float, complex)


def like_backend(like: Any, fn: str | None = None) -> str:
    """Backend named by ``like=``: a backend name or an example array.

    A Python number (autoray's backend ``'builtins'``) or a numpy scalar names
    numpy. ``fn``, the function of the ``do`` call, only goes into error messages.
    """
    if isinstance(like, str):
        return like
    t = type(like)
    b = backend_of_type(t)
    if b is not None:
        return b
    if issubclass(t, _SCALARS) or (_owner(t) == "numpy" and is_array_like(t)):
        return "numpy"  # numbers and numpy scalars
    call = f"do({fn!r}, like=...): " if fn is not None else ""
    owner = _owner(t)
    root = (getattr(t, "__module__", None) or "").split(".", 1)[0]
    if owner is None and _explicit_module_backend(t, root):
        # like= is explicit: an object of a library nobody registered names that
        # library (autoray's rule; a container of arrays such as quimb's PArray, with
        # a shape but no dtype). Its functions are found in its module, never numpy's
        implicit_backend(root)
        return root
    if owner is not None:  # a library's dtype, shape or device: not an example array
        raise UnknownBackendError(
            f"{call}like={short(like)} (type {t.__name__!r}) is not an array of {owner!r} "
            f"but one of its parameters; pass like={owner!r} (and dtype=/device= for a "
            "creation routine) or an example array"
        )
    raise UnknownBackendError(
        f"{call}like={short(like)} (type {t.__name__!r}): no backend owns "
        "that type; pass a backend name such as like='torch' or an array of a "
        "known library, or register the type with dispatch.register_backend(type, name)"
    )
