"""tensorflow: the neural-network layer ops of keras.ops on ``tf.nn``.

keras took its layouts and its pooling padding from tensorflow: channels last,
'same' split with the extra entry after, the average over the entries inside.
So ``tf.nn.max_pool``/``avg_pool``, ``depth_to_space``/``space_to_depth``,
``depthwise_conv2d`` and the cross-entropy kernels on logits are keras's ops as they
are, for channels-last float inputs (tf's CPU kernels take no other layout). Everything
else is the composed version (``translations/_composed/nn.py``), which also raises the
errors.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from dispatch.translations._composed import nn as _nn
from dispatch.translations.tensorflow._common import _TENSOR

_FLOATS = frozenset({tf.float32, tf.float64})


def _floats(*xs: Any) -> bool:
    return all(isinstance(x, _TENSOR) for x in xs) and len({x.dtype for x in xs}) == 1 \
        and xs[0].dtype in _FLOATS


def _binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Any:
    if from_logits and _floats(target, output) and target.shape == output.shape:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    return _nn.binary_crossentropy(target, output, from_logits)


def _categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                              axis: int = -1) -> Any:
    if from_logits and _floats(target, output) and target.shape == output.shape \
            and output.shape.rank:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    return _nn.categorical_crossentropy(target, output, from_logits, axis)


def _sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                                     axis: int = -1) -> Any:
    # the kernel takes the class axis last and raises on an index outside [0, classes):
    # such an index gives a loss of 0 here, as in the composed version
    if (from_logits and _floats(output) and isinstance(target, _TENSOR)
            and target.dtype in (tf.int32, tf.int64) and output.shape.rank
            and axis % output.shape.rank == output.shape.rank - 1):
        if target.shape.rank == output.shape.rank and target.shape[-1] == 1:
            target = tf.squeeze(target, -1)
        if target.shape == output.shape[:-1]:
            n = output.shape[-1]
            valid = (target >= 0) & (target < n)
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=tf.where(valid, target, tf.zeros_like(target)), logits=output)
            return tf.where(valid, loss, tf.zeros_like(loss))
    return _nn.sparse_categorical_crossentropy(target, output, from_logits, axis)


_FORMATS = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _pool(how: str) -> Any:
    composed = _nn.max_pool if how == "max" else _nn.average_pool
    kernel = tf.nn.max_pool if how == "max" else tf.nn.avg_pool
    name = "max_pool" if how == "max" else "average_pool"

    def pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
             data_format: str | None = None) -> Any:
        if (_floats(inputs) and inputs.shape.rank in (3, 4)
                and data_format in (None, "channels_last")
                and isinstance(padding, str) and padding.lower() in ("valid", "same")):
            _, geo = _nn.pool_geometry(inputs.shape, pool_size, strides, padding,
                                       data_format, name)
            if min(g[3] for g in geo) > 0:
                return kernel(inputs, [g[1] for g in geo], [g[2] for g in geo],
                              padding.upper(), data_format=_FORMATS[inputs.shape.rank])
        return composed(inputs, pool_size, strides, padding, data_format)

    pool.__name__ = pool.__qualname__ = "_" + name
    return pool


def _block(name: str) -> Any:
    composed = getattr(_nn, name)
    kernel = getattr(tf.nn, name)

    def block(x: Any, block_size: int, data_format: str = "channels_last") -> Any:
        if data_format == "channels_last" and isinstance(x, _TENSOR) and x.shape.rank == 4 \
                and int(block_size) >= 2:
            b = int(block_size)
            _, h, w, c = x.shape
            if (name == "depth_to_space" and c % (b * b) == 0) or \
                    (name == "space_to_depth" and h % b == 0 and w % b == 0):
                return kernel(x, b)
        return composed(x, block_size, data_format)

    block.__name__ = block.__qualname__ = "_" + name
    return block


def _depthwise_conv(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid",
                    data_format: str | None = None, dilation_rate: Any = 1) -> Any:
    # tf.nn.depthwise_conv2d is keras's op for 2-D channels-last inputs (its kernel layout,
    # its 'SAME'); tf takes equal strides along both axes, and no dilation with strides
    if (_floats(inputs, kernel) and inputs.shape.rank == 4 and kernel.shape.rank == 4
            and data_format in (None, "channels_last") and isinstance(padding, str)
            and padding.lower() in ("valid", "same") and inputs.shape[-1] == kernel.shape[-2]):
        ss = _nn._tuple(strides, 2, "strides", "depthwise_conv")
        ds = _nn._tuple(dilation_rate, 2, "dilation_rate", "depthwise_conv")
        if ss[0] == ss[1] and (ss == (1, 1) or ds == (1, 1)):
            return tf.nn.depthwise_conv2d(inputs, kernel, (1, *ss, 1), padding.upper(),
                                          dilations=ds)
    return _nn.depthwise_conv(inputs, kernel, strides, padding, data_format, dilation_rate)


TABLE = {
    "depthwise_conv": _depthwise_conv,
    "binary_crossentropy": _binary_crossentropy,
    "categorical_crossentropy": _categorical_crossentropy,
    "sparse_categorical_crossentropy": _sparse_categorical_crossentropy,
    "max_pool": _pool("max"),
    "average_pool": _pool("mean"),
    "depth_to_space": _block("depth_to_space"),
    "space_to_depth": _block("space_to_depth"),
}
