"""numpy's answers to the backend method list (docs/methods.md): its device,
scipy.sparse construction, and the features it lacks (no compiler, no autodiff),
merged into ``translations/numpy.py``'s table, which imports them from here."""

from __future__ import annotations

import numpy as np
from dispatch.translations._composed.devices import ComputeDevice, list_devices_filtered

from dispatch.engine import unsupported

# ---------------------------------------------------------------- backend method list
# numpy runs the composed fallbacks of translations/_composed/ for most list methods;
# below are the answers that are numpy's own: its device, scipy.sparse types, and the
# features it lacks (no compiler, no autodiff).


def _host_memory() -> int:
    import os

    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return -1


def _cpu() -> ComputeDevice:
    import os

    if not _CPU:
        _CPU.append(ComputeDevice(
            "numpy", "CPU", "CPU", _host_memory(), os.cpu_count() or -1, "host CPU", "cpu"
        ))
    return _CPU[0]


_CPU: list[ComputeDevice] = []


def _list_devices(device_type=None):
    """The devices the library can allocate arrays on, as :class:`ComputeDevice`
    records: all of them, or those of ``device_type`` (``'CPU'``, ``'GPU'`` or
    ``'TPU'``). numpy lists the host CPU.

    Examples
    --------
    >>> from dispatch import do
    >>> [d.device_type for d in do("list_devices", like="numpy")]
    ['CPU']
    >>> do("list_devices", "GPU", like="numpy")
    []
    """
    return list_devices_filtered([_cpu()], device_type)


def _allocate_on_device(x, device):
    """``x`` on ``device``: a :class:`ComputeDevice` of the library (``list_devices``)
    or the library's own device object.

    numpy arrays live in host memory only: ``x`` is returned as it is for a CPU device,
    and any other device raises ``ValueError``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> cpu = do("list_devices", "CPU", like="numpy")[0]
    >>> do("allocate_on_device", np.ones(2), cpu)
    array([1., 1.])
    """
    if getattr(device, "device_type", str(device).upper()) != "CPU":
        raise ValueError(f"numpy arrays live on the CPU; cannot allocate on {device!r}")
    return x


def _jit_compile(f):
    # numpy has no compiler: jit_compile is a documented pass-through
    return f


def _copy(a, order="K", subok=False, only_mutable=False):
    # the list's ``copy`` adds ``only_mutable``; numpy arrays are mutable, so always copy
    return np.copy(a, order=order, subok=subok)


def _coords(indices, ndim):
    """Per-axis index arrays from (nnz, dims) indices or a sequence of per-axis arrays."""
    if isinstance(indices, (tuple, list)) and len(indices) == ndim:
        return tuple(np.asarray(i) for i in indices)
    indices = np.asarray(indices)
    return tuple(indices[:, k] for k in range(indices.shape[1]))


def _sparse_coo_tensor(indices, values, shape):
    """A sparse array in coordinate format, of the library of the arrays passed (a
    ``scipy.sparse.coo_array`` on numpy).

    Parameters
    ----------
    indices : array, shape (nnz, ndim)
        The index of each stored value (numpy also takes one index array per axis).
    values : array, shape (nnz,)
        The stored values; repeated indices are kept, and add up wherever the array is
        used.
    shape : tuple of int
        The shape of the array.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> m = do("sparse_coo_tensor", np.array([[0, 1], [1, 2], [0, 1]]),
    ...        np.array([1.0, 2.0, 4.0]), (2, 3))
    >>> m.toarray()
    array([[0., 5., 0.],
           [0., 0., 2.]])
    """
    import scipy.sparse as sp

    return sp.coo_array((np.asarray(values), _coords(indices, len(shape))), shape=tuple(shape))


