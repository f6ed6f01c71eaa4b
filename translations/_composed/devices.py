"""Devices, tensor identity and interop methods of the backend method list.

:class:`ComputeDevice` is the one device record of every library. Each table
lists its devices (``list_devices``), says where an array lives
(``get_device``) and moves arrays (``allocate_on_device``); the default device
bookkeeping below (``get_default_device``, ``set_default_device``,
``get_device_by_ref``) is written once on top of ``list_devices`` and bound to
each library in its table (:mod:`.bound`), as are ``is_tensor`` and
``from_external_array_dlpack``, which need to know the library they answer for.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dispatch.engine import backend_of_type, composed, convert, do, is_array

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


# the default device of each library; written only through set_default_device
_DEFAULT: dict[str, ComputeDevice] = {}


def list_devices_filtered(devices: list[ComputeDevice], device_type: str | None) -> list:
    """``devices`` of ``device_type`` (all for None); for tables' ``list_devices``."""
    if device_type is None:
        return list(devices)
    if device_type not in _DEVICE_TYPES:
        raise ValueError(f"device_type must be one of {_DEVICE_TYPES} or None, got {device_type!r}")
    return [d for d in devices if d.device_type == device_type]


def get_default_device(*, backend: str) -> ComputeDevice:
    """The device where ``backend`` allocates new arrays (set with
    ``set_default_device``, else the library's first device)."""
    if backend in _DEFAULT:
        return _DEFAULT[backend]
    devices = do("list_devices", like=backend)
    if not devices:
        raise RuntimeError(f"{backend} reports no device")
    return devices[0]


def set_default_device(device: ComputeDevice | str, *, backend: str) -> bool:
    """Make ``device`` (a ComputeDevice of this library, or a device type such as
    ``'GPU'``) the default; warns and returns False if no such device exists.

    The library's own default (torch's default device, jax's default device)
    is set by the library's table where it has one; this records the choice.
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
    """The ComputeDevice of ``backend`` whose ``ref`` equals ``ref``."""
    devices = do("list_devices", like=backend)
    for d in devices:
        if d.ref == ref or d.name == ref:
            return d
    raise KeyError(f"{backend} has no device {ref!r}; devices: {[d.ref for d in devices]}")


# ---------------------------------------------------------------- identity


def is_tensor(x: Any, only_native: bool = False, *, backend: str) -> bool:
    """Whether ``backend`` takes ``x`` as a tensor: its own arrays always; with
    ``only_native=False`` also numbers, numpy arrays and lists of those."""
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
    """An array of ``backend`` sharing memory with ``x`` (any object with
    ``__dlpack__``) where DLPack allows, else a copy through numpy."""
    return convert(x, backend)
