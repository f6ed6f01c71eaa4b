"""torch: conversions to and from tensors, dtypes, and the method list's devices.

``asarray`` takes what ``numpy.asarray`` takes (numpy dtype names, read-only or
negatively strided arrays, lists of tensors, scipy.sparse matrices) and reads
Python floats as float64 data, as numpy does; ``to_numpy`` detaches, moves to the
host and resolves torch's lazy conjugation. The device entries describe torch's
CPU, CUDA and MPS devices as :class:`ComputeDevice` records and follow torch's
own default device. The list methods written once with a ``backend`` keyword
(``translations/_composed/_bound.py``: ``as_tensor``, ``range``, ``seed``,
``random_normal``, ``is_tensor``...) are bound to torch here.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import torch
from dispatch.translations._adapters import native_byte_order
from dispatch.translations._composed._bound import backend_entries
from dispatch.translations._composed._casts import saturate_cast, saturation_bounds, view
from dispatch.translations._composed.devices import (
    ComputeDevice,
    device_ref,
    list_devices_filtered,
    np_dtype,
)
from dispatch.translations._composed.devices import (
    get_default_device as _get_default_device_composed,
)
from dispatch.translations._composed.devices import (
    set_default_device as _set_default_device_composed,
)
from dispatch.translations._keywords import array_shape, copy_needed, in_order
from dispatch.translations.torch._common import _dtype, _functorch_wrapped
from torch import Tensor

from dispatch.engine import merge_tables


def _to_backend_dtype(dtype_name: Any) -> torch.dtype:
    out = _dtype(dtype_name)
    if out is None:
        raise TypeError("a dtype name is needed, got None")
    return out


def _asarray(
    a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
    copy: bool | None = None,
) -> Any:
    # torch.as_tensor rejects numpy dtype names, read-only or negatively strided numpy
    # arrays and lists of (non-scalar) tensors, all of which numpy.asarray takes, and
    # reads Python floats as float32; torch.as_tensor has no order (laid out after)
    if order is not None:
        return in_order(_asarray(a, dtype, device=device, copy=copy), order, copy, "asarray",
                        "torch")
    if type(a) is np.ndarray and _is_compiling():
        # Dynamo cannot read ndarray.flags (nor the byte order): a trace converts with
        # torch.as_tensor, as the engine's from_numpy does there
        out = torch.as_tensor(a, dtype=_dtype(dtype), device=device)
        return out.clone() if copy else out
    if type(a) is np.ndarray and dtype is None and device is None and copy is None and (
            a.flags.writeable):
        # the common conversion (like= hands asarray a numpy array as it is): shared
        # memory, as torch.as_tensor gives, for a third of its cost
        try:
            return torch.from_numpy(a)
        except (TypeError, ValueError, RuntimeError):  # strides, byte order, dtype
            pass
    dtype = _dtype(dtype)
    if isinstance(a, Tensor):
        out = a if dtype is None and device is None else a.to(device=device, dtype=dtype)
        if copy is False and out is not a:
            raise copy_needed("asarray", "torch", "a dtype or device change")
        return out.clone() if copy and out is a else out
    if copy is False:
        return _shared(a, dtype, device)
    if type(a).__module__.startswith("scipy.sparse"):
        # a scipy.sparse constant meeting torch tensors becomes a torch COO tensor
        coo = a.tocoo()
        indices = torch.from_numpy(np.vstack([coo.row, coo.col]).astype(np.int64))
        values = torch.as_tensor(coo.data, dtype=dtype, device=device)
        return torch.sparse_coo_tensor(
            indices.to(device), values, coo.shape, check_invariants=True
        ).coalesce()
    if isinstance(a, np.ndarray):
        a = native_byte_order(a)
        if not a.flags.writeable or any(s < 0 for s in a.strides):
            return torch.tensor(np.array(a), dtype=dtype, device=device)
        out = torch.as_tensor(a, dtype=dtype, device=device)
        return out.clone() if copy and out.data_ptr() == a.ctypes.data and a.size else out
    if isinstance(a, np.dtype):
        # dispatch reads a numpy dtype argument (``astype(x, np.dtype("int64"))``) as a
        # numpy constant and converts it with this function: leave it a dtype
        return a
    if isinstance(a, (list, tuple)) and _holds_tensor(a):
        parts = [_asarray(e, device=device) for e in a]
        out = torch.stack(parts) if parts else torch.empty(0, device=device)
        return out if dtype is None else out.to(dtype)
    # through numpy: Python floats are float64 data, as numpy.asarray reads them (a
    # float32 default here rounded the Python floats that composed code converts, such
    # as insert's values, before a float64 computation)
    return torch.as_tensor(np.asarray(a), dtype=dtype, device=device)


_is_compiling = torch.compiler.is_compiling  # bound once: a conversion is on the hot path


def _from_numpy(a: Any) -> Any:
    # torch.from_numpy shares memory and costs a third of torch.as_tensor; it refuses
    # negative strides, foreign byte orders and dtypes torch lacks (then copy), and
    # only warns on read-only arrays (so those are copied up front). Dynamo cannot read
    # ndarray.flags: a trace of torch.compile converts with torch.as_tensor
    if type(a) is np.ndarray:
        if _is_compiling():
            return torch.as_tensor(a)
        if a.flags.writeable:
            try:
                return torch.from_numpy(a)
            except (TypeError, ValueError, RuntimeError):
                pass
    return _asarray(a)


def _shared(a: Any, dtype: Any, device: Any) -> Tensor:
    """``asarray(a, copy=False)`` of data that is not a tensor: a tensor on ``a``'s
    own memory (a writable numpy array of a dtype torch has, on the CPU), or numpy's
    ValueError."""
    if not isinstance(a, np.ndarray):
        raise copy_needed("asarray", "torch", f"a {type(a).__name__} is copied into a new tensor")
    if dtype is not None and dtype != _dtype(a.dtype):
        raise copy_needed("asarray", "torch", "a dtype change")
    if torch.device(device_ref(device) or "cpu").type != "cpu":
        raise copy_needed("asarray", "torch", "a numpy array lives in host memory")
    if not a.flags.writeable:
        raise copy_needed("asarray", "torch", "a read-only array is copied into a writable tensor")
    try:
        return torch.from_numpy(a)
    except (TypeError, ValueError, RuntimeError) as err:  # strides or a dtype torch lacks
        raise copy_needed("asarray", "torch", f"torch cannot view it: {err}") from None


def _holds_tensor(seq: Any) -> bool:
    return any(isinstance(e, Tensor) or (isinstance(e, (list, tuple)) and _holds_tensor(e))
               for e in seq)


def _array(a: Any, dtype: Any = None, *, copy: bool = True, order: str = "K",
           subok: bool = False, ndmin: int = 0, ndmax: int = 0, device: Any = None) -> Tensor:
    # numpy's array keywords (torch has no array subclasses: subok changes nothing);
    # device is torch's, as its own asarray takes it
    return array_shape(_asarray(a, dtype, device=device, copy=copy), a, order, ndmin, ndmax,
                       copy=copy, backend="torch")


def _to_numpy(x: Any) -> np.ndarray:
    # numpy cannot hold autograd graphs, device memory, lazy conj/neg bits or bfloat16
    if not isinstance(x, Tensor):
        return np.asarray(x)
    x = x.detach()
    if x.device.type != "cpu":
        x = x.cpu()
    if x.dtype is torch.bfloat16:
        x = x.float()
    return x.resolve_conj().resolve_neg().numpy()


def _from_dlpack(x: Any, *, device: Any = None, copy: Any = None) -> Tensor:
    # torch.from_dlpack takes torch's devices: a ComputeDevice gives its own
    return torch.from_dlpack(x, device=device_ref(device), copy=copy)


def _to_device(x: Tensor, device: Any = None) -> Tensor:
    return x if device is None else x.to(device_ref(device))


def _astype(x: Tensor, dtype: Any, copy: bool = True, *, device: Any = None) -> Tensor:
    # Tensor.to takes only torch dtypes, and returns ``x`` itself unless told to copy
    out = x.to(_dtype(dtype), copy=copy)
    return out if device is None else _to_device(out, device)


def _is_available(x: Any) -> bool:
    # False for values a trace or a transform only sees symbolically: under
    # torch.jit.trace or torch.compile, functorch wrappers (vmap, grad), functional,
    # fake and meta tensors
    if torch.jit.is_tracing() or torch.compiler.is_compiling():
        return False
    if not isinstance(x, Tensor):
        return True
    if _functorch_wrapped(x) or torch._is_functional_tensor(x) or x.is_meta:
        return False
    return type(x) is Tensor or not type(x).__name__.startswith("Fake")


def _cpu_device() -> Any:
    import os

    return ComputeDevice("torch", "cpu", "CPU", -1, os.cpu_count() or -1,
                         f"CPU ({torch.get_num_threads()} torch threads)", torch.device("cpu"))


def _list_devices(device_type: str | None = None) -> list:
    return list_devices_filtered(_all_devices(), device_type)


@functools.cache
def _all_devices() -> list:
    devices = [_cpu_device()]
    if torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            p = torch.cuda.get_device_properties(i)
            devices.append(ComputeDevice(
                "torch", f"cuda:{i}", "GPU", p.total_memory, p.multi_processor_count,
                f"{p.name} (compute capability {p.major}.{p.minor})", torch.device("cuda", i)
            ))
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        devices.append(ComputeDevice("torch", "mps", "GPU", -1, -1, "Apple MPS",
                                     torch.device("mps")))
    return devices


def _device_record(device: torch.device) -> Any:
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    for d in _all_devices():
        if d.ref == device:
            return d
    return ComputeDevice("torch", str(device), "CPU" if device.type == "cpu" else "GPU",
                         ref=device)


def _get_device(x: Tensor) -> Any:
    return _device_record(x.device)


def _get_default_device() -> Any:
    # torch's own default (torch.set_default_device) is the truth
    return _device_record(torch.get_default_device())


def _set_default_device(device: Any) -> bool:
    # recorded like every library's, and made torch's default allocation device; on the
    # CPU no default device mode is installed (that mode costs time on every torch call)
    if not isinstance(device, ComputeDevice) and device not in ("CPU", "GPU", "TPU"):
        device = _device_record(torch.device(device))  # a torch device or its name
    if not _set_default_device_composed(device, backend="torch"):
        return False
    device = _get_default_device_composed(backend="torch")
    torch.set_default_device(None if device.ref.type == "cpu" else device.ref)
    return True


def _allocate_on_device(x: Tensor, device: Any) -> Tensor:
    return x.to(device.ref if isinstance(device, ComputeDevice) else device)


def _cuda_index(device: Any) -> int | None:
    """The CUDA device index a ComputeDevice / device / None refers to (None: no CUDA)."""
    if not torch.cuda.is_available():
        return None
    if device is None:
        return torch.cuda.current_device()
    ref = torch.device(device.ref if isinstance(device, ComputeDevice) else device)
    if ref.type != "cuda":
        return None
    return torch.cuda.current_device() if ref.index is None else ref.index


def _get_peak_memory(device: Any = None) -> int:
    """The most bytes the library has held allocated on ``device`` at once, since the
    process started or the last ``reset_peak_memory``; 0 for a device it keeps no count
    of. numpy, dask and pydata sparse keep none (``UnsupportedError``).

    ``device`` is a :class:`ComputeDevice`, the library's device or its name; None is
    the current (default) device. torch counts on CUDA devices, jax on devices that report memory
    statistics (GPUs, TPUs), tensorflow on GPUs.

    Examples
    --------
    >>> from dispatch import do
    >>> do("get_peak_memory", "cpu", like="torch")
    0
    """
    # torch counts peak allocations on CUDA devices only; 0 elsewhere
    index = _cuda_index(device)
    return 0 if index is None else int(torch.cuda.max_memory_allocated(index))


def _reset_peak_memory(device: Any = None) -> None:
    """Start ``get_peak_memory``'s count of ``device`` (None: the current device) again
    from the bytes allocated now; nothing for a device the library keeps no count of.
    jax, which has no such call, and numpy, dask and pydata sparse raise
    ``UnsupportedError``.

    Examples
    --------
    >>> from dispatch import do
    >>> do("reset_peak_memory", like="torch")
    >>> do("get_peak_memory", "cpu", like="torch")
    0
    """
    index = _cuda_index(device)
    if index is not None:
        torch.cuda.reset_peak_memory_stats(index)




# keras's casts (docs/vocabulary.md, "ML ops"): clamp, then to(); torch's view(dtype)
# reinterprets the bits with numpy's shape rule
@functools.cache
def _saturation(src: torch.dtype, dtype: Any) -> tuple[Any, Any, Any]:
    dst = np_dtype(dtype)
    return (_dtype(dst.name), *saturation_bounds(np_dtype(str(src).removeprefix("torch.")),
                                                 dst))


def _saturate_cast(x: Any, dtype: Any) -> Any:
    if isinstance(x, Tensor) and not x.is_complex():
        dst, lo, hi = _saturation(x.dtype, dtype)
        if lo is not None or hi is not None:
            x = torch.clamp(x, lo, hi)
        return x.to(dst)
    return saturate_cast(x, dtype)


@functools.cache
def _torch_dtype(dtype: Any) -> Any:
    return _dtype(np_dtype(dtype).name)


def _view(x: Any, dtype: Any) -> Any:
    try:
        dt = _torch_dtype(dtype)  # a dtype name or a numpy dtype: hashable
    except TypeError:
        dt = _dtype(np_dtype(dtype).name)
    if isinstance(x, Tensor) and dt is not None:
        return x.view(dt)
    return view(x, dtype)

# the list methods written once in translations/_composed/_bound.py, bound to torch, less
# the names torch answers itself (get_default_device and set_default_device above,
# random_permutations in .random)
_OWN = ("get_default_device", "set_default_device", "random_permutations")

TABLE = merge_tables(
    {
        # conversion, dtypes, devices
        "asarray": _asarray,
        "array": _array,
        "from_numpy": _from_numpy,
        "to_numpy": _to_numpy,
        "to_device": _to_device,
        "from_dlpack": _from_dlpack,
        "astype": _astype,
        "cast": _astype,
        "to_backend_dtype": _to_backend_dtype,
        "is_available": _is_available,
        # the backend method list: devices and interop
        "list_devices": _list_devices,
        "get_device": _get_device,
        "get_default_device": _get_default_device,
        "set_default_device": _set_default_device,
        "allocate_on_device": _allocate_on_device,
        "get_peak_memory": _get_peak_memory,
        "reset_peak_memory": _reset_peak_memory,
        "to_dlpack": "utils.dlpack.to_dlpack",
        "saturate_cast": _saturate_cast,
        "view": _view,
    },
    {name: fn for name, fn in backend_entries("torch").items() if name not in _OWN},
    names=("devices", "bound list methods"),
)
