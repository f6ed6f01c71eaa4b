"""Devices, dtypes and precision, and introspection helpers, written once with ``do``.

Devices, tensor identity and interop methods of the backend method list.

:class:`ComputeDevice` is the one device record of every library. Each table
lists its devices (``list_devices``), says where an array lives
(``get_device``) and moves arrays (``allocate_on_device``); the default device
bookkeeping below (``get_default_device``, ``set_default_device``,
``get_device_by_ref``) is written once on top of ``list_devices`` and bound to
each library in its table (:mod:`._bound`), as are ``is_tensor`` and
``from_external_array_dlpack``, which need to know the library they answer for.

dtype and precision methods of the backend method list.

Dtypes are described by numpy dtypes on every library (``dtype_of`` returns
``numpy.dtype('float32')`` for a torch float32 tensor); casts take a numpy
dtype or a dtype name. The list's ``dtype(array)`` is ``dtype_of`` here,
because numpy's ``dtype`` constructs dtypes.

Precision: ``dispatch.get_precision()`` (the ``precision(bits)`` context, else
the global setting) decides the float width of ``float_type()``,
``to_float``, ``to_complex``, ``auto_cast1`` and of ``combine_types`` when a
float is involved. With no precision set, ``float_type()`` is float32 (the
list's default) and ``combine_types`` keeps the widest float among its inputs.

Python scalars are *weak*, as in every array library: in ``combine_types`` and
``auto_cast`` they can raise the kind (int -> float) but never the width.

Introspection and conversion helpers every backend gets for free.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dispatch.engine import (
    UnknownFunctionError,
    UnsupportedError,
    backend_module,
    backend_of_type,
    composed,
    convert,
    do,
    get_lib_fn,
    get_precision,
    is_array,
)

_DEVICE_TYPES = ("CPU", "GPU", "TPU")


@dataclass(frozen=True)
class ComputeDevice:
    """A processor that a library can allocate arrays on.

    Attributes
    ----------
    backend : str
        The library, e.g. ``'torch'``.
    name : str
        The library's name of the device, e.g. ``'cuda:0'``.
    device_type : str
        ``'CPU'``, ``'GPU'`` or ``'TPU'``.
    memory : int
        Bytes of memory, -1 if unknown.
    processor_count : int
        Cores or multiprocessors, -1 if unknown.
    description : str
        Free text.
    ref : object
        The library's own device object (or name), passed back to the library.

    Examples
    --------
    >>> ComputeDevice("numpy", "CPU", "CPU", -1, 4, "host", "cpu").device_type
    'CPU'
    """

    backend: str
    name: str
    device_type: str
    memory: int = -1
    processor_count: int = -1
    description: str = ""
    ref: Any = field(default=None, compare=False)

    def __repr__(self) -> str:
        mem = f", {self.memory / 2**30:.1f} GiB" if self.memory > 0 else ""
        return f"ComputeDevice({self.backend}: {self.name} [{self.device_type}{mem}])"


def device_ref(device: Any) -> Any:
    """The library's own device for ``device``: a :class:`ComputeDevice` (of
    ``get_device`` or ``list_devices``) gives its ``ref``; anything else (a name such as
    ``'cuda:1'``, the library's device object, None) is returned as it is. The tables'
    ``to_device`` take either."""
    return device.ref if isinstance(device, ComputeDevice) else device


# the default device of each library; written only through set_default_device
_DEFAULT: dict[str, ComputeDevice] = {}


def recorded_default_device(backend: str) -> ComputeDevice | None:
    """The device ``set_default_device`` recorded for ``backend``, if any: for a table
    whose ``get_default_device`` otherwise answers with its library's own default."""
    return _DEFAULT.get(backend)


def list_devices_filtered(devices: list[ComputeDevice], device_type: str | None) -> list:
    """``devices`` of ``device_type`` (all for None); for tables' ``list_devices``."""
    if device_type is None:
        return list(devices)
    if device_type not in _DEVICE_TYPES:
        raise ValueError(f"device_type must be one of {_DEVICE_TYPES} or None, got {device_type!r}")
    return [d for d in devices if d.device_type == device_type]


def get_default_device(*, backend: str) -> ComputeDevice:
    """The :class:`ComputeDevice` where the library allocates new arrays.

    The device chosen with ``set_default_device``, else the library's first device
    (``list_devices``). torch's and jax's tables answer with their library's own
    default device (``torch.get_default_device()``, jax's default device).

    Returns
    -------
    ComputeDevice

    Examples
    --------
    >>> do("get_default_device", like="numpy").device_type
    'CPU'
    """
    if backend in _DEFAULT:
        return _DEFAULT[backend]
    devices = do("list_devices", like=backend)
    if not devices:
        raise RuntimeError(f"{backend} reports no device")
    return devices[0]


def set_default_device(device: ComputeDevice | str, *, backend: str) -> bool:
    """Make ``device`` the library's default device (``get_default_device``).

    The library's own default (torch's default device, jax's default device) is set by
    the library's table where it has one; the other libraries record the choice.

    Parameters
    ----------
    device : ComputeDevice or str
        A device of this library (``list_devices``), or a device type: ``'CPU'``,
        ``'GPU'`` or ``'TPU'`` (the first device of that type).

    Returns
    -------
    bool
        True; False, with a ``RuntimeWarning``, when the library has no device of the
        type asked for.

    Raises
    ------
    ValueError
        ``device`` is a device of another library.

    Examples
    --------
    >>> do("set_default_device", "CPU", like="numpy")
    True
    """
    if isinstance(device, str):
        found = do("list_devices", device, like=backend)
        if not found:
            message = f"{backend}: no device of type {device!r} is available"
            warnings.warn(message, RuntimeWarning, stacklevel=2)
            return False
        device = found[0]
    if not isinstance(device, ComputeDevice) or device.backend != backend:
        raise ValueError(f"{device!r} is not a device of {backend}")
    _DEFAULT[backend] = device
    return True


def get_device_by_ref(ref: Any, *, backend: str) -> ComputeDevice:
    """The :class:`ComputeDevice` of the library whose ``ref`` (the library's own
    device object) or ``name`` equals ``ref``.

    Raises
    ------
    KeyError
        The library has no such device; the message lists the devices it has.

    Examples
    --------
    >>> do("get_device_by_ref", "cpu", like="numpy").device_type
    'CPU'
    """
    devices = do("list_devices", like=backend)
    for d in devices:
        if d.ref == ref or d.name == ref:
            return d
    raise KeyError(f"{backend} has no device {ref!r}; devices: {[d.ref for d in devices]}")


# ---------------------------------------------------------------- identity


def is_tensor(x: Any, only_native: bool = False, *, backend: str) -> bool:
    """Whether the library takes ``x`` as a tensor.

    Its own arrays (sparse ones included) always; with ``only_native=False`` also
    Python and numpy numbers, numpy arrays, and tuples and lists of those.

    Examples
    --------
    >>> import numpy as np
    >>> do("is_tensor", [1, 2.5], like="numpy")
    True
    >>> do("is_tensor", "text", like="numpy")
    False
    """
    if backend_of_type(type(x)) == backend and (is_array(x) or do("is_sparse", x)):
        return True
    if only_native:
        return False
    if isinstance(x, (numbers.Number, np.ndarray, np.generic)):
        return True
    if isinstance(x, (tuple, list)):
        return all(is_tensor(e, False, backend=backend) for e in x)
    return False


def _tracer_like(cls: type) -> bool:
    for c in cls.__mro__:
        name = c.__name__.lower()
        if "tracer" in name or "symbolic" in name or name.startswith("fake"):
            return True
    return False


@composed("is_available")
def is_available(x: Any) -> bool:
    """Whether the value of ``x`` can be read now (False while tracing for jit).

    Tracers are recognised by their class names (``...Tracer``,
    ``Symbolic...``, ``Fake...``) anywhere in their class hierarchy.

    Examples
    --------
    >>> import numpy as np
    >>> do("is_available", np.ones(2))
    True
    """
    return not _tracer_like(type(x))


@composed("numpy")
def numpy(x: Any) -> Any:
    """``x`` on the host as numpy: a numpy array, or a scipy.sparse matrix for
    sparse ``x``. Raises while tracing (see ``is_available``).

    Examples
    --------
    >>> import numpy as np
    >>> do("numpy", np.ones(2))
    array([1., 1.])
    """
    if not do("is_available", x):
        raise ValueError(f"the value of {type(x).__name__} is not available while tracing")
    if do("is_sparse", x):
        if type(x).__module__.startswith("scipy.sparse"):
            return x
        assemble, parts = do("disassemble", x)
        return assemble("numpy", *[np.asarray(do("to_numpy", p)) for p in parts])
    return do("to_numpy", x)


@composed("to_dlpack")
def to_dlpack(x: Any) -> Any:
    """A DLPack capsule of ``x`` (``x.__dlpack__()``), sharing its memory.

    Examples
    --------
    >>> import numpy as np
    >>> type(do("to_dlpack", np.ones(2))).__name__
    'PyCapsule'
    """
    return x.__dlpack__()


def from_external_array_dlpack(x: Any, *, backend: str) -> Any:
    """An array of the library sharing memory with ``x`` (any object with
    ``__dlpack__``) where DLPack allows it, else a copy through numpy.

    Examples
    --------
    >>> import numpy as np
    >>> do("from_external_array_dlpack", np.arange(3), like="numpy")
    array([0, 1, 2])
    """
    return convert(x, backend)


_KINDS = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def np_dtype(name_or_dtype: Any) -> np.dtype:
    """A numpy dtype from a name or a dtype; ``bfloat16`` through ``ml_dtypes``."""
    try:
        return np.dtype(name_or_dtype)
    except TypeError:
        if str(name_or_dtype) == "bfloat16":
            import ml_dtypes

            return np.dtype(ml_dtypes.bfloat16)
        raise


def _weak_kind(x: Any) -> str | None:
    """numpy kind letter of a Python scalar, None for anything else."""
    if isinstance(x, bool):
        return "b"
    if isinstance(x, numbers.Integral) and not isinstance(x, np.generic):
        return "i"
    if isinstance(x, numbers.Real) and not isinstance(x, np.generic):
        return "f"
    if isinstance(x, numbers.Complex) and not isinstance(x, np.generic):
        return "c"
    return None


@composed("dtype_of")
def dtype_of(x: Any) -> np.dtype:
    """The numpy dtype equivalent to the dtype of ``x`` (the list's ``dtype``).

    Python scalars give numpy's dtype of ``numpy.asarray(x)`` (int -> int64,
    float -> float64; the list's int32 for Python ints is not followed).

    Examples
    --------
    >>> import numpy as np
    >>> do("dtype_of", np.ones(2, "float32"))
    dtype('float32')
    >>> do("dtype_of", 1.5)
    dtype('float64')
    """
    if _weak_kind(x) is not None or isinstance(x, np.generic):
        return np.asarray(x).dtype
    return np_dtype(do("get_dtype_name", x))


@composed("cast")
def cast(x: Any, dtype: Any) -> Any:
    """``x`` as ``dtype`` (a numpy dtype or a name); no copy when it already is.

    Examples
    --------
    >>> import numpy as np
    >>> do("cast", np.arange(3), "float32")
    array([0., 1., 2.], dtype=float32)
    """
    if do("dtype_of", x) == np_dtype(dtype):
        return x
    return do("astype", x, np_dtype(dtype).name)


def _float_bits() -> int:
    return get_precision() or 32


@composed("float_type")
def float_type() -> np.dtype:
    """The float dtype of the current precision (float32 when none is set).

    Examples
    --------
    >>> do("float_type")
    dtype('float32')
    """
    bits = _float_bits()
    return _FLOAT_TYPES.get(bits) or np.dtype(f"float{bits}")


# float_type's answers by bits, read from a dict (parsing the name costs a third of a
# microsecond, on every ML op that defaults its dtype)
_FLOAT_TYPES = {b: np.dtype(f"float{b}") for b in (16, 32, 64)}


@composed("complex_type")
def complex_type() -> np.dtype:
    """The complex dtype of the current precision: complex64 up to 32 bits, else
    complex128.

    Examples
    --------
    >>> do("complex_type")
    dtype('complex64')
    """
    return np.dtype(f"complex{max(64, 2 * _float_bits())}")


def combine(dtypes: list[np.dtype], weak: list[str] = ()) -> np.dtype:  # type: ignore[assignment]
    """Result dtype of strong ``dtypes`` and weak scalar kinds ``weak``."""
    dtypes = [np_dtype(d) for d in dtypes]
    kinds = [_KINDS.get(d.kind, 2) for d in dtypes] + [_KINDS[k] for k in weak]
    if not kinds:
        raise ValueError("combine_types needs at least one dtype")
    kind = max(kinds)
    prec = get_precision()
    if kind == 0:
        return np.dtype(bool)
    if kind == 1:
        ints = [d for d in dtypes if d.kind in "iu"]
        if not ints:
            return np.dtype("int64")
        out = np.result_type(*ints)
        return out if out.kind in "iu" else np.dtype("int64")  # uint64 with a signed int
    inexact = [d for d in dtypes if d.kind in "fc"]
    if kind == 2:
        if prec is not None:
            return np.dtype(f"float{prec}")
        floats = [d for d in inexact if d.kind == "f"]
        return np.result_type(*floats) if floats else float_type()
    if prec is not None:
        return np.dtype(f"complex{max(64, 2 * prec)}")
    if not inexact:
        return complex_type()
    widest = max(d.itemsize * (2 if d.kind == "f" else 1) for d in inexact)
    return np.dtype(f"complex{8 * widest}")


@composed("combine_types")
def combine_types(*dtypes: Any) -> np.dtype:
    """Result dtype of mixing values of these dtypes (numpy dtypes or names).

    The highest kind wins (bool < int < float < complex); integers combine by
    numpy's rules; floats take the current precision when one is set, else the
    widest float (or complex) width present: an int64 mixed with a float32 gives
    float32, as in the ML libraries, where numpy would give float64.

    Examples
    --------
    >>> do("combine_types", "int64", "float32")
    dtype('float32')
    >>> from dispatch import precision
    >>> with precision(64):
    ...     do("combine_types", "float32", "int8")
    dtype('float64')
    """
    return combine(list(dtypes))


@composed("auto_cast")
def auto_cast(*tensors: Any, bool_to_int: bool = False, int_to_float: bool = False) -> list:
    """Cast all ``tensors`` to their common dtype (``combine_types``).

    Python scalars take part as weak values and are returned as Python scalars
    of the result kind. ``bool_to_int``: an all-bool result becomes int32.
    ``int_to_float``: an integer result becomes ``float_type()``.

    Examples
    --------
    >>> import numpy as np
    >>> do("auto_cast", np.arange(2), np.ones(2, "float32"))
    [array([0., 1.], dtype=float32), array([1., 1.], dtype=float32)]
    """
    strong, weak = [], []
    for t in tensors:
        k = _weak_kind(t)
        if k is None:
            strong.append(do("dtype_of", t))
        else:
            weak.append(k)
    target = combine(strong, weak)
    if target.kind == "b" and bool_to_int:
        target = np.dtype("int32")
    if target.kind in "iu" and int_to_float:
        target = float_type()
    py = {"b": bool, "i": int, "u": int, "f": float, "c": complex}[target.kind]
    return [py(t) if _weak_kind(t) is not None else do("cast", t, target) for t in tensors]


@composed("auto_cast1")
def auto_cast1(x: Any) -> Any:
    """A float (or complex) ``x`` at the current precision; others unchanged.

    Without a precision set, ``x`` is returned as it is.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import precision
    >>> with precision(32):
    ...     do("auto_cast1", np.ones(1)).dtype
    dtype('float32')
    """
    prec = get_precision()
    kind = do("dtype_of", x).kind
    if prec is None or kind not in "fc":
        return x
    return do("cast", x, float_type() if kind == "f" else complex_type())


@composed("to_float")
def to_float(x: Any) -> Any:
    """``x`` as ``float_type()`` (the current precision, float32 by default).

    Examples
    --------
    >>> import numpy as np
    >>> do("to_float", np.arange(2))
    array([0., 1.], dtype=float32)
    """
    return do("cast", x, float_type())


@composed("to_int32")
def to_int32(x: Any) -> Any:
    """``x`` as int32 (floats truncate toward zero).

    Examples
    --------
    >>> import numpy as np
    >>> do("to_int32", np.array([1.7, -1.7]))
    array([ 1, -1], dtype=int32)
    """
    return do("cast", x, "int32")


@composed("to_int64")
def to_int64(x: Any) -> Any:
    """``x`` as int64.

    Examples
    --------
    >>> import numpy as np
    >>> do("to_int64", np.array([True, False]))
    array([1, 0])
    """
    return do("cast", x, "int64")


@composed("to_complex")
def to_complex(x: Any) -> Any:
    """``x`` as ``complex_type()`` (complex64 by default).

    Examples
    --------
    >>> import numpy as np
    >>> do("to_complex", np.array([1.0]))
    array([1.+0.j], dtype=complex64)
    """
    return do("cast", x, complex_type())


@composed("sizeof")
def sizeof(x: Any) -> int:
    """Size of the data of ``x`` in bytes (elements times item size).

    Examples
    --------
    >>> import numpy as np
    >>> do("sizeof", np.ones((2, 3), "float32"))
    24
    """
    return int(do("size", x)) * do("dtype_of", x).itemsize


@composed("shape")
def shape(x: Any) -> tuple[int, ...]:
    """The shape of ``x`` as a tuple of Python ints (a library's own shape type, such
    as ``torch.Size``, becomes a plain tuple).

    Examples
    --------
    >>> import numpy as np
    >>> do("shape", np.ones((2, 3)))
    (2, 3)
    """
    return tuple(map(int, _shape_of(x)))


def _shape_of(x: Any) -> Any:
    # a nested list, a tuple or a Python scalar has the shape numpy gives it
    try:
        return x.shape
    except AttributeError:
        return do("asarray", x).shape


@composed("ndim")
def ndim(x: Any) -> int:
    """The number of dimensions of ``x`` (the length of its shape).

    Examples
    --------
    >>> import numpy as np
    >>> do("ndim", np.ones((2, 3)))
    2
    """
    return len(_shape_of(x))


@composed("size")
def size(x: Any) -> int:
    """The number of elements of ``x`` (the product of its shape), a Python int.

    Examples
    --------
    >>> import numpy as np
    >>> do("size", np.ones((2, 3)))
    6
    """
    return math.prod([int(s) for s in _shape_of(x)])  # a list: dynamo cannot prod a map


@composed("to_numpy")
def to_numpy(x: Any) -> np.ndarray:
    """``x`` as a numpy array in host memory: ``numpy.asarray(x)``.

    The tables of libraries with devices or automatic differentiation give their own
    (torch's copies a tensor to the host and leaves its autograd graph behind).

    Examples
    --------
    >>> import numpy as np
    >>> do("to_numpy", np.arange(3))
    array([0, 1, 2])
    """
    return np.asarray(x)


# autoray's helpers on a library that has no table (a backend known by the module rule
# only: ``mylib.Array`` -> ``'mylib'``); every shipped table has its own entries


@composed("to_backend_dtype", library_first=True)
def to_backend_dtype(dtype_name: Any, *, backend: str) -> Any:
    """The library's dtype object named ``dtype_name``: the attribute of that name of
    its module (``mylib.float32``). A name is first read as numpy reads it (``"f4"``
    is ``float32``), so only dtype names are ever looked up; a dtype object that is
    not a name is returned as it is.

    Examples
    --------
    >>> do("to_backend_dtype", "float32", like="numpy")
    dtype('float32')
    """
    if not isinstance(dtype_name, str):
        return dtype_name
    name = np_dtype(dtype_name).name
    module = backend_module(backend)
    found = getattr(module, name, None)
    if found is None:
        raise TypeError(
            f"do('to_backend_dtype', {dtype_name!r}, like={backend!r}): the module "
            f"{module.__name__!r} has no dtype {name!r}"
        )
    return found


@composed("astype", library_first=True)
def astype(x: Any, dtype: Any, *, backend: str, **kwargs: Any) -> Any:
    """``x`` cast to ``dtype`` (a name or the library's dtype) by its ``astype`` method,
    else by the library's ``asarray``.

    Examples
    --------
    >>> import numpy as np
    >>> do("astype", np.arange(2), "float32")
    array([0., 1.], dtype=float32)
    """
    dt = do("to_backend_dtype", dtype, like=backend)
    method = getattr(x, "astype", None)
    if method is not None:
        return method(dt, **kwargs)
    return get_lib_fn(backend, "asarray")(x, dtype=dt)


@composed("from_numpy", library_first=True)
def from_numpy(x: Any, *, backend: str) -> Any:
    """A numpy array as an array of the library: its ``asarray`` (else ``array``).

    Examples
    --------
    >>> import numpy as np
    >>> do("from_numpy", np.ones(2), like="numpy")
    array([1., 1.])
    """
    # the library's own function, called as it is: ``do(..., like=backend)`` would
    # convert the numpy argument with this very function
    try:
        make = get_lib_fn(backend, "asarray")
    except UnknownFunctionError:
        make = get_lib_fn(backend, "array")
    return make(x)


@composed("to_device", library_first=True)
def to_device(x: Any, device: Any, *, backend: str) -> Any:
    """``x`` on ``device``: the array's ``to_device`` (the array API's) or ``to`` method;
    a library with neither knows only its host memory, so ``"cpu"`` leaves ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> do("to_device", np.ones(1), "cpu")
    array([1.])
    """
    for method in ("to_device", "to"):
        move = getattr(x, method, None)
        if callable(move):
            return move(device)
    if str(device).lower() == "cpu":
        return x
    raise UnsupportedError(
        f"do('to_device') on backend {backend!r}: its arrays have no to_device or to "
        f"method, so they stay in host memory ('cpu'), not on {device!r}"
    )


@composed("get_dtype_name")
def get_dtype_name(x: Any) -> str:
    """The numpy name of the dtype of ``x``: ``"float32"``, ``"int64"``,
    ``"complex128"``... (torch's ``torch.float32`` is ``"float32"`` too).

    Examples
    --------
    >>> import numpy as np
    >>> do("get_dtype_name", np.ones(2, "float32"))
    'float32'
    """
    dt = x.dtype
    name = getattr(dt, "name", None)
    if not isinstance(name, str):
        name = str(dt).rsplit(".", 1)[-1]
    return name
