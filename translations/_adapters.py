"""Adapters shared by two or more translation tables."""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import operator
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
from dispatch.translations._composed._distributions import DISTRIBUTIONS

from dispatch.engine import merge_tables

# numpy.random.Generator methods that a table's own generator class provides (the
# distributions of translations/_composed/_distributions.py last)
RANDOM_METHODS = (
    "random",
    "normal",
    "uniform",
    "standard_normal",
    "integers",
    "permutation",
    "choice",
    "exponential",
    "gamma",
    "beta",
    "poisson",
    "binomial",
    *DISTRIBUTIONS,
)


def merge_topics(*topics: ModuleType) -> dict[str, Any]:
    """A library package's ``TABLE``: the ``TABLE`` of each topic module, merged by
    ``merge_tables``, which refuses a name defined in two topics and names both."""
    return merge_tables(*(t.TABLE for t in topics),
                        names=tuple(t.__name__.rpartition(".")[2] for t in topics))


def stateful_random(holder: list, methods: tuple[str, ...] = RANDOM_METHODS) -> dict[str, Callable]:
    """Table entries for numpy's module-level ``random.*`` functions.

    ``holder[0]`` is the table's generator object, with numpy's ``Generator``
    methods; ``random.seed`` replaces it, so every draw looks it up anew.
    Also gives the legacy spellings ``random.rand``, ``random.randn`` and
    ``random.randint``.
    """

    def drawing(method: str) -> Callable:
        def draw(*args: Any, **kwargs: Any) -> Any:
            return getattr(holder[0], method)(*args, **kwargs)

        draw.__name__ = draw.__qualname__ = f"random_{method}"
        # the generator's keywords (``do`` gives a float draw the dtype and device of
        # a like= array where the draw takes them)
        with contextlib.suppress(TypeError, ValueError, AttributeError):
            draw.__signature__ = inspect.signature(getattr(holder[0], method))  # type: ignore[attr-defined]
        return draw

    def rand(*shape: int) -> Any:
        # no shape: numpy's size=None (a float on numpy, a 0-d array elsewhere)
        return holder[0].random(shape or None)

    def randn(*shape: int) -> Any:
        return holder[0].standard_normal(shape or None)

    def randint(low: Any, high: Any = None, size: Any = None, dtype: Any = "int64") -> Any:
        return holder[0].integers(low, high, size, dtype=dtype)

    entries = {f"random.{m}": drawing(m) for m in methods if m not in DOCUMENTED_DRAWS}
    for m in methods:
        if m in DOCUMENTED_DRAWS:  # numpy has no module-level function of these
            fn = DOCUMENTED_DRAWS[m]
            bound = functools.partial(fn, holder)
            functools.update_wrapper(bound, fn)
            del bound.__wrapped__  # its signature is the call's, without ``holder``
            entries[f"random.{m}"] = bound
    entries.update({"random.rand": rand, "random.randn": randn, "random.randint": randint})
    return entries


def random_integers(holder: list, low: Any, high: Any = None, size: Any = None,
                    dtype: Any = None, endpoint: bool = False, **kwargs: Any) -> Any:
    """Random integers from ``[low, high)`` (``[low, high]`` with ``endpoint``), drawn
    from the library's generator (``random.seed``): numpy's ``Generator.integers``.

    With ``high`` None the range is ``[0, low)``; ``low`` and ``high`` may be arrays
    (broadcast against ``size``). ``dtype`` None takes the generator's default, int64
    (on jax without 64-bit mode, int32). Other keywords go to the library's generator
    (torch's ``device=``).

    Examples
    --------
    >>> from dispatch import do
    >>> do("random.seed", 0, like="numpy")
    >>> do("random.integers", 10, size=5, like="numpy")
    array([8, 6, 5, 2, 3])
    >>> do("random.integers", 1, 6, size=(2, 3), endpoint=True, like="numpy").shape
    (2, 3)
    """
    # holder[0]: the table's generator, bound by stateful_random
    if dtype is not None:
        kwargs["dtype"] = dtype
    return holder[0].integers(low, high, size, endpoint=endpoint, **kwargs)


