"""numpy: the reference. Almost every name resolves natively; numpy arrays are
constants in calls that another library decides (PRIORITY -1)."""

from __future__ import annotations

import numpy as np
from dispatch.translations import _safety
from dispatch.translations._adapters import no_autodiff
from dispatch.translations._composed.bound import backend_entries
from dispatch.translations._composed.counting import _bincount_fixed_numpy
from dispatch.translations._composed.devices import ComputeDevice, list_devices_filtered
from dispatch.translations._composed.indexing import _scatter_1d_scalar_numpy

from dispatch.engine import NATIVE, alias, unsupported

TYPES = ("numpy",)
MODULES = {"scipy": "scipy"}
# what a name may reach (docs/safety.md): numpy's and scipy's array modules, never
# native-code loading, processes, unpickling, downloads, global configuration or a
# function that writes into its input
SUBMODULES = (
    "numpy.linalg", "numpy.fft", "numpy.random", "numpy.lib", "numpy.lib.stride_tricks",
    "numpy.lib.scimath", "numpy.emath", "numpy.polynomial.*", "numpy.strings", "numpy.char",
    "numpy.rec", "numpy.dtypes", "numpy.exceptions", "scipy",
    *(f"scipy.{m}" for m in _safety.SCIPY_SUBMODULES),
)
CAPABILITY_MODULES = {
    "numpy.ctypeslib": "native-code loading (ctypes)",
    "numpy.f2py": "a Fortran compiler driver (it runs processes and loads native code)",
    "numpy.testing": "test machinery (it builds and imports C extensions)",
    "numpy._pytesttester": _safety.PYTEST,
    "numpy.lib.format": "the .npy format internals (read_array can unpickle)",
    "numpy.lib.npyio": "file and URL access (DataSource downloads)",
    "numpy.lib._datasource": "file and URL access (DataSource downloads)",
    "numpy.random.mtrand": "numpy's legacy global random state: use do('random.seed', s, "
    "like='numpy') and the random.* names, or random.default_rng",
    **_safety.SCIPY_CAPABILITY,
}
REFUSED = {
    **dict.fromkeys(
        ("numpy.set_printoptions", "numpy.seterr", "numpy.seterrcall", "numpy.setbufsize"),
        _safety.GLOBAL,
    ),
    "numpy._pytesttester.PytestTester": _safety.PYTEST,
    **dict.fromkeys(
        ("numpy.random.set_bit_generator", "numpy.random.get_bit_generator"),
        "numpy's legacy global random state: use random.default_rng",
    ),
    **_safety.SCIPY_REFUSED,
    "numpy.lib.add_docstring": "it rewrites the docstrings of numpy's own objects",
    "numpy.lib.add_newdoc": "it rewrites the docstrings of numpy's own objects",
    "numpy.lib.stride_tricks.as_strided": "raw memory access (strides past the buffer read "
    "and write any memory): use lib.stride_tricks.sliding_window_view",
    **dict.fromkeys(
        ("numpy.loadtxt", "numpy.genfromtxt", "numpy.fromregex"),
        "it opens URLs as well as files (a download): read the file and pass the array",
    ),
    "numpy.ufunc.at": _safety.in_place(
        "do('scatter_nd_scalar', x, indices, values, mode='add') returns a new array"
    ),
    "numpy.put": _safety.in_place("do('scatter_nd_scalar', x, indices, values) on the "
                                  "flattened array returns a new one"),
    "numpy.place": _safety.in_place("do('where', mask, values, x) returns a new array"),
    "numpy.putmask": _safety.in_place("do('where', mask, values, x) returns a new array"),
    "numpy.copyto": _safety.in_place("do('where', mask, src, dst) or do('asarray', src)"),
    "numpy.fill_diagonal": _safety.in_place(
        "do('where', do('eye', n, dtype=bool), value, x) returns a new array"
    ),
    "numpy.random.shuffle": _safety.in_place(
        "do('random.permutation', x) returns a shuffled copy"
    ),
    "numpy.put_along_axis": _safety.in_place("do('scatter', ...) returns a new array"),
}
GUARDED = {"numpy.load": {"allow_pickle": False}}
PRIORITY = -1
CONVERT_CONSTANTS = False

