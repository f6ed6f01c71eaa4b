"""The standard's dtypes, promotion table and per-library facts, and :class:`Space`,
which builds a namespace's members from the vocabulary."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from dispatch.engine import get_lib_fn, scalar_backend

VERSION = "2025.12"
#: every published version of the standard: ``api_version=`` takes each, and an
#: older one gets the same namespace (array-api-compat's rule: newer versions add
#: names and change few results, tuples for lists)
VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")

DTYPE_NAMES = (
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 "
    "float32 float64 complex64 complex128"
).split()

CONSTANTS = {"e": math.e, "inf": math.inf, "nan": math.nan, "pi": math.pi, "newaxis": None}


class Library(NamedTuple):
    """What the standard asks of a library that its table does not say."""

    #: dtype names the namespace offers (those of the standard the library has)
    dtypes: tuple[str, ...]
    #: default dtypes: real floating, complex floating, integral, indexing;
    #: ``None`` for the floats: the library's own default, read when asked
    defaults: tuple[str | None, str | None, str, str] = ("float64", "complex128", "int64", "int64")
    #: binary functions promote their arguments by the standard's table first
    #: (the library's own rule differs: 0-d tensors, mixed signedness)
    promotes: bool = False
    #: the standard's "data-dependent shapes" and "boolean indexing" capabilities
    dynamic_shapes: bool = True
    #: a 32-bit mode: while the default float is float32, 64-bit dtypes are not
    #: computed (requests are truncated) and the default integer is int32
    mode_32: bool = False
    #: the library's settable default float, where ``defaults`` says None
    default_float: Callable[[], str] | None = None
    #: its ``unique_values`` returns sorted values (numpy 2.3's hashes them: any
    #: order, which the standard permits; the namespace sorts them, as array-api-compat,
    #: torch and array-api-strict do, for code that relies on the order)
    sorted_unique: bool = True
    #: the module whose name the library's namespace carries (``xp.__name__``), which
    #: array-api-compat's ``is_<library>_namespace`` and the code written like it
    #: check; "" for the backend's own name
    module: str = ""
    #: other names of the library's standard namespace that those checks accept
    aliases: tuple[str, ...] = ()
    #: its arrays can be written in place (``x[i] = v``); numpy's answer is per array
    writeable: bool = True
    #: its arrays may be lazy: values (and, for some, shapes) unknown until computed
    lazy: bool = False


_ALL = tuple(DTYPE_NAMES)
LIBRARIES: dict[str, Library] = {
    "numpy": Library(_ALL, sorted_unique=False),
    "dask": Library(_ALL, dynamic_shapes=False, module="dask.array", lazy=True),
    # without 64-bit mode (jax_enable_x64) jax computes in 32 bits
    "jax": Library(_ALL, defaults=(None, None, "int64", "int64"), mode_32=True,
                   default_float=lambda: _jax_default_float(), module="jax.numpy",
                   aliases=("jax.experimental.array_api",), writeable=False, lazy=True),
    # its default float is settable (torch.set_default_dtype)
    "torch": Library(_ALL, defaults=(None, None, "int64", "int64"), promotes=True,
                     default_float=lambda: _torch_default_float()),
    "tensorflow": Library(
        _ALL, defaults=("float32", "complex64", "int64", "int64"), promotes=True,
        module="tensorflow.experimental.numpy", writeable=False,
    ),
    # pydata sparse arrays take no item assignment
    "sparse": Library(_ALL, writeable=False),
    # array-api-compat knows it by this second name
    "dpnp": Library(_ALL, aliases=("dpnp.tensor",)),
    "cupy": Library(_ALL, sorted_unique=False),
}


def _torch_default_float() -> str:
    import torch

    return str(torch.get_default_dtype()).rpartition(".")[2]


def _jax_default_float() -> str:
    import jax

    return "float64" if jax.config.jax_enable_x64 else "float32"


def library(backend: str) -> Library:
    """The standard's facts of ``backend`` (a library the table above lacks is
    taken to follow numpy: all dtypes, numpy's defaults)."""
    return LIBRARIES.get(backend, Library(_ALL))


