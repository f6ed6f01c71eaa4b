"""Backend-bound fallbacks: written once, bound to a library in its table.

A composed fallback receives only the call's arguments. The functions below
create arrays or answer questions with no array to decide the library
(``do("random_normal", (2, 3), like="torch")``), so they take the backend as a
keyword, and each table binds them with one line::

    from dispatch.engine import merge_tables
    from dispatch.translations._composed._bound import backend_entries
    TABLE = merge_tables(backend_entries("torch"), {...})   # a name in both is refused

They are deliberately not registered as composed fallbacks: unbound, a call
with ``like="torch"`` would silently run on the default backend; a table that
lacks the line answers "missing" instead. :func:`host_entries` adds the
answers of a host-only library without compiler or autodiff (dask, pydata
sparse). :func:`fill_entries` binds, one name at a time, the numpy creation
routines of :mod:`.creation` (``geomspace``, ``logspace``, ``random.rand``,
``random.randn``) in the tables of libraries that lack them or whose own
version departs from numpy.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

from dispatch.translations._adapters import require_callable
from dispatch.translations._composed import creation, devices, random
from dispatch.translations._composed.devices import ComputeDevice, list_devices_filtered

from dispatch.engine import unsupported

BOUND: dict[str, Callable] = {
    "as_tensor": creation.as_tensor,
    "range": creation.range_,
    "linspace_without_last": creation.linspace_without_last,
    "seed": random.seed,
    "random_uniform": random.random_uniform,
    "random_normal": random.random_normal,
    "random_permutations": random.random_permutations,
    "random_subsets": random.random_subsets,
    "get_default_device": devices.get_default_device,
    "set_default_device": devices.set_default_device,
    "get_device_by_ref": devices.get_device_by_ref,
    "is_tensor": devices.is_tensor,
    "from_external_array_dlpack": devices.from_external_array_dlpack,
}


# numpy creation routines some libraries lack: bound only where a table asks for
# them (fill_entries), so that a library's own version of the name stays
FILLS: dict[str, Callable] = {
    "geomspace": creation.geomspace,
    "logspace": creation.logspace,
    "random.rand": creation.rand,
    "random.randn": creation.randn,
    "tril_indices": creation.tril_indices,
    "triu_indices": creation.triu_indices,
    "diag_indices": creation.diag_indices,
    "hamming": creation.hamming,
    "hanning": creation.hanning,
    "blackman": creation.blackman,
    "bartlett": creation.bartlett,
    "kaiser": creation.kaiser,
    "mask_indices": creation.mask_indices,
}


def fill_entries(backend: str, *names: str) -> dict[str, Callable]:
    """Table entries binding the named :data:`FILLS` to ``backend``.

    Examples
    --------
    >>> fill_entries("numpy", "geomspace")["geomspace"](1, 100, 3).tolist()
    [1.0, 10.0, 100.0]
    """
    out: dict[str, Callable] = {}
    for name in names:
        bound = functools.partial(FILLS[name], backend=backend)
        functools.update_wrapper(bound, FILLS[name])
        out[name] = bound
    return out


def backend_entries(backend: str) -> dict[str, Callable]:
    """Table entries binding every backend-bound fallback to ``backend``.

    Examples
    --------
    >>> entries = backend_entries("numpy")
    >>> entries["range"](3).tolist()
    [0, 1, 2]
    """
    out: dict[str, Callable] = {}
    for name, fn in BOUND.items():
        bound = functools.partial(fn, backend=backend)
        functools.update_wrapper(bound, fn)
        out[name] = bound
    return out


def checkpoint_pass_through(fun: Callable) -> Callable:
    """``checkpoint`` on a library without autodiff: ``fun`` itself.

    jax.checkpoint changes only what a backward pass stores; without automatic
    differentiation there is no backward pass, so the function is already what a
    checkpoint of it computes (as ``jit_compile`` is a pass-through without a
    compiler).

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> f = do("checkpoint", np.sin, like="numpy")
    >>> f is np.sin, f(np.zeros(1))
    (True, array([0.]))
    """
    require_callable("checkpoint", "fun", fun)
    return fun


def no_autodiff_entries(library: str) -> dict[str, Any]:
    """The autodiff names of a library without automatic differentiation: jax's
    transforms ``unsupported``, with the reason, and ``checkpoint`` a pass-through.

    Examples
    --------
    >>> no_autodiff_entries("numpy")["grad"]
    unsupported('numpy has no automatic differentiation')
    """
    no = unsupported(f"{library} has no automatic differentiation")
    return {**dict.fromkeys(("grad", "value_and_grad", "vjp", "jvp"), no),
            "checkpoint": checkpoint_pass_through}


def host_entries(backend: str, library: str) -> dict[str, Any]:
    """Table entries of a library that computes on the host CPU only and has no
    compiler and no autodiff (numpy-like: dask, pydata sparse).

    Binds :data:`BOUND` (``backend_entries``), lists one CPU device, makes
    ``jit_compile`` a pass-through and marks the autodiff names unsupported.

    Examples
    --------
    >>> host_entries("numpy", "numpy")["list_devices"]()[0].device_type
    'CPU'
    """
    cpu = ComputeDevice(
        backend, "CPU", "CPU", -1, os.cpu_count() or -1, f"host CPU ({library})", "cpu"
    )

    def list_devices(device_type: str | None = None) -> list[ComputeDevice]:
        return list_devices_filtered([cpu], device_type)

    def allocate_on_device(x: Any, device: Any) -> Any:
        # arrays of a host library live in host memory only
        if getattr(device, "device_type", str(device).upper()) != "CPU":
            raise ValueError(f"{library} arrays live on the CPU; cannot allocate on {device!r}")
        return x

    no_autodiff = unsupported(f"{library} has no automatic differentiation")
    no_memory = unsupported(f"{library} does not track peak memory")
    return {
        **backend_entries(backend),
        "prefers_channels_last": lambda: False,
        "requires_fixed_shapes_when_tracing": lambda: False,
        "variable": unsupported(f"{library} has no trainable variables (no autodiff)"),
        "module": unsupported(f"{library} has no neural-network modules"),
        "is_module": lambda obj: False,
        "jit_compile": lambda f: f,  # no compiler: a documented pass-through
        "jit_compile_grad": no_autodiff,
        "jit_compile_hessian": no_autodiff,
        "jacobian": no_autodiff,
        "hessian": no_autodiff,
        "custom_gradient": no_autodiff,
        **no_autodiff_entries(library),
        "list_devices": list_devices,
        "get_device": lambda x: cpu,
        "allocate_on_device": allocate_on_device,
        "get_peak_memory": no_memory,
        "reset_peak_memory": no_memory,
    }
