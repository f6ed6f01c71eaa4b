"""Tracing a function: the ``do`` names the linear tracer implements, and
:func:`matrix_from_function`, which runs a function once on a tracer and
returns its matrix (as a ``scipy.sparse`` array, or the sparse type of the
arguments' library) and offset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from dispatch.lazy import _shapes
from dispatch.lazy._linear import (
    NonLinearError,
    _add,
    _astype,
    _bias_or_zeros,
    _combine,
    _const,
    _divide,
    _getitem,
    _identity,
    _is_array_like,
    _is_tracer,
    _movement,
    _multiply,
    _neg,
    _numpy,
    _scale,
)
from dispatch.lazy._linear_products import (
    _dot,
    _einsum,
    _inner,
    _kron,
    _matmul,
    _outer,
    _sum,
    _tensordot,
    _trace,
    _where,
    as_matrix,
)
from dispatch.translations import _vocabulary as vocabulary


def _joiner(name: str) -> Callable:
    fn = _numpy(name)

    def join(arrays: Sequence[Any], *args: Any, **kwargs: Any) -> Any:
        return _combine(name, list(arrays), lambda xs: fn(xs, *args, **kwargs))

    return join


def _sequence_movement(name: str) -> Callable:
    def op(*arrays: Any, **kwargs: Any) -> Any:
        if len(arrays) == 1:
            return _movement(name, (arrays[0],), kwargs)
        return [_movement(name, (a,), kwargs) for a in arrays]

    return op


MOVEMENT = [
    "reshape", "ravel", "transpose", "moveaxis", "swapaxes", "squeeze", "expand_dims",
    "flip", "fliplr", "flipud", "roll", "rot90", "broadcast_to", "tile", "repeat",
    "pad", "diagonal", "diag", "tril", "triu", "take", "take_along_axis", "split",
    "array_split", "hsplit", "vsplit", "copy",
]

JOINERS = ("concatenate", "concat", "stack", "hstack", "vstack", "dstack", "column_stack")

# do names -> implementations on tracers
OPS: dict[str, Callable] = {
    "add": _add,
    "subtract": lambda a, b: _add(a, _neg(b)),
    "multiply": _multiply,
    "divide": _divide,
    "true_divide": _divide,
    "negative": lambda a: _scale(a, -1),
    "positive": lambda a: a,
    "sum": lambda a, axis=None, dtype=None, keepdims=False: _sum(a, axis, dtype, keepdims),
    "mean": lambda a, axis=None, dtype=None, keepdims=False: _sum(a, axis, dtype, keepdims,
                                                                   mean=True),
    "matmul": _matmul,
    "dot": _dot,
    "tensordot": _tensordot,
    "einsum": _einsum,
    "inner": _inner,
    "outer": _outer,
    "kron": _kron,
    "trace": _trace,
    "where": _where,
    "astype": _astype,
    "getitem": _getitem,
    "asarray": lambda a, dtype=None: a if dtype is None else _astype(a, dtype),
    "real": lambda a: _real_only("real", a),
    "conj": lambda a: _real_only("conj", a),
    "conjugate": lambda a: _real_only("conjugate", a),
    "zeros_like": lambda a, dtype=None: np.zeros(a.shape, dtype or a.dtype),
    "ones_like": lambda a, dtype=None: np.ones(a.shape, dtype or a.dtype),
    "full_like": lambda a, v, dtype=None: np.full(a.shape, v, dtype or a.dtype),
    "atleast_1d": _sequence_movement("atleast_1d"),
    "atleast_2d": _sequence_movement("atleast_2d"),
    "atleast_3d": _sequence_movement("atleast_3d"),
}
for _n in MOVEMENT:
    OPS[_n] = (lambda n: lambda *a, **k: _movement(n, a, k))(_n)
for _n in JOINERS:
    OPS[_n] = _joiner(_n)


def _real_only(name: str, a: Any) -> Any:
    if a.dtype.kind == "c":
        raise NonLinearError(f"{name} of a complex traced array is not complex-linear")
    return a


# names that are certainly not linear (for a clearer message)
NONLINEAR = frozenset(vocabulary.ELEMENTWISE_UNARY) | frozenset(
    vocabulary.ELEMENTWISE_BINARY) | {
    "power", "float_power", "exp", "log", "maximum", "minimum", "sort", "argsort", "max",
    "min", "prod", "std", "var", "linalg.norm", "linalg.inv", "linalg.det", "abs",
} - set(OPS)


def unsupported_op(name: str) -> Callable:
    def op(*args: Any, **kwargs: Any) -> Any:
        if name in NONLINEAR:
            raise NonLinearError(
                f"matrix_from_function: {name!r} is not a linear operation, so the traced "
                "function has no matrix"
            )
        raise NonLinearError(
            f"matrix_from_function: {name!r} is not supported by the linear tracer "
            f"(supported: {', '.join(sorted(OPS))})"
        )

    op.__name__ = name
    return op


# ---------------------------------------------------------------- public entry


def matrix_from_function(f: Callable, example_x: Any, *args: Any, **kwargs: Any) -> tuple:
    """The sparse matrix (and offset) of a linear (affine) function, by tracing it once.

    ``f(x, *args, **kwargs)`` is called once with a tracer in place of ``x``;
    it must be written with ``do`` (or array operators) and be linear in ``x``:
    additions, subtractions, products and divisions by constants, negation,
    indexing and slicing, reshape, transpose, concatenate, stack, pad, roll,
    sum, mean, matmul, tensordot and einsum with constants, ``where`` with a
    constant mask. Everything computed from constants alone (numpy arrays) is
    folded while tracing.

    Parameters
    ----------
    f : callable
    example_x : array
        Gives the shape and dtype of ``x`` (any library).
    *args, **kwargs
        Passed on to ``f``; constants while tracing.

    Returns
    -------
    matrix : sparse matrix of shape (out.size, x.size)
        A ``scipy.sparse.csr_array`` when ``example_x`` and every other array
        argument are numpy; the library's own sparse type (torch COO tensor,
        jax ``BCOO``, ``tf.sparse.SparseTensor``) when one of them belongs to
        torch, jax or tensorflow.
    offset : array of the output's shape
        ``f(x) == (matrix @ x.ravel()).reshape(offset.shape) + offset``; zero
        for a linear function.

    Raises
    ------
    NonLinearError
        ``f`` applied an operation that is not linear in ``x``, naming it.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> def diff(x):
    ...     return x[1:] - x[:-1]
    >>> m, b = lazy.matrix_from_function(diff, np.zeros(3))
    >>> m.toarray()
    array([[-1.,  1.,  0.],
           [ 0., -1.,  1.]])
    """
    import dispatch.lazy  # noqa: F401  (registers the tracer backend)

    shape = tuple(map(int, np.shape(example_x)))
    try:
        dtype = np.dtype(_shapes.dtype_name(getattr(example_x, "dtype", np.float64)))
    except TypeError:
        dtype = np.dtype("float64")
    if dtype.kind not in "fc":
        dtype = np.dtype("float64")
    target = _target_backend(example_x, args, kwargs)
    args = tuple(_to_host(a) for a in args)
    kwargs = {k: _to_host(v) for k, v in kwargs.items()}
    tracer = _identity(shape, dtype)
    out = f(tracer, *args, **kwargs)
    if _is_tracer(out):
        mat = as_matrix(out)
        offset = _bias_or_zeros(out)
    else:
        import scipy.sparse as sp

        offset = _const(out)
        mat = sp.csr_array((offset.size, tracer.size), dtype=offset.dtype)
    offset = np.array(offset)
    if target is None:
        return mat, offset
    return _to_library(mat, target), _offset_to(offset, target)


def _target_backend(x: Any, args: tuple, kwargs: dict) -> str | None:
    from dispatch._infer import backend_of_type

    for a in (x, *args, *kwargs.values()):
        b = backend_of_type(type(a))
        if b not in (None, "numpy", "lazy", "linear") and _is_array_like(a):
            return b
    return None


def _to_host(a: Any) -> Any:
    from dispatch._infer import backend_of_type

    if isinstance(a, (list, tuple)):
        return type(a)(_to_host(e) for e in a)
    b = backend_of_type(type(a))
    if b not in (None, "numpy") and _is_array_like(a) and not _is_tracer(a):
        from dispatch import to_numpy

        return np.asarray(to_numpy(a))
    return a


def _offset_to(offset: np.ndarray, backend: str) -> Any:
    from dispatch import do

    return do("asarray", offset, like=backend)


def _to_library(mat: Any, backend: str) -> Any:
    coo = mat.tocoo()
    row = coo.row.astype(np.int64)
    col = coo.col.astype(np.int64)
    if backend == "torch":
        import torch

        # the indices come from a valid scipy matrix: the invariant check is not needed
        return torch.sparse_coo_tensor(torch.as_tensor(np.stack([row, col])),
                                       torch.as_tensor(coo.data), mat.shape,
                                       check_invariants=False).coalesce()
    if backend == "jax":
        import jax.numpy as jnp
        from jax.experimental import sparse as jsparse

        indices = jnp.asarray(np.stack([row, col], axis=1))
        return jsparse.BCOO((jnp.asarray(coo.data), indices), shape=mat.shape)
    if backend == "tensorflow":
        import tensorflow as tf

        st = tf.sparse.SparseTensor(np.stack([row, col], axis=1), coo.data, mat.shape)
        return tf.sparse.reorder(st)
    raise NotImplementedError(
        f"matrix_from_function: no sparse matrix type known for backend {backend!r}; "
        "pass numpy arguments to get a scipy.sparse matrix"
    )
