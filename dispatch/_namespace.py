"""Namespaces: attribute access instead of ``do("name", ...)``."""

from __future__ import annotations

import functools
import importlib
import inspect
import numbers
from collections.abc import Callable
from types import ModuleType
from typing import Any

from dispatch import _registry as reg
from dispatch._do import do, draw_defaults
from dispatch._errors import DispatchError, MixedBackendError, UnknownFunctionError, short
from dispatch._infer import like_backend, scalar_backend
from dispatch._resolve import known_names, resolve
from dispatch._shortcuts import _dtype_name
from dispatch.translations._vocabulary import (
    CREATION,
    FLOAT_DRAWS,
    GENERATORS,
    REAL_FLOAT_NAMES,
)

# dtype names: a namespace answers them with the backend's own dtype object
# (``to_backend_dtype``), whatever its module spells them (torch.float32,
# tf.float32, numpy's dtype for dask and pydata sparse)
_DTYPES = frozenset(
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 bfloat16 "
    "float32 float64 complex64 complex128".split()
)
# callables that are introspection, not array functions, served like values
_INFO = frozenset({"finfo", "iinfo"})
_MISSING = object()
# backend -> (registry generation, dotted prefixes of the names it knows)
_PREFIXES: dict[str, tuple[int, frozenset[str]]] = {}


def _is_value(v: Any) -> bool:
    """A constant a namespace may hand out: a number, a dtype, ``None`` (newaxis)."""
    return (
        v is None
        or isinstance(v, (numbers.Number, str))
        or type(v).__name__.lower().endswith("dtype")  # np.dtype, torch.dtype, tf DType
        or (isinstance(v, type) and type(v).__name__.lower().endswith("dtypemeta"))
    )


def _prefixes(backend: str) -> frozenset[str]:
    """``{"linalg", "fft", "random", "scipy", "scipy.special", ...}`` on ``backend``."""
    gen = reg.generation
    hit = _PREFIXES.get(backend)
    if hit is not None and hit[0] == gen:
        return hit[1]
    out: set[str] = set()
    for n in known_names(backend):
        parts = n.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts)))
    found = frozenset(out)
    _PREFIXES[backend] = (gen, found)
    return found


def _attribute(module: str, path: str) -> Any:
    """The public attribute ``path`` of ``module``, or ``_MISSING``."""
    try:
        obj: Any = importlib.import_module(module)
    except ImportError:
        return _MISSING
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return _MISSING
    return obj


def _numpy_info(name: str) -> Any:
    """``numpy.finfo`` or ``numpy.iinfo`` accepting any library's dtype or array."""
    import numpy as np

    info = getattr(np, name)

    def numpy_info(dtype: Any) -> Any:
        from dispatch._helpers import get_dtype_name

        if hasattr(dtype, "dtype") and not isinstance(dtype, type):
            dtype = get_dtype_name(dtype)  # an array
        try:
            return info(dtype)
        except (TypeError, ValueError):
            # torch.float32, tf.float32: their name says which numpy dtype they are
            return info(np.dtype(_dtype_name(dtype)))

    numpy_info.__name__ = numpy_info.__qualname__ = name
    numpy_info.__doc__ = info.__doc__
    return numpy_info


# the fields of numpy's (and the array API's) finfo and iinfo answers
_INFO_FIELDS = {"finfo": ("bits", "eps", "max", "min"), "iinfo": ("bits", "max", "min")}


def _complete_info(native: Any, name: str) -> Any:
    """The library's ``finfo`` / ``iinfo``, answered by numpy's where its answer lacks
    one of numpy's fields (an ``iinfo`` without ``bits``)."""
    fallback = _numpy_info(name)

    def info(dtype: Any) -> Any:
        got = native(dtype)
        if all(hasattr(got, f) for f in _INFO_FIELDS[name]):
            return got
        return fallback(dtype)

    info.__name__ = info.__qualname__ = name
    info.__doc__ = native.__doc__
    return info


