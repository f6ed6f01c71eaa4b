"""array-api-compat's helper API as a face of ``dispatch``.

Code that reaches the array API standard through array-api-compat
(``array_namespace``, ``device``, ``to_device``, ``size``, the ``is_*`` predicates)
runs on every library ``dispatch`` supports, tensorflow included, once that one
import names this module::

    import sys
    import dispatch.compat

    sys.modules["array_api_compat"] = dispatch.compat                # the package
    sys.modules["scipy._lib.array_api_compat"] = dispatch.compat     # a vendored copy

It departs from :func:`dispatch.array_namespace` (the standard's names only) in
what array-api-compat's namespaces are: the standard's members, the same adapters,
and then the library's other numpy-named functions and values from ``dispatch``'s
vocabulary (``xp.float16``, ``xp.isclose``, ``xp.setdiff1d``, ``xp.linalg.norm``,
``xp.special`` on torch). A namespace carries the name array-api-compat gives its
own (``array_api_compat.torch``, ``jax.numpy``), so that the ``is_<library>_namespace``
predicates, and code that checks ``__name__`` as they do, recognize it. Objects of a library
``dispatch`` has no table for that bring their own namespace
(``__array_namespace__``, array-api-strict's) get it, as array-api-compat does.

Everything else (inference, the adapters, promotion, the tables) is
:func:`dispatch.array_namespace`'s: see ``dispatch/_namespace.py``.

>>> import numpy as np
>>> from dispatch import compat
>>> xp = compat.array_namespace(np.ones(2))
>>> xp.__name__, compat.is_numpy_namespace(xp)
('array_api_compat.numpy', True)
>>> xp.concat([xp.ones(1), xp.zeros(1)]), xp.isclose(1.0, 1.0 + 1e-12)
(array([1., 0.]), np.True_)
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
from types import ModuleType
from typing import Any

from dispatch import _registry as reg
from dispatch._errors import UnknownBackendError
from dispatch._infer import backend_of_type, scalar_backend
from dispatch._namespace import (
    ArrayNamespace,
    Namespace,
    cached_namespace,
    namespace_backend,
)

#: the array-api-compat release whose helper API this face has
__version__ = "1.16.0"

__all__ = [
    "array_namespace",
    "device",
    "get_namespace",
    "is_array_api_obj",
    "is_array_api_strict_namespace",
    "is_lazy_array",
    "is_writeable_array",
    "size",
    "to_device",
]

# array-api-compat's name of each library in its predicates -> dispatch's backend;
# tensorflow is dispatch's addition
LIBRARIES = {
    "numpy": "numpy", "cupy": "cupy", "torch": "torch", "ndonnx": "ndonnx",
    "dask": "dask", "jax": "jax", "pydata_sparse": "sparse", "dpnp": "dpnp",
    "mparray": "mparray", "tensorflow": "tensorflow",
}  # fmt: skip


# names that dispatch resolves to no array function and that array-api-compat's
# namespaces (the whole library) hand out: the library's assertions, which vendoring
# libraries' test helpers call on a recognized namespace (scipy's
# ``xp.testing.assert_close`` on torch). A documented departure from docs/safety.md's
# rule for ``do``: the face passes the module itself through, nothing inside it.
PASSED_THROUGH = frozenset({"testing"})


def _numpy_reference(dotted: str) -> Any:
    """numpy's function of a dotted name (whose signature the vocabulary keeps), or None."""
    import numpy

    obj: Any = numpy
    for part in dotted.split("."):
        obj = getattr(obj, part, None)
    return obj


def _vocabulary_prefix(dotted: str) -> bool:
    """Whether the vocabulary has names below ``dotted`` (``random``, ``special``)."""
    from dispatch.translations._vocabulary import NAMES

    return any(n.startswith(dotted + ".") for n in NAMES)


