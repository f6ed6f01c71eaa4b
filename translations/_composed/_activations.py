"""The activations of keras.ops (``relu``, ``gelu``, ``softmax``...), composed: an
element-wise subtopic that stands on its own, re-exported by ``elementwise.py``
(the topic whose table modules hold these names), so both paths import them."""

from __future__ import annotations

import math
from typing import Any

from dispatch.translations._composed.devices import _weak_kind

from dispatch.engine import composed, do

# ---------------------------------------------------------------- activations (keras.ops)
# keras's names and keyword names; the formulas, defaults and the dtype rule are written
# once in docs/vocabulary.md ("ML ops"). Floats keep their dtype, integers and booleans
# are computed in ``float_type()`` (float32 unless ``dispatch.precision`` says otherwise,
# keras's floatx), complex numbers are refused: none of these functions has a complex
# definition the libraries agree on.

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946
_SQRT_HALF = math.sqrt(0.5)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _real_float(x: Any, name: str) -> Any:
    """``x`` with a real floating dtype, or a TypeError naming ``name``."""
    kind = _weak_kind(x)
    if kind is None:
        kind = do("dtype_of", x).kind
    if kind == "c":
        raise TypeError(f"{name} takes real numbers; got a complex input")
    if kind not in "biuf":
        raise TypeError(f"{name} takes real numbers; got {type(x).__name__}")
    if kind == "f":
        return x
    return float(x) if _weak_kind(x) is not None else do("to_float", x)


@composed("relu")
def relu(x: Any) -> Any:
    """Rectified linear unit: ``max(x, 0)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("relu", np.array([-2.0, 0.0, 3.0]))
    array([0., 0., 3.])
    """
    return do("maximum", _real_float(x, "relu"), 0.0)


@composed("relu6")
def relu6(x: Any) -> Any:
    """``min(max(x, 0), 6)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("relu6", np.array([-2.0, 3.0, 9.0]))
    array([0., 3., 6.])
    """
    return do("clip", _real_float(x, "relu6"), 0.0, 6.0)


@composed("gelu")
def gelu(x: Any, approximate: bool = False) -> Any:
    """Gaussian error linear unit: ``x * Phi(x) = 0.5 x (1 + erf(x / sqrt(2)))``.

    ``approximate=True`` takes the tanh form
    ``0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x**3)))``. The default is the exact
    (erf) form, as torch, tensorflow and ``keras.activations.gelu``
    (``keras.ops.gelu`` and ``jax.nn.gelu`` default to the tanh form).

    Examples
    --------
    >>> import numpy as np
    >>> do("gelu", np.array([-1.0, 0.0, 1.0]))
    array([-0.15865525,  0.        ,  0.84134475])
    >>> do("gelu", np.array([-1.0, 0.0, 1.0]), approximate=True)
    array([-0.15880801,  0.        ,  0.84119199])
    """
    x = _real_float(x, "gelu")
    if approximate:
        inner = _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + do("tanh", inner))
    return 0.5 * x * (1.0 + do("scipy.special.erf", x * _SQRT_HALF))


@composed("silu")
def silu(x: Any) -> Any:
    """Sigmoid linear unit (swish): ``x * sigmoid(x)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("silu", np.array([-1.0, 0.0, 1.0]))
    array([-0.26894142,  0.        ,  0.73105858])
    """
    x = _real_float(x, "silu")
    return x * do("sigmoid", x)


@composed("elu")
def elu(x: Any, alpha: float = 1.0) -> Any:
    """Exponential linear unit: ``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("elu", np.array([-1.0, 0.0, 2.0]))
    array([-0.63212056,  0.        ,  2.        ])
    """
    x = _real_float(x, "elu")
    return do("where", x > 0, x, alpha * do("expm1", do("minimum", x, 0.0)))


@composed("celu")
def celu(x: Any, alpha: float = 1.0) -> Any:
    """Continuously differentiable ELU: ``max(x, 0) + min(0, alpha * (exp(x / alpha) - 1))``.

    Examples
    --------
    >>> import numpy as np
    >>> do("celu", np.array([-1.0, 0.0, 2.0]), alpha=2.0)
    array([-0.78693868,  0.        ,  2.        ])
    """
    x = _real_float(x, "celu")
    if alpha == 0:
        raise ValueError("celu: alpha must not be 0 (it divides x)")
    neg = alpha * do("expm1", do("minimum", x, 0.0) / alpha)
    return do("where", x > 0, x, neg)


@composed("threshold")
def threshold(x: Any, threshold: float, default_value: float) -> Any:
    """``x`` where ``x > threshold``, else ``default_value`` (keras's ``threshold``,
    torch's ``threshold``), in ``x``'s dtype.

    Examples
    --------
    >>> import numpy as np
    >>> do("threshold", np.array([-1.0, 0.5, 2.0]), 0.5, -9.0)
    array([-9., -9.,  2.])
    """
    x = _real_float(x, "threshold")
    return do("where", x > threshold, x, do("full_like", x, default_value))