# numpy before 2.5 gives eig/eigvals of a real matrix as real arrays when every
# eigenvalue is real; numpy 2.5 gives complex arrays always. The tables of libraries
# whose eig is always complex follow the installed numpy (read once, here).
NUMPY_REAL_EIG = np.linalg.eigvals(np.eye(1)).dtype.kind == "f"

# scipy.special functions whose implementation in scipy (and in cupyx.scipy, which
# mirrors it) beats the composed fallback
SCIPY_SPECIAL_NATIVE = "entr erfcx log_ndtr multigammaln ndtr polygamma psi xlog1py"


def native_entries(names: str, prefix: str = "") -> dict[str, Any]:
    """``NATIVE`` table entries for the space-separated ``names``, each after
    ``prefix``: the library's own function of that name beats the composed fallback.

    >>> sorted(native_entries("erf expit", "scipy.special."))
    ['scipy.special.erf', 'scipy.special.expit']
    """
    from dispatch.engine import NATIVE

    return dict.fromkeys((prefix + n for n in names.split()), NATIVE)


def random_permuted(holder: list, x: Any, *, axis: Any = None, out: None = None) -> Any:
    """A copy of ``x`` shuffled independently along ``axis`` (each slice in its own
    order; None: the flattened array), drawn from the library's generator
    (``random.seed``): numpy's ``Generator.permuted``. ``out=`` (numpy's in-place
    output) is refused.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> do("random.seed", 0, like="numpy")
    >>> rows = do("random.permuted", np.arange(6).reshape(2, 3), axis=1)
    >>> np.sort(rows, axis=1)
    array([[0, 1, 2],
           [3, 4, 5]])
    """
    # holder[0]: the table's generator, bound by stateful_random
    return holder[0].permuted(x, axis=axis, out=out)


def random_multivariate_hypergeometric(holder: list, colors: Any, nsample: int,
                                       size: Any = None, method: str = "marginals") -> Any:
    """Counts of each colour in ``nsample`` draws without replacement from an urn of
    ``colors[i]`` items of colour ``i`` (shape ``size + (len(colors),)``, int64), from
    the library's generator (``random.seed``): numpy's
    ``Generator.multivariate_hypergeometric``.

    Examples
    --------
    >>> from dispatch import do
    >>> do("random.seed", 0, like="numpy")
    >>> counts = do("random.multivariate_hypergeometric", [4, 2, 5], 6, size=3, like="numpy")
    >>> counts.shape, counts.sum(axis=1).tolist()
    ((3, 3), [6, 6, 6])
    """
    return holder[0].multivariate_hypergeometric(colors, nsample, size, method=method)


# the Generator methods numpy has no module-level function of: adapters with a
# docstring (the function reference documents them), bound by stateful_random
DOCUMENTED_DRAWS: dict[str, Callable] = {
    "integers": random_integers,
    "permuted": random_permuted,
    "multivariate_hypergeometric": random_multivariate_hypergeometric,
}


# float type -> (mantissa bits, exponent bits, the bias that puts a mantissa in [0.5, 1),
# the exponent of the smallest subnormal, the integer type of the same width)
_FLOAT_BITS = {
    np.dtype("float32"): (23, 8, 126, -149, np.int32),
    np.dtype("float64"): (52, 11, 1022, -1074, np.int64),
}


