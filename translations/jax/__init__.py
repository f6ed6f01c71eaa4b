"""jax: numpy names on jax arrays, and on jax tracers inside ``jit`` and ``grad``.

Most names resolve straight to ``jax.numpy`` and ``jax.scipy``, whose semantics
are numpy's and scipy's. The entries of this package cover what jax spells or
behaves differently: numpy's stateful ``random`` API on top of explicit PRNG
keys, numpy keywords that jax renamed (``clip``, ``pinv``, ``matrix_rank``),
numpy's promotion of integers with floats, numpy's ``lstsq`` residuals, and
creation functions without ``device=``.

Functions whose output shape depends on values (``nonzero``, ``argwhere``,
one-argument ``where``, ``unique``, ``repeat`` with array repeats, ``split``
at traced indices) work eagerly; inside ``jit`` they need jax's own ``size=``
keyword, as in jax itself. Random draws inside ``jit`` are made with a key
fixed at trace time, so a compiled function repeats its draws on every call.

The entries live by topic, each next to its adapter: ``creation``,
``elementwise``, ``reductions``, ``statistics`` (histograms, bincounts,
quantiles), ``shape``, ``indexing`` (take, scatter, gather, sort, search),
``linalg``, ``fft``, ``signal`` (convolutions), ``special``, ``random``,
``sparse``, ``autodiff``, ``control`` (jit, loops, vmap, host calls) and
``devices`` (conversions, dtypes, devices, DLPack, and the backend method
list's names written once in ``translations/_composed/bound.py``, bound to
jax) and ``dtypes`` (memory layout and sharing). This module holds the
library-level facts the engine reads and assembles the topics' tables.
"""

from __future__ import annotations

import contextlib
from typing import Any

from dispatch.translations import _safety
from dispatch.translations._adapters import merge_topics
from dispatch.translations.jax import (
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
    sparse,
    special,
    statistics,
)

TYPES = ("jax", "jaxlib")
MODULES = {"": "jax.numpy", "scipy": "jax.scipy"}
# what a name may reach (docs/safety.md)
SUBMODULES = ("jax.numpy.linalg", "jax.numpy.fft", "jax.scipy.*")
REFUSED = {"jax.numpy.set_printoptions": _safety.GLOBAL}
GUARDED = {"jax.numpy.load": {"allow_pickle": False}}
# jax.numpy takes numpy arrays as they are, and inside jit a numpy array stays a
# compile-time constant instead of becoming a device buffer
CONVERT_CONSTANTS = False


def creation_kwargs(like: Any) -> dict[str, Any]:
    """dtype and device of an example array, for creation functions."""
    kwargs = {"dtype": like.dtype}
    # tracers have no device; arrays sharded over several devices raise
    with contextlib.suppress(Exception):
        kwargs["device"] = like.device
    return kwargs


TABLE = merge_topics(
    creation, elementwise, reductions, statistics, shape, indexing, linalg, fft, signal, special,
    random, sparse, autodiff, control, devices, dtypes, nn,
)
