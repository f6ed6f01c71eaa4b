"""The neural-network layer ops of keras.ops, written once with ``do``.

Normalizations (``batch_normalization``, ``layer_normalization``,
``rms_normalization``), the cross-entropy losses, pooling (``max_pool``,
``average_pool`` and their adaptive versions), ``dot_product_attention``,
``depth_to_space``/``space_to_depth``, ``unfold``/``fold`` and the convolutions
``depthwise_conv``, ``separable_conv`` and ``conv_transpose``: keras's names,
keywords and defaults, and keras's layouts (channels last unless
``data_format="channels_first"``; ``unfold``/``fold`` are channels first, as in
keras and torch). The formulas and the dtype rule are in docs/vocabulary.md
("Neural-network layers"); a library's native kernels for these names live in
its own ``nn`` topic module. Floating inputs keep their dtype, integers are
computed in ``float_type()`` (float32), complex inputs raise ``TypeError``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed._common import _index64
from dispatch.translations._composed._pooling import (  # noqa: F401 (re-exported)
    _data_format,
    _tuple,
    adaptive_average_pool,
    adaptive_max_pool,
    adaptive_windows,
    average_pool,
    max_pool,
    pool_geometry,
)
from dispatch.translations._composed.signal import _upsample
from dispatch.translations._composed.statistics import _ml_float

from dispatch.engine import composed, do

EPSILON = 1e-7  # keras's backend.epsilon()


def _same_dtype(value: Any, x: Any) -> Any:
    """An array ``value`` in ``x``'s dtype (tensorflow does not promote mixed operands)."""
    if value is None or not hasattr(value, "shape"):
        return value
    return do("astype", value, do("dtype_of", x).name)


def _upcast(x: Any) -> tuple[Any, str | None]:
    """``(x in float32, its half dtype)`` for half precision (keras's rule), else ``(x, None)``."""
    name = do("dtype_of", x).name
    if name in ("float16", "bfloat16"):
        return do("astype", x, "float32"), name
    return x, None


# ---------------------------------------------------------------- normalizations


@composed("batch_normalization")
def batch_normalization(x: Any, mean: Any, variance: Any, axis: int, offset: Any = None,
                        scale: Any = None, epsilon: float = 1e-3) -> Any:
    """``(x - mean) / sqrt(variance + epsilon) * scale + offset``, with the statistics
    of one channel axis given (keras's ``batch_normalization``).

    1-D ``mean``, ``variance``, ``offset`` and ``scale`` hold one value per entry of
    ``axis`` of ``x``; arrays of ``x``'s rank broadcast as they are.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 2.0], [3.0, 6.0]])
    >>> do("batch_normalization", x, np.array([2.0, 4.0]), np.array([1.0, 4.0]), axis=1,
    ...    epsilon=0.0)
    array([[-1., -1.],
           [ 1.,  1.]])
    """
    x = _ml_float(x, "batch_normalization")
    nd = do("ndim", x)
    shape = [1] * nd
    if nd:
        shape[axis] = do("shape", x)[axis]

    def channel(v: Any) -> Any:
        if v is None or not hasattr(v, "shape"):
            return v
        v = _same_dtype(v, x)
        return do("reshape", v, shape) if do("ndim", v) == 1 and nd > 1 else v

    inv = do("rsqrt", channel(variance) + epsilon)
    if scale is not None:
        inv = inv * channel(scale)
    shift = -channel(mean) * inv
    if offset is not None:
        shift = shift + channel(offset)
    return x * inv + shift


def _axes(axis: Any, nd: int) -> list[int]:
    axes = [axis] if isinstance(axis, int) else list(axis)
    return sorted(a % nd if nd else a for a in axes)