def _lenient(fn: Any, numpy: Any, name: str, reference: Any = None) -> Any:
    """The member ``fn`` that also takes the library's own keywords
    (``broadcast_to(x, shape, subok=True)`` on numpy, ``quantile(x, q, dim=0)`` on
    torch): a call naming a keyword that ``fn``'s signature (or ``reference``'s, numpy's
    function of the name) lacks goes to the library's function (``numpy``'s attribute
    ``name``, or ``numpy`` itself where it is a function), as it would in
    array-api-compat's namespace, which is the library's."""
    if not callable(fn) or isinstance(fn, type):
        return fn
    try:
        own = {p.name for p in inspect.signature(reference or fn).parameters.values()}
        other = numpy if reference is not None else getattr(numpy, name)
    except (TypeError, ValueError, AttributeError):
        return fn
    if not callable(other):
        return fn

    @functools.wraps(fn)
    def member(*args: Any, **kwargs: Any) -> Any:
        if kwargs and not own.issuperset(kwargs):
            return other(*args, **kwargs)
        return fn(*args, **kwargs)

    return member


# the libraries array-api-compat wraps in a module of its own: their namespaces are
# named as its (``array_api_compat.numpy``); the others' as the library's module
# (``jax.numpy``), as array-api-compat hands those out unwrapped
WRAPPED = frozenset({"numpy", "cupy", "torch", "dask"})
#: the prefix of the wrapped namespaces' names (``common._helpers._compat_module_name``)
PACKAGE = "array_api_compat"


def _facts(backend: str) -> Any:
    from dispatch.translations._array_api import library

    return library(backend)


def _module(backend: str) -> str:
    return _facts(backend).module or backend


#: array-api-compat's names of the classes of the ``unique_*`` results
RESULT_TYPES = {
    "UniqueAllResult": "unique_all",
    "UniqueCountsResult": "unique_counts",
    "UniqueInverseResult": "unique_inverse",
}


class CompatNamespace(ArrayNamespace):
    """array-api-compat's namespace of one library: the standard's members, then
    the library's numpy-named functions and values; named as array-api-compat's."""

    def __init__(self, backend: str, prefix: str = "", space: Any = None):
        super().__init__(backend, prefix, space)
        self.__dict__["_numpy"] = Namespace(backend, prefix)
        name = _module(backend) + (f".{prefix[:-1]}" if prefix else "")
        self.__dict__["__name__"] = f"{PACKAGE}.{name}" if backend in WRAPPED else name

    def __getattr__(self, name: str) -> Any:
        if name == "__version__":  # the library's (scipy checks numpy's)
            return importlib.import_module(self._root).__version__
        try:
            value = super().__getattr__(name)
        except AttributeError as standard:
            if name.startswith("_"):
                raise
            value = self._beyond(name, standard)
        else:
            value = _lenient(value, self._numpy, name)
        self.__dict__[name] = value
        return value

    @property
    def _root(self) -> str:
        return _module(self._backend).split(".")[0]

    def _beyond(self, name: str, standard: AttributeError) -> Any:
        """A name outside the standard: the library's numpy-named function or value,
        or its test module (see :data:`PASSED_THROUGH`)."""
        if not self._prefix and name in PASSED_THROUGH:
            try:
                return importlib.import_module(f"{self._root}.{name}")
            except ImportError:
                raise standard from None
        if not self._prefix and name in RESULT_TYPES:
            # array-api-compat's names of the unique_* results: the classes of this
            # namespace's own results (numpy's named tuples on numpy, ...)
            return type(getattr(self, RESULT_TYPES[name])(self.asarray([0])))
        sub = f".{self._prefix[:-1]}" if self._prefix else ""
        try:
            library = importlib.import_module(_module(self._backend) + sub)
        except ImportError:
            library = None
        own = getattr(library, name, None)
        if isinstance(own, ModuleType) and not _vocabulary_prefix(self._prefix + name):
            return own  # a module of the library the vocabulary has no names in (torch.backends)
        try:
            value = getattr(self._numpy, name)
        except AttributeError:
            pass
        else:
            # the library's own keywords (torch's quantile(..., dim=)) reach its function
            return _lenient(value, own, name, reference=_numpy_reference(self._prefix + name))
        # beyond dispatch's vocabulary (numpy's put_along_axis, which writes into its
        # argument and which do() refuses): the library's own attribute, as
        # array-api-compat's namespaces are the whole library
        if own is None and not hasattr(library, name):
            raise standard from None
        return own

    def __repr__(self) -> str:
        return f"<dispatch.compat namespace {self.__name__}>"

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(dir(self._numpy)))


