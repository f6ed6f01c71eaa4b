"""numpy: the reference. Almost every name resolves natively; numpy arrays are
constants in calls that another library decides (PRIORITY -1)."""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np
from dispatch.translations import _numpy_ml, _safety
from dispatch.translations._adapters import (
    SCIPY_SPECIAL_NATIVE,
    host_from_dlpack,
    native_entries,
    no_autodiff,
    real_float_entries,
    stateful_random,
)
from dispatch.translations._composed._bound import backend_entries, no_autodiff_entries
from dispatch.translations._composed._scatter import _check_mode
from dispatch.translations._composed.devices import device_ref
from dispatch.translations._numpy_methods import (
    _NO_AUTODIFF,
    _allocate_on_device,
    _complex,
    _copy,
    _csc_matrix,
    _csr_matrix,
    _get_device,
    _is_module,
    _jit_compile,
    _list_devices,
    _prefers_channels_last,
    _requires_fixed_shapes_when_tracing,
    _sparse_coo_tensor,
    _stop_gradient,
)

from dispatch.engine import NATIVE, alias, merge_tables, unsupported

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


class _Generator(np.random.Generator):
    """numpy's ``Generator``, with the ``dtype=`` keyword of ``normal`` and ``uniform``
    that the other libraries' generators take (numpy's own takes it on
    ``standard_normal``, ``random`` and ``integers`` only)."""

    def __init__(self, seed=None):
        # the bit generator of np.random.default_rng(seed): the same draws
        super().__init__(np.random.default_rng(seed).bit_generator)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None):
        out = super().normal(loc, scale, size)
        return out if dtype is None else np.asarray(out, dtype=dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None):
        out = super().uniform(low, high, size)
        return out if dtype is None else np.asarray(out, dtype=dtype)

    def permuted(self, x, *, axis=None, out=None):
        # numpy's out= is written in place: refused, as on every library
        if out is not None:
            raise TypeError("permuted: out= is not supported (it writes in place); the "
                            "shuffled copy is returned")
        return super().permuted(x, axis=axis)


# one generator per library, so that ``random.seed`` makes every draw reproducible
# without touching numpy's legacy global state (numpy's own module-level draws are
# methods of that state, docs/safety.md)
_RNG = [_Generator()]


def _seed(seed=None):
    _RNG[0] = _Generator(seed)


def _gradient(f, *varargs, **kwargs):
    # numpy's gradient takes a Python function for a 0-d object array and returns ()
    if callable(f) and not isinstance(f, np.ndarray):
        raise no_autodiff(f, "numpy")
    return np.gradient(f, *varargs, **kwargs)


def _astype(x, dtype, copy=True, *, device=None):
    out = np.asanyarray(x).astype(dtype, copy=copy)  # a subclass stays one, as in numpy
    return out if device is None else _to_device(out, device)


def _to_device(x, device=None):
    """``x`` on ``device``: a device name (``'cpu'``, ``'cuda:1'``) or the library's
    device object; None leaves ``x`` where it is.

    numpy arrays live on the CPU: ``x`` is returned as it is for None or ``'cpu'``,
    and any other device raises ``ValueError``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> do("to_device", np.ones(2), "cpu")
    array([1., 1.])
    """
    device = device_ref(device)
    if device not in (None, "cpu"):
        raise ValueError(f"numpy arrays live on the CPU; cannot move to {device!r}")
    return x


def _into(out, result):
    """``result`` written into numpy's ``out=`` as its fft functions write (their
    ValueError for a buffer of another shape, their same_kind casting rule)."""
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError("output array has wrong shape.")
    np.copyto(out, result, casting="same_kind")
    return out


# numpy 2.4's fft.ifft2, fft.irfft2 and fft.hfft take out= and pass out=None on: the
# result is a new array and the buffer stays as it was (numpy/numpy#30909, fixed by
# numpy/numpy#30910 for 2.5). Here the result is written into out as numpy documents.
def _ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _into(out, np.fft.ifft2(a, s, axes, norm))


def _irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _into(out, np.fft.irfft2(a, s, axes, norm))


def _hfft(a, n=None, axis=-1, norm=None, out=None):
    return _into(out, np.fft.hfft(a, n, axis, norm))


_FFT_OUT = {"fft.ifft2": _ifft2, "fft.irfft2": _irfft2, "fft.hfft": _hfft} if (
    np.lib.NumpyVersion(np.__version__) < "2.5.0") else native_entries("fft.hfft")