def _csr_matrix(column_indices, row_pointers, values, shape):
    """A sparse matrix in compressed sparse row format, of the library of the arrays
    passed (a ``scipy.sparse.csr_array`` on numpy).

    Parameters
    ----------
    column_indices : array, shape (nnz,)
        The column of each stored value, row after row.
    row_pointers : array, shape (rows + 1,)
        Row ``i`` holds the values ``row_pointers[i]:row_pointers[i + 1]``.
    values : array, shape (nnz,)
        The stored values.
    shape : tuple of int
        ``(rows, columns)``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> m = do("csr_matrix", np.array([0, 2, 1]), np.array([0, 2, 3]),
    ...        np.array([1.0, 2.0, 3.0]), (2, 3))
    >>> m.toarray()
    array([[1., 0., 2.],
           [0., 3., 0.]])
    """
    import scipy.sparse as sp

    return sp.csr_array((values, column_indices, row_pointers), shape=tuple(shape))


def _csc_matrix(column_pointers, row_indices, values, shape):
    """A sparse matrix in compressed sparse column format, of the library of the arrays
    passed (a ``scipy.sparse.csc_array`` on numpy).

    Parameters
    ----------
    column_pointers : array, shape (columns + 1,)
        Column ``j`` holds the values ``column_pointers[j]:column_pointers[j + 1]``.
    row_indices : array, shape (nnz,)
        The row of each stored value, column after column.
    values : array, shape (nnz,)
        The stored values.
    shape : tuple of int
        ``(rows, columns)``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> m = do("csc_matrix", np.array([0, 1, 1, 3]), np.array([0, 0, 1]),
    ...        np.array([1.0, 2.0, 3.0]), (2, 3))
    >>> m.toarray()
    array([[1., 0., 2.],
           [0., 0., 3.]])
    """
    import scipy.sparse as sp

    return sp.csc_array((values, row_indices, column_pointers), shape=tuple(shape))


def _complex(real, imag):
    """The complex array ``real + 1j * imag``, of the width of its parts: two float32
    arrays make complex64, two float64 arrays complex128.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> do("complex", np.array([1.0, 2.0]), np.array([0.5, -1.0]))
    array([1.+0.5j, 2.-1.j ])
    """
    return real + 1j * imag


def _stop_gradient(x):
    """``x`` as a constant for automatic differentiation: the same values, through
    which no derivative flows (``jax.lax.stop_gradient``, torch's ``detach``,
    ``tf.stop_gradient``). Libraries without automatic differentiation return ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> do("stop_gradient", np.array([1.0, 2.0]))
    array([1., 2.])
    """
    return x


def _get_device(x):
    """The :class:`ComputeDevice` where the array ``x`` lives (numpy: the host CPU).

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> do("get_device", np.ones(2)).device_type
    'CPU'
    """
    return _cpu()


def _is_module(obj):
    """Whether ``obj`` is a neural-network module of the library (a
    ``torch.nn.Module``, a ``tf.Module``); False on libraries without modules.

    A module is not an array: only the module that defines its class can name the
    library, so a module class of your own (a subclass of ``torch.nn.Module`` in your
    code) needs ``like=`` to name it (``do("is_module", net, like="torch")``).

    Examples
    --------
    >>> from dispatch import do
    >>> do("is_module", object(), like="numpy")
    False
    """
    return False


def _prefers_channels_last():
    """Whether the library's convolutions prefer the channels on the last axis
    (jax and tensorflow: True; torch, whose layers are channels first: False).
    numpy has no convolution layers: False.

    Examples
    --------
    >>> from dispatch import do
    >>> do("prefers_channels_last", like="numpy")
    False
    """
    return False


def _requires_fixed_shapes_when_tracing():
    """Whether ``jit_compile`` traces with fixed shapes, so that functions whose
    result shape depends on values (``nonzero``, ``unique``) need a static size there
    (jax: True; torch and tensorflow retrace per shape: False). numpy does not
    compile: False.

    Examples
    --------
    >>> from dispatch import do
    >>> do("requires_fixed_shapes_when_tracing", like="numpy")
    False
    """
    return False


_NO_AUTODIFF = unsupported("numpy has no automatic differentiation")
