"""torch: the neural-network layer ops of keras.ops on ``torch.nn.functional``.

keras's layouts are channels last and torch's kernels channels first: the pooling
adapters move the channel axis (a view) around ``max_pool*d``/``avg_pool*d`` and
the adaptive ones. Each adapter takes torch's kernel where its semantics are
keras's (a float tensor, the layout the kernel takes, symmetric 'same' padding...)
and hands every other call to the composed version in
``translations/_composed/nn.py``, which also raises the errors.
"""

from __future__ import annotations

import functools
from typing import Any

import torch
import torch.nn.functional as F
from dispatch.translations._composed import nn as _nn
from torch import Tensor

_FLOATS = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})
_WIDE = frozenset({torch.float32, torch.float64})  # keras computes halves in float32
_compiling = torch.compiler.is_compiling


def _floats(*xs: Any) -> bool:
    """All tensors of one float dtype (None skipped)."""
    dtypes = {x.dtype if isinstance(x, Tensor) else None for x in xs if x is not None}
    return len(dtypes) == 1 and next(iter(dtypes)) in _FLOATS


def _batch_normalization(x: Any, mean: Any, variance: Any, axis: int, offset: Any = None,
                         scale: Any = None, epsilon: float = 1e-3) -> Any:
    # F.batch_norm in inference mode normalizes axis 1 with 1-D statistics
    if (_floats(x, mean, variance, offset, scale) and x.ndim >= 2 and axis % x.ndim == 1
            and mean.ndim == 1 and variance.ndim == 1
            and all(v is None or v.ndim == 1 for v in (offset, scale))):
        return F.batch_norm(x, mean, variance, scale, offset, False, 0.0, float(epsilon))
    return _nn.batch_normalization(x, mean, variance, axis, offset, scale, epsilon)


def _trailing(x: Tensor, axis: Any) -> tuple[int, ...] | None:
    """The normalized shape when ``axis`` names the last axes of ``x``, else None."""
    axes = sorted(a % x.ndim for a in ([axis] if isinstance(axis, int) else axis))
    if not axes or axes != list(range(x.ndim - len(axes), x.ndim)):
        return None
    return tuple(x.shape[a] for a in axes)


def _layer_normalization(x: Any, gamma: Any = None, beta: Any = None, axis: Any = -1,
                         epsilon: float | None = None) -> Any:
    # F.layer_norm normalizes the trailing axes (biased variance, keras's formula)
    if axis == -1 and gamma is None and beta is None and type(x) is Tensor \
            and x.dtype in _WIDE and x.ndim:  # the common call, checked first
        return F.layer_norm(x, x.shape[-1:], None, None,
                            _nn.EPSILON if epsilon is None else float(epsilon))
    if _floats(x, gamma, beta) and x.ndim and x.dtype in _WIDE:
        shape = _trailing(x, axis)
        if shape is not None and all(v is None or tuple(v.shape) == shape
                                     for v in (gamma, beta)):
            eps = _nn.EPSILON if epsilon is None else float(epsilon)
            return F.layer_norm(x, shape, gamma, beta, eps)
    return _nn.layer_normalization(x, gamma, beta, axis, epsilon)


def _rms_normalization(x: Any, scale: Any = None, axis: Any = -1,
                       epsilon: float | None = None) -> Any:
    if axis == -1 and scale is None and type(x) is Tensor and x.dtype in _WIDE and x.ndim:
        return F.rms_norm(x, x.shape[-1:], None, _nn.EPSILON if epsilon is None
                          else float(epsilon))  # the common call, checked first
    if _floats(x, scale) and x.ndim and x.dtype in _WIDE:
        shape = _trailing(x, axis)
        if shape is not None and (scale is None or tuple(scale.shape) == shape):
            eps = _nn.EPSILON if epsilon is None else float(epsilon)
            return F.rms_norm(x, shape, scale, eps)
    return _nn.rms_normalization(x, scale, axis, epsilon)