def _householder_product(a, tau):
    """The matrix with orthonormal columns that Householder reflectors make (LAPACK's
    ``orgqr``, ``torch.linalg.householder_product``).

    Parameters
    ----------
    a : array, shape (..., m, n)
        Column ``i`` below the diagonal holds the reflector ``v_i`` (its entry ``i``
        is an implicit 1), as in the ``mode='raw'`` output of ``scipy.linalg.qr``.
    tau : array, shape (..., k)
        The reflectors' scale factors, ``k <= n``.

    Returns
    -------
    array, shape (..., m, n)
        The first ``n`` columns of ``(I - tau_0 v_0 v_0^H) ... (I - tau_{k-1} v_{k-1}
        v_{k-1}^H)``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from dispatch import do
    >>> a = np.array([[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]])
    >>> (h, tau), r = scipy.linalg.qr(a, mode="raw")
    >>> q = do("linalg.householder_product", h, tau)
    >>> q.round(4)
    array([[-0.8944,  0.4082],
           [-0.4472, -0.8165],
           [ 0.    , -0.4082]])
    >>> bool(np.allclose(q @ r[:2], a))
    True
    """
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


# ---------------------------------------------------------------- kernels
# flat bincount / ufunc.at kernels on copies: the composed sort-based ones are
# several times slower on numpy


def _bincount_fixed_numpy(x, weights, bins, x_sorted=False):
    # np.bincount grows past `bins` for large values (cut off) and rejects
    # negative ones (filtered, on the slow path only); complex weights are split
    x = np.asarray(x)
    if weights is not None:
        weights = np.asarray(weights)
        if weights.dtype.kind == "c":
            re = _bincount_fixed_numpy(x, weights.real, bins)
            im = _bincount_fixed_numpy(x, weights.imag, bins)
            return (re + 1j * im).astype(weights.dtype)
    try:
        out = np.bincount(x, weights, minlength=bins)
    except ValueError:  # negative values
        keep = x >= 0
        out = np.bincount(x[keep], None if weights is None else weights[keep], minlength=bins)
    out = out[:bins]
    if weights is None:
        return out.astype(np.int64, copy=False)
    dt = np.int64 if weights.dtype == bool else weights.dtype
    return out.astype(dt, copy=False)


def _scatter_1d_scalar_numpy(base_grid, indices, values, mode="update"):
    # ufunc.at has a fast 1-D path since numpy 1.25 (as fast as bincount) and
    # keeps the dtype; it works in place, so on a copy
    _check_mode(mode)
    out = np.array(base_grid, copy=True)
    values = np.asarray(values).astype(out.dtype, copy=False)
    if mode == "update":
        out[indices] = values
    elif mode == "add":
        (np.logical_or if out.dtype == bool else np.add).at(out, indices, values)
    else:
        (np.maximum if mode == "max" else np.minimum).at(out, indices, values)
    return out


# the ML ops of keras.ops (docs/vocabulary.md, "ML ops") on float arrays: the plain numpy
# expression of the composed formula, without its do() calls (a composed op must be as
# fast as the obvious numpy expression); other inputs take the composed path
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _elu(x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    negative = np.expm1(np.minimum(x, 0.0))
    return np.where(x > 0, x, negative if alpha == 1.0 else alpha * negative)


_SPECIAL: list = []  # scipy.special, imported at the first call that needs it


def _special() -> Any:
    if not _SPECIAL:
        try:
            import scipy.special as special
        except ImportError:
            special = None
        _SPECIAL.append(special)
    return _SPECIAL[0]


def _silu(x: np.ndarray) -> np.ndarray:
    if (special := _special()) is not None:
        return x * special.expit(x)
    e = np.exp(-np.abs(x))  # never overflows; sigmoid = 1/(1+e) or e/(1+e)
    return x * np.where(x >= 0, 1.0, e) / (1.0 + e)


def _scipy_or_composed(name: str) -> Any:
    # an ML op that needs scipy.special's kernels: without scipy, the composed one
    from dispatch.translations._composed import elementwise

    composed_op = getattr(elementwise, name)

    def op(x: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        if (special := _special()) is None:
            return composed_op(x, *args, **kwargs)
        return _SCIPY_OPS[name](special, x, *args, **kwargs)

    return op


def _gelu(special: Any, x: np.ndarray, approximate: bool = False) -> np.ndarray:
    if approximate:
        return 0.5 * x * (1.0 + np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)))
    return 0.5 * x * (1.0 + special.erf(x * _SQRT_HALF))


