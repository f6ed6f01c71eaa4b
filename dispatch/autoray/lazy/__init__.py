"""``autoray.lazy``: dispatch's lazy arrays (:mod:`dispatch.lazy`) under autoray's
module names; ``core``, ``linalg`` and ``draw`` are its submodules as autoray
ships them. Every module-level function (``lazy.stack``...) records a node, as in
:mod:`dispatch.lazy`."""

from typing import Any

import dispatch.lazy as _engine
from dispatch.autoray.lazy import core as _core
from dispatch.autoray.lazy import draw as _draw
from dispatch.autoray.lazy import linalg as _linalg
from dispatch.lazy import *  # noqa: F403  (the face re-exports the engine's lazy module)

# after the star import: these names are the face's submodules, not the engine's
globals().update(core=_core, draw=_draw, linalg=_linalg)

__all__ = tuple(_engine.__all__)


def __getattr__(name: str) -> Any:
    return getattr(_engine, name)
