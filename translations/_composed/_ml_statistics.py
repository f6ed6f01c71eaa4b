"""The statistics of keras.ops (``moments``, ``normalize`` and the segment reductions
``segment_sum``/``_max``/``_min``/``_prod``), composed: a subtopic of statistics that
stands on its own, re-exported by ``statistics.py`` (the topic whose table modules
hold these names), so both paths import them."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dispatch.engine import composed, do

# ---------------------------------------------------------------- ML ops (keras.ops)


def _ml_float(x: Any, name: str) -> Any:
    kind = do("dtype_of", x).kind
    if kind == "c":
        raise TypeError(f"{name} takes real numbers; got a complex input")
    return x if kind == "f" else do("to_float", x)


@composed("moments")
def moments(x: Any, axes: Any, keepdims: bool = False) -> tuple[Any, Any]:
    """``(mean, variance)`` of ``x`` over ``axes`` (an int or a tuple; required, as in
    keras); the variance is the population one, ``mean((x - mean)**2)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("moments", np.array([[1.0, 3.0], [5.0, 7.0]]), axes=1)
    (array([2., 6.]), array([1., 1.]))
    """
    x = _ml_float(x, "moments")
    mean = do("mean", x, axis=axes, keepdims=True)
    var = do("mean", do("square", x - mean), axis=axes, keepdims=keepdims)
    return (mean if keepdims else do("squeeze", mean, axis=axes)), var


@composed("normalize")
def normalize(x: Any, axis: int = -1, order: int = 2, epsilon: float | None = None) -> Any:
    """``x / max(norm(x, order, axis), epsilon)``: ``x`` scaled to unit ``order``-norm
    along ``axis`` (``epsilon`` defaults to 1e-7, keras's ``epsilon()``; ``order`` is
    an int >= 1).

    Examples
    --------
    >>> import numpy as np
    >>> do("normalize", np.array([[3.0, 4.0], [0.0, 0.0]]))
    array([[0.6, 0.8],
           [0. , 0. ]])
    """
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise ValueError(f"normalize: order must be an int >= 1; got {order!r}")
    x = _ml_float(x, "normalize")
    eps = 1e-7 if epsilon is None else float(epsilon)
    if order == 2:
        norm = do("sqrt", do("sum", do("square", x), axis=axis, keepdims=True))
    elif order == 1:
        norm = do("sum", do("abs", x), axis=axis, keepdims=True)
    else:
        # do("power"), not **: paddle's operator reads a float exponent as float32
        norm = do("power", do("sum", do("power", do("abs", x), order), axis=axis, keepdims=True),
                  1.0 / order)
    return x / do("maximum", norm, eps)


def _segments(data: Any, segment_ids: Any, num_segments: Any, name: str) -> tuple:
    """``(ids, valid, n)``: the ids, the mask of those in ``[0, n)``, the count."""
    if do("dtype_of", segment_ids).kind not in "iu":
        raise TypeError(f"{name}: segment_ids must be integers; got dtype "
                        f"{do('get_dtype_name', segment_ids)}")
    ids_shape, data_shape = tuple(do("shape", segment_ids)), tuple(do("shape", data))
    if len(ids_shape) != 1 or not data_shape or data_shape[0] != ids_shape[0]:
        raise ValueError(f"{name}: segment_ids must be 1-D with one id per row of data; "
                         f"got shapes {ids_shape} and {data_shape}")
    if num_segments is None:  # a value read from the ids: not traceable
        num_segments = int(do("max", segment_ids)) + 1 if ids_shape[0] else 0
    n = int(num_segments)
    valid = do("logical_and", segment_ids >= 0, segment_ids < n)
    return do("where", valid, segment_ids, 0), valid, n


def _segment(data: Any, segment_ids: Any, num_segments: Any, name: str) -> Any:
    ids, valid, n = _segments(data, segment_ids, num_segments, name)
    shape = tuple(do("shape", data))
    mask = do("reshape", valid, (shape[0],) + (1,) * (len(shape) - 1))
    dt = do("dtype_of", data)
    if name in ("segment_sum", "segment_prod"):
        fill: Any = 0 if name == "segment_sum" else 1
    elif name == "segment_max":  # the dtype's lowest value: -inf, or the integer minimum
        fill = -math.inf if dt.kind == "f" else (False if dt.kind == "b" else np.iinfo(dt).min)
    else:  # segment_min: the dtype's highest value (as tf and jax)
        fill = math.inf if dt.kind == "f" else (True if dt.kind == "b" else np.iinfo(dt).max)
    values = do("where", mask, data, do("full_like", data, fill))
    if name == "segment_prod":
        return _segment_prod(values, ids, n)
    base = do("full", (n, *shape[1:]), fill, dtype=dt, like=data)
    mode = {"segment_sum": "add", "segment_max": "max", "segment_min": "min"}[name]
    return do("scatter", base, ids, values, mode=mode)


def _segment_prod(values: Any, ids: Any, n: int) -> Any:
    """The products of the segments: the rows sorted by id, a segmented inclusive
    product scan by doubling (``ceil(log2(m))`` vectorized steps, exact for integers),
    then the last row of each run of ids scattered into the result."""
    shape = tuple(do("shape", values))
    m, rest = shape[0], shape[1:]
    if m == 0:
        return do("ones", (n, *rest), dtype=do("dtype_of", values), like=values)
    order = do("argsort", ids, kind="stable")
    s, y = do("take", ids, order), do("take", values, order, axis=0)
    col = (m,) + (1,) * len(rest)
    d = 1
    while d < m:
        prev = do("concatenate", [do("ones_like", y[:d]), y[:-d]], axis=0)
        same = do("concatenate", [do("zeros_like", s[:d]) != 0, s[d:] == s[:-d]])
        y = do("where", do("reshape", same, col), y * prev, y)
        d *= 2
    last = do("concatenate", [s[1:] != s[:-1], do("ones_like", s[:1]) != 0])
    last_rows = do("reshape", last, col)
    zero = do("zeros_like", y)
    total = do("scatter", do("zeros", (n, *rest), dtype=do("dtype_of", y), like=y), s,
               do("where", last_rows, y, zero), mode="add")
    seen = do("scatter", do("zeros", (n,), dtype="int64", like=y), s,
              do("astype", last, "int64"), mode="add")
    seen = do("reshape", seen, (n,) + (1,) * len(rest))
    return do("where", seen > 0, total, do("ones_like", total))


@composed("segment_sum")
def segment_sum(data: Any, segment_ids: Any, num_segments: Any = None,
                sorted: bool = False) -> Any:
    """``out[s] = sum(data[i] for i where segment_ids[i] == s)`` along the first axis.

    ``num_segments`` defaults to ``max(segment_ids) + 1`` (read from the ids, so give
    it under a compiler); ids outside ``[0, num_segments)`` are dropped; empty segments
    are 0. ``sorted`` is a promise about the ids that this fallback does not need.

    Examples
    --------
    >>> import numpy as np
    >>> do("segment_sum", np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 2, 0]))
    array([7., 0., 3.])
    """
    return _segment(data, segment_ids, num_segments, "segment_sum")


@composed("segment_max")
def segment_max(data: Any, segment_ids: Any, num_segments: Any = None,
                sorted: bool = False) -> Any:
    """``out[s] = max(data[i] for i where segment_ids[i] == s)`` along the first axis;
    an empty segment holds the dtype's lowest value (``-inf`` for floats, as
    ``tf.math.unsorted_segment_max`` and ``jax.ops.segment_max``). ``num_segments``
    and out-of-range ids as in ``segment_sum``.

    Examples
    --------
    >>> import numpy as np
    >>> do("segment_max", np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 2, 0]))
    array([  4., -inf,   3.])
    """
    return _segment(data, segment_ids, num_segments, "segment_max")


@composed("segment_min")
def segment_min(data: Any, segment_ids: Any, num_segments: Any = None,
                sorted: bool = False) -> Any:
    """``out[s] = min(data[i] for i where segment_ids[i] == s)`` along the first axis;
    an empty segment holds the dtype's highest value (``inf`` for floats, as
    ``jax.ops.segment_min``; tensorflow's kernel gives the largest finite float, which
    its table replaces). ``num_segments`` and out-of-range ids as in ``segment_sum``.

    Examples
    --------
    >>> import numpy as np
    >>> do("segment_min", np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 2, 0]))
    array([ 1., inf,  3.])
    """
    return _segment(data, segment_ids, num_segments, "segment_min")


@composed("segment_prod")
def segment_prod(data: Any, segment_ids: Any, num_segments: Any = None,
                 sorted: bool = False) -> Any:
    """``out[s] = prod(data[i] for i where segment_ids[i] == s)`` along the first
    axis; an empty segment is 1. ``num_segments`` and out-of-range ids as in
    ``segment_sum``.

    Examples
    --------
    >>> import numpy as np
    >>> do("segment_prod", np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 2, 0]))
    array([8., 1., 3.])
    """
    return _segment(data, segment_ids, num_segments, "segment_prod")
