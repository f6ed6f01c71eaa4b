"""mlx: conversions to and from arrays, dtypes, and the method list's devices.

``asarray`` reads data as numpy does: a numpy array keeps its dtype and Python
floats are float64 (``mlx.core.array`` would read both as float32), and numpy dtype
names are taken. mlx has no complex128: complex data is refused with that reason
instead of being rounded to complex64 silently. ``to_numpy`` evaluates the lazy
graph and copies to the host (bfloat16, which numpy lacks, through ``ml_dtypes``).
The device entries describe mlx's CPU and GPU devices as :class:`ComputeDevice`
records; the list methods written once with a ``backend`` keyword are bound to
mlx here.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np
from dispatch.translations._adapters import _Capsule, native_byte_order
from dispatch.translations._composed._bound import backend_entries
from dispatch.translations._composed.devices import (
    ComputeDevice,
    device_ref,
    recorded_default_device,
)
from dispatch.translations._keywords import array_shape, check_order, copy_needed, refused_value
from dispatch.translations.mlx._common import NO_COMPLEX128, mx_dtype, np_name

from dispatch.engine import merge_tables


def check_device(name: str, device: Any) -> None:
    """numpy's ``device=`` on mlx: None, ``'cpu'``, ``'gpu'`` where mlx has one (an
    index may follow: ``'cpu:0'``), mlx's own device (``mx.cpu``, ``mx.Device(mx.gpu)``)
    or a :class:`ComputeDevice` of mlx's (``list_devices``; a CPU one of another library
    is the same host). mlx's memory is unified, so an array made for one device is
    usable on every device as it is (``to_device``); any other device is numpy's
    ValueError, naming ``device``."""
    if device is None:
        return
    ref = device_ref(device)
    if isinstance(device, ComputeDevice) and device.backend != "mlx":
        ref = "cpu" if device.device_type == "CPU" else None
    if isinstance(ref, mx.DeviceType):  # mx.cpu, mx.gpu
        ref = mx.Device(ref)
    elif isinstance(ref, str):
        kind, _, index = ref.lower().partition(":")
        kinds = {"cpu": mx.cpu, "gpu": mx.gpu}
        ref = mx.Device(kinds[kind], int(index or 0)) if kind in kinds and (
            index or "0").isdigit() else None
    if not (isinstance(ref, mx.Device) and mx.is_available(ref)):
        raise ValueError(f"do({name!r}) on backend 'mlx': device={device!r} is not a device "
                         "of mlx here; use 'cpu', 'gpu' where mlx has one, or one of "
                         "do('list_devices', like='mlx')")


def _asarray(a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
             copy: bool | None = None) -> Any:
    # mlx has one layout (numpy's order changes no value) and unified memory
    if order is not None:
        check_order(order)
    if device is not None:
        check_device("asarray", device)
    dt = mx_dtype(dtype)
    if isinstance(a, mx.array):
        if dt is None or dt == a.dtype:
            return mx.array(a) if copy else a
        if copy is False:
            raise copy_needed("asarray", "mlx", "a dtype change")
        return a.astype(dt)
    if isinstance(a, np.dtype):
        return a  # a numpy dtype argument read as a constant stays a dtype
    if copy is False:
        # numpy's copy=False shares a host array's memory, which its owner may still
        # write into (and refuses a list); mlx.core.array always copies host data
        raise copy_needed("asarray", "mlx", "mlx copies host data into a buffer of its own")
    if isinstance(a, (list, tuple)) and _holds_array(a):
        parts = [_asarray(e) for e in a]
        out = mx.stack(parts) if parts else mx.zeros((0,), dtype=mx.float64)
        return out if dt is None else out.astype(dt)
    host = native_byte_order(np.asarray(a))
    if dt is None:
        if host.dtype == np.complex128:
            raise TypeError(f"asarray: {NO_COMPLEX128}; pass dtype='complex64' to round")
        if host.dtype.kind not in "biufc":
            raise TypeError(f"asarray: mlx has no dtype {host.dtype}")
        dt = mx_dtype(host.dtype)
    if host.size == 0:
        # mlx 0.32 hangs now and then reducing an unevaluated empty array made from host
        # data (the sum over axis 0 of float32 zeros((0, 3)), looped); a fresh empty
        # array of the same shape and dtype does not
        return mx.zeros(host.shape, dtype=dt)
    return mx.array(host, dtype=dt)


def _holds_array(seq: Any) -> bool:
    return any(isinstance(e, mx.array) or (isinstance(e, (list, tuple)) and _holds_array(e))
               for e in seq)


def _array(a: Any, dtype: Any = None, *, copy: bool = True, order: str = "K",
           subok: bool = False, ndmin: int = 0, ndmax: int = 0) -> Any:
    # numpy's array keywords (mlx has no array subclasses: subok changes nothing)
    return array_shape(_asarray(a, dtype, copy=copy), a, order, ndmin, ndmax)


def _to_numpy(x: Any) -> np.ndarray:
    if not isinstance(x, mx.array):
        return np.asarray(x)
    if x.dtype == mx.bfloat16:
        import ml_dtypes

        return np.asarray(x.astype(mx.float32)).astype(ml_dtypes.bfloat16)
    return np.array(x)


def _astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    check_device("astype", device)
    dt = mx_dtype(dtype)
    if not isinstance(x, mx.array):
        x = _asarray(x)
    return mx.array(x) if (dt == x.dtype and copy) else x.astype(dt)


def _get_dtype_name(x: Any) -> str:
    return np_name(x.dtype) if isinstance(x, mx.array) else np.asarray(x).dtype.name


def _to_backend_dtype(name: Any) -> Any:
    return mx_dtype(name)


# ---------------------------------------------------------------- devices


def _record(device: Any) -> ComputeDevice:
    kind = "CPU" if device.type == mx.DeviceType.cpu else "GPU"
    return ComputeDevice("mlx", str(device), kind, -1, -1, f"mlx {device}", device)


def _list_devices(device_type: str | None = None) -> list[ComputeDevice]:
    out = [_record(mx.Device(mx.cpu))]
    if mx.is_available(mx.gpu):
        out.append(_record(mx.Device(mx.gpu)))
    if device_type is not None:
        out = [d for d in out if d.device_type == device_type.upper()]
    return out


def _get_device(x: Any) -> ComputeDevice:
    # an mlx array has no device of its own: it runs on the stream it is used on,
    # by default the default device's
    return _record(mx.default_device())


def _get_default_device() -> ComputeDevice:
    # the device chosen with set_default_device (dispatch's record: mlx's own default
    # device is global configuration of the whole process, left alone), else mlx's
    chosen = recorded_default_device("mlx")
    return chosen if chosen is not None else _record(mx.default_device())


def _to_device(x: Any, device: Any) -> Any:
    # mlx's memory is unified: an array is usable on every device as it is
    check_device("to_device", device)
    return x


def _from_dlpack(x: Any, *, device: Any = None, copy: Any = None) -> Any:
    # mx.from_dlpack reads float64 data as float32 (mlx 0.32); through numpy's
    # zero-copy view the dtype is kept
    check_device("from_dlpack", device)
    if isinstance(x, mx.array):
        return x
    if copy is False:
        # numpy's copy=False shares the producer's memory, which its owner may still
        # write into; mlx.core.array always copies host data into its own buffer
        raise refused_value("from_dlpack", "mlx", "copy", False, "cannot be honoured: mlx "
                      "copies the data into a buffer of its own")
    if type(x).__name__ == "PyCapsule":
        # a bare capsule (the list's to_dlpack): numpy reads objects that hand one out
        x = _Capsule(x)
    return _asarray(np.from_dlpack(x))


def _is_available(x: Any) -> bool:
    """Whether the value of ``x`` can be read now: mlx refuses to evaluate an array
    inside ``mx.compile`` and ``mx.vmap`` (its arrays there are of the same class as
    outside, so only the attempt tells; the value is computed once, as a read would).

    Examples
    --------
    >>> import mlx.core as mx
    >>> from dispatch import do
    >>> do("is_available", mx.ones(2))
    True
    >>> seen = []
    >>> _ = mx.compile(lambda v: seen.append(do("is_available", v)) or v)(mx.ones(1))
    >>> seen
    [False]
    """
    if not isinstance(x, mx.array):
        return True
    try:
        mx.eval(x)
    except ValueError as err:
        if "function transformations" in str(err):
            return False
        raise
    return True


_OWN = ("get_default_device", "random_permutations")

TABLE = merge_tables(
    {
        "asarray": _asarray,
        "array": _array,
        "to_numpy": _to_numpy,
        "from_numpy": _asarray,
        "astype": _astype,
        "get_dtype_name": _get_dtype_name,
        "to_backend_dtype": _to_backend_dtype,
        "to_device": _to_device,
        "list_devices": _list_devices,
        "get_device": _get_device,
        "get_default_device": _get_default_device,
        # mlx's memory is unified: every array is usable on every device as it is
        "allocate_on_device": _to_device,
        "from_dlpack": _from_dlpack,
        "is_available": _is_available,
        # mlx's convolutions (mx.conv1d/2d/3d, mlx.nn.Conv*) take channels last
        "prefers_channels_last": lambda: True,
    },
    {name: fn for name, fn in backend_entries("mlx").items() if name not in _OWN},
    names=("devices", "bound list methods"),
)