@composed("selu")
def selu(x: Any) -> Any:
    """Scaled exponential linear unit: ``scale * elu(x, alpha)`` with
    ``alpha = 1.67326...`` and ``scale = 1.05070...`` (Klambauer et al. 2017).

    Examples
    --------
    >>> import numpy as np
    >>> do("selu", np.array([-1.0, 0.0, 2.0]))
    array([-1.11133074,  0.        ,  2.10140197])
    """
    x = _real_float(x, "selu")
    return _SELU_SCALE * do("elu", x, alpha=_SELU_ALPHA)


@composed("leaky_relu")
def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:
    """``x`` where ``x >= 0``, else ``negative_slope * x`` (keras's default slope 0.2;
    torch's and jax's is 0.01).

    Examples
    --------
    >>> import numpy as np
    >>> do("leaky_relu", np.array([-10.0, 0.0, 3.0]))
    array([-2.,  0.,  3.])
    """
    x = _real_float(x, "leaky_relu")
    return do("where", x >= 0, x, negative_slope * x)


@composed("log_sigmoid")
def log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x)) = -softplus(-x)``, without overflow.

    Examples
    --------
    >>> import numpy as np
    >>> do("log_sigmoid", np.array([-1000.0, 0.0, 1000.0]))
    array([-1.00000000e+03, -6.93147181e-01,  0.00000000e+00])
    """
    return -do("softplus", -_real_float(x, "log_sigmoid"))


@composed("hard_sigmoid")
def hard_sigmoid(x: Any) -> Any:
    """``relu6(x + 3) / 6``: 0 below -3, 1 above 3, linear between.

    Examples
    --------
    >>> import numpy as np
    >>> do("hard_sigmoid", np.array([-4.0, 0.0, 1.5, 4.0]))
    array([0.  , 0.5 , 0.75, 1.  ])
    """
    x = _real_float(x, "hard_sigmoid")
    return do("clip", x + 3.0, 0.0, 6.0) / 6.0


@composed("hard_silu")
def hard_silu(x: Any) -> Any:
    """``x * hard_sigmoid(x)`` (hard swish).

    Examples
    --------
    >>> import numpy as np
    >>> do("hard_silu", np.array([-4.0, 0.0, 1.5, 4.0]))
    array([-0.   ,  0.   ,  1.125,  4.   ])
    """
    x = _real_float(x, "hard_silu")
    return x * do("hard_sigmoid", x)


@composed("softsign")
def softsign(x: Any) -> Any:
    """``x / (1 + |x|)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("softsign", np.array([-3.0, 0.0, 1.0]))
    array([-0.75,  0.  ,  0.5 ])
    """
    x = _real_float(x, "softsign")
    return x / (1.0 + do("abs", x))


@composed("softmax")
def softmax(x: Any, axis: Any = -1) -> Any:
    """``exp(x) / sum(exp(x), axis)`` along ``axis`` (keras's default: the last axis;
    ``scipy.special.softmax``'s default is all axes).

    Examples
    --------
    >>> import numpy as np
    >>> do("softmax", np.array([[0.0, 0.0], [0.0, np.log(3.0)]]))
    array([[0.5 , 0.5 ],
           [0.25, 0.75]])
    """
    return do("scipy.special.softmax", _real_float(x, "softmax"), axis=axis)


@composed("log_softmax")
def log_softmax(x: Any, axis: Any = -1) -> Any:
    """``x - logsumexp(x, axis)`` along ``axis`` (default: the last axis, as keras).

    Examples
    --------
    >>> import numpy as np
    >>> do("log_softmax", np.array([0.0, 0.0]))
    array([-0.69314718, -0.69314718])
    """
    return do("scipy.special.log_softmax", _real_float(x, "log_softmax"), axis=axis)


@composed("glu")
def glu(x: Any, axis: int = -1) -> Any:
    """Gated linear unit: ``a * sigmoid(b)``, where ``a`` and ``b`` are the two halves
    of ``x`` along ``axis`` (whose length must be even).

    Examples
    --------
    >>> import numpy as np
    >>> do("glu", np.array([1.0, 2.0, 0.0, 100.0]))
    array([0.5, 2. ])
    """
    x = _real_float(x, "glu")
    n = do("shape", x)[axis]
    if n % 2:
        raise ValueError(f"glu splits axis {axis} in two halves; its length {n} is odd")
    a, b = do("split", x, 2, axis=axis)
    return a * do("sigmoid", b)


@composed("rsqrt")
def rsqrt(x: Any) -> Any:
    """Reciprocal square root ``1 / sqrt(x)`` (NaN below 0, inf at 0).

    Examples
    --------
    >>> import numpy as np
    >>> do("rsqrt", np.array([4.0, 0.25]))
    array([0.5, 2. ])
    """
    return 1.0 / do("sqrt", _real_float(x, "rsqrt"))


@composed("hard_tanh")
def hard_tanh(x: Any) -> Any:
    """``clip(x, -1, 1)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("hard_tanh", np.array([-3.0, 0.5, 2.0]))
    array([-1. ,  0.5,  1. ])
    """
    return do("clip", _real_float(x, "hard_tanh"), -1.0, 1.0)


@composed("hard_shrink")
def hard_shrink(x: Any, threshold: float = 0.5) -> Any:
    """``x`` where ``|x| > threshold``, else 0 (NaN stays NaN).

    Examples
    --------
    >>> import numpy as np
    >>> do("hard_shrink", np.array([-1.0, 0.3, 0.5, 0.7]))
    array([-1. ,  0. ,  0. ,  0.7])
    """
    x = _real_float(x, "hard_shrink")
    return do("where", do("abs", x) <= threshold, do("zeros_like", x), x)  # NaN stays


@composed("soft_shrink")
def soft_shrink(x: Any, threshold: float = 0.5) -> Any:
    """``x - threshold`` where ``x > threshold``, ``x + threshold`` where
    ``x < -threshold``, else 0.

    Examples
    --------
    >>> import numpy as np
    >>> do("soft_shrink", np.array([-1.0, 0.3, 0.75]))
    array([-0.5 ,  0.  ,  0.25])
    """
    x = _real_float(x, "soft_shrink")
    t = float(threshold)
    if t >= 0:
        return x - do("clip", x, -t, t)
    return do("where", x > t, x - t, x + t)  # no x lies in [-t, t] when t < 0


@composed("tanh_shrink")
def tanh_shrink(x: Any) -> Any:
    """``x - tanh(x)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("tanh_shrink", np.array([0.0, 1.0]))
    array([0.        , 0.23840584])
    """
    x = _real_float(x, "tanh_shrink")
    return x - do("tanh", x)


@composed("sparse_plus")
def sparse_plus(x: Any) -> Any:
    """0 where ``x <= -1``, ``(x + 1)**2 / 4`` where ``-1 < x < 1``, ``x`` where
    ``x >= 1`` (a smooth, piecewise twin of softplus).

    Examples
    --------
    >>> import numpy as np
    >>> do("sparse_plus", np.array([-2.0, 0.0, 0.5, 3.0]))
    array([0.    , 0.25  , 0.5625, 3.    ])
    """
    x = _real_float(x, "sparse_plus")
    inner = do("clip", x, -1.0, 1.0) + 1.0
    return do("where", x >= 1.0, x, 0.25 * inner * inner)


@composed("sparse_sigmoid")
def sparse_sigmoid(x: Any) -> Any:
    """0 where ``x <= -1``, ``(x + 1) / 2`` where ``-1 < x < 1``, 1 where ``x >= 1``
    (the derivative of ``sparse_plus``).

    Examples
    --------
    >>> import numpy as np
    >>> do("sparse_sigmoid", np.array([-2.0, 0.0, 0.5, 3.0]))
    array([0.  , 0.5 , 0.75, 1.  ])
    """
    x = _real_float(x, "sparse_sigmoid")
    return 0.5 * (do("clip", x, -1.0, 1.0) + 1.0)


@composed("squareplus")
def squareplus(x: Any, b: float = 4) -> Any:
    """``(x + sqrt(x**2 + b)) / 2``, a smooth ``relu`` (``b >= 0`` sets the
    smoothness; keras's and jax's default 4).

    Examples
    --------
    >>> import numpy as np
    >>> do("squareplus", np.array([-1.5, 0.0, 1.5]))
    array([0.5, 1. , 2. ])
    """
    x = _real_float(x, "squareplus")
    return 0.5 * (x + do("sqrt", x * x + b))


@composed("sparsemax")
def sparsemax(x: Any, axis: int = -1) -> Any:
    """Sparsemax along ``axis`` (Martins and Astudillo 2016): the Euclidean
    projection of ``x`` onto the probability simplex, ``max(x - tau, 0)`` with
    ``tau`` chosen so that the result sums to 1 along ``axis``.

    With ``z`` sorted in decreasing order and ``k`` the number of ``j`` (from 1)
    where ``1 + j z_j > z_1 + ... + z_j``, ``tau = (z_1 + ... + z_k - 1) / k``.

    Examples
    --------
    >>> import numpy as np
    >>> do("sparsemax", np.array([[0.5, 0.4, 0.0], [3.0, 1.0, 0.0]]))
    array([[0.53333333, 0.43333333, 0.03333333],
           [1.        , 0.        , 0.        ]])
    """
    x = _real_float(x, "sparsemax")
    ndim = len(do("shape", x))
    moved = axis not in (-1, ndim - 1)
    z = do("moveaxis", x, axis, -1) if moved else x
    n = do("shape", z)[-1]
    zs = do("flip", do("sort", z, axis=-1), axis=-1)
    cs = do("cumsum", zs, axis=-1)
    r = do("astype", do("arange", 1, n + 1, like=z), do("dtype_of", z))
    support = 1.0 + r * zs > cs
    k = do("sum", do("astype", support, do("dtype_of", z)), axis=-1, keepdims=True)
    tau = (do("sum", do("where", support, zs, 0.0 * zs), axis=-1, keepdims=True) - 1.0) / k
    out = do("maximum", z - tau, 0.0)
    return do("moveaxis", out, -1, axis) if moved else out


# the keras names of two activations above (documented aliases, docs/vocabulary.md)
swish = composed("swish")(silu)
hard_swish = composed("hard_swish")(hard_silu)