def _binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Any:
    # the logits' kernel is the exact formula of the composed version; torch's
    # probability kernel clamps the log at -100 instead of clipping p (composed)
    if from_logits and _floats(target, output) and target.shape == output.shape:
        return F.binary_cross_entropy_with_logits(output, target, reduction="none")
    return _nn.binary_crossentropy(target, output, from_logits)


def _categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                              axis: int = -1) -> Any:
    # F.cross_entropy with class probabilities, the class axis moved to 1
    if from_logits and axis == -1 and type(output) is Tensor and type(target) is Tensor \
            and output.ndim == 2 and output.dtype in _FLOATS and target.dtype is output.dtype \
            and target.shape == output.shape:  # the common call, checked first
        return F.cross_entropy(output, target, reduction="none")
    if from_logits and _floats(target, output) and target.shape == output.shape \
            and output.ndim:
        if output.ndim == 1:
            return F.cross_entropy(output, target, reduction="none")
        return F.cross_entropy(output.movedim(axis, 1), target.movedim(axis, 1),
                               reduction="none")
    return _nn.categorical_crossentropy(target, output, from_logits, axis)


_INTS = frozenset({torch.int32, torch.int64, torch.int16, torch.int8, torch.uint8})


def _sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                                     axis: int = -1) -> Any:
    # F.cross_entropy with class indices; an index outside [0, classes) becomes torch's
    # ignore_index (loss 0, as the composed version) instead of an error
    if (from_logits and isinstance(output, Tensor) and output.dtype in _FLOATS
            and isinstance(target, Tensor) and target.dtype in _INTS and output.ndim >= 2):
        if target.ndim == output.ndim and target.shape[-1] == 1:
            target = target.squeeze(-1)
        ax = axis % output.ndim
        if tuple(target.shape) == output.shape[:ax] + output.shape[ax + 1:]:
            n = output.shape[ax]
            target = target.to(torch.int64)
            target = torch.where((target >= 0) & (target < n), target, -100)
            return F.cross_entropy(output.movedim(ax, 1), target, reduction="none",
                                   ignore_index=-100)
    return _nn.sparse_categorical_crossentropy(target, output, from_logits, axis)


_MAX = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}
_ADAPTIVE_MAX = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}
_ADAPTIVE_AVG = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}


def _first(x: Tensor, fmt: str) -> Tensor:
    return x.movedim(-1, 1) if fmt == "channels_last" else x


def _last(x: Tensor, fmt: str) -> Tensor:
    return x.movedim(1, -1) if fmt == "channels_last" else x


@functools.lru_cache(maxsize=256)
def _pool_plan(shape: tuple, pool_size: Any, strides: Any, padding: Any, data_format: Any,
               name: str) -> tuple[str, tuple | None]:
    """``(data_format, (kernel, strides, padding) of torch's kernel or None)``: torch pads
    both sides alike, so 'same' with an odd total padding has no plan (composed)."""
    fmt, geo = _nn.pool_geometry(shape, pool_size, strides, padding, data_format, name)
    pads = []
    for n, k, s, out, before in geo:
        after = max((out - 1) * s + k - n - before, 0)
        if before != after or out < 1 or (n - k + 2 * before) // s + 1 != out:
            return fmt, None
        pads.append(before)
    return fmt, (tuple(g[1] for g in geo), tuple(g[2] for g in geo), tuple(pads))


