"""tensorflow's devices, conversions and dtypes: ``astype``, ``to_numpy``, dlpack,
device placement and memory statistics, and the backend method list's functions
written once in ``translations/_composed/_bound.py`` and bound to tensorflow.

tf has no ``.to(device)``: a tensor is copied under a ``tf.device`` scope.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import numpy as np
import tensorflow as tf
from dispatch.translations._adapters import view_by_bitcast
from dispatch.translations._composed._bound import backend_entries
from dispatch.translations._composed._casts import view
from dispatch.translations._composed.devices import (
    ComputeDevice,
    device_ref,
    list_devices_filtered,
    np_dtype,
)
from dispatch.translations._composed.devices import (
    get_default_device as _get_default_device_composed,
)
from dispatch.translations.tensorflow._common import _SPARSE, _dt, _t

from dispatch.engine import merge_tables


def _astype(x: Any, dtype: Any, copy: bool = True, *, device: Any = None) -> Any:
    x = _t(x)
    dt = _dt(dtype)
    out = (tf.identity(x) if copy else x) if x.dtype == dt else tf.cast(x, dt)
    return out if device is None else placed("astype", out, device)


def _to_numpy(x: Any) -> np.ndarray:
    # .numpy() of a 0-d tensor is a numpy scalar, not an array
    try:
        return np.asarray(x.numpy())
    except AttributeError:
        return np.asarray(x)


def _from_numpy(x: Any) -> Any:
    return tf.convert_to_tensor(x)


def _from_dlpack(x: Any, *, device: Any = None, copy: Any = None) -> Any:
    # numpy's signature: tensorflow imports the capsule where it lies, then moves it to
    # ``device``; copy=True copies (tf.identity), copy=False is what it does anyway
    capsule = x.__dlpack__() if hasattr(x, "__dlpack__") else x
    out = tf.experimental.dlpack.from_dlpack(capsule)
    if device is not None:
        return _to_device(out, device)
    return tf.identity(out) if copy else out


def _device_name(device: Any) -> str:
    name = str(getattr(device, "name", device))
    low = name.lower()
    if low.startswith("/") or low.startswith("/job"):
        return name
    kind, _, index = low.partition(":")
    kind = {"cuda": "GPU", "gpu": "GPU", "cpu": "CPU", "tpu": "TPU"}.get(kind, kind.upper())
    return f"/{kind}:{index or 0}"


def placed(name: str, x: Any, device: Any) -> Any:
    """``x`` on numpy's ``device=`` of a creation or conversion. tf places an op meant
    for a device this process lacks on another one without a word (soft placement):
    such a device is refused here instead of ignored."""
    ref = device.name if isinstance(device, ComputeDevice) else _device_name(device_ref(device))
    tail = ref.rsplit("device:", 1)[-1].lstrip("/").upper()
    if not any(d.name.upper().endswith(tail) for d in _devices()):
        known = ", ".join(d.name for d in _devices())
        raise ValueError(f"do({name!r}) on backend 'tensorflow': device={device!r} is not a "
                         f"device of this process ({known})")
    return _to_device(x, ref)


def _to_device(x: Any, device: Any = None) -> Any:
    device = device_ref(device)
    if device is None:
        return x
    name = _device_name(device)
    # an eager tensor already there is returned as it is, as numpy's and torch's
    # to_device do (a tensor of a tf.function's graph has no device yet)
    where = getattr(x, "device", "") if tf.executing_eagerly() else ""
    if where and _same_device(tf.DeviceSpec.from_string(where), tf.DeviceSpec.from_string(name)):
        return x
    with tf.device(name):
        return tf.identity(x)


def _same_device(a: Any, b: Any) -> bool:
    return (a.device_type or "").upper() == (b.device_type or "").upper() and (
        a.device_index or 0) == (b.device_index or 0)


def _to_backend_dtype(name: Any) -> tf.DType:
    return _dt(name)


def _get_dtype_name(x: Any) -> str:
    return x.dtype.name


@functools.cache
def _devices() -> list:
    import os

    out = []
    for d in tf.config.list_logical_devices():
        cores = (os.cpu_count() or -1) if d.device_type == "CPU" else -1
        out.append(ComputeDevice("tensorflow", d.name, d.device_type, -1, cores,
                                 f"tensorflow {d.device_type} {d.name}", d.name))
    return out


def _list_devices(device_type: str | None = None) -> list:
    return list_devices_filtered(_devices(), device_type)


def _device_record(name: str) -> Any:
    """The ComputeDevice of a tf device string ('/job:.../device:GPU:0', 'GPU:0'...)."""
    tail = name.rsplit("device:", 1)[-1].upper()
    for d in _devices():
        if d.name.upper().endswith(tail):
            return d
    kind = tail.split(":", 1)[0]
    return ComputeDevice("tensorflow", name, kind if kind in ("CPU", "GPU", "TPU") else "CPU",
                         ref=name)


def _get_device(x: Any) -> Any:
    if isinstance(x, _SPARSE):
        x = x.values
    name = getattr(x, "device", "") or ""
    if not name:  # a symbolic tensor not yet placed: where tf places new ops
        return _get_default_device_composed(backend="tensorflow")
    return _device_record(name)


def _device_of(device: Any) -> str:
    if device is None:
        device = _get_default_device_composed(backend="tensorflow")
    return device.name if isinstance(device, ComputeDevice) else _device_name(device)


def _allocate_on_device(x: Any, device: Any) -> Any:
    # tf has no .to(device): a copy made under the device scope lives there
    with tf.device(_device_of(device)):
        if isinstance(x, _SPARSE):
            return tf.SparseTensor(tf.identity(x.indices), tf.identity(x.values),
                                   tf.identity(x.dense_shape))
        return tf.identity(x)


def _memory_name(device: Any) -> str:
    return _device_of(device).rsplit("device:", 1)[-1].lstrip("/")


def _get_peak_memory(device: Any = None) -> int:
    # tf's allocator statistics (GPUs; the CPU reports 0 or nothing)
    try:
        return int(tf.config.experimental.get_memory_info(_memory_name(device))["peak"])
    except (ValueError, RuntimeError, tf.errors.OpError):
        return 0


def _reset_peak_memory(device: Any = None) -> None:
    with contextlib.suppress(ValueError, RuntimeError, tf.errors.OpError):
        tf.config.experimental.reset_memory_stats(_memory_name(device))


def _to_dlpack(x: Any) -> Any:
    return tf.experimental.dlpack.to_dlpack(x)



def _view(x: Any, dtype: Any) -> Any:
    # numpy's x.view(dtype) from tf.bitcast, which adds or drops an axis (no bool)
    dst = np_dtype(dtype)
    if not isinstance(x, tf.Tensor) or x.dtype == tf.bool or dst.kind == "b":
        return view(x, dtype)
    return view_by_bitcast(x, tuple(x.shape), x.dtype.size, dst,
                           lambda a: tf.bitcast(a, tf.as_dtype(dst)), tf.reshape)

TABLE = merge_tables(
    {
        "astype": _astype,
        "cast": _astype,
        "to_numpy": _to_numpy,
        "from_numpy": _from_numpy,
        "from_dlpack": _from_dlpack,
        "to_dlpack": _to_dlpack,
        "to_device": _to_device,
        "to_backend_dtype": _to_backend_dtype,
        "get_dtype_name": _get_dtype_name,
        "list_devices": _list_devices,
        "get_device": _get_device,
        "allocate_on_device": _allocate_on_device,
        "get_peak_memory": _get_peak_memory,
        "reset_peak_memory": _reset_peak_memory,
        "view": _view,
    },
    backend_entries("tensorflow"),  # list methods written once, bound to tensorflow
    names=("devices", "bound list methods"),
)
