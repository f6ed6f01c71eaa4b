"""autograd: conversions, dtypes and devices. A box wraps a numpy array: its dtypes
are numpy's, its device the host CPU (a :class:`ComputeDevice` of autograd), and
``to_numpy`` leaves the trace behind. The conversions (``asarray`` and its kin) keep a
box as it is, cast where a dtype is asked (recorded), and stack a sequence holding
boxes; the questions about memory (``shares_memory``, ``isfortran``, ``to_dlpack``)
are asked of the numpy arrays inside the boxes."""

from __future__ import annotations

from typing import Any

import numpy as np
from autograd import numpy as anp
from autograd.tracer import Box, getval
from dispatch.translations._adapters import host_from_dlpack
from dispatch.translations._composed._bound import backend_entries, host_entries
from dispatch.translations._composed.creation import requirements_of
from dispatch.translations._composed.devices import to_dlpack
from dispatch.translations._keywords import check_order, copy_needed

from dispatch.engine import merge_tables

from ._common import any_box, on_values, values


def _to_numpy(x: Any) -> np.ndarray:
    """The value inside a box (and inside nested boxes), as a numpy array.

    >>> _to_numpy(np.arange(2))
    array([0, 1])
    """
    return np.asarray(getval(x))


def _asarray(a: Any, dtype: Any = None, order: Any = None, *, device: Any = None,
             copy: Any = None, like: Any = None, **kwargs: Any) -> Any:
    """numpy's ``asarray`` for autograd: a box stays the box (a box is never written
    into, so a copy is the same value), cast to ``dtype`` where one is asked (autograd
    records the cast); a sequence holding boxes is autograd's ``array`` of them."""
    if device is not None and str(getattr(device, "ref", device)).lower() != "cpu":
        raise ValueError(f"autograd computes on the host ('cpu') only, not on {device!r}")
    if isinstance(a, Box) or (isinstance(a, (list, tuple)) and any_box(*a)):
        check_order(order)  # a box has no memory layout of its own: numpy's values
        out = a if isinstance(a, Box) else anp.array(a)
        if dtype is not None and np.dtype(dtype) != getval(out).dtype:
            out = out.astype(np.dtype(dtype))
        if copy is False and out is not a:
            raise copy_needed("asarray", "autograd", "a new box: a dtype change or a "
                              "sequence stacked")
        return out
    if copy is not None:  # numpy 2's keyword (numpy 1.26 has none)
        kwargs["copy"] = copy
    return np.asarray(a, dtype=dtype, order=order, **kwargs)


def _same_box(a: Any, dtype: Any = None, requirements: Any = None, *, like: Any = None) -> Any:
    """``require`` of a box: the box (it has no memory layout of its own), cast where a
    dtype is asked; a new box where it must own its data ('O'). A box cannot be written
    ('W' is refused)."""
    reqs = requirements_of(requirements)
    if "W" in reqs:
        raise ValueError("require: 'W' (writeable) cannot be met on autograd: a box "
                         "records a pure function and is never written")
    out = _asarray(a, dtype)
    return anp.array(out) if "O" in reqs and out is a else out


def _laid_out(a: Any, dtype: Any = None, *, like: Any = None) -> Any:
    """``ascontiguousarray`` and ``asfortranarray`` of a box: the box (no memory layout
    of its own), cast where a dtype is asked, at least 1-d as numpy's."""
    return anp.atleast_1d(_asarray(a, dtype))


def _asarray_chkfinite(a: Any, dtype: Any = None, order: Any = None) -> Any:
    np.asarray_chkfinite(values(a))  # numpy's error for a nan or an infinity
    return _asarray(a, dtype, order)


def _to_device(x: Any, device: Any) -> Any:
    if str(getattr(device, "ref", device)).lower() != "cpu":
        raise ValueError(f"autograd computes on the host ('cpu') only, not on {device!r}")
    return x


def _astype(x: Any, dtype: Any, **kwargs: Any) -> Any:
    # a box casts with autograd's own astype (recorded); a numpy array with numpy's
    return x.astype(np.dtype(dtype), **kwargs)


def _complex(real: Any, imag: Any) -> Any:
    """autoray's ``complex(real, imag)``, written with arithmetic autograd records.

    >>> _complex(np.array([1.0]), np.array([2.0]))
    array([1.+2.j])
    """
    return real + 1j * imag


# the host's devices: autograd computes where numpy does (list_devices, get_device...)
_HOST = host_entries("autograd", "autograd")

TABLE = merge_tables(
    backend_entries("autograd"),
    {name: _HOST[name] for name in (
        "list_devices", "get_device", "allocate_on_device", "get_peak_memory",
        "reset_peak_memory", "prefers_channels_last", "requires_fixed_shapes_when_tracing",
        "is_module", "module")},
    {
        "complex": _complex,
        "to_numpy": _to_numpy,
        "asarray": _asarray,
        "from_numpy": _asarray,
        "ascontiguousarray": _laid_out,
        "asfortranarray": _laid_out,
        "require": _same_box,
        "asarray_chkfinite": _asarray_chkfinite,
        "to_backend_dtype": np.dtype,
        "astype": _astype,
        "to_device": _to_device,
        # autograd's arrays outside a trace are numpy's: an imported one too
        "from_dlpack": host_from_dlpack,
        # autograd has no compiler: a function is already what compiling it would run
        "jit_compile": lambda f: f,
        # questions about memory: asked of the numpy arrays inside the boxes
        "shares_memory": on_values(np.shares_memory),
        "may_share_memory": on_values(np.may_share_memory),
        "isfortran": on_values(np.isfortran),
        "to_dlpack": on_values(to_dlpack),
    },
    names=("bound", "host", "conversions"),
)