def _glu(special: Any, x: np.ndarray, axis: int = -1) -> np.ndarray:
    if x.shape[axis] % 2:  # the composed one raises the ValueError
        from dispatch.translations._composed.elementwise import glu

        return glu(x, axis)
    a, b = np.split(x, 2, axis=axis)
    return a * special.expit(b)


_SCIPY_OPS = {
    "gelu": _gelu,
    "softmax": lambda special, x, axis=-1: special.softmax(x, axis=axis),
    "log_softmax": lambda special, x, axis=-1: special.log_softmax(x, axis=axis),
    "glu": _glu,
}
_SQRT_HALF = float(np.sqrt(0.5))
_SQRT_2_OVER_PI = float(np.sqrt(2.0 / np.pi))


def _hard_sigmoid(x: np.ndarray) -> np.ndarray:
    return np.clip(x + 3.0, 0.0, 6.0) / 6.0


_ML_OPS = real_float_entries(
    {
        "relu": lambda x: np.maximum(x, 0.0),
        "relu6": lambda x: np.clip(x, 0.0, 6.0),
        "silu": _silu,
        "elu": _elu,
        "selu": lambda x: _SELU_SCALE * _elu(x, _SELU_ALPHA),
        "leaky_relu": lambda x, negative_slope=0.2: np.where(x >= 0, x, negative_slope * x),
        "log_sigmoid": lambda x: np.minimum(x, 0.0) - np.log1p(np.exp(-np.abs(x))),
        "hard_sigmoid": _hard_sigmoid,
        "hard_silu": lambda x: x * _hard_sigmoid(x),
        "softsign": lambda x: x / (1.0 + np.abs(x)),
        "rsqrt": lambda x: 1.0 / np.sqrt(x),
        **{name: _scipy_or_composed(name) for name in _SCIPY_OPS},
    },
    np.ndarray,
    frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.longdouble)),
)


# the ML ops on indices, matrices and segments: numpy's expressions of the composed
# formulas where the input is what they take; the composed ones otherwise (and for errors)
@functools.cache
def _composed_op(module: str, name: str) -> Any:
    import importlib

    return getattr(importlib.import_module(f"dispatch.translations._composed.{module}"), name)


_REAL = frozenset(np.dtype(c) for c in "efdgbhilqBHILQ")  # real floats and integers
_UNSIGNED = {size: np.dtype(f"u{size}") for size in (1, 2, 4, 8)}  # by item size
_FLOATS = frozenset(np.dtype(c) for c in "efdg")


def _top_k(x: Any, k: int, sorted: bool = True) -> tuple[np.ndarray, np.ndarray]:
    if type(x) is np.ndarray and x.dtype in _REAL and x.dtype.kind != "u" and x.ndim \
            and 0 <= k <= x.shape[-1]:
        order = np.argsort(-x, axis=-1, kind="stable")[..., : int(k)]
        return np.take_along_axis(x, order, axis=-1), order
    return _composed_op("indexing", "top_k")(x, k, sorted)


