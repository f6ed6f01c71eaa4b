"""numpy 2's ``linalg`` names of the array API, written once with ``do``.

``linalg.matrix_transpose``, ``linalg.outer``, ``linalg.tensordot``,
``linalg.trace``, ``linalg.vecdot``, ``linalg.cross``, ``linalg.diagonal``,
``linalg.matmul``, ``linalg.vector_norm`` and ``linalg.matrix_norm``: the
array API's spellings of functions the vocabulary already has, with its rules
(the matrix axes are the last two, ``outer`` takes vectors only, ``cross``
vectors of 3 elements, keyword-only options). Each one is a call of the
vocabulary's own name, so it has that name's semantics on every library.

A private module of the ``linalg`` topic (``linalg.py`` is near the module size
limit): the libraries' entries of these names are in their ``linalg`` tables.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from dispatch.translations._composed.reductions import _axis_tuple

from dispatch.engine import composed, do


def _ndim(name: str, x: Any, least: int) -> int:
    ndim = len(do("shape", x))
    if ndim < least:
        raise ValueError(
            f"{name}: the input has {ndim} dimension(s), it needs at least {least}"
        )
    return ndim


@composed("linalg.matrix_transpose")
def matrix_transpose(x: Any, /) -> Any:
    """The last two axes swapped, numpy's ``linalg.matrix_transpose``.

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.matrix_transpose", np.array([[1, -2, 3], [4, 5, -6]]))
    array([[ 1,  4],
           [-2,  5],
           [ 3, -6]])
    """
    _ndim("linalg.matrix_transpose", x, 2)
    return do("matrix_transpose", x)


@composed("linalg.outer")
def outer(x1: Any, x2: Any, /) -> Any:
    """Outer product of two vectors, numpy's ``linalg.outer`` (1-d inputs only,
    where ``outer`` flattens).

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.outer", np.array([1.0, -2.0]), np.array([3.0, 0.5, 1.0]))
    array([[ 3. ,  0.5,  1. ],
           [-6. , -1. , -2. ]])
    """
    for x in (x1, x2):
        if len(do("shape", x)) != 1:
            raise ValueError(
                f"linalg.outer: inputs must be vectors, got {len(do('shape', x))} dimension(s)"
            )
    return do("outer", x1, x2)


@composed("linalg.tensordot")
def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    """Sum of products over ``axes``, numpy's ``linalg.tensordot`` (``tensordot``
    with ``axes`` keyword-only).

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.tensordot", np.arange(6.0).reshape(2, 3), np.arange(3.0), axes=1)
    array([ 5., 14.])
    """
    return do("tensordot", x1, x2, axes=axes)


@composed("linalg.trace")
def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    """Sum of the diagonal ``offset`` of the last two axes, numpy's ``linalg.trace``
    (a batch of matrices gives one trace each; ``dtype`` as ``sum``'s).

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.trace", np.arange(8).reshape(2, 2, 2))
    array([ 3, 11])
    >>> do("linalg.trace", np.arange(9.0).reshape(3, 3), offset=1)
    np.float64(6.0)
    """
    _ndim("linalg.trace", x, 2)
    diag = do("diagonal", x, offset=offset, axis1=-2, axis2=-1)
    return do("sum", diag, axis=-1, dtype=dtype)


@composed("linalg.vecdot")
def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """Vector dot product along ``axis``, numpy's ``linalg.vecdot`` (``vecdot``:
    the first operand conjugated, the other axes broadcast).

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.vecdot", np.array([[1.0, -2.0], [3.0, 4.0]]), np.array([2.0, 1.0]))
    array([ 0., 10.])
    """
    return do("vecdot", x1, x2, axis=axis)


@composed("linalg.cross")
def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """Cross product of 3-element vectors along ``axis``, numpy's ``linalg.cross``
    (the other axes broadcast; 2-element vectors, which ``cross`` takes, raise
    ``ValueError``).

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.cross", np.array([1.0, 0.0, 0.0]), np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]))
    array([[ 0.,  0.,  1.],
           [ 0., -2.,  0.]])
    """
    s1, s2 = tuple(do("shape", x1)), tuple(do("shape", x2))
    for s in (s1, s2):
        if not -len(s) <= axis < len(s):
            raise np.exceptions.AxisError(axis, len(s))
        if s[axis] is not None and int(s[axis]) != 3:
            raise ValueError(
                f"linalg.cross: both input arrays must be (arrays of) 3-dimensional vectors, "
                f"but they are {int(s1[axis])} and {int(s2[axis])} dimensional instead"
            )
    # the formula, not ``cross``: some libraries' kernels take no complex numbers or
    # broadcast no batch of vectors against one vector
    a, b = do("moveaxis", x1, axis, -1), do("moveaxis", x2, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    parts = [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]
    return do("moveaxis", do("stack", do("broadcast_arrays", *parts), axis=-1), -1, axis)


@composed("linalg.diagonal")
def diagonal(x: Any, /, *, offset: int = 0) -> Any:
    """Diagonal ``offset`` of the last two axes, numpy's ``linalg.diagonal``.

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.diagonal", np.arange(12).reshape(2, 2, 3), offset=1)
    array([[ 1,  5],
           [ 7, 11]])
    """
    _ndim("linalg.diagonal", x, 2)
    return do("diagonal", x, offset=offset, axis1=-2, axis2=-1)


@composed("linalg.matmul")
def matmul(x1: Any, x2: Any, /) -> Any:
    """Matrix product, numpy's ``linalg.matmul`` (``matmul``).

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.matmul", np.array([[1, 2], [3, 4]]), np.array([[0, 1], [-1, 0]]))
    array([[-2,  1],
           [-4,  3]])
    """
    return do("matmul", x1, x2)


@composed("linalg.vector_norm")
def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
    """Vector norm of order ``ord`` over ``axis``, numpy's ``linalg.vector_norm``.

    ``axis`` None takes every element as one vector; a tuple of axes takes the
    elements over those axes as one vector each. Integer input gives floats.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[3.0, -4.0], [0.0, 12.0]])
    >>> do("linalg.vector_norm", x)
    np.float64(13.0)
    >>> do("linalg.vector_norm", x, axis=0, ord=1)
    array([ 3., 16.])
    """
    shape = tuple(int(n) for n in do("shape", x))
    ndim = len(shape)
    if axis is None:
        flat = do("ravel", x)
        axes: tuple[int, ...] = tuple(range(ndim))
    else:
        axes = _axis_tuple(axis, ndim, "linalg.vector_norm: repeated axis")
        rest = [i for i in range(ndim) if i not in axes]
        moved = do("transpose", x, axes + tuple(rest))
        flat = do("reshape", moved, (math.prod(shape[i] for i in axes), *(shape[i] for i in rest)))
    out = do("linalg.norm", flat, ord=ord, axis=0)
    if keepdims:
        out = do("reshape", out, tuple(1 if i in axes else n for i, n in enumerate(shape)))
    return out


@composed("linalg.matrix_norm")
def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    """Matrix norm of order ``ord`` of the last two axes, numpy's
    ``linalg.matrix_norm`` (one norm per matrix of a batch).

    Examples
    --------
    >>> import numpy as np
    >>> do("linalg.matrix_norm", np.array([[[3.0, 0.0], [0.0, -4.0]]]), ord=1)
    array([4.])
    """
    _ndim("linalg.matrix_norm", x, 2)
    return do("linalg.norm", x, ord=ord, axis=(-2, -1), keepdims=keepdims)