@composed("layer_normalization")
def layer_normalization(x: Any, gamma: Any = None, beta: Any = None, axis: Any = -1,
                        epsilon: float | None = None) -> Any:
    """``(x - mean) / sqrt(var + epsilon) * gamma + beta``, the statistics taken over
    ``axis`` (an int or a sequence; the last by default) of each example
    (keras's ``layer_normalization``; ``epsilon`` defaults to 1e-7).

    ``gamma``/``beta`` of another rank than ``x`` hold the values of the normalized
    axes (reshaped to broadcast); half precision is computed in float32.

    Examples
    --------
    >>> import numpy as np
    >>> do("layer_normalization", np.array([[1.0, 3.0], [4.0, 0.0]]), epsilon=0.0)
    array([[-1.,  1.],
           [ 1., -1.]])
    """
    x, back = _upcast(_ml_float(x, "layer_normalization"))
    eps = EPSILON if epsilon is None else float(epsilon)
    shape = do("shape", x)
    axes = _axes(axis, len(shape))
    bshape = [shape[d] if d in axes else 1 for d in range(len(shape))]

    def param(v: Any) -> Any:
        v = _same_dtype(v, x)
        if v is not None and hasattr(v, "shape") and do("ndim", v) != len(shape) \
                and axes != [len(shape) - 1]:
            v = do("reshape", v, bshape)
        return v

    mean = do("mean", x, axis=tuple(axes), keepdims=True)
    centred = x - mean
    var = do("mean", do("square", centred), axis=tuple(axes), keepdims=True)
    inv = do("rsqrt", var + eps)
    if gamma is not None:
        inv = inv * param(gamma)
    out = centred * inv
    if beta is not None:
        out = out + param(beta)
    return out if back is None else do("astype", out, back)


@composed("rms_normalization")
def rms_normalization(x: Any, scale: Any = None, axis: Any = -1,
                      epsilon: float | None = None) -> Any:
    """``x / sqrt(mean(x**2, axis) + epsilon) * scale`` (keras's ``rms_normalization``;
    ``axis`` an int or a sequence, the last by default; ``epsilon`` 1e-7 by default).

    Half precision is computed in float32.

    Examples
    --------
    >>> import numpy as np
    >>> do("rms_normalization", np.array([[3.0, 4.0]]) / np.sqrt(12.5), epsilon=0.0)
    array([[0.84852814, 1.13137085]])
    """
    x, back = _upcast(_ml_float(x, "rms_normalization"))
    eps = EPSILON if epsilon is None else float(epsilon)
    if do("ndim", x) == 0:
        x = do("reshape", x, (1,))
    axes = tuple(_axes(axis, do("ndim", x)))
    out = x * do("rsqrt", do("mean", do("square", x), axis=axes, keepdims=True) + eps)
    if scale is not None:
        out = out * _same_dtype(scale, x)
    return out if back is None else do("astype", out, back)


# ---------------------------------------------------------------- cross-entropy losses


def _pair(target: Any, output: Any, name: str) -> tuple[Any, Any]:
    output = _ml_float(output, name)
    ts, os_ = tuple(do("shape", target)), tuple(do("shape", output))
    if ts != os_:
        raise ValueError(f"{name}: target and output must have the same shape; got "
                         f"{ts} and {os_}")
    return _same_dtype(target, output), output


def _clipped_log(p: Any) -> Any:
    return do("log", do("clip", p, EPSILON, 1.0 - EPSILON))


@composed("binary_crossentropy")
def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Any:
    """Elementwise ``-(t log p + (1 - t) log(1 - p))`` (keras's
    ``binary_crossentropy``; no reduction).

    Probabilities are clipped to ``[1e-7, 1 - 1e-7]``; with ``from_logits`` the loss
    of ``p = sigmoid(z)`` is computed exactly as ``max(z, 0) - z t + log1p(exp(-|z|))``.

    Examples
    --------
    >>> import numpy as np
    >>> do("binary_crossentropy", np.array([1.0, 0.0]), np.array([0.5, 0.25]))
    array([0.69314718, 0.28768207])
    """
    t, z = _pair(target, output, "binary_crossentropy")
    if from_logits:
        return do("maximum", z, 0.0) - z * t + do("log1p", do("exp", -do("abs", z)))
    return -(t * _clipped_log(z) + (1.0 - t) * _clipped_log(1.0 - z))