def frexp_from_bits(x: Any, xp: ModuleType, bitcast: Callable) -> tuple[Any, Any]:
    """numpy's ``frexp`` of the float array ``x`` (float16, float32 or float64) read
    from its bits, for libraries whose float arithmetic loses subnormal numbers (XLA's
    CPU kernels flush them to zero; cupy's arithmetic loses them too). ``xp`` is the
    library's numpy-like namespace (``where``), ``bitcast(v, dtype)`` reinterprets the
    bits of ``v`` as ``dtype``.

    Examples
    --------
    >>> m, e = frexp_from_bits(np.array([8.0, -0.375, 5e-324]), np, lambda v, t: v.view(t))
    >>> m.tolist(), e.tolist()
    ([0.5, -0.75, 0.5], [4, -1, -1073])
    """
    if np.dtype(x.dtype) not in _FLOAT_BITS:  # float16 values and mantissas are float32
        m, e = frexp_from_bits(x.astype(np.float32), xp, bitcast)
        return m.astype(x.dtype), e
    nbits, ebits, bias, tiny, itype = _FLOAT_BITS[np.dtype(x.dtype)]
    full = (1 << ebits) - 1
    # numpy scalars of the integer type: 1 << 63 overflows a Python int's conversion
    sign_bit = itype(1) << itype(nbits + ebits)
    frac_mask = itype((1 << nbits) - 1)
    biased = itype(bias) << itype(nbits)

    def parts(v: Any) -> tuple[Any, Any, Any]:
        bits = bitcast(v, itype)
        return bits & sign_bit, (bits >> nbits) & full, bits & frac_mask

    def mantissa(sign: Any, frac: Any) -> Any:
        return bitcast(sign | frac | biased, x.dtype)

    sign, field, frac = parts(x)
    normal = (field > 0) & (field < full)
    subnormal = (field == 0) & (frac > 0)
    # a subnormal is frac * 2**tiny, and frac as a float is a normal number
    _, f_field, f_frac = parts(frac.astype(x.dtype))
    m = xp.where(normal, mantissa(sign, frac), xp.where(subnormal, mantissa(sign, f_frac), x))
    e = xp.where(normal, field - bias, xp.where(subnormal, f_field - bias + tiny, 0))
    return m, e.astype(np.int32)


def linspace_dtype(start: Any, stop: Any, num: int, numpy_dtype: Callable = np.dtype) -> Any:
    """numpy's dtype of ``linspace(start, stop, num)`` with no ``dtype``: the promotion
    of the endpoints with a float, Python numbers weak (float32 endpoints stay float32).
    ``numpy_dtype`` turns a library's dtype into numpy's.

    >>> linspace_dtype(np.float32(0), 1, 5), linspace_dtype(0, 1, 5)
    (dtype('float32'), dtype('float64'))
    """
    parts = [numpy_dtype(x.dtype) if hasattr(x, "dtype") else x for x in (start, stop)]
    return np.result_type(*parts, float(num))


def default_rng(cls: type) -> Callable:
    """``random.default_rng`` for a table's generator class ``cls``: as in numpy, a
    generator passed as the seed is returned itself, not reseeded."""

    def make(seed: Any = None) -> Any:
        return seed if isinstance(seed, cls) else cls(seed)

    make.__name__ = make.__qualname__ = "default_rng"
    make.__doc__ = f"A {cls.__name__} seeded with ``seed`` (a {cls.__name__} is returned as is)."
    return make


# scipy.special's ufuncs (zeta: a Python wrapper of two): they apply to any array that
# implements ``__array_ufunc__``, dask's block by block and lazily, pydata sparse's on
# the stored values (f(0) != 0 becoming the fill value). polygamma and multigammaln are
# not ufuncs (scipy's call numpy.asarray): those are composed.
SPECIAL_UFUNCS = (
    "erf erfc erfinv gammaln digamma xlogy expit logit entr erfcx i0 i0e i1 i1e j0 j1 k0 "
    "k0e k1 k1e log_ndtr ndtr ndtri psi xlog1py y0 y1 zeta gammainc gammaincc"
).split()


def special_ufuncs() -> dict[str, Callable]:
    """Table entries ``scipy.special.<name>`` of :data:`SPECIAL_UFUNCS`: scipy's own
    functions, for a library whose arrays implement ``__array_ufunc__`` (dask, sparse)."""
    import scipy.special as sc

    return {f"scipy.special.{n}": getattr(sc, n) for n in SPECIAL_UFUNCS}


def ravel_order(order: Any) -> str:
    """numpy's ``order`` argument of ``ravel`` as 'C', 'F', 'A' or 'K' (None is 'C';
    lower case is accepted, as numpy does); anything else is numpy's ValueError."""
    name = "C" if order is None else str(order).upper() if isinstance(order, str) else order
    if name not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return name


def argnums(wrt: Any) -> tuple[tuple[int, ...], bool]:
    """Argument indices to differentiate and whether ``wrt`` was a single int."""
    if isinstance(wrt, (int, np.integer)):
        return (int(wrt),), True
    return tuple(int(i) for i in wrt), False


