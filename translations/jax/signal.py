"""jax's convolutions: numpy's ``convolve``/``correlate`` (integer results, 0-d
inputs), jax's own ``interp``, and the backend method list's ``conv`` on
``lax.conv_general_dilated``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from dispatch.engine import NATIVE


def _integral(fn: Callable, default: str = "full") -> Callable:
    @functools.wraps(fn)
    def integral(a: Any, v: Any, mode: str = default) -> Any:
        if fn is jnp.convolve:  # numpy's convolve reads a 0-d input as length 1
            a, v = jnp.atleast_1d(a), jnp.atleast_1d(v)
        # jax convolves integers in floats; numpy's result keeps the integer dtype
        out = fn(a, v, mode)
        dtype = jnp.result_type(a, v)
        if jnp.issubdtype(dtype, jnp.integer) or dtype == jnp.bool_:
            return jnp.round(out).astype(dtype)
        return out

    return integral


def _conv(value: Any, kernel: Any, strides: Any = 1, out_sizes: Any = None,
          transpose: bool = False, zero_padding: bool = True) -> Any:
    # lax.conv_general_dilated on the list's channels-first layout (value (batch, in,
    # spatial...), kernel (batch|1, out, in, k...)), with the composed version's padding:
    # k // 2 zeros before each axis ('same') or none, as many after as the output size
    # needs. lax correlates, like the composed conv. Per-entry kernels become a grouped
    # convolution; the transposed convolution stays composed.
    from dispatch.translations._composed.signal import conv as composed_conv

    kernel = jnp.asarray(kernel)
    d = value.ndim - 2
    if transpose or kernel.ndim != d + 3 or kernel.shape[2] != value.shape[1]:
        return composed_conv(value, kernel, strides, out_sizes, transpose, zero_padding)
    dtype = jnp.result_type(value, kernel)
    if not jnp.issubdtype(dtype, jnp.inexact):
        return composed_conv(value, kernel, strides, out_sizes, transpose, zero_padding)
    s = [int(strides)] * d if np.ndim(strides) == 0 else [int(v) for v in strides]
    n, k = list(value.shape[2:]), list(kernel.shape[3:])
    before = [kk // 2 if zero_padding else 0 for kk in k]
    if out_sizes is None:
        o = [-(-i // st) if zero_padding else max((i - kk) // st + 1, 0)
             for i, st, kk in zip(n, s, k, strict=True)]
    else:
        o = [int(v) for v in out_sizes]
    batch = max(value.shape[0], kernel.shape[0])
    cin, cout = value.shape[1], kernel.shape[1]
    if 0 in n or min(o, default=1) <= 0:
        return jnp.zeros((batch, cout, *(max(v, 0) for v in o)), dtype)
    after = [(oo - 1) * st + kk - i - b
             for oo, st, kk, i, b in zip(o, s, k, n, before, strict=True)]
    x, w = value.astype(dtype), kernel.astype(dtype)
    groups = 1
    if kernel.shape[0] != 1:  # one kernel per batch entry: groups over the batch
        x = jnp.broadcast_to(x, (batch, *x.shape[1:])).reshape(1, batch * cin, *n)
        w = jnp.broadcast_to(w, (batch, *w.shape[1:])).reshape(batch * cout, cin, *k)
        groups = batch
    else:
        w = w[0]
    # negative padding cuts, as the composed version's _pad_crop
    out = jax.lax.conv_general_dilated(
        x, w, window_strides=s, padding=list(zip(before, after, strict=True)),
        feature_group_count=groups, precision=jax.lax.Precision.HIGHEST,
    )
    return out.reshape(batch, cout, *out.shape[2:])


TABLE = {
    "convolve": _integral(jnp.convolve),
    "correlate": _integral(jnp.correlate, "valid"),
    "conv": _conv,
    # jax.numpy's own (numpy semantics) beats the composed fallback
    "interp": NATIVE,
    # jax.numpy's polynomials are not numpy's (polymul and polydiv keep leading zeros,
    # roots and poly are always complex, polyfit gives no RankWarning, polyint, polyder,
    # polyadd, polyval and vander promote as jax: float32 stays float32): the composed
    # ones (translations/_composed/polynomial.py) run on jax
}