def _log_probs(output: Any, from_logits: bool, axis: int) -> Any:
    if from_logits:
        return do("log_softmax", output, axis=axis)
    return _clipped_log(output / do("sum", output, axis=axis, keepdims=True))


@composed("categorical_crossentropy")
def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                             axis: int = -1) -> Any:
    """``-sum(t * log p, axis)`` with ``p`` the normalized ``output`` (clipped to
    ``[1e-7, 1 - 1e-7]``) or ``log_softmax(output)`` with ``from_logits`` (keras's
    ``categorical_crossentropy``; the class axis is the last by default).

    Examples
    --------
    >>> import numpy as np
    >>> do("categorical_crossentropy", np.array([[0.0, 1.0]]), np.array([[0.5, 1.5]]))
    array([0.28768207])
    """
    t, z = _pair(target, output, "categorical_crossentropy")
    if not do("shape", z):
        raise ValueError("categorical_crossentropy: target and output must be at least 1-D")
    return -do("sum", t * _log_probs(z, from_logits, axis), axis=axis)


@composed("sparse_categorical_crossentropy")
def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                                    axis: int = -1) -> Any:
    """``-log p[target]`` along the class axis of ``output`` (keras's
    ``sparse_categorical_crossentropy``): ``target`` holds integer class indices, of
    ``output``'s shape without the class axis (a trailing axis of length 1 is
    dropped). An index outside ``[0, classes)`` gives a loss of 0, as keras's
    one-hot formula.

    Examples
    --------
    >>> import numpy as np
    >>> do("sparse_categorical_crossentropy", np.array([1]), np.array([[0.5, 1.5]]))
    array([0.28768207])
    """
    name = "sparse_categorical_crossentropy"
    if do("dtype_of", target).kind not in "iu":
        raise TypeError(f"{name} takes integer class indices as target; got dtype "
                        f"{do('get_dtype_name', target)}")
    z = _ml_float(output, name)
    os_ = tuple(do("shape", z))
    if not os_:
        raise ValueError(f"{name}: output must be at least 1-D")
    ts = tuple(do("shape", target))
    if len(ts) == len(os_) and ts[-1] == 1:
        target = do("squeeze", target, axis=-1)
        ts = ts[:-1]
    ax = axis % len(os_)
    if ts != os_[:ax] + os_[ax + 1:]:
        raise ValueError(f"{name}: target's shape must be output's without the class axis; "
                         f"got {ts} and {os_}")
    n = os_[ax]
    valid = do("logical_and", target >= 0, target < n)
    idx = do("expand_dims", _index64(do("where", valid, target, 0)), ax)
    picked = do("squeeze", do("take_along_axis", _log_probs(z, from_logits, ax), idx, axis=ax),
                axis=ax)
    return do("where", valid, -picked, do("zeros_like", picked))


# ---------------------------------------------------------------- attention


def large_negative(dtype: Any) -> float:
    """The masked logit: ``-0.7`` times float32's (float16's) largest value, keras's
    and jax's choice (a fully masked row averages all values instead of giving nan)."""
    half = str(dtype).rpartition(".")[2] == "float16"  # a numpy or a library dtype
    return -0.7 * (65500.0 if half else 3.38953e38)