# --------------------------------------------------------------------------
# dtypes: names, the standard's promotion table, kinds
# --------------------------------------------------------------------------

_BITS = {
    "bool": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
    "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
    "float32": 32, "float64": 64, "complex64": 64, "complex128": 128,
}  # fmt: skip
_WIDE = frozenset({"int64", "uint64", "float64", "complex128"})
# dtypes a library has beyond the standard's: known by kind only (a sum keeps them, a
# float test holds), promoted by the library's own rule, as array-api-compat leaves them
_BEYOND = ("float16", "bfloat16", "float96", "float128", "complex192", "complex256")
_KIND = {n: ("b" if n == "bool" else n[0] if n[0] in "iuc" else "f") for n in (*_BITS, *_BEYOND)}


def dtype_name(dtype: Any) -> str:
    """``'float32'`` for ``numpy.float32``, ``np.dtype('float32')``,
    ``torch.float32`` or ``tf.float32``."""
    name = getattr(dtype, "name", None)
    if isinstance(name, str) and name in _KIND:
        return name  # numpy dtype, tensorflow DType
    if isinstance(dtype, type):  # numpy's scalar types (jax.numpy.float32)
        import numpy as np

        return np.dtype(dtype).name
    name = str(dtype).rpartition(".")[2]  # torch.float32
    if name in _KIND:
        return name
    raise TypeError(f"{dtype!r} is not one of the array API's dtypes")