def _backend(x: Any) -> str | None:
    """The backend whose array (or scalar) ``x`` is; None for anything else."""
    t = type(x)
    b = backend_of_type(t)
    if b is not None and hasattr(x, "shape"):
        return b
    return scalar_backend(t)


def array_namespace(
    *xs: Any, api_version: str | None = None, use_compat: bool | None = None
) -> Any:
    """The standard's namespace of the library of ``xs``, with its numpy names.

    Parameters
    ----------
    *xs : arrays, Python scalars or None
        Arrays of one library; scalars and None are skipped, numpy's scalars are
        numpy arrays. Two libraries raise :class:`~dispatch.MixedBackendError`
        (a TypeError), an object of no array library a TypeError.
    api_version : str, optional
        A published version of the standard; each gets the newest.
    use_compat : bool, optional
        False gives the library's own module (``numpy``, ``torch``,
        ``jax.numpy``), True or None this face's namespace.

    Examples
    --------
    >>> import numpy as np
    >>> xp = array_namespace(np.float64(1.0), 2, None)
    >>> xp.__name__, xp.__array_api_version__
    ('array_api_compat.numpy', '2025.12')
    >>> xp.unique_values(xp.asarray([3, 1, 3, 2]))
    array([1, 2, 3])
    >>> array_namespace(np.ones(1), use_compat=False).__name__
    'numpy'
    """
    own = [x for x in xs if _foreign_namespace(x)]
    if own:
        # array-api-strict and other libraries with a namespace and no table
        spaces = {x.__array_namespace__(api_version=api_version) for x in own}
        if len(spaces) == 1 and len(own) == len(_arrays(xs)):
            return spaces.pop()
    try:
        backend = namespace_backend("array_namespace()", xs, api_version)
    except UnknownBackendError as err:
        raise TypeError(f"array_namespace(): unrecognized array input: {err}") from None
    if use_compat is False:
        return importlib.import_module(_module(backend))
    return cached_namespace(CompatNamespace, backend)


get_namespace = array_namespace


def _arrays(xs: tuple) -> list:
    return [x for x in xs if x is not None and not isinstance(x, (bool, int, float, complex))]


def _foreign_namespace(x: Any) -> bool:
    """An object bringing its own standard namespace, of a library with no table."""
    if not hasattr(type(x), "__array_namespace__"):
        return False
    backend = _backend(x)
    return backend is None or not reg.has_table(backend)


def is_array_api_obj(x: object) -> bool:
    """Whether ``x`` is an array of a library (numpy's scalars included) or has
    ``__array_namespace__``.

    >>> import numpy as np
    >>> is_array_api_obj(np.ones(1)), is_array_api_obj(np.float32(1)), is_array_api_obj(1.0)
    (True, True, False)
    """
    return _backend(x) is not None or hasattr(x, "__array_namespace__")


def _array_predicate(label: str, backend: str) -> Any:
    def predicate(x: object) -> bool:
        return _backend(x) == backend

    predicate.__name__ = predicate.__qualname__ = f"is_{label}_array"
    predicate.__module__ = __name__
    predicate.__doc__ = (
        f"Whether ``x`` is an array of {backend} (its scalars included); imports nothing."
    )
    return predicate


def _names(backend: str) -> frozenset[str]:
    """The ``__name__`` values of ``backend``'s namespaces: its module's, this face's
    (the same), array-api-compat's wrapper modules and their vendored copies."""
    module = _module(backend)
    return frozenset({module, *_facts(backend).aliases, f"{PACKAGE}.{module}"})


def _namespace_predicate(label: str, backend: str) -> Any:
    def predicate(xp: Any) -> bool:
        if isinstance(xp, ArrayNamespace):  # dispatch's faces: their backend
            return xp._backend == backend and not xp._prefix
        name = getattr(xp, "__name__", None)
        if not isinstance(name, str):
            return False
        names = _names(backend)
        return name in names or any(name.endswith(f".{n}") for n in names if "compat" in n)

    predicate.__name__ = predicate.__qualname__ = f"is_{label}_namespace"
    predicate.__module__ = __name__
    predicate.__doc__ = (
        f"Whether ``xp`` is a namespace of {backend}: its own module, this face's or "
        "array-api-compat's."
    )
    return predicate