def is_array_type(cls: type) -> bool:
    # numpy scalars and dtypes are parameters (axis=np.int64(0), dtype=np.dtype("f4")),
    # not arrays: like Python scalars they decide nothing and are never converted
    return issubclass(cls, np.ndarray)


# one generator per library, so that ``random.seed`` makes every draw reproducible
# without touching numpy's legacy global state
_RNG = [np.random.default_rng()]


def _seed(seed=None):
    _RNG[0] = np.random.default_rng(seed)


def _normal(loc=0.0, scale=1.0, size=None, dtype=None):
    out = _RNG[0].normal(loc, scale, size)
    return out if dtype is None else np.asarray(out, dtype=dtype)


def _uniform(low=0.0, high=1.0, size=None, dtype=None):
    out = _RNG[0].uniform(low, high, size)
    return out if dtype is None else np.asarray(out, dtype=dtype)


def _integers(low, high=None, size=None, dtype="int64", endpoint=False):
    return _RNG[0].integers(low, high, size, dtype=dtype, endpoint=endpoint)


def _permutation(x):
    return _RNG[0].permutation(x)


def _random(size=None, dtype="float64"):
    return _RNG[0].random(size, dtype=dtype)


def _choice(a, size=None, replace=True, p=None):
    return _RNG[0].choice(a, size, replace=replace, p=p)


def _gradient(f, *varargs, **kwargs):
    # numpy's gradient takes a Python function for a 0-d object array and returns ()
    if callable(f) and not isinstance(f, np.ndarray):
        raise no_autodiff(f, "numpy")
    return np.gradient(f, *varargs, **kwargs)


def _astype(x, dtype, copy=True):
    return np.asarray(x).astype(dtype, copy=copy)


def _to_device(x, device=None):
    if device not in (None, "cpu"):
        raise ValueError(f"numpy arrays live on the CPU; cannot move to {device!r}")
    return x


def _householder_product(a, tau):
    # numpy has no orgqr wrapper: apply the reflectors I - tau_i v_i v_i^H (v_i is column
    # i of ``a`` below the diagonal with an implicit 1) to the first columns of I
    a = np.asarray(a)
    tau = np.asarray(tau)
    m, n = a.shape[-2:]
    q = np.broadcast_to(np.eye(m, n, dtype=np.result_type(a, tau)), (*a.shape[:-2], m, n)).copy()
    for i in reversed(range(tau.shape[-1])):
        v = a[..., :, i].copy()
        v[..., :i] = 0
        v[..., i] = 1
        w = np.einsum("...i,...ij->...j", v.conj(), q)
        q -= tau[..., i, None, None] * v[..., :, None] * w[..., None, :]
    return q