@composed("dot_product_attention")
def dot_product_attention(query: Any, key: Any, value: Any, bias: Any = None, mask: Any = None,
                          scale: float | None = None, is_causal: bool = False,
                          flash_attention: bool | None = None,
                          attn_logits_soft_cap: float | None = None) -> Any:
    """``softmax(scale q k^T + bias, masked) v`` per batch and head (keras's
    ``dot_product_attention``).

    ``query`` is (batch, T, heads, H), ``key``/``value`` (batch, S, heads, H);
    ``scale`` defaults to ``1 / sqrt(H)``; ``bias`` and the boolean ``mask`` (True:
    attend) broadcast to (batch, heads, T, S); ``is_causal`` keeps ``s <= t``;
    ``attn_logits_soft_cap`` maps the scaled logits to ``cap tanh(logits / cap)``.
    Masked logits become ``large_negative``; the softmax runs in at least float32.
    ``flash_attention`` is a hint for native kernels (the result is the same).

    Examples
    --------
    >>> import numpy as np
    >>> q = np.ones((1, 1, 1, 2)); k = np.zeros((1, 2, 1, 2))
    >>> v = np.array([[[[1.0, 0.0]], [[3.0, 2.0]]]])
    >>> do("dot_product_attention", q, k, v)[0, 0, 0]
    array([2., 1.])
    """
    name = "dot_product_attention"
    q, k, v = (_ml_float(a, name) for a in (query, key, value))
    for a, what in ((q, "query"), (k, "key"), (v, "value")):
        if do("ndim", a) != 4:
            raise ValueError(f"{name} takes 4-D (batch, length, heads, depth) inputs; {what} "
                             f"has shape {tuple(do('shape', a))}")
    dtype = np.result_type(*(do("dtype_of", a) for a in (q, k, v)))
    q, k, v = (do("astype", a, dtype.name) for a in (q, k, v))
    h = do("shape", k)[-1]
    s = 1.0 / math.sqrt(h) if scale is None else float(scale)
    logits = do("einsum", "btnh,bsnh->bnts", q, k) * s
    if attn_logits_soft_cap is not None:
        cap = float(attn_logits_soft_cap)
        logits = cap * do("tanh", logits / cap)
    if bias is not None:
        logits = logits + _same_dtype(bias, logits)
    keep = None if mask is None else do("astype", mask, "bool")
    if is_causal:
        t_len, s_len = do("shape", logits)[2:]
        tril = do("asarray", np.tril(np.ones((t_len, s_len), dtype=bool)), like=logits)
        keep = tril if keep is None else do("logical_and", keep, tril)
    if keep is not None:
        logits = do("where", keep, logits, large_negative(dtype))
    wide = np.promote_types(dtype, np.float32).name
    probs = do("astype", do("softmax", do("astype", logits, wide), axis=-1), dtype.name)
    return do("einsum", "bnts,bsnh->btnh", probs, v)


# ---------------------------------------------------------------- depth_to_space, unfold


def _block(x: Any, block_size: Any, data_format: Any, name: str) -> tuple[int, str, tuple]:
    fmt = _data_format(data_format, name)
    shape = tuple(do("shape", x))
    if len(shape) != 4:
        raise ValueError(f"{name} takes 4-D inputs; got shape {shape}")
    b = int(block_size)
    if b < 1:
        raise ValueError(f"{name}: block_size must be >= 1; got {block_size!r}")
    return b, fmt, shape