for _label, _lib in LIBRARIES.items():
    for _make, _kind in ((_array_predicate, "array"), (_namespace_predicate, "namespace")):
        globals()[f"is_{_label}_{_kind}"] = _make(_label, _lib)
        __all__.append(f"is_{_label}_{_kind}")
del _label, _lib, _make, _kind
__all__.sort()


def is_array_api_strict_namespace(xp: Any) -> bool:
    """Whether ``xp`` is array-api-strict's namespace."""
    return getattr(xp, "__name__", None) == "array_api_strict"


def device(x: Any, /) -> Any:
    """The device of ``x`` (``x.device`` where the library has it, ``"cpu"`` for
    arrays of host-only libraries and numpy's scalars).

    >>> import numpy as np
    >>> device(np.ones(1)), device(np.float64(1))
    ('cpu', 'cpu')
    """
    if scalar_backend(type(x)) is not None:
        return "cpu"
    where = getattr(x, "device", None)
    if callable(where):  # jax's older arrays: a method
        where = where()
    if where is None:
        devices = getattr(x, "devices", None)  # jax: a set of one device
        if callable(devices):
            found = devices()
            if len(found) == 1:
                return next(iter(found))
        return "cpu"
    return where


def to_device(x: Any, device: Any, /, *, stream: Any = None) -> Any:
    """``x`` on ``device`` (``dispatch.to_device``); a ``stream`` goes to the array's
    own ``to_device`` where it has one.

    >>> import numpy as np
    >>> to_device(np.ones(1), "cpu")
    array([1.])
    """
    if stream is not None:
        own = getattr(x, "to_device", None)
        if own is None:
            raise ValueError(f"to_device(stream={stream!r}): {type(x).__name__} takes no stream")
        return own(device, stream=stream)
    if _backend(x) == "numpy" and device != "cpu":
        raise ValueError(f"to_device(): numpy arrays live on 'cpu', not {device!r}")
    from dispatch._helpers import to_device as move

    return move(x, device)


def size(x: Any) -> int | None:
    """The number of elements of ``x``; None where a dimension is unknown (a lazy
    array's, as ``None`` or dask's ``nan``).

    >>> import numpy as np
    >>> size(np.ones((2, 3)))
    6
    """
    shape = x.shape
    if None in shape:
        return None
    out = math.prod(shape)
    return None if isinstance(out, float) and math.isnan(out) else int(out)


def is_writeable_array(x: object) -> bool:
    """Whether ``x`` is an array that takes item assignment (numpy's read-only
    arrays and scalars, jax's, tensorflow's and pydata sparse's do not).

    >>> import numpy as np
    >>> is_writeable_array(np.ones(1)), is_writeable_array(np.float64(1))
    (True, False)
    """
    backend = _backend(x)
    if backend is None:
        return hasattr(x, "__array_namespace__")
    flags = getattr(x, "flags", None)
    if flags is not None and hasattr(flags, "writeable"):
        return bool(flags.writeable)
    return _facts(backend).writeable


def is_lazy_array(x: object) -> bool:
    """Whether ``x`` is an array whose values may be unknown until computed (jax's
    and dask's; an array with an unknown dimension).

    >>> import numpy as np
    >>> is_lazy_array(np.ones(1))
    False
    """
    backend = _backend(x)
    if backend is not None and _facts(backend).lazy:
        return True
    if backend is None and not hasattr(x, "__array_namespace__"):
        return False
    shape = getattr(x, "shape", ())
    return any(d is None or (isinstance(d, float) and math.isnan(d)) for d in shape)


def __dir__() -> list[str]:
    return sorted({*__all__, "common", "numpy", "torch", "cupy", "dask"})


def __getattr__(name: str) -> Any:
    # array-api-compat's wrapper modules (``array_api_compat.numpy``, which scipy
    # imports as ``np_compat``) are this face's namespaces
    if name in ("numpy", "torch", "cupy", "dask", "common"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