def _pool(how: str) -> Any:
    composed = _nn.max_pool if how == "max" else _nn.average_pool
    name = "max_pool" if how == "max" else "average_pool"
    kernels: dict[int, Any] = _MAX if how == "max" else _AVG

    def pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
             data_format: str | None = None) -> Any:
        if isinstance(inputs, Tensor) and inputs.dtype in _FLOATS and 3 <= inputs.ndim <= 5:
            args = (inputs.shape, pool_size, strides, padding, data_format, name)
            try:  # not cached under torch.compile (dynamo warns on lru_cache)
                fmt, plan = (_pool_plan.__wrapped__ if _compiling() else _pool_plan)(*args)
            except TypeError:  # a list argument: not cached
                fmt, plan = _pool_plan.__wrapped__(*args)
            if plan is not None:
                x = inputs.movedim(-1, 1) if fmt == "channels_last" else inputs
                if how == "max" or not any(plan[2]):
                    y = kernels[inputs.ndim - 2](x, *plan)
                else:
                    y = kernels[inputs.ndim - 2](x, *plan, count_include_pad=False)
                return y.movedim(1, -1) if fmt == "channels_last" else y
        return composed(inputs, pool_size, strides, padding, data_format)

    pool.__name__ = pool.__qualname__ = "_" + name
    return pool


def _adaptive(how: str) -> Any:
    composed = _nn.adaptive_max_pool if how == "max" else _nn.adaptive_average_pool
    kernels = _ADAPTIVE_MAX if how == "max" else _ADAPTIVE_AVG

    def adaptive(inputs: Any, output_size: Any, data_format: str | None = None) -> Any:
        if (isinstance(inputs, Tensor) and inputs.dtype in _FLOATS and 3 <= inputs.ndim <= 5
                and data_format in (None, "channels_last", "channels_first")
                and min(inputs.shape[1:-1] if data_format != "channels_first"
                        else inputs.shape[2:]) > 0):
            fmt = data_format or "channels_last"
            y = kernels[inputs.ndim - 2](_first(inputs, fmt), output_size)
            return _last(y, fmt)
        return composed(inputs, output_size, data_format)

    adaptive.__name__ = adaptive.__qualname__ = (
        "_adaptive_max_pool" if how == "max" else "_adaptive_average_pool")
    return adaptive


def _dot_product_attention(query: Any, key: Any, value: Any, bias: Any = None, mask: Any = None,
                           scale: float | None = None, is_causal: bool = False,
                           flash_attention: bool | None = None,
                           attn_logits_soft_cap: float | None = None) -> Any:
    # F.scaled_dot_product_attention on (batch, heads, length, depth): keras's layout
    # transposed (views); a bias and a mask become one additive float mask (the masked
    # logits shifted by the composed version's large negative, not -inf: a fully
    # masked row averages instead of giving nan)
    if (attn_logits_soft_cap is None and _floats(query, key, value)
            and query.ndim == key.ndim == value.ndim == 4
            and query.dtype in (torch.float32, torch.float64)
            and (bias is None or isinstance(bias, Tensor))
            and (mask is None or isinstance(mask, Tensor))):
        q, k, v = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
        extra = None if bias is None else bias.to(q.dtype)
        causal = bool(is_causal)
        if mask is not None or (causal and extra is not None):
            keep = torch.ones((), dtype=torch.bool, device=q.device) if mask is None \
                else mask.to(torch.bool)
            if causal:
                keep = keep & torch.ones(q.shape[2], k.shape[2], dtype=torch.bool,
                                         device=q.device).tril()
                causal = False
            shift = torch.where(keep, 0.0, _nn.large_negative(q.dtype)).to(q.dtype)
            extra = shift if extra is None else extra + shift
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=extra, is_causal=causal,
                                             scale=None if scale is None else float(scale))
        return out.transpose(1, 2)
    return _nn.dot_product_attention(query, key, value, bias, mask, scale, is_causal,
                                     flash_attention, attn_logits_soft_cap)


def _unfold(x: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
            stride: Any = 1) -> Any:
    if isinstance(x, Tensor) and x.dtype in _FLOATS and x.ndim == 4:
        _nn.unfold_geometry(x.shape[2:], kernel_size, dilation, padding, stride, "unfold")
        return F.unfold(x, kernel_size, dilation, padding, stride)
    return _nn.unfold(x, kernel_size, dilation, padding, stride)