class Namespace:
    """A numpy-like namespace bound to one backend.

    ``ns.sum`` is the resolved implementation itself (no inference on call),
    ``ns.linalg`` a sub-namespace, and names that are values rather than
    functions are the library's values: ``ns.pi``, ``ns.nan``, ``ns.newaxis``,
    dtypes (``ns.float32`` is the backend's dtype object), ``ns.finfo`` and
    ``ns.iinfo``. Any other name raises ``AttributeError`` (an
    :class:`~dispatch.UnknownFunctionError`, with suggestions). Registrations
    take effect on the next attribute access.
    """

    __slots__ = ("_backend", "_draws", "_inject", "_prefix")

    def __init__(self, backend: str, prefix: str = "", inject: tuple = (), draws: tuple = ()):
        self._backend = backend
        self._prefix = prefix
        self._inject = inject  # (keyword, value) defaults of the creation routines
        self._draws = draws  # those of the random draws of floats (a float dtype only)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        full = self._prefix + name
        if full in _prefixes(self._backend):
            return Namespace(self._backend, full + ".", self._inject, self._draws)
        if full in _INFO:  # numpy's answers always (a library's own may lack fields)
            info = self._value(full)
            if info is not _MISSING:
                return info
        try:
            fn = resolve(self._backend, full)
        except UnknownFunctionError as err:
            value = self._value(full)
            if value is _MISSING:
                why = self._dtype_refusal(full) or err
                raise UnknownFunctionError(f"{self!r} has no attribute {name!r}: {why}") from None
            return value
        if self._inject and full in CREATION:
            return _with_defaults(fn, self._inject)
        if self._draws and full in FLOAT_DRAWS:
            return _with_defaults(fn, self._draws)
        if self._draws and full in GENERATORS:
            return _generating(fn, self._draws)
        return fn

    def _dtype_refusal(self, full: str) -> str | None:
        """The library's reason for lacking the dtype ``full`` (its table's refusal),
        or None when ``full`` is no dtype name."""
        if full not in _DTYPES:
            return None
        try:
            resolve(self._backend, "to_backend_dtype")(full)
        except (DispatchError, TypeError, ValueError, AttributeError) as err:
            return str(err)
        return None

    def _value(self, full: str) -> Any:
        """What ``full`` names when it is not a function: a dtype, a constant, a
        submodule of the library (a namespace), or ``_MISSING``."""
        if full in _DTYPES:
            try:
                return resolve(self._backend, "to_backend_dtype")(full)
            except (DispatchError, TypeError, ValueError, AttributeError):
                pass  # a dtype the library lacks (bfloat16 on numpy): missing
            return _MISSING
        try:
            root = reg.root_module(self._backend)
            # the modules a table lets names walk through (``scipy.sparse.linalg``
            # on numpy, found through its ``MODULES`` remap) are sub-namespaces
            if full in (reg.record(self._backend).submodules or ()):
                return Namespace(self._backend, full + ".", self._inject, self._draws)
        except DispatchError:
            return _MISSING
        native = _attribute(root, full)
        if isinstance(native, ModuleType):
            if native.__name__.split(".")[0] == root.split(".")[0]:
                return Namespace(self._backend, full + ".", self._inject, self._draws)
            return _MISSING
        if full in _INFO:
            owner = getattr(native, "__module__", None) or "numpy"
            if native is not _MISSING and owner.split(".")[0] != "numpy":
                return _complete_info(native, full)  # the library's own (jax's: bfloat16)
            # numpy's, taking this library's dtypes and arrays too (tensorflow's
            # numpy module hands out numpy.iinfo, which refuses tf.int64)
            return _numpy_info(full)
        if native is not _MISSING and _is_value(native):
            return native
        # constants are the same on every library: numpy's, where the library
        # lacks one (tensorflow's numpy has no nan)
        if "." not in full:
            fallback = _attribute("numpy", full)
            if fallback is not _MISSING and _is_value(fallback):
                return fallback
        return _MISSING

    def __repr__(self) -> str:
        where = f":{self._prefix[:-1]}" if self._prefix else ""
        return f"<dispatch namespace {self._backend}{where}>"

    def __dir__(self) -> list[str]:
        depth = self._prefix.count(".")
        return sorted(
            {n.split(".")[depth] for n in known_names(self._backend) if n.startswith(self._prefix)}
        )


