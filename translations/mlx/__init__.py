"""mlx: numpy names on arrays of ``mlx.core`` (Apple's array framework), with numpy
semantics.

Names resolve to ``mlx.core`` (``mlx.core.linalg``, ``mlx.core.fft``) where mlx's
function has numpy's signature and behaviour; the entries of this package cover
what mlx spells or behaves differently: dtype keywords that take mlx dtypes only,
creation functions whose default float is float32, linear algebra that runs on the
CPU stream only, reductions whose integer accumulators stay narrow, and numpy's
stateful ``random`` API on top of mlx's explicit keys. mlx arrays are immutable
and evaluated lazily; ``to_numpy`` evaluates. float64 runs on the CPU device only
and there is no complex128 (see docs/vocabulary.md, "mlx").

The entries live by topic, each next to its adapter: ``creation``,
``elementwise``, ``reductions``, ``shape``, ``indexing``, ``linalg``, ``fft``,
``random``, ``autodiff``, ``control`` and ``devices``. This module holds the
library-level facts the engine reads and assembles the topics' tables.
"""

from __future__ import annotations

from typing import Any

from dispatch.translations import _safety
from dispatch.translations._adapters import merge_topics
from dispatch.translations.mlx import (
    autodiff,
    control,
    creation,
    devices,
    dtypes,
    elementwise,
    fft,
    indexing,
    linalg,
    random,
    reductions,
    shape,
    sparse,
    special,
)
from dispatch.translations.mlx._common import NO_COMPLEX128

TYPES = ("mlx",)
MODULES = {"": "mlx.core", "linalg": "mlx.core.linalg", "fft": "mlx.core.fft",
           "random": "mlx.core.random"}
# what a name may reach (docs/safety.md)
SUBMODULES = ("mlx.core.linalg", "mlx.core.fft", "mlx.core.random")
REFUSED = {
    **dict.fromkeys(
        ("mlx.core.set_default_device", "mlx.core.set_default_stream",
         "mlx.core.set_memory_limit", "mlx.core.set_cache_limit", "mlx.core.set_wired_limit",
         "mlx.core.set_printoptions", "mlx.core.enable_compile", "mlx.core.disable_compile",
         "mlx.core.clear_cache"),
        _safety.GLOBAL,
    ),
    "mlx.core.random.seed": "mlx's global key: use do('random.seed', s, like='mlx')",
}
# the dtypes mlx lacks: a call whose numpy result needs one raises TypeError with this
# reason (tests/functions/test_vocabulary_smoke.py skips such cases with it)
MISSING_DTYPES = {"complex128": NO_COMPLEX128}


def creation_kwargs(like: Any) -> dict[str, Any]:
    """The dtype that creation functions take from an example array (an mlx array
    has no device of its own: memory is unified)."""
    return {"dtype": like.dtype}


TABLE = merge_topics(
    creation, elementwise, reductions, shape, indexing, linalg, fft, special, random, sparse,
    autodiff, control, devices, dtypes,
)
