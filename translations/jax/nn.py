"""jax: the neural-network layer ops of keras.ops on ``jax.lax`` and ``jax.nn``.

Pooling is one ``lax.reduce_window`` with the composed version's padding (keras's
'same': tensorflow's split, the extra entry after); the average divides by the
count of entries inside, computed on the host from the shapes.
``dot_product_attention`` is ``jax.nn.dot_product_attention`` (float32), keras's layout
and masking (the masked logits ``-0.7 * finfo(float32).max``); ``depthwise_conv`` is a
``lax.conv_general_dilated`` with one feature group per channel. The normalizations, the
losses and the rearrangements are the composed versions
(``translations/_composed/nn.py``), which jax traces as they are.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._composed import nn as _nn


def _pool(how: str) -> Any:
    composed = _nn.max_pool if how == "max" else _nn.average_pool
    name = "max_pool" if how == "max" else "average_pool"

    def pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
             data_format: str | None = None) -> Any:
        if not (isinstance(inputs, jax.Array) and jnp.issubdtype(inputs.dtype, jnp.floating)
                and inputs.ndim >= 3):
            return composed(inputs, pool_size, strides, padding, data_format)
        fmt, geo = _nn.pool_geometry(inputs.shape, pool_size, strides, padding, data_format,
                                     name)
        first = 1 if fmt == "channels_last" else 2
        window, step, pads = [1] * inputs.ndim, [1] * inputs.ndim, [(0, 0)] * inputs.ndim
        counts = np.ones((), dtype=np.float64)
        for i, (n, k, s, out, before) in enumerate(geo):
            after = max((out - 1) * s + k - n - before, 0)
            a = first + i
            window[a], step[a], pads[a] = k, s, (before, after)
            starts = np.arange(out) * s - before
            c = np.minimum(starts + k, n) - np.maximum(starts, 0)
            counts = np.multiply.outer(counts, c)
        if how == "max":
            return jax.lax.reduce_window(inputs, jnp.array(-jnp.inf, inputs.dtype), jax.lax.max,
                                         window, step, pads)
        total = jax.lax.reduce_window(inputs, jnp.array(0, inputs.dtype), jax.lax.add, window,
                                      step, pads)
        shape = [1] * inputs.ndim
        shape[first : first + len(geo)] = counts.shape
        return total / jnp.asarray(counts.reshape(shape), dtype=inputs.dtype)

    pool.__name__ = pool.__qualname__ = "_" + name
    return pool


def _dot_product_attention(query: Any, key: Any, value: Any, bias: Any = None, mask: Any = None,
                           scale: float | None = None, is_causal: bool = False,
                           flash_attention: bool | None = None,
                           attn_logits_soft_cap: float | None = None) -> Any:
    # float32 only: jax's kernel runs its softmax in float32 whatever the input (the
    # composed version keeps float64)
    arrays = (query, key, value)
    if (attn_logits_soft_cap is None and all(isinstance(a, jax.Array) for a in arrays)
            and all(a.ndim == 4 for a in arrays)
            and len({a.dtype for a in arrays}) == 1
            and query.dtype == jnp.float32
            and query.shape[2] == key.shape[2]):
        return jax.nn.dot_product_attention(
            query, key, value, None if bias is None else jnp.asarray(bias, query.dtype),
            None if mask is None else jnp.asarray(mask, bool),
            scale=None if scale is None else float(scale), is_causal=bool(is_causal))
    return _nn.dot_product_attention(query, key, value, bias, mask, scale, is_causal,
                                     flash_attention, attn_logits_soft_cap)


_SPECS = {1: ("NWC", "WIO", "NWC"), 2: ("NHWC", "HWIO", "NHWC"),
          3: ("NDHWC", "DHWIO", "NDHWC")}


def _depthwise_conv(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid",
                    data_format: str | None = None, dilation_rate: Any = 1) -> Any:
    # lax.conv_general_dilated with one feature group per channel (keras's own jax
    # kernel): the (k..., channels, multiplier) kernel as (k..., 1, channels * multiplier)
    if (isinstance(inputs, jax.Array) and isinstance(kernel, jax.Array)
            and inputs.dtype == kernel.dtype and inputs.dtype in (jnp.float32, jnp.float64)
            and 3 <= inputs.ndim <= 5 and kernel.ndim == inputs.ndim
            and data_format in (None, "channels_last", "channels_first")
            and isinstance(padding, str) and padding.lower() in ("valid", "same")):
        first = data_format == "channels_first"
        x = jnp.moveaxis(inputs, 1, -1) if first else inputs
        d, (c, m) = x.ndim - 2, kernel.shape[-2:]
        if x.shape[-1] == c:
            ss = _nn._tuple(strides, d, "strides", "depthwise_conv")
            ds = _nn._tuple(dilation_rate, d, "dilation_rate", "depthwise_conv")
            width = _nn.conv_pads(x.shape[1:-1], kernel.shape[:d], ss, ds, padding.lower())
            y = jax.lax.conv_general_dilated(
                x, kernel.reshape(*kernel.shape[:d], 1, c * m), ss, width, rhs_dilation=ds,
                dimension_numbers=_SPECS[d], feature_group_count=c,
                precision=jax.lax.Precision.HIGHEST)
            return jnp.moveaxis(y, -1, 1) if first else y
    return _nn.depthwise_conv(inputs, kernel, strides, padding, data_format, dilation_rate)


TABLE = {
    "depthwise_conv": _depthwise_conv,
    "max_pool": _pool("max"),
    "average_pool": _pool("mean"),
    "dot_product_attention": _dot_product_attention,
}
