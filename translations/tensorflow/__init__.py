"""tensorflow: numpy names with numpy semantics on tf tensors.

Plain names resolve in ``tensorflow.experimental.numpy`` (tnp), which covers
much of numpy's API on tf tensors. Without ``tnp.experimental_enable_numpy_behavior()``
(global state we must not touch) many tnp functions fail on integer inputs or
promote differently from numpy, so elementwise functions, reductions and most
shape functions are adapters over ``tf`` ops here. Dtypes follow numpy exactly:
elementwise adapters ask numpy's own type resolution (``ufunc.resolve_dtypes``,
Python scalars weak as in NEP 50) which loop numpy would run, cast the inputs to
it, and let tf compute. ``linalg``, ``fft``, ``random`` and ``scipy`` names map to
``tf.linalg``, ``tf.signal``, ``tf.math`` and a ``tf.random.Generator`` kept in
the ``random`` module.

Tensors inside ``tf.function`` (symbolic tensors) and ``tf.Variable`` are
recognised too: their classes live under ``tensorflow.python``.

One module per topic holds that topic's entries next to their adapters:
``creation``, ``elementwise``, ``reductions``, ``statistics``, ``shape``,
``indexing``, ``linalg``, ``solvers``, ``fft``, ``signal``, ``random``,
``special``, ``sparse``, ``autodiff``, ``control``, ``devices``, ``dtypes``
(helpers they share: ``_common``). Besides numpy's names they hold tensorflow's
entries for the backend method list, with the layouts and semantics of the composed fallbacks in
``translations/_composed/``: tf.GradientTape for ``jacobian``/``gradient``/``hessian``,
tf.custom_gradient, tf.function for ``jit_compile`` (numpy arguments folded as
constants), tf.while_loop, tf.vectorized_map, tf.numpy_function, tf.SparseTensor for
every sparse format (tf has no CSR/CSC type: ``csr_matrix``/``csc_matrix`` convert),
tf.nn convolutions, tf.signal FFTs over given axes, and bincount /
tensor_scatter_nd kernels where the composed versions would be slow.
"""

from __future__ import annotations

from typing import Any

from dispatch.translations import _safety
from dispatch.translations._adapters import merge_topics
from dispatch.translations.tensorflow import (
    autodiff,
    control,
    creation,
    devices,
    dtypes,
    elementwise,
    fft,
    indexing,
    linalg,
    nn,
    random,
    reductions,
    shape,
    signal,
    solvers,
    sparse,
    special,
    statistics,
)

TYPES = ("tensorflow",)
MODULES = {"": "tensorflow.experimental.numpy"}
# what a name may reach (docs/safety.md)
SUBMODULES = ("tensorflow.experimental.numpy.random",)
REFUSED = {
    "tensorflow.experimental.numpy.experimental_enable_numpy_behavior": _safety.GLOBAL,
}
# every adapter here converts numpy arrays itself (``_t``/``_to``), and tnp and tf
# functions accept them, so the engine need not wrap mixed calls
CONVERT_CONSTANTS = False


def creation_kwargs(like: Any) -> dict[str, Any]:
    """Keyword arguments creation functions take from an example tensor ``like``.

    Only the dtype: tf creation functions take no device argument (placement is
    a ``tf.device`` context).

    Examples
    --------
    >>> import tensorflow as tf
    >>> creation_kwargs(tf.ones(2, dtype=tf.float32))
    {'dtype': tf.float32}
    """
    return {"dtype": like.dtype}


TABLE = merge_topics(
    creation, elementwise, reductions, statistics, shape, indexing, linalg, solvers, fft, signal,
    random, special, sparse, autodiff, control, devices, dtypes, nn,
)


# inside tf.function these adapters trace tf ops directly (explicit tf.where and
# tf.while_loop, Python branches on static dtypes and shapes only): mark them as
# AutoGraph artifacts (the attribute tf.autograph checks) so that they are called
# as plain Python instead of being re-parsed and converted on every trace
for _fn in TABLE.values():
    if callable(_fn):
        setattr(_fn, "autograph_info__", None)  # noqa: B010
