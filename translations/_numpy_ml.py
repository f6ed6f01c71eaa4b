"""numpy's entries of the later ML ops of keras.ops (docs/vocabulary.md, "ML ops"),
merged into ``translations/numpy.py``'s table (which holds the first ones).

Each entry is the plain numpy expression of the composed formula, taken when the
input is what the expression handles (a float ndarray, integer indices...); any
other input goes to the composed fallback, which also raises the typed errors.
"""

from __future__ import annotations

import functools
import importlib
import math
from typing import Any

import numpy as np
from dispatch.translations._adapters import basic_block, real_float_entries

_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.longdouble))


@functools.cache
def _composed_op(module: str, name: str) -> Any:
    return getattr(importlib.import_module(f"dispatch.translations._composed.{module}"), name)


def _soft_shrink(x: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    if threshold >= 0:
        return x - np.clip(x, -threshold, threshold)
    return _composed_op("elementwise", "soft_shrink")(x, threshold)


def _sparsemax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    last = axis == -1 or axis == x.ndim - 1
    z = x if last else np.moveaxis(x, axis, -1)
    zs = -np.sort(-z, axis=-1)
    cs = np.cumsum(zs, axis=-1)
    r = np.arange(1, z.shape[-1] + 1, dtype=z.dtype)
    support = 1.0 + r * zs > cs
    k = np.count_nonzero(support, axis=-1, keepdims=True)
    tau = (np.sum(zs, axis=-1, where=support, keepdims=True) - 1.0) / k.astype(z.dtype)
    out = np.maximum(z - tau, 0.0)
    return out if last else np.moveaxis(out, -1, axis)


ACTIVATIONS = real_float_entries(
    {
        "hard_tanh": lambda x: np.clip(x, -1.0, 1.0),
        "hard_shrink": lambda x, threshold=0.5: np.where(np.abs(x) <= threshold, 0.0, x),
        "soft_shrink": _soft_shrink,
        "tanh_shrink": lambda x: x - np.tanh(x),
        "sparse_plus": lambda x: np.where(x >= 1.0, x, 0.25 * np.square(np.clip(x, -1.0, 1.0)
                                                                        + 1.0)),
        "sparse_sigmoid": lambda x: 0.5 * (np.clip(x, -1.0, 1.0) + 1.0),
        "squareplus": lambda x, b=4: 0.5 * (x + np.sqrt(x * x + b)),
        "sparsemax": _sparsemax,
    },
    np.ndarray,
    _FLOATS,
)


def _in_top_k(targets: Any, predictions: Any, k: int) -> np.ndarray:
    if not (type(targets) is np.ndarray and type(predictions) is np.ndarray
            and targets.dtype.kind in "iu" and predictions.dtype.kind in "iuf"
            and predictions.ndim == 2 and targets.shape == predictions.shape[:1]):
        return _composed_op("indexing", "in_top_k")(targets, predictions, k)
    n = predictions.shape[-1]
    valid = (targets >= 0) & (targets < n)
    at = np.take_along_axis(predictions, np.where(valid, targets, 0)[:, None], axis=-1)
    larger = np.count_nonzero(predictions > at, axis=-1)
    return valid & (larger < k) & (at[:, 0] == at[:, 0])


def _multi_hot(inputs: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> np.ndarray:
    if not (type(inputs) is np.ndarray and inputs.dtype.kind in "iu" and inputs.ndim):
        return _composed_op("indexing", "multi_hot")(inputs, num_classes, axis, dtype)
    hot = (inputs[..., None] == np.arange(int(num_classes))).any(axis=1 if inputs.ndim > 1
                                                                 else 0)
    out = hot.astype(_composed_op("devices", "float_type")() if dtype is None else dtype)
    return out if axis == -1 else np.moveaxis(out, -1, axis)


INDICES = {"in_top_k": _in_top_k, "multi_hot": _multi_hot}


def _slice(inputs: Any, start_indices: Any, shape: Any) -> Any:
    if type(inputs) is np.ndarray \
            and (at := basic_block(inputs.shape, start_indices, shape)) is not None:
        return inputs[at]
    return _composed_op("shape", "slice_")(inputs, start_indices, shape)


def _slice_update(inputs: Any, start_indices: Any, updates: Any) -> Any:
    if type(inputs) is np.ndarray and type(updates) is np.ndarray \
            and (at := basic_block(inputs.shape, start_indices, updates.shape)) is not None:
        out = inputs.copy()
        out[at] = updates
        return out
    return _composed_op("shape", "slice_update")(inputs, start_indices, updates)


_AT = {"add": np.add, "max": np.maximum, "min": np.minimum}


def _scatter_update(inputs: Any, indices: Any, updates: Any, reduction: Any = None) -> Any:
    if type(inputs) is np.ndarray and type(indices) is np.ndarray \
            and type(updates) is np.ndarray and indices.dtype.kind in "iu" \
            and indices.ndim == 2 and indices.shape[1] <= inputs.ndim \
            and (reduction is None or reduction in _AT):
        out = inputs.copy()
        at = tuple(indices.T)
        try:
            if reduction is None:
                out[at] = updates
            else:
                _AT[reduction].at(out, at, updates.astype(out.dtype, copy=False))
            return out
        except IndexError:
            pass  # the composed one raises its own IndexError
    return _composed_op("shape", "scatter_update")(inputs, indices, updates, reduction)


SLICES = {"slice": _slice, "slice_update": _slice_update, "scatter_update": _scatter_update}


def _saturate_cast(x: Any, dtype: Any) -> Any:
    if type(x) is np.ndarray and x.dtype.kind in "biuf":
        dst = _composed_op("devices", "np_dtype")(dtype)
        lo, hi = _composed_op("_casts", "saturation_bounds")(x.dtype, dst)
        if lo is not None or hi is not None:
            x = np.clip(x, lo, hi)
        return x.astype(dst)
    return _composed_op("_casts", "saturate_cast")(x, dtype)


def _view(x: Any, dtype: Any) -> Any:
    if type(x) is np.ndarray:
        try:
            dt = _VIEW_DTYPES[dtype]  # a name or a dtype seen before: no parsing
        except (KeyError, TypeError):  # TypeError: an unhashable dtype argument
            dt = _composed_op("devices", "np_dtype")(dtype)
            if type(dtype) is str and len(_VIEW_DTYPES) < 64:
                _VIEW_DTYPES[dtype] = dt
        return x.view(dt)
    return _composed_op("_casts", "view")(x, dtype)


_VIEW_DTYPES: dict[Any, np.dtype] = {}  # view's dtypes by name, as np_dtype reads them


CASTS = {"saturate_cast": _saturate_cast, "view": _view}


def _psnr(x1: Any, x2: Any, max_val: Any) -> Any:
    if type(x1) is np.ndarray and type(x2) is np.ndarray and x1.shape == x2.shape \
            and x1.dtype in _FLOATS and x2.dtype == x1.dtype and isinstance(max_val, int | float):
        diff = x1 - x2
        return 20.0 * math.log10(max_val) - 10.0 * np.log10(np.mean(diff * diff))
    return _composed_op("reductions", "psnr")(x1, x2, max_val)


def _extract_sequences(x: Any, sequence_length: int, sequence_stride: int) -> Any:
    if type(x) is np.ndarray and x.ndim and type(sequence_length) is int \
            and type(sequence_stride) is int and 1 <= sequence_length <= x.shape[-1] \
            and sequence_stride >= 1:
        # a read-only view of x, as numpy's sliding windows
        frames = np.lib.stride_tricks.sliding_window_view(x, sequence_length, axis=-1)
        return frames[..., ::sequence_stride, :]
    return _composed_op("signal", "extract_sequences")(x, sequence_length, sequence_stride)


MORE = {"psnr": _psnr, "extract_sequences": _extract_sequences}


# ---- the layer ops (the nn topic): numpy expressions of the usual calls -------------


def _special() -> Any:
    try:
        import scipy.special as special
    except ImportError:
        return None
    return special


_WIDE = frozenset(np.dtype(c) for c in "fd")


def _plain(x: Any, *params: Any) -> bool:
    return type(x) is np.ndarray and x.dtype in _WIDE and x.ndim > 0 and all(
        p is None or (type(p) is np.ndarray and p.dtype == x.dtype) for p in params)


def _layer_normalization(x: Any, gamma: Any = None, beta: Any = None, axis: Any = -1,
                         epsilon: Any = None) -> Any:
    if axis != -1 or not _plain(x, gamma, beta):
        return _composed_op("nn", "layer_normalization")(x, gamma, beta, axis, epsilon)
    centred = x - x.mean(axis=-1, keepdims=True)
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    out = centred / np.sqrt(var + (1e-7 if epsilon is None else float(epsilon)))
    out = out if gamma is None else out * gamma
    return out if beta is None else out + beta


def _rms_normalization(x: Any, scale: Any = None, axis: Any = -1, epsilon: Any = None) -> Any:
    if axis != -1 or not _plain(x, scale):
        return _composed_op("nn", "rms_normalization")(x, scale, axis, epsilon)
    eps = 1e-7 if epsilon is None else float(epsilon)
    out = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)
    return out if scale is None else out * scale


def _categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                              axis: int = -1) -> Any:
    special = _special()
    if special is None or not _plain(output, target) or target.shape != output.shape:
        return _composed_op("nn", "categorical_crossentropy")(target, output, from_logits, axis)
    if from_logits:
        return -np.sum(target * special.log_softmax(output, axis=axis), axis=axis)
    p = np.clip(output / np.sum(output, axis=axis, keepdims=True), 1e-7, 1 - 1e-7)
    return -np.sum(target * np.log(p), axis=axis)