TABLE = {
    # flat bincount / ufunc.at kernels on copies: the composed sort-based ones are
    # several times slower on numpy
    "scatter_1d_scalar": _scatter_1d_scalar_numpy,
    "bincount_fixed": _bincount_fixed_numpy,
    "to_numpy": "asarray",
    "from_numpy": "asarray",
    "astype": _astype,
    "to_device": _to_device,
    "random.seed": _seed,
    "random.normal": _normal,
    "random.standard_normal": lambda size=None, dtype="float64": _RNG[0].standard_normal(
        size, dtype=dtype
    ),
    "random.uniform": _uniform,
    "random.integers": _integers,
    "random.randint": _integers,
    # numpy's own are methods of its legacy global RandomState (docs/safety.md)
    "random.rand": lambda *shape: _RNG[0].random(shape or None),
    "random.randn": lambda *shape: _RNG[0].standard_normal(shape or None),
    "random.permutation": _permutation,
    "random.random": _random,
    "random.choice": _choice,
    "random.exponential": lambda scale=1.0, size=None: _RNG[0].exponential(scale, size),
    "random.gamma": lambda shape, scale=1.0, size=None: _RNG[0].gamma(shape, scale, size),
    "random.beta": lambda a, b, size=None: _RNG[0].beta(a, b, size),
    "random.poisson": lambda lam=1.0, size=None: _RNG[0].poisson(lam, size),
    "random.binomial": lambda n, p, size=None: _RNG[0].binomial(n, p, size),
    "random.default_rng": NATIVE,
    "linalg.expm": "scipy.linalg.expm",
    "linalg.lu": "scipy.linalg.lu",
    "linalg.householder_product": _householder_product,
    "cast": _astype,
    "conj": NATIVE,
    # numpy's own beat the composed fallbacks of translations/_composed/
    "column_stack": NATIVE,
    "convolve": NATIVE,
    "correlate": NATIVE,
    "interp": NATIVE,
    "linalg.tensorinv": NATIVE,
    "linalg.tensorsolve": NATIVE,
    # scipy.special, issue 5 (H9): scipy.special's beat the composed fallbacks
    **{
        f"scipy.special.{n}": NATIVE
        for n in "entr erfcx log_ndtr multigammaln ndtr polygamma psi xlog1py".split()
    },
    # issue 5 (H8): numpy's own beat the composed fallbacks (reductions, statistics,
    # selection, fft, matrices in translations/_composed/)
    **{
        n: NATIVE
        for n in (
            "nanmax nanmin nanargmax nanargmin nancumsum nanprod nanvar nanstd average "
            "quantile percentile nanquantile nanpercentile nanmedian digitize histogram "
            "choose compress ediff1d isin matrix_transpose fft.hfft fft.ihfft "
            "linalg.svdvals linalg.cond scipy.linalg.lu_solve"
        ).split()
    },
    "gradient": _gradient,
    "complex": lambda real, imag: real + 1j * imag,
    "stop_gradient": lambda x: x,
    "to_backend_dtype": "dtype",
    "concat": alias("concatenate"),
}


# ---------------------------------------------------------------- backend method list (issue 3)
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
    return list_devices_filtered([_cpu()], device_type)


def _allocate_on_device(x, device):
    # numpy arrays live in host memory only
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
    import scipy.sparse as sp

    return sp.coo_array((np.asarray(values), _coords(indices, len(shape))), shape=tuple(shape))


def _csr_matrix(column_indices, row_pointers, values, shape):
    import scipy.sparse as sp

    return sp.csr_array((values, column_indices, row_pointers), shape=tuple(shape))


def _csc_matrix(column_pointers, row_indices, values, shape):
    import scipy.sparse as sp

    return sp.csc_array((values, row_indices, column_pointers), shape=tuple(shape))


_NO_AUTODIFF = unsupported("numpy has no automatic differentiation")

TABLE.update({
    **backend_entries("numpy"),
    "prefers_channels_last": lambda: False,
    "requires_fixed_shapes_when_tracing": lambda: False,
    "copy": _copy,
    "variable": unsupported("numpy has no trainable variables (no automatic differentiation)"),
    "module": unsupported("numpy has no neural-network modules"),
    "is_module": lambda obj: False,
    "jit_compile": _jit_compile,
    "jit_compile_grad": _NO_AUTODIFF,
    "jit_compile_hessian": _NO_AUTODIFF,
    "jacobian": _NO_AUTODIFF,
    "hessian": _NO_AUTODIFF,
    "custom_gradient": _NO_AUTODIFF,
    "sparse_coo_tensor": _sparse_coo_tensor,
    "csr_matrix": _csr_matrix,
    "csc_matrix": _csc_matrix,
    "list_devices": _list_devices,
    "get_device": lambda x: _cpu(),
    "allocate_on_device": _allocate_on_device,
    "get_peak_memory": unsupported("numpy does not track peak memory"),
    "reset_peak_memory": unsupported("numpy does not track peak memory"),
})
