"""paddle: the numpy vocabulary on ``paddle.Tensor``, with numpy semantics.

paddle's functions carry numpy's names but often not numpy's behaviour: keyword
names (``axis`` lists, ``perm``), result dtypes (integer division and means of
integers in float32, no promotion of integers with floats), 0-d results and pairs
where numpy returns one array. Names whose paddle function matches numpy's are
listed as paths (``"sin"``); the adapters beside the other entries restore numpy's
semantics, each saying why; the composed fallbacks cover the rest.

The entries live by topic: ``creation``, ``elementwise``, ``reductions``,
``shape``, ``indexing``, ``linalg``, ``fft``, ``random``, ``autodiff``,
``control`` and ``devices``. This module holds the library-level facts the engine
reads and assembles the topics' tables.
"""

from __future__ import annotations

from typing import Any

from dispatch.translations._adapters import merge_topics
from dispatch.translations.paddle import (
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
from dispatch.translations.paddle._common import NO_WIDE_UNSIGNED

TYPES = ("paddle",)
# dtypes paddle cannot hold: a call that needs one is refused with this reason
MISSING_DTYPES = {name: NO_WIDE_UNSIGNED for name in ("uint16", "uint32", "uint64")}
MODULES = {"": "paddle"}


def creation_kwargs(like: Any) -> dict[str, Any]:
    """dtype and device of an example tensor, for creation functions."""
    return {"dtype": like.dtype}


TABLE = merge_topics(
    creation, elementwise, reductions, shape, indexing, linalg, fft, special, random,
    sparse, autodiff, control, devices, dtypes,
)