def pad_index(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """Host indices into an axis of length ``n`` that numpy's ``pad`` in ``mode``
    ('edge', 'wrap', 'symmetric' or 'reflect') reads, ``before`` and ``after`` it:
    taking them along the axis pads it, for widths past the axis's length too (numpy
    repeats the pattern).

    Examples
    --------
    >>> pad_index(3, 2, 4, "wrap").tolist()
    [1, 2, 0, 1, 2, 0, 1, 2, 0]
    >>> pad_index(3, 2, 2, "reflect").tolist()
    [2, 1, 0, 1, 2, 1, 0]
    """
    i = np.arange(-before, n + after)
    if mode == "edge":
        return np.clip(i, 0, n - 1)
    if mode == "wrap":
        return i % n
    if mode == "symmetric":
        i = i % (2 * n)
        return np.where(i >= n, 2 * n - 1 - i, i)
    if n == 1:
        return np.zeros_like(i)
    i = i % (2 * (n - 1))
    return np.where(i >= n, 2 * (n - 1) - i, i)


def take_mode(mode: Any) -> str:
    """numpy's ``mode`` of ``take`` (None is 'raise'); anything else is numpy's error."""
    if mode is None:
        return "raise"
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    return mode


def take_index(indices: Any, n: int, axis: int, mode: Any) -> np.ndarray:
    """Host indices of numpy's ``take`` along an axis of length ``n``, made
    non-negative: wrapped ('wrap'), clipped to ``[0, n)`` ('clip', which disables
    negative indices, as numpy), or checked ('raise', numpy's default), with numpy's
    ``IndexError`` for an index outside ``[-n, n)``."""
    mode = take_mode(mode)
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iub":
        idx = idx.astype(np.intp, casting="safe")  # numpy's TypeError for float indices
    idx = idx.astype(np.int64)
    if n == 0 and idx.size:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == "wrap":
        return idx % n if n else idx
    if mode == "clip":
        return np.clip(idx, 0, n - 1) if n else idx
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise IndexError(f"index {idx[bad][0]} is out of bounds for axis {axis} with size {n}")
    return np.where(idx < 0, idx + n, idx)


def split_slices(n: int, indices_or_sections: Any, name: str = "split") -> list[slice]:
    """The pieces of numpy's ``split`` (or ``array_split``: ``name``) of an axis of
    length ``n``, as slices of that axis; numpy's ValueError for a number of sections
    that is not positive, or (``split``) that does not divide ``n``. Split points are
    Python slice bounds, as in numpy: a negative one counts from the end."""
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        if name == "split" and n % sections:
            raise ValueError("array split does not result in an equal division")
        q, r = divmod(n, sections)
        points = np.cumsum([0] + [q + 1] * r + [q] * (sections - r)).tolist()
    else:
        points = [0, *(operator.index(i) for i in indices_or_sections), n]
    return [slice(start, stop) for start, stop in itertools.pairwise(points)]


_EINSUM_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def einsum_subscripts(subscripts: Any, operands: tuple) -> tuple[str, tuple]:
    """numpy's ``einsum`` arguments as ``(subscripts, operands)`` whichever form they
    take, with the output spelled out: the interleaved form ``einsum(a, [0, 1], b,
    [1, 2], [0, 2])`` (each operand followed by its axes' integer labels, ``...``
    allowed, then optionally the output's) in letters, for libraries whose einsum
    takes a string only; and numpy's implicit output (``...`` first, then the labels
    used once, in the order of their codes), which tensorflow's einsum does not infer
    where there is an ellipsis.

    >>> einsum_subscripts(np.ones(2), ([0], np.ones(2), [0], []))[0]
    'a,a->'
    >>> einsum_subscripts("...ba,...ac", (np.ones((2, 2)), np.ones((2, 2))))[0]
    '...ba,...ac->...bc'
    """
    if isinstance(subscripts, str):
        return _einsum_explicit(subscripts), operands
    args = (subscripts, *operands)
    pairs = len(args) // 2

    def spell(labels: Any) -> str:
        out = []
        for label in labels:
            if label is Ellipsis:
                out.append("...")
            else:
                k = operator.index(label)
                if not 0 <= k < len(_EINSUM_LETTERS):
                    raise ValueError(f"einsum: subscript labels are integers in [0, 52), "
                                     f"got {label!r}")
                out.append(_EINSUM_LETTERS[k])
        return "".join(out)

    spec = ",".join(spell(args[2 * i + 1]) for i in range(pairs))
    if len(args) % 2:
        spec += "->" + spell(args[-1])
    return _einsum_explicit(spec), tuple(args[2 * i] for i in range(pairs))


def _einsum_explicit(spec: str) -> str:
    if "->" in spec:
        return spec
    labels = [c for c in spec if c.isalpha()]
    once = "".join(sorted(c for c in set(labels) if labels.count(c) == 1))
    return f"{spec}->{'...' if '...' in spec else ''}{once}"


def no_autodiff(f: Any, backend: str | None = None) -> Exception:
    """The error for ``gradient`` of a Python function on a library without autodiff.

    numpy's own ``gradient`` would take the function for a 0-d object array and
    return ``()``: a silent wrong result.
    """
    from dispatch.engine import UnsupportedError

    where = f"{backend!r} has" if backend else "numpy, dask and pydata sparse have"
    return UnsupportedError(
        f"gradient of a Python function ({getattr(f, '__name__', type(f).__name__)!r}) needs "
        f"automatic differentiation, which {where} none (numpy's gradient is the finite "
        "differences of an array of samples). Pass like='torch', like='jax' or "
        "like='tensorflow' to differentiate it, or an array to get finite differences."
    )


def first_output(out: Any) -> Any:
    """The value to differentiate: ``f``'s output, or the first entry of a tuple/list."""
    return out[0] if isinstance(out, (tuple, list)) else out


def functional_jacobian(f: Callable, argnums: tuple[int, ...], single: bool, get_output: bool,
                        transform: Callable, inexact: Callable) -> Callable:
    """The list's ``jacobian`` through a library's functional transform.

    ``transform`` is the library's ``grad`` (one reverse pass, a scalar ``f``) or
    ``jacrev`` (a Jacobian), called as ``transform(g, argnums=, has_aux=True)``, as
    jax's and torch.func's are; ``inexact(args, argnums)`` turns the arguments to
    differentiate into floats. The first output of ``f`` is differentiated, the whole
    output comes back with ``get_output``; ``grads`` is one array when ``single``.
    """

    def value_and_aux(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        out = f(*args, **kwargs)
        return first_output(out), out

    derivative = transform(value_and_aux, argnums=argnums, has_aux=True)

    @functools.wraps(f)
    def jacobian_of_f(*args: Any, **kwargs: Any) -> Any:
        grads, out = derivative(*inexact(args, argnums), **kwargs)
        grads = grads[0] if single else tuple(grads)
        return (out, grads) if get_output else grads

    return jacobian_of_f


def hessian_result(out: Any, g: Any, hess: Any, single: bool, get_output: bool,
                   get_gradient: bool) -> tuple:
    """What the list's ``hessian`` returns: ``(output, gradients, hessians)``, without
    the output or the gradients unless asked for; one gradient and one Hessian (no
    tuples) when ``single`` (an int ``wrt``). ``hess[i][j]`` is the block of the
    arguments ``i`` and ``j``."""
    result: tuple = (out,) if get_output else ()
    if get_gradient:
        result += (g[0] if single else tuple(g),)
    return (*result, hess[0][0] if single else tuple(hess))


def functional_hessian(f: Callable, argnums: tuple[int, ...], single: bool, get_output: bool,
                       get_gradient: bool, grad: Callable, jacobian: Callable,
                       inexact: Callable, xp: Any) -> Callable:
    """The list's ``hessian`` through a library's functional transforms.

    ``grad`` (jax's or torch.func's) differentiates the sum of ``f``'s first output;
    ``jacobian`` (``jacfwd`` or ``jacrev``) differentiates those gradients summed over
    the batch axis 0, which gives every batch entry's Hessian at once, since the
    entries are independent. Both are called as ``transform(g, argnums=, has_aux=True)``;
    ``inexact(args, argnums)`` turns the arguments to differentiate into floats, and
    ``xp`` (``jax.numpy`` or ``torch``) gives ``sum`` and ``moveaxis``. Blocks have
    shape (batch, *args[i].shape[1:], *args[j].shape[1:]); see :func:`hessian_result`.
    """

    @functools.wraps(f)
    def hessian_of_f(*args: Any, **kwargs: Any) -> tuple:
        args = inexact(args, argnums)
        k = len(argnums)

        def loss(*xs: Any) -> tuple[Any, Any]:
            full = list(args)
            for i, x in zip(argnums, xs, strict=True):
                full[i] = x
            out = f(*full, **kwargs)
            return xp.sum(first_output(out)), out

        grad_of_loss = grad(loss, argnums=tuple(range(k)), has_aux=True)

        def summed_grads(*xs: Any) -> tuple[tuple, tuple]:
            g, out = grad_of_loss(*xs)
            return tuple(gi.sum(0) for gi in g), (g, out)

        jac = jacobian(summed_grads, argnums=tuple(range(k)), has_aux=True)
        raw, (g, out) = jac(*(args[i] for i in argnums))
        hess = tuple(
            tuple(xp.moveaxis(raw[i][j], args[argnums[i]].ndim - 1, 0) for j in range(k))
            for i in range(k)
        )
        return hessian_result(out, g, hess, single, get_output, get_gradient)

    return hessian_of_f


class _Capsule:
    """A bare DLPack capsule of host memory with the protocol methods that
    ``numpy.from_dlpack`` (jax's, mlx's) want; handed over as it is."""

    def __init__(self, capsule: Any):
        self._capsule = capsule

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None,
                   dl_device: Any = None, copy: Any = None) -> Any:
        # the capsule's own version is what it is (a consumer reads older ones too); a
        # copy, a stream or another device cannot be made of a capsule made elsewhere
        if copy or stream is not None or dl_device not in (None, (1, 0)):
            raise BufferError("a bare DLPack capsule is host memory handed over as it is: "
                              f"copy={copy!r}, stream={stream!r}, dl_device={dl_device!r}")
        return self._capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)  # kDLCPU: a capsule names no device, so it is taken as host memory