@composed("depth_to_space")
def depth_to_space(x: Any, block_size: int, data_format: str = "channels_last") -> Any:
    """Moves channel blocks into ``block_size x block_size`` spatial tiles (keras's
    ``depth_to_space``; tensorflow's order: channel ``(i b + j) c' + c`` goes to
    tile position ``(i, j)``, channel ``c``; channels first: ``c b^2 + i b + j``,
    torch's ``pixel_shuffle``).

    Examples
    --------
    >>> import numpy as np
    >>> do("depth_to_space", np.arange(4.0).reshape(1, 1, 1, 4), 2)[0, ..., 0]
    array([[0., 1.],
           [2., 3.]])
    """
    b, fmt, (n, d1, d2, d3) = _block(x, block_size, data_format, "depth_to_space")
    c = d3 if fmt == "channels_last" else d1
    if c % (b * b):
        raise ValueError(f"depth_to_space: {c} channels are not a multiple of "
                         f"block_size**2 = {b * b}")
    if fmt == "channels_last":
        y = do("reshape", x, (n, d1, d2, b, b, c // (b * b)))
        y = do("transpose", y, (0, 1, 3, 2, 4, 5))
        return do("reshape", y, (n, d1 * b, d2 * b, c // (b * b)))
    y = do("reshape", x, (n, c // (b * b), b, b, d2, d3))
    y = do("transpose", y, (0, 1, 4, 2, 5, 3))
    return do("reshape", y, (n, c // (b * b), d2 * b, d3 * b))


@composed("space_to_depth")
def space_to_depth(x: Any, block_size: int, data_format: str = "channels_last") -> Any:
    """The inverse of ``depth_to_space`` (keras's ``space_to_depth``); the spatial
    sizes must be multiples of ``block_size``.

    Examples
    --------
    >>> import numpy as np
    >>> do("space_to_depth", np.arange(4.0).reshape(1, 2, 2, 1), 2)[0, 0, 0]
    array([0., 1., 2., 3.])
    """
    b, fmt, (n, d1, d2, d3) = _block(x, block_size, data_format, "space_to_depth")
    h, w = (d1, d2) if fmt == "channels_last" else (d2, d3)
    if h % b or w % b:
        raise ValueError(f"space_to_depth: spatial sizes {(h, w)} are not multiples of "
                         f"block_size {b}")
    if fmt == "channels_last":
        y = do("reshape", x, (n, h // b, b, w // b, b, d3))
        y = do("transpose", y, (0, 1, 3, 2, 4, 5))
        return do("reshape", y, (n, h // b, w // b, d3 * b * b))
    y = do("reshape", x, (n, d1, h // b, b, w // b, b))
    y = do("transpose", y, (0, 1, 3, 5, 2, 4))
    return do("reshape", y, (n, d1 * b * b, h // b, w // b))


def unfold_geometry(size: Sequence[int], kernel_size: Any, dilation: Any, padding: Any,
                    stride: Any, name: str) -> tuple[tuple[int, ...], ...]:
    """``(k, d, p, s, blocks)`` per spatial axis of ``unfold``/``fold`` (torch's sizes)."""
    k, d = _tuple(kernel_size, 2, "kernel_size", name), _tuple(dilation, 2, "dilation", name)
    s = _tuple(stride, 2, "stride", name)
    p = (int(padding),) * 2 if isinstance(padding, (int, np.integer)) else tuple(padding)
    if len(p) != 2 or min(p) < 0:
        raise ValueError(f"{name}: padding must be an int >= 0 or two of them; got {padding!r}")
    blocks = tuple((n + 2 * pp - dd * (kk - 1) - 1) // ss + 1
                   for n, kk, dd, pp, ss in zip(size, k, d, p, s, strict=True))
    if min(blocks) < 1:
        raise ValueError(f"{name}: the kernel {k} (dilation {d}) does not fit the padded "
                         f"spatial size {tuple(size)} + 2 * {p}")
    return k, d, p, s, blocks


@composed("unfold")
def unfold(x: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Any:
    """The sliding blocks of a (N, C, H, W) input as columns: (N, C kH kW, L), row
    ``c kH kW + i kW + j``, column ``bh * blocks_w + bw`` (keras's and torch's
    ``unfold``, channels first; zero ``padding`` on both sides).

    Examples
    --------
    >>> import numpy as np
    >>> do("unfold", np.arange(6.0).reshape(1, 1, 2, 3), 2)[0]
    array([[0., 1.],
           [1., 2.],
           [3., 4.],
           [4., 5.]])
    """
    shape = tuple(do("shape", x))
    if len(shape) != 4:
        raise ValueError(f"unfold takes (N, C, H, W) inputs; got shape {shape}")
    (kh, kw), (dh, dw), (ph, pw), (sh, sw), (bh, bw) = unfold_geometry(
        shape[2:], kernel_size, dilation, padding, stride, "unfold")
    if ph or pw:
        x = do("pad", x, [(0, 0), (0, 0), (ph, ph), (pw, pw)])
    parts = [x[:, :, i * dh : i * dh + (bh - 1) * sh + 1 : sh,
               j * dw : j * dw + (bw - 1) * sw + 1 : sw]
             for i in range(kh) for j in range(kw)]
    cols = do("stack", parts, axis=2)  # (N, C, kh kw, bh, bw)
    return do("reshape", cols, (shape[0], shape[1] * kh * kw, bh * bw))


@composed("fold")
def fold(x: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Any:
    """The adjoint of ``unfold``: the columns (N, C kH kW, L) summed back into an
    (N, C, H, W) image, overlapping entries added (keras's and torch's ``fold``).

    Examples
    --------
    >>> import numpy as np
    >>> do("fold", np.ones((1, 4, 2)), (2, 3), 2)[0, 0]
    array([[1., 2., 1.],
           [1., 2., 1.]])
    """
    shape = tuple(do("shape", x))
    if len(shape) != 3:
        raise ValueError(f"fold takes (N, C * kH * kW, L) inputs; got shape {shape}")
    size = _tuple(output_size, 2, "output_size", "fold")
    (kh, kw), (dh, dw), (ph, pw), (sh, sw), (bh, bw) = unfold_geometry(
        size, kernel_size, dilation, padding, stride, "fold")
    if shape[1] % (kh * kw) or shape[2] != bh * bw:
        raise ValueError(f"fold: input shape {shape} does not match kernel {(kh, kw)} and "
                         f"{bh * bw} blocks")
    c = shape[1] // (kh * kw)
    cols = do("reshape", x, (shape[0], c, kh, kw, bh, bw))
    hp, wp = size[0] + 2 * ph, size[1] + 2 * pw
    out = None
    for i in range(kh):
        for j in range(kw):
            block = cols[:, :, i, j]
            if sh > 1 or sw > 1:  # zeros between the blocks
                z = do("zeros_like", block)
                block = do("stack", [block] + [z] * (sh - 1), axis=3)
                block = do("reshape", block, (shape[0], c, bh * sh, bw))
                z = do("zeros_like", block)
                block = do("stack", [block] + [z] * (sw - 1), axis=4)
                block = do("reshape", block, (shape[0], c, bh * sh, bw * sw))
                block = block[:, :, : (bh - 1) * sh + 1, : (bw - 1) * sw + 1]
            top, left = i * dh, j * dw
            rows, width = do("shape", block)[2:]
            block = do("pad", block, [(0, 0), (0, 0), (top, hp - top - rows),
                                      (left, wp - left - width)])
            out = block if out is None else out + block
    assert out is not None  # kh, kw >= 1
    return out[:, :, ph : ph + size[0], pw : pw + size[1]]


# ---------------------------------------------------------------- depthwise, separable, transposed


def _taps(x: Any, kernel: Any, strides: tuple, dilation: tuple, out: tuple,
          depthwise: bool) -> Any:
    """``out[b, p, o] = sum_{m, i} x[b, p s + m d, i] kernel[m, i, o]`` on a channels-last
    ``x`` padded already: one strided slice and one channel product per kernel tap
    (depthwise: ``x[b, p s + m d, i] kernel[m, i, j]`` at channel ``i M + j``)."""
    ks = tuple(do("shape", kernel))
    d = len(strides)
    acc = None
    for tap in np.ndindex(*ks[:d]):
        index = [slice(None)] + [slice(m * dd, m * dd + (o - 1) * s + 1, s) for m, dd, o, s
                                 in zip(tap, dilation, out, strides, strict=True)]
        part = x[tuple(index)]
        w = kernel[tap]
        term = part[..., None] * w if depthwise else do("matmul", part, w)
        acc = term if acc is None else acc + term
    if depthwise:
        acc = do("reshape", acc, (*do("shape", acc)[:-2], ks[-2] * ks[-1]))
    return acc


def _conv_args(inputs: Any, kernel: Any, strides: Any, padding: Any, data_format: Any,
               dilation_rate: Any, name: str) -> tuple:
    fmt = _data_format(data_format, name)
    pad = padding.lower() if isinstance(padding, str) else padding
    if pad not in ("valid", "same"):
        raise ValueError(f"{name}: padding must be 'valid' or 'same'; got {padding!r}")
    x = _ml_float(inputs, name)
    nd = do("ndim", x)
    if nd < 3 or do("ndim", kernel) != nd:
        raise ValueError(f"{name} takes (batch, spatial..., channels) inputs and a kernel of "
                         f"the same rank; got shapes {tuple(do('shape', x))} and "
                         f"{tuple(do('shape', kernel))}")
    if fmt == "channels_first":
        x = do("moveaxis", x, 1, -1)
    d = nd - 2
    return (x, _same_dtype(kernel, x), fmt, pad, _tuple(strides, d, "strides", name),
            _tuple(dilation_rate, d, "dilation_rate", name))


def conv_pads(spatial: Sequence[int], ks: Sequence[int], ss: Sequence[int],
              ds: Sequence[int], pad: str) -> list[tuple[int, int]]:
    """``(before, after)`` zeros per spatial axis of keras's forward convolutions."""
    width = []
    for n, k, s, dd in zip(spatial, ks, ss, ds, strict=True):
        total = max((-(-n // s) - 1) * s + (k - 1) * dd + 1 - n, 0) if pad == "same" else 0
        width.append((total // 2, total - total // 2))
    return width


def _forward(inputs: Any, kernel: Any, strides: Any, padding: Any, data_format: Any,
             dilation_rate: Any, name: str) -> Any:
    x, kernel, fmt, pad, ss, ds = _conv_args(inputs, kernel, strides, padding, data_format,
                                             dilation_rate, name)
    shape, ks = do("shape", x), do("shape", kernel)
    if ks[-2] != shape[-1]:
        raise ValueError(f"{name}: the input has {shape[-1]} channels, the kernel expects "
                         f"{ks[-2]}")
    width = [(0, 0), *conv_pads(shape[1:-1], ks[:-2], ss, ds, pad)]
    out = tuple(max((n + w[0] + w[1] - (k - 1) * dd - 1) // s + 1, 0) for n, w, k, s, dd
                in zip(shape[1:-1], width[1:], ks[:-2], ss, ds, strict=True))
    if any(w != (0, 0) for w in width):
        x = do("pad", x, [*width, (0, 0)])
    y = _taps(x, kernel, ss, ds, out, True)
    return y if fmt == "channels_last" else do("moveaxis", y, -1, 1)


@composed("depthwise_conv")
def depthwise_conv(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid",
                   data_format: str | None = None, dilation_rate: Any = 1) -> Any:
    """Each input channel correlated with its own ``multiplier`` filters (keras's
    ``depthwise_conv``): ``kernel`` is (spatial..., channels, multiplier), output
    channel ``c * multiplier + j``; ``padding`` 'same' or 'valid' as the pooling's
    (tensorflow's split), ``dilation_rate`` spreads the kernel taps.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]]])
    >>> do("depthwise_conv", x, np.ones((2, 2, 1)))[0]
    array([[ 3., 30.],
           [ 5., 50.]])
    """
    return _forward(inputs, kernel, strides, padding, data_format, dilation_rate,
                    "depthwise_conv")


@composed("separable_conv")
def separable_conv(inputs: Any, depthwise_kernel: Any, pointwise_kernel: Any, strides: Any = 1,
                   padding: str = "valid", data_format: str | None = None,
                   dilation_rate: Any = 1) -> Any:
    """``depthwise_conv`` followed by a 1x1 convolution mixing the channels (keras's
    ``separable_conv``): ``pointwise_kernel`` is (1..., channels * multiplier, filters).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]]])
    >>> do("separable_conv", x, np.ones((2, 2, 1)), np.ones((1, 2, 1)))[0]
    array([[33.],
           [55.]])
    """
    y = do("depthwise_conv", inputs, depthwise_kernel, strides, padding, data_format,
           dilation_rate)
    fmt = _data_format(data_format, "separable_conv")
    if fmt == "channels_first":
        y = do("moveaxis", y, 1, -1)
    pk = _same_dtype(pointwise_kernel, y)
    ps = do("shape", pk)
    if do("ndim", pk) != do("ndim", y) or ps[-2] != do("shape", y)[-1]:
        raise ValueError(f"separable_conv: pointwise_kernel of shape {tuple(ps)} does not "
                         f"take {do('shape', y)[-1]} channels")
    y = do("matmul", y, do("reshape", pk, ps[-2:]))
    return y if fmt == "channels_last" else do("moveaxis", y, -1, 1)


@composed("conv_transpose")
def conv_transpose(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid",
                   output_padding: Any = None, data_format: str | None = None,
                   dilation_rate: Any = 1) -> Any:
    """The transposed convolution (the adjoint of the strided one) of keras's
    ``conv_transpose``: ``kernel`` is (spatial..., filters, channels). The output
    length of an axis is ``(n - 1) s + keff + output_padding`` ('valid'; default
    ``output_padding = max(keff, s) - keff``) or ``n s`` ('same'; with an
    ``output_padding``, ``(n - 1) s + keff % 2 + output_padding``), ``keff = (k - 1)
    dilation + 1``, keras's padding rules.

    Examples
    --------
    >>> import numpy as np
    >>> do("conv_transpose", np.array([[[1.0], [2.0]]]), np.ones((2, 1, 1)), 2)[..., 0]
    array([[1., 1., 2., 2.]])
    """
    name = "conv_transpose"
    x, kernel, fmt, pad, ss, ds = _conv_args(inputs, kernel, strides, padding, data_format,
                                             dilation_rate, name)
    shape, ks = do("shape", x), do("shape", kernel)
    d = len(ss)
    if ks[-1] != shape[-1]:
        raise ValueError(f"{name}: the input has {shape[-1]} channels, the kernel expects "
                         f"{ks[-1]}")
    ops: tuple = (None,) * d if output_padding is None else (int(output_padding),) * d \
        if isinstance(output_padding, (int, np.integer)) else tuple(map(int, output_padding))
    if len(ops) != d or min((v for v in ops if v is not None), default=0) < 0:
        raise ValueError(f"{name}: output_padding must be None, an int >= 0 or {d} of them; "
                         f"got {output_padding!r}")
    width, out = [(0, 0)], []
    for a, (n, k, s, dd, op) in enumerate(zip(shape[1:-1], ks[:-2], ss, ds, ops, strict=True)):
        keff = (k - 1) * dd + 1
        if pad == "valid":
            op = max(keff, s) - keff if op is None else op
            left, right = keff - 1, keff - 1 + op
        else:
            total = s + keff - 2 if op is None else keff + keff % 2 - 2 + op
            left = min(total // 2 + total % 2, keff - 1)
            right = total - left
        x = _upsample(x, 1 + a, s)
        width.append((left, right))
        out.append((n - 1) * s + 1 + left + right - keff + 1)
    if min(w for pair in width for w in pair) < 0:
        raise ValueError(f"{name}: output_padding {output_padding!r} is too small")
    x = do("pad", x, [*width, (0, 0)])
    flipped = do("flip", kernel, axis=tuple(range(d)))
    y = _taps(x, do("swapaxes", flipped, -1, -2), (1,) * d, ds, tuple(out), False)
    return y if fmt == "channels_last" else do("moveaxis", y, -1, 1)