def get_namespace(
    like: Any = None, device: Any = None, dtype: Any = None, submodule: str | None = None
) -> Any:
    """A numpy-like namespace for the backend of ``like`` (a name or an array).

    Parameters
    ----------
    like : str or array, optional
        The backend, or an example array: as with ``do(..., like=x)``, its dtype
        (and device) become the defaults of the creation routines (``zeros``,
        ``eye``, ``arange``...). None gives a namespace whose functions dispatch
        on their arguments at each call (as ``dispatch.numpy``).
    device, dtype : optional
        Defaults passed to the creation routines where a call gives none; they
        win over those of ``like``.
    submodule : str, optional
        A sub-namespace such as ``"linalg"``.

    Examples
    --------
    >>> import numpy as np
    >>> xp = get_namespace(np.ones(2))
    >>> xp.sum(np.arange(3))
    np.int64(3)
    >>> xp.linalg.det(np.eye(2))
    np.float64(1.0)
    >>> xp.pi, xp.finfo(xp.float32).eps
    (3.141592653589793, np.float32(1.1920929e-07))
    >>> get_namespace("numpy", dtype="float32").zeros(2).dtype
    dtype('float32')
    >>> get_namespace(np.ones(2, dtype="complex64")).ones(2).dtype
    dtype('complex64')
    """
    prefix = f"{submodule}." if submodule else ""
    if like is None:
        return DoNamespace(prefix)
    backend = reg.check_backend(f"get_namespace({short(like)})", like_backend(like))
    if isinstance(dtype, str):  # a name: the library's own dtype object
        dtype = resolve(backend, "to_backend_dtype")(dtype)
    defaults = {} if isinstance(like, str) else _like_defaults(backend, like)
    draws = {} if isinstance(like, str) else draw_defaults(reg.record(backend), like)
    if dtype is not None:
        defaults["dtype"] = dtype
        if _dtype_name(dtype) in REAL_FLOAT_NAMES:
            draws["dtype"] = dtype
    if device is not None:
        defaults["device"] = device
        draws["device"] = device
    return Namespace(backend, prefix, tuple(defaults.items()), tuple(draws.items()))



def _like_defaults(backend: str, like: Any) -> dict:
    """The dtype (and device) an example array gives creation routines, as ``like=``
    does in ``do``."""
    inject = reg.record(backend).creation_kwargs
    if inject is not None:
        return dict(inject(like))
    dtype = getattr(like, "dtype", None)
    return {} if dtype is None else {"dtype": dtype}


def _with_defaults(fn: Callable, inject: tuple) -> Callable:
    """``fn`` taking the namespace's default dtype and device where a call gives none."""

    @functools.wraps(fn)
    def creating(*args: Any, **kwargs: Any) -> Any:
        for k, v in inject:
            if kwargs.get(k) is None:
                kwargs[k] = v
        return fn(*args, **kwargs)

    return creating


def _generating(make: Callable, draws: tuple) -> Callable:
    """``random.default_rng`` whose generators draw floats with the namespace's
    defaults (the example array's float dtype and device)."""

    @functools.wraps(make)
    def default_rng(*args: Any, **kwargs: Any) -> Any:
        return _DrawDefaults(make(*args, **kwargs), draws)

    return default_rng


class _DrawDefaults:
    """A random generator whose draws of floats take default keywords, each where the
    generator's method takes that keyword (numpy's ``normal`` takes no dtype)."""

    __slots__ = ("_draws", "_rng")

    def __init__(self, rng: Any, draws: tuple) -> None:
        self._rng = rng
        self._draws = draws

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._rng, name)
        if "random." + name not in FLOAT_DRAWS or not callable(attr):
            return attr
        try:
            params = inspect.signature(attr).parameters
        except (TypeError, ValueError):  # a compiled method: its defaults stay
            return attr
        takes = tuple((k, v) for k, v in self._draws if k in params)
        return _with_defaults(attr, takes) if takes else attr

    def __repr__(self) -> str:
        return repr(self._rng)


