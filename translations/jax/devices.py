"""Conversions, dtypes and devices on jax: numpy arrays in and out (sparse ones
as scipy.sparse), dtype names, placement on devices by name, the backend method
list's device records and memory statistics, whether a value is readable (not a
tracer), and DLPack."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._adapters import _Capsule as _HostCapsule
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
    set_default_device as _set_default_device_composed,
)
from dispatch.translations.jax._common import _is_sparse

from dispatch.engine import merge_tables, unsupported


def _to_backend_dtype(name: Any) -> np.dtype:
    # jax's dtypes are numpy dtype objects (bfloat16 included, through ml_dtypes)
    return jnp.dtype(name)


def _astype(x: Any, dtype: Any, /, *, copy: bool = False, device: Any = None) -> Any:
    # the dtype jax holds for the one asked: without 64-bit mode int64 and float64 are
    # stored as int32 and float32 (jax truncates them anyway, warning each time);
    # library-independent code asks for numpy's int64 indices and float64 accumulators
    return jnp.astype(x, jax.dtypes.canonicalize_dtype(jnp.dtype(dtype)), copy=copy,
                      device=None if device is None else _device("astype", device))


def _device(name: str, device: Any) -> Any:
    """jax's device for numpy's ``device=`` of ``do(name)``: a :class:`ComputeDevice`
    gives its ``ref``, a platform with an optional index (``'cpu'``, ``'gpu'``,
    ``'cuda:1'``, ``'tpu:0'``) the device jax lists under it; jax's own devices and
    shardings (and None) are returned as they are. Anything else, or a device jax does
    not have here, is a ValueError that names ``device``."""
    device = device_ref(device)
    if device is None or isinstance(device, (jax.Device, jax.sharding.Sharding)):
        return device
    if isinstance(device, str):
        platform, _, index = device.partition(":")
        try:
            return jax.devices(platform)[int(index or 0)]
        except (RuntimeError, ValueError, IndexError) as err:  # jax's unknown backend
            raise ValueError(f"do({name!r}) on backend 'jax': device={device!r} is not a "
                             f"device jax has here ({err})") from None
    raise ValueError(f"do({name!r}) on backend 'jax': device={device!r} is not a device: "
                     "give a platform name ('cpu', 'gpu:1'), a jax device or a "
                     "ComputeDevice of jax")


def _device_named(name: str, fn: Callable) -> Callable:
    """jax's ``fn``, whose ``device=`` takes jax's devices and shardings only, given
    dispatch's devices too (a platform name, a :class:`ComputeDevice`: :func:`_device`)."""

    @functools.wraps(fn)
    def placed(*args: Any, device: Any = None, **kwargs: Any) -> Any:
        if device is None:
            return fn(*args, **kwargs)
        return fn(*args, device=_device(name, device), **kwargs)

    return placed


def _to_device(x: Any, device: Any) -> Any:
    device = _device("to_device", device)
    # an array already there is returned as it is, as numpy's and torch's to_device do
    if isinstance(x, jax.Array) and not isinstance(x, jax.core.Tracer) and (
            x.devices() == {device}):
        return x
    return jax.device_put(x, device)


def _is_available(x: Any) -> bool:
    # tracers (jit, grad, vmap) have no value
    if _is_sparse(x):
        return not any(isinstance(p, jax.core.Tracer) for p in jax.tree_util.tree_leaves(x))
    return not isinstance(x, jax.core.Tracer)


def _numpy(x: Any) -> Any:
    # the list's ``numpy``: sparse arrays become scipy.sparse matrices
    if not _is_available(x):
        raise ValueError("the value of a jax tracer is not available while tracing")
    if not _is_sparse(x):
        return np.asarray(x)
    import scipy.sparse as sp

    name = type(x).__name__
    if name == "CSR":
        return sp.csr_matrix((np.asarray(x.data), np.asarray(x.indices), np.asarray(x.indptr)),
                             shape=x.shape)
    if name == "CSC":
        return sp.csc_matrix((np.asarray(x.data), np.asarray(x.indices), np.asarray(x.indptr)),
                             shape=x.shape)
    if name == "BCOO" and x.ndim == 2 and not x.n_batch and not x.n_dense:
        row, col = np.asarray(x.indices).T
        return sp.coo_matrix((np.asarray(x.data), (row, col)), shape=x.shape)
    return np.asarray(x.todense())


def _block_until_ready(values: Any) -> Any:
    return jax.block_until_ready(values)


_TYPES = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU", "tpu": "TPU",
          "METAL": "GPU"}


def _device_record(d: Any) -> ComputeDevice:
    stats = _memory_stats(d)
    return ComputeDevice(
        "jax", f"{d.platform}:{d.id}", _TYPES.get(d.platform, d.platform.upper()),
        int(stats.get("bytes_limit", -1)), getattr(d, "core_count", -1) or -1,
        f"{d.device_kind} ({d.platform}, process {d.process_index})", d,
    )


def _memory_stats(d: Any) -> dict:
    # CPU devices report no memory statistics (None); some platforms raise
    try:
        return d.memory_stats() or {}
    except Exception:
        return {}