def promote(a: str, b: str) -> str:
    """The standard's result dtype of two dtype names; TypeError where it has none
    (a signed and an unsigned 64-bit integer, integers with floats, bool with numbers)."""
    if a == b:
        return a
    if a not in _BITS or b not in _BITS:
        raise TypeError(f"the array API has no promotion rule for {a} with {b}")
    ka, kb = _KIND[a], _KIND[b]
    if "b" in (ka, kb):
        raise TypeError(f"the array API does not promote {a} with {b}")
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return a if _BITS[a] >= _BITS[b] else b
        signed, unsigned = (a, b) if ka == "i" else (b, a)
        if _BITS[signed] > _BITS[unsigned]:
            return signed
        if _BITS[unsigned] == 64:
            raise TypeError(f"the array API does not promote {a} with {b}")
        return f"int{2 * _BITS[unsigned]}"
    if ka in "iu" or kb in "iu":
        raise TypeError(f"the array API does not promote {a} with {b} (integer with floating)")
    # floating and complex: the widest precision, complex if either is
    bits = max(_BITS[a] // (2 if ka == "c" else 1), _BITS[b] // (2 if kb == "c" else 1))
    return f"complex{2 * bits}" if "c" in (ka, kb) else f"float{bits}"


# the standard's "same kind" casts: a dtype casts safely to those it promotes to
def can_cast_names(a: str, b: str) -> bool:
    """Whether the standard's promotion lets dtype ``a`` become ``b`` (``can_cast``)."""
    if a == b:
        return True
    if a == "bool":
        return False
    try:
        return promote(a, b) == b
    except TypeError:
        return False


# --------------------------------------------------------------------------
# the namespace's members on one backend
# --------------------------------------------------------------------------

#: standard name -> factory(space) giving the member; filled by :func:`_member`
FACTORIES: dict[str, Callable[[Space], Any]] = {}
#: the standard's extensions: sub-namespaces
EXTENSIONS = ("linalg", "fft")


def _member(*names: str) -> Callable:
    def register(factory: Callable) -> Callable:
        for n in names:
            FACTORIES[n] = factory
        return factory

    return register


class Space:
    """The standard's members on one backend, built from its vocabulary entries.

    ``member(name)`` gives what ``xp.<name>`` is: a function (a signature adapter
    over the vocabulary), a dtype (the library's own object), a constant, or
    raises ``AttributeError``.
    """

    def __init__(self, backend: str):
        self._backend = backend
        self._lib = library(backend)
        self._fns: dict[str, Callable] = {}
        self._dtypes: dict[str, Any] = {}
        self._foreign: dict[type, bool] = {}  # type -> another library's scalar type?

    # the vocabulary entry ``do(name, ...)`` calls on this backend
    def fn(self, name: str) -> Callable:
        f = self._fns.get(name)
        if f is None:
            f = self._fns[name] = get_lib_fn(self._backend, name)
        return f

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self.fn(name)(*args, **kwargs)

    def _dtype(self, name: str | None) -> Any:
        """The namespace's attribute for dtype ``name``: numpy's dtypes as its scalar
        types (``numpy.float32``), as numpy's own namespace spells them."""
        if name is None:
            return None
        d = self._dtypes.get(name)
        if d is None:
            d = self.dtype_object(name)
            d = self._dtypes[name] = getattr(d, "type", d) if _is_numpy_dtype(d) else d
        return d

    def dtype_object(self, name: str | None) -> Any:
        """The library's own dtype object for ``name`` (``np.dtype('float64')``, not
        the scalar type): what ``x.dtype`` is, which hashes as ``x.dtype`` does, so
        that answers about dtypes (``result_type``, ``finfo(...).dtype``, the
        inspection's ``dtypes()``) key dictionaries of ``x.dtype``."""
        if name is None:
            return None
        key = "=" + name
        d = self._dtypes.get(key)
        if d is None:
            d = self._dtypes[key] = self.fn("to_backend_dtype")(name)
        return d

    def promote(self, a: str, b: str) -> str:
        """The result dtype name of ``a`` with ``b``: the standard's table, and where
        it has none (integers with floats, bool with numbers, int64 with uint64) the
        library's own rule, as array-api-compat defers to it: code written for the
        standard relies on ``stack([int32, float64])`` working."""
        try:
            return promote(a, b)
        except TypeError:
            rt = self.fn("result_type")
            return dtype_name(rt(self.dtype_object(a), self.dtype_object(b)))

    def _defaults(self) -> tuple[str, str, str, str]:
        """Default real float, complex, integral and indexing dtype names (a library
        whose default float is settable is asked at each call: cheap)."""
        real, cplx, integral, index = self._lib.defaults
        if real is None:
            real = self._lib.default_float()  # type: ignore[misc]
        if cplx is None:
            cplx = "complex128" if real == "float64" else "complex64"
        if self._lib.mode_32 and real == "float32":
            integral = index = "int32"
        return real, cplx, integral, index

    def dtype_names(self) -> tuple[str, ...]:
        """The dtype names this namespace offers."""
        if self._lib.mode_32 and self._defaults()[0] == "float32":
            return tuple(n for n in self._lib.dtypes if n not in _WIDE)
        return self._lib.dtypes

    def member(self, name: str) -> Any:
        if name in _BITS:
            if name not in self.dtype_names():
                raise AttributeError(
                    f"array_namespace({self._backend}) has no {name}: {self._backend} "
                    "computes no such arrays (in its present mode)"
                )
            return self._dtype(name)
        if name in CONSTANTS:
            return CONSTANTS[name]
        factory = FACTORIES.get(name)
        if factory is None:
            raise AttributeError(
                f"array_namespace({self._backend}) has no {name!r}: not a name of the "
                f"array API standard {VERSION}"
            )
        return factory(self)

    def name_of(self, x: Any) -> str:
        """The dtype name of an array or dtype of this backend."""
        return dtype_name(x if isinstance(x, type) else getattr(x, "dtype", x))

    def promoted(self, *xs: Any) -> tuple:
        """The arrays among ``xs`` cast to the standard's result dtype (on
        libraries whose own promotion differs); Python scalars are left alone, and
        another library's scalars (``numpy.float64`` beside torch tensors) become
        Python scalars, as array-api-compat takes them."""
        foreign = self._foreign
        for x in xs:
            t = type(x)
            hit = foreign.get(t)
            if hit is None:
                hit = foreign[t] = self.foreign_scalar(x)
            if hit:
                xs = tuple(x.item() if self.foreign_scalar(x) else x for x in xs)
                break
        if not self._lib.promotes:
            return xs
        names = [self.name_of(x) if hasattr(x, "dtype") else None for x in xs]
        present = [n for n in names if n is not None]
        if len(set(present)) < 2:
            return xs
        target = present[0]
        for n in present[1:]:
            target = self.promote(target, n)
        astype = self.fn("astype")
        dtype = self._dtype(target)
        return tuple(
            astype(x, dtype, copy=False) if n is not None and n != target else x
            for x, n in zip(xs, names, strict=True)
        )

    def foreign_scalar(self, x: Any) -> bool:
        """Whether ``x`` is a scalar of another library than this one (numpy's
        ``float64`` in a torch call)."""
        owner = scalar_backend(type(x))
        return owner is not None and owner != self._backend

    def own_scalar(self, x: Any) -> bool:
        """Whether ``x`` is a scalar of this library (``numpy.float64`` on numpy)."""
        return scalar_backend(type(x)) == self._backend

    def default_for(self, value: Any) -> str | None:
        """The default dtype name for Python data (a scalar or nested sequences of
        them) with no dtype given; None for arrays and anything else."""
        real, cplx, integral, _ = self._defaults()
        kind = _python_kind(value)
        return {"b": "bool", "i": integral, "f": real, "c": cplx}.get(kind)


def _is_numpy_dtype(d: Any) -> bool:
    return type(d).__module__.startswith("numpy") and hasattr(d, "type") and hasattr(d, "kind")


def _python_kind(value: Any) -> str | None:
    """'b', 'i', 'f' or 'c': the widest Python scalar kind in ``value`` (nested lists
    and tuples of Python scalars); None if it holds anything else."""
    if isinstance(value, bool):
        return "b"
    if isinstance(value, int):
        return "i"
    if isinstance(value, float):
        return "f"
    if isinstance(value, complex):
        return "c"
    if isinstance(value, (list, tuple)):
        order = "bifc"
        kinds = [_python_kind(v) for v in value]
        if not kinds or None in kinds:
            return None if kinds else "f"  # numpy: an empty list is float64
        return max(kinds, key=order.index)  # type: ignore[arg-type]
    return None


class Devices(tuple):
    """``devices()``: a tuple, as 2025.12 has it, that code written for the list of
    earlier versions (``devices() + [None]``, in scipy's tests) can still extend."""

    __slots__ = ()

    def __add__(self, other: Any) -> Any:
        if isinstance(other, list):
            return [*self, *other]
        return tuple.__add__(self, other)

    def __radd__(self, other: Any) -> Any:
        if isinstance(other, list):
            return [*other, *self]
        return NotImplemented


class Info:
    """What ``__array_namespace_info__()`` answers: the library's capabilities,
    devices and dtypes."""

    def __init__(self, space: Space):
        self._space = space

    def capabilities(self) -> dict[str, Any]:
        dynamic = self._space._lib.dynamic_shapes
        return {"boolean indexing": dynamic, "data-dependent shapes": dynamic,
                "max dimensions": None}

    def default_device(self) -> Any:
        return getattr(self._space.fn("zeros")(0), "device", "cpu")

    def devices(self) -> tuple[Any, ...]:
        return Devices((self.default_device(),))

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        space = self._space
        real, cplx, integral, index = space._defaults()
        d = space.dtype_object
        return {"real floating": d(real), "complex floating": d(cplx),
                "integral": d(integral), "indexing": d(index)}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        names = self._space.dtype_names()
        if kind is not None:  # numpy's isdtype, as the vocabulary has it
            isdtype = self._space.fn("isdtype")
            names = tuple(n for n in names if isdtype(self._space._dtype(n), kind))
        return {n: self._space.dtype_object(n) for n in names}


def _axis(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, list) else axis


def _sum_dtype(space: Space, x: Any, dtype: Any) -> Any:
    """The standard's accumulation dtype: integers of the default integral width
    (unsigned stay unsigned), anything else its own."""
    if dtype is not None:
        return dtype
    name = space.name_of(x)
    kind = _KIND[name]
    if kind in "ib":
        return space._dtype(space._defaults()[2])
    if kind == "u":
        wide = "uint" + space._defaults()[2][3:]
        return space._dtype(wide if wide in space.dtype_names() else space._defaults()[2])
    return None