class DoNamespace:
    """Module-like object whose attributes call ``do`` with inference."""

    __slots__ = ("__dict__", "_prefix")

    def __init__(self, prefix: str = ""):
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        fn = _DoFunction(self._prefix + name)
        self.__dict__[name] = fn
        return fn


_ANY_ARGUMENTS = inspect.Signature(
    [
        inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
        inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD),
    ]
)


class _Doc:
    """``__doc__`` of a :class:`_DoFunction`: its name's description, read on demand."""

    def __init__(self, class_doc: str):
        self.class_doc = class_doc

    def __get__(self, obj: Any, cls: Any = None) -> str:
        if obj is None:
            return self.class_doc
        from dispatch._describe import help_text

        return help_text(obj.name)


class _DoFunction:
    """``do`` bound to a name; also a namespace for dotted names (``xp.linalg.qr``).

    ``help(xnp.NAME)`` shows the name's description (``dispatch._describe``: the
    docstring of its composed fallback or adapter, the one the function reference
    prints) and ``inspect.signature`` its parameters. Like a function, it is a
    routine for ``help``; unlike a method, it binds to nothing as a class attribute.
    """

    __slots__ = ("__dict__", "name")
    __doc__ = _Doc(__doc__)  # type: ignore[assignment]

    def __init__(self, name: str):
        self.name = name

    def __get__(self, obj: Any, cls: Any = None) -> _DoFunction:
        return self

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.name.rsplit(".", 1)[-1]

    @property
    def __signature__(self) -> inspect.Signature:
        from dispatch._describe import describe

        # a name that documents none takes what do passes on
        return describe(self.name).signature or _ANY_ARGUMENTS

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return do(self.name, *args, **kwargs)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        fn = _DoFunction(f"{self.name}.{attr}")
        self.__dict__[attr] = fn
        return fn

    def __repr__(self) -> str:
        return f"<dispatch function {self.name!r}>"