def _all_devices() -> list:
    devices = []
    for backend in ("cpu", "gpu", "tpu"):
        with contextlib.suppress(RuntimeError):  # platforms jax was not built for
            devices.extend(jax.devices(backend))
    first = jax.devices()[0]  # jax's default platform first
    devices.sort(key=lambda d: d.platform != first.platform)
    return [_device_record(d) for d in devices]


def _list_devices(device_type: str | None = None) -> list:
    return list_devices_filtered(_all_devices(), device_type)


def _find_device(d: Any) -> ComputeDevice:
    for rec in _all_devices():
        if rec.ref == d:
            return rec
    return _device_record(d)


def _get_default_device() -> ComputeDevice:
    # jax's own default (jax_default_device, else the first device of its default
    # platform) is the truth
    d = jax.config.jax_default_device
    if isinstance(d, str):
        d = jax.devices(d)[0]
    return _find_device(d if d is not None else jax.devices()[0])


def _set_default_device(device: Any) -> bool:
    # recorded like every library's, and made jax's default placement
    if not isinstance(device, ComputeDevice) and device not in ("CPU", "GPU", "TPU"):
        if isinstance(device, str):
            platform, _, index = device.partition(":")
            device = jax.devices(platform)[int(index or 0)]
        device = _find_device(device)
    if not _set_default_device_composed(device, backend="jax"):
        return False
    if isinstance(device, str):
        device = _list_devices(device)[0]
    jax.config.update("jax_default_device", device.ref)
    return True


def _get_device(x: Any) -> ComputeDevice:
    # a tracer lives nowhere yet: it will be placed on the default device
    if isinstance(x, jax.core.Tracer) or not hasattr(x, "devices"):
        return _get_default_device()
    return _find_device(next(iter(x.devices())))


def _allocate_on_device(x: Any, device: Any) -> Any:
    return _to_device(x, device.ref if isinstance(device, ComputeDevice) else device)


def _get_peak_memory(device: Any = None) -> int:
    # peak bytes where the device reports memory statistics (GPU, TPU), else 0
    d = device.ref if isinstance(device, ComputeDevice) else device
    if d is None:
        d = _get_default_device().ref
    return int(_memory_stats(d).get("peak_bytes_in_use", 0))


def _from_dlpack(x: Any, *, device: Any = None, copy: Any = None) -> Any:
    # numpy's signature (device=, copy=); jnp.from_dlpack takes objects with __dlpack__
    # only; a bare capsule (the list's to_dlpack result) carries no readable device, so
    # it is taken as host memory, which is right only where jax itself runs on the CPU
    if device is not None:
        return _to_device(_from_dlpack(x, copy=copy), device)
    if hasattr(x, "__dlpack__"):
        return jnp.from_dlpack(x) if copy is None else jnp.from_dlpack(x, copy=copy)
    if type(x).__name__ != "PyCapsule":
        raise TypeError(f"from_dlpack needs a DLPack capsule or array, got {type(x).__name__}")
    if jax.default_backend() != "cpu":
        raise TypeError("from_dlpack on jax takes a bare DLPack capsule on the CPU only; "
                        "pass the array itself (it has __dlpack__)")
    return jnp.from_dlpack(_HostCapsule(x))  # the shared adapter's host-memory capsule


def _prefers_channels_last() -> bool:
    return True  # XLA's convolutions are laid out channels last on accelerators



def _view(x: Any, dtype: Any) -> Any:
    # numpy's x.view(dtype) from lax.bitcast_convert_type, which adds or drops an axis
    if not isinstance(x, jax.Array):
        return view(x, dtype)
    dst = np_dtype(dtype)
    return view_by_bitcast(x, x.shape, x.dtype.itemsize, dst,
                           lambda a: jax.lax.bitcast_convert_type(a, dst), jnp.reshape)

# the list methods written once in translations/_composed/bound.py, bound to jax, less
# the names jax answers itself (get_default_device and set_default_device above,
# random_permutations in .random)
_OWN = ("get_default_device", "set_default_device", "random_permutations")

TABLE = merge_tables(
    {
        "to_numpy": np.asarray,
        "from_numpy": "asarray",
        "astype": _astype,
        "cast": _astype,
        "to_backend_dtype": _to_backend_dtype,
        "to_device": _to_device,
        "numpy": _numpy,
        "is_available": _is_available,
        "block_until_ready": _block_until_ready,
        "list_devices": _list_devices,
        "get_device": _get_device,
        "get_default_device": _get_default_device,
        "set_default_device": _set_default_device,
        "allocate_on_device": _allocate_on_device,
        "get_peak_memory": _get_peak_memory,
        "reset_peak_memory": unsupported("jax has no call that resets its devices' peak "
                                         "memory counters"),
        "from_dlpack": _from_dlpack,
        "prefers_channels_last": _prefers_channels_last,
        "view": _view,
    },
    {name: fn for name, fn in backend_entries("jax").items() if name not in _OWN},
    names=("devices", "bound list methods"),
)