def _one_hot(x: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> np.ndarray:
    if type(x) is np.ndarray and x.dtype.kind in "iu":
        dt = _composed_op("devices", "float_type")() if dtype is None else dtype
        out = (x[..., None] == _classes(int(num_classes))).astype(dt)
        return out if axis == -1 else np.moveaxis(out, -1, axis)
    return _composed_op("indexing", "one_hot")(x, num_classes, axis, dtype)


_CLASSES: dict[int, np.ndarray] = {}  # one_hot's arange(n) by n, read-only


def _classes(n: int) -> np.ndarray:
    classes = _CLASSES.get(n)
    if classes is None:
        classes = np.arange(n)
        classes.flags.writeable = False
        if len(_CLASSES) < 256:
            _CLASSES[n] = classes
    return classes


def _moments(x: Any, axes: Any, keepdims: bool = False) -> tuple[np.ndarray, np.ndarray]:
    if type(x) is np.ndarray and x.dtype in _FLOATS:
        mean = np.mean(x, axis=axes, keepdims=True)
        var = np.mean(np.square(x - mean), axis=axes, keepdims=keepdims)
        return (mean if keepdims else np.squeeze(mean, axis=axes)), var
    return _composed_op("statistics", "moments")(x, axes, keepdims)


def _normalize(x: Any, axis: int = -1, order: int = 2, epsilon: Any = None) -> np.ndarray:
    if type(x) is np.ndarray and x.dtype in _FLOATS and type(order) is int and order >= 1:
        eps = 1e-7 if epsilon is None else float(epsilon)
        if order == 2:
            norm = np.sqrt(np.sum(np.square(x), axis=axis, keepdims=True))
        else:
            norm = np.sum(np.abs(x) ** order, axis=axis, keepdims=True) ** (1.0 / order)
        return x / np.maximum(norm, eps)
    return _composed_op("statistics", "normalize")(x, axis, order, epsilon)


def _logdet(x: Any) -> Any:
    if type(x) is np.ndarray and x.dtype in _FLOATS:
        sign, logabsdet = np.linalg.slogdet(x)
        out = np.array(logabsdet)  # a copy, of logabsdet's dtype
        out[sign < 0] = np.nan
        out[sign == 0] = -np.inf
        return out[()]
    return _composed_op("linalg", "logdet")(x)


def _segment(name: str) -> Any:
    # segment_max/min/prod: ufunc.at into the empty segments' value (the lowest value,
    # the highest, 1); segment_sum: bincount in 1-D
    ufunc = {"segment_max": np.maximum, "segment_min": np.minimum,
             "segment_prod": np.multiply}.get(name)

    def fill_of(dtype: np.dtype) -> Any:
        ints = dtype.kind != "f"
        return {
            "segment_max": np.iinfo(dtype).min if ints else -np.inf,
            "segment_min": np.iinfo(dtype).max if ints else np.inf,
            "segment_prod": 1,
        }[name]

    def segment(data: Any, segment_ids: Any, num_segments: Any = None,
                sorted: bool = False) -> np.ndarray:
        if not (type(data) is np.ndarray and type(segment_ids) is np.ndarray
                and data.dtype in _REAL and segment_ids.dtype.kind in "iu" and data.ndim
                and segment_ids.shape == data.shape[:1]):
            return _composed_op("statistics", name)(data, segment_ids, num_segments, sorted)
        if num_segments is None:
            num_segments = int(segment_ids.max()) + 1 if segment_ids.size else 0
        n = int(num_segments)
        if name == "segment_sum" and data.ndim == 1 and data.dtype.kind == "f":
            # bincount, the fast 1-D sum: ids past n land past n (sliced off), a
            # negative id raises (then the ids are filtered as below)
            try:
                out = np.bincount(segment_ids, data, minlength=n)[:n]
                return out.astype(data.dtype, copy=False)
            except ValueError:
                pass
        # the largest id read as unsigned (negative ones become huge) tells whether
        # every id is in range: one reduction, no mask (a fifth of ufunc.at's time)
        if segment_ids.view(_UNSIGNED[segment_ids.dtype.itemsize]).max(initial=0) >= n:
            valid = (segment_ids >= 0) & (segment_ids < n)
            data, segment_ids = data[valid], segment_ids[valid]
        if ufunc is None:  # segment_sum
            if data.ndim == 1 and data.dtype.kind == "f":
                return np.bincount(segment_ids, data, minlength=n).astype(data.dtype)
            out = np.zeros((n, *data.shape[1:]), data.dtype)
            np.add.at(out, segment_ids, data)
            return out
        out = np.full((n, *data.shape[1:]) if data.ndim > 1 else n, fill_of(data.dtype),
                      data.dtype)
        ufunc.at(out, segment_ids, data)
        return out

    segment.__name__ = segment.__qualname__ = "_" + name
    return segment

# keras's layer ops (docs/vocabulary.md, "Neural-network layers"): numpy's expressions of
# the composed formulas for float arrays and the common keywords, the composed ones otherwise


TABLE = merge_tables(
    {
        "scatter_1d_scalar": _scatter_1d_scalar_numpy,
        "bincount_fixed": _bincount_fixed_numpy,
        "to_numpy": "asarray",
        "row_stack": "vstack",  # numpy 2.x's row_stack warns (deprecated alias)
        "get_item": operator.getitem,
        "from_numpy": "asarray",
        "astype": _astype,
        "cast": _astype,
        "to_device": _to_device,
        "from_dlpack": host_from_dlpack,  # also a bare capsule, and a ComputeDevice
        "to_backend_dtype": "dtype",
        "random.seed": _seed,
        "random.default_rng": NATIVE,
        "linalg.expm": "scipy.linalg.expm",
        "linalg.lu": "scipy.linalg.lu",
        "linalg.householder_product": _householder_product,
        "conj": NATIVE,
        "concat": alias("concatenate"),
        "gradient": _gradient,
        "complex": _complex,
        "stop_gradient": _stop_gradient,
    },
    # numpy's own beat the composed fallbacks of translations/_composed/ (reductions,
    # statistics, shape, indexing, signal, fft, linalg)
    native_entries(
        "column_stack convolve correlate interp linalg.tensorinv linalg.tensorsolve "
        "nanmax nanmin nanargmax nanargmin nancumsum nanprod nanvar nanstd average "
        "nancumprod cumulative_sum cumulative_prod vecdot matvec vecmat fabs "
        "intersect1d union1d setdiff1d setxor1d append insert delete trapezoid dsplit "
        "tril_indices_from triu_indices_from "
        "isfortran shares_memory may_share_memory iscomplex isreal real_if_close array_equiv "
        "iscomplexobj isrealobj isscalar iterable asanyarray ascontiguousarray "
        "asarray_chkfinite require fromfunction fromiter apply_along_axis apply_over_axes "
        "piecewise einsum_path "
        "unique_values unique_counts unique_inverse unique_all linalg.matrix_transpose "
        "linalg.outer linalg.tensordot linalg.trace linalg.vecdot linalg.cross linalg.diagonal "
        "linalg.matmul linalg.vector_norm linalg.matrix_norm "
        "partition argpartition lexsort sort_complex divmod modf frexp "
        "trim_zeros unwrap resize rollaxis ix_ diag_indices_from ravel_multi_index "
        "unravel_index bitwise_count block extract histogram_bin_edges packbits unpackbits "
        "histogramdd "
        "poly polyadd polysub polymul polydiv polyder polyint polyval polyfit roots vander "
        "quantile percentile nanquantile nanpercentile nanmedian digitize histogram histogram2d "
        "choose compress ediff1d isin matrix_transpose fft.ihfft "
        "linalg.svdvals linalg.cond scipy.linalg.lu_solve"
    ),
    # scipy.special: scipy.special's beat the composed fallbacks
    native_entries(SCIPY_SPECIAL_NATIVE, "scipy.special."),
    # numpy.testing's array comparisons (the rest of the module stays refused)
    _safety.assertions(
        "numpy.testing",
        "assert_allclose assert_array_equal assert_array_almost_equal assert_array_less "
        "assert_equal assert_almost_equal assert_approx_equal assert_array_almost_equal_nulp "
        "assert_array_max_ulp assert_string_equal",
    ),
    {  # the backend method list: numpy's own answers
        "prefers_channels_last": _prefers_channels_last,
        "requires_fixed_shapes_when_tracing": _requires_fixed_shapes_when_tracing,
        "copy": _copy,
        "variable": unsupported("numpy has no trainable variables (no automatic "
                                "differentiation)"),
        "module": unsupported("numpy has no neural-network modules"),
        "is_module": _is_module,
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
        "get_device": _get_device,
        "allocate_on_device": _allocate_on_device,
        "get_peak_memory": unsupported("numpy does not track peak memory"),
        "reset_peak_memory": unsupported("numpy does not track peak memory"),
    },
    backend_entries("numpy"),  # the list's methods written once, bound to numpy
    stateful_random(_RNG),  # random.normal, random.rand... drawn from _RNG[0]
    _ML_OPS,
    _numpy_ml.ACTIVATIONS,
    _numpy_ml.INDICES,
    _numpy_ml.SLICES,
    _numpy_ml.CASTS,
    _numpy_ml.MORE,
    _numpy_ml.NN,
    # keras's names of two activations: the same entries (docs/vocabulary.md)
    {"swish": _ML_OPS["silu"], "hard_swish": _ML_OPS["hard_silu"]},
    {
        "top_k": _top_k,
        "one_hot": _one_hot,
        "moments": _moments,
        "normalize": _normalize,
        "logdet": _logdet,
        "segment_sum": _segment("segment_sum"),
        "segment_max": _segment("segment_max"),
        "segment_min": _segment("segment_min"),
        "segment_prod": _segment("segment_prod"),
    },
    no_autodiff_entries("numpy"),  # jax's transforms (checkpoint: a pass-through)
    _FFT_OUT,
    names=("numpy", "native beats composed", "scipy.special", "testing", "method list", "bound",
           "stateful random", "ML ops", "more ML ops", "more ML ops on indices", "slices",
           "casts", "psnr and frames", "layers", "keras aliases", "ML ops on indices", "autodiff",
           "fft out"),
)
