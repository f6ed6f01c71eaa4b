"""paddle: conversions to and from tensors, dtypes, and the method list's devices.

``asarray`` takes what ``numpy.asarray`` takes and reads Python floats as float64
data, as numpy does (``paddle.to_tensor(1.5)`` is float32); ``to_numpy`` detaches
and moves to the host. Devices are paddle's places (``"cpu"``, ``"gpu:0"``), as
:class:`ComputeDevice` records.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np
import paddle
from dispatch.translations._adapters import native_byte_order
from dispatch.translations._composed._bound import backend_entries
from dispatch.translations._composed.devices import (
    ComputeDevice,
    device_ref,
    list_devices_filtered,
)
from dispatch.translations._keywords import array_shape, copy_needed, in_order
from dispatch.translations.paddle._common import NO_WIDE_UNSIGNED, _dtype, np_name
from paddle import Tensor

from dispatch.engine import merge_tables


def _get_dtype_name(x: Any) -> str:
    return np_name(x.dtype)


def _promote_types(type1: Any, type2: Any) -> Any:
    # numpy's promotion table, answered as paddle dtypes
    names = (np_name(t) if isinstance(t, paddle.dtype) else t for t in (type1, type2))
    return _dtype(np.promote_types(*names))


def _to_backend_dtype(dtype_name: Any) -> Any:
    out = _dtype(dtype_name)
    if out is None:
        raise TypeError("a dtype name is needed, got None")
    return out


def _place(device: Any) -> Any:
    """paddle's place of numpy's ``device=``: None, a paddle place, a
    :class:`ComputeDevice` or a name (``'cpu'``, ``'gpu'``, ``'gpu:1'``; ``'cuda'`` for
    ``'gpu'``). An unknown name, or a GPU on a CPU build, is a ValueError naming
    ``device`` (not paddle's own error from deep inside the call)."""
    ref = device_ref(device)
    if ref is None or not isinstance(ref, str):
        return ref
    kind, _, index = ref.lower().partition(":")
    if kind == "cpu" and index in ("", "0"):
        return paddle.CPUPlace()
    if kind in ("gpu", "cuda") and (index == "" or index.isdigit()):
        if not paddle.device.is_compiled_with_cuda():
            raise ValueError(f"device={device!r} cannot be honoured: this paddle build "
                             "has no GPU support ('cpu' only)")
        return paddle.CUDAPlace(int(index or 0))
    raise ValueError(f"device={device!r} is not a paddle device: 'cpu', 'gpu' or "
                     "'gpu:N' (or a ComputeDevice of list_devices)")


def _holds_tensor(seq: Any) -> bool:
    return any(isinstance(e, Tensor) or (isinstance(e, (list, tuple)) and _holds_tensor(e))
               for e in seq)


def _asarray(a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
             copy: bool | None = None) -> Any:
    # paddle.to_tensor reads Python floats as float32 and always copies numpy data;
    # numpy's reading (float64 floats, int64 ints) goes through numpy.asarray
    if order is not None and order not in ("K", "A"):
        # numpy's layout (paddle's tensors take strides), or its ValueError for an order
        # it does not know
        return in_order(_asarray(a, dtype, device=device, copy=copy), order, copy, "asarray",
                        "paddle")
    dtype = _dtype(dtype)
    place = _place(device)
    if isinstance(a, Tensor):
        out = a if dtype is None or a.dtype == dtype else a.astype(dtype)
        if place is not None:
            out = out._copy_to(place, False) if str(out.place) != str(place) else out
        if out is not a and copy is False:
            raise copy_needed("asarray", "paddle", "a dtype or device change")
        return out.clone() if copy and out is a else out
    if isinstance(a, np.dtype):
        return a  # a dtype argument read as a numpy constant: leave it a dtype
    if copy is False:
        raise copy_needed("asarray", "paddle",
                          "paddle copies data that is not a tensor into a new one")
    if isinstance(a, (list, tuple)) and _holds_tensor(a):
        parts = [_asarray(e, device=device) for e in a]
        out = paddle.stack(parts) if parts else paddle.zeros([0])
        return out if dtype is None else out.astype(dtype)
    if type(a).__module__.startswith("scipy.sparse"):
        a = a.toarray()
    arr = native_byte_order(np.asarray(a))
    if arr.dtype.kind == "u" and arr.dtype.itemsize > 1:
        from dispatch.engine import UnsupportedError

        raise UnsupportedError(f"'asarray' is not supported on backend 'paddle' for "
                               f"{arr.dtype.name}: {NO_WIDE_UNSIGNED}")
    return paddle.to_tensor(arr, dtype=dtype, place=place)


def _array(a: Any, dtype: Any = None, *, copy: bool = True, order: str = "K",
           subok: bool = False, ndmin: int = 0, ndmax: int = 0, device: Any = None) -> Tensor:
    # numpy's array keywords (paddle has no array subclasses: subok changes nothing);
    # device is paddle's place, as its asarray takes it
    return array_shape(_asarray(a, dtype, device=device, copy=copy), a, order, ndmin, ndmax,
                       copy=copy, backend="paddle")


def _to_numpy(x: Any) -> np.ndarray:
    if not isinstance(x, Tensor):
        return np.asarray(x)
    if x.is_sparse_coo() or x.is_sparse_csr():
        x = x.to_dense()
    if x.dtype == paddle.bfloat16:
        x = x.astype(paddle.float32)
    return x.detach().cpu().numpy()


def _astype(x: Tensor, dtype: Any, copy: bool = True, *, device: Any = None) -> Tensor:
    if device is not None:  # numpy 2's device=: the cast, then the move
        return _to_device(_astype(x, dtype, copy), device)
    dt = _dtype(dtype)
    if x.dtype == dt:
        return x.clone() if copy else x
    if x.is_complex() and dt not in (paddle.complex64, paddle.complex128):
        x = x.real()  # numpy drops the imaginary part (with a warning)
    return x.astype(dt)


def _to_device(x: Tensor, device: Any = None) -> Tensor:
    place = _place(device)
    # a tensor already there is returned as it is, as numpy's and torch's to_device do
    if place is None or str(x.place) == str(place):
        return x
    return x._copy_to(place, False)


def _is_available(x: Any) -> bool:
    # False for the variables of a static graph (paddle.jit.to_static)
    if not isinstance(x, Tensor):
        return True
    return paddle.in_dynamic_mode()


@functools.cache
def _all_devices() -> list:
    devices = [ComputeDevice("paddle", "cpu", "CPU", -1, os.cpu_count() or -1, "CPU",
                             "cpu")]
    if paddle.device.is_compiled_with_cuda():
        for i in range(paddle.device.cuda.device_count()):
            devices.append(ComputeDevice("paddle", f"gpu:{i}", "GPU", -1, -1, f"GPU {i}",
                                         f"gpu:{i}"))
    return devices


def _list_devices(device_type: str | None = None) -> list:
    return list_devices_filtered(_all_devices(), device_type)


def _device_record(place: Any) -> Any:
    name = "cpu" if "cpu" in str(place).lower() else f"gpu:{place.gpu_device_id()}"
    for d in _all_devices():
        if d.ref == name:
            return d
    return ComputeDevice("paddle", name, "CPU" if name == "cpu" else "GPU", ref=name)


def _get_device(x: Tensor) -> Any:
    return _device_record(x.place)


def _allocate_on_device(x: Tensor, device: Any) -> Tensor:
    return _to_device(x, device)


def _get_peak_memory(device: Any = None) -> int:
    # paddle counts allocations on GPUs only; 0 on the CPU
    place = _place(device)
    if place is None and not paddle.device.is_compiled_with_cuda():
        return 0
    if place is not None and "gpu" not in str(place).lower():
        return 0
    return int(paddle.device.cuda.max_memory_allocated(place))


def _reset_peak_memory(device: Any = None) -> None:
    place = _place(device)
    if paddle.device.is_compiled_with_cuda() and (place is None or "gpu" in str(place).lower()):
        paddle.device.cuda.reset_max_memory_allocated(place)


def _from_dlpack(x: Any, *, device: Any = None, copy: Any = None) -> Tensor:
    # paddle.from_dlpack shares x's memory: numpy's copy=True copies, copy=False allows
    # no move to another device
    out = paddle.from_dlpack(x)
    moved = out if device is None else _to_device(out, device)
    if moved is not out and copy is False:
        raise ValueError(f"do('from_dlpack') on backend 'paddle': copy=False, but "
                         f"device={device!r} needs a copy of the data")
    return moved.clone() if copy and moved is out else moved


def _to_dlpack(x: Tensor) -> Any:
    return paddle.to_dlpack(x)


TABLE = merge_tables(
    {
        "asarray": _asarray,
        "array": _array,
        "from_numpy": _asarray,
        "to_numpy": _to_numpy,
        "to_device": _to_device,
        "from_dlpack": _from_dlpack,
        "to_dlpack": _to_dlpack,
        "astype": _astype,
        "cast": _astype,
        "to_backend_dtype": _to_backend_dtype,
        "get_dtype_name": _get_dtype_name,
        "promote_types": _promote_types,
        "is_available": _is_available,
        "list_devices": _list_devices,
        "get_device": _get_device,
        "allocate_on_device": _allocate_on_device,
        "get_peak_memory": _get_peak_memory,
        "reset_peak_memory": _reset_peak_memory,
    },
    {n: f for n, f in backend_entries("paddle").items() if n != "random_permutations"},
    names=("devices", "bound list methods"),
)