class ArrayNamespace:
    """The Python array API standard's namespace for one backend.

    Attributes are the standard's names with its signatures and semantics
    (``xp.concat``, ``xp.sort(x, descending=True)``, ``xp.var(x, correction=1)``,
    ``xp.linalg.vector_norm``), the library's own dtype objects (``xp.float32``),
    the constants (``xp.pi``, ``xp.newaxis``), ``__array_namespace_info__`` and
    ``__array_api_version__``; any other name raises ``AttributeError``. Each
    function is a signature adapter over the vocabulary entry ``do`` calls, built
    on first access and kept: a namespace obtained after a registration sees it.
    """

    def __init__(self, backend: str, prefix: str = "", space: Any = None):
        from dispatch.translations import _array_api as spec

        self.__dict__["_backend"] = backend
        self.__dict__["_prefix"] = prefix
        self.__dict__["_space"] = spec.Space(backend) if space is None else space
        self.__dict__["_spec"] = spec
        if not prefix:
            self.__dict__["__array_api_version__"] = spec.VERSION
        self.__dict__["__name__"] = f"dispatch.array_namespace({backend})" + (
            f".{prefix[:-1]}" if prefix else ""
        )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") and name != "__array_namespace_info__":
            raise AttributeError(name)
        full = self._prefix + name
        if full in self._spec.EXTENSIONS:
            value: Any = type(self)(self._backend, full + ".", self._space)
        else:
            try:
                value = self._space.member(full)
            except DispatchError as err:
                raise AttributeError(
                    f"{self.__name__} has no {name!r}: {err}"
                ) from None
        self.__dict__[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{self.__name__} is read-only")

    def __repr__(self) -> str:
        return f"<{self.__name__}>"

    def __dir__(self) -> list[str]:
        depth = self._prefix.count(".")
        names = {
            n.split(".")[depth]
            for n in self._spec.FACTORIES
            if n.startswith(self._prefix) and not n.startswith("_")
        }
        if not self._prefix:
            names |= set(self._spec.CONSTANTS) | set(self._spec.EXTENSIONS)
            names |= set(self._space.dtype_names())
        return sorted(names)


_ARRAY_NAMESPACES: dict[tuple[type, str], tuple[int, ArrayNamespace]] = {}


def namespace_backend(where: str, arrays: tuple, api_version: str | None) -> str:
    """The one library of ``arrays`` (a face's ``array_namespace`` call): Python
    scalars and None are skipped, a library's scalar (``numpy.float64``, what a
    reduction returns) counts as its array; no array, or arrays of two libraries,
    is a TypeError (:class:`MixedBackendError` for two)."""
    from dispatch.translations._array_api import VERSIONS

    if api_version is not None and api_version not in VERSIONS:
        raise ValueError(
            f"{where}: api_version={api_version!r} is not a version of the array API "
            f"standard; one of {', '.join(VERSIONS)} (or None, the newest)"
        )
    backends = set()
    for a in arrays:
        # numpy.float64 subclasses float: a library's scalar is asked for first
        b = None if isinstance(a, str) else scalar_backend(type(a))
        if b is None and (a is None or isinstance(a, (bool, int, float, complex))):
            continue
        backends.add(b if b is not None else like_backend(a))
    if not backends:
        raise TypeError(f"{where} needs at least one array or a backend name")
    if len(backends) > 1:
        # array-api-compat's words, which code and tests match
        raise MixedBackendError(
            f"{where}: Multiple namespaces for array inputs: arrays of several libraries "
            f"({', '.join(sorted(backends))}); convert them to one library first"
        )
    return reg.check_backend(where, backends.pop())


def cached_namespace(kind: type, backend: str) -> Any:
    """The namespace of class ``kind`` on ``backend``, built once per registry state."""
    gen = reg.generation
    hit = _ARRAY_NAMESPACES.get((kind, backend))
    if hit is not None and hit[0] == gen:
        return hit[1]
    ns = kind(backend)
    _ARRAY_NAMESPACES[kind, backend] = (gen, ns)
    return ns


def array_namespace(*arrays: Any, api_version: str | None = None) -> ArrayNamespace:
    """The array API standard's namespace for the library of ``arrays``.

    Code written against the Python array API standard (``xp =
    array_namespace(x)``, then ``xp.<name>``) runs on every library ``dispatch``
    supports, tensorflow included. ``get_namespace`` and ``do`` keep numpy's
    names and semantics; this namespace has the standard's (``concat``,
    ``permute_dims``, ``sort(descending=)``, ``std(correction=)``, its type
    promotion and default dtypes) over the same implementations, and no other
    names (``dispatch.compat.array_namespace`` adds the library's numpy names).

    Parameters
    ----------
    *arrays : arrays, Python scalars or None
        Arrays of one library (scalars and None are skipped; a numpy scalar is a
        numpy array), or a backend name. Arrays of two libraries raise
        :class:`~dispatch.MixedBackendError`, a TypeError.
    api_version : str, optional
        A version of the standard; every published one is accepted, and each gets
        the newest (``xp.__array_api_version__``), as array-api-compat does.

    Examples
    --------
    >>> import numpy as np
    >>> xp = array_namespace(np.asarray([3.0, 1.0, 2.0]))
    >>> xp.__array_api_version__
    '2025.12'
    >>> xp.sort(xp.asarray([3.0, 1.0, 2.0]), descending=True)
    array([3., 2., 1.])
    >>> xp.var(xp.asarray([1.0, 2.0, 3.0, 4.0]), correction=1)
    np.float64(1.6666666666666667)
    >>> xp.concat([xp.ones(2), xp.zeros(1)])
    array([1., 1., 0.])
    >>> array_namespace(xp.sum(xp.ones(2)))  # a numpy scalar is a numpy array
    <dispatch.array_namespace(numpy)>
    >>> array_namespace("torch").ones(2).dtype
    torch.float32
    """
    backend = namespace_backend("array_namespace()", arrays, api_version)
    return cached_namespace(ArrayNamespace, backend)