@functools.lru_cache(maxsize=256)
def _tiling(shape: tuple, pool_size: Any, strides: Any, padding: Any, data_format: Any,
            name: str) -> tuple | None:
    """``(crop, tiled shape, window axes)`` when the windows tile every spatial axis
    (stride = pool size, no padding: the usual call), else None."""
    fmt, geo = _composed_op("nn", "pool_geometry")(shape, pool_size, strides, padding,
                                                   data_format, name)
    if not all(s == k and not before and 0 < out * k <= n for n, k, s, out, before in geo):
        return None
    first = 1 if fmt == "channels_last" else 2
    crop = (slice(None),) * first + tuple(slice(0, g[3] * g[1]) for g in geo)
    tiled = (*shape[:first], *(v for g in geo for v in (g[3], g[1])), *shape[first + len(geo):])
    return crop, tiled, tuple(first + 2 * i + 1 for i in range(len(geo)))


def _pool(name: str) -> Any:
    # tiling windows as one reshape and one reduction; any other call is composed
    def pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
             data_format: Any = None) -> Any:
        if type(inputs) is np.ndarray and inputs.dtype in _WIDE and inputs.ndim >= 3:
            try:
                plan = _tiling(inputs.shape, pool_size, strides, padding, data_format, name)
            except TypeError:  # a list argument
                plan = None
            if plan is not None:
                x = inputs[plan[0]].reshape(plan[1])
                return x.max(axis=plan[2]) if name == "max_pool" else x.mean(axis=plan[2])
        return _composed_op("nn", name)(inputs, pool_size, strides, padding, data_format)

    pool.__name__ = pool.__qualname__ = "_" + name
    return pool


NN = {
    "layer_normalization": _layer_normalization,
    "rms_normalization": _rms_normalization,
    "categorical_crossentropy": _categorical_crossentropy,
    "max_pool": _pool("max_pool"),
    "average_pool": _pool("average_pool"),
}
