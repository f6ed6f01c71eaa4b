"""tensorflow's convolution of the backend method list: ``conv`` on
``tf.nn.convolution``/``conv_transpose``.

tf's CPU kernels take channels last only, so ``prefers_channels_last`` says so;
``grid_sample`` is the composed one (tf core has no resampler).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf
from dispatch.translations._composed._common import _combined as _combined_size
from dispatch.translations._composed.signal import conv as _conv_composed
from dispatch.translations.tensorflow._common import _result_dtype, _t, _to


def _pad_crop(x: Any, axis: int, before: int, after: int) -> Any:
    """Zero-pad (positive) or cut (negative) ``before``/``after`` entries of ``axis``."""
    if before > 0 or after > 0:
        width = [[0, 0]] * x.shape.rank
        width[axis] = [max(before, 0), max(after, 0)]
        x = tf.pad(x, width)
    if before < 0 or after < 0:
        n = x.shape[axis]
        sl = [slice(None)] * x.shape.rank
        sl[axis] = slice(max(-before, 0), n - max(-after, 0))
        x = x[tuple(sl)]
    return x


def _conv(value: Any, kernel: Any, strides: Any = 1, out_sizes: Any = None,
          transpose: bool = False, zero_padding: bool = True) -> Any:
    # tf.nn.convolution / conv_transpose, channels last (the only layout tf's CPU kernels
    # take) and 'VALID', with the list's padding (k // 2 zeros before, scipy's centring of
    # even kernels, which tf's 'SAME' does not do) applied explicitly; integer, complex,
    # empty and >3-D cases take the composed im2col version
    value, kernel = _t(value), _t(kernel)
    dt = _result_dtype(value, kernel)
    vshape, kshape = value.shape.as_list(), kernel.shape.as_list()
    d = len(vshape) - 2
    if (dt not in (tf.float32, tf.float64) or d not in (1, 2, 3) or len(kshape) != d + 3
            or None in vshape or None in kshape or 0 in vshape or 0 in kshape
            or kshape[2] != vshape[1]):
        return _conv_composed(value, kernel, strides, out_sizes, transpose, zero_padding)
    value, kernel = _to(value, dt), _to(kernel, dt)
    s = (int(strides),) * d if np.ndim(strides) == 0 else tuple(int(v) for v in strides)
    n, ks = vshape[2:], kshape[3:]
    p = [k // 2 if zero_padding else 0 for k in ks]
    if out_sizes is not None:
        sizes = [int(o) for o in out_sizes]
    elif transpose:
        sizes = [nn * ss if zero_padding else (nn - 1) * ss + k
                 for nn, ss, k in zip(n, s, ks, strict=True)]
    else:
        sizes = [-(-nn // ss) if zero_padding else max((nn - k) // ss + 1, 0)
                 for nn, ss, k in zip(n, s, ks, strict=True)]
    batch = _combined_size(vshape[0], kshape[0])
    if 0 in sizes:
        return tf.zeros((batch, kshape[1], *sizes), dt)
    x = tf.transpose(value, [0, *range(2, d + 2), 1])  # (batch, spatial..., in)
    spatial = list(range(3, d + 3))
    if not transpose:
        for i in range(d):
            after = (sizes[i] - 1) * s[i] + ks[i] - n[i] - p[i]
            x = _pad_crop(x, 1 + i, p[i], after)
        filt = tf.transpose(kernel, [0, *spatial, 2, 1])  # (kb, spatial..., in, out)

        def one(v: Any, f: Any) -> Any:
            return tf.nn.convolution(v, f, strides=s, padding="VALID")
    else:
        # the adjoint of the strided conv: the full 'VALID' transposed conv, of length
        # (n - 1) * s + k, holds output position j at j + p
        full = [(nn - 1) * ss + k for nn, ss, k in zip(n, s, ks, strict=True)]
        filt = tf.transpose(kernel, [0, *spatial, 1, 2])  # (kb, spatial..., out, in)

        def one(v: Any, f: Any) -> Any:
            out_shape = [v.shape[0], *full, kshape[1]]
            y = tf.nn.conv_transpose(v, f, out_shape, strides=s, padding="VALID")
            for i in range(d):
                y = _pad_crop(y, 1 + i, -p[i], sizes[i] + p[i] - full[i])
            return y

    if kshape[0] == 1:
        y = one(x, filt[0])
    else:  # one kernel per batch entry
        y = tf.concat([one(x[min(b, vshape[0] - 1)][None], filt[b]) for b in range(batch)], 0)
    return tf.transpose(y, [0, d + 1, *range(1, d + 1)])



def _extract_sequences(x: Any, sequence_length: int, sequence_stride: int) -> Any:
    # tf.signal.frame without padding: the whole frames of the last axis
    if isinstance(x, tf.Tensor) and x.shape.rank and isinstance(sequence_length, int) \
            and isinstance(sequence_stride, int) and sequence_length >= 1 \
            and sequence_stride >= 1:
        return tf.signal.frame(x, sequence_length, sequence_stride, pad_end=False, axis=-1)
    from dispatch.translations._composed.signal import extract_sequences

    return extract_sequences(x, sequence_length, sequence_stride)

TABLE = {
    "extract_sequences": _extract_sequences,
    "conv": _conv,
    "prefers_channels_last": lambda: True,  # tf's CPU convolutions are channels last
}
