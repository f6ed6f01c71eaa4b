"""The Python array API standard's namespace, built over the vocabulary.

``dispatch.array_namespace(x)`` hands out a namespace with the standard's names,
signatures and semantics (version :data:`VERSION`) for the library of ``x``.
Every function here is a thin signature adapter over the vocabulary entry that
``do`` calls (:func:`dispatch.engine.get_lib_fn`): where numpy's meaning and the
standard's differ (``sort(descending=)``, ``var(correction=)``, ``concat``,
default dtypes of creation, type promotion of mixed arrays), the adapter
translates the call, and the one implementation of each operation stays in the
library's table or in ``_composed``.

Per library, the facts the standard asks of it and ``do`` does not know are in
:data:`LIBRARIES`: the dtypes it has, its default dtypes, and whether its binary
functions need the standard's type promotion put in front of them.
"""

from __future__ import annotations

from dispatch.translations._array_api import creation, elementwise, linalg, manipulation
from dispatch.translations._array_api._core import (
    CONSTANTS,
    DTYPE_NAMES,
    EXTENSIONS,
    FACTORIES,
    LIBRARIES,
    VERSION,
    VERSIONS,
    Info,
    Library,
    Space,
    can_cast_names,
    dtype_name,
    library,
    promote,
)

__all__ = [
    "CONSTANTS", "DTYPE_NAMES", "EXTENSIONS", "FACTORIES", "LIBRARIES", "VERSION", "VERSIONS",
    "Info", "Library", "Space", "can_cast_names", "dtype_name", "library", "promote",
]
del creation, elementwise, linalg, manipulation  # imported to register their members
