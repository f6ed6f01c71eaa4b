"""numpy's vocabulary over every backend: ``from dispatch import numpy as xp``.

Each attribute calls :func:`dispatch.do` with that name, so the arguments
decide the library::

    >>> import numpy as np
    >>> from dispatch import numpy as xp
    >>> xp.sum(np.arange(4))
    np.int64(6)
    >>> xp.linalg.norm(np.array([3.0, 4.0]))
    np.float64(5.0)
"""

from __future__ import annotations

from typing import Any

from dispatch._namespace import DoNamespace

_NS = DoNamespace()


def __getattr__(name: str) -> Any:
    return getattr(_NS, name)