def host_from_dlpack(x: Any, device: Any = None, copy: Any = None) -> np.ndarray:
    """``numpy.from_dlpack`` for host libraries without one (dask, pydata sparse):
    an object with ``__dlpack__`` (any library's array) or a bare capsule (the
    ``to_dlpack`` of the method list, taken as host memory)."""
    from dispatch.translations._composed.devices import device_ref

    if not hasattr(x, "__dlpack__"):
        if type(x).__name__ != "PyCapsule":
            raise TypeError(f"from_dlpack needs a DLPack capsule or array, got {type(x).__name__}")
        out = np.from_dlpack(_Capsule(x), device=device_ref(device))
        return out.copy() if copy else out
    return np.from_dlpack(x, device=device_ref(device), copy=copy)


def real_float_entries(
    fast: dict[str, Callable], array_type: type, float_dtypes: Any
) -> dict[str, Callable]:
    """Table entries for the ML ops (activations, ``one_hot``...): the library's own
    kernel ``fast[name]`` on its arrays (instances of ``array_type``) whose dtype is in
    ``float_dtypes`` (tested inline: one Python call less), the composed fallback of
    the same name otherwise (it computes integers in ``float_type()``, refuses complex inputs
    and takes Python scalars). An op whose composed signature is ``(x)`` alone gets an
    entry of that signature (no argument packing on the hot path)."""
    from dispatch.translations._composed import elementwise, indexing, linalg, statistics

    modules = (elementwise, indexing, linalg, statistics)

    def unary(fn: Callable) -> bool:
        """Whether the composed signature is ``(x)`` alone."""
        return len(inspect.signature(fn).parameters) == 1

    def entry(name: str, kernel: Callable) -> Callable:
        fallback = next(getattr(m, name) for m in modules if hasattr(m, name))

        def unary_op(x: Any) -> Any:
            if isinstance(x, array_type) and x.dtype in float_dtypes:  # type: ignore[attr-defined]
                return kernel(x)
            return fallback(x)

        def any_op(x: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(x, array_type) and x.dtype in float_dtypes:  # type: ignore[attr-defined]
                return kernel(x, *args, **kwargs)
            return fallback(x, *args, **kwargs)

        # no argument packing on the hot path of an op whose signature is (x)
        ml_op: Callable = unary_op if unary(fallback) else any_op
        ml_op.__name__ = ml_op.__qualname__ = name
        ml_op.__doc__ = fallback.__doc__
        return ml_op

    return {name: entry(name, kernel) for name, kernel in fast.items()}


# control flow and transforms: translations/_control.py (re-exported here)
from dispatch.translations._control import (  # noqa: E402, F401
    branch_index,
    check_carry,
    check_primals,
    require_callable,
    tree_structure,
)


def basic_block(shape: tuple, starts: Any, sizes: Any) -> tuple | None:
    """The basic index (a tuple of slices) of the block of shape ``sizes`` at ``starts``
    in an array of shape ``shape``, where the starts are Python (or numpy) ints in a
    list or tuple and the block fits; None otherwise (``slice``, ``slice_update``: the
    composed path then checks, or takes traced starts).

    Examples
    --------
    >>> basic_block((3, 4), (1, 2), (2, 2))
    (slice(1, 3, None), slice(2, 4, None))
    >>> basic_block((3, 4), (2, 2), (2, 2)) is None
    True
    """
    if not (type(starts) in (tuple, list) and len(starts) == len(sizes) == len(shape)):
        return None
    if len(shape) == 2:  # the common case, unrolled (a third of the loop's time)
        s0, s1 = starts
        n0, n1 = sizes
        if type(s0) is int and type(s1) is int and 0 <= s0 <= shape[0] - n0 \
                and 0 <= s1 <= shape[1] - n1:
            return slice(s0, s0 + n0), slice(s1, s1 + n1)
    block = []
    for s, n, d in zip(starts, sizes, shape, strict=True):
        if (type(s) is not int and not isinstance(s, np.integer)) or not 0 <= s <= d - n:
            return None
        block.append(slice(s, s + n))
    return tuple(block)


def view_by_bitcast(x: Any, shape: tuple, itemsize: int, dst: np.dtype, bitcast: Callable,
                    reshape: Callable) -> Any:
    """numpy's ``x.view(dst)`` (the last axis scaled by the ratio of the item sizes)
    from a library's bit-cast that adds a trailing axis when the size shrinks and
    removes one when it grows (``jax.lax.bitcast_convert_type``, ``tf.bitcast``);
    numpy's errors where the sizes do not fit.

    Examples
    --------
    >>> x = np.arange(2, dtype=np.int32)
    >>> view_by_bitcast(x, x.shape, 4, np.dtype(np.int16),
    ...                 lambda a: a.view(np.int16).reshape(*a.shape, 2), np.reshape)
    array([0, 0, 1, 0], dtype=int16)
    """
    size = dst.itemsize
    if itemsize == size:
        return bitcast(x)
    if not shape:
        raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize "
                         "is unchanged")
    n = shape[-1]
    if itemsize > size:
        return reshape(bitcast(x), (*shape[:-1], n * (itemsize // size)))
    if (n * itemsize) % size:
        raise ValueError("When changing to a larger dtype, its size must be a divisor of the "
                         "total size in bytes of the last axis of the array.")
    return bitcast(reshape(x, (*shape[:-1], n * itemsize // size, size // itemsize)))


def _is_no_axis(axis: Any) -> bool:
    return axis.__class__ in (tuple, list) and not axis


def empty_axes(fn: Callable, *, arrays: tuple[str, ...] = (), along: bool = False) -> Callable:
    """``fn`` (numpy's signature, a parameter named ``axis``) with numpy's reading of
    ``axis=()``: no axis at all.

    Some libraries read an empty tuple of axes as every axis (torch's reductions take
    an empty ``dim`` so). The call with ``axis=()`` becomes the same reduction over a
    new leading axis of length 1, which is numpy's answer with the reduction's own
    dtype rules (the sum of booleans is an integer, a variance is zero, an integer
    mean is inexact); ``keepdims`` then changes nothing, as in numpy. ``arrays``:
    other parameters that are shaped like the first (``average``'s ``weights``).
    ``along``: ``fn`` keeps the axis (``softmax``), so the new one is taken off again.
    Every other call goes straight to ``fn``.

    Examples
    --------
    >>> import numpy as np
    >>> def total(a, axis=None, keepdims=False):  # reads () as every axis, as torch
    ...     return np.sum(a, None if axis == () else axis, keepdims=keepdims)
    >>> total(np.ones((2, 3)), axis=()).shape
    ()
    >>> empty_axes(total)(np.ones((2, 3)), axis=(), keepdims=True).shape
    (2, 3)
    """
    names = list(inspect.signature(fn).parameters)
    at = names.index("axis")
    keep = names.index("keepdims") if "keepdims" in names else None
    others = [(names.index(p), p) for p in arrays]

    def put(args: list, kwargs: dict, i: int, name: str, value: Any) -> None:
        if len(args) > i:
            args[i] = value
        else:
            kwargs[name] = value

    @functools.wraps(fn)
    def no_axis(*args: Any, **kwargs: Any) -> Any:
        if not kwargs and len(args) <= at:  # no axis at all: the common call, first
            return fn(*args)
        if not _is_no_axis(args[at] if len(args) > at else kwargs.get("axis")):
            return fn(*args, **kwargs)
        args_, kwargs_ = list(args), dict(kwargs)
        args_[0] = args[0][None]
        put(args_, kwargs_, at, "axis", 0)
        if keep is not None and (len(args) > keep or "keepdims" in kwargs):
            put(args_, kwargs_, keep, "keepdims", False)
        for i, name in others:
            value = args[i] if len(args) > i else kwargs.get(name)
            if value is not None and getattr(value, "ndim", 0):
                put(args_, kwargs_, i, name, value[None])
        out = fn(*args_, **kwargs_)
        return out[0] if along else out

    return no_axis


def numpy_result_type(name: str) -> type:
    """The class of numpy's result of ``name`` (a named tuple of numpy 2: ``SlogdetResult``,
    ``UniqueAllResult``...), read from numpy itself, so that it follows numpy's version."""
    probe = {
        "linalg.slogdet": lambda: np.linalg.slogdet(np.eye(1)),
        "linalg.qr": lambda: np.linalg.qr(np.eye(1)),
        "linalg.svd": lambda: np.linalg.svd(np.eye(1)),
        "linalg.eigh": lambda: np.linalg.eigh(np.eye(1)),
        "linalg.eig": lambda: np.linalg.eig(np.eye(1)),
        "unique_all": lambda: np.unique_all(np.zeros(1)),
        "unique_counts": lambda: np.unique_counts(np.zeros(1)),
        "unique_inverse": lambda: np.unique_inverse(np.zeros(1)),
    }[name]
    return type(probe())


def numpy_container(fn: Callable, kind: type, only: Callable | None = None) -> Callable:
    """``fn`` with its sequence of results in numpy's container ``kind``: ``tuple``
    (``meshgrid``, ``broadcast_arrays``), ``list`` (``split``) or one of numpy's named
    tuples (:func:`numpy_result_type`). A single result (``svd`` without ``u`` and
    ``vh``) is left as it is, and so is any result of a call for which
    ``only(args, kwargs)`` is False (``qr``'s ``mode='raw'``, a plain tuple in numpy).

    Examples
    --------
    >>> pair = numpy_container(lambda x: [x, x + 1], tuple)
    >>> pair(1)
    (1, 2)
    """
    make = getattr(kind, "_make", kind)

    @functools.wraps(fn)
    def in_numpy_container(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        if not isinstance(out, (list, tuple)) or (only is not None and not only(args, kwargs)):
            return out
        return make(out)

    return in_numpy_container


def qr_factors(args: tuple, kwargs: dict) -> bool:
    """Whether a ``linalg.qr`` call returns numpy's ``QRResult`` (modes 'reduced' and
    'complete'; 'raw' is a plain tuple)."""
    mode = args[1] if len(args) > 1 else kwargs.get("mode", "reduced")
    return mode in ("reduced", "complete")


def native_byte_order(a: np.ndarray) -> np.ndarray:
    """``a`` in the machine's byte order (numpy's values): torch, jax, mlx and paddle
    read native byte order only."""
    return a if a.dtype.isnative else a.astype(a.dtype.newbyteorder("="))


# numpy's other spellings of its ufuncs (the array API's names and numpy 2's aliases),
# each with the ufunc it names: a table that builds its ufuncs once maps these onto them
UFUNC_SPELLINGS = {
    "abs": "absolute", "mod": "remainder", "true_divide": "divide", "pow": "power",
    "conj": "conjugate", "bitwise_not": "invert", "bitwise_invert": "invert",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh",
    "asinh": "arcsinh", "atanh": "arctanh", "atan2": "arctan2",
}