def _fold(x: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
          stride: Any = 1) -> Any:
    if isinstance(x, Tensor) and x.dtype in _FLOATS and x.ndim == 3:
        size = _nn._tuple(output_size, 2, "output_size", "fold")
        (kh, kw), *_, blocks = _nn.unfold_geometry(size, kernel_size, dilation, padding,
                                                   stride, "fold")
        if x.shape[1] % (kh * kw) == 0 and x.shape[2] == blocks[0] * blocks[1]:
            return F.fold(x, size, kernel_size, dilation, padding, stride)
    return _nn.fold(x, output_size, kernel_size, dilation, padding, stride)


def _depth_to_space(x: Any, block_size: int, data_format: str = "channels_last") -> Any:
    # pixel_shuffle is channels first with keras's channels-first order
    if data_format == "channels_first" and isinstance(x, Tensor) and x.ndim == 4 \
            and int(block_size) >= 1 and x.shape[1] % int(block_size) ** 2 == 0:
        return F.pixel_shuffle(x, int(block_size))
    return _nn.depth_to_space(x, block_size, data_format)


def _space_to_depth(x: Any, block_size: int, data_format: str = "channels_last") -> Any:
    b = int(block_size)
    if data_format == "channels_first" and isinstance(x, Tensor) and x.ndim == 4 \
            and b >= 1 and x.shape[2] % b == 0 and x.shape[3] % b == 0:
        return F.pixel_unshuffle(x, b)
    return _nn.space_to_depth(x, block_size, data_format)


_CONVS = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


def _depthwise_conv(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid",
                    data_format: str | None = None, dilation_rate: Any = 1) -> Any:
    # a grouped conv*d, one group per channel: keras's (k..., channels, multiplier) kernel
    # becomes torch's (channels * multiplier, 1, k...), output channel c * multiplier + j
    if (_floats(inputs, kernel) and 3 <= inputs.ndim <= 5 and kernel.ndim == inputs.ndim
            and data_format in (None, "channels_last", "channels_first")
            and isinstance(padding, str) and padding.lower() in ("valid", "same")):
        fmt, d = data_format or "channels_last", inputs.ndim - 2
        x = _first(inputs, fmt)
        c, m = kernel.shape[-2:]
        if x.shape[1] == c:
            ss = _nn._tuple(strides, d, "strides", "depthwise_conv")
            ds = _nn._tuple(dilation_rate, d, "dilation_rate", "depthwise_conv")
            width = _nn.conv_pads(x.shape[2:], kernel.shape[:d], ss, ds, padding.lower())
            flat = [w for pair in reversed(width) for w in pair]  # F.pad: last axis first
            if any(flat):
                x = F.pad(x, flat)
            w = kernel.permute(d, d + 1, *range(d)).reshape(c * m, 1, *kernel.shape[:d])
            return _last(_CONVS[d](x, w, stride=ss, dilation=ds, groups=c), fmt)
    return _nn.depthwise_conv(inputs, kernel, strides, padding, data_format, dilation_rate)


TABLE = {
    "batch_normalization": _batch_normalization,
    "layer_normalization": _layer_normalization,
    "rms_normalization": _rms_normalization,
    "binary_crossentropy": _binary_crossentropy,
    "categorical_crossentropy": _categorical_crossentropy,
    "sparse_categorical_crossentropy": _sparse_categorical_crossentropy,
    "max_pool": _pool("max"),
    "average_pool": _pool("mean"),
    "adaptive_max_pool": _adaptive("max"),
    "adaptive_average_pool": _adaptive("mean"),
    "dot_product_attention": _dot_product_attention,
    "unfold": _unfold,
    "fold": _fold,
    "depth_to_space": _depth_to_space,
    "space_to_depth": _space_to_depth,
    "depthwise_conv": _depthwise_conv,
}
