"""Pooling of keras.ops (``max_pool``, ``average_pool`` and their adaptive versions)
and the window geometry the libraries' native pools share (``pool_geometry``),
composed: a subtopic of the neural-network layer ops that stands on its own,
re-exported by ``nn.py`` (the topic whose table modules hold these names), so both
paths import them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed.statistics import _ml_float

from dispatch.engine import composed, do

# ---------------------------------------------------------------- pooling


def _data_format(data_format: Any, name: str) -> str:
    fmt = "channels_last" if data_format is None else data_format
    if fmt not in ("channels_last", "channels_first"):
        raise ValueError(f"{name}: data_format must be 'channels_last' or 'channels_first'; "
                         f"got {data_format!r}")
    return fmt


def _tuple(v: Any, d: int, what: str, name: str) -> tuple[int, ...]:
    t = (int(v),) * d if isinstance(v, (int, np.integer)) else tuple(int(i) for i in v)
    if len(t) != d or min(t, default=1) < 1:
        raise ValueError(f"{name}: {what} must be a positive int or {d} positive ints; got {v!r}")
    return t


def pool_geometry(shape: Sequence[int], pool_size: Any, strides: Any, padding: Any,
                  data_format: Any, name: str) -> tuple[str, tuple]:
    """``(data_format, ((n, k, s, out, before) per spatial axis))`` of keras's pooling
    ('same': ``ceil(n / s)`` windows, padding split as tensorflow's, the extra one after)."""
    fmt = _data_format(data_format, name)
    pad = padding.lower() if isinstance(padding, str) else padding
    if pad not in ("valid", "same"):
        raise ValueError(f"{name}: padding must be 'valid' or 'same'; got {padding!r}")
    d = len(shape) - 2
    if d < 1:
        raise ValueError(f"{name} takes (batch, spatial..., channels) inputs of rank >= 3; "
                         f"got shape {tuple(shape)}")
    ks = _tuple(pool_size, d, "pool_size", name)
    ss = ks if strides is None else _tuple(strides, d, "strides", name)
    spatial = shape[1:-1] if fmt == "channels_last" else shape[2:]
    geo = []
    for n, k, s in zip(spatial, ks, ss, strict=True):
        if pad == "valid":
            out, before = max((n - k) // s + 1, 0), 0
        else:
            out = -(-n // s)
            before = max((out - 1) * s + k - n, 0) // 2
        geo.append((int(n), k, s, out, before))
    return fmt, tuple(geo)


def _lowest(x: Any) -> Any:  # the max pooling's padding
    dt = do("dtype_of", x)
    return -math.inf if dt.kind == "f" else False if dt.kind == "b" else int(np.iinfo(dt).min)


def _window(x: Any, axis: int, geo: tuple, how: str) -> Any:
    """Max, or sum / count of the entries inside, of the windows along one axis."""
    n, k, s, out, before = geo
    after = max((out - 1) * s + k - n - before, 0)
    if before or after:
        width = [(0, 0)] * do("ndim", x)
        width[axis] = (before, after)
        fill = _lowest(x) if how == "max" else 0
        x = do("pad", x, width, mode="constant", constant_values=fill)
    acc = None
    for j in range(k):
        part = x[(slice(None),) * axis + (slice(j, j + (out - 1) * s + 1, s),)]
        acc = part if acc is None else (do("maximum", acc, part) if how == "max" else acc + part)
    if how == "max":
        return acc
    starts = np.arange(out) * s - before
    counts = np.minimum(starts + k, n) - np.maximum(starts, 0)
    shape = [1] * do("ndim", x)
    shape[axis] = out
    return acc / do("asarray", counts.reshape(shape).astype(do("dtype_of", acc)), like=acc)


def _pool(inputs: Any, pool_size: Any, strides: Any, padding: Any, data_format: Any,
          how: str, name: str) -> Any:
    if do("dtype_of", inputs).kind == "c":
        raise TypeError(f"{name} takes real numbers; got a complex input")
    x = inputs if how == "max" else _ml_float(inputs, name)
    fmt, geo = pool_geometry(do("shape", x), pool_size, strides, padding, data_format, name)
    first = 1 if fmt == "channels_last" else 2
    for i, g in enumerate(geo):
        x = _window(x, first + i, g, how)
    return x


@composed("max_pool")
def max_pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
             data_format: str | None = None) -> Any:
    """The maximum of each ``pool_size`` window, every ``strides`` (default:
    ``pool_size``) along the spatial axes (keras's ``max_pool``; 1, 2 or 3 spatial
    axes; channels last by default). 'same' pads with the dtype's lowest value
    (padding never wins). The dtype is kept.

    Examples
    --------
    >>> import numpy as np
    >>> do("max_pool", np.array([[[1.0], [5.0], [2.0], [3.0], [4.0]]]), 2)[..., 0]
    array([[5., 3.]])
    """
    return _pool(inputs, pool_size, strides, padding, data_format, "max", "max_pool")


@composed("average_pool")
def average_pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
                 data_format: str | None = None) -> Any:
    """The mean of each ``pool_size`` window (keras's ``average_pool``); with 'same' the
    padding is left out of the count (tensorflow's and keras's rule; torch's
    ``count_include_pad=False``).

    Examples
    --------
    >>> import numpy as np
    >>> do("average_pool", np.array([[[1.0], [5.0], [2.0]]]), 2, padding="same")[..., 0]
    array([[3., 2.]])
    """
    return _pool(inputs, pool_size, strides, padding, data_format, "mean", "average_pool")


def adaptive_windows(n: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, ends)``: ``floor(i n / out)`` to ``ceil((i + 1) n / out)`` (torch's, keras's)."""
    i = np.arange(out)
    return (i * n) // out, -((-(i + 1) * n) // out)


def _adaptive(inputs: Any, output_size: Any, data_format: Any, how: str, name: str) -> Any:
    if do("dtype_of", inputs).kind == "c":
        raise TypeError(f"{name} takes real numbers; got a complex input")
    x = inputs if how == "max" else _ml_float(inputs, name)
    fmt = _data_format(data_format, name)
    shape = do("shape", x)
    d = len(shape) - 2
    if d < 1:
        raise ValueError(f"{name} takes inputs of rank >= 3; got shape {tuple(shape)}")
    sizes = _tuple(output_size, d, "output_size", name)
    first = 1 if fmt == "channels_last" else 2
    for i, out in enumerate(sizes):
        axis = first + i
        n = do("shape", x)[axis]
        if n < 1:
            raise ValueError(f"{name}: spatial axis {axis} is empty")
        starts, ends = adaptive_windows(n, out)
        counts = ends - starts
        acc = None
        for j in range(int(counts.max())):
            idx = np.minimum(starts + j, ends - 1).astype(np.int64)
            part = do("take", x, do("asarray", idx, like=x), axis=axis)
            if how == "mean":
                w = ((j < counts) / counts).reshape([out if a == axis else 1
                                                     for a in range(len(shape))])
                part = part * do("asarray", w.astype(do("dtype_of", x)), like=x)
            acc = part if acc is None else (do("maximum", acc, part) if how == "max"
                                            else acc + part)
        x = acc
    return x


@composed("adaptive_max_pool")
def adaptive_max_pool(inputs: Any, output_size: Any, data_format: str | None = None) -> Any:
    """The maximum over ``output_size`` windows that tile each spatial axis: window
    ``i`` of an axis of length ``n`` spans ``floor(i n / o)`` to ``ceil((i + 1) n / o)``
    (keras's and torch's ``adaptive_max_pool``; channels last by default).

    Examples
    --------
    >>> import numpy as np
    >>> do("adaptive_max_pool", np.array([[[1.0], [5.0], [2.0], [3.0], [4.0]]]), 2)[..., 0]
    array([[5., 4.]])
    """
    return _adaptive(inputs, output_size, data_format, "max", "adaptive_max_pool")


@composed("adaptive_average_pool")
def adaptive_average_pool(inputs: Any, output_size: Any, data_format: str | None = None) -> Any:
    """The mean over the adaptive windows of ``adaptive_max_pool`` (keras's and torch's
    ``adaptive_average_pool``).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[[1.0], [5.0], [2.0], [3.0], [4.0]]])
    >>> do("adaptive_average_pool", x, 2)[..., 0]
    array([[2.66666667, 3.        ]])
    """
    return _adaptive(inputs, output_size, data_format, "mean", "adaptive_average_pool")
